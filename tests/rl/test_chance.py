"""Explicit chance: scripted draws (core/rng.py ChanceScript), the deals of parlor.rl.chance,
and OpenSpiel's ``chance="explicit"`` mode of the three games."""

from __future__ import annotations

import pickle

import numpy as np
import pyspiel
import pytest

from parlor import games
from parlor.core.game import State
from parlor.core.rng import ChanceNeeded, ChanceScript, Rng
from parlor.rl.chance import deal, try_apply, try_deal
from parlor.rl.openspiel import register

SHORT = {"mamma-mia": "parlor_mamma_mia", "sweet-nose": "parlor_sweet_nose", "mottainai": "parlor_mottainai"}


def _without_rng(state: State) -> dict:
    """The position without the generator (an explicit-chance state draws nothing from it)."""
    data = state.to_json()
    data.pop("rng", None)
    data.pop("seed", None)
    return data


def test_a_script_gives_the_draws_and_stops_where_it_runs_out() -> None:
    rng = Rng(1)
    rng.script = ChanceScript([2, 0, 1])
    items = ["a", "b", "c", "d"]
    rng.shuffle(items)  # position 3 swaps with 2, position 2 with 0, position 1 with 1
    assert items == ["d", "b", "a", "c"]
    with pytest.raises(ChanceNeeded) as need:
        rng.below(6)
    assert need.value.bound == 6
    bad = Rng(1)
    bad.script = ChanceScript([5])
    with pytest.raises(ValueError, match="not below 3"):
        bad.below(3)
    with pytest.raises(ValueError, match="bounded"):
        bad.random()


def test_a_script_of_a_seeds_draws_repeats_that_seed() -> None:
    """A shuffle is its ``below`` draws: scripting what a seed draws gives the same permutation."""
    plain, bounds = Rng(42), list(range(9, 0, -1))
    expected = list(range(10))
    Rng(42).shuffle(expected)
    drawn = [plain.below(n + 1) for n in bounds]
    scripted = Rng(0)
    scripted.script = ChanceScript(drawn)
    items = list(range(10))
    scripted.shuffle(items)
    assert items == expected


@pytest.mark.parametrize("name", games.names())
def test_the_deals_are_the_games_own(name: str) -> None:
    game = games.get(name)
    for players in (game.min_players, game.max_players):
        for seed in (0, 7):
            options = game.default_options(players)
            assert deal(game, players, seed, options).to_json() == game.new_game(players, seed, options).to_json()


def _seeded_outcome(rng: Rng, bound: int) -> int:
    return rng.below(bound)


@pytest.mark.parametrize("name", games.names())
def test_explicit_chance_fed_with_a_seeds_draws_plays_that_seeds_game(name: str) -> None:
    """Every chance node lists uniform outcomes; choosing the ones the seed's generator draws
    reproduces, decision for decision, the deterministic game of that seed."""
    register()
    game = games.get(name)
    players = game.min_players
    spiel = pyspiel.load_game(SHORT[name], {"players": players, "chance": "explicit"})
    assert spiel.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = spiel.new_initial_state()
    reference = game.new_game(players, 3)
    rng, picks = Rng(3), np.random.default_rng(0)
    chance_nodes = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            bound = len(outcomes)
            assert [a for a, _ in outcomes] == list(range(bound)) == state.legal_actions()
            assert all(p == 1.0 / bound for _, p in outcomes)
            state.apply_action(_seeded_outcome(rng, bound))
            chance_nodes += 1
            continue
        if chance_nodes and not reference.history():  # the deal is over: the seed's deal
            assert _without_rng(state.parlor) == _without_rng(reference)
        seat = state.current_player()
        assert reference.to_move[0] == seat
        action = int(picks.choice(state.legal_actions()))
        state.apply_action(action)
        reference.apply(seat, game.action_from_id(action))
    assert chance_nodes > 0
    assert reference.is_over and _without_rng(state.parlor) == _without_rng(reference)
    copy = spiel.deserialize_state(state.serialize())
    assert copy.history() == state.history() and copy.returns() == state.returns()
    assert pickle.loads(pickle.dumps(state)).returns() == state.returns()


@pytest.mark.parametrize("name", games.names())
def test_openspiel_checks_the_explicit_chance_games(name: str) -> None:
    register()
    spiel = pyspiel.load_game(SHORT[name], {"players": games.get(name).min_players, "chance": "explicit"})
    pyspiel.random_sim_test(spiel, num_sims=1, serialize=True, verbose=False)


def test_a_decision_stopped_by_a_draw_leaves_the_state_unchanged() -> None:
    """try_apply plays on a clone: the state keeps its position whatever the script holds."""
    game = games.get("mamma-mia")
    dealt = try_deal(game, 2, game.default_options(2), [])
    assert dealt == 8  # the deal's first draw: the last of seat 0's 8 waiter orders swaps with one of 8
    state = game.new_game(2, 1)
    before = state.to_json()
    rng = np.random.default_rng(0)
    stopped = 0
    while not state.is_over and stopped == 0:
        seat = state.to_move[0]
        action = state.legal_actions(seat)[int(rng.integers(len(state.legal_actions(seat))))]
        reached = try_apply(state, seat, action, [])
        assert state.to_json() == before
        if isinstance(reached, int):
            stopped = reached  # a round ended: the reshuffle of the supply needs a draw
        else:
            state.apply(seat, action)
            before = state.to_json()
    assert stopped > 1


def test_bad_chance_parameters_are_refused() -> None:
    register()
    with pytest.raises(ValueError, match="chance must be"):
        pyspiel.load_game("parlor_sweet_nose", {"chance": "sampled"})
    with pytest.raises(ValueError, match="JSON object"):
        pyspiel.load_game("parlor_sweet_nose", {"options": "[1]"})
    state = pyspiel.load_game("parlor_sweet_nose", {"chance": "explicit"}).new_initial_state()
    bound = len(state.chance_outcomes())
    history = state.history()
    with pytest.raises(ValueError, match="not below"):
        state.apply_action(bound)
    assert state.history() == history and state.is_chance_node() and len(state.chance_outcomes()) == bound


@pytest.mark.parametrize("name", games.names())
def test_every_draw_of_the_largest_deal_fits_the_declared_outcomes(name: str) -> None:
    register()
    game = games.get(name)
    spiel = pyspiel.load_game(SHORT[name], {"players": game.max_players, "chance": "explicit"})
    state, rng = spiel.new_initial_state(), Rng(9)
    largest = 0
    while state.is_chance_node():
        bound = len(state.chance_outcomes())
        largest = max(largest, bound)
        state.apply_action(rng.below(bound))
    assert 0 < largest <= spiel.max_chance_outcomes()
    assert _without_rng(state.parlor) == _without_rng(game.new_game(game.max_players, 9))
