"""Card conservation and zone sanity, checked after every action by the tests and on every load."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from .data import KITE, NUM_TYPES, decks_for

if TYPE_CHECKING:
    from .rules import MottainaiState


def zones(s: "MottainaiState") -> list[tuple[str, tuple[int, ...]]]:
    out: list[tuple[str, tuple[int, ...]]] = [
        ("deck", tuple(s.deck)),
        ("floor", s.floor),
        ("box", s.box),
    ]
    for p in range(s.players):
        out += [
            (f"hand {p}", s.hands[p]),
            (f"waiting {p}", s.waiting[p]),
            (f"task {p}", (s.tasks[p],) if s.tasks[p] >= 0 else ()),
            (f"helpers {p}", s.helpers[p]),
            (f"bench {p}", s.bench[p]),
            (f"sales {p}", s.sales[p]),
            (f"gallery {p}", s.gallery[p]),
            (f"gift_shop {p}", s.gift[p]),
        ]
    return out


def check_invariants(s: "MottainaiState") -> list[str]:
    """Every broken invariant, in words (empty when all hold)."""
    problems: list[str] = []
    copies = decks_for(s.players)
    seen: Counter[int] = Counter()
    for name, cards in zones(s):
        for c in cards:
            if type(c) is not int or not 0 <= c < NUM_TYPES:
                problems.append(f"{name}: unknown card {c!r}")
            seen[c] += 1
    for t in range(NUM_TYPES):
        if seen[t] != copies:
            problems.append(f"card {t}: in {seen[t]} places, expected {copies}")
    if len(s.deck_info) != len(s.deck):
        problems.append("deck_info does not match the deck")
    if any(k < -2 or k >= s.players for k in s.deck_info):
        problems.append("deck_info names an unknown seat")
    for p in range(s.players):
        known = Counter(s.known[p])
        hand = Counter(s.hands[p])
        if any(known[c] > hand[c] for c in known):
            problems.append(f"seat {p}: a revealed card is not in hand")
        if s.tasks[p] < 0 and (s.task_up[p] or s.doll_task[p]):
            problems.append(f"seat {p}: empty task slot marked face up")
        if len(s.kite[p]) > (s.gallery[p] + s.gift[p]).count(KITE):
            problems.append(f"seat {p}: more Kite copies than Kites")
        if s.waiting[p] and p != s.active and not s.over:
            problems.append(f"seat {p}: cards in a waiting area outside its owner's turn")
    if not s.over and s.to_move != (s.active,):
        problems.append(f"to_move {s.to_move} is not the active seat {s.active}")
    if s.over and s.to_move:
        problems.append("the game is over but a seat is to move")
    return problems
