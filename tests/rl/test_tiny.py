"""The tiny variant with explicit chance: OpenSpiel's exact algorithms run on it, and CFR
lowers the uniform policy's exploitability (NashConv)."""

from __future__ import annotations

import pyspiel
import pytest
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import cfr, exploitability

from parlor.core.rng import Rng
from parlor.rl.openspiel import register
from parlor.rl.tiny import VARIANTS

TINY = {"variant": "tiny", "chance": "explicit", "reward": "score_margin", "reward_scale": 1.0}


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
    with pytest.raises(ValueError, match="none for this game yet"):
        pyspiel.load_game("parlor_sweet_nose", {"variant": "tiny"})
    with pytest.raises(ValueError, match="2 players with its own options"):
        pyspiel.load_game("parlor_mamma_mia", {"variant": "tiny", "players": 3})
    # the deterministic mode plays the tiny deals too, a new one per initial state
    game = pyspiel.load_game("parlor_mamma_mia", {"variant": "tiny", "seed": 2})
    state = game.new_initial_state()
    assert not state.is_chance_node() and state.parlor.round == 3 and state.parlor.n_toppings == [2, 2]
