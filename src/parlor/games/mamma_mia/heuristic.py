"""A rule-of-thumb Mamma Mia! bot: it tracks the oven, times its orders and feeds the oven
with the toppings it does not need.

It reads only what its seat may know: ``state.view(seat, recall=True)`` (own hand, this
round's oven plays and the leftovers, the counter in phase 2, public counts),
``state.legal_actions(seat)`` and ``state.options``, plus the static card data.

Phase 1, the core idea. Only cards revealed *before* an order count for it, so an order
played now is judged against the oven as it stands: the bot replays the oven the way
phase 2 will reveal it (leftovers first, then this round's plays; orders take what they
need, opponents' orders assumed to complete when the counter covers them) and gets
the counter an order played now would meet, plus the hand toppings it must *keep* to
top up its own orders already in the oven (the reserve). An order in hand is playable
when counter + free hand toppings cover it (toppings moved from hand into the oven this
turn count the same). The bot plays such an order at once, putting the missing cards
of one kind in first, so its hand is freed and refilled. It also plays an order up to
two cards short when those kinds may still come in its later draws (a failed order only
goes back to the waiter, an order held back blocks a hand slot). Otherwise it dumps the kind
its own orders need least (all spare cards of it), and keeps the rest.
Refill: from the waiter when it holds fewer than two orders (it then plays a single
topping so that only one or two orders come), else from the supply.
Phase 2: the joker / rarest kind that can be completed with the fewest hand cards;
always completes; Bombastica top-ups use the hand toppings it needs least.
"""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr

from parlor.core.actions import Action
from parlor.core.rng import Rng

from . import actions as A
from .data import BOMBASTICA, KIND_INDEX, KINDS, MINIMALE, MONOTONI, ORDER_INDEX, ORDERS

_K = range(len(KINDS))
_OWN_NAME = {o.name: o for o in ORDERS}
_INF = 1 << 20


# Search judges a playout with ``evaluate`` at the first round boundary it reaches.
PLAYOUT_DEPTH = 1


def evaluate(state: Any) -> list[float] | None:
    """Search's judgement of an unfinished (determinized) position, or None mid-round.

    Orders in the oven are only settled at the round's end, so a position is judged only
    between rounds (the oven holds nothing but leftovers): by pizzas completed so far.
    """
    if state.opener != -1:
        return None
    for seat, _, _ in state.oven:  # a plain loop: asked after every playout step, any() costs twice
        if seat != -1:
            return None
    from parlor.bots.ismcts import margin_rewards

    return margin_rewards([len(c) for c in state.completed], scale=1.5)


def _vec(counts: dict[str, int] | None) -> list[int]:
    out = [0] * len(KINDS)
    if counts:
        for name, n in counts.items():
            out[KIND_INDEX[name]] = n
    return out


class _Rules:
    """The option values the bot's arithmetic depends on, read once per options object."""

    __slots__ = ("bomb_topup", "decline_ok", "excl_own", "min_any", "recipe_needs_topping", "topping_required", "up_to")

    def __init__(self, options: Any) -> None:
        self.bomb_topup = bool(options.bombastica_hand_topup)
        self.excl_own = bool(options.minimale_excludes_pictured)
        self.min_any = options.minimale_when_no_candidate == "any_kind"
        self.topping_required = bool(options.topping_play_required)
        self.recipe_needs_topping = bool(options.recipe_requires_topping_play)
        self.up_to = options.refill_mode == "up_to"
        self.decline_ok = bool(options.owner_may_decline_when_table_suffices)


# ---------------------------------------------------------------------------- order arithmetic
def minimale_candidates(order: Any, counter: list[int], rules: _Rules) -> list[int]:
    own = order.own
    present = [k for k in _K if counter[k] > 0 and not (k == own and rules.excl_own)]
    if not present:
        return [k for k in _K if k != own] if rules.min_any else []
    fewest = min(counter[k] for k in present)
    return [k for k in present if counter[k] == fewest]


