"""Mamma Mia!'s observation written straight from the state (compiled with the engine).

The same floats as ``encoding.LAYOUT.encode(state.view(seat, recall=True))``, byte for byte
(``tests/rl/test_fast_encoding.py``), without building the view: ``write`` reads only the
fields the view would show ``seat`` (its own hand, public counts and the oven's announced
plays) and stores each non-zero float at its offset. ``buf`` is anything that takes
``buf[i] = float`` into float32 storage (a memoryview of format ``f``), zeroed by the caller;
``base`` is where this observation starts in it. Offsets follow ``encoding.LAYOUT`` slice by
slice; a scale ``s`` is written as ``n * (1 / s)`` for counts and ``n / s`` for scalars, as
the layout's slices do, so the float32 rounding is the same.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from .data import DECKS, MAMMA_MIA_CARD, NUM_KINDS, ORDER_BASE, ORDERS

if TYPE_CHECKING:
    from .rules import MammaMiaState

NK: Final = NUM_KINDS
NO: Final = len(ORDERS)
NSTEP: Final = 7  # rules.STEP_NAMES
MAXP: Final = 5
_BOMBASTICA: Final = tuple(o.kind_name == "bombastica" for o in ORDERS)
_MIN_TOTAL: Final = tuple(o.min_total for o in ORDERS)
_DECK_OWN: Final = tuple(d.own for d in DECKS)
_ONE: Final[object] = 1.0  # boxed once: every one-hot stores this object
# data.py is not compiled: a name imported from it is a dict lookup at every use, so the
# loops read these module constants instead.
_MM_CARD: Final[int] = MAMMA_MIA_CARD
_ORDER_BASE: Final[int] = ORDER_BASE

# Table slices (see encoding.LAYOUT; the names follow its slices).
ROUND: Final = 0
PHASE: Final = 1  # turn, oven, over, other
STEP: Final = PHASE + 4
TO_MOVE: Final = STEP + NSTEP + 1
ACTIVE: Final = TO_MOVE + MAXP
START: Final = ACTIVE + MAXP
HOLDER: Final = START + MAXP
SUPPLY: Final = HOLDER + MAXP
MM_IN_SUPPLY: Final = SUPPLY + 1
OVEN_SIZE: Final = MM_IN_SUPPLY + 1
TOP_TYPE: Final = OVEN_SIZE + 1  # topping, order, mamma_mia, other
TOP_TOPPING: Final = TOP_TYPE + 4
TOP_ORDER: Final = TOP_TOPPING + NK + 1
LEFTOVERS: Final = TOP_ORDER + NO + 1
PLAYED_TOPPINGS: Final = LEFTOVERS + NK
PLAYED_ORDERS: Final = PLAYED_TOPPINGS + NK
BOX: Final = PLAYED_ORDERS + NO
USED: Final = BOX + NK
OPENER: Final = USED + NK
COUNTER: Final = OPENER + MAXP
PENDING_ORDER: Final = COUNTER + NK
PENDING_OWNER: Final = PENDING_ORDER + NO + 1
PENDING_DECISION: Final = PENDING_OWNER + MAXP
REQUIREMENT: Final = PENDING_DECISION + NSTEP + 1
SHORTFALL: Final = REQUIREMENT + NK
PENDING_ANY: Final = SHORTFALL + NK
TABLE_SIZE: Final = PENDING_ANY + 1
# Player block, relative to its start.
P_DECK: Final = 0
P_OWN: Final = P_DECK + len(DECKS) + 1
P_TOPPINGS: Final = P_OWN + NK + 1
P_ORDERS: Final = P_TOPPINGS + 1
P_KNOWN: Final = P_ORDERS + 1
P_WAITER: Final = P_KNOWN + NO
P_WAITER_BOTTOM: Final = P_WAITER + 1
P_COMPLETED: Final = P_WAITER_BOTTOM + NO
P_SCORE: Final = P_COMPLETED + NO
P_HAS_MM: Final = P_SCORE + 1
P_HAND_TOPPINGS: Final = P_HAS_MM + 1
P_HAND_ORDERS: Final = P_HAND_TOPPINGS + NK
PLAYER_SIZE: Final = P_HAND_ORDERS + NO
SIZE: Final = TABLE_SIZE + MAXP * PLAYER_SIZE


# Boxed offsets 0 .. SIZE - 1, made once. A store ``buf[i] = x`` from compiled code boxes ``i``
# (a new int object above 256, freed right after) before the memoryview parses it back; writing
# from ``base`` 0 (the vector env hands each row as its own view, the Gymnasium and PettingZoo
# envs write fresh arrays) takes the index object from here instead.
_AT: Final[list[object]] = list(range(SIZE))


# ``n * step`` for the counts a slice meets, boxed once: a count stored from here makes no float
# object (the same double as ``n * step``, so the same float32).
SCALED: Final = 16


def _scaled(step: float) -> list[object]:
    return [n * step for n in range(SCALED)]


_BY_13TH: Final[list[object]] = _scaled(1.0 / 13)
_BY_6TH: Final[list[object]] = _scaled(1.0 / 6)
_BY_7TH: Final[list[object]] = _scaled(1.0 / 7)


def _put(buf: Any, i: int, value: object) -> None:
    """``buf[i] = value``, with ``i``'s index object from ``_AT`` when it is there."""
    if 0 <= i < SIZE:
        buf[_AT[i]] = value
    else:
        buf[i] = value


