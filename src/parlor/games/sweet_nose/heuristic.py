"""A heuristic Sweet Nose bot: greedy on an estimate of the round's scores.

It reads only what its seat may know: ``state.view(seat, recall=True)``,
``state.legal_actions(seat)``, the options and the static data. Nothing else of the
state is touched, so it picks the same move in a state and in any determinization.

* Phase 1: the rearrangement rule: the highest values go to the kinds it holds fewest of.
* Phase 2: every legal action is scored by its effect on (own score) - (mean estimated
  score of the others), the others' cards being unknown and counted as 3 each. So it
  pushes sweets it rated high onto others, takes ones it rated low, and uses a shop tile
  when the tile's effect is worth it (score-neutral tiles get a small positional value).
* Phase 4: the strongest tile available; Shopkeeper: one cheap bid, then pass.
"""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr

from parlor.core.actions import Action
from parlor.core.rng import Rng

from . import actions as A
from .data import KIND_INDEX, KINDS, NUM_KINDS

# The search's playout policy and judgement, compiled with the rules (a playout runs both after
# every move); named here for ``parlor.bots.search_settings``.
from .playout import PLAYOUT_NOISE as PLAYOUT_NOISE
from .playout import TILE_POINT as TILE_POINT
from .playout import evaluate as evaluate
from .playout import playout_policy as playout_policy

# Tiles in order of preference when choosing a shop.
TILE_PREFERENCE = (
    "l5_change_taste",
    "l4_double_trade",
    "l5_ignore_market",
    "l3_bowl_swap",
    "l1_twin_trade",
    "l2_market_to_bowl",
    "l4_rearrange",
    "l2_take_back",
    "l3_send_back",
    "l1_stash",
)
GUESS = 3.0  # another player's unknown card value, on average
USE_THRESHOLD = 0.5  # a tile must gain at least this much to be spent
_K = range(NUM_KINDS)
_GUESSES = [GUESS] * NUM_KINDS  # every unknown card (read only)


# ---------------------------------------------------------------------- help for search
# The search bots (``parlor.bots.search_settings``) play each sampled world out with
# ``playout_policy`` only to the end of the current round, and judge it there with
# ``evaluate``. Measured at 4 players against ``medium`` over 40 games: random playouts to
# the end of the game scored 0.43; random playouts judged at the round's end 0.51 (and 3x
# faster); greedy playouts judged at the round's end 0.57. Random opponents trade at random,
# so a random playout cannot show what an exchange invites: real players push their
# sweetest kinds onto whoever holds a tray.
PLAYOUT_DEPTH = 1  # judge at the first round boundary


def _vec(counts: dict[str, int]) -> list[int]:
    return [counts.get(k, 0) for k in KINDS]


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py); plug-in bots may extend it
class HeuristicBot:
    name = "heuristic"

    def __init__(self, game: Any, seed: int = 0) -> None:
        self.game = game
        self.rng = Rng(seed)

    # ------------------------------------------------------------------ entry point
    def choose(self, state: Any, seat: int) -> Action:
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        view = state.view(seat, recall=True)
        options = state.options
        phase = view["phase"]
        if phase == "set_sweetness":
            return self.assign(view, seat)
        if phase == "choose_shop":
            return self.pick_tile(legal)
        if phase == "auction":
            return self.bid(view, seat, legal)
        return self.best(view, seat, legal, options)

    # ------------------------------------------------------------------ phase 1
    def assign(self, view: dict[str, Any], seat: int) -> Action:
        me = view["players_info"][seat]
        held = [a + b for a, b in zip(_vec(me["tray"]), _vec(me["bowl"]))]
        noise = [self.rng.random() for _ in _K]
        # Fewest held first gets 5, most held gets 1.
        order = sorted(_K, key=lambda k: (held[k], noise[k]))
        values = [0] * NUM_KINDS
        for rank, k in enumerate(order):
            values[k] = 5 - rank
        return A.ASSIGN[tuple(values)]

    # ------------------------------------------------------------------ phase 4 and the auction
    def pick_tile(self, legal: list[Action]) -> Action:
        tiles = {a.tile: a for a in legal if type(a) is A.ChooseShop}
        for tile in TILE_PREFERENCE:
            if tile in tiles:
                return tiles[tile]
        levels = [a for a in legal if type(a) is A.ChooseShopLevel]
        if levels:
            return max(levels, key=lambda a: a.level)
        return legal[0]

    def bid(self, view: dict[str, Any], seat: int, legal: list[Action]) -> Action:
        if view["players_info"][seat]["score"] == 0:
            cheap = [a for a in legal if type(a) is A.Bid and a.space <= 3]
            if cheap:
                return min(cheap, key=lambda a: a.space)
        return A.PASS

    # ------------------------------------------------------------------ phase 2 (and the deferred tiles)
    def best(self, view: dict[str, Any], seat: int, legal: list[Action], options: Any) -> Action:
        return self.ranked(view, seat, legal, options, self.rng)[0]

    @staticmethod
    def ranked(view: dict[str, Any], seat: int, legal: list[Action], options: Any, rng: Rng) -> list[Action]:
        """The legal actions, best first (ties in random order)."""
        model = _Model(view, seat, options)
        base = model.utility()
        scored = []
        for action in legal:
            value = model.value(action)
            if type(action) is A.UseMarketToBowl and options.l2_market_to_bowl_mode == "modify":
                value -= 0.1  # the turn's exchange B anyway, with the new sweet kept out of reach
            elif type(action) not in (A.ExchangeWithPlayer, A.ExchangeWithMarket, A.EndTurn, A.Decline):
                # Spend a tile only for a real gain (it is gone once used).
                value += USE_THRESHOLD if value < base else USE_THRESHOLD * 2
            scored.append((value, rng.random(), action))
        scored.sort(key=lambda t: (t[0], t[1]))
        return [action for _, _, action in scored]


