"""The longest games copy, pickle, serialize and replay without recursion that grows with
the game.

A state once kept its decisions as a linked list of nested tuples, as deep as the game was
long: ``copy.deepcopy`` (which OpenSpiel's clone of a Python state uses) and ``pickle``
recursed once per decision and hit Python's recursion limit in long 6-player Mottainai games
(``pyspiel.random_sim_test(game, serialize=True)`` failed). These tests play the longest
tables to the end and do all of it under a recursion limit far below the game's length.
"""

from __future__ import annotations

import contextlib
import copy
import pickle
import random
import sys
from collections.abc import Iterator
from typing import Any

import pyspiel
import pytest

from parlor import games
from parlor.core.record import replay
from parlor.rl.openspiel import register

register()
HEADROOM = 120  # frames above the caller: far fewer than a long game's decisions
LONGEST = [
    ("mottainai", 6, {"extended_game": True}),
    ("mottainai", 6, {}),
    ("mamma-mia", 5, {}),
    ("sweet-nose", 5, {}),
]


@contextlib.contextmanager
def shallow_recursion_limit() -> Iterator[None]:
    depth = 0
    frame: Any = sys._getframe()
    while frame is not None:
        depth += 1
        frame = frame.f_back
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + HEADROOM)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def longest_game(name: str, players: int, options: dict[str, Any]) -> Any:
    game = games.get(name)
    longest = None
    for seed in range(3):
        state = game.new_game(players, seed, game.options_for(players, options))
        pick = random.Random(seed)
        while not state.is_over:
            seat = state.to_move[0]
            state.apply(seat, pick.choice(state.legal_actions(seat)))
        if longest is None or len(state.history()) > len(longest.history()):
            longest = state
    return longest


@pytest.mark.parametrize(("name", "players", "options"), LONGEST)
def test_long_game_copies_pickles_serializes_and_replays(name: str, players: int, options: dict[str, Any]) -> None:
    state = longest_game(name, players, options)
    decisions = len(state.history())
    assert decisions > HEADROOM // 2  # a copy of a nested history needs two frames or more per decision
    text = state.to_json_text()
    with shallow_recursion_limit():
        copied = copy.deepcopy(state)
        pickled = pickle.loads(pickle.dumps(state))
        loaded = state.game.load_state(text)
        record = state.record()
        replayed = replay(record)
    for other in (copied, pickled, loaded, replayed):
        assert other.to_json_text() == text
        assert other.history() == state.history()


def test_clones_that_branch_keep_their_own_histories() -> None:
    # Clones share one history list; each branch must still see only its own decisions.
    game = games.get("mottainai")
    root = game.new_game(2, 3)
    seat = root.to_move[0]
    first, second = root.legal_actions(seat)[:2]
    left, right = root.clone(), root.clone()
    left.apply(seat, first)
    right.apply(seat, second)
    root_again = copy.deepcopy(root)
    assert left.history() == [(seat, first)] and right.history() == [(seat, second)]
    assert root.history() == root_again.history() == []
    left_more = left.clone()
    seat2 = left.to_move[0]
    left.apply(seat2, left.legal_actions(seat2)[0])
    assert len(left.history()) == 2 and left_more.history() == [(seat, first)]


def test_openspiel_random_sim_test_at_six_player_mottainai() -> None:
    # Seed 0 is one of the deals whose game hit the recursion limit.
    game = pyspiel.load_game("parlor_mottainai", {"players": 6, "seed": 0})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", ["mamma-mia", "sweet-nose", "mottainai"])
def test_a_state_no_clone_shares_appends_to_its_history_in_place(name: str) -> None:
    # Appending a decision must not copy the history (that made every decision cost as much as
    # the game's length; in the compiled build the appended entry once failed its own identity
    # check, so each decision copied the whole list). Only a clone that lags copies, once.
    game = games.get(name)
    state = game.new_game(4, 5)
    pick = random.Random(5)
    seat = state.to_move[0]
    state.apply(seat, pick.choice(state.legal_actions(seat)))
    log = state._history
    while not state.is_over and len(state.history()) < 60:
        seat = state.to_move[0]
        state.apply(seat, pick.choice(state.legal_actions(seat)))
        assert state._history is log
    assert log is not None and len(log) == len(state.history())
    behind = state.clone()  # shares the list, then falls behind it
    seat = state.to_move[0]
    state.apply(seat, pick.choice(state.legal_actions(seat)))
    seat = behind.to_move[0]
    behind.apply(seat, behind.legal_actions(seat)[0])
    copied = behind._history
    assert copied is not log and state._history is log  # the lagging clone copied, once
    seat = behind.to_move[0]
    behind.apply(seat, behind.legal_actions(seat)[0])
    assert behind._history is copied
    assert behind.history()[:-2] == state.history()[:-1]
