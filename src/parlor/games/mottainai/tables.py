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
* event kinds: the turn's events as ``EventKind`` constants, so the rules make a raw event
  as ``(EV_DRAW, (seat, deck_size), None)``: a tuple of values where ``public("draw", seat=...,
  deck_size=...)`` builds a dict through a keyword call (a dict costs several times a tuple to
  build and free; it is made only if somebody reads the event);
* ``public`` / ``private``: the raw event tuples of ``parlor.core.events.raw_public`` /
  ``raw_private`` (``(event, data, seats)``), for the card effects' rarer events.
"""

from __future__ import annotations

from typing import Any, Final

from parlor.core.actions import Action
from parlor.core.events import EventKind

from . import actions as _A
from .data import CARD_IDS, MAT, NUM_TYPES, ROLES

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


# Event kinds: each field list in the order of the event's data (the order readers see), so
# ``(EV_TASK, (p, card, role, how), None)`` reads back as
# ``Event("task", {"seat": p, "card": card, "role": role, "source": how})``. An event sent
# with different fields at different places has one kind per field list (EV_SELL / EV_SELL_FROM).
EV_ACTION_SKIPPED: Final = EventKind("action_skipped", "seat", "owner")
EV_ACTIONS_COUNTED: Final = EventKind("actions_counted", "seat", "owner", "role", "actions")
EV_COLLECT: Final = EventKind("collect", "seat", "card", "source")
EV_CRANE_RETURN: Final = EventKind("crane_return", "seat", "card")
EV_DEALT: Final = EventKind("dealt", "seat", "hand")
EV_DRAW: Final = EventKind("draw", "seat", "deck_size")
EV_DRAWN_CARD: Final = EventKind("drawn_card", "seat", "card")
EV_EXTRA_TURN: Final = EventKind("extra_turn", "seat")
EV_FLOOR_CARD: Final = EventKind("floor_card", "seat", "card")
EV_FLOOR_CARD_TIE: Final = EventKind("floor_card", "seat", "card", "tie_break")
EV_GAME_OVER: Final = EventKind("game_over", "reason", "current")
EV_HANDKERCHIEF: Final = EventKind("handkerchief", "seat", "card")
EV_HIRE: Final = EventKind("hire", "seat", "card", "source")
EV_NO_TASK: Final = EventKind("no_task", "seat")
EV_NO_TASK_PRAYER: Final = EventKind("no_task_prayer", "seat")
EV_OLD_TASK: Final = EventKind("old_task", "seat", "card", "to")
EV_PASS: Final = EventKind("pass", "seat")
EV_PERFORM_TASK: Final = EventKind("perform_task", "seat", "owner", "role")
EV_PICKED_UP: Final = EventKind("picked_up", "seat", "cards")
EV_PICKUP: Final = EventKind("pickup", "seat", "count")
EV_PRAY: Final = EventKind("pray", "seat")
EV_REFILL: Final = EventKind("refill", "seat")
EV_RETURN: Final = EventKind("return", "seat", "hand_size")
EV_RETURNED_CARD: Final = EventKind("returned_card", "seat", "card")
EV_REVEAL: Final = EventKind("reveal", "seat", "card")
EV_SELL: Final = EventKind("sell", "seat", "card")
EV_SELL_FROM: Final = EventKind("sell", "seat", "card", "source")
EV_START_CARD_DEALT: Final = EventKind("start_card_dealt", "seat")
EV_START_PLAYER: Final = EventKind("start_player", "seat")
EV_TASK: Final = EventKind("task", "seat", "card", "role", "source")
EV_TASK_SKIPPED: Final = EventKind("task_skipped", "seat", "owner")
EV_TURN_START: Final = EventKind("turn_start", "seat", "turn")
EV_USE_EFFECT: Final = EventKind("use_effect", "seat", "card")
EV_WORK_COMPLETED: Final = EventKind("work_completed", "seat", "card", "wing", "how")


# A raw event as one object, for the compiled build: with ``RawEvent`` (a fixed-length tuple
# type) compiled code takes the tuple apart into a C struct wherever it is passed or returned and
# builds a new one where it is stored; a plain ``tuple`` is passed along as it is.
Raw = tuple

# The most frequent events, made once as whole raw events (the values come from small ranges): a
# raw event is never changed and a reader gets a new dict from it each time, so one tuple serves
# every game, and the playout loop neither builds nor frees it. Seats 0-5; flat tables.
_SEATS: Final = range(6)
_PRAYED: Final[tuple[Raw, ...]] = tuple((EV_PRAY, (p,), None) for p in _SEATS)
_PERFORMS: Final[tuple[Raw, ...]] = tuple(
    (EV_PERFORM_TASK, (p, q, ROLES[r]), None) for p in _SEATS for q in _SEATS for r in range(5)
)
_COUNTED: Final[tuple[Raw, ...]] = tuple(  # 0-3 actions
    (EV_ACTIONS_COUNTED, (p, q, ROLES[r], n), None) for p in _SEATS for q in _SEATS for r in range(5) for n in range(4)
)
_DREW: Final[tuple[Raw, ...]] = tuple((EV_DRAW, (p, n), None) for p in _SEATS for n in range(109))  # 2 decks: 108
_RETURNED: Final[tuple[Raw, ...]] = tuple((EV_RETURN, (p, n), None) for p in _SEATS for n in range(16))
_RETURNED_CARD: Final[tuple[Raw, ...]] = tuple(
    (EV_RETURNED_CARD, (p, CARD_IDS[c]), p) for p in _SEATS for c in range(NUM_TYPES)
)
_BY_SEAT_AND_CARD: Final = [(p, c) for p in _SEATS for c in range(NUM_TYPES)]
_TASKS: Final[tuple[Raw, ...]] = tuple(  # from hand
    (EV_TASK, (p, CARD_IDS[c], ROLES[MAT[c]], "hand"), None) for p, c in _BY_SEAT_AND_CARD
)
_OLD_TASKS: Final[tuple[Raw, ...]] = tuple((EV_OLD_TASK, (p, CARD_IDS[c], "floor"), None) for p, c in _BY_SEAT_AND_CARD)
_HIRES: Final[tuple[Raw, ...]] = tuple((EV_HIRE, (p, CARD_IDS[c], "hire"), None) for p, c in _BY_SEAT_AND_CARD)
_COLLECTS: Final[tuple[Raw, ...]] = tuple((EV_COLLECT, (p, CARD_IDS[c], "collect"), None) for p, c in _BY_SEAT_AND_CARD)
_PICKUPS: Final[tuple[Raw, ...]] = tuple((EV_PICKUP, (p, n), None) for p in _SEATS for n in range(16))


def prayed(seat: int) -> Raw:
    """``public("pray", seat=seat)``."""
    return _PRAYED[seat]


def performs(seat: int, owner: int, role: int) -> Raw:
    """``public("perform_task", seat=seat, owner=owner, role=ROLES[role])``."""
    return _PERFORMS[(seat * 6 + owner) * 5 + role]


def actions_counted(seat: int, owner: int, role: int, actions: int) -> Raw:
    """``public("actions_counted", seat=seat, owner=owner, role=ROLES[role], actions=actions)``."""
    if actions < 4:
        return _COUNTED[((seat * 6 + owner) * 5 + role) * 4 + actions]
    return (EV_ACTIONS_COUNTED, (seat, owner, ROLES[role], actions), None)


def drew(seat: int, deck_size: int) -> Raw:
    """``public("draw", seat=seat, deck_size=deck_size)``."""
    if deck_size < 109:
        return _DREW[seat * 109 + deck_size]
    return (EV_DRAW, (seat, deck_size), None)


def returned(seat: int, hand_size: int) -> Raw:
    """``public("return", seat=seat, hand_size=hand_size)``."""
    if hand_size < 16:
        return _RETURNED[seat * 16 + hand_size]
    return (EV_RETURN, (seat, hand_size), None)


def returned_card(seat: int, card: int) -> Raw:
    """``private(seat, "returned_card", seat=seat, card=CARD_IDS[card])``."""
    return _RETURNED_CARD[seat * NUM_TYPES + card]


def task(seat: int, card: int, source: str) -> Raw:
    """``public("task", seat=seat, card=CARD_IDS[card], role=ROLES[MAT[card]], source=source)``."""
    if source == "hand":
        return _TASKS[seat * NUM_TYPES + card]
    return (EV_TASK, (seat, CARD_IDS[card], ROLES[MAT[card]], source), None)


def old_task(seat: int, card: int, to: str) -> Raw:
    """``public("old_task", seat=seat, card=CARD_IDS[card], to=to)``."""
    if to == "floor":
        return _OLD_TASKS[seat * NUM_TYPES + card]
    return (EV_OLD_TASK, (seat, CARD_IDS[card], to), None)


def hired(seat: int, card: int, source: str) -> Raw:
    """``public("hire", seat=seat, card=CARD_IDS[card], source=source)``: source "hire" is the floor."""
    if source == "hire":
        return _HIRES[seat * NUM_TYPES + card]
    return (EV_HIRE, (seat, CARD_IDS[card], source), None)


def collected(seat: int, card: int, source: str) -> Raw:
    """``public("collect", seat=seat, card=CARD_IDS[card], source=source)``: source "collect" is the floor."""
    if source == "collect":
        return _COLLECTS[seat * NUM_TYPES + card]
    return (EV_COLLECT, (seat, CARD_IDS[card], source), None)


def picked_up(seat: int, count: int) -> Raw:
    """``public("pickup", seat=seat, count=count)``."""
    if count < 16:
        return _PICKUPS[seat * 16 + count]
    return (EV_PICKUP, (seat, count), None)


# The positional parameters have names no event field uses: compiled, a keyword argument
# named like a positional-only parameter is bound to it instead of going into ``data``.
def public(event_: str, /, **data: Any) -> Raw:
    """An event everyone sees (``raw_public``)."""
    return (event_, data, None)


def private(seat_: int, event_: str, /, **data: Any) -> Raw:
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
