"""Sweet Nose's observation written straight from the state (compiled with the engine).

The same floats as ``encoding.LAYOUT.encode(state.view(seat, recall=True))``, byte for byte
(``tests/rl/test_fast_encoding.py``), without building the view: ``write`` reads only what
the view shows ``seat`` (its own sweetness cards until the reveal, a hidden tile's level only)
and stores each non-zero float at its offset in ``buf`` (a float32 memoryview, zeroed by the
caller) from ``base``. Counts are ``n * (1 / scale)`` and scalars ``n / scale``, as in the
layout's slices, so the float32 rounding is the same.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from .data import LEVELS, ROUNDS, TILES

if TYPE_CHECKING:
    from .rules import SweetNoseState

NK: Final = 5
NSTEP: Final = 7  # rules.STEP_NAMES
NT: Final = len(TILES)
MAXP: Final = 5
_NO_TILE: Final = -1  # rules.NO_TILE
_ASSIGN: Final = 1
_EXCHANGE: Final = 2
_SHOP: Final = 5
_OVER: Final = 6
_TILE_LEVEL: Final = tuple(t.level for t in TILES)
_LEVEL_INDEX: Final = {lv: i for i, lv in enumerate(LEVELS)}
_ONE: Final[object] = 1.0
# data.py is not compiled: a name imported from it is a dict lookup at every use.
_ROUNDS: Final[int] = ROUNDS
_N_LEVELS: Final[int] = len(LEVELS)

ROUND: Final = 0
PHASE: Final = 1
TO_MOVE: Final = PHASE + NSTEP + 1
ACTIVE: Final = TO_MOVE + MAXP
START: Final = ACTIVE + MAXP
MARKET: Final = START + MAXP
SUPPLY: Final = MARKET + NK
REVEALED: Final = SUPPLY + NK
SHOP: Final = REVEALED + 1
SHOP_LEVELS: Final = SHOP + NT
EXCHANGED: Final = SHOP_LEVELS + len(LEVELS)
PHASE_TURNS: Final = EXCHANGED + 1
QUIET_TURNS: Final = PHASE_TURNS + 1
PICKERS: Final = QUIET_TURNS + 1
NEXT_PICK: Final = PICKERS + MAXP
TABLE_SIZE: Final = NEXT_PICK + 1
P_TRAY: Final = 0
P_BOWL: Final = NK
P_TRAY_SIZE: Final = 2 * NK
P_SCORE: Final = P_TRAY_SIZE + 1
P_ROUND_SCORE: Final = P_SCORE + 1
P_SET: Final = P_ROUND_SCORE + 1
P_SWEETNESS: Final = P_SET + 1
P_TILE: Final = P_SWEETNESS + NK
P_TILE_LEVEL: Final = P_TILE + NT + 1
P_IGNORING: Final = P_TILE_LEVEL + 1
P_IN_AUCTION: Final = P_IGNORING + 1
P_PAST: Final = P_IN_AUCTION + 1  # per round 1..ROUNDS: NK sweetness values, then the round's score
P_SWAPS: Final = P_PAST + ROUNDS * (NK + 1)
PLAYER_SIZE: Final = P_SWAPS + NK
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


_BY_3RD: Final[list[object]] = _scaled(1.0 / 3)
_BY_9TH: Final[list[object]] = _scaled(1.0 / 9)
_BY_HALF: Final[list[object]] = _scaled(0.5)
_BY_8TH: Final[list[object]] = _scaled(1.0 / 8)
_BY_5TH: Final[list[object]] = _scaled(1.0 / 5)


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
    """A count per kind (a ``{kind: n}`` slice): ``n * step``."""
    for k in range(len(counts)):
        n = counts[k]
        if n:
            _put(buf, at + k, scaled[n] if 0 < n < SCALED else n * step)


def _kinds_tuple(buf: Any, at: int, counts: tuple[int, ...], step: float, scaled: list[object]) -> None:
    for k in range(len(counts)):
        n = counts[k]
        if n:
            _put(buf, at + k, scaled[n] if 0 < n < SCALED else n * step)


def _kinds_at(buf: Any, at: int, counts: list[int], first: int, step: float, scaled: list[object]) -> None:
    """``_kinds`` of ``counts[first : first + NK]`` (a seat's run of a flat list), no slice made."""
    for k in range(NK):
        n = counts[first + k]
        if n:
            _put(buf, at + k, scaled[n] if 0 < n < SCALED else n * step)


def _tray(buf: Any, at: int, tray: int) -> int:
    """A packed tray (``rules.pack``: 4 bits per kind) as counts ÷8, without unpacking it into
    a list; returns its size."""
    size = 0
    for k in range(NK):
        n = tray >> (4 * k) & 15
        if n:
            _put(buf, at + k, _BY_8TH[n] if 0 < n < SCALED else n * (1.0 / 8))
            size += n
    return size


def write(state: "SweetNoseState", seat: int, buf: Any, base: int) -> None:
    """Write ``seat``'s observation into ``buf[base : base + SIZE]`` (already zeroed)."""
    n = state.players
    me = seat
    step = state.step
    options = state.options
    visible = options.shop_tiles_visible
    if state.round:
        _put(buf, base + ROUND, state.round / _ROUNDS)
    _put(buf, base + PHASE + step, _ONE)
    for s in state.to_move:
        _put(buf, base + TO_MOVE + (s - me) % n, _ONE)
    if step != _ASSIGN and step != _OVER:
        _put(buf, base + ACTIVE + (state.active - me) % n, _ONE)
    _put(buf, base + START + (state.start_player - me) % n, _ONE)
    _kinds(buf, base + MARKET, state.market, 1.0 / 3, _BY_3RD)
    _kinds_tuple(buf, base + SUPPLY, state.supply, 1.0 / 9, _BY_9TH)
    if state.revealed:
        _put(buf, base + REVEALED, _ONE)
    taken = state.taken_tiles()  # the shop is every tile not taken (state.tiles_in_shop())
    if visible:
        for t in range(NT):
            if not taken >> t & 1:
                _put(buf, base + SHOP + t, _ONE)
    else:
        levels = [0] * _N_LEVELS
        for t in range(NT):
            if not taken >> t & 1:
                levels[_LEVEL_INDEX[_TILE_LEVEL[t]]] += 1
        _kinds(buf, base + SHOP_LEVELS, levels, 0.5, _BY_HALF)
    if step == _EXCHANGE:
        if state.exchanged:
            _put(buf, base + EXCHANGED, _ONE)
        if state.phase_turns:
            _put(buf, base + PHASE_TURNS, state.phase_turns / 20)
        if state.quiet_turns:
            _put(buf, base + QUIET_TURNS, state.quiet_turns / 5)
    if step == _SHOP:
        picks = state.picks
        for s, _level in picks:
            _put(buf, base + PICKERS + (s - me) % n, _ONE)
        if picks and picks[0][1]:
            _put(buf, base + NEXT_PICK, picks[0][1] / 5)
    revealed = state.revealed
    round_scores = state.round_scores
    for rel in range(n):
        p = (me + rel) % n
        at = base + TABLE_SIZE + rel * PLAYER_SIZE
        tray_size = _tray(buf, at + P_TRAY, state.trays[p])
        _kinds_at(buf, at + P_BOWL, state.bowls, p * NK, 1.0 / 8, _BY_8TH)
        if tray_size:
            _put(buf, at + P_TRAY_SIZE, tray_size / 8)
        if state.scores[p]:
            _put(buf, at + P_SCORE, state.scores[p] / 100)
        if round_scores and round_scores[p]:
            _put(buf, at + P_ROUND_SCORE, round_scores[p] / 50)
        values = state.sweetness[p]
        if values:
            _put(buf, at + P_SET, _ONE)
            if revealed or p == seat:
                _kinds_tuple(buf, at + P_SWEETNESS, values, 1.0 / 5, _BY_5TH)
        tile = state.held[p]
        if tile != _NO_TILE:
            if visible or p == seat:
                _put(buf, at + P_TILE + tile, _ONE)
            _put(buf, at + P_TILE_LEVEL, _TILE_LEVEL[tile] / 5)
        if state.ignoring[p]:
            _put(buf, at + P_IGNORING, _ONE)
        if options.shopkeeper and state.in_auction[p]:
            _put(buf, at + P_IN_AUCTION, _ONE)
    # What a seat remembers (recall): earlier rounds' revealed cards and scores, this round's swaps.
    for r, cards, scores in state.past:
        if 1 <= r <= _ROUNDS:
            slot = P_PAST + (r - 1) * (NK + 1)
            for p in range(len(cards)):
                at = base + TABLE_SIZE + ((p - me) % n) * PLAYER_SIZE + slot
                _kinds_tuple(buf, at, cards[p], 1.0 / 5, _BY_5TH)
                if scores[p]:
                    _put(buf, at + NK, scores[p] / 50)
    for s, a, b in state.swaps:
        at = base + TABLE_SIZE + ((s - me) % n) * PLAYER_SIZE + P_SWAPS
        buf[at + a] = buf[at + a] + 0.5
        buf[at + b] = buf[at + b] + 0.5