class _Model:
    """The bot's picture of the round: own cards known, the others' guessed."""

    def __init__(self, view: dict[str, Any], seat: int, options: Any) -> None:
        self.seat = seat
        self.players = view["players"]
        info = view["players_info"]
        self.held = [[a + b for a, b in zip(_vec(p["tray"]), _vec(p["bowl"]))] for p in info]
        self.market = _vec(view["market"])
        cards = info[seat]["sweetness"]
        self.cards = [cards[k] for k in KINDS] if cards else [GUESS] * NUM_KINDS
        self.ignoring = [p["ignoring_market"] for p in info]
        self.flat = options.market_bonus == "flat"
        self.scope_all = options.l5_ignore_market_scope == "all"
        self.scores = scores = [p["score"] for p in info]
        # The seat utility() weighs most (fewest points, then the lowest seat): one per decision.
        self.leader = min(range(self.players), key=lambda q: (scores[q], q))

    def score(self, q: int, held: list[int], market: list[int], cards: list[float], ignoring: list[bool]) -> float:
        no_bonus = any(ignoring) if self.scope_all else ignoring[q]
        total = 0.0
        for k in _K:
            bonus = 0 if no_bonus else (min(market[k], 1) if self.flat else market[k])
            total += (cards[k] + bonus) * held[k]
        return total

    def utility(self, held: Any = None, market: Any = None, cards: Any = None, ignoring: Any = None) -> float:
        held = self.held if held is None else held
        market = self.market if market is None else market
        cards = self.cards if cards is None else cards
        ignoring = self.ignoring if ignoring is None else ignoring
        me = self.score(self.seat, held[self.seat], market, cards, ignoring)
        guess = _GUESSES
        others = [self.score(q, held[q], market, guess, ignoring) for q in range(self.players) if q != self.seat]
        # Others' sweetness counts for less: it is only a guess, and the leader matters most.
        leader = self.leader
        lead_bonus = 0.0
        if leader != self.seat:
            lead_bonus = 0.2 * self.score(leader, held[leader], market, guess, ignoring)
        return me - 1.0 * sum(others) / len(others) - lead_bonus

    def level(self, k: int) -> float:
        no_bonus = any(self.ignoring) if self.scope_all else self.ignoring[self.seat]
        bonus = 0 if no_bonus else (min(self.market[k], 1) if self.flat else self.market[k])
        return self.cards[k] + bonus

    def value(self, action: Action) -> float:
        t = type(action)
        me = self.seat
        if t in (A.EndTurn, A.Decline):
            return self.utility()
        held = [h[:] for h in self.held]
        market = self.market[:]
        if t in (A.ExchangeWithPlayer, A.UseTwinTrade):
            take, give, target = KIND_INDEX[action.take], KIND_INDEX[action.give], action.target  # type: ignore[attr-defined]
            held[me][take] += 1
            held[me][give] -= 1
            held[target][give] += 1
            held[target][take] -= 1
            return self.utility(held, market)
        if t in (A.ExchangeWithMarket, A.UseMarketToBowl):
            take, give = KIND_INDEX[action.take], KIND_INDEX[action.give]  # type: ignore[attr-defined]
            held[me][take] += 1
            held[me][give] -= 1
            market[take] -= 1
            market[give] += 1
            return self.utility(held, market)
        if t is A.UseBowlSwap:
            take, give, target = KIND_INDEX[action.take], KIND_INDEX[action.give], action.target  # type: ignore[attr-defined]
            held[me][take] += 1
            held[me][give] -= 1
            held[target][give] += 1
            held[target][take] -= 1
            return self.utility(held, market)
        if t is A.UseDoubleTrade:
            target = action.target  # type: ignore[attr-defined]
            for k in action.give:  # type: ignore[attr-defined]
                held[me][KIND_INDEX[k]] -= 1
                held[target][KIND_INDEX[k]] += 1
            for k in action.take:  # type: ignore[attr-defined]
                held[me][KIND_INDEX[k]] += 1
                held[target][KIND_INDEX[k]] -= 1
            return self.utility(held, market)
        if t is A.UseChangeTaste:
            cards = self.cards[:]
            a, b = KIND_INDEX[action.first], KIND_INDEX[action.second]  # type: ignore[attr-defined]
            cards[a], cards[b] = cards[b], cards[a]
            return self.utility(cards=cards)
        if t is A.UseIgnoreMarket:
            ignoring = self.ignoring[:]
            ignoring[me] = True
            return self.utility(ignoring=ignoring)
        # Tray/bowl moves change no score now, only what can move later.
        base = self.utility()
        if t is A.UseTakeBack:  # a sweet back in the tray can be given away
            return base - 0.3 * (self.level(KIND_INDEX[action.kind]) - GUESS)  # type: ignore[attr-defined]
        if t is A.UseRearrange:
            return base - 0.3 * (self.level(KIND_INDEX[action.from_bowl]) - self.level(KIND_INDEX[action.from_tray]))  # type: ignore[attr-defined]
        if t is A.UseStash:  # keep a mild sweet out of reach
            return base - 0.3 * (GUESS - self.level(KIND_INDEX[action.kind]))  # type: ignore[attr-defined]
        return base
