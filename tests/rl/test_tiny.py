"""The tiny variant with explicit chance: OpenSpiel's exact algorithms run on it, and CFR
lowers the uniform policy's exploitability (NashConv)."""

from __future__ import annotations

import pyspiel
import pytest
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import cfr, exploitability

from parlor.core.rng import Rng
from parlor.games.sweet_nose.actions import AssignSweetness
from parlor.games.sweet_nose.rules import ASSIGN
from parlor.rl.openspiel import register
from parlor.rl.rewards import margin_of
from parlor.rl.tiny import SWEET_NOSE_PLACEMENTS, VARIANTS

TINY = {"variant": "tiny", "chance": "explicit", "reward": "score_margin", "reward_scale": 1.0}
# Sweet Nose's tiny margins reach 5 points: at scale 5 none is clipped
SWEET_NOSE_TINY = {**TINY, "reward_scale": 5.0}
MUNG, PEACH = 0, 1  # kind indices of the two sweets in play


def test_the_tiny_deal_is_its_description() -> None:
    """Every way the 4 toppings can fall: 2 to each seat, nothing in the supply; the deal's
    chance outcomes cover them with probabilities summing to 1."""
    register()
    game = pyspiel.load_game("parlor_mamma_mia", TINY)
    hands: dict[tuple[tuple[int, ...], ...], float] = {}

    def walk(state: pyspiel.State, p: float) -> None:
        if state.is_chance_node():
            for outcome, q in state.chance_outcomes():
                child = state.clone()
                child.apply_action(outcome)
                walk(child, p * q)
            return
        parlor = state.parlor
        assert parlor.n_toppings == [2, 2] and parlor.supply == [] and parlor.round == 3
        key = (tuple(parlor.hand_toppings[:5]), tuple(parlor.hand_toppings[5:]))
        hands[key] = hands.get(key, 0.0) + p

    walk(game.new_initial_state(), 1.0)
    assert sum(hands.values()) == pytest.approx(1.0)
    # seat 0's hand is 2 of {mushroom, mushroom, olive, salami}: mm, mo, ms, os (1, 2, 2, 1 in 6)
    assert sorted(round(p * 6) for p in hands.values()) == [1, 1, 2, 2]
    # the deterministic mode deals the same positions from seeds
    seeded = VARIANTS["mamma-mia"].deal(Rng(5))
    assert (tuple(seeded.hand_toppings[:5]), tuple(seeded.hand_toppings[5:])) in hands


def test_cfr_lowers_the_uniform_policys_exploitability() -> None:
    # Mamma Mia! only: the tiny Mottainai takes about twice the CPU (benchmarks/exploitability.py
    # --game mottainai runs it)
    register()
    game = pyspiel.load_game("parlor_mamma_mia", TINY)
    uniform = exploitability.nash_conv(game, policy_lib.UniformRandomPolicy(game))
    assert uniform > 0
    solver = cfr.CFRSolver(game)
    for _ in range(2):
        solver.evaluate_and_update_policy()
    assert exploitability.nash_conv(game, solver.average_policy()) < uniform


def test_the_tiny_mottainai_deals_every_split_of_its_four_cards() -> None:
    register()
    game = pyspiel.load_game("parlor_mottainai", TINY)
    hands: set[tuple[tuple[int, ...], ...]] = set()

    def walk(state: pyspiel.State) -> None:
        if state.is_chance_node():
            for outcome, _ in state.chance_outcomes():
                child = state.clone()
                child.apply_action(outcome)
                walk(child)
            return
        parlor = state.parlor
        assert [len(h) for h in parlor.hands] == [2, 2] and len(parlor.deck) == 2
        hands.add(tuple(tuple(sorted(h)) for h in parlor.hands))

    walk(game.new_initial_state())
    assert len(hands) == 6  # which 2 of the 4 cards seat 0 holds
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_bad_variants_are_refused() -> None:
    register()
    with pytest.raises(ValueError, match="unknown variant 'huge'"):
        pyspiel.load_game("parlor_mamma_mia", {"variant": "huge"})
    with pytest.raises(ValueError, match="3 players with its own options"):
        pyspiel.load_game("parlor_sweet_nose", {"variant": "tiny", "players": 4})
    with pytest.raises(ValueError, match="2 players with its own options"):
        pyspiel.load_game("parlor_mamma_mia", {"variant": "tiny", "players": 3})
    # the deterministic mode plays the tiny deals too, a new one per initial state
    game = pyspiel.load_game("parlor_mamma_mia", {"variant": "tiny", "seed": 2})
    state = game.new_initial_state()
    assert not state.is_chance_node() and state.parlor.round == 3 and state.parlor.n_toppings == [2, 2]


