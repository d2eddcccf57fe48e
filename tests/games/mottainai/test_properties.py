"""Random play at every player count and with every option: invariants after every action,
no crash, no leak of hidden cards, determinize keeps the view and varies the hidden rest."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlor.core import Rng
from parlor.core.options import option_fields
from parlor.games.mottainai import Options
from parlor.games.mottainai.data import CARD_IDS
from parlor.games.mottainai.invariants import check_invariants

from .helpers import G

SEEDS = st.integers(min_value=0, max_value=2**32)
FAST = settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
COUNTS = [(2, {}), (3, {}), (4, {}), (5, {}), (6, {"ruleset": "v0.84"}), (4, {"team_play": True}),
          (3, {"extended_game": True}), (5, {"extended_game": True})]  # fmt: skip


def variants() -> list[dict[str, Any]]:
    out = []
    for name, (base, allowed, default) in option_fields(Options).items():
        if name == "ruleset":
            out.append({"ruleset": "v0.84"})
        elif name == "max_players":
            continue
        elif allowed:
            out.extend({name: v} for v in allowed if v != default and v is not None)
        elif base is bool:
            out.append({name: not default})
    return out


def _cards_in(obj: Any) -> set[str]:
    """Every card id mentioned anywhere in a JSON value."""
    ids = set(CARD_IDS)
    out: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, str):
            if x in ids:
                out.add(x)
        elif isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, (list, tuple)):
            for v in x:
                walk(v)

    walk(obj)
    return out


def check_views(state: Any) -> None:
    """Structural leak check: a view shows a hand and a waiting area only to their owner."""
    visible_waiting = state.options.waiting_area_visible_to_owner
    for seat in [None, *range(state.players)]:
        v = state.view(seat)
        for p, info in enumerate(v["players_info"]):
            assert ("hand" in info) == (seat == p)
            assert ("waiting" in info) == (seat == p and visible_waiting)
            task = info["task"]
            if task is not None and task.get("face_down"):
                assert set(task) == {"face_down"}
        json.dumps(v)


def check_events(before: Any, after: Any, events: list[Any]) -> None:
    """An event a seat may see names only cards that seat can see (or recall) around it."""
    for seat in [None, *range(after.players)]:
        allowed = _cards_in(before.view(seat, recall=True)) | _cards_in(after.view(seat, recall=True))
        for e in events:
            if not e.visible(seat) or e.kind == "reveal":  # a reveal is public by definition
                continue
            leaked = _cards_in(e.data) - allowed
            assert not leaked, f"seat {seat} sees {sorted(leaked)} in {e}"


def random_game(players: int, seed: int, options: dict, *, deep: bool = False) -> Any:
    state = G.new_game(players, seed, options)
    rnd = random.Random(seed)
    steps = 0
    varied = 0
    while state.to_move:
        seat = state.to_move[0]
        legal = state.legal_actions(seat)
        assert legal
        action = rnd.choice(legal)
        before = state.clone() if deep else None
        events = state.apply(seat, action)
        steps += 1
        assert check_invariants(state) == []
        assert steps < 20_000
        if deep and steps % 11 == 0:
            check_views(state)
            check_events(before, state, events)
            for p in range(players):
                d = state.determinize(p, Rng(seed + steps + p))
                assert d.view(p) == state.view(p)
                assert d.view(p, recall=True) == state.view(p, recall=True)
                assert check_invariants(d) == []
                if d.to_json()["state"] != state.to_json()["state"]:
                    varied += 1
                if d.to_move:  # the determinization plays on
                    d.apply(d.to_move[0], rnd.choice(d.legal_actions(d.to_move[0])))
    if deep and steps > 30:
        assert varied > 0
    result = state.result()
    assert result.winners
    return state


@pytest.mark.parametrize(("players", "options"), COUNTS, ids=[f"{p}p-{o}" for p, o in COUNTS])
@FAST
@given(seed=SEEDS)
def test_random_play_at_every_player_count(players, options, seed):
    random_game(players, seed, options, deep=True)


@pytest.mark.parametrize("options", variants(), ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_random_play_with_each_option(options):
    counts = (4,) if options.get("team_play") else (2, 3, 5)
    start = options.get("start_player")
    if isinstance(start, int):  # a start seat needs a table that has it
        counts = tuple(n for n in counts if start < n)
    for players in counts:
        for seed in (11, 12):
            random_game(players, seed, options, deep=players == 3 and seed == 11)


@settings(max_examples=6, deadline=None)
@given(seed=SEEDS, players=st.integers(min_value=2, max_value=5))
def test_same_seed_and_actions_give_the_same_game(seed, players):
    a = G.new_game(players, seed)
    b = G.new_game(players, seed)
    rnd = random.Random(seed)
    while a.to_move:
        seat = a.to_move[0]
        action = rnd.choice(a.legal_actions(seat))
        ea = [e.to_json() for e in a.apply(seat, action)]
        eb = [e.to_json() for e in b.apply(seat, action)]
        assert ea == eb
    assert a.to_json() == b.to_json()


@settings(max_examples=4, deadline=None)
@given(seed=SEEDS)
def test_clone_is_independent_and_json_round_trips(seed):
    s = G.new_game(3, seed)
    rnd = random.Random(seed)
    while s.to_move:
        if rnd.random() < 0.1:
            c = s.clone()
            text = json.dumps(s.to_json(), sort_keys=True)
            assert json.dumps(G.load_state(s.to_json()).to_json(), sort_keys=True) == text
            if c.to_move:
                c.apply(c.to_move[0], rnd.choice(c.legal_actions(c.to_move[0])))
            assert json.dumps(s.to_json(), sort_keys=True) == text
        seat = s.to_move[0]
        s.apply(seat, rnd.choice(s.legal_actions(seat)))


def test_waiting_area_is_hidden_from_its_owner_until_night():
    from parlor.games.mottainai.actions import Done, Refill

    s = G.scenario({"players": 2, "start": "noon", "tasks": ["kite", None], "hands": [["poem", "fan"], ["doll"]],
                    "floor": ["bench"], "deck": ["jar", "vase", "cup", "dice", "bowl"]})  # fmt: skip
    s.apply(0, Refill())
    events = s.apply(0, Done())  # draws jar, vase, cup face down; picked up at night
    for e in events:
        if e.kind == "draw":
            assert "card" not in e.data and e.visible(1)
        if e.kind != "picked_up":
            for seat in (None, 0, 1):
                if e.visible(seat):
                    assert not (_cards_in(e.data) & {"jar", "vase", "cup"}), e
        else:
            assert e.visible_to == frozenset([0])


def test_damaged_saved_states_are_rejected():
    from parlor.core import StateError

    s = G.new_game(3, 7)
    data = s.to_json()
    broken = json.loads(json.dumps(data))
    broken["state"]["hands"][0] = broken["state"]["hands"][0] + [0]
    with pytest.raises(StateError):
        G.load_state(broken)
    broken = json.loads(json.dumps(data))
    broken["state"]["stack"] = [["no_such_frame"]]
    with pytest.raises(StateError):
        G.load_state(broken)
    broken = json.loads(json.dumps(data))
    del broken["state"]["deck"]
    with pytest.raises(StateError):
        G.load_state(broken)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"players": 2, "hands": [["nope"], []]}, "unknown card 'nope'"),
        ({"players": 2, "hands": [["poem"], ["poem"]]}, "placed 2 times"),
        ({"players": 2, "hands": [["poem"]]}, "one list per seat"),
        ({"players": 2, "waiting": [[], ["poem"]]}, "only the active seat"),
        ({"players": 2, "start": "dusk"}, "start"),
        ({"players": 2, "tasks": [{"up": "poem"}, None]}, "face_down"),
        ({"players": 2, "colour": 1}, "unknown scenario key"),
        ({"players": 6}, "2-5 players"),
        ({"players": 3, "options": {"team_play": True}}, "4 players"),
    ],
)
def test_scenario_errors_are_clear(data, message):
    from parlor.core import ScenarioError

    with pytest.raises(ScenarioError, match=message):
        G.scenario(data)
