"""Sweet Nose actions, named after the rulebook's verbs, and the game's action space.

Phase 1: ``AssignSweetness`` (values 1-5 in kind order, a permutation).
Phase 2: ``ExchangeWithPlayer`` (A) or ``ExchangeWithMarket`` (B); the shop tiles'
``UseStash``, ``UseTwinTrade``, ``UseTakeBack``, ``UseMarketToBowl``, ``UseBowlSwap``,
``UseSendBack``, ``UseRearrange``, ``UseDoubleTrade``, ``UseChangeTaste``,
``UseIgnoreMarket``; ``EndTurn``.
Phase 4 (and the Shopkeeper auction's picks): ``ChooseShop`` (a tile), ``ChooseShopLevel``
(hidden tiles, option ``shop_tiles_visible=False``), ``Decline``.
Shopkeeper auction: ``Bid`` (a score space) or ``Pass``.

Kinds are sweet ids (``"mung_bean_cake"``), targets absolute seats 0-4, so the space
does not depend on the player count; seats that do not exist are never legal.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from parlor.core.actions import Action, ActionSpace

from .data import KINDS, LEVELS, NUM_KINDS, TILES, VALUES
from .options import MAX_BID_SPACE

MAX_SEATS = 5


# ---------------------------------------------------------------- phase 1
@dataclass(frozen=True, slots=True)
class AssignSweetness(Action):
    """Place the five sweetness cards: ``values[k]`` is the card on kind ``k``."""

    TYPE = "assign_sweetness"
    values: tuple[int, ...]


# ---------------------------------------------------------------- phase 2: exchanges
@dataclass(frozen=True, slots=True)
class ExchangeWithPlayer(Action):
    """A: take ``take`` from ``target``'s tray into your bowl, give ``give`` from your tray
    into their bowl (different kinds)."""

    TYPE = "exchange_with_player"
    target: int
    take: str
    give: str


@dataclass(frozen=True, slots=True)
class ExchangeWithMarket(Action):
    """B: put ``give`` from your tray into the market, take ``take`` into your tray."""

    TYPE = "exchange_with_market"
    give: str
    take: str


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    TYPE = "end_turn"


# ---------------------------------------------------------------- phase 2: shop tiles
@dataclass(frozen=True, slots=True)
class UseStash(Action):
    """l1_stash: one sweet of ``kind`` from your tray into your bowl."""

    TYPE = "use_stash"
    kind: str


@dataclass(frozen=True, slots=True)
class UseTwinTrade(Action):
    """l1_twin_trade: an extra trade routed like A; ``take == give`` by default (A8)."""

    TYPE = "use_twin_trade"
    target: int
    take: str
    give: str


@dataclass(frozen=True, slots=True)
class UseTakeBack(Action):
    """l2_take_back: one sweet of ``kind`` from your bowl back into your tray."""

    TYPE = "use_take_back"
    kind: str


@dataclass(frozen=True, slots=True)
class UseMarketToBowl(Action):
    """l2_market_to_bowl: exchange B whose taken sweet goes into your bowl (A9)."""

    TYPE = "use_market_to_bowl"
    give: str
    take: str


@dataclass(frozen=True, slots=True)
class UseBowlSwap(Action):
    """l3_bowl_swap: ``give`` from your bowl for ``take`` from ``target``'s bowl."""

    TYPE = "use_bowl_swap"
    target: int
    give: str
    take: str


@dataclass(frozen=True, slots=True)
class UseSendBack(Action):
    """l3_send_back: one sweet of ``kind`` from ``target``'s bowl into ``target``'s tray."""

    TYPE = "use_send_back"
    target: int
    kind: str


@dataclass(frozen=True, slots=True)
class UseRearrange(Action):
    """l4_rearrange: ``from_bowl`` goes to your tray, ``from_tray`` to your bowl."""

    TYPE = "use_rearrange"
    from_bowl: str
    from_tray: str


