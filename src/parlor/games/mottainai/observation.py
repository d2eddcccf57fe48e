"""Mottainai's observation written straight from the state (compiled with the engine).

The same floats as ``encoding.LAYOUT.encode(state.view(seat, recall=True))``, byte for byte
(``tests/rl/test_fast_encoding.py``), without building the view: ``write`` reads only what
the view shows ``seat`` (its own hand, the public zones, the deck cards it knows, the open
decision frame's public fields) and stores each non-zero float at its offset in ``buf`` (a
float32 memoryview, zeroed by the caller) from ``base``. Every card slice counts per card
type with scale 1 (a type may be there twice: the larger tables play with two copies).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from .data import MATERIALS, NUM_TYPES, ROLES, WINGS

if TYPE_CHECKING:
    from .rules import MottainaiState

NC: Final = NUM_TYPES
MAXP: Final = 6
EVERYONE: Final = -2  # views.EVERYONE
NOBODY: Final = -1  # views.NOBODY: a deck card nobody knows
DECISIONS: Final = (
    "action", "actions", "after_prayer", "amulet", "before_tailor", "choose_task", "chopsticks", "clear_task",
    "cloak", "dice", "end_now", "fan", "fan_order", "floor_return", "gate", "hand_limit", "jar", "kite",
    "kite_copy", "morning_effects", "night_effects", "perform", "pinwheel", "pinwheel_draw", "place_work",
    "plane", "poem_wing", "prayer", "reveal_bonus", "ring", "shuriken", "support", "tablet", "tailor_return",
    "take_floor", "triggers", "turn", "umbrella",
)  # fmt: skip
SUPPORT_HOW: Final = ("smith", "craft", "hand", "sketch")
_DECISION_INDEX: Final = {k: i for i, k in enumerate(DECISIONS)}
_HOW_INDEX: Final = {k: i for i, k in enumerate(SUPPORT_HOW)}
_ONE: Final[object] = 1.0

TURN: Final = 0
ACTIVE: Final = 1
START: Final = ACTIVE + MAXP
TO_MOVE: Final = START + MAXP
DECK_SIZE: Final = TO_MOVE + MAXP
DECK_TOP: Final = DECK_SIZE + 1
DECK_KNOWN: Final = DECK_TOP + NC + 1
FLOOR: Final = DECK_KNOWN + NC
EXTRA_TURNS: Final = FLOOR + NC
DECISION: Final = EXTRA_TURNS + 1
D_OWNER: Final = DECISION + len(DECISIONS) + 1
D_ROLE: Final = D_OWNER + MAXP
D_PIN: Final = D_ROLE + len(ROLES) + 1
D_ACTIONS_LEFT: Final = D_PIN + 1
D_CARD: Final = D_ACTIONS_LEFT + 1
D_MATERIAL: Final = D_CARD + NC + 1
D_CARDS: Final = D_MATERIAL + len(MATERIALS) + 1
D_SEAT: Final = D_CARDS + NC
D_REMAINING: Final = D_SEAT + MAXP
D_WING: Final = D_REMAINING + 1
D_HOW: Final = D_WING + len(WINGS) + 1
USED_EFFECTS: Final = D_HOW + len(SUPPORT_HOW) + 1
TABLE_SIZE: Final = USED_EFFECTS + NC
P_HAND_SIZE: Final = 0
P_REVEALED: Final = 1
P_WAITING_SIZE: Final = P_REVEALED + NC
P_TASK: Final = P_WAITING_SIZE + 1
P_TASK_DOWN: Final = P_TASK + NC + 1
P_TASK_DOLL: Final = P_TASK_DOWN + 1
P_HELPERS: Final = P_TASK_DOLL + 1
P_BENCH: Final = P_HELPERS + NC
P_SALES: Final = P_BENCH + NC
P_GALLERY: Final = P_SALES + NC
P_GIFT: Final = P_GALLERY + NC
P_KITE: Final = P_GIFT + NC
P_AS_GALLERY: Final = P_KITE + NC
P_AS_GIFT: Final = P_AS_GALLERY + NC
P_HAND: Final = P_AS_GIFT + NC
P_WAITING: Final = P_HAND + NC
PLAYER_SIZE: Final = P_WAITING + NC
SIZE: Final = TABLE_SIZE + MAXP * PLAYER_SIZE


# Boxed offsets 0 .. SIZE - 1, made once. A store ``buf[i] = x`` from compiled code boxes ``i``
# (a new int object above 256, freed right after) before the memoryview parses it back; writing
# from ``base`` 0 (the vector env hands each row as its own view, the Gymnasium and PettingZoo
# envs write fresh arrays) takes the index object from here instead.
_AT: Final[list[object]] = list(range(SIZE))


def _put(buf: Any, i: int, value: object) -> None:
    """``buf[i] = value``, with ``i``'s index object from ``_AT`` when it is there."""
    if 0 <= i < SIZE:
        buf[_AT[i]] = value
    else:
        buf[i] = value


