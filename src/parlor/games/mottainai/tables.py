"""The rules' hot-path names, for the compiled build.

``rules.py`` and ``cards.py`` import this module as ``A`` and read it like ``actions``:
``A.REVEAL[card]``, ``A.DONE``, ``type(action) is A.Reveal``. The difference is the layout.
Compiled code reads a ``Final`` name of a module compiled with it from a C static, while
any other global (an imported name, an attribute of the pure-Python ``actions`` module) is
a dict lookup at every use; the rules read about a hundred of those per decision. So:

* action classes: the classes of ``actions.py``, as ``Final`` names;
* action tables: the prebuilt action objects of ``actions.py`` as ``Final`` tuples, indexed
  the same way (``REVEAL[card]``, ``TAKE_WORK[seat][card][wing]``, ``COMPLETE[card][wing]``):
  the very same objects, so ``legal_actions`` returns what it returned before;
* ``distinct(cards)``: the distinct card types of a zone in ascending order (what
  ``sorted(set(cards))`` gives), through a bitmask of card types rather than a set and a sort;
* ``public`` / ``private``: the raw event tuples of ``parlor.core.events.raw_public`` /
  ``raw_private`` (``(event, data, seats)``), made by compiled code instead of a Python call.
"""

from __future__ import annotations

from typing import Any, Final

from parlor.core.actions import Action
from parlor.core.events import RawEvent

from . import actions as _A
from .data import MAT

# Action classes.
ChooseTask: Final = _A.ChooseTask
Collect: Final = _A.Collect
CollectTop: Final = _A.CollectTop
Complete: Final = _A.Complete
Craft: Final = _A.Craft
Decline: Final = _A.Decline
DiscardToFloor: Final = _A.DiscardToFloor
Done: Final = _A.Done
Hire: Final = _A.Hire
NoTask: Final = _A.NoTask
Pass: Final = _A.Pass
PickCard: Final = _A.PickCard
PickWing: Final = _A.PickWing
Pray: Final = _A.Pray
ReturnCard: Final = _A.ReturnCard
Reveal: Final = _A.Reveal
Sell: Final = _A.Sell
SellTop: Final = _A.SellTop
SendPaper: Final = _A.SendPaper
SwapHands: Final = _A.SwapHands
TakeHelper: Final = _A.TakeHelper
TakeTask: Final = _A.TakeTask
TakeWork: Final = _A.TakeWork
UseEffect: Final = _A.UseEffect

# Action tables (the objects of actions.py, as tuples).
CHOOSE_TASK: Final[tuple[Action, ...]] = tuple(_A.CHOOSE_TASK)
COLLECT: Final[tuple[Action, ...]] = tuple(_A.COLLECT)
COLLECT_TOP: Final[Action] = _A.COLLECT_TOP
COMPLETE: Final[tuple[tuple[Action, ...], ...]] = tuple(tuple(x) for x in _A.COMPLETE)
CRAFT: Final[tuple[tuple[Action, ...], ...]] = tuple(tuple(x) for x in _A.CRAFT)
DECLINE: Final[Action] = _A.DECLINE
DISCARD_TO_FLOOR: Final[tuple[Action, ...]] = tuple(_A.DISCARD_TO_FLOOR)
DONE: Final[Action] = _A.DONE
FREE_COMPLETE: Final[tuple[tuple[Action, ...], ...]] = tuple(tuple(x) for x in _A.FREE_COMPLETE)
HIRE: Final[tuple[Action, ...]] = tuple(_A.HIRE)
KITE_COPY: Final[tuple[Action, ...]] = tuple(_A.KITE_COPY)
KITE_GIVE: Final[tuple[tuple[Action, ...], ...]] = tuple(tuple(x) for x in _A.KITE_GIVE)
MOVE_WORK: Final[tuple[tuple[Action, ...], ...]] = tuple(tuple(x) for x in _A.MOVE_WORK)
NO_TASK: Final[Action] = _A.NO_TASK
PASS: Final[Action] = _A.PASS
PICK_CARD: Final[tuple[Action, ...]] = tuple(_A.PICK_CARD)
PICK_MATERIAL: Final[tuple[Action, ...]] = tuple(_A.PICK_MATERIAL)
PICK_OPTION: Final[tuple[Action, ...]] = tuple(_A.PICK_OPTION)
PICK_WING: Final[tuple[Action, ...]] = tuple(_A.PICK_WING)
PRAY: Final[Action] = _A.PRAY
REFILL: Final[Action] = _A.REFILL
RETURN_CARD: Final[tuple[Action, ...]] = tuple(_A.RETURN_CARD)
REVEAL: Final[tuple[Action, ...]] = tuple(_A.REVEAL)
SELL: Final[tuple[Action, ...]] = tuple(_A.SELL)
SELL_ALL: Final[tuple[Action, ...]] = tuple(_A.SELL_ALL)
SELL_TOP: Final[Action] = _A.SELL_TOP
SEND_PAPER: Final[tuple[Action, ...]] = tuple(_A.SEND_PAPER)
SKIP_TASK: Final[Action] = _A.SKIP_TASK
SWAP_HANDS: Final[tuple[Action, ...]] = tuple(_A.SWAP_HANDS)
TAKE_HELPER: Final[tuple[tuple[Action, ...], ...]] = tuple(tuple(x) for x in _A.TAKE_HELPER)
TAKE_MATERIAL: Final[tuple[tuple[Action, ...], ...]] = tuple(tuple(x) for x in _A.TAKE_MATERIAL)
TAKE_SALE: Final[tuple[tuple[Action, ...], ...]] = tuple(tuple(x) for x in _A.TAKE_SALE)
TAKE_TASK: Final[tuple[Action, ...]] = tuple(_A.TAKE_TASK)
TAKE_WORK: Final[tuple[tuple[tuple[Action, ...], ...], ...]] = tuple(tuple(tuple(y) for y in x) for x in _A.TAKE_WORK)
TASK_FROM_HELPER: Final[tuple[Action, ...]] = tuple(_A.TASK_FROM_HELPER)
USE_EFFECT: Final[tuple[Action, ...]] = tuple(_A.USE_EFFECT)