@dataclass(frozen=True, slots=True)
class UseDoubleTrade(Action):
    """l4_double_trade: your tray's ``give`` for ``target``'s tray's ``take`` (two kinds
    each, sorted in kind order; one each with ``l4_double_trade_short`` and a tray of one)."""

    TYPE = "use_double_trade"
    target: int
    give: tuple[str, ...]
    take: tuple[str, ...]

    @classmethod
    def from_fields(cls, data: Mapping[str, Any]) -> Action:
        # ["candied_haws", "mung_bean_cake"] means the same pair as the other way round.
        order = {k: i for i, k in enumerate(KINDS)}
        fixed = dict(data)
        for name in ("give", "take"):
            value = data.get(name)
            if isinstance(value, list) and all(k in order for k in value):
                fixed[name] = sorted(value, key=order.__getitem__)
        return Action.from_fields.__func__(cls, fixed)  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class UseChangeTaste(Action):
    """l5_change_taste: swap your sweetness cards on kinds ``first`` and ``second``."""

    TYPE = "use_change_taste"
    first: str
    second: str


@dataclass(frozen=True, slots=True)
class UseIgnoreMarket(Action):
    """l5_ignore_market: this round's scoring gives you no market bonus."""

    TYPE = "use_ignore_market"


# ---------------------------------------------------------------- phase 4 / shopkeeper
@dataclass(frozen=True, slots=True)
class ChooseShop(Action):
    TYPE = "choose_shop"
    tile: str


@dataclass(frozen=True, slots=True)
class ChooseShopLevel(Action):
    """Hidden tiles (A14): name a level, receive one of its tiles at random."""

    TYPE = "choose_shop_level"
    level: int


