"""The engine contract for wrongly typed input: the engine's own errors, never TypeError.

The compiled build (mypyc) checks argument types at every compiled function; the public entry
points take ``Any`` and check for themselves, so both builds answer alike. CI runs this file
on the compiled build and on the pure-Python one.
"""

from __future__ import annotations

import pytest

from parlor import games
from parlor.core import IllegalAction, OptionError, ParlorError, StateError

NAMES = games.names()
BAD_SEATS = ["0", None, 1.5, 0.0, True, b"0", [0], object()]


def _started(name: str):
    game = games.get(name)
    state = game.new_game(game.min_players, 3)
    assert state.to_move
    return game, state


@pytest.mark.parametrize("name", NAMES)
def test_new_game_wrong_types_raise_engine_errors(name):
    game = games.get(name)
    players = game.min_players
    for bad in ("2", 2.0, None, [2], object()):
        with pytest.raises(ParlorError):
            game.new_game(bad, 0)
    for bad in ("1", 1.0, None, [1]):
        with pytest.raises(ParlorError):
            game.new_game(players, bad)
    for bad in (5, "x", [("a", 1)], object()):
        with pytest.raises(OptionError):
            game.new_game(players, 0, bad)
    for bad in ({"no_such_option": 1}, {1: 2}):
        with pytest.raises(OptionError):
            game.new_game(players, 0, bad)


@pytest.mark.parametrize("name", NAMES)
def test_legal_actions_and_apply_wrong_types_raise_illegal_action(name):
    game, state = _started(name)
    seat = state.to_move[0]
    legal = state.legal_actions(seat)
    before = state.to_json()
    for bad in BAD_SEATS:
        with pytest.raises(IllegalAction):
            state.legal_actions(bad)
        with pytest.raises(IllegalAction):
            state.apply(bad, legal[0])
    for bad in (None, "x", 0, legal[0].to_json(), object(), game):
        with pytest.raises(IllegalAction):
            state.apply(seat, bad)
    for bad in (None, 5, "x", [], {"type": 1}):
        with pytest.raises(IllegalAction):
            state.apply_json(seat, bad)
    for bad in ("1", None, 1.0, True, -1):
        with pytest.raises(IllegalAction):
            game.action_from_id(bad)
    assert state.to_json() == before
    assert state.legal_actions(seat) == legal


@pytest.mark.parametrize("name", NAMES)
def test_integer_like_seats_still_work(name):
    numpy = pytest.importorskip("numpy")
    _game, state = _started(name)
    seat = state.to_move[0]
    assert state.legal_actions(numpy.int64(seat)) == state.legal_actions(seat)
    twin = state.clone()
    action = state.legal_actions(seat)[0]
    assert state.apply(numpy.int64(seat), action) == twin.apply(seat, action)
    assert state.to_json() == twin.to_json()


@pytest.mark.parametrize("name", NAMES)
def test_load_state_wrong_types_raise_state_error(name):
    game, state = _started(name)
    good = state.to_json()
    damaged = [
        5,
        "not json",
        {**good, "players": "2"},
        {**good, "seed": "x"},
        {**good, "rng": "x"},
        {**good, "to_move": "x"},
        {**good, "history": 5},
        {**good, "state": 5},
        {**good, "state": {k: "x" for k in good["state"]}},
    ]
    for bad in damaged:
        with pytest.raises(StateError):
            game.load_state(bad)


@pytest.mark.parametrize("name", NAMES)
def test_view_and_determinize_wrong_input_raise_engine_errors(name):
    from parlor.core.rng import FastRng, Rng

    _game, state = _started(name)
    before = state.to_json()
    for bad in [*BAD_SEATS[:1], *BAD_SEATS[2:], -1, state.players]:  # None is a spectator for view
        with pytest.raises(ParlorError):
            state.view(bad)
    for bad in [*BAD_SEATS, -1, state.players]:
        with pytest.raises(ParlorError):
            state.determinize(bad, Rng(1))
    for bad in (None, "x", 7, __import__("random").Random(1)):
        with pytest.raises(ParlorError):
            state.determinize(0, bad)
    for bad in ("yes", 1, None):
        with pytest.raises(ParlorError):
            state.view(0, recall=bad)
    assert state.to_json() == before
    # the right input still works, NumPy integer seats included
    numpy = pytest.importorskip("numpy")
    assert state.view(numpy.int64(0)) == state.view(0)
    assert state.view(None)["you"] is None
    assert state.determinize(numpy.int64(0), Rng(5)).to_json() == state.determinize(0, Rng(5)).to_json()
    state.determinize(0, FastRng(5))
