"""Sweet Nose rules, in rulebook order (spec: ``docs/rules/sweet_nose.md``).

Setup (§3) -> [Shopkeeper auction (§7.2)] -> rounds of phase 1 "set sweetness"
(§4.1, simultaneous and secret), phase 2 "exchange sweets and use shops" (§4.2),
phase 3 "score sweetness" (§4.3) and phase 4 "choose a shop" (§4.4) -> the end (§6).

Sweets of a kind are interchangeable, so every container is a count per kind: a tray is one
integer with 4 bits per kind (``pack``; a kind has 9 sweets), so its kinds, its size and a
move are arithmetic; bowls are a flat list (``seat * 5 + kind``), the market a list of 5. Per-seat data that
rarely changes (cards, tiles, flags) is kept in tuples, copied on write, so ``clone`` only
copies a few short lists. Every action the engine offers is a prebuilt object.

The legal moves of phase 2 are built from bitmasks: bit ``k`` of a tray's mask says the
tray holds a sweet of kind ``k``. Which exchanges are legal depends only on these masks, so
``actions.py`` lists them once per (target, their mask, my mask) and the generator here is
one list extension per other player; likewise the double trade, by which pairs each tray
holds. The options the per-move code reads are decoded once into a ``Rulings``. A list item
is updated as ``x[i] = x[i] + n``: compiled, ``x[i] += n`` is a generic Python operation.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from mypy_extensions import i64

from parlor.core.actions import Action
from parlor.core.events import EventKind, RawEvent
from parlor.core.game import Result, State
from parlor.core.options import OptionError
from parlor.core.rng import AnyRng

from . import actions as A
from . import data
from .data import (
    BAG_PER_KIND,
    KINDS,
    MARKET_FROM_SUPPLY,
    NUM_KINDS,
    ROUNDS,
    SHOPKEEPER_LEVELS,
    SWEETS_PER_KIND,
    TILE_INDEX,
    TILES,
    TILES_OF_LEVEL,
    TRAY_SIZE,
)
from .options import Options

# Compile-time constants of the hot path (mypyc inlines Final literals).
N: Final = 5  # sweet kinds (data.NUM_KINDS), so a tray is 5 counts
assert N == NUM_KINDS
_NO_TILE: Final = -1
# The shop tiles by ability (indices into data.TILES).
STASH: Final = data.STASH
TWIN_TRADE: Final = data.TWIN_TRADE
TAKE_BACK: Final = data.TAKE_BACK
MARKET_TO_BOWL: Final = data.MARKET_TO_BOWL
BOWL_SWAP: Final = data.BOWL_SWAP
SEND_BACK: Final = data.SEND_BACK
REARRANGE: Final = data.REARRANGE
DOUBLE_TRADE: Final = data.DOUBLE_TRADE
CHANGE_TASTE: Final = data.CHANGE_TASTE
IGNORE_MARKET: Final = data.IGNORE_MARKET
# The prebuilt actions the move generators hand out (module attributes of ``actions``,
# bound once here). The exchange tables are flattened (one index instead of three): A by
# ``target << 10 | their kinds << 5 | my kinds``, B by ``my kinds << 5 | the market's kinds``.
_EXCHANGE_A_FLAT: Final[list[list[Action]]] = [
    A.EXCHANGE_A_BY_MASKS[target][theirs][mine] for target in range(5) for theirs in range(32) for mine in range(32)
]
_EXCHANGE_B_FLAT: Final[list[list[Action]]] = [
    A.EXCHANGE_B_BY_MASK[mine][market] for mine in range(32) for market in range(32)
]
_DOUBLE_TRADE: Final = A.DOUBLE_TRADE_BY_INDEX
_PAIR_COUNT: Final = 15  # len(A.PAIRS); the singles follow them in A.GROUPS
assert len(A.PAIRS) == _PAIR_COUNT and len(A.SINGLES) == N and A.MAX_SEATS == 5


# A tray as one integer: kind k's count in bits 4k..4k+3. _ONE[k] is one sweet of kind k.
_ONE: Final[tuple[int, ...]] = (1, 16, 256, 4096, 65536)


def pack(counts: Any) -> int:
    """Five counts (0-15 each) as a packed tray."""
    out = 0
    for k in range(N):
        n = counts[k]
        if not 0 <= n <= 15:
            raise ValueError(f"a tray holds 0-15 sweets of a kind, got {n}")
        out += n << 4 * k
    return out


def unpack(tray: int) -> list[int]:
    """A packed tray's five counts."""
    t: i64 = tray
    return [t & 15, t >> 4 & 15, t >> 8 & 15, t >> 12 & 15, t >> 16 & 15]


def kinds_of(tray: int) -> int:
    """A packed tray's kinds as a bitmask (bit k set: it holds a sweet of kind k)."""
    t: i64 = tray
    x: i64 = t | t >> 1
    x |= x >> 2  # bit 4k: kind k's count is not zero
    return (x & 1) | (x >> 3 & 2) | (x >> 6 & 4) | (x >> 9 & 8) | (x >> 12 & 16)


def _kinds(tray: i64) -> i64:
    """``kinds_of`` for the compiled callers (no boxing)."""
    x: i64 = tray | tray >> 1
    x |= x >> 2
    return (x & 1) | (x >> 3 & 2) | (x >> 6 & 4) | (x >> 9 & 8) | (x >> 12 & 16)


# The legal lists of phase 4 by all they depend on (tiles taken, level allowed, two options;
# the key is made in ``_legal_actions``): shared by every state, never mutated (the engine
# copies what it hands out). At most 2**15 keys.
_SHOP_LEGAL_CACHE: Final[dict[int, list[Action]]] = {}
_PICKABLE: Final[list[list[int] | None]] = [None] * (1 << 13)  # SweetNoseState.pickable's, by tiles and level


