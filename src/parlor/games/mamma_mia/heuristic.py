"""A rule-of-thumb Mamma Mia! bot: it tracks the oven, times its orders and feeds the oven
with the toppings it does not need.

It reads only what its seat may know: a :class:`Seen` (own hand, this round's oven plays
and the leftovers, the counter in phase 2, public counts: the fields of
``state.view(seat, recall=True)`` it uses, read straight from the state without building the
view, which cost about half of a decision), ``state.legal_actions(seat)`` and
``state.options``, plus the static card data. ``tests/games/mamma_mia/test_heuristic.py``
proves a ``Seen`` equal to the one the view gives and blind to every hidden card.

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

from typing import Any, Final

from mypy_extensions import mypyc_attr

from parlor.core.actions import Action
from parlor.core.rng import Rng

from . import actions as A
from .data import BOMBASTICA, DECKS, KIND_INDEX, KINDS, MINIMALE, MONOTONI, NUM_KINDS, ORDER_BASE, ORDER_INDEX, ORDERS

NK: Final = NUM_KINDS
_INF: Final = 1 << 20
# The steps (rules.STEP_NAMES; not imported from rules, which would load the engine first).
TOPPINGS: Final = 0
ORDER: Final = 1
REFILL: Final = 2
JOKER: Final = 3
RAREST: Final = 4
TOP_UP: Final = 5

# Per order (its index in ORDERS), the fields the arithmetic reads: plain tuples, since an
# Order's attribute costs a dictionary lookup in the compiled build.
_NEED: Final = tuple(o.need for o in ORDERS)
_KIND: Final = tuple(o.kind for o in ORDERS)
_OWN: Final = tuple(o.own for o in ORDERS)
_JOKERS: Final = tuple(o.joker_count for o in ORDERS)
_RAREST: Final = tuple(o.rarest_count for o in ORDERS)
_EXTRA: Final = tuple(o.joker_count or o.rarest_count for o in ORDERS)
_MIN_TOTAL: Final = tuple(o.min_total for o in ORDERS)
_DECK_OWN: Final = tuple(d.own for d in DECKS)
# Each deck's "four of a kind" order per topping kind (-1: the deck has none of that kind).
_FOUR: Final = tuple(tuple(ORDER_INDEX.get(f"{d.colour}_four_{k}", -1) for k in KINDS) for d in DECKS)


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


# The fields of a Seen, for tests that compare two of them.
SEEN_FIELDS: Final = (
    "seat",
    "players",
    "step",
    "hand",
    "orders",
    "waiter_size",
    "supply_size",
    "box",
    "decks",
    "toppings_in_hand",
    "completed",
    "known_orders",
    "leftovers",
    "plays",
    "counter",
    "pending",
)


class Seen:
    """What ``seat`` knows that the bot uses, read straight from the state: the same facts as
    ``state.view(seat, recall=True)`` shows (own hand; public counts, decks, completed and
    known orders; this round's announced oven plays after the leftovers; the counter and the
    pending order in phase 2), as numbers instead of names. Only the seat's own hand is read
    from the private fields; of the supply and the waiters only their sizes."""

    __slots__ = SEEN_FIELDS

    seat: int
    players: int
    step: int
    hand: list[int]  # own toppings per kind
    orders: list[int]  # own orders (indices into ORDERS), ascending
    waiter_size: int  # own waiter
    supply_size: int
    box: list[int]  # toppings out of play, per kind
    decks: list[int]  # seat -> deck index
    toppings_in_hand: list[int]  # seat -> topping cards in hand
    completed: list[tuple[int, ...]]  # seat -> its completed orders
    known_orders: list[tuple[int, ...]]  # seat -> orders in its hand everyone can name
    leftovers: list[int]  # the oven's leftover block per kind (phase 1; zeros in phase 2)
    plays: list[tuple[int, int, int]]  # oven plays after the leftovers: (seat, card, count)
    counter: list[int]  # phase 2: revealed toppings not yet used, per kind (zeros in phase 1)
    pending: int  # phase 2: the order awaiting its owner's decision, -1 if none

    def __init__(self, state: Any, seat: int) -> None:
        n: int = state.players
        self.seat = seat
        self.players = n
        self.step = state.step
        self.hand = state.toppings_of(seat)
        self.orders = sorted(state.hand_orders[seat])
        self.waiter_size = len(state.waiters[seat])
        self.supply_size = len(state.supply)
        self.box = list(state.box)
        self.decks = list(state.decks)
        self.toppings_in_hand = list(state.n_toppings)
        self.completed = list(state.completed)
        self.known_orders = list(state.known_hand_orders)
        # The oven as a seat with recall remembers it (views.view, recall=True).
        in_phase_two: bool = state.opener >= 0
        leftovers: tuple[int, ...] = state.leftovers
        entries = 0
        for x in leftovers:
            if x:
                entries += 1
        start: int = state.reveal if in_phase_two else entries
        self.leftovers = [0] * NK if in_phase_two else list(leftovers)
        self.plays = state.oven[max(start, entries) :]
        self.counter = list(state.counter) if in_phase_two else [0] * NK
        self.pending = state.pending if in_phase_two else -1


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


def _argmax(values: list[int]) -> int:
    """The first kind with the most (``max(range, key=values.__getitem__)``)."""
    best = 0
    for k in range(1, NK):
        if values[k] > values[best]:
            best = k
    return best


def _total(values: list[int]) -> int:
    total = 0
    for k in range(NK):
        total += values[k]
    return total


# ---------------------------------------------------------------------------- order arithmetic
def minimale_candidates(order: int, counter: list[int], rules: _Rules) -> list[int]:
    own = _OWN[order]
    excl = rules.excl_own
    present = [k for k in range(NK) if counter[k] > 0 and not (k == own and excl)]
    if not present:
        return [k for k in range(NK) if k != own] if rules.min_any else []
    fewest = counter[present[0]]
    for k in present:
        if counter[k] < fewest:
            fewest = counter[k]
    return [k for k in present if counter[k] == fewest]


def best_need(order: int, counter: list[int], hand: list[int], rules: _Rules) -> tuple[int, list[int] | None, int]:
    """(cards the hand must add, shortfall vector, joker / rarest kind or -1) for the cheapest
    way to complete ``order`` (an index into ORDERS) against ``counter`` with ``hand``;
    (_INF, None, -1) if it cannot be completed. Bombastica returns its missing count and
    ``None`` as the vector."""
    kind = _KIND[order]
    need = _NEED[order]
    if kind == BOMBASTICA:
        missing = _MIN_TOTAL[order] - _total(counter)
        if missing <= 0:
            return 0, None, -1
        if rules.bomb_topup and _total(hand) >= missing:
            return missing, None, -1
        return _INF, None, -1
    if kind == MONOTONI:
        own = _OWN[order]
        options = [k for k in range(NK) if k != own]
        add = _JOKERS[order]
    elif kind == MINIMALE:
        options = minimale_candidates(order, counter, rules)
        add = _RAREST[order]
    else:
        short = [0] * NK
        total = 0
        for k in range(NK):
            s = need[k] - counter[k] if need[k] > counter[k] else 0
            if s > hand[k]:
                return _INF, None, -1
            short[k] = s
            total += s
        return total, short, -1
    best_total = _INF
    best_short: list[int] | None = None
    best_kind = -1
    for j in options:
        short = [0] * NK
        total = 0
        ok = True
        for k in range(NK):
            want = need[k] + add if k == j else need[k]
            s = want - counter[k] if want > counter[k] else 0
            if s > hand[k]:
                ok = False
                break
            short[k] = s
            total += s
        if ok and total < best_total:
            best_total, best_short, best_kind = total, short, j
    return best_total, best_short, best_kind


def _consume(order: int, counter: list[int], short: list[int], extra_kind: int) -> None:
    """Remove from the counter what a completed order takes from it (the hand adds ``short``)."""
    need = list(_NEED[order])
    if extra_kind >= 0:
        need[extra_kind] += _EXTRA[order]
    for k in range(NK):
        if need[k]:
            counter[k] -= need[k] - short[k]


def _keep(counter: list[int], free: list[int], orders: list[int], skip: int = -1) -> list[int]:
    """Hand toppings worth keeping for the orders still in hand (most over the orders)."""
    keep = [0] * NK
    for o in orders:
        if o == skip or _KIND[o] == BOMBASTICA:
            continue
        need = list(_NEED[o])
        if _KIND[o] == MONOTONI:
            own = _OWN[o]
            j = -1
            best = 0
            for k in range(NK):  # the first kind with the most, the pictured one excepted
                if k != own and (j < 0 or counter[k] + free[k] > best):
                    j, best = k, counter[k] + free[k]
            need[j] += _JOKERS[o]
        for k in range(NK):
            if need[k]:
                want = need[k] - counter[k]
                if want > free[k]:
                    want = free[k]
                if want > keep[k]:
                    keep[k] = want
    return keep


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
        return self.decide(Seen(state, seat), legal, state.options)

    def decide(self, seen: Seen, legal: list[Action], options: Any) -> Action:
        """The move, from what the seat knows, its legal moves and the game's options."""
        if options is not self._rules_for:
            self._rules_for = options
            self._rules = _Rules(options)
        rules = self._rules
        assert rules is not None
        step = seen.step
        hand = seen.hand
        orders = seen.orders
        if step == TOPPINGS:
            return self._toppings(seen, hand, orders, legal, rules)
        if step == ORDER:
            return self._order(seen, hand, orders, legal, rules)
        if step == REFILL:
            return self._refill(orders, legal, rules)
        if step in (JOKER, RAREST):
            return self._pick_kind(seen.pending, seen.counter, hand, orders, legal)
        if step == TOP_UP:
            return self._top_up(hand, orders, legal)
        return legal[0]

    # ------------------------------------------------------------------ the oven, replayed
    def _replay(self, seen: Seen, hand: list[int], rules: _Rules) -> tuple[list[int], list[int]]:
        """The counter an order played now would meet, and the hand toppings still free
        once the own orders already in the oven have their top-ups set aside."""
        counter = seen.leftovers[:]
        free = hand[:]
        seat = seen.seat
        for owner, card, count in seen.plays:
            if card < NK:
                counter[card] += count
                continue
            order = card - ORDER_BASE
            if owner == seat:
                cost, short, extra = best_need(order, counter, free, rules)
                if cost >= _INF:
                    continue  # fails: the counter is unchanged
                if short is None:  # Bombastica: takes everything; reserve the least needed cards
                    for _ in range(cost):
                        free[_argmax(free)] -= 1
                    counter = [0] * NK
                    continue
                _consume(order, counter, short, extra)
                for k in range(NK):
                    free[k] -= short[k]
            else:
                slack = min(self.opp_topup, seen.toppings_in_hand[owner])
                cost, short, extra = best_need(order, counter, [slack] * NK, rules)
                if cost > slack:
                    continue
                if short is None:
                    counter = [0] * NK
                else:
                    _consume(order, counter, short, extra)
        return counter, free

    # ------------------------------------------------------------------ what to keep
    def _feed(self, seen: Seen) -> list[float]:
        """How much each kind would help the opponents' open orders."""
        feed = [0.0] * NK
        for p in range(seen.players):
            if p == seen.seat:
                continue
            done = seen.completed[p]
            deck = seen.decks[p]
            own = _DECK_OWN[deck]
            four = _FOUR[deck]
            for k in range(NK):
                if k != own and (four[k] < 0 or four[k] not in done):
                    feed[k] += 1.0
            for o in seen.known_orders[p]:
                need = _NEED[o]
                for k in range(NK):
                    if need[k] >= 4:
                        feed[k] += 1.0
        return feed

    def _hope(self, seen: Seen, hand: list[int]) -> list[int] | None:
        """One extra card of each kind this seat expects to draw before the round ends."""
        if not self.gamble:
            return None
        played = seen.leftovers[:]
        for _, card, count in seen.plays:
            if card < NK:
                played[card] += count
        box = seen.box
        unknown = [0] * NK
        total = 0
        for k in range(NK):
            u = 13 - box[k] - played[k] - hand[k]
            if u > 0:
                unknown[k] = u
                total += u
        if not total:
            return None
        draws = seen.supply_size / seen.players
        hope = [1 if draws * unknown[k] / total >= self.gamble else 0 for k in range(NK)]
        for k in range(NK):
            if hope[k]:
                return hope
        return None

    def _playable(
        self, orders: list[int], counter: list[int], free: list[int], rules: _Rules, hope: list[int] | None = None
    ) -> tuple[int, int, tuple[int, int] | None]:
        """The best order playable this turn: (order or -1, hand cost, topping play (kind, n) or None)."""
        best = self._playable_with(orders, counter, free, rules)
        if best[0] < 0 and hope is not None:
            # An order a card or two short is worth the risk: a failed one only goes back to the waiter.
            key_lacking, key_cost = _INF, _INF  # compared as the pair (lacking, cost)
            for o in orders:
                kind = _KIND[o]
                if kind == MINIMALE:
                    continue
                if kind == BOMBASTICA:
                    missing = _MIN_TOTAL[o] - _total(counter)
                    if not rules.bomb_topup:
                        continue
                    short_total = missing - _total(free)
                    if 0 < short_total <= self.max_short and (
                        short_total < key_lacking or (short_total == key_lacking and missing < key_cost)
                    ):
                        key_lacking, key_cost = short_total, missing
                        best = (o, missing, (-1, missing))
                    continue
                need = _NEED[o]
                jokers = [j for j in range(NK) if j != _OWN[o]] if kind == MONOTONI else [-1]
                for j in jokers:
                    lacking = 0
                    cost = 0
                    play: tuple[int, int] | None = None
                    for k in range(NK):
                        want = need[k] + _JOKERS[o] if k == j else need[k]
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
                    if 0 < lacking <= self.max_short and (
                        lacking < key_lacking or (lacking == key_lacking and cost < key_cost)
                    ):
                        key_lacking, key_cost = lacking, cost
                        best = (o, cost, play)
        return best

    def _playable_with(
        self, orders: list[int], counter: list[int], free: list[int], rules: _Rules
    ) -> tuple[int, int, tuple[int, int] | None]:
        best: tuple[int, int, tuple[int, int] | None] = (-1, _INF, None)
        key_cost, key_prio = _INF, 0  # compared as the pair (cost, prio)
        for o in orders:
            play: tuple[int, int] | None = None
            if _KIND[o] == MINIMALE:
                found = self._minimale_plan(o, counter, free, rules)
                if found is None:
                    continue
                cost, play = found
            else:
                # The toppings the hand must add (into the oven now or as a top-up later).
                cost, short, _ = best_need(o, counter, free, rules)
                if cost >= _INF:
                    continue
                if short is not None:
                    k = _argmax(short)
                    if short[k]:
                        play = (k, short[k])
                elif cost:
                    play = (-1, cost)  # Bombastica: any kind
            prio = 0 if _KIND[o] == BOMBASTICA else 1  # rarer chances first
            if cost < key_cost or (cost == key_cost and prio < key_prio):
                key_cost, key_prio = cost, prio
                best = (o, cost, play)
        return best

    def _minimale_plan(
        self, o: int, counter: list[int], free: list[int], rules: _Rules
    ) -> tuple[int, tuple[int, int] | None] | None:
        cost = best_need(o, counter, free, rules)[0]
        best: tuple[int, tuple[int, int] | None] | None = (cost, None) if cost < _INF else None
        for k in range(NK):
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
    def _toppings(self, seen: Seen, hand: list[int], orders: list[int], legal: list[Action], rules: _Rules) -> Action:
        counter, free = self._replay(seen, hand, rules)
        can_skip = A.SKIP_TOPPINGS in legal
        target = -1
        play: tuple[int, int] | None = None
        if orders:
            target, _, play = self._playable(orders, counter, free, rules, self._hope(seen, hand))
        if target >= 0 and play is not None and play[0] >= 0:
            k, n = play
            n = min(n, free[k])
            if n > 0:
                return A.PLAY_TOPPINGS[k][n]
        keep = _keep(counter, free, orders, target)
        remaining = len(orders) - 1 if target >= 0 else len(orders)
        spare = [free[k] - keep[k] if free[k] > keep[k] else 0 for k in range(NK)]
        feed = self._feed(seen)
        want_orders = remaining < self.orders_wanted and seen.waiter_size > 0
        if target >= 0 and play is not None:  # Bombastica with a shortfall: any toppings help
            need = play[1]
            k = 0
            for i in range(1, NK):  # the first kind with the most spare, then the most free
                if spare[i] > spare[k] or (spare[i] == spare[k] and free[i] > free[k]):
                    k = i
            n = min(need, free[k]) if spare[k] < need else spare[k]
            if n > 0:
                return A.PLAY_TOPPINGS[k][n]
        k = -1
        best_value = 0.0
        for i in range(NK):  # the first kind with the best spare, less what it would feed
            if spare[i]:
                value = spare[i] - self.feed_weight * feed[i]
                if k < 0 or value > best_value:
                    k, best_value = i, value
        if k >= 0:
            n = 1 if (want_orders and self.small_play_for_orders) or not self.dump_all else spare[k]
            return A.PLAY_TOPPINGS[k][n]
        if can_skip and (target < 0 or not rules.recipe_needs_topping):
            return A.SKIP_TOPPINGS
        # Everything is wanted: give up one card of the kind wanted least (never a reserved one if avoidable).
        cands = [i for i in range(NK) if free[i] > 0] or [i for i in range(NK) if hand[i] > 0]
        if not cands:
            return legal[0]
        k = cands[0]
        for i in cands:
            if keep[i] - free[i] < keep[k] - free[k] or (keep[i] - free[i] == keep[k] - free[k] and feed[i] < feed[k]):
                k = i
        return A.PLAY_TOPPINGS[k][1]

    # ------------------------------------------------------------------ step B
    def _order(self, seen: Seen, hand: list[int], orders: list[int], legal: list[Action], rules: _Rules) -> Action:
        counter, free = self._replay(seen, hand, rules)
        target = self._playable(orders, counter, free, rules, self._hope(seen, hand))[0]
        if target >= 0:
            # Minimale plans may rely on a topping play we can no longer make: check it directly.
            if _KIND[target] != MINIMALE or best_need(target, counter, free, rules)[0] < _INF:
                return A.PLAY_ORDER[target]
            for o in orders:
                if best_need(o, counter, free, rules)[0] < _INF:
                    return A.PLAY_ORDER[o]
        return A.NO_ORDER

    # ------------------------------------------------------------------ step C
    def _refill(self, orders: list[int], legal: list[Action], rules: _Rules) -> Action:
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
        self, order: int, counter: list[int], hand: list[int], orders: list[int], legal: list[Action]
    ) -> Action:
        keep = _keep(counter, hand, orders)
        best = legal[0]
        best_key: tuple[int, float, int] | None = None
        for a in legal:
            j = KIND_INDEX[a.kind]  # type: ignore[attr-defined]
            need = list(_NEED[order])
            need[j] += _EXTRA[order]
            ok = 0
            cost = 0.0
            for k in range(NK):
                short = need[k] - counter[k] if need[k] > counter[k] else 0
                if short > hand[k]:
                    ok = 1
                cost += short * (1.0 + keep[k])
            key = (ok, cost, -counter[j])
            if best_key is None or key < best_key:
                best, best_key = a, key
        return best

    def _top_up(self, hand: list[int], orders: list[int], legal: list[Action]) -> Action:
        completes = [a for a in legal if type(a) is A.CompleteFromHand]
        if not completes:
            return legal[0]
        if len(completes) == 1:
            return completes[0]
        keep = _keep([0] * NK, hand, orders)
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
