"""PettingZoo's global state (``state()`` / ``state_space``) for centralized critics: declared
shape and dtype, PettingZoo's own state test, and that it holds what the observations do not."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import state_test

from parlor import games
from parlor.core.game import State
from parlor.core.rng import Rng
from parlor.rl import encoding
from parlor.rl.pettingzoo import env, parallel_env
from parlor.rl.privileged import HORIZON, PrivilegedState


def _play(state: State, decisions: int, seed: int) -> State:
    rng = np.random.default_rng(seed)
    for _ in range(decisions):
        if state.is_over:
            break
        seat = state.to_move[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[int(rng.integers(len(legal)))])
    return state


def _observations(state: State) -> list[tuple[bytes, bytes, str]]:
    enc = encoding(state.game)
    return [
        (enc.encode(state, s).tobytes(), enc.action_mask(state, s).tobytes(), enc.information_state(state, s))
        for s in range(state.players)
    ]


@pytest.mark.parametrize("name", games.names())
def test_state_has_the_declared_shape_on_aec_and_parallel_envs(name: str) -> None:
    players = 3
    aec, par = env(name, players=players), parallel_env(name, players=players)
    size = PrivilegedState(name, players).size
    observation = encoding(name).LAYOUT.size
    assert size >= players * observation
    for e in (aec, par):
        assert e.state_space.shape == (size,) and e.state_space.dtype == np.float32
        with pytest.raises(RuntimeError, match="reset"):
            e.state()
    aec.reset(seed=3)
    first = aec.state()
    assert first.shape == (size,) and first.dtype == np.float32 and aec.state_space.contains(first)
    # the first block is seat 0's own observation, absolute order
    assert np.array_equal(first[:observation], aec.observe("player_0")["observation"])
    assert np.array_equal(first[observation : 2 * observation], aec.observe("player_1")["observation"])
    par.reset(seed=3)
    assert np.array_equal(par.state(), first)
    state_test(env(name, players=players), parallel_env(name, players=players), num_cycles=5)


@pytest.mark.parametrize("name", games.names())
def test_state_differs_between_worlds_a_seat_cannot_tell_apart(name: str) -> None:
    """Another seat's hidden hand is in the state: the real table and a determinized one
    (same observation for the seat) give different states."""
    game = games.get(name)
    privileged = PrivilegedState(game, 3)
    state = _play(game.new_game(3, 5, game.default_options(3)), 12, 0)
    differing = 0
    for k in range(5):
        world = state.determinize(0, Rng(k))
        assert _observations(world)[0] == _observations(state)[0]
        differing += not np.array_equal(privileged.encode(world), privileged.encode(state))
    assert differing > 0


def _reorder_unseen_cards(state: State) -> State:
    """The same table with two different cards near the top of a face-down stack nobody has seen swapped."""
    world = state.clone()
    if state.game.name == "mottainai":
        from parlor.games.mottainai.rules import NOBODY

        deck, info = world.deck, world.deck_info  # type: ignore[attr-defined]
        unseen = [i for i in range(len(deck)) if info[i] == NOBODY][-HORIZON:]  # near the top (the end)
    else:  # mamma-mia: the supply, top = last
        deck = world.supply  # type: ignore[attr-defined]
        unseen = list(range(len(deck)))[-HORIZON:]
    top = unseen[-1]
    other = next(i for i in reversed(unseen) if deck[i] != deck[top])
    deck[top], deck[other] = deck[other], deck[top]
    return world


@pytest.mark.parametrize("name", ["mamma-mia", "mottainai"])
@pytest.mark.parametrize("players", [2, 4])
def test_state_differs_between_deals_that_every_seat_observes_alike(name: str, players: int) -> None:
    """The order of the face-down stacks is in the state and in no observation."""
    game = games.get(name)
    privileged = PrivilegedState(game, players)
    for decisions in (0, 15):
        state = _play(game.new_game(players, 11, game.default_options(players)), decisions, 1)
        world = _reorder_unseen_cards(state)
        assert world.to_json() != state.to_json()
        assert _observations(world) == _observations(state)
        assert not np.array_equal(privileged.encode(world), privileged.encode(state))


@pytest.mark.parametrize("players", [2, 3])
def test_a_face_down_starting_task_nobody_knows_is_in_the_state(players: int) -> None:
    """Mottainai: a face-down starting task swapped with a deck card deeper than the state
    shows: every seat observes the same, the state differs (by the task alone)."""
    from parlor.games.mottainai.rules import NOBODY

    game = games.get("mottainai")
    privileged = PrivilegedState(game, players)
    state = game.new_game(players, 4)
    seat = next(p for p in range(players) if state.tasks[p] >= 0 and not state.task_up[p])
    world = state.clone()
    deck = world.deck
    deep = next(i for i in range(len(deck) - HORIZON) if world.deck_info[i] == NOBODY and deck[i] != world.tasks[seat])
    world.tasks[seat], deck[deep] = deck[deep], world.tasks[seat]
    assert _observations(world) == _observations(state)
    differs = np.flatnonzero(privileged.encode(world) != privileged.encode(state))
    assert differs.size == 2  # one card out of the task zone, one in
    names = {name for offset, size, name in privileged.slices() for i in differs if offset <= i < offset + size}
    assert names == {f"face_down_task[{seat}]"}


def test_sweet_nose_state_is_every_observation() -> None:
    """Sweet Nose deals nothing face down ahead of time: its state is the observations alone."""
    privileged = PrivilegedState("sweet-nose", 4)
    state = _play(games.get("sweet-nose").new_game(4, 2, None), 20, 2)
    enc = encoding("sweet-nose")
    assert np.array_equal(privileged.encode(state), np.concatenate([enc.encode(state, s) for s in range(4)]))


def test_encode_refuses_another_table_and_a_wrong_buffer() -> None:
    privileged = PrivilegedState("mottainai", 2)
    game = games.get("mottainai")
    with pytest.raises(ValueError, match="3-player"):
        privileged.encode(game.new_game(3, 0, None))
    with pytest.raises(ValueError, match="float32"):
        privileged.encode(game.new_game(2, 0, None), out=np.zeros(privileged.size, np.float64))
    out = np.full(privileged.size, 7.0, np.float32)
    assert privileged.encode(game.new_game(2, 0, None), out=out) is out and out.max() <= 1.0