# Typed helpers: compiled, iterating a ``tuple[int, ...]`` reads a C array and ``at + c`` is a
# machine add, where an ``Any`` argument made each a generic Python operation and every card a
# read-modify-write of the buffer (most of an observation's cost).
def _add(buf: Any, at: int, cards: tuple[int, ...]) -> None:
    """A count per card type: each card adds 1 (larger tables play with two copies of a type).
    The first card of a type stores 1.0; only a second copy reads the buffer back."""
    seen = 0  # bit c: type c stored already (54 types: a machine int)
    for c in cards:
        bit = 1 << c
        if seen & bit:
            i = at + c
            buf[i] = buf[i] + 1.0
        else:
            seen |= bit
            _put(buf, at + c, _ONE)


def _add_any(buf: Any, at: int, cards: Any) -> None:
    """``_add`` of a decision frame's cards (a frame's fields are untyped)."""
    for c in cards:
        i: int = at + c
        buf[i] = buf[i] + 1.0


def _seat(buf: Any, at: int, value: Any, me: int, n: int) -> None:
    if isinstance(value, int):
        _put(buf, at + (value - me) % n, _ONE)


def _decision(s: "MottainaiState", buf: Any, base: int, me: int, n: int) -> None:
    """The open decision frame's public fields (views._decision, with its recall additions)."""
    frame = s.stack[-1]
    kind: str = frame[0]
    _put(buf, base + DECISION + _DECISION_INDEX.get(kind, len(DECISIONS)), _ONE)
    if kind == "action":
        _seat(buf, base + D_OWNER, frame[1], me, n)
        role: int = frame[2]
        _put(buf, base + D_ROLE + role, _ONE)
        if frame[3]:
            _put(buf, base + D_PIN, _ONE)
        else:
            _put(buf, base + D_ACTIONS_LEFT, (s.t_left + 1) / 5)
    elif kind == "gate":
        _seat(buf, base + D_OWNER, frame[1], me, n)
        gate_role: int = frame[2]
        _put(buf, base + D_ROLE + gate_role, _ONE)
    elif kind == "perform" or kind == "actions":
        _seat(buf, base + D_OWNER, frame[1], me, n)
    elif kind == "reveal_bonus":
        _put(buf, base + D_CARD + frame[1], _ONE)
        _put(buf, base + D_MATERIAL + frame[2], _ONE)
        _add_any(buf, base + D_CARDS, frame[4])
        if frame[3] > 0:
            _put(buf, base + D_REMAINING, frame[3] / 5)
    elif kind == "fan":
        _add_any(buf, base + D_CARDS, frame[1])
    elif kind == "triggers":
        _add_any(buf, base + D_CARDS, frame[1])
        _put(buf, base + D_CARD + frame[2], _ONE)
    elif kind == "umbrella":
        _put(buf, base + D_MATERIAL + frame[1], _ONE)
    elif kind == "kite_copy":
        _seat(buf, base + D_SEAT, frame[1], me, n)
    elif kind == "take_floor":
        _seat(buf, base + D_SEAT, frame[1], me, n)
        if frame[2]:
            _put(buf, base + D_REMAINING, frame[2] / 5)
    elif kind == "place_work":
        _put(buf, base + D_CARD + frame[1], _ONE)
    elif kind == "support":
        _put(buf, base + D_CARD + frame[1], _ONE)
        _put(buf, base + D_WING + frame[2], _ONE)
        how = frame[3]
        if isinstance(how, str):
            head = how.split(":")[0]
            _put(buf, base + D_HOW + _HOW_INDEX.get(head, len(SUPPORT_HOW)), _ONE)
        elif how is not None:
            _put(buf, base + D_HOW + len(SUPPORT_HOW), _ONE)
        if frame[4]:
            _put(buf, base + D_REMAINING, frame[4] / 5)
        _add_any(buf, base + D_CARDS, frame[5])
    elif kind == "fan_order":
        _add_any(buf, base + D_CARDS, frame[1])