def best_need(order: Any, counter: list[int], hand: list[int], rules: _Rules) -> tuple[int, list[int] | None, int]:
    """(cards the hand must add, shortfall vector, joker / rarest kind or -1) for the cheapest
    way to complete ``order`` against ``counter`` with ``hand``; (_INF, None, -1) if it cannot
    be completed. Bombastica returns its missing count and ``None`` as the vector."""
    kind = order.kind
    if kind == BOMBASTICA:
        missing = order.min_total - sum(counter)
        if missing <= 0:
            return 0, None, -1
        if rules.bomb_topup and sum(hand) >= missing:
            return missing, None, -1
        return _INF, None, -1
    if kind == MONOTONI:
        options = [k for k in _K if k != order.own]
        add = order.joker_count
    elif kind == MINIMALE:
        options = minimale_candidates(order, counter, rules)
        add = order.rarest_count
    else:
        short = [order.need[k] - counter[k] if order.need[k] > counter[k] else 0 for k in _K]
        if all(short[k] <= hand[k] for k in _K):
            return sum(short), short, -1
        return _INF, None, -1
    best: tuple[int, list[int] | None, int] = (_INF, None, -1)
    need = order.need
    for j in options:
        short = []
        total = 0
        ok = True
        for k in _K:
            want = need[k] + (add if k == j else 0)
            s = want - counter[k] if want > counter[k] else 0
            if s > hand[k]:
                ok = False
                break
            short.append(s)
            total += s
        if ok and total < best[0]:
            best = (total, short, j)
    return best


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py); plug-in bots may extend it
class HeuristicBot:
    """Plays toppings its orders need, times its orders on the oven, completes from hand."""

    name = "heuristic"
    # Tunables (see the module docstring).
    opp_topup = 0  # an opponent's revealed order is assumed to complete if at most this many cards are missing
    feed_weight = 0.3  # reluctance to dump a kind the opponents' open orders need
    orders_wanted = 2  # draw from the waiter when fewer orders than this are in hand
    dump_all = True  # dump every spare card of the chosen kind (else one)
    small_play_for_orders = True  # when about to draw orders, play one topping so few come
    max_short = 2  # how many cards short such an order may be
    gamble = 0.1  # play an order one card short if that card is expected this often in later draws (0: never)

    def __init__(self, game: Any, seed: int = 0) -> None:
        self.game = game
        self.rng = Rng(seed)
        self._rules_for: Any = None
        self._rules: _Rules | None = None

    # ------------------------------------------------------------------ entry point
    def choose(self, state: Any, seat: int) -> Action:
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        if state.options is not self._rules_for:
            self._rules_for = state.options
            self._rules = _Rules(state.options)
        rules = self._rules
        assert rules is not None
        view = state.view(seat, recall=True)
        step = view["step"]
        me = view["players_info"][seat]
        hand = _vec(me["hand"]["toppings"])
        orders = [_OWN_NAME[n] for n in me["hand"]["orders"]]
        if step == "toppings":
            return self._toppings(view, seat, hand, orders, legal, rules)
        if step == "order":
            return self._order(view, seat, hand, orders, legal, rules)
        if step == "refill":
            return self._refill(view, hand, orders, legal, rules)
        counter = _vec(view.get("counter"))
        pending = view.get("pending") or {}
        order = _OWN_NAME[pending["order"]] if pending.get("order") else None
        if step in ("joker", "rarest"):
            return self._pick_kind(order, counter, hand, orders, legal, rules)
        if step == "top_up":
            return self._top_up(order, hand, orders, legal)
        return legal[0]

    # ------------------------------------------------------------------ the oven, replayed
    def _replay(self, view: dict[str, Any], seat: int, hand: list[int], rules: _Rules) -> tuple[list[int], list[int]]:
        """The counter an order played now would meet, and the hand toppings still free
        once the own orders already in the oven have their top-ups set aside."""
        oven = view["oven"]
        counter = _vec(oven.get("leftovers"))
        free = hand[:]
        info = view["players_info"]
        for play in oven.get("plays", ()):
            if play["type"] == "topping":
                counter[KIND_INDEX[play["kind"]]] += play["count"]
                continue
            order = _OWN_NAME[play["order"]]
            owner = play["seat"]
            if owner == seat:
                cost, short, extra = best_need(order, counter, free, rules)
                if cost >= _INF:
                    continue  # fails: the counter is unchanged
                if short is None:  # Bombastica: takes everything; reserve the least needed cards
                    for _ in range(cost):
                        k = max(_K, key=lambda i: free[i])
                        free[k] -= 1
                    counter = [0] * len(KINDS)
                    continue
                self._consume(order, counter, short, extra)
                for k in _K:
                    free[k] -= short[k]
            else:
                slack = min(self.opp_topup, info[owner]["toppings_in_hand"])
                cost, short, extra = best_need(order, counter, [slack] * len(KINDS), rules)
                if cost > slack:
                    continue
                if short is None:
                    counter = [0] * len(KINDS)
                else:
                    self._consume(order, counter, short, extra)
        return counter, free

    @staticmethod
    def _consume(order: Any, counter: list[int], short: list[int], extra_kind: int) -> None:
        """Remove from the counter what a completed order takes from it (the hand adds ``short``)."""
        need = list(order.need)
        if extra_kind >= 0:
            need[extra_kind] += order.joker_count or order.rarest_count
        for k in _K:
            if need[k]:
                counter[k] -= need[k] - short[k]

    # ------------------------------------------------------------------ what to keep
    def _keep(self, counter: list[int], free: list[int], orders: list[Any], skip: Any = None) -> list[int]:
        """Hand toppings worth keeping for the orders still in hand (most over the orders)."""
        keep = [0] * len(KINDS)
        for o in orders:
            if o is skip or o.kind == BOMBASTICA:
                continue
            need = list(o.need)
            if o.kind == MONOTONI:
                j = max((k for k in _K if k != o.own), key=lambda k: counter[k] + free[k])
                need[j] += o.joker_count
            for k in _K:
                if need[k]:
                    want = need[k] - counter[k]
                    if want > free[k]:
                        want = free[k]
                    if want > keep[k]:
                        keep[k] = want
        return keep

    def _feed(self, view: dict[str, Any], seat: int) -> list[float]:
        """How much each kind would help the opponents' open orders."""
        feed = [0.0] * len(KINDS)
        for p in view["players_info"]:
            if p["seat"] == seat:
                continue
            done = set(p["completed"])
            own = KIND_INDEX[p["own_topping"]]
            colour = p["deck"]
            for k in _K:
                if k != own and f"{colour}_four_{KINDS[k]}" not in done:
                    feed[k] += 1.0
            for name in p["known_orders_in_hand"]:
                need = _OWN_NAME[name].need
                for k in _K:
                    if need[k] >= 4:
                        feed[k] += 1.0
        return feed

    def _hope(self, view: dict[str, Any], seat: int, hand: list[int]) -> list[int] | None:
        """One extra card of each kind this seat expects to draw before the round ends."""
        if not self.gamble:
            return None
        oven = view["oven"]
        seen = _vec(oven.get("leftovers"))
        for play in oven.get("plays", ()):
            if play["type"] == "topping":
                seen[KIND_INDEX[play["kind"]]] += play["count"]
        box = _vec(view["box"])
        unknown = [max(0, 13 - box[k] - seen[k] - hand[k]) for k in _K]
        total = sum(unknown)
        if not total:
            return None
        draws = view["supply_size"] / view["players"]
        hope = [1 if draws * unknown[k] / total >= self.gamble else 0 for k in _K]
        return hope if any(hope) else None

    def _playable(
        self, orders: list[Any], counter: list[int], free: list[int], rules: _Rules, hope: list[int] | None = None
    ) -> tuple[Any, int, tuple[int, int] | None]:
        """The best order playable this turn: (order, hand cost, topping play (kind, n) or None)."""
        best = self._playable_with(orders, counter, free, rules)
        if best[0] is None and hope is not None:
            # An order a card or two short is worth the risk: a failed one only goes back to the waiter.
            best_key = (_INF, _INF)
            for o in orders:
                if o.kind == MINIMALE:
                    continue
                if o.kind == BOMBASTICA:
                    missing = o.min_total - sum(counter)
                    if not rules.bomb_topup:
                        continue
                    short_total = missing - sum(free)
                    key = (short_total, missing)
                    if 0 < short_total <= self.max_short and key < best_key:
                        best_key, best = key, (o, missing, (-1, missing))
                    continue
                if o.kind == MONOTONI:
                    jokers = [j for j in _K if j != o.own]
                else:
                    jokers = [-1]
                for j in jokers:
                    lacking = 0
                    cost = 0
                    play = None
                    for k in _K:
                        want = o.need[k] + (o.joker_count if k == j else 0)
                        short = want - counter[k] if want > counter[k] else 0
                        cost += short
                        if short > free[k]:
                            if not hope[k]:
                                lacking = _INF
                                break
                            lacking += short - free[k]
                        have = short if short < free[k] else free[k]
                        if have and (play is None or have > play[1]):
                            play = (k, have)
                    key = (lacking, cost)
                    if 0 < lacking <= self.max_short and key < best_key:
                        best_key, best = key, (o, cost, play)
        return best

    def _playable_with(
        self, orders: list[Any], counter: list[int], free: list[int], rules: _Rules
    ) -> tuple[Any, int, tuple[int, int] | None]:
        best: tuple[Any, int, tuple[int, int] | None] = (None, _INF, None)
        best_key = (_INF, 0)
        for o in orders:
            if o.kind == MINIMALE:
                found = self._minimale_plan(o, counter, free, rules)
                if found is None:
                    continue
                cost, play = found
            else:
                # The toppings the hand must add (into the oven now or as a top-up later).
                cost, short, _ = best_need(o, counter, free, rules)
                if cost >= _INF:
                    continue
                play = None
                if short is not None:
                    k = max(_K, key=lambda i: short[i])
                    if short[k]:
                        play = (k, short[k])
                elif cost:
                    play = (-1, cost)  # Bombastica: any kind
            prio = 0 if o.kind == BOMBASTICA else 1  # rarer chances first
            key = (cost, prio)
            if key < best_key:
                best_key = key
                best = (o, cost, play)
        return best

    def _minimale_plan(
        self, o: Any, counter: list[int], free: list[int], rules: _Rules
    ) -> tuple[int, tuple[int, int] | None] | None:
        cost = best_need(o, counter, free, rules)[0]
        best: tuple[int, tuple[int, int] | None] | None = (cost, None) if cost < _INF else None
        for k in _K:
            for n in range(1, free[k] + 1):
                c2 = counter[:]
                c2[k] += n
                f2 = free[:]
                f2[k] -= n
                cost2 = best_need(o, c2, f2, rules)[0]
                if cost2 < _INF and (best is None or cost2 + n < best[0]):
                    best = (cost2 + n, (k, n))
        return best

    # ------------------------------------------------------------------ step A
    def _toppings(
        self, view: dict[str, Any], seat: int, hand: list[int], orders: list[Any], legal: list[Action], rules: _Rules
    ) -> Action:
        counter, free = self._replay(view, seat, hand, rules)
        can_skip = A.SKIP_TOPPINGS in legal
        hope = self._hope(view, seat, hand) if orders else None
        target, _, play = self._playable(orders, counter, free, rules, hope) if orders else (None, _INF, None)
        if target is not None and play is not None and play[0] >= 0:
            k, n = play
            n = min(n, free[k])
            if n > 0:
                return A.PLAY_TOPPINGS[k][n]
        remaining = [o for o in orders if o is not target]
        keep = self._keep(counter, free, remaining)
        spare = [free[k] - keep[k] if free[k] > keep[k] else 0 for k in _K]
        feed = self._feed(view, seat)
        want_orders = len(remaining) < self.orders_wanted and view["players_info"][seat]["waiter_size"] > 0
        if target is not None and play is not None:  # Bombastica with a shortfall: any toppings help
            need = play[1]
            k = max(_K, key=lambda i: (spare[i], free[i]))
            n = min(need, free[k]) if spare[k] < need else spare[k]
            if n > 0:
                return A.PLAY_TOPPINGS[k][n]
        if any(spare):
            k = max(_K, key=lambda i: (spare[i] - self.feed_weight * feed[i] if spare[i] else -_INF, -i))
            n = 1 if (want_orders and self.small_play_for_orders) or not self.dump_all else spare[k]
            return A.PLAY_TOPPINGS[k][n]
        if can_skip and (target is None or not rules.recipe_needs_topping):
            return A.SKIP_TOPPINGS
        # Everything is wanted: give up one card of the kind wanted least (never a reserved one if avoidable).
        cands = [k for k in _K if free[k] > 0] or [k for k in _K if hand[k] > 0]
        if not cands:
            return legal[0]
        k = min(cands, key=lambda i: (keep[i] - free[i], feed[i], i))
        return A.PLAY_TOPPINGS[k][1]

    # ------------------------------------------------------------------ step B
    def _order(
        self, view: dict[str, Any], seat: int, hand: list[int], orders: list[Any], legal: list[Action], rules: _Rules
    ) -> Action:
        counter, free = self._replay(view, seat, hand, rules)
        target, _, _ = self._playable(orders, counter, free, rules, self._hope(view, seat, hand))
        if target is not None:
            # Minimale plans may rely on a topping play we can no longer make: check it directly.
            if target.kind != MINIMALE or best_need(target, counter, free, rules)[0] < _INF:
                return A.PLAY_ORDER[ORDER_INDEX[target.name]]
            for o in orders:
                if best_need(o, counter, free, rules)[0] < _INF:
                    return A.PLAY_ORDER[ORDER_INDEX[o.name]]
        return A.NO_ORDER

    # ------------------------------------------------------------------ step C
    def _refill(
        self, view: dict[str, Any], hand: list[int], orders: list[Any], legal: list[Action], rules: _Rules
    ) -> Action:
        want_orders = len(orders) < self.orders_wanted
        if rules.up_to:
            best: Action | None = None
            best_key: tuple[bool, int] = (False, 0)
            for a in legal:
                src = a.source  # type: ignore[attr-defined]
                n = a.count  # type: ignore[attr-defined]
                if want_orders:
                    key = (src == "waiter", -abs(n - 1) if src == "waiter" else n)
                else:
                    key = (src == "supply", n if src == "supply" else -n)
                if best is None or key > best_key:
                    best, best_key = a, key
            assert best is not None
            return best
        pick = "waiter" if want_orders else "supply"
        for a in legal:
            if a.source == pick:  # type: ignore[attr-defined]
                return a
        return legal[0]

    # ------------------------------------------------------------------ phase 2
    def _pick_kind(
        self, order: Any, counter: list[int], hand: list[int], orders: list[Any], legal: list[Action], rules: _Rules
    ) -> Action:
        keep = self._keep(counter, hand, orders)
        best = legal[0]
        best_key: tuple[float, ...] | None = None
        for a in legal:
            j = KIND_INDEX[a.kind]  # type: ignore[attr-defined]
            need = list(order.need)
            need[j] += order.joker_count or order.rarest_count
            short = [need[k] - counter[k] if need[k] > counter[k] else 0 for k in _K]
            ok = all(short[k] <= hand[k] for k in _K)
            cost = sum(short[k] * (1.0 + keep[k]) for k in _K)
            key = (0 if ok else 1, cost, -counter[j])
            if best_key is None or key < best_key:
                best, best_key = a, key
        return best

    def _top_up(self, order: Any, hand: list[int], orders: list[Any], legal: list[Action]) -> Action:
        completes = [a for a in legal if type(a) is A.CompleteFromHand]
        if not completes:
            return legal[0]
        if len(completes) == 1:
            return completes[0]
        keep = self._keep([0] * len(KINDS), hand, orders)
        best = completes[0]
        best_cost = None
        for a in completes:
            cost = 0.0
            for name, n in a.toppings:  # type: ignore[attr-defined]
                k = KIND_INDEX[name]
                over = hand[k] - keep[k]
                # Cards beyond what the orders need are free; the needed ones cost.
                cost += max(0, n - max(0, over)) * 2.0 + n * 0.01 * k
            if best_cost is None or cost < best_cost:
                best, best_cost = a, cost
        return best
