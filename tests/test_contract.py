"""The engine contract (docs/engine.md), checked on every registered game and player count.

Written against the protocol only: a new game registered in ``parlor.games`` is tested here
without a line of change. Random legal play is driven by hypothesis: a game seed and the seed
of a random choice sequence, so a failure is reported as two integers that reproduce it.

CI runs a short version; ``PARLOR_STRESS=1`` multiplies the examples and runs the long
``stress``-marked variants too.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlor import games
from parlor.core import IllegalAction, ParlorError, Rng, replay, replay_iter

STRESS = os.environ.get("PARLOR_STRESS") == "1"
MAX_DECISIONS = 20_000  # a game that takes longer than this counts as "never ends"

CASES = [
    pytest.param(name, players, id=f"{name}-{players}p")
    for name in games.names()
    for players in range(games.get(name).min_players, games.get(name).max_players + 1)
]
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)  # game seeds and choice-sequence seeds


def examples(n: int) -> int:
    return n * 20 if STRESS else n


def fast(n: int) -> settings:
    return settings(max_examples=examples(n), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def canon(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False)


def events_json(events: list[Any]) -> str:
    return canon([e.to_json() for e in events])


def playout(game: Any, players: int, seed: int, rnd: random.Random, on_step: Any = None) -> tuple[Any, list, list]:
    """Play a random legal game to its end. Returns (final state, decisions, events per decision).

    ``on_step(state, seat)`` runs before every decision.
    """
    state = game.new_game(players, seed)
    decisions: list[tuple[int, Any]] = []
    log: list[str] = []
    while not state.is_over:
        assert len(decisions) < MAX_DECISIONS, "the game does not end"
        assert state.to_move, "a game that is not over must wait for someone"
        seat = rnd.choice(state.to_move)
        legal = state.legal_actions(seat)
        assert legal, f"seat {seat} is to move but has no legal action"
        if on_step is not None:
            on_step(state, seat)
        action = rnd.choice(legal)
        log.append(events_json(state.apply(seat, action)))
        decisions.append((seat, action))
    return state, decisions, log


def check_result(state: Any) -> None:
    result = state.result()
    assert len(result.scores) == state.players
    assert len(result.places) == state.players
    assert result.winners and all(0 <= w < state.players for w in result.winners)
    assert all(result.places[w] == 1 for w in result.winners)
    assert state.legal_actions(0) == []
    with pytest.raises(IllegalAction):
        state.apply(0, object())


# ---------------------------------------------------------------------------------- properties


@pytest.mark.parametrize(("name", "players"), CASES)
@fast(15)
@given(seed=SEEDS, choices=SEEDS)
def test_random_play_ends_and_is_deterministic(name, players, seed, choices):
    rnd = random.Random(choices)  # the random choice sequence
    game = games.get(name)
    final, decisions, log = playout(game, players, seed, rnd)
    check_result(final)
    # Same seed + same actions => the same states and the same events, byte for byte.
    again = game.new_game(players, seed)
    for (seat, action), expected in zip(decisions, log):
        assert events_json(again.apply(seat, action)) == expected
    assert canon(again.to_json()) == canon(final.to_json())
    assert canon(game.new_game(players, seed).to_json()) == canon(game.new_game(players, seed).to_json())


@pytest.mark.parametrize(("name", "players"), CASES)
@fast(10)
@given(seed=SEEDS, choices=SEEDS)
def test_replay_rebuilds_the_game(name, players, seed, choices):
    rnd = random.Random(choices)  # the random choice sequence
    game = games.get(name)
    final, decisions, _ = playout(game, players, seed, rnd)
    record = json.loads(json.dumps(final.record()))  # a record is plain JSON
    assert record["actions"] == [[seat, action.to_json()] for seat, action in decisions]
    assert canon(replay(record).to_json()) == canon(final.to_json())
    states = list(replay_iter(record))
    assert len(states) == len(decisions) + 1
    assert canon(states[-1].to_json()) == canon(final.to_json())
    assert canon(states[0].to_json()) == canon(game.new_game(players, seed).to_json())
    # Every intermediate state replays the record's prefix.
    k = rnd.randrange(len(states))
    prefix = dict(record, actions=record["actions"][:k])
    assert canon(replay(prefix).to_json()) == canon(states[k].to_json())


def _garbage_actions(game: Any, legal: list[Any], rnd: random.Random) -> list[Any]:
    """Objects that are not a legal action now: other actions of the game, and junk."""
    out: list[Any] = [None, "garbage", 42, object(), {"type": legal[0].to_json()["type"]}]
    ids = list(range(game.num_actions))
    rnd.shuffle(ids)
    for i in ids[:40]:
        a = game.action_from_id(i)
        if a not in legal:
            out.append(a)
            if len(out) > 8:
                break
    return out


GARBAGE_JSON = [
    None,
    [],
    "play",
    17,
    {},
    {"type": "no_such_action"},
    {"type": 3},
    {"type": None, "x": 1},
]


@pytest.mark.parametrize(("name", "players"), CASES)
@fast(6)
@given(seed=SEEDS, choices=SEEDS)
def test_illegal_actions_raise_and_change_nothing(name, players, seed, choices):
    rnd = random.Random(choices)  # the random choice sequence
    game = games.get(name)

    def check(state, seat):
        if rnd.random() > 0.15:
            return
        before = canon(state.to_json())
        legal = state.legal_actions(seat)
        others = [p for p in range(state.players) if p not in state.to_move]
        attempts: list[tuple[int, Any]] = [(p, legal[0]) for p in others]  # another seat's move
        attempts += [(seat, a) for a in _garbage_actions(game, legal, rnd)]
        attempts += [(-1, legal[0]), (state.players, legal[0]), ("0", legal[0])]
        for who, action in attempts:
            with pytest.raises(IllegalAction):
                state.apply(who, action)
            assert canon(state.to_json()) == before, f"{action!r} by {who!r} changed the state"
        for data in [*GARBAGE_JSON, {**legal[0].to_json(), "unexpected": 1}]:
            with pytest.raises(IllegalAction):
                state.apply_json(seat, data)
            assert canon(state.to_json()) == before
        assert state.legal_actions(seat) == legal

    final, _, _ = playout(game, players, seed, rnd, check)
    before = canon(final.to_json())
    with pytest.raises(IllegalAction):
        final.apply(0, game.action_from_id(0))
    assert canon(final.to_json()) == before


@pytest.mark.parametrize(("name", "players"), CASES)
@fast(8)
@given(seed=SEEDS, choices=SEEDS)
def test_save_load_and_clone(name, players, seed, choices):
    rnd = random.Random(choices)  # the random choice sequence
    game = games.get(name)

    def check(state, seat):
        if rnd.random() > 0.2:
            return
        saved = state.to_json()
        text = canon(saved)
        loaded = game.load_state(json.loads(text))
        assert canon(loaded.to_json()) == text
        assert game.load_state(state.to_json_text()).to_json() == saved
        assert loaded.to_move == state.to_move
        assert loaded.legal_actions(seat) == state.legal_actions(seat)
        assert loaded.record() == state.record()
        for p in [None, *range(state.players)]:
            assert loaded.view(p) == state.view(p)
        # The loaded game goes on exactly like the original (the RNG was saved too).
        probe, twin = state.clone(), loaded
        action = rnd.choice(probe.legal_actions(seat))
        assert events_json(probe.apply(seat, action)) == events_json(twin.apply(seat, action))
        assert canon(probe.to_json()) == canon(twin.to_json())
        # A clone is independent: playing on it leaves the original alone.
        clone = state.clone()
        assert canon(clone.to_json()) == text
        steps = 0
        while not clone.is_over and steps < 5:
            s = clone.to_move[0]
            clone.apply(s, rnd.choice(clone.legal_actions(s)))
            steps += 1
        assert canon(state.to_json()) == text

    playout(game, players, seed, rnd, check)


@pytest.mark.parametrize(("name", "players"), CASES)
@fast(8)
@given(seed=SEEDS, choices=SEEDS)
def test_determinize_keeps_what_the_seat_saw(name, players, seed, choices):
    rnd = random.Random(choices)  # the random choice sequence
    game = games.get(name)

    def check(state, seat):
        if rnd.random() > 0.3:
            return
        text = canon(state.to_json())
        for p in range(state.players):
            d = state.determinize(p, Rng(rnd.getrandbits(64)))
            assert canon(state.to_json()) == text, "determinize changed the real state"
            assert d.view(p) == state.view(p)
            assert d.view(p, recall=True) == state.view(p, recall=True)
            assert d.to_move == state.to_move
            if p in state.to_move:
                assert d.legal_actions(p) == state.legal_actions(p)
            # A determinized state is a full, playable state.
            mover = d.to_move[0]
            d.apply(mover, rnd.choice(d.legal_actions(mover)))

    playout(game, players, seed, rnd, check)


@pytest.mark.parametrize(("name", "players"), CASES)
@fast(6)
@given(seed=SEEDS, choices=SEEDS)
def test_action_ids_and_json_round_trip(name, players, seed, choices):
    rnd = random.Random(choices)  # the random choice sequence
    game = games.get(name)
    seen: set[Any] = set()

    def check(state, seat):
        for action in state.legal_actions(seat):
            if action in seen:
                continue
            seen.add(action)
            i = game.action_id(action)
            assert type(i) is int and 0 <= i < game.num_actions
            assert game.action_from_id(i) == action
            data = json.loads(json.dumps(action.to_json()))
            assert game.action_from_json(data) == action
            assert game.action_id(game.action_from_json(data)) == i

    playout(game, players, seed, rnd, check)
    assert seen


@pytest.mark.parametrize("name", games.names())
def test_game_facts_and_bad_setup(name):
    game = games.get(name)
    assert games.get(name) is game
    assert game.name == name and game.title
    assert 1 <= game.min_players <= game.max_players
    assert game.num_actions == len({game.action_from_id(i) for i in range(game.num_actions)})
    game.Options()  # defaults exist
    for bad in (game.min_players - 1, game.max_players + 1, "2", 2.0, None):
        with pytest.raises(ParlorError):
            game.new_game(bad, 0)
    for bad_id in (-1, game.num_actions, "1", None, True):
        with pytest.raises(IllegalAction):
            game.action_from_id(bad_id)


@pytest.mark.stress
@pytest.mark.parametrize(("name", "players"), CASES)
@settings(max_examples=examples(2) * (10 if STRESS else 1), deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=SEEDS, choices=SEEDS)
def test_stress_every_check_at_every_step(name, players, seed, choices):
    rnd = random.Random(choices)  # the random choice sequence
    """All of the above at every decision of a game (long variant: PARLOR_STRESS=1)."""
    game = games.get(name)

    def check(state, seat):
        text = canon(state.to_json())
        assert canon(game.load_state(state.to_json()).to_json()) == text
        for p in range(state.players):
            d = state.determinize(p, Rng(rnd.getrandbits(64)))
            assert d.view(p, recall=True) == state.view(p, recall=True)
            if p in state.to_move:
                assert d.legal_actions(p) == state.legal_actions(p)
        with pytest.raises(IllegalAction):
            state.apply(seat, object())
        assert canon(state.to_json()) == text

    final, _, _ = playout(game, players, seed, rnd, check)
    assert canon(replay(final.record()).to_json()) == canon(final.to_json())