def _pairs_held(sig: int) -> int:
    """The pairs (A.PAIRS) a tray holds, as a bitmask, from ``sum(min(count, 2) * 3**kind)``."""
    counts = [sig // 3**k % 3 for k in range(N)]
    return sum(1 << i for i, pair in enumerate(A.PAIRS) if _contains(counts, pair))


# Steps: where the game stands.
AUCTION: Final = 0
ASSIGN: Final = 1
EXCHANGE: Final = 2
TASTE: Final = 3
DECLARE: Final = 4
SHOP: Final = 5
OVER: Final = 6
STEP_NAMES = ("auction", "set_sweetness", "exchange", "change_taste", "declare_ignore_market", "choose_shop", "over")

_TILE_LEVEL: Final[tuple[int, ...]] = tuple(t.level for t in TILES)
_TILE_ID: Final[tuple[str, ...]] = tuple(t.id for t in TILES)
_TILE_COUNT: Final = len(TILES)
# Imported data the per-move code reads, as C statics (an imported name is a dict lookup).
_KINDS: Final[tuple[str, ...]] = KINDS
_TRAY_SIZE: Final[int] = TRAY_SIZE
_ROUNDS: Final[int] = ROUNDS
# Round score -> the highest shop level it allows (data.max_level), highest threshold first.
_ELIGIBILITY: Final[tuple[tuple[int, int], ...]] = data.ELIGIBILITY

# The prebuilt actions and action classes the per-move code uses, bound once: in the compiled
# build a Final name is a C static, ``A.NAME`` a module attribute lookup on every use.
ASSIGN_ALL: Final = A.ASSIGN_ALL  # shared, never mutated (the engine copies what it hands out)
END_TURN: Final = A.END_TURN
USE_STASH: Final = A.STASH
USE_TWIN_TRADE: Final = A.TWIN_TRADE
USE_TAKE_BACK: Final = A.TAKE_BACK
USE_MARKET_TO_BOWL: Final = A.MARKET_TO_BOWL
USE_BOWL_SWAP: Final = A.BOWL_SWAP
USE_SEND_BACK: Final = A.SEND_BACK
USE_REARRANGE: Final = A.REARRANGE
USE_CHANGE_TASTE: Final[list[Action]] = list(A.CHANGE_TASTE.values())
USE_IGNORE_MARKET: Final = A.IGNORE_MARKET
CHOOSE_SHOP: Final = A.CHOOSE_SHOP
ExchangeWithPlayer: Final = A.ExchangeWithPlayer
ExchangeWithMarket: Final = A.ExchangeWithMarket
EndTurn: Final = A.EndTurn
_Decline: Final = A.Decline
_ChooseShop: Final = A.ChooseShop
_ChooseShopLevel: Final = A.ChooseShopLevel
_Bid: Final = A.Bid
_UseStash: Final = A.UseStash
_UseTwinTrade: Final = A.UseTwinTrade
_UseTakeBack: Final = A.UseTakeBack
_UseMarketToBowl: Final = A.UseMarketToBowl
_UseBowlSwap: Final = A.UseBowlSwap
_UseSendBack: Final = A.UseSendBack
_UseRearrange: Final = A.UseRearrange
_UseDoubleTrade: Final = A.UseDoubleTrade
_UseChangeTaste: Final = A.UseChangeTaste
_UseIgnoreMarket: Final = A.UseIgnoreMarket
DECLINE: Final = A.DECLINE
CHOOSE_SHOP_LEVEL: Final = A.CHOOSE_SHOP_LEVEL


def public(event_name: str, /, **data: Any) -> RawEvent:
    """An event everyone sees, as the raw tuple ``apply`` turns into an ``Event`` when read
    (``parlor.core.events.raw_public``, compiled with the rules: no Python call per event).
    The parameters' names are no event field's: compiled code binds a keyword to a
    positional-only parameter of the same name instead of to ``data``."""
    return (event_name, data, None)


# The events of a round, as EventKinds (``parlor.core.events``): the rules give the fields as a
# tuple of values in this order, and the dict is made only when somebody reads the event.
ROUND_STARTED: Final = EventKind("round_started", "round", "rounds", "start_player")
SWEETNESS_SET: Final = EventKind("sweetness_set", "seat")
SWEETNESS_CHOSEN: Final = EventKind("sweetness_chosen", "seat", "values")  # private
EXCHANGE_PHASE_STARTED: Final = EventKind("exchange_phase_started", "start_player")
TURN_SKIPPED: Final = EventKind("turn_skipped", "seat")
TURN_ENDED: Final = EventKind("turn_ended", "seat")
EXCHANGED_WITH_PLAYER: Final = EventKind("exchanged_with_player", "seat", "target", "took", "gave")
EXCHANGED_WITH_MARKET: Final = EventKind("exchanged_with_market", "seat", "gave", "took", "into_bowl")
# "shop_used": the seat and the tile, then what the tile did (by ability)
USED_KIND: Final = EventKind("shop_used", "seat", "tile", "kind")  # stash, take back
USED_TRADE: Final = EventKind("shop_used", "seat", "tile", "target", "took", "gave")  # twin trade
USED_MARKET: Final = EventKind("shop_used", "seat", "tile", "gave", "took")  # market to bowl
USED_SWAP: Final = EventKind("shop_used", "seat", "tile", "target", "gave", "took")  # bowl swap, double trade
USED_SEND: Final = EventKind("shop_used", "seat", "tile", "target", "kind")  # send back
USED_REARRANGE: Final = EventKind("shop_used", "seat", "tile", "from_bowl", "from_tray")
USED_TASTE: Final = EventKind("shop_used", "seat", "tile", "kinds")  # change taste, public (A11)
USED_SECRETLY: Final = EventKind("shop_used", "seat", "tile")  # change taste, private (A11)
USED_IGNORE: Final = EventKind("shop_used", "seat", "tile", "scope")  # ignore market
SWEETNESS_SWAPPED: Final = EventKind("sweetness_swapped", "seat", "kinds", "values")  # private
EXCHANGE_PHASE_ENDED: Final = EventKind("exchange_phase_ended", "reason", "turns")
SHOP_KEPT: Final = EventKind("shop_kept", "seat")
SWEETNESS_REVEALED: Final = EventKind("sweetness_revealed", "values")
ROUND_SCORED: Final = EventKind("round_scored", "round", "round_scores", "totals")
SHOP_RETURNED: Final = EventKind("shop_returned", "seat", "tile")
SHOP_RETURNED_HIDDEN: Final = EventKind("shop_returned", "seat", "level")  # A14
START_PLAYER: Final = EventKind("start_player", "seat", "round")
SHOP_PHASE_STARTED: Final = EventKind("shop_phase_started", "pick_order")
SHOP_NONE_LEFT: Final = EventKind("shop_none_left", "seat", "max_level")
SHOP_CHOSEN: Final = EventKind("shop_chosen", "seat", "tile", "level")
SHOP_CHOSEN_HIDDEN: Final = EventKind("shop_chosen", "seat", "level")  # A14
SHOP_DRAWN: Final = EventKind("shop_drawn", "seat", "tile", "level")  # private
SHOP_DECLINED: Final = EventKind("shop_declined", "seat")

# The exchanges' raw events, made once per (seat, target, kind taken, kind given) and per
# (seat, kind given, kind taken, into the bowl?): immutable, so every exchange shares one.
_SEATS: Final = 5  # actions.MAX_SEATS
# (Typed ``Any``: a RawEvent read from a typed list is unboxed and boxed again in compiled code.)
_EXCHANGE_A_EVENTS: Final[list[Any]] = [
    (EXCHANGED_WITH_PLAYER, (seat, target, KINDS[take], KINDS[give]), None)
    for seat in range(_SEATS)
    for target in range(_SEATS)
    for take in range(N)
    for give in range(N)
]
_EXCHANGE_B_EVENTS: Final[list[Any]] = [
    (EXCHANGED_WITH_MARKET, (seat, KINDS[give], KINDS[take], into_bowl), None)
    for seat in range(_SEATS)
    for give in range(N)
    for take in range(N)
    for into_bowl in (False, True)
]
_TURN_ENDED: Final[list[Any]] = [(TURN_ENDED, (seat,), None) for seat in range(_SEATS)]
_SWEETNESS_SET: Final[list[Any]] = [(SWEETNESS_SET, (seat,), None) for seat in range(_SEATS)]
# ``(seat,)`` for ``to_move``, made once.
_ONLY: Final[list[tuple[int, ...]]] = [(seat,) for seat in range(_SEATS)]
_ALL_SEATS: Final[list[tuple[int, ...]]] = [tuple(range(n)) for n in range(_SEATS + 1)]


def public_with(event_name: str, data: dict[str, Any], /) -> RawEvent:
    """``public`` with fields already in a dict (``**`` is a generic Python call in compiled code)."""
    return (event_name, data, None)


NO_TILE = _NO_TILE
KIND_OF: Final[dict[str, int]] = {k: i for i, k in enumerate(KINDS)}


class Rulings:
    """The options the per-move code reads, decoded once into plain fields.

    Reading an ``Options`` field is an attribute lookup on a Python object (and often a string
    comparison); these are C fields in the compiled build. Immutable, one per ``Options``
    value, shared by every state (and clone) of a game. The comment names the ambiguity.
    """

    def __init__(self, options: Any = None) -> None:
        if options is None:  # unpickling makes an empty one first, then sets the fields
            options = Options()
        limit = options.phase2_turn_limit
        self.turn_limit: int = -1 if limit is None else int(limit)  # A7 (-1: no limit)
        self.end_at_once: bool = options.phase_end_timing == "immediate"  # A6
        self.end_at_turn_end: bool = options.phase_end_timing == "end_of_turn"  # A6
        self.end_on_stalemate: bool = bool(options.end_phase_on_stalemate)  # A4
        self.exchange_required: bool = bool(options.exchange_required)
        self.tiles_visible: bool = bool(options.shop_tiles_visible)  # A14
        self.use_at_first_chance: bool = options.shop_tile_use == "mandatory_first_turn"  # A13
        self.twin_same_kind: bool = options.l1_twin_trade_kind_rule == "same"  # A8
        self.market_to_bowl_modifies: bool = options.l2_market_to_bowl_mode == "modify"  # A9
        self.double_trade_short: bool = bool(options.l4_double_trade_short)  # A10
        self.change_taste_on_turn: bool = options.l5_change_taste_timing == "own_turn"  # A11
        self.ignore_market_on_turn: bool = options.l5_ignore_market_timing == "own_turn"  # A12
        self.ignore_market_at_scoring: bool = options.l5_ignore_market_timing == "scoring"  # A12
        self.ignore_market_for_all: bool = options.l5_ignore_market_scope == "all"  # A12
        self.change_taste_at_phase_end: bool = options.l5_change_taste_timing == "phase_end"  # A11
        self.change_taste_public: bool = bool(options.l5_change_taste_public)
        self.flat_bonus: bool = options.market_bonus == "flat"  # A1
        self.tile_use_optional: bool = options.shop_tile_use == "optional"  # A13
        self.pick_required: bool = bool(options.shop_pick_required)  # A15
        self.redeal_each_round: bool = bool(options.redeal_each_round)  # A19
        self.ascension: bool = bool(options.ascension)  # §7.1


_RULINGS: dict[Any, Rulings] = {}


def rulings_for(options: Any) -> Rulings:
    """The shared ``Rulings`` of an ``Options`` value (frozen, so equal values share one)."""
    found = _RULINGS.get(options)
    if found is None:
        if len(_RULINGS) >= 256:  # a study sweeping many option sets: keep the table small
            _RULINGS.clear()
        found = _RULINGS[options] = Rulings(options)
    return found


def counts_json(counts: list[int]) -> dict[str, int]:
    """``[0, 2, 0, 1, 0]`` -> ``{"longevity_peach_bun": 2, "zhuangyuan_cake": 1}``."""
    out: dict[str, int] = {}
    for k in range(N):
        n = counts[k]
        if n:
            out[_KINDS[k]] = n
    return out


def values_json(values: tuple[int, ...]) -> dict[str, int]:
    """A sweetness assignment as ``{kind: value}`` (a fresh dict: an event's reader may keep it)."""
    key = _values_key(values)
    if key >= 0:
        found = _VALUES_JSON[key]
        if found is not None:
            return found.copy()
    return dict(zip(KINDS, values))


def _values_key(values: tuple[int, ...]) -> i64:
    """Five card values 1-5 as one number below 5**5 (base 5); -1 for anything else."""
    size: i64 = len(values)  # (not ``len(values) != N``: mypyc would then unbox the tuple at each index)
    if size != N:
        return -1
    key: i64 = 0
    k: i64 = 0
    for k in range(N):
        v: i64 = values[k]
        if v < 1 or v > N:
            return -1
        key = key * N + v - 1
    return key


# Every assignment's JSON form by ``_values_key``, made once: copying a small dict is cheaper
# than zipping, and the table is read by index (a tuple of five as a dict key costs its hash).
_VALUES_JSON: Final[list[dict[str, int] | None]] = [None] * N**N
for _values in A.PERMUTATIONS:
    _VALUES_JSON[_values_key(_values)] = dict(zip(KINDS, _values))


class SweetNoseState(State):
    __slots__ = (
        "round",
        "step",
        "start_player",
        "active",
        "trays",
        "bowls",
        "market",
        "supply",
        "sweetness",
        "revealed",
        "scores",
        "round_scores",
        "held",
        "ignoring",
        "exchanged",
        "phase_turns",
        "quiet_turns",
        "idle_turns",
        "picks",
        "in_auction",
        "swaps",
        "past",
        "spent",
        "rulings",
    )

    round: int  # 1.. (0 during the Shopkeeper auction)
    step: int
    start_player: int  # holder of the Thunder God marker
    active: int  # whose turn it is in phase 2 and in the auction
    trays: list[int]  # seat -> packed tray (``pack``: 4 bits per kind)
    bowls: list[int]  # flat, as trays
    market: list[int]  # per kind
    supply: tuple[int, ...]  # per kind: sweets out of play (beside the board)
    sweetness: tuple[tuple[int, ...], ...]  # seat -> card value per kind; () until set this round
    revealed: bool  # have this round's cards been turned face up?
    scores: list[int]  # seat -> total on the score track
    round_scores: tuple[int, ...]  # seat -> the last scored round's score (() before any)
    held: tuple[int, ...]  # seat -> shop tile held (NO_TILE: none)
    ignoring: tuple[bool, ...]  # seat -> has activated l5_ignore_market this round
    exchanged: bool  # has the active player exchanged this turn?
    phase_turns: int  # turns begun in this phase 2
    quiet_turns: int  # consecutive turns that ended without an exchange (A4)
    idle_turns: int  # consecutive turns in which the player could do nothing at all
    picks: tuple[tuple[int, int], ...]  # phase 4 / auction: (seat, highest level) still to pick, in order
    in_auction: tuple[bool, ...]  # Shopkeeper: seat -> has not passed yet
    swaps: tuple[tuple[int, int, int], ...]  # this round's public card swaps (seat, kind, kind)
    past: tuple[tuple[int, tuple[tuple[int, ...], ...], tuple[int, ...]], ...]  # (round, cards, scores)
    spent: tuple[int, ...]  # tiles used (flipped face up, so public) since the last shop phase
    rulings: Rulings  # the options, decoded (shared, immutable)

    # ------------------------------------------------------------------ cloning
    def clone(self) -> "SweetNoseState":
        c = SweetNoseState.__new__(SweetNoseState)
        self._copy_base_into(c)
        c.round = self.round
        c.step = self.step
        c.start_player = self.start_player
        c.active = self.active
        c.trays = self.trays[:]
        c.bowls = self.bowls[:]
        c.market = self.market[:]
        c.supply = self.supply
        c.sweetness = self.sweetness
        c.revealed = self.revealed
        c.scores = self.scores[:]
        c.round_scores = self.round_scores
        c.held = self.held
        c.ignoring = self.ignoring
        c.exchanged = self.exchanged
        c.phase_turns = self.phase_turns
        c.quiet_turns = self.quiet_turns
        c.idle_turns = self.idle_turns
        c.picks = self.picks
        c.in_auction = self.in_auction
        c.swaps = self.swaps
        c.past = self.past
        c.spent = self.spent
        c.rulings = self.rulings
        return c

    # ------------------------------------------------------------------ small helpers
    def tray(self, seat: int) -> list[int]:
        return unpack(self.trays[seat])

    def bowl(self, seat: int) -> list[int]:
        base = seat * N
        return self.bowls[base : base + N]

    def tray_size(self, seat: int) -> int:
        t: i64 = self.trays[seat]
        return (t & 15) + (t >> 4 & 15) + (t >> 8 & 15) + (t >> 12 & 15) + (t >> 16 & 15)

    def held_sweets(self, seat: int) -> list[int]:
        base = seat * N
        t, b = unpack(self.trays[seat]), self.bowls
        return [t[k] + b[base + k] for k in range(N)]

    def tray_mask(self, seat: int) -> int:
        """The kinds in ``seat``'s tray as a bitmask (bit k set: it holds a sweet of kind k)."""
        return _kinds(self.trays[seat])

    def bowl_mask(self, seat: int) -> int:
        """The kinds in ``seat``'s bowl, as a bitmask."""
        t = self.bowls
        b: i64 = seat * N
        return (
            (1 if t[b] else 0)
            | (2 if t[b + 1] else 0)
            | (4 if t[b + 2] else 0)
            | (8 if t[b + 3] else 0)
            | (16 if t[b + 4] else 0)
        )

    def market_mask(self) -> int:
        """The kinds in the market, as a bitmask."""
        m = self.market
        return (1 if m[0] else 0) | (2 if m[1] else 0) | (4 if m[2] else 0) | (8 if m[3] else 0) | (16 if m[4] else 0)

    def some_tray_empty(self) -> bool:
        return any(tray == 0 for tray in self.trays)

    def turn_order(self, start: int | None = None) -> list[int]:
        first = self.start_player if start is None else start
        return [(first + i) % self.players for i in range(self.players)]

    def others(self, seat: int) -> Iterator[int]:
        for i in range(1, self.players):
            yield (seat + i) % self.players

    def tiles_in_shop(self) -> list[int]:
        taken = self.taken_tiles()
        return [t for t in range(_TILE_COUNT) if not taken >> t & 1]

    def taken_tiles(self) -> int:
        """The tiles in front of players, as a bitmask of tile indices."""
        taken = 0
        for t in self.held:
            if t != _NO_TILE:
                taken |= 1 << t
        return taken

    def holder_of(self, tile: int) -> int:
        return self.held.index(tile) if tile in self.held else -1

    def hides_tile(self, seat: int) -> bool:
        """Does ``seat`` hold a tile the others see only by its level (A14)?

        Then nothing the engine does on that seat's behalf may depend on which tile it
        is: the seat is always asked (never skipped, its turn never ends by itself), and
        every holder of a tile of that level is asked at a deferred tile's moment.
        """
        return not self.rulings.tiles_visible and self.held[seat] != _NO_TILE

    def _set_held(self, seat: int, tile: int) -> None:
        held = list(self.held)
        held[seat] = tile
        self.held = tuple(held)

    # ================================================================== Shopkeeper (§7.2)
    def start_auction(self, events: list[RawEvent]) -> None:
        self.step = AUCTION
        self.round = 0
        self.in_auction = (True,) * self.players
        self.active = self.start_player
        self.to_move = (self.active,)
        events.append(public("auction_started", start_player=self.start_player))

    def bid_spaces(self, seat: int) -> list[int]:
        """The score spaces ``seat`` may move its marker to now (A21)."""
        options = self.options
        taken = {self.scores[q] for q in range(self.players) if q != seat}
        low = self.scores[seat] + 1
        if options.shopkeeper_bid_rule == "must_raise":
            low = max(low, max(self.scores) + 1)
        return [s for s in range(low, options.shopkeeper_max_bid + 1) if s not in taken]

    def bid(self, seat: int, space: int) -> list[RawEvent]:
        self.scores[seat] = space
        events = [public("bid", seat=seat, space=space)]
        self.next_bidder(events)
        return events

    def pass_bid(self, seat: int) -> list[RawEvent]:
        in_auction = list(self.in_auction)
        in_auction[seat] = False
        self.in_auction = tuple(in_auction)
        events = [public("passed", seat=seat, space=self.scores[seat])]
        self.next_bidder(events)
        return events

    def next_bidder(self, events: list[RawEvent]) -> None:
        for seat in self.others(self.active):
            if self.in_auction[seat]:
                self.active = seat
                self.to_move = (seat,)
                return
        if self.in_auction[self.active]:
            self.to_move = (self.active,)
            return
        self.end_auction(events)

    def end_auction(self, events: list[RawEvent]) -> None:
        """Markers off the start space take tiles in rank order: levels 1-5, 1-4, ..."""
        bidders = sorted((s for s in range(self.players) if self.scores[s] > 0), key=lambda s: -self.scores[s])
        self.picks = tuple((s, SHOPKEEPER_LEVELS[rank]) for rank, s in enumerate(bidders))
        events.append(public("auction_ended", scores=list(self.scores), pick_order=[s for s, _ in self.picks]))
        self.step = SHOP
        self.next_pick(events)

    # ================================================================== a round (§4)
    def start_round(self, events: list[RawEvent]) -> None:
        self.round += 1
        if self.round > 1 and self.rulings.redeal_each_round:  # A19
            deal_sweets(self)
            events.append(
                public(
                    "sweets_redealt",
                    trays=[counts_json(self.tray(p)) for p in range(self.players)],
                    market=counts_json(self.market),
                )
            )
        self.sweetness = ((),) * self.players
        self.revealed = False
        self.ignoring = (False,) * self.players
        self.swaps = ()
        self.exchanged = False
        self.step = ASSIGN
        self.to_move = _ALL_SEATS[self.players]
        rounds = None if self.rulings.ascension else _ROUNDS
        events.append((ROUND_STARTED, (self.round, rounds, self.start_player), None))

    # ---- phase 1: set sweetness (§4.1), simultaneous and secret
    def set_sweetness(self, seat: int, values: tuple[int, ...]) -> list[RawEvent]:
        cards = list(self.sweetness)
        cards[seat] = values
        self.sweetness = tuple(cards)
        self.to_move = tuple([s for s in self.to_move if s != seat])
        events: list[RawEvent] = [_SWEETNESS_SET[seat], (SWEETNESS_CHOSEN, (seat, values_json(values)), seat)]
        if not self.to_move:
            self.start_exchange_phase(events)
        return events

    # ---- phase 2: exchange sweets and use shops (§4.2)
    def start_exchange_phase(self, events: list[RawEvent]) -> None:
        self.step = EXCHANGE
        self.phase_turns = 0
        self.quiet_turns = 0
        self.idle_turns = 0
        self.active = self.start_player
        events.append((EXCHANGE_PHASE_STARTED, (self.start_player,), None))
        self.start_turn(events)

    def start_turn(self, events: list[RawEvent]) -> None:
        """Begin the active player's turn; a turn with nothing to do passes by itself."""
        limit = self.rulings.turn_limit
        while True:
            if limit >= 0 and self.phase_turns >= limit:  # A7
                self.end_exchange_phase("turn_limit", events)
                return
            self.phase_turns += 1
            self.exchanged = False
            seat = self.active
            self.to_move = _ONLY[seat]
            if self.can_exchange(seat) or (self.tile_usable(seat) and not self.hides_tile(seat)):
                self.idle_turns = 0
                return
            if self.hides_tile(seat):
                # Skipping would show that the face-down tile has no use now: ask the seat
                # (it may answer "end turn"); ``end_turn`` counts the turn as idle if so.
                return
            # Nothing at all to do: the turn is skipped (A4).
            events.append((TURN_SKIPPED, (seat,), None))
            self.idle_turns += 1
            if self.close_turn(events):
                return
            if self.idle_turns >= self.players:  # a full lap in which nobody could do anything
                self.end_exchange_phase("deadlock", events)
                return

    def close_turn(self, events: list[RawEvent]) -> bool:
        """End the active turn; True if phase 2 ended, else the next player is active."""
        self.quiet_turns = 0 if self.exchanged else self.quiet_turns + 1
        if self.rulings.end_at_turn_end and self.some_tray_empty():  # A6
            self.end_exchange_phase("tray_empty", events)
            return True
        if self.rulings.end_on_stalemate and self.quiet_turns >= self.players:  # A4
            self.end_exchange_phase("stalemate", events)
            return True
        self.active = (self.active + 1) % self.players
        return False

    def end_turn(self, seat: int) -> list[RawEvent]:
        events: list[RawEvent] = [_TURN_ENDED[seat]]
        # A face-down tile holder who could not exchange and used nothing is, for the
        # deadlock guard, idle: judged from what everyone saw, not from the hidden tile.
        idle = self.hides_tile(seat) and not self.exchanged and not self.can_exchange(seat)
        if idle:
            self.idle_turns += 1
        if self.close_turn(events):
            return events
        if idle and self.idle_turns >= self.players:
            self.end_exchange_phase("deadlock", events)
            return events
        self.start_turn(events)
        return events

    def after_action(self, events: list[RawEvent]) -> None:
        """§4.2 turn procedure, step 2: the phase may end, the turn may end by itself."""
        if self.rulings.end_at_once and self.some_tray_empty():  # A6
            self.end_exchange_phase("tray_empty", events)
            return
        seat = self.active
        # A face-down tile keeps the turn open (the seat ends it), whether or not it has a use.
        turn_done = (self.exchanged or not self.can_exchange(seat)) and not (
            self.tile_usable(seat) or self.hides_tile(seat)
        )
        if turn_done and not self.close_turn(events):
            self.start_turn(events)

    # ---- the exchange (A and B)
    def can_exchange(self, seat: int) -> bool:
        """Is some exchange A or B legal? (Without listing them: this runs after every action.)"""
        trays = self.trays
        mine: i64 = _kinds(trays[seat])
        if not mine:
            return False
        if mine & (mine - 1):  # two kinds or more: any sweet anywhere differs from one of mine
            return True
        elsewhere: i64 = self.market_mask()  # one kind only: is there another kind to take?
        for target in range(self.players):
            if target != seat:
                elsewhere |= _kinds(trays[target])
        return (elsewhere & ~mine) != 0

    def exchanges(self, seat: int) -> list[Action]:
        """Every legal exchange A (by target, kind taken, kind given) and B (given, taken)."""
        trays = self.trays
        mine: i64 = _kinds(trays[seat])
        if not mine:
            return []
        n: i64 = self.players
        # A, with each other player in turn order (3-5 players: two others at least). The first
        # two parts are joined by ``+`` (one list of their size) and the rest appended: each
        # ``extend`` reallocates the list, and starting from ``[]`` costs one more.
        first: i64 = seat + 1 if seat + 1 < n else seat + 1 - n
        second: i64 = seat + 2 if seat + 2 < n else seat + 2 - n
        out = (
            _EXCHANGE_A_FLAT[(first << 10) | (_kinds(trays[first]) << 5) | mine]
            + _EXCHANGE_A_FLAT[(second << 10) | (_kinds(trays[second]) << 5) | mine]
        )
        i: i64 = 0  # (loop variables declared i64 stay unboxed in the compiled build)
        target: i64 = 0
        for i in range(3, n):
            target = seat + i
            if target >= n:
                target -= n
            out.extend(_EXCHANGE_A_FLAT[(target << 10) | (_kinds(trays[target]) << 5) | mine])
        out.extend(_EXCHANGE_B_FLAT[(mine << 5) | self.market_mask()])  # B
        return out

    def exchange_with_player(self, seat: int, target: int, take: int, give: int) -> list[RawEvent]:
        """A: their tray -> my bowl, my tray -> their bowl; the kinds differ."""
        trays, bowls = self.trays, self.bowls
        trays[target] = trays[target] - _ONE[take]
        bowls[seat * N + take] = bowls[seat * N + take] + 1
        trays[seat] = trays[seat] - _ONE[give]
        bowls[target * N + give] = bowls[target * N + give] + 1
        self.exchanged = True
        events: list[RawEvent] = [_EXCHANGE_A_EVENTS[((seat * _SEATS + target) * N + take) * N + give]]
        self.after_action(events)
        return events

    def exchange_with_market(self, seat: int, give: int, take: int, into_bowl: bool = False) -> list[RawEvent]:
        """B: my tray -> market, market -> my tray (or bowl, with l2_market_to_bowl)."""
        self.trays[seat] = self.trays[seat] - _ONE[give]
        self.market[give] = self.market[give] + 1
        self.market[take] = self.market[take] - 1
        if into_bowl:
            self.bowls[seat * N + take] = self.bowls[seat * N + take] + 1
        else:
            self.trays[seat] = self.trays[seat] + _ONE[take]
        return [_EXCHANGE_B_EVENTS[((seat * N + give) * N + take) * 2 + (1 if into_bowl else 0)]]

    def exchange_b(self, seat: int, give: int, take: int) -> list[RawEvent]:
        events = self.exchange_with_market(seat, give, take)
        self.exchanged = True
        self.after_action(events)
        return events

    # ---- the shop action (§5): when a held tile may be used, and how
    def tile_usable(self, seat: int) -> bool:
        """Has ``tile_uses(seat)`` any action? Answered from the kinds each tray and bowl holds,
        without listing them (it runs after every action; test_move_generator checks it)."""
        tile = self.held[seat]
        if tile == _NO_TILE:
            return False
        rulings = self.rulings
        if tile == STASH:  # a sweet in my tray
            return self.tray_mask(seat) != 0
        if tile == TAKE_BACK:  # a sweet in my bowl
            return self.bowl_mask(seat) != 0
        if tile == CHANGE_TASTE:
            return rulings.change_taste_on_turn  # A11
        if tile == IGNORE_MARKET:
            return rulings.ignore_market_on_turn  # A12
        if tile == MARKET_TO_BOWL:
            if self.exchanged and rulings.market_to_bowl_modifies:  # A9
                return False
            return _differ(self.tray_mask(seat), self.market_mask())
        if tile == REARRANGE:  # a bowl sweet for a tray sweet of another kind
            return _differ(self.bowl_mask(seat), self.tray_mask(seat))
        if tile == DOUBLE_TRADE:
            return self.double_trade_possible(seat)
        n = self.players
        if tile == TWIN_TRADE:  # any kinds, or one kind both trays hold (A8)
            mine = self.tray_mask(seat)
            for i in range(1, n):
                theirs = self.tray_mask((seat + i) % n)
                if (mine & theirs if rulings.twin_same_kind else mine and theirs) != 0:
                    return True
            return False
        if tile == BOWL_SWAP:  # my bowl's sweet for another kind in another bowl
            mine = self.bowl_mask(seat)
            return any(_differ(mine, self.bowl_mask((seat + i) % n)) for i in range(1, n))
        if tile == SEND_BACK:  # a sweet in another bowl
            return any(self.bowl_mask((seat + i) % n) for i in range(1, n))
        return len(self.tile_uses(seat)) > 0

    def tile_uses(self, seat: int) -> list[Action]:
        """Every legal use of ``seat``'s held tile on its own turn in phase 2 (a new list).

        Most come from tables by the kinds in play (``_USES``), as the exchanges do; the
        tables are built from the plain loops in ``_uses_tables``."""
        tile = self.held[seat]
        if tile == _NO_TILE:
            return []
        rulings = self.rulings
        n = self.players
        mine: i64 = self.tray_mask(seat)
        if tile == STASH:
            return _STASH_USES[mine][:]
        if tile == TAKE_BACK:
            return _TAKE_BACK_USES[self.bowl_mask(seat)][:]
        if tile == REARRANGE:
            return _REARRANGE_USES[(self.bowl_mask(seat) << 5) | mine][:]
        if tile == MARKET_TO_BOWL:
            if self.exchanged and rulings.market_to_bowl_modifies:  # A9
                return []
            return _MARKET_TO_BOWL_USES[(mine << 5) | self.market_mask()][:]
        out: list[Action] = []
        if tile == TWIN_TRADE:
            same = 1024 if rulings.twin_same_kind else 0  # A8
            for i in range(1, n):
                target = (seat + i) % n
                out.extend(_TWIN_TRADE_USES[(target << 11) | same | (self.tray_mask(target) << 5) | mine])
        elif tile == SEND_BACK:
            for i in range(1, n):
                target = (seat + i) % n
                out.extend(_SEND_BACK_USES[(target << 5) | self.bowl_mask(target)])
        elif tile == BOWL_SWAP:
            bowls, base = self.bowls, seat * N
            for give in range(N):
                if bowls[base + give]:
                    for i in range(1, n):
                        target = (seat + i) % n
                        tbase = target * N
                        for take in range(N):
                            if bowls[tbase + take] and take != give:
                                out.append(USE_BOWL_SWAP[target][give][take])
        elif tile == DOUBLE_TRADE:
            out = self.double_trades(seat)
        elif tile == CHANGE_TASTE:
            if rulings.change_taste_on_turn:  # A11
                out.extend(USE_CHANGE_TASTE)
        elif tile == IGNORE_MARKET and rulings.ignore_market_on_turn:  # A12
            out.append(USE_IGNORE_MARKET)
        return out

    def double_trades(self, seat: int) -> list[Action]:
        """Two of my tray's sweets for two of another tray's (A10: one for one, trays of one).

        By group index (``A.GROUPS``: the 15 pairs, then the 5 singles): each tray's groups
        are a bitmask (``double_trade_groups``), the trades a table by target and groups.
        """
        out: list[Action] = []
        n = self.players
        g: i64 = 0  # (loop variables declared i64 stay unboxed in the compiled build)
        t: i64 = 0
        for i in range(1, n):
            target = (seat + i) % n
            first, count, gives, takes = self.double_trade_groups(seat, target)
            trades = _DOUBLE_TRADE[target]
            for g in range(count):
                if gives >> g & 1:
                    row = trades[first + g]
                    for t in range(count):
                        if takes >> t & 1 and t != g:
                            out.append(row[first + t])
        return out

    def double_trade_possible(self, seat: int) -> bool:
        """Is ``double_trades(seat)`` non-empty? (A group to give and a different one to take.)"""
        n = self.players
        for i in range(1, n):
            _, _, gives, takes = self.double_trade_groups(seat, (seat + i) % n)
            if _differ(gives, takes):
                return True
        return False

    def double_trade_groups(self, seat: int, target: int) -> tuple[i64, i64, i64, i64]:
        """(first group index, group count, groups I can give, groups they can give) for a double
        trade with ``target``: pairs if both trays hold two, singles with A10 and a tray of one."""
        size = min(self.tray_size(seat), self.tray_size(target))
        if size >= 2:
            return 0, _PAIR_COUNT, _PAIRS_HELD[self.pair_signature(seat)], _PAIRS_HELD[self.pair_signature(target)]
        if size == 1 and self.rulings.double_trade_short:  # A10
            return _PAIR_COUNT, N, self.tray_mask(seat), self.tray_mask(target)
        return 0, 0, 0, 0

    def pair_signature(self, seat: int) -> int:
        """``seat``'s tray as ``sum(min(count, 2) * 3**kind)``: all that says which pairs it holds."""
        t: i64 = self.trays[seat]
        return (
            min(t & 15, 2)
            + 3 * min(t >> 4 & 15, 2)
            + 9 * min(t >> 8 & 15, 2)
            + 27 * min(t >> 12 & 15, 2)
            + 81 * min(t >> 16 & 15, 2)
        )

    def use_tile(self, seat: int, tile: int, used: EventKind, detail: tuple[Any, ...], events: list[RawEvent]) -> None:
        """Flip the tile, then return it level side up to its shop space (§4.2).

        The event ``used`` ("shop_used") says the seat, the tile, then ``detail``."""
        self._set_held(seat, NO_TILE)
        self.spent = (*self.spent, tile)
        self.idle_turns = 0
        events.insert(0, (used, (seat, _TILE_ID[tile], *detail), None))

    # The ten abilities (§5), one function each.
    def stash(self, seat: int, kind: int) -> list[RawEvent]:
        """l1_stash: tray -> own bowl."""
        self.trays[seat] = self.trays[seat] - _ONE[kind]
        self.bowls[seat * N + kind] = self.bowls[seat * N + kind] + 1
        events: list[RawEvent] = []
        self.use_tile(seat, STASH, USED_KIND, (_KINDS[kind],), events)
        return events

    def twin_trade(self, seat: int, target: int, take: int, give: int) -> list[RawEvent]:
        """l1_twin_trade: an extra trade routed like A, same kind by default (A8)."""
        rule = "same" if self.rulings.twin_same_kind else "any"
        move_between(self, target, take, seat, give, kind_rule=rule)
        events: list[RawEvent] = []
        self.use_tile(seat, TWIN_TRADE, USED_TRADE, (target, _KINDS[take], _KINDS[give]), events)
        return events

    def take_back(self, seat: int, kind: int) -> list[RawEvent]:
        """l2_take_back: own bowl -> own tray."""
        self.bowls[seat * N + kind] = self.bowls[seat * N + kind] - 1
        self.trays[seat] = self.trays[seat] + _ONE[kind]
        events: list[RawEvent] = []
        self.use_tile(seat, TAKE_BACK, USED_KIND, (_KINDS[kind],), events)
        return events

    def market_to_bowl(self, seat: int, give: int, take: int) -> list[RawEvent]:
        """l2_market_to_bowl: exchange B into the bowl; the turn's exchange (A9 'modify')."""
        events = self.exchange_with_market(seat, give, take, into_bowl=True)
        if self.rulings.market_to_bowl_modifies:
            self.exchanged = True
        self.use_tile(seat, MARKET_TO_BOWL, USED_MARKET, (_KINDS[give], _KINDS[take]), events)
        return events

    def bowl_swap(self, seat: int, target: int, give: int, take: int) -> list[RawEvent]:
        """l3_bowl_swap: one of my bowl's sweets for one of another bowl's."""
        mine, theirs = seat * N, target * N
        self.bowls[mine + give] = self.bowls[mine + give] - 1
        self.bowls[theirs + give] = self.bowls[theirs + give] + 1
        self.bowls[theirs + take] = self.bowls[theirs + take] - 1
        self.bowls[mine + take] = self.bowls[mine + take] + 1
        events: list[RawEvent] = []
        self.use_tile(seat, BOWL_SWAP, USED_SWAP, (target, _KINDS[give], _KINDS[take]), events)
        return events

    def send_back(self, seat: int, target: int, kind: int) -> list[RawEvent]:
        """l3_send_back: another player's bowl -> that player's tray."""
        self.bowls[target * N + kind] = self.bowls[target * N + kind] - 1
        self.trays[target] = self.trays[target] + _ONE[kind]
        events: list[RawEvent] = []
        self.use_tile(seat, SEND_BACK, USED_SEND, (target, _KINDS[kind]), events)
        return events

    def rearrange(self, seat: int, from_bowl: int, from_tray: int) -> list[RawEvent]:
        """l4_rearrange: swap one bowl sweet with one tray sweet of my own."""
        base = seat * N
        self.bowls[base + from_bowl] = self.bowls[base + from_bowl] - 1
        self.trays[seat] = self.trays[seat] + _ONE[from_bowl] - _ONE[from_tray]
        self.bowls[base + from_tray] = self.bowls[base + from_tray] + 1
        events: list[RawEvent] = []
        self.use_tile(seat, REARRANGE, USED_REARRANGE, (_KINDS[from_bowl], _KINDS[from_tray]), events)
        return events

    def double_trade(self, seat: int, target: int, give: tuple[int, ...], take: tuple[int, ...]) -> list[RawEvent]:
        """l4_double_trade: two of my tray's sweets for two of theirs, all staying in trays."""
        trays = self.trays
        for k in give:
            trays[seat] = trays[seat] - _ONE[k]
            trays[target] = trays[target] + _ONE[k]
        for k in take:
            trays[target] = trays[target] - _ONE[k]
            trays[seat] = trays[seat] + _ONE[k]
        events: list[RawEvent] = []
        detail = (target, [_KINDS[k] for k in give], [_KINDS[k] for k in take])
        self.use_tile(seat, DOUBLE_TRADE, USED_SWAP, detail, events)
        return events

    def change_taste(self, seat: int, first: int, second: int) -> list[RawEvent]:
        """l5_change_taste: the two kinds' cards change places (A11: who sees which kinds)."""
        values = list(self.sweetness[seat])
        values[first], values[second] = values[second], values[first]
        cards = list(self.sweetness)
        cards[seat] = tuple(values)
        self.sweetness = tuple(cards)
        kinds = [_KINDS[first], _KINDS[second]]
        events: list[RawEvent] = []
        if self.rulings.change_taste_public:
            self.swaps = (*self.swaps, (seat, first, second))
            self.use_tile(seat, CHANGE_TASTE, USED_TASTE, (kinds,), events)
        else:
            self.use_tile(seat, CHANGE_TASTE, USED_SECRETLY, (), events)
        events.append((SWEETNESS_SWAPPED, (seat, kinds, values_json(tuple(values))), seat))
        return events

    def ignore_market(self, seat: int) -> list[RawEvent]:
        """l5_ignore_market: no market bonus at this round's scoring (A12: for whom)."""
        flags = list(self.ignoring)
        flags[seat] = True
        self.ignoring = tuple(flags)
        events: list[RawEvent] = []
        self.use_tile(seat, IGNORE_MARKET, USED_IGNORE, (self.options.l5_ignore_market_scope,), events)
        return events

    # ---- the end of phase 2, and the deferred tiles (A11, A12)
    def end_exchange_phase(self, reason: str, events: list[RawEvent]) -> None:
        events.append((EXCHANGE_PHASE_ENDED, (reason, self.phase_turns), None))
        self.exchanged = False
        if self.rulings.change_taste_at_phase_end and self.ask_deferred(TASTE, CHANGE_TASTE, -1):
            return
        self.score_sweetness(events)

    def deferred_askers(self, tile: int) -> list[int]:
        """Who is asked at a deferred tile's moment (A11, A12), in turn order.

        With open tiles, its holder. With face-down tiles (A14), every holder of a tile
        of its level: asking only the true holder would name the tile to everyone.
        """
        level = TILES[tile].level
        held = self.held
        if self.options.shop_tiles_visible:
            return [s for s in self.turn_order() if held[s] == tile]
        return [s for s in self.turn_order() if held[s] != NO_TILE and TILES[held[s]].level == level]

    def ask_deferred(self, step: int, tile: int, after: int) -> bool:
        """Ask the next of ``deferred_askers(tile)`` after seat ``after`` (-1: the first)."""
        askers = self.deferred_askers(tile)
        if after >= 0:
            order = self.turn_order()
            askers = [s for s in askers if order.index(s) > order.index(after)]
        if not askers:
            return False
        self.step = step
        self.active = askers[0]
        self.to_move = (askers[0],)
        return True

    def deferred_change_taste(self, seat: int, action: Action) -> list[RawEvent]:
        if type(action) is _Decline:
            events: list[RawEvent] = [(SHOP_KEPT, (seat,), None)]
        else:
            events = self.change_taste(seat, KIND_OF[action.first], KIND_OF[action.second])  # type: ignore[attr-defined]
        if not self.ask_deferred(TASTE, CHANGE_TASTE, seat):
            self.score_sweetness(events)
        return events

    # ---- phase 3: score sweetness (§4.3)
    def score_sweetness(self, events: list[RawEvent]) -> None:
        self.revealed = True
        events.append((SWEETNESS_REVEALED, ([values_json(v) for v in self.sweetness],), None))
        if self.rulings.ignore_market_at_scoring and self.ask_deferred(DECLARE, IGNORE_MARKET, -1):
            return
        self.move_score_markers(events)

    def declare_ignore_market(self, seat: int, action: Action) -> list[RawEvent]:
        if type(action) is _Decline:
            events: list[RawEvent] = [(SHOP_KEPT, (seat,), None)]
        else:
            events = self.ignore_market(seat)
        if not self.ask_deferred(DECLARE, IGNORE_MARKET, seat):
            self.move_score_markers(events)
        return events

    def market_bonus_off(self, seat: int) -> bool:
        """Does the market add nothing to ``seat``'s sweets this round? (Ignore the Market, A12.)"""
        return any(self.ignoring) if self.rulings.ignore_market_for_all else self.ignoring[seat]

    def kind_score(self, seat: int, k: int, no_bonus: bool, flat: bool) -> i64:
        """(card value + market bonus) x sweets of kind ``k`` held (tray and bowl)."""
        market = self.market
        bonus: i64 = 0 if no_bonus else (min(market[k], 1) if flat else market[k])  # flat: A1
        tray: i64 = self.trays[seat]
        held: i64 = (tray >> 4 * k & 15) + self.bowls[seat * N + k]
        value: i64 = self.sweetness[seat][k]
        return (value + bonus) * held

    def score_by_kind(self, seat: int) -> list[int]:
        """Per kind: (card value + market bonus) x sweets held (tray and bowl)."""
        no_bonus, flat = self.market_bonus_off(seat), self.rulings.flat_bonus
        return [self.kind_score(seat, k, no_bonus, flat) for k in range(N)]

    def round_score(self, seat: int) -> int:
        """The sum of ``score_by_kind(seat)``, added up as it goes (no list)."""
        no_bonus, flat = self.market_bonus_off(seat), self.rulings.flat_bonus
        total: i64 = 0
        for k in range(N):
            total += self.kind_score(seat, k, no_bonus, flat)
        return total

    def move_score_markers(self, events: list[RawEvent]) -> None:
        self.round_scores = tuple([self.round_score(p) for p in range(self.players)])
        for p, s in enumerate(self.round_scores):
            self.scores[p] = self.scores[p] + s
        self.past = (*self.past, (self.round, self.sweetness, self.round_scores))
        events.append((ROUND_SCORED, (self.round, list(self.round_scores), list(self.scores)), None))
        if self.game_ends():
            self.game_over(events)
            return
        self.choose_shop(events)

    def game_ends(self) -> bool:
        if self.rulings.ascension:  # §7.1
            return max(self.scores) >= self.options.ascension_target
        return self.round >= _ROUNDS

    # ---- phase 4: choose a shop (§4.4)
    def choose_shop(self, events: list[RawEvent]) -> None:
        # 1. Bowls back into trays; 2. unused tiles back to the shop.
        trays, bowls = self.trays, self.bowls
        for seat in range(self.players):
            b: i64 = seat * N
            bowl = bowls[b] + (bowls[b + 1] << 4) + (bowls[b + 2] << 8) + (bowls[b + 3] << 12) + (bowls[b + 4] << 16)
            trays[seat] = trays[seat] + bowl
        self.bowls = [0] * len(bowls)
        visible = self.rulings.tiles_visible
        for seat in range(self.players):
            tile = self.held[seat]
            if tile == NO_TILE:
                continue
            if visible:
                events.append((SHOP_RETURNED, (seat, _TILE_ID[tile]), None))
            else:  # A14: an unused tile goes back level side up, its ability never shown
                events.append((SHOP_RETURNED_HIDDEN, (seat, _TILE_LEVEL[tile]), None))
        self.held = (NO_TILE,) * self.players
        self.spent = ()
        # 3. The next start player: the highest round score (A17 for a tie).
        old_start = self.start_player
        new_start = self.next_start_player()
        # 4. The picking order (A16).
        options = self.options
        tie_from = new_start if options.shop_pick_tie_break == "next_round_order" else old_start
        scores = self.round_scores
        order = pick_order(scores, tie_from)
        if options.shop_pick_order == "start_player_first":
            order.remove(old_start)
            order.insert(0, old_start)
        self.start_player = new_start
        events.append((START_PLAYER, (new_start, self.round + 1), None))
        levels = [_max_level(score) for score in scores]
        self.picks = tuple([(s, levels[s]) for s in order if levels[s] > 0])
        events.append((SHOP_PHASE_STARTED, ([s for s, _ in self.picks],), None))
        self.step = SHOP
        self.next_pick(events)

    def next_start_player(self) -> int:
        scores = self.round_scores
        top = scores[0]
        for score in scores:
            if score > top:
                top = score
        tied = [s for s in self.turn_order() if scores[s] == top]
        if len(tied) > 1 and self.options.top_tie_start_player == "random":
            return self.rng.choice(tied)
        return tied[0]

    def pickable(self, seat: int) -> list[int]:
        """The tiles still in the shop the next picker may take (a shared list: not to be changed)."""
        limit = self.picks[0][1]
        taken = self.taken_tiles()
        key = taken << 3 | limit  # memoized by the tiles taken and the level allowed
        found = _PICKABLE[key]
        if found is None:
            found = _PICKABLE[key] = [t for t in range(_TILE_COUNT) if not taken >> t & 1 and _TILE_LEVEL[t] <= limit]
        return found

    def next_pick(self, events: list[RawEvent]) -> None:
        while self.picks:
            seat, limit = self.picks[0]
            if self.pickable(seat):
                self.active = seat
                self.to_move = (seat,)
                return
            events.append((SHOP_NONE_LEFT, (seat, limit), None))
            self.picks = self.picks[1:]
        self.start_round(events)

    def take_tile(self, seat: int, tile: int) -> list[RawEvent]:
        self._set_held(seat, tile)
        self.picks = self.picks[1:]
        events: list[RawEvent] = [(SHOP_CHOSEN, (seat, _TILE_ID[tile], _TILE_LEVEL[tile]), None)]
        self.next_pick(events)
        return events

    def take_tile_of_level(self, seat: int, level: int) -> list[RawEvent]:
        """Hidden tiles (A14): one of the level's remaining tiles at random, seen by the taker only."""
        tile = self.rng.choice([t for t in TILES_OF_LEVEL[level] if t not in self.held])
        self._set_held(seat, tile)
        self.picks = self.picks[1:]
        events: list[RawEvent] = [
            (SHOP_CHOSEN_HIDDEN, (seat, level), None),
            (SHOP_DRAWN, (seat, TILES[tile].id, level), seat),
        ]
        self.next_pick(events)
        return events

    def decline_tile(self, seat: int) -> list[RawEvent]:
        self.picks = self.picks[1:]
        events: list[RawEvent] = [(SHOP_DECLINED, (seat,), None)]
        self.next_pick(events)
        return events

    # ================================================================== the end (§6)
    def game_over(self, events: list[RawEvent]) -> None:
        self.step = OVER
        self.to_move = ()
        events.append(public_with("game_over", self.result().to_json()))

    def result(self) -> Result:
        """Lowest total sweetness wins; ties share the place (no further tie-break)."""
        # Result.rank(scores, no tie-breaks, higher_wins=False), spelled out: a place is one
        # more than the number of lower totals.
        scores = tuple(self.scores)
        places = tuple([1 + len([t for t in scores if t < s]) for s in scores])
        winners = tuple([p for p in range(len(places)) if places[p] == 1])
        return Result(scores, (0,) * self.players, places, winners)

    # ================================================================== the protocol
    def _legal_actions(self, seat: int) -> list[Action]:
        step = self.step
        if step == ASSIGN:
            return ASSIGN_ALL if not self.sweetness[seat] else []
        if step == EXCHANGE:
            # (Not memoized: every tray's and the market's kinds together are nearly unique
            # per decision, so a table by them would almost never be hit.)
            return self.exchange_step_legal(seat)
        if step == SHOP:
            # Memoized likewise: by the tiles taken, the level allowed and two options.
            rulings = self.rulings
            key = (
                (self.taken_tiles() << 3 | self.picks[0][1]) << 2
                | (2 if rulings.tiles_visible else 0)
                | (1 if rulings.pick_required else 0)
            )
            legal = _SHOP_LEGAL_CACHE.get(key)
            if legal is None:
                legal = _SHOP_LEGAL_CACHE[key] = self.shop_legal(seat)
            return legal
        if step == AUCTION:
            legal = [A.BIDS[s] for s in self.bid_spaces(seat)]
            legal.append(A.PASS)
            return legal
        if step in (TASTE, DECLARE):
            tile = self.held[seat]
            if step == TASTE and tile == CHANGE_TASTE:
                legal = USE_CHANGE_TASTE[:]
            elif step == DECLARE and tile == IGNORE_MARKET:
                legal = [USE_IGNORE_MARKET]
            else:  # a face-down level-5 tile that has no use now (A14): asked all the same
                return [DECLINE]
            if self.rulings.tile_use_optional:  # A13: a deferred tile may stay unused
                legal.append(DECLINE)
            return legal
        return []

    def exchange_step_legal(self, seat: int) -> list[Action]:
        """The legal actions of ``seat``'s turn in phase 2: exchanges, tile uses, ending the turn."""
        rulings = self.rulings
        legal: list[Action] = self.exchanges(seat) if not self.exchanged else []
        some_exchange = len(legal) > 0  # (then can_exchange holds: no need to ask it)
        has_uses = False
        if self.held[seat] != _NO_TILE:
            uses = self.tile_uses(seat)
            legal.extend(uses)
            has_uses = len(uses) > 0
        may_end = self.exchanged or not rulings.exchange_required or (not some_exchange and not self.can_exchange(seat))
        if has_uses and rulings.use_at_first_chance:  # A13
            may_end = False
        if may_end:
            legal.append(END_TURN)
        return legal

    def shop_legal(self, seat: int) -> list[Action]:
        """The legal actions of the next picker in phase 4 (or after the auction)."""
        limit = self.picks[0][1]
        legal: list[Action]
        if self.rulings.tiles_visible:  # A14
            legal = [CHOOSE_SHOP[t] for t in self.pickable(seat)]
        else:
            levels = sorted({TILES[t].level for t in self.tiles_in_shop() if TILES[t].level <= limit})
            legal = [CHOOSE_SHOP_LEVEL[lv] for lv in levels]
        if not self.rulings.pick_required:  # A15
            legal.append(DECLINE)
        return legal

    def _forced_move_is_public(self, seat: int) -> bool:
        # With face-down tiles (A14) how many options a holder has depends on which tile
        # of its level it holds, so its only option is asked, never played for it.
        return not (self.step in (EXCHANGE, TASTE, DECLARE) and self.hides_tile(seat))

    def _apply(self, seat: int, action: Action) -> list[RawEvent]:
        step = self.step
        if step == ASSIGN:
            return self.set_sweetness(seat, action.values)  # type: ignore[attr-defined]
        if step == EXCHANGE:
            kind = type(action)
            if kind is ExchangeWithPlayer or kind is ExchangeWithMarket:
                # The prebuilt exchanges' (target, kind, kind) by object: three attribute reads
                # and two name lookups cost more than the exchange itself.
                code = prebuilt_exchange_code(action)
                if code < 0:
                    code = exchange_code(action)
                if kind is ExchangeWithPlayer:
                    return self.exchange_with_player(seat, code // 25, code // 5 % 5, code % 5)
                return self.exchange_b(seat, code // 5 % 5, code % 5)
            if kind is EndTurn:
                return self.end_turn(seat)
            events = self.use_shop(seat, action)
            self.after_action(events)
            return events
        if step == SHOP:
            if type(action) is _ChooseShop:
                return self.take_tile(seat, TILE_INDEX[action.tile])
            if type(action) is _ChooseShopLevel:
                return self.take_tile_of_level(seat, action.level)
            return self.decline_tile(seat)
        if step == AUCTION:
            if type(action) is _Bid:
                return self.bid(seat, action.space)
            return self.pass_bid(seat)
        if step == TASTE:
            return self.deferred_change_taste(seat, action)
        if step == DECLARE:
            return self.declare_ignore_market(seat, action)
        raise AssertionError(f"no action is possible in step {STEP_NAMES[step]}")

    def use_shop(self, seat: int, a: Any) -> list[RawEvent]:
        """The shop action: resolve the held tile's ability (§5) with its own function."""
        kind = type(a)
        if kind is _UseStash:
            return self.stash(seat, KIND_OF[a.kind])
        if kind is _UseTwinTrade:
            return self.twin_trade(seat, a.target, KIND_OF[a.take], KIND_OF[a.give])
        if kind is _UseTakeBack:
            return self.take_back(seat, KIND_OF[a.kind])
        if kind is _UseMarketToBowl:
            return self.market_to_bowl(seat, KIND_OF[a.give], KIND_OF[a.take])
        if kind is _UseBowlSwap:
            return self.bowl_swap(seat, a.target, KIND_OF[a.give], KIND_OF[a.take])
        if kind is _UseSendBack:
            return self.send_back(seat, a.target, KIND_OF[a.kind])
        if kind is _UseRearrange:
            return self.rearrange(seat, KIND_OF[a.from_bowl], KIND_OF[a.from_tray])
        if kind is _UseDoubleTrade:
            return self.double_trade(
                seat, a.target, tuple(KIND_OF[k] for k in a.give), tuple(KIND_OF[k] for k in a.take)
            )
        if kind is _UseChangeTaste:
            return self.change_taste(seat, KIND_OF[a.first], KIND_OF[a.second])
        if kind is _UseIgnoreMarket:
            return self.ignore_market(seat)
        raise AssertionError(f"unexpected action {a}")

    # ------------------------------------------------------------------ hidden information
    def _view(self, seat: int | None, recall: bool) -> dict[str, Any]:
        from .views import view

        return view(self, seat, recall)

    def _determinize(self, seat: int, rng: AnyRng) -> "SweetNoseState":
        """A full state ``seat`` cannot tell apart from this one (§8).

        Hidden: every other player's unrevealed sweetness cards (any of the 120
        permutations; a public card swap does not narrow them) and, with hidden tiles
        (A14), which tile of its level another player holds.
        """
        d = self.clone()
        d.rng = rng.fork()  # future draws are unknown too
        d._legal = None
        d._history = None  # a sampled position has no real past (it would show the cards)
        if not self.revealed:
            cards = list(d.sweetness)
            for p in range(self.players):
                if p != seat and cards[p]:
                    cards[p] = A.PERMUTATIONS[rng.below(len(A.PERMUTATIONS))]
            d.sweetness = tuple(cards)
        if not self.options.shop_tiles_visible:
            # Another holder's tile is any of its level the seat does not hold itself and
            # has not seen flipped (used) since the tiles were picked.
            held = list(d.held)
            for tiles in TILES_OF_LEVEL.values():
                holders = [p for p in range(self.players) if p != seat and held[p] in tiles]
                if holders:
                    candidates = [t for t in tiles if t != held[seat] and t not in self.spent]
                    rng.shuffle(candidates)
                    for p, t in zip(holders, candidates):
                        held[p] = t
            d.held = tuple(held)
        return d

    # ------------------------------------------------------------------ persistence
    def _state_json(self) -> dict[str, Any]:
        n = self.players
        return {
            "round": self.round,
            "step": STEP_NAMES[self.step],
            "start_player": self.start_player,
            "active": self.active,
            "trays": [self.tray(p) for p in range(n)],
            "bowls": [self.bowl(p) for p in range(n)],
            "market": list(self.market),
            "supply": list(self.supply),
            "sweetness": [list(v) for v in self.sweetness],
            "revealed": self.revealed,
            "scores": list(self.scores),
            "round_scores": list(self.round_scores),
            "held": [TILES[t].id if t != NO_TILE else None for t in self.held],
            "ignoring": list(self.ignoring),
            "exchanged": self.exchanged,
            "phase_turns": self.phase_turns,
            "quiet_turns": self.quiet_turns,
            "idle_turns": self.idle_turns,
            "picks": [list(p) for p in self.picks],
            "in_auction": list(self.in_auction),
            "swaps": [list(s) for s in self.swaps],
            "past": [[r, [list(v) for v in cards], list(scores)] for r, cards, scores in self.past],
            "spent": [TILES[t].id for t in self.spent],
        }


def exchange_code(action: Any) -> int:
    """An exchange's kinds and target as one number: ``(target * 5 + take) * 5 + give`` for A,
    ``give * 5 + take`` for B (the order ``_apply`` passes them on)."""
    if type(action) is ExchangeWithPlayer:
        return (action.target * 5 + KIND_OF[action.take]) * 5 + KIND_OF[action.give]
    return KIND_OF[action.give] * 5 + KIND_OF[action.take]


# Every prebuilt exchange by object: the legal lists hand out these very objects, and the
# engine passes the listed object to ``_apply`` (others are decoded by ``exchange_code``).
def prebuilt_exchange_code(action: Any) -> int:
    """``exchange_code`` of a prebuilt exchange, looked up by object; -1 for any other object.

    An open-addressing table by ``id`` (the prebuilt actions live as long as the module): a
    dict by ``id(action)`` would box the id and hash it, several times the cost."""
    h: i64 = (id(action) >> 4) & _ID_MASK
    while True:
        found = _ID_OBJECTS[h]
        if found is action:
            return _ID_CODES[h]
        if found is None:
            return -1
        h = (h + 1) & _ID_MASK


_ID_MASK: Final = 1023  # 1024 slots for 120 exchanges: probes stay short
_ID_OBJECTS: Final[list[object]] = [None] * (_ID_MASK + 1)
_ID_CODES: Final[list[int]] = [-1] * (_ID_MASK + 1)
for _a in A.ACTION_SPACE.actions:
    if type(_a) in (ExchangeWithPlayer, ExchangeWithMarket):
        _h = (id(_a) >> 4) & _ID_MASK
        while _ID_OBJECTS[_h] is not None:
            _h = (_h + 1) & _ID_MASK
        _ID_OBJECTS[_h] = _a
        _ID_CODES[_h] = exchange_code(_a)


def _differ(first: int, second: int) -> bool:
    """Two kind masks: is there a kind in ``first`` and a different kind in ``second``?"""
    return first != 0 and second != 0 and not (first == second and first & (first - 1) == 0)


def _max_level(round_score: int) -> int:
    """data.max_level, compiled: the highest shop level a round score allows (0: none)."""
    for threshold, level in _ELIGIBILITY:
        if round_score >= threshold:
            return level
    return 0


def pick_order(scores: tuple[int, ...], tie_from: int) -> list[int]:
    """The seats by score, highest first; equal scores in turn order from seat ``tie_from`` (A16).

    Each seat, taken in that turn order, goes after every seat scoring as much: an insertion
    sort (stable), without the key tuples a ``sorted`` would build."""
    n = len(scores)
    order: list[int] = []
    for d in range(n):
        seat = (tie_from + d) % n
        j = len(order)
        while j > 0 and scores[order[j - 1]] < scores[seat]:
            j -= 1
        order.insert(j, seat)
    return order


def _contains(counts: list[int], group: tuple[int, ...]) -> bool:
    if len(group) == 2 and group[0] == group[1]:
        return counts[group[0]] >= 2
    return all(counts[k] for k in group)


# Which pairs a tray holds, by its pair signature (3**5 of them).
_PAIRS_HELD: Final = [_pairs_held(sig) for sig in range(3**N)]


# ---- the tile uses by the kinds in play (tile_uses), from the plain loops
_K: Final = range(N)


def _uses_tables() -> tuple[list[list[Action]], ...]:
    """The tables ``tile_uses`` reads, each entry the list the rules' loops make for it."""
    masks = range(32)
    stash: list[list[Action]] = [[USE_STASH[k] for k in _K if mine >> k & 1] for mine in masks]
    take_back: list[list[Action]] = [[USE_TAKE_BACK[k] for k in _K if bowl >> k & 1] for bowl in masks]
    rearrange: list[list[Action]] = [  # [bowl << 5 | tray]: a bowl sweet for a tray sweet of another kind
        [USE_REARRANGE[b][t] for b in _K if bowl >> b & 1 for t in _K if mine >> t & 1 and t != b]
        for bowl in masks
        for mine in masks
    ]
    market_to_bowl: list[list[Action]] = [  # [tray << 5 | market]
        [USE_MARKET_TO_BOWL[g][k] for g in _K if mine >> g & 1 for k in _K if market >> k & 1 and k != g]
        for mine in masks
        for market in masks
    ]
    twin_trade: list[list[Action]] = [  # [target << 11 | same kind only (A8) << 10 | their tray << 5 | my tray]
        [
            USE_TWIN_TRADE[target][take][give]
            for take in _K
            if theirs >> take & 1
            for give in _K
            if mine >> give & 1 and (give == take or not same)
        ]
        for target in range(_SEATS)
        for same in (False, True)
        for theirs in masks
        for mine in masks
    ]
    send_back: list[list[Action]] = [
        [USE_SEND_BACK[target][k] for k in _K if bowl >> k & 1] for target in range(_SEATS) for bowl in masks
    ]
    return stash, take_back, rearrange, market_to_bowl, twin_trade, send_back


_USES: Final = _uses_tables()
_STASH_USES: Final = _USES[0]  # [my tray's kinds]
_TAKE_BACK_USES: Final = _USES[1]  # [my bowl's kinds]
_REARRANGE_USES: Final = _USES[2]
_MARKET_TO_BOWL_USES: Final = _USES[3]
_TWIN_TRADE_USES: Final = _USES[4]
_SEND_BACK_USES: Final = _USES[5]  # [target << 5 | their bowl's kinds]


def move_between(state: SweetNoseState, target: int, take: int, seat: int, give: int, kind_rule: str) -> None:
    """The routing of exchange A (and the twin trade): their tray -> my bowl, my tray -> their bowl."""
    assert kind_rule == "any" or (take != give) == (kind_rule == "different")
    trays, bowls = state.trays, state.bowls
    trays[target] = trays[target] - _ONE[take]
    bowls[seat * N + take] = bowls[seat * N + take] + 1
    trays[seat] = trays[seat] - _ONE[give]
    bowls[target * N + give] = bowls[target * N + give] + 1


# ====================================================================== setup (§3)
def setup(state: SweetNoseState) -> list[RawEvent]:
    """A new game: sweets by player count, 8 per tray, the market, the start player."""
    players, options = state.players, state.options
    state.round = 0
    deal_sweets(state)
    state.scores = [0] * players
    state.round_scores = ()
    state.held = (NO_TILE,) * players  # 2. all ten tiles in the shop
    state.ignoring = (False,) * players
    state.sweetness = ((),) * players
    state.revealed = False
    state.exchanged = False
    state.phase_turns = state.quiet_turns = state.idle_turns = 0
    state.picks = ()
    state.in_auction = (False,) * players
    state.swaps = ()
    state.past = ()
    state.spent = ()
    # 6. The start player (A18).
    first = options.start_player
    if first != "random" and first >= players:
        raise OptionError(f"start_player is Seat {first + 1}, but there are only {players} seats")
    state.start_player = state.rng.below(players) if first == "random" else first
    state.active = state.start_player
    events = [
        public(
            "setup",
            market=counts_json(state.market),
            trays=[counts_json(state.tray(p)) for p in range(players)],
            start_player=state.start_player,
        )
    ]
    if options.shopkeeper:
        state.start_auction(events)
    else:
        state.start_round(events)
    return events


def deal_sweets(state: SweetNoseState) -> None:
    """Setup steps 3-5: fill the bag by player count, 8 sweets into each tray, then the market."""
    players, rng = state.players, state.rng
    bag = _BAGS[players][:]  # kind by kind, BAG_PER_KIND of each
    rng.shuffle(bag)
    trays = [0] * players
    drawn: i64 = 0
    for seat in range(players):  # 8 sweets into each tray, in seat order
        end = min(drawn + _TRAY_SIZE, len(bag))
        while drawn < end:
            trays[seat] = trays[seat] + _ONE[bag[drawn]]
            drawn += 1
    market = [0] * N
    while drawn < len(bag):  # whatever is left in the bag goes to the market
        k = bag[drawn]
        market[k] = market[k] + 1
        drawn += 1
    supply = _SUPPLIES[players][:]  # the sweets not in the bag
    rng.shuffle(supply)
    extra = min(MARKET_FROM_SUPPLY[players], len(supply))
    left = [0] * N
    for i in range(len(supply)):
        k = supply[i]
        if i < extra:
            market[k] = market[k] + 1
        else:
            left[k] = left[k] + 1
    state.trays = trays
    state.bowls = [0] * (players * N)
    state.market = market
    state.supply = tuple(left)


# The bag and the rest of the supply by player count, before shuffling, kind by kind.
_BAGS: Final[dict[int, list[int]]] = {n: [k for k in range(N) for _ in range(c)] for n, c in BAG_PER_KIND.items()}
_SUPPLIES: Final[dict[int, list[int]]] = {
    n: [k for k in range(N) for _ in range(SWEETS_PER_KIND - c)] for n, c in BAG_PER_KIND.items()
}