def write(state: "MottainaiState", seat: int, buf: Any, base: int) -> None:
    """Write ``seat``'s observation into ``buf[base : base + SIZE]`` (already zeroed)."""
    s = state
    _table(s, seat, buf, base)
    n = s.players
    for rel in range(n):
        _block(s, seat, buf, base + TABLE_SIZE + rel * PLAYER_SIZE, (seat + rel) % n)


def _table(s: "MottainaiState", seat: int, buf: Any, base: int) -> None:
    """The table slices (everything before the player blocks)."""
    n = s.players
    me = seat
    if s.turns:
        _put(buf, base + TURN, s.turns / 50)
    _put(buf, base + ACTIVE + (s.active - me) % n, _ONE)
    _put(buf, base + START + (s.start_player - me) % n, _ONE)
    for p in s.to_move:
        _put(buf, base + TO_MOVE + (p - me) % n, _ONE)
    deck = s.deck
    info = s.deck_info
    if deck:
        _put(buf, base + DECK_SIZE, len(deck) / NC)
        if info[len(info) - 1] == EVERYONE:
            _put(buf, base + DECK_TOP + deck[len(deck) - 1], _ONE)
    seen = 0  # as in _add: the first copy of a type stores 1.0
    # Most deck cards are known to nobody: ``list.count`` (a C loop, identity hits on the small
    # int) settles that case without a loop here over the whole deck.
    unknown = info.count(NOBODY)
    for i in range(len(deck) if unknown < len(info) else 0):
        k = info[i]
        if k == EVERYONE or k == seat:  # noqa: SIM109  (compiled: two int compares, no tuple)
            c = deck[i]
            bit = 1 << c
            if seen & bit:
                j = base + DECK_KNOWN + c
                buf[j] = buf[j] + 1.0
            else:
                seen |= bit
                _put(buf, base + DECK_KNOWN + c, _ONE)
    _add(buf, base + FLOOR, s.floor)
    if s.extra_turns:
        _put(buf, base + EXTRA_TURNS, s.extra_turns / 2)
    if s.stack and not s.over:
        _decision(s, buf, base, me, n)
    _add(buf, base + USED_EFFECTS, s.used_fx)


def _block(s: "MottainaiState", seat: int, buf: Any, at: int, p: int) -> None:
    """Seat ``p``'s player block at ``at``: read from ``p``'s own zones only (``zone_changes``),
    and from whether the game is over and who observes."""
    over = s.over
    o = s.options
    hand = s.hands[p]
    if hand:
        _put(buf, at + P_HAND_SIZE, len(hand) / 5)
    _add(buf, at + P_REVEALED, s.known[p])
    waiting = s.waiting[p]
    if waiting:
        _put(buf, at + P_WAITING_SIZE, len(waiting) / 5)
    task = s.tasks[p]
    if task >= 0:
        if s.task_up[p]:
            _put(buf, at + P_TASK + task, _ONE)
            if s.doll_task[p]:
                _put(buf, at + P_TASK_DOLL, _ONE)
        else:
            _put(buf, at + P_TASK_DOWN, _ONE)
    _add(buf, at + P_HELPERS, s.helpers[p])
    _add(buf, at + P_BENCH, s.bench[p])
    _add(buf, at + P_SALES, s.sales[p])
    _add(buf, at + P_GALLERY, s.gallery[p])
    _add(buf, at + P_GIFT, s.gift[p])
    _add(buf, at + P_KITE, s.kite[p])
    if s.kite[p]:  # a Kite counts as the work it copies (wings_of)
        gallery, gift = s.wings_of(p)
        _add(buf, at + P_AS_GALLERY, gallery)
        _add(buf, at + P_AS_GIFT, gift)
    else:  # the works themselves: no pair of tuples made
        _add(buf, at + P_AS_GALLERY, s.gallery[p])
        _add(buf, at + P_AS_GIFT, s.gift[p])
    if p == seat or over:  # your hand; every hand at the final scoring
        _add(buf, at + P_HAND, hand)
    if (p == seat and o.waiting_area_visible_to_owner) or (over and o.waiting_area_scores):
        _add(buf, at + P_WAITING, waiting)


