"""Scenarios: put a Mottainai game in a given position from JSON.

For tests, puzzles and bug reports. Cards are card ids from ``cards.json``; every key
except ``players`` is optional::

    {
      "players": 3, "seed": 0, "options": {"cover_mode": "partial"},
      "active": 0, "start_player": 0,
      "start": "morning" | "noon" | "night",   # where the active player's turn begins
      "hands":       [["poem", "bell"], [], []],
      "revealed":    [["bell"], [], []],       # hand cards everyone has seen
      "waiting":     [[], [], []],              # only the active seat may have some
      "tasks":       ["pot", null, {"face_down": "fan"}],   # face-up card, empty, face-down
      "helpers":     [["bowl", "cup"], [], []],
      "craft_bench": [[], [], []],
      "sales":       [[], [], []],
      "gallery":     [["dice"], [], []],
      "gift_shop":   [[], [], []],
      "floor":       ["tower"],
      "deck":        ["kite", "gong"] | "rest", # top first; "rest" (default): every card not
                                                # placed elsewhere, shuffled with the seed
      "extra_turns": 0,
      "over": false                             # true: the game has just ended on the
                                                # active seat's turn (to test scoring)
    }

With an explicit ``deck`` list, cards placed nowhere are out of play (in the box). Two
copies of every card exist at 4 or more players. Mistakes raise ``ScenarioError`` naming
the key and the card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from parlor.core.errors import ScenarioError

from .data import CARD_INDEX, NUM_TYPES, decks_for
from .rules import NOBODY, MottainaiState, empty_state

_KEYS = {
    "players", "seed", "options", "active", "start_player", "start", "hands", "revealed", "waiting", "tasks",
    "helpers", "craft_bench", "sales", "gallery", "gift_shop", "floor", "deck", "extra_turns", "over",
}  # fmt: skip
_STARTS = {"morning": 0, "noon": 4, "night": 5}


def _card(name: Any, where: str) -> int:
    if name not in CARD_INDEX:
        raise ScenarioError(f"{where}: unknown card {name!r} (cards are ids such as 'poem', 'go_set')")
    return CARD_INDEX[name]


def _cards(data: Any, where: str) -> tuple[int, ...]:
    if data is None:
        return ()
    if not isinstance(data, list):
        raise ScenarioError(f"{where}: expected a list of card ids, got {data!r}")
    return tuple(_card(c, where) for c in data)


def _per_seat(data: Mapping[str, Any], key: str, players: int) -> list[tuple[int, ...]]:
    value = data.get(key)
    if value is None:
        return [()] * players
    if not isinstance(value, list) or len(value) != players:
        raise ScenarioError(f"{key}: expected one list per seat ({players}), got {value!r}")
    return [_cards(v, f"{key}[{p}]") for p, v in enumerate(value)]


def build(game: Any, data: Mapping[str, Any]) -> MottainaiState:
    players, options, seed = game.scenario_basics(data, _KEYS, default_players=2)
    s = empty_state(game, players, seed, options)
    for key in ("active", "start_player"):
        v = data.get(key, 0)
        if type(v) is not int or not 0 <= v < players:
            raise ScenarioError(f"{key}: expected a seat 0..{players - 1}, got {v!r}")
    s.active = data.get("active", 0)
    s.start_player = data.get("start_player", 0)
    s.hands = _per_seat(data, "hands", players)
    s.known = _per_seat(data, "revealed", players)
    s.waiting = _per_seat(data, "waiting", players)
    s.helpers = _per_seat(data, "helpers", players)
    s.bench = _per_seat(data, "craft_bench", players)
    s.sales = _per_seat(data, "sales", players)
    s.gallery = _per_seat(data, "gallery", players)
    s.gift = _per_seat(data, "gift_shop", players)
    for p in range(players):
        s.works_changed(p)
        if any(s.known[p].count(c) > s.hands[p].count(c) for c in s.known[p]):
            raise ScenarioError(f"revealed[{p}]: a revealed card is not in that hand")
        if s.waiting[p] and p != s.active:
            raise ScenarioError(f"waiting[{p}]: only the active seat's waiting area may hold cards")
    tasks = data.get("tasks")
    if tasks is not None:
        if not isinstance(tasks, list) or len(tasks) != players:
            raise ScenarioError(f"tasks: expected one entry per seat ({players}), got {tasks!r}")
        for p, t in enumerate(tasks):
            if t is None:
                continue
            if isinstance(t, Mapping):
                if set(t) != {"face_down"}:
                    raise ScenarioError(f"tasks[{p}]: write a face-down card as {{'face_down': id}}")
                s.tasks[p] = _card(t["face_down"], f"tasks[{p}]")
            else:
                s.tasks[p] = _card(t, f"tasks[{p}]")
                s.task_up[p] = True
    s.floor = _cards(data.get("floor"), "floor")
    copies = decks_for(players)
    used: Counter[int] = Counter(s.floor)
    for zone in (s.hands, s.waiting, s.helpers, s.bench, s.sales, s.gallery, s.gift):
        for cards in zone:
            used.update(cards)
    used.update(t for t in s.tasks if t >= 0)
    deck = data.get("deck", "rest")
    if deck != "rest":
        used.update(_cards(deck, "deck"))
    for c, n in used.items():
        if n > copies:
            raise ScenarioError(f"card {c!r} ({_name(c)}) is placed {n} times; only {copies} cop(ies) exist")
    rest = [t for t in range(NUM_TYPES) for _ in range(copies - used[t])]
    if deck == "rest":
        s.rng.shuffle(rest)
        s.deck = rest
        s.box = ()
    else:
        s.deck = list(reversed(_cards(deck, "deck")))
        s.box = tuple(rest)
    s.deck_info = [NOBODY] * len(s.deck)
    extra = data.get("extra_turns", 0)
    if type(extra) is not int or extra < 0:
        raise ScenarioError(f"extra_turns: expected a non-negative integer, got {extra!r}")
    s.extra_turns = extra
    start = data.get("start", "morning")
    if start not in _STARTS:
        raise ScenarioError(f"start: expected one of {sorted(_STARTS)}, got {start!r}")
    s.turns = 1
    if data.get("over", False):
        s.over = True
        s.end_reason = "scenario"
        s.to_move = ()
    else:
        s.stack = [("turn", _STARTS[start], 0)]
        s.run()
        s._play_forced(s.ev)
    s.ev = []
    from .invariants import check_invariants

    problems = [p for p in check_invariants(s) if "to_move" not in p]
    if problems:
        raise ScenarioError("scenario is inconsistent: " + "; ".join(problems))
    return s


def _name(c: int) -> str:
    from .data import CARD_IDS

    return CARD_IDS[c]
