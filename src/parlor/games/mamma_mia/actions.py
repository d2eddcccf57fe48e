"""Mamma Mia! actions, named after the rulebook's verbs, and the game's action space.

Phase 1 (a turn): ``PlayToppings`` or ``SkipToppings``; ``PlayOrder`` or ``NoOrder``;
``Draw`` (refill to 7) or ``DrawCount`` (the Czech "up to" refill).
Phase 2 (the owner of a revealed order): ``ChooseJoker`` (Monotoni), ``ChooseRarest``
(Minimale tie), ``CompleteFromHand`` (top up the shortfall; for Bombastica it names
the toppings) or ``Decline``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from parlor.core.actions import Action, ActionSpace

from .data import HAND_LIMIT, KINDS, NUM_KINDS, ORDERS

SOURCES = ("supply", "waiter")


@dataclass(frozen=True, slots=True)
class PlayToppings(Action):
    TYPE = "play_toppings"
    kind: str
    count: int


@dataclass(frozen=True, slots=True)
class SkipToppings(Action):
    TYPE = "skip_toppings"


@dataclass(frozen=True, slots=True)
class PlayOrder(Action):
    TYPE = "play_order"
    order: str


@dataclass(frozen=True, slots=True)
class NoOrder(Action):
    TYPE = "no_order"


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Refill from one source until the hand holds 7 cards or the source is empty."""

    TYPE = "draw"
    source: str


@dataclass(frozen=True, slots=True)
class DrawCount(Action):
    """Refill ``count`` cards from one source (``refill_mode="up_to"``)."""

    TYPE = "draw_count"
    source: str
    count: int


@dataclass(frozen=True, slots=True)
class ChooseJoker(Action):
    TYPE = "choose_joker"
    kind: str


@dataclass(frozen=True, slots=True)
class ChooseRarest(Action):
    TYPE = "choose_rarest"
    kind: str


@dataclass(frozen=True, slots=True)
class CompleteFromHand(Action):
    """Complete the revealed order, adding its shortfall from hand.

    ``toppings`` is empty for every order whose shortfall is fixed; for Bombastica it
    names the hand toppings added, as ``(kind, count)`` pairs in topping order.
    """

    TYPE = "complete_from_hand"
    toppings: tuple[tuple[str, int], ...] = ()

    @classmethod
    def from_fields(cls, data):  # type: ignore[no-untyped-def]
        # {"olive": 1, "salami": 0, "pepper": 1} means the same as {"pepper": 1, "olive": 1}.
        action = super(CompleteFromHand, cls).from_fields(data)
        order = {k: i for i, k in enumerate(KINDS)}
        try:
            pairs = sorted(((k, n) for k, n in action.toppings if n != 0), key=lambda p: order[p[0]])
        except KeyError as exc:
            raise ValueError(f"unknown topping {exc.args[0]!r}") from None
        return cls(tuple(pairs))


@dataclass(frozen=True, slots=True)
class Decline(Action):
    TYPE = "decline"


def _bombastica_vectors(total: int) -> list[tuple[int, ...]]:
    """Every way to pick ``total`` toppings by kind, in a fixed order."""
    return [v for v in itertools.product(range(total + 1), repeat=NUM_KINDS) if sum(v) == total][::-1]


def vector_pairs(vector: tuple[int, ...]) -> tuple[tuple[str, int], ...]:
    return tuple((KINDS[k], n) for k, n in enumerate(vector) if n)


# Prebuilt actions, so legal-move generation allocates nothing.
PLAY_TOPPINGS = [[PlayToppings(kind, n) for n in range(HAND_LIMIT + 1)] for kind in KINDS]  # [k][n], n>=1 used
SKIP_TOPPINGS = SkipToppings()
PLAY_ORDER = [PlayOrder(o.name) for o in ORDERS]
NO_ORDER = NoOrder()
DRAW = {s: Draw(s) for s in SOURCES}
DRAW_COUNT = {s: [DrawCount(s, n) for n in range(HAND_LIMIT + 1)] for s in SOURCES}
CHOOSE_JOKER = [ChooseJoker(k) for k in KINDS]
CHOOSE_RAREST = [ChooseRarest(k) for k in KINDS]
COMPLETE = CompleteFromHand()
DECLINE = Decline()
# Bombastica top-ups: for each shortfall 1..7, (vector, action) pairs.
BOMBASTICA_TOPUPS: dict[int, list[tuple[tuple[int, ...], CompleteFromHand]]] = {
    s: [(v, CompleteFromHand(vector_pairs(v))) for v in _bombastica_vectors(s)] for s in range(1, HAND_LIMIT + 1)
}

ACTION_SPACE = ActionSpace(
    [a for row in PLAY_TOPPINGS for a in row[1:]]
    + [SKIP_TOPPINGS]
    + PLAY_ORDER
    + [NO_ORDER]
    + list(DRAW.values())
    + [a for s in SOURCES for a in DRAW_COUNT[s]]
    + CHOOSE_JOKER
    + CHOOSE_RAREST
    + [COMPLETE, DECLINE]
    + [a for s in range(1, HAND_LIMIT + 1) for _, a in BOMBASTICA_TOPUPS[s]]
)