# ---- Rewriting a row in place (the vector env): only what changed since it was last written.

# Zeros to copy over a row's table part and the player blocks after it, or over k blocks alone
# (read-only views of one zeroed block of memory, made once).
_ZEROS: Final = memoryview(bytes(4 * SIZE)).cast("f")
_ZERO_TABLE_AND: Final[list[Any]] = [_ZEROS[: TABLE_SIZE + k * PLAYER_SIZE] for k in range(MAXP + 1)]
_ZERO_BLOCKS: Final[list[Any]] = [_ZEROS[: k * PLAYER_SIZE] for k in range(MAXP + 1)]


class Row:
    """What one row of a reused buffer holds: the state object and seat it was written from,
    whether that game was over, and each seat's ``zone_changes`` count then (``write_changed``).
    ``state`` None: nothing known (the row is written whole next time)."""

    def __init__(self) -> None:
        self.state: object = None
        self.seat = -1
        self.over = False
        self.changes: list[int] = []

    def forget(self) -> None:
        """The row was written by other means: its next ``write_changed`` writes it whole."""
        self.state = None


def write_changed(state: "MottainaiState", seat: int, buf: Any, row: Row) -> None:
    """``write(state, seat, buf, 0)`` into a row (``buf``, from offset 0) that holds what
    ``row`` says it was last written from, without zeroing it first: the table part is zeroed
    and written again, and of the player blocks only those of seats whose zones changed since
    (``zone_changes``); all of them when the row was written from another state object, for
    another seat, or before the game ended. The bytes are those of a full write as long as
    nothing else wrote into the row (the vector env hands its observations out read-only).

    Most moves change one or two seats' zones, and reading a cold state's per-seat zones is
    most of what a full write costs in a batch of games that do not fit the cache together."""
    s = state
    n = s.players
    changes = s.zone_changes
    over = s.over
    known = row.changes
    whole = row.state is not s or row.seat != seat or row.over != over or len(known) != n
    # the player blocks to write, by relative seat (bit rel), and where the table's zeroing ends
    todo = 0
    for rel in range(n):
        p = (seat + rel) % n
        if whole or changes[p] != known[p]:
            todo |= 1 << rel
    lead = 0  # blocks right after the table that change: zeroed with it in one copy
    while lead < n and todo >> lead & 1:
        lead += 1
    buf[0 : TABLE_SIZE + lead * PLAYER_SIZE] = _ZERO_TABLE_AND[lead]
    rel = lead
    while rel < n:
        if todo >> rel & 1:
            end = rel + 1
            while end < n and todo >> end & 1:
                end += 1
            at = TABLE_SIZE + rel * PLAYER_SIZE
            buf[at : at + (end - rel) * PLAYER_SIZE] = _ZERO_BLOCKS[end - rel]
            rel = end
        else:
            rel += 1
    _table(s, seat, buf, 0)
    for rel in range(n):
        if todo >> rel & 1:
            _block(s, seat, buf, TABLE_SIZE + rel * PLAYER_SIZE, (seat + rel) % n)
    row.state = s
    row.seat = seat
    row.over = over
    if whole:
        row.changes = changes[:]
    else:
        for p in range(n):
            known[p] = changes[p]
