"""The speed-minded layouts against the straightforward code they replace:
``distinct`` vs ``sorted(set())``, ``has`` vs counting the works, the direct frame dispatch vs
the ``FLOW`` / ``DECIDE`` tables, ``tables.py`` vs ``actions.py``, the cached default options."""

from __future__ import annotations

import json
import random
import re
from importlib import resources
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlor.core import Rng
from parlor.core.events import build_event
from parlor.core.options import options_from_json
from parlor.games.mottainai import Options, data, rules, tables
from parlor.games.mottainai import actions as plain_actions

from .helpers import G


@given(st.lists(st.integers(min_value=0, max_value=data.NUM_TYPES - 1), max_size=30))
@settings(max_examples=300, deadline=None)
def test_distinct_is_sorted_set(cards: list[int]) -> None:
    assert tables.distinct(tuple(cards)) == sorted(set(cards))


def test_card_constants_name_their_cards_json_position() -> None:
    cards = json.loads(resources.files("parlor.games.mottainai").joinpath("cards.json").read_text("utf-8"))
    assert len(cards) == data.NUM_TYPES
    for i, card in enumerate(cards):
        assert getattr(data, card["id"].upper()) == i, card["id"]


def test_tables_hold_the_very_action_objects_of_actions_py() -> None:
    for name in dir(tables):
        value = getattr(tables, name)
        if name.isupper() and hasattr(plain_actions, name):
            assert _flat(value) == _flat(getattr(plain_actions, name)), name
            assert all(a is b for a, b in zip(_flat(value), _flat(getattr(plain_actions, name)), strict=True)), name
        elif isinstance(value, type) and hasattr(plain_actions, name):
            assert value is getattr(plain_actions, name)


def _flat(x: Any) -> list[Any]:
    return [a for item in x for a in _flat(item)] if isinstance(x, (list, tuple)) else [x]


