"""The speed-minded layouts (issue 17) against the straightforward code they replace:
``distinct`` vs ``sorted(set())``, ``has`` vs counting the works, the direct frame dispatch vs
the ``FLOW`` / ``DECIDE`` tables, ``tables.py`` vs ``actions.py``, the cached default options."""

from __future__ import annotations

import json
import random
import re
from importlib import resources
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from parlor.core import Rng
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