# The positional parameters have names no event field uses: compiled, a keyword argument
# named like a positional-only parameter is bound to it instead of going into ``data``.
def public(event_: str, /, **data: Any) -> RawEvent:
    """An event everyone sees (``raw_public``)."""
    return (event_, data, None)


def private(seat_: int, event_: str, /, **data: Any) -> RawEvent:
    """An event only ``seat_`` sees (``raw_private`` for one seat, the only use here)."""
    return (event_, data, seat_)


# LOW_BIT[(1 << c) % 67] == c: the powers of two below 2**54 leave distinct remainders mod 67,
# so the lowest set bit of a card mask names its card with one lookup.
LOW_BIT: Final[tuple[int, ...]] = tuple(next((c for c in range(64) if (1 << c) % 67 == r), -1) for r in range(67))


def card_mask(cards: tuple[int, ...]) -> int:
    """The card types in ``cards`` as bits of an int (54 types: a short int, no big-number arithmetic)."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def card_mask_of(cards: tuple[int, ...], material: int) -> int:
    """``card_mask`` for the cards of one material only."""
    mask = 0
    for c in cards:
        if MAT[c] == material:
            mask |= 1 << c
    return mask


def types_in(mask: int) -> list[int]:
    """The card types of a mask, ascending (lowest bit first)."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(LOW_BIT[low % 67])
        mask ^= low
    return out


def distinct(cards: tuple[int, ...]) -> list[int]:
    """The distinct card types in ``cards``, ascending: ``sorted(set(cards))``, without the set."""
    return types_in(card_mask(cards))


def distinct_of(cards: tuple[int, ...], material: int) -> list[int]:
    """``distinct`` for the cards of one material only."""
    return types_in(card_mask_of(cards, material))


def add_from_mask(out: list[Action], table: tuple[Action, ...], mask: int) -> None:
    """One action of ``table`` per card type of ``mask``, ascending, appended straight from the mask
    (no list of cards in between)."""
    while mask:
        low = mask & -mask
        out.append(table[LOW_BIT[low % 67]])
        mask ^= low


def add_each(out: list[Action], table: tuple[Action, ...], cards: tuple[int, ...]) -> None:
    """``out.extend(table[c] for c in distinct(cards))``."""
    add_from_mask(out, table, card_mask(cards))


def add_each_of(out: list[Action], table: tuple[Action, ...], cards: tuple[int, ...], material: int) -> None:
    """``add_each`` for the cards of one material only."""
    add_from_mask(out, table, card_mask_of(cards, material))