# Typed helpers, one per container type: compiled, ``counts[k]`` on a ``list[int]`` or a
# ``tuple[int, ...]`` is a C array read and ``at + k`` a machine add, where an ``Any`` argument
# made each one a generic Python operation (most of an observation's cost).
def _kinds(buf: Any, at: int, counts: list[int], step: float, scaled: list[object]) -> None:
    """A count per topping kind (a ``{kind: n}`` slice): ``n * step``."""
    for k in range(NK):
        n = counts[k]
        if n:
            _put(buf, at + k, scaled[n] if 0 < n < SCALED else n * step)


def _kinds_at(buf: Any, at: int, counts: list[int], first: int, step: float, scaled: list[object]) -> None:
    """``_kinds`` of ``counts[first : first + NK]`` (a seat's run of a flat list), no slice made."""
    for k in range(NK):
        n = counts[first + k]
        if n:
            _put(buf, at + k, scaled[n] if 0 < n < SCALED else n * step)


def _kinds_tuple(buf: Any, at: int, counts: tuple[int, ...], step: float, scaled: list[object]) -> None:
    for k in range(NK):
        n = counts[k]
        if n:
            _put(buf, at + k, scaled[n] if 0 < n < SCALED else n * step)


def _orders(buf: Any, at: int, orders: tuple[int, ...]) -> None:
    """A count per order (a list slice, scale 1): every order is one card, so a list names
    each at most once and its count is 1."""
    for o in orders:
        _put(buf, at + o, _ONE)