def _random_states(players: int, games: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    out = []
    for k in range(games):
        s = G.new_game(players, seed=seed * 1000 + k)
        while not s.is_over:
            out.append(s.clone())
            seat = s.to_move[0]
            s.apply(seat, rng.choice(s.legal_actions(seat)))
    return out


def test_has_and_dispatch_agree_with_the_reference_on_random_states() -> None:
    """``has`` counts like ``works_of(p).count``; the direct dispatch answers like the tables."""
    checked = 0
    for players in (2, 4, 5):
        for s in _random_states(players, 3, players)[::3]:
            for p in range(s.players):
                works = s.works_of(p)
                for c in (*s.gallery[p], *s.gift[p], *s.kite[p]):
                    assert s.wmask[p] >> c & 1, "a work missing from the works bitmask"
                for card in range(data.NUM_TYPES):
                    assert s.has(p, card) == works.count(card)
            frame = s.stack[-1]
            kind = frame[0]
            assert kind in rules.DECIDE
            assert rules.decision_legal(s.clone(), frame) == rules.DECIDE[kind][0](s.clone(), frame)
            assert s.legal_actions(s.to_move[0]) == rules.DECIDE[kind][0](s.clone(), frame)
            checked += 1
    assert checked > 300


def test_direct_dispatch_covers_the_tables() -> None:
    """Every frame kind is a flow or a decision, never both, and ``decision_legal`` knows which."""
    assert not set(rules.FLOW) & set(rules.DECIDE)
    assert set(rules.FLOW) | set(rules.DECIDE) == rules.FRAME_KINDS


def test_default_options_are_built_once_and_stay_the_defaults() -> None:
    for players in (2, 3, 4, 5):
        first = G.default_options(players)
        assert first is G.default_options(players)
        assert first == options_from_json(Options, {})
    # Options given for one game do not leak into the next default game.
    teams = G.new_game(4, seed=1, options={"team_play": True})
    assert teams.options.team_play
    assert not G.new_game(4, seed=1).options.team_play
    assert G.default_options(6).max_players == 6
    assert G.default_options(5).max_players == 5


def test_rule_options_mirror_the_options() -> None:
    """``s.o`` (the options read during play) says what ``s.options`` says, in clones too."""
    for chosen in ({}, {"ruleset": "v0.84"}, {"team_play": True, "cover_mode": "partial", "return_order": "random"}):
        s = G.new_game(4, seed=3, options=chosen)
        for state in (s, s.clone(), s.determinize(0, Rng(1))):
            for name in _RULE_OPTION_NAMES:
                assert getattr(state.o, name) == getattr(state.options, name), name


# The options rules.RuleOptions copies (read from rules.py: a compiled class has no __dict__).
_RULES_SOURCE = resources.files("parlor.games.mottainai").joinpath("rules.py").read_text("utf-8")
_RULE_OPTION_NAMES = re.findall(r"self\.(\w+): [\w |]+ = options\.\1\b", _RULES_SOURCE)


def test_rule_options_copy_enough() -> None:
    assert len(_RULE_OPTION_NAMES) > 20


def test_event_tuples_are_the_core_raw_events() -> None:
    """``tables.public`` / ``private`` make what ``raw_public`` / ``raw_private`` make, fields
    named like their parameters included (compiled code once dropped ``seat=`` of a private event)."""
    from parlor.core.events import raw_private, raw_public

    assert tables.public("draw", seat=1, deck_size=3) == raw_public("draw", seat=1, deck_size=3)
    assert tables.public("x", event="e", seats=2) == raw_public("x", event="e", seats=2)
    assert tables.private(2, "picked_up", seat=2, cards=["kite"]) == raw_private(2, "picked_up", seat=2, cards=["kite"])
    assert tables.private(0, "x", event="e", seats=1) == raw_private(0, "x", event="e", seats=1)


def test_made_events_read_as_the_keyword_events() -> None:
    """The events ``tables.py`` makes once (and their fallbacks past the tables' ranges) read
    exactly as the keyword-built events they replace: kind, data in key order, seats."""
    from parlor.core.events import raw_private, raw_public

    def same(made: Any, plain: Any) -> None:
        assert _read([made]) == _read([plain])

    card_ids, roles, mat = data.CARD_IDS, data.ROLES, data.MAT
    for p in range(6):
        same(tables.prayed(p), raw_public("pray", seat=p))
        for q in range(6):
            for r in range(5):
                same(tables.performs(p, q, r), raw_public("perform_task", seat=p, owner=q, role=roles[r]))
                for n in range(6):
                    plain = raw_public("actions_counted", seat=p, owner=q, role=roles[r], actions=n)
                    same(tables.actions_counted(p, q, r, n), plain)
        for n in (0, 1, 107, 108, 109, 150):
            same(tables.drew(p, n), raw_public("draw", seat=p, deck_size=n))
        for n in (0, 5, 15, 16, 30):
            same(tables.returned(p, n), raw_public("return", seat=p, hand_size=n))
            same(tables.picked_up(p, n), raw_public("pickup", seat=p, count=n))
        for c in range(data.NUM_TYPES):
            cid = card_ids[c]
            same(tables.returned_card(p, c), raw_private(p, "returned_card", seat=p, card=cid))
            for how in ("hand", "sketch", "doll:1"):
                same(tables.task(p, c, how), raw_public("task", seat=p, card=cid, role=roles[mat[c]], source=how))
            for to in ("floor", "sales"):
                same(tables.old_task(p, c, to), raw_public("old_task", seat=p, card=cid, to=to))
            for source in ("hire", "take_task", "take_helper"):
                same(tables.hired(p, c, source), raw_public("hire", seat=p, card=cid, source=source))
            for source in ("collect", "take_work", "take_material"):
                same(tables.collected(p, c, source), raw_public("collect", seat=p, card=cid, source=source))


@given(
    st.lists(st.integers(min_value=0, max_value=data.NUM_TYPES - 1), max_size=30),
    st.integers(min_value=0, max_value=4),
)
@settings(max_examples=300, deadline=None)
def test_mask_built_action_lists_match_the_comprehensions(cards: list[int], material: int) -> None:
    """``add_each`` / ``add_each_of`` / ``distinct_of`` against the comprehensions they replace."""
    zone = tuple(cards)
    out: list[Any] = ["x"]  # appends after what is there
    tables.add_each(out, tables.RETURN_CARD, zone)
    assert out == ["x", *(tables.RETURN_CARD[c] for c in sorted(set(zone)))]
    out = []
    tables.add_each_of(out, tables.REVEAL, zone, material)
    assert out == [tables.REVEAL[c] for c in sorted(set(zone)) if data.MAT[c] == material]
    assert tables.distinct_of(zone, material) == [c for c in sorted(set(zone)) if data.MAT[c] == material]


def _role_and_craft_reference(s: Any, role: int) -> tuple[list[Any], list[Any]]:
    """Smith's completable works and the Craft options, asked of ``smith_cost`` / ``craft_cost``
    card by card (what ``role_options`` / ``craft_options`` answer without asking when the
    support in hand or bench is plainly enough)."""
    p = s.active
    hand = s.hands[p]
    smith = [a for c in sorted(set(hand)) if s.smith_cost(p, c) is not None for a in tables.COMPLETE[c]]
    craft = [
        a for c in sorted(set(hand)) if data.MAT[c] == role and s.craft_cost(p, c) is not None for a in tables.CRAFT[c]
    ]
    return smith, craft


def test_smith_and_craft_options_agree_with_the_cost_functions() -> None:
    checked = 0
    for players in (2, 4, 5):
        for s in _random_states(players, 3, 10 + players)[::2]:
            for role in range(5):
                smith, craft = _role_and_craft_reference(s, role)
                if role == data.SMITH:
                    assert rules.role_options(s, role) == smith
                assert rules.craft_options(s, role) == craft
                checked += 1
    assert checked > 500


# ---- the turn's flow, frame by frame: every step pushed, asked, popped (the plain form of
# ``morning`` / ``noon`` / ``night`` / ``perform_task``, which pass over steps with nothing to ask)
def _ref_turn(s: Any, frame: tuple) -> None:
    step = frame[1]
    stack = s.stack
    if step < 4:
        effects_first = s.o.morning_order == "effects_then_discard"
        stack[-1] = ("turn", step + 1, 0)
        if step == 0:
            s.emit(tables.public("turn_start", seat=s.active, turn=s.turns))
            stack.append(("hand_limit", False))
        elif step == 1:
            s.used_fx = ()
            stack.append(("morning_effects",) if effects_first else ("clear_task",))
        elif step == 2:
            stack.append(("clear_task",) if effects_first else ("morning_effects",))
        else:
            stack.append(("choose_task",))
    elif step == 4:
        p, n, idx = s.active, s.players, frame[2]
        if idx < n - 1:
            stack[-1] = ("turn", 4, idx + 1)
            q = (p + 1 + idx) % n
            if s.tasks[q] >= 0 and s.task_up[q]:
                stack.append(("perform", q, 0))
            return
        stack[-1] = ("turn", 5, 0)
        if s.tasks[p] >= 0 and s.task_up[p]:
            stack.append(("perform", p, 0))
        else:
            s.emit(tables.public("no_task_prayer", seat=p))
            stack.append(("prayer",))
    elif step < 7:
        stack[-1] = ("turn", step + 1, 0)
        if step == 5:
            s.used_fx = ()
            stack.append(("night_effects",))
        else:
            rules.night_pickup(s, s.active)
    else:
        rules.end_of_turn(s)


def _ref_perform(s: Any, frame: tuple) -> None:
    owner, step, p = frame[1], frame[2], s.active
    if step == 0:
        role = data.MAT[s.tasks[owner]]
        s.t_skip, s.t_bonus, s.t_fountain, s.t_left = False, 0, 0, 0
        s.stack[-1] = ("perform", owner, 1, role)
        s.emit(tables.public("perform_task", seat=p, owner=owner, role=data.ROLES[role]))
        if rules.gate_applies(s, owner, role) and s.o.reveal_gate_per == "task":
            s.stack.append(("gate", owner, role, False))
        return
    role = frame[3]
    if step == 1:
        s.stack[-1] = ("perform", owner, 2, role)
        if s.t_skip:
            s.stack.pop()
            s.emit(tables.public("task_skipped", seat=p, owner=owner))
            return
        before = []
        if role == data.CLERK and s.has(p, data.FOUNTAIN):
            before.append(("reveal_bonus", data.FOUNTAIN, data.STONE, -1, ()))
        if owner == p and s.has(p, data.FLAG):
            before.append(("reveal_bonus", data.FLAG, role, s.has(p, data.FLAG), ()))
        if s.is_opponent(p, owner) and s.has(p, data.FIGURINE):
            before.append(("reveal_bonus", data.FIGURINE, role, s.has(p, data.FIGURINE), ()))
        s.stack.extend(reversed(before))
        return
    if step == 2:
        s.t_left = rules.count_actions(s, owner, role)
        s.emit(tables.public("actions_counted", seat=p, owner=owner, role=data.ROLES[role], actions=s.t_left))
        s.stack[-1] = ("perform", owner, 3, role)
        s.stack.append(("actions", owner, role))
        return
    s.stack.pop()


def _ref_run(s: Any) -> None:
    """``MottainaiState.run`` through the ``FLOW`` / ``DECIDE`` tables and the plain turn above."""
    s.pending = None
    while s.stack and not s.over:
        frame = s.stack[-1]
        kind = frame[0]
        if kind == "turn":
            _ref_turn(s, frame)
        elif kind == "perform":
            _ref_perform(s, frame)
        elif kind in rules.FLOW:
            rules.FLOW[kind](s, frame)
        else:
            legal = rules.DECIDE[kind][0](s, frame)
            if legal:
                s.pending = legal
                s.to_move = (s.active,)
                return
            s.stack.pop()
    s.to_move = ()
    if not s.over:
        s.end_game("stalled")


def _read(raw: list[Any]) -> list[Any]:
    """The events as a reader gets them (kind, data in key order, seats): the rules give a raw
    event's data as a tuple of an ``EventKind``'s fields, the reference as keyword arguments."""
    out = []
    for e in map(build_event, raw):
        out.append((e.kind, list(e.data.items()), e.visible_to))
    return out


@pytest.mark.parametrize("options", [{}, {"ruleset": "v0.84"}, {"morning_order": "effects_then_discard"}])
def test_turn_flow_matches_the_frame_by_frame_reference(options: dict[str, Any]) -> None:
    """Same decisions, same stack at each, same events and state, over whole random games."""
    decisions = 0
    for players in (2, 3, 4, 5):
        for seed in range(4):
            rng = random.Random(seed)
            s = G.new_game(players, seed=seed, options=options)
            r = s.clone()
            while not s.is_over:
                seat = s.to_move[0]
                legal = s.legal_actions(seat)
                assert r.to_move == s.to_move
                assert r._legal_actions(seat) == legal
                action = rng.choice(legal)
                events = s._apply(seat, action)
                s._legal = None
                r.ev = ref_events = []
                if type(action) not in rules._RETURN_BATCH_ACTIONS:
                    r.ret_batch = 0
                rules.decision_act(r, r.stack[-1], action)
                _ref_run(r)
                assert _read(events) == _read(ref_events)
                assert r._state_json() == s._state_json()
                decisions += 1
    assert decisions > 300