def test_the_tiny_sweet_nose_deals_every_arrangement_and_offers_two_placements() -> None:
    """2 mung bean cakes and 2 peach buns shuffled: one to each tray, the last to the market
    (beside one of each), each of the 6 arrangements with probability 1/6; each seat chooses
    secretly which of the two is sweet for it; the whole tree stays tiny."""
    register()
    game = pyspiel.load_game("parlor_sweet_nose", SWEET_NOSE_TINY)
    deals: dict[tuple[int, ...], float] = {}
    placement_ids = sorted(game.parlor.action_id(AssignSweetness(values)) for values in SWEET_NOSE_PLACEMENTS)
    sizes = {"chance": 0, "decision": 0, "terminal": 0}

    def walk(state: pyspiel.State, p: float) -> None:
        if state.is_chance_node():
            sizes["chance"] += 1
            outcomes = state.chance_outcomes()
            assert sum(q for _, q in outcomes) == pytest.approx(1.0)
            for outcome, q in outcomes:
                walk(state.child(outcome), p * q)
            return
        if state.is_terminal():
            sizes["terminal"] += 1
            assert state.returns() == margin_of(state.parlor, 5.0)  # no margin clipped
            return
        sizes["decision"] += 1
        parlor = state.parlor
        if parlor.step == ASSIGN:
            assert state.legal_actions() == placement_ids
            if len(parlor.to_move) == 3:  # the position just dealt
                trays = [parlor.tray(seat) for seat in range(3)]
                assert all(sum(t) == 1 and t[MUNG] + t[PEACH] == 1 for t in trays)
                assert sum(parlor.market) == 3 and parlor.market[MUNG] >= 1 and parlor.market[PEACH] >= 1
                key = tuple(t[MUNG] for t in trays)  # which trays got the mung bean cakes
                deals[key] = deals.get(key, 0.0) + p
        for action in state.legal_actions():
            walk(state.child(action), p)

    walk(game.new_initial_state(), 1.0)
    assert sorted(deals) == [(0, 0, 1), (0, 1, 0), (0, 1, 1), (1, 0, 0), (1, 0, 1), (1, 1, 0)]
    assert all(p == pytest.approx(1 / 6) for p in deals.values())
    assert sizes == {"chance": 17, "decision": 616, "terminal": 768}
    # the deterministic mode deals the same positions from seeds
    seeded = VARIANTS["sweet-nose"].deal(Rng(5))
    assert tuple(seeded.tray(seat)[MUNG] for seat in range(3)) in deals


def test_a_placement_the_tiny_sweet_nose_does_not_offer_is_refused_and_changes_nothing() -> None:
    register()
    game = pyspiel.load_game("parlor_sweet_nose", SWEET_NOSE_TINY)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(0)
    history, legal = state.history(), state.legal_actions()
    other = game.parlor.action_id(AssignSweetness((1, 2, 3, 4, 5)))  # legal in the full game
    assert other in [game.parlor.action_id(a) for a in state.parlor.legal_actions(0)] and other not in legal
    with pytest.raises(ValueError, match="not one of the tiny variant's decisions"):
        state.apply_action(other)
    assert state.history() == history and state.legal_actions() == legal and state.current_player() == 0
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_cfr_lowers_the_tiny_sweet_nose_uniform_policys_exploitability() -> None:
    """Three seats, general-sum margins: CFR's average policy still lowers NashConv here."""
    register()
    game = pyspiel.load_game("parlor_sweet_nose", SWEET_NOSE_TINY)
    uniform = exploitability.nash_conv(game, policy_lib.UniformRandomPolicy(game))
    assert uniform > 0
    solver = cfr.CFRSolver(game)
    for _ in range(2):  # the first iterate is the uniform policy itself
        solver.evaluate_and_update_policy()
    assert exploitability.nash_conv(game, solver.average_policy()) < uniform