def write(state: "MammaMiaState", seat: int, buf: Any, base: int) -> None:
    """Write ``seat``'s observation into ``buf[base : base + SIZE]`` (already zeroed)."""
    n = state.players
    me = seat
    step = state.step
    in_phase_two = state.opener >= 0
    if state.round:
        _put(buf, base + ROUND, state.round / 3)
    phase = 2 if step == 6 else (1 if step in (3, 4, 5) else 0)
    _put(buf, base + PHASE + phase, _ONE)
    _put(buf, base + STEP + step, _ONE)
    for s in state.to_move:
        _put(buf, base + TO_MOVE + (s - me) % n, _ONE)
    _put(buf, base + ACTIVE + (state.active - me) % n, _ONE)
    _put(buf, base + START + (state.start_player - me) % n, _ONE)
    holder = state.holder
    if holder >= 0:
        _put(buf, base + HOLDER + (holder - me) % n, _ONE)
    supply = state.supply
    if supply:
        _put(buf, base + SUPPLY, len(supply) / 65)
    for card in supply:  # a typed loop: ``in`` on a list compares Python objects one by one
        if card == _MM_CARD:
            _put(buf, base + MM_IN_SUPPLY, _ONE)
            break
    oven = state.oven
    reveal = state.reveal
    first = reveal if in_phase_two else 0
    oven_size = 0  # state.oven_size(), without its slice
    for i in range(first, len(oven)):
        oven_size += oven[i][2]
    if oven_size:
        _put(buf, base + OVEN_SIZE, oven_size / 40)
    if len(oven) > first:
        card = oven[len(oven) - 1][1]
        if card < NK:
            _put(buf, base + TOP_TYPE, _ONE)
            _put(buf, base + TOP_TOPPING + card, _ONE)
        elif card == _MM_CARD:
            _put(buf, base + TOP_TYPE + 2, _ONE)
        else:
            _put(buf, base + TOP_TYPE + 1, _ONE)
            _put(buf, base + TOP_ORDER + card - _ORDER_BASE, _ONE)
    # The oven's history, as a seat with recall remembers it (views.view, recall=True).
    leftovers = state.leftovers
    leftover_entries = 0
    for x in leftovers:
        if x:
            leftover_entries += 1
    if not in_phase_two:
        _kinds_tuple(buf, base + LEFTOVERS, leftovers, 1.0 / 13, _BY_13TH)
    start = reveal if in_phase_two else leftover_entries
    played = [0] * NK
    any_topping = False
    for i in range(max(start, leftover_entries), len(oven)):
        entry = oven[i]
        card = entry[1]
        if card < NK:
            played[card] += entry[2]
            any_topping = True
        elif card != _MM_CARD:
            _put(buf, base + PLAYED_ORDERS + card - _ORDER_BASE, _ONE)
    if any_topping:
        _kinds(buf, base + PLAYED_TOPPINGS, played, 1.0 / 13, _BY_13TH)
    _kinds_tuple(buf, base + BOX, state.box, 1.0 / 13, _BY_13TH)
    _kinds(buf, base + USED, state.used, 1.0 / 13, _BY_13TH)
    if in_phase_two:
        _put(buf, base + OPENER + (state.opener - me) % n, _ONE)
        _kinds(buf, base + COUNTER, state.counter, 1.0 / 13, _BY_13TH)
        pending = state.pending
        if pending >= 0:
            _put(buf, base + PENDING_ORDER + pending, _ONE)
            _put(buf, base + PENDING_OWNER + (state.owner_of(pending) - me) % n, _ONE)
            _put(buf, base + PENDING_DECISION + step, _ONE)
            if state.need:
                _kinds_tuple(buf, base + REQUIREMENT, state.need, 1.0 / 6, _BY_6TH)
                _kinds_tuple(buf, base + SHORTFALL, state.shortfall(), 1.0 / 6, _BY_6TH)
            elif _BOMBASTICA[pending] and _MIN_TOTAL[pending]:
                _put(buf, base + PENDING_ANY, _MIN_TOTAL[pending] / 15)
    for rel in range(n):
        p = (me + rel) % n
        at = base + TABLE_SIZE + rel * PLAYER_SIZE
        deck = state.decks[p]
        _put(buf, at + P_DECK + deck, _ONE)
        _put(buf, at + P_OWN + _DECK_OWN[deck], _ONE)
        toppings = state.n_toppings[p]
        if toppings:
            _put(buf, at + P_TOPPINGS, toppings / 7)
        hand = state.hand_orders[p]
        if hand:
            _put(buf, at + P_ORDERS, len(hand) / 8)
        _orders(buf, at + P_KNOWN, state.known_hand_orders[p])
        waiter = state.waiters[p]
        if waiter:
            _put(buf, at + P_WAITER, len(waiter) / 8)
        known = state.waiter_known[p]
        if known:
            for i in range(len(waiter) - known, len(waiter)):
                _put(buf, at + P_WAITER_BOTTOM + waiter[i], _ONE)
        completed = state.completed[p]
        _orders(buf, at + P_COMPLETED, completed)
        if completed:
            _put(buf, at + P_SCORE, len(completed) / 8)
        if holder == p:
            _put(buf, at + P_HAS_MM, _ONE)
        if p == seat:
            _kinds_at(buf, at + P_HAND_TOPPINGS, state.hand_toppings, p * NK, 1.0 / 7, _BY_7TH)
            _orders(buf, at + P_HAND_ORDERS, hand)