@dataclass(frozen=True, slots=True)
class Decline(Action):
    """Take no tile, or leave a deferred tile (A11, A12) unused."""

    TYPE = "decline"


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """Shopkeeper: move your score marker forward to ``space``."""

    TYPE = "bid"
    space: int


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Shopkeeper: leave the auction for good."""

    TYPE = "pass"


# ---------------------------------------------------------------- prebuilt actions
_K = range(NUM_KINDS)
_S = range(MAX_SEATS)
PERMUTATIONS: tuple[tuple[int, ...], ...] = tuple(itertools.permutations(VALUES))  # lexicographic, 120
ASSIGN = {values: AssignSweetness(values) for values in PERMUTATIONS}
ASSIGN_ALL: list[Action] = list(ASSIGN.values())  # shared, never mutated
# [target][take][give]; the same-kind entries are None (never legal)
EXCHANGE_A: list[list[list[Any]]]  # None where the two kinds are equal
EXCHANGE_A = [[[ExchangeWithPlayer(t, KINDS[k], KINDS[g]) if k != g else None for g in _K] for k in _K] for t in _S]
EXCHANGE_B: list[list[Any]]  # None where the two kinds are equal
EXCHANGE_B = [[ExchangeWithMarket(KINDS[g], KINDS[k]) if k != g else None for k in _K] for g in _K]  # [give][take]
# By bitmask of the kinds present: [target][take][my kinds] and [my kinds][market kinds] -> actions.
_MASKS = range(1 << NUM_KINDS)
EXCHANGE_A_BY_MASK: list[list[list[list[Action]]]] = [
    [[[EXCHANGE_A[t][k][g] for g in _K if m >> g & 1 and g != k] for m in _MASKS] for k in _K] for t in _S
]
EXCHANGE_B_BY_MASK: list[list[list[Action]]] = [
    [[EXCHANGE_B[g][k] for g in _K if mine >> g & 1 for k in _K if market >> k & 1 and k != g] for market in _MASKS]
    for mine in _MASKS
]
# Exchange A by [target][their tray's kinds][my tray's kinds] (bitmasks): every A with that
# target, in the legal-move order (kind taken, then kind given). The rules' move generator
# is one list extension per other player.
EXCHANGE_A_BY_MASKS: list[list[list[list[Action]]]] = [
    [
        [[a for k in _K if theirs >> k & 1 for a in EXCHANGE_A_BY_MASK[t][k][mine]] for mine in _MASKS]
        for theirs in _MASKS
    ]
    for t in _S
]
END_TURN = EndTurn()
STASH = [UseStash(KINDS[k]) for k in _K]
TWIN_TRADE = [[[UseTwinTrade(t, KINDS[k], KINDS[g]) for g in _K] for k in _K] for t in _S]  # [target][take][give]
TAKE_BACK = [UseTakeBack(KINDS[k]) for k in _K]
MARKET_TO_BOWL: list[list[Any]]  # None where the two kinds are equal
MARKET_TO_BOWL = [[UseMarketToBowl(KINDS[g], KINDS[k]) if k != g else None for k in _K] for g in _K]
BOWL_SWAP: list[list[list[Any]]]  # None where the two kinds are equal
BOWL_SWAP = [[[UseBowlSwap(t, KINDS[a], KINDS[b]) if a != b else None for b in _K] for a in _K] for t in _S]
SEND_BACK = [[UseSendBack(t, KINDS[k]) for k in _K] for t in _S]
REARRANGE: list[list[Any]]  # None where the two kinds are equal
REARRANGE = [[UseRearrange(KINDS[b], KINDS[t]) if b != t else None for t in _K] for b in _K]  # [bowl][tray]
PAIRS: tuple[tuple[int, ...], ...] = tuple(itertools.combinations_with_replacement(_K, 2))  # 15 multisets
SINGLES: tuple[tuple[int, ...], ...] = tuple((k,) for k in _K)
DOUBLE_TRADE: dict[tuple[int, tuple[int, ...], tuple[int, ...]], UseDoubleTrade] = {}
for _t in _S:
    for _group in (PAIRS, SINGLES):
        for _give in _group:
            for _take in _group:
                if _give != _take:
                    DOUBLE_TRADE[(_t, _give, _take)] = UseDoubleTrade(
                        _t, tuple(KINDS[k] for k in _give), tuple(KINDS[k] for k in _take)
                    )
# The double trade by group index: [target][give][take] over PAIRS (indices 0-14) then SINGLES
# (15-19); None where give and take are the same group or from different families.
GROUPS: tuple[tuple[int, ...], ...] = PAIRS + SINGLES
DOUBLE_TRADE_BY_INDEX: list[list[list[Any]]] = [
    [[DOUBLE_TRADE.get((t, give, take)) for take in GROUPS] for give in GROUPS] for t in _S
]
CHANGE_TASTE = {(a, b): UseChangeTaste(KINDS[a], KINDS[b]) for a, b in itertools.combinations(_K, 2)}
IGNORE_MARKET = UseIgnoreMarket()
CHOOSE_SHOP = [ChooseShop(t.id) for t in TILES]
CHOOSE_SHOP_LEVEL = {lv: ChooseShopLevel(lv) for lv in LEVELS}
DECLINE = Decline()
BIDS: list[Any] = [None] + [Bid(s) for s in range(1, MAX_BID_SPACE + 1)]  # BIDS[space]
PASS = Pass()


def _flat(rows: Any) -> list[Action]:
    out: list[Action] = []
    for row in rows:
        if isinstance(row, list):
            out.extend(_flat(row))
        elif row is not None:
            out.append(row)
    return out


ACTION_SPACE = ActionSpace(
    list(ASSIGN.values())
    + _flat(EXCHANGE_A)
    + _flat(EXCHANGE_B)
    + [END_TURN]
    + STASH
    + _flat(TWIN_TRADE)
    + TAKE_BACK
    + _flat(MARKET_TO_BOWL)
    + _flat(BOWL_SWAP)
    + _flat(SEND_BACK)
    + _flat(REARRANGE)
    + list(DOUBLE_TRADE.values())
    + list(CHANGE_TASTE.values())
    + [IGNORE_MARKET]
    + CHOOSE_SHOP
    + list(CHOOSE_SHOP_LEVEL.values())
    + [DECLINE]
    + BIDS[1:]
    + [PASS]
)
