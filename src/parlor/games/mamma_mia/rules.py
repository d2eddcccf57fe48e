"""Mamma Mia! rules, in rulebook order (spec: ``docs/rules/mamma_mia.md``).

Setup (§3) -> rounds of phase 1, "filling the oven" (§4: a turn is step A toppings,
step B an order, step C refill) and phase 2, "opening the oven" (§5: reveal card by
card, check each order the moment it shows) -> between rounds (§6) -> winner (§7).

The state is kept lean because bots clone it thousands of times per move: toppings
are counted per kind (they are interchangeable), per-player sequences are tuples
(copy on write, so a clone copies only the outer lists) and every action the engine
offers is a prebuilt object.
"""

from __future__ import annotations

from typing import Any, Final

from parlor.core.actions import Action
from parlor.core.events import EventKind, RawEvent
from parlor.core.game import Result, State
from parlor.core.options import OptionError
from parlor.core.rng import AnyRng

from . import actions as A
from . import data
from .data import CARDS_PER_KIND, DECKS, REMOVED_PER_KIND, TOPPINGS_DEALT

# Every name the hot path reads is ``Final``: the compiled build keeps it in a C static (or
# inlines it), where a plain module global costs a dictionary lookup on every use. For the same
# reason a count in a list changes as ``x[i] = x[i] + n``: compiled, ``x[i] += n`` is a generic
# Python operation on boxed numbers.

# Steps and phases: where the game stands.
TOPPINGS: Final = 0  # phase 1, the three steps of a turn
ORDER: Final = 1
REFILL: Final = 2
JOKER: Final = 3  # phase 2, a decision of a revealed order's owner
RAREST: Final = 4
TOP_UP: Final = 5
OVER: Final = 6
STEP_NAMES: Final = ("toppings", "order", "refill", "joker", "rarest", "top_up", "over")

# The card data (data.py).
KINDS: Final = data.KINDS
NUM_KINDS: Final = data.NUM_KINDS
ORDERS: Final = data.ORDERS
HAND_LIMIT: Final = data.HAND_LIMIT
ROUNDS: Final = data.ROUNDS
MAMMA_MIA_CARD: Final = data.MAMMA_MIA_CARD
ORDER_BASE: Final = data.ORDER_BASE
BOMBASTICA: Final = data.BOMBASTICA
MONOTONI: Final = data.MONOTONI
MINIMALE: Final = data.MINIMALE
# Per order, the fields the hot path reads (an Order is a plain Python object: reading its
# attributes costs a lookup each in the compiled build).
ORDER_NAME: Final = tuple(o.name for o in ORDERS)
ORDER_DECK: Final = tuple(o.deck for o in ORDERS)
ORDER_KIND: Final = tuple(o.kind for o in ORDERS)

# The actions, all prebuilt (actions.py).
PlayToppings: Final = A.PlayToppings
PlayOrder: Final = A.PlayOrder
DrawCount: Final = A.DrawCount
Decline: Final = A.Decline
PLAY_TOPPINGS: Final = A.PLAY_TOPPINGS
SKIP_TOPPINGS: Final = A.SKIP_TOPPINGS
PLAY_ORDER: Final = A.PLAY_ORDER
NO_ORDER: Final = A.NO_ORDER
DRAW_COUNT: Final = A.DRAW_COUNT
CHOOSE_JOKER: Final = A.CHOOSE_JOKER
CHOOSE_RAREST: Final = A.CHOOSE_RAREST
COMPLETE: Final = A.COMPLETE
DECLINE: Final = A.DECLINE
BOMBASTICA_TOPUPS: Final = A.BOMBASTICA_TOPUPS

SUPPLY: Final = "supply"
WAITER: Final = "waiter"
# Typed as variable-length tuples: compiled, a fixed-length tuple type is kept as a C struct and
# a new tuple object is built each time one is returned.
_BOTH_SOURCES: Final[tuple[str, ...]] = (SUPPLY, WAITER)
_SUPPLY_ONLY: Final[tuple[str, ...]] = (SUPPLY,)
_WAITER_ONLY: Final[tuple[str, ...]] = (WAITER,)
# Legal lists are never changed in place (the engine hands out copies), so they can be shared.
_FILL_CHOICES: Final[dict[tuple[str, ...], list[Action]]] = {
    s: [A.DRAW[x] for x in s] for s in (_BOTH_SOURCES, _SUPPLY_ONLY, _WAITER_ONLY)
}


# Raw events (core/events.py: tuples, built into Events only when read), made here rather
# than by ``raw_public``/``raw_private`` so that the compiled build does not call out to
# pure Python for every event.
# The parameters have names no event field uses: the compiled build binds a keyword argument
# to a positional-only parameter of the same name instead of passing it on in ``data``.
def public(_event: str, /, **data: Any) -> RawEvent:
    return (_event, data, None)


def private(_seat: int, _event: str, /, **data: Any) -> RawEvent:
    return (_event, data, _seat)


# The events of the playout path, their data given as tuples (core/events.py, EventKind): a dict
# per event costs several times as much to build and free, and a playout never reads them.
TOPPINGS_PLAYED: Final = EventKind("toppings_played", "seat", "kind", "count")
TOPPINGS_SKIPPED: Final = EventKind("toppings_skipped", "seat")
ORDER_PLAYED: Final = EventKind("order_played", "seat", "order")
DREW: Final = EventKind("drew", "seat", "source", "count")
DREW_KNOWN: Final = EventKind("drew", "seat", "source", "count", "known")  # from the waiter
DREW_CARDS: Final = EventKind("drew_cards", "seat", "toppings", "orders")
MAMMA_MIA_DRAWN: Final = EventKind("mamma_mia_drawn", "seat")
TOPPINGS_REVEALED: Final = EventKind("toppings_revealed", "kind", "count", "on_counter")
ORDER_REVEALED: Final = EventKind("order_revealed", "seat", "order")
ORDER_COMPLETED: Final = EventKind("order_completed", "seat", "order", "used", "from_hand")
ORDER_FAILED: Final = EventKind("order_failed", "seat", "order")


def topping_choices(counts: list[int], may_skip: bool) -> list[Action]:
    """Step A's options (§4.1): any number of cards of one kind in hand, or (Czech rules) none."""
    legal: list[Action] = []
    for k in range(NUM_KINDS):
        n = counts[k]
        if n:
            legal.extend(PLAY_TOPPINGS[k][1 : n + 1])
    if may_skip:
        legal.append(SKIP_TOPPINGS)
    return legal


# (hand counts, skip rule) key -> topping_choices(...), filled as hands come up.
_TOPPING_CHOICES: Final[dict[int, list[Action]]] = {}


def order_choices(hand_orders: tuple[int, ...]) -> list[Action]:
    """Step B's options (§4.2): one of the orders in hand (in order-id order), or none."""
    legal: list[Action] = [PLAY_ORDER[o] for o in sorted(hand_orders)]
    legal.append(NO_ORDER)
    return legal


# The orders in hand, as a bitmask -> order_choices(...), filled as hands come up.
_ORDER_CHOICES: Final[dict[int, list[Action]]] = {}


def counts_json(counts: Any) -> dict[str, int]:
    """``[0, 2, 0, 1, 0]`` -> ``{"pineapple": 2, "pepper": 1}``."""
    out: dict[str, int] = {}
    for k in range(NUM_KINDS):
        n: int = counts[k]
        if n:
            out[KINDS[k]] = n
    return out


class MammaMiaState(State):
    __slots__ = (
        "round",
        "step",
        "active",
        "start_player",
        "decks",
        "hand_toppings",
        "n_toppings",
        "hand_orders",
        "known_hand_orders",
        "waiters",
        "waiter_known",
        "completed",
        "supply",
        "holder",
        "oven",
        "leftovers",
        "played_toppings",
        "quiet_turns",
        "turn_active",
        "counter",
        "used",
        "reveal",
        "opener",
        "pending",
        "need",
        "box",
        "boxed_orders",
        "turns",
    )

    round: int
    step: int
    active: int
    start_player: int
    decks: tuple[int, ...]  # seat -> deck index (DECKS)
    hand_toppings: list[int]  # flat: seat * 5 + kind -> count
    n_toppings: list[int]  # seat -> topping cards in hand (kept in step with hand_toppings)
    hand_orders: list[tuple[int, ...]]  # seat -> orders in hand
    known_hand_orders: list[tuple[int, ...]]  # seat -> orders in hand that everyone can name
    waiters: list[tuple[int, ...]]  # seat -> orders, top first
    waiter_known: list[int]  # seat -> how many bottom cards of the waiter are public (returned orders)
    completed: list[tuple[int, ...]]
    supply: list[int]  # cards, top = last
    holder: int  # seat holding the Mamma Mia! card, -1 if it is in the supply
    oven: list[tuple[int, int, int]]  # plays, bottom first: (seat, card, count); leftovers have seat -1
    leftovers: tuple[int, ...]  # the leftover block at the oven's bottom, per kind
    played_toppings: bool  # did the active player put toppings in the oven this turn?
    quiet_turns: int  # consecutive turns in which nobody played or drew (deadlock guard)
    turn_active: bool  # did the current turn play or draw anything?
    counter: list[int]  # phase 2: revealed toppings not yet used, per kind
    used: list[int]  # toppings consumed by completed orders this round, per kind
    reveal: int  # phase 2: index of the next oven card to reveal
    opener: int  # who opens the oven this round (-1 in phase 1)
    pending: int  # phase 2: the order awaiting its owner's decision, -1 if none
    need: tuple[int, ...]  # phase 2: that order's requirement once fixed
    box: tuple[int, ...]  # toppings out of play, per kind
    boxed_orders: tuple[int, ...]  # orders out of play (scenarios only)
    turns: int  # turns played in the game (statistics)

    # ------------------------------------------------------------------ cloning
    def clone(self) -> "MammaMiaState":
        c = MammaMiaState.__new__(MammaMiaState)
        self._copy_base_into(c)
        c.round = self.round
        c.step = self.step
        c.active = self.active
        c.start_player = self.start_player
        c.decks = self.decks
        c.hand_toppings = self.hand_toppings[:]
        c.n_toppings = self.n_toppings[:]
        c.hand_orders = self.hand_orders[:]
        c.known_hand_orders = self.known_hand_orders[:]
        c.waiters = self.waiters[:]
        c.waiter_known = self.waiter_known[:]
        c.completed = self.completed[:]
        c.supply = self.supply[:]
        c.holder = self.holder
        c.oven = self.oven[:]
        c.leftovers = self.leftovers
        c.played_toppings = self.played_toppings
        c.quiet_turns = self.quiet_turns
        c.turn_active = self.turn_active
        c.counter = self.counter[:]
        c.used = self.used[:]
        c.reveal = self.reveal
        c.opener = self.opener
        c.pending = self.pending
        c.need = self.need
        c.box = self.box
        c.boxed_orders = self.boxed_orders
        c.turns = self.turns
        return c

    # ------------------------------------------------------------------ small helpers
    def toppings_of(self, seat: int) -> list[int]:
        base = seat * NUM_KINDS
        return self.hand_toppings[base : base + NUM_KINDS]

    def topping_count(self, seat: int) -> int:
        return self.n_toppings[seat]

    def hand_size(self, seat: int) -> int:
        return self.n_toppings[seat] + len(self.hand_orders[seat])

    def recount_toppings(self) -> None:
        h = self.hand_toppings
        self.n_toppings = [sum(h[p * NUM_KINDS : (p + 1) * NUM_KINDS]) for p in range(self.players)]

    def oven_size(self) -> int:
        return sum(entry[2] for entry in self.oven[self.reveal if self.opener >= 0 else 0 :])

    def own_topping(self, seat: int) -> int:
        return DECKS[self.decks[seat]].own

    def owner_of(self, order: int) -> int:
        deck = ORDER_DECK[order]
        decks = self.decks
        for seat in range(len(decks)):
            if decks[seat] == deck:
                return seat
        raise ValueError(f"no seat plays deck {deck}")

    # ================================================================== phase 1: a turn
    def start_turn(self, events: list[RawEvent]) -> None:
        self.step = TOPPINGS
        self.played_toppings = False
        self.turn_active = False
        self.turns += 1
        self.proceed(events)

    def proceed(self, events: list[RawEvent]) -> None:
        """Move on to the next step that asks the active player something.

        Steps without a choice are passed over: no topping to play, no order that may be
        played, a full hand or two empty sources. A turn with nothing left to ask ends.
        """
        seat = self.active
        if self.step == TOPPINGS:
            if self.topping_count(seat):
                self.to_move = (seat,)
                return
            self.step = ORDER
        if self.step == ORDER:
            if self.hand_orders[seat] and (self.played_toppings or not self.options.recipe_requires_topping_play):
                self.to_move = (seat,)
                return
            self.step = REFILL
        if self.refill_sources(seat):
            self.to_move = (seat,)
            return
        self.end_turn(events)

    # ---- step A: put toppings in the oven (§4.1)
    def put_toppings_in_oven(self, seat: int, kind: int, count: int) -> list[RawEvent]:
        slot = seat * NUM_KINDS + kind
        self.hand_toppings[slot] = self.hand_toppings[slot] - count
        self.n_toppings[seat] = self.n_toppings[seat] - count
        self.oven.append((seat, kind, count))
        self.played_toppings = True
        self.turn_active = True
        self.step = ORDER
        return [(TOPPINGS_PLAYED, (seat, KINDS[kind], count), None)]

    def skip_toppings(self, seat: int) -> list[RawEvent]:
        self.step = ORDER
        return [(TOPPINGS_SKIPPED, (seat,), None)]

    # ---- step B: put an order in the oven (§4.2)
    def put_order_in_oven(self, seat: int, order: int) -> list[RawEvent]:
        hand = list(self.hand_orders[seat])
        hand.remove(order)
        self.hand_orders[seat] = tuple(hand)
        known = self.known_hand_orders[seat]
        if order in known:
            known_list = list(known)
            known_list.remove(order)
            self.known_hand_orders[seat] = tuple(known_list)
        self.oven.append((seat, ORDER_BASE + order, 1))
        self.turn_active = True
        self.step = REFILL
        return [(ORDER_PLAYED, (seat, ORDER_NAME[order]), None)]

    # ---- step C: refill (§4.3, §4.4)
    def refill_sources(self, seat: int) -> tuple[str, ...]:
        """The sources the player may choose now (empty: the step is passed over)."""
        if self.n_toppings[seat] + len(self.hand_orders[seat]) >= HAND_LIMIT:
            return ()
        if self.supply:
            if self.waiters[seat] or self.options.allow_empty_source_choice:
                return _BOTH_SOURCES
            return _SUPPLY_ONLY
        if self.waiters[seat]:
            return _BOTH_SOURCES if self.options.allow_empty_source_choice else _WAITER_ONLY
        return ()

    def refill(self, seat: int, source: str, count: int | None) -> list[RawEvent]:
        """Draw from one source: up to 7 cards (``count=None``) or exactly ``count``."""
        wanted = HAND_LIMIT - self.hand_size(seat) if count is None else count
        events: list[RawEvent] = []
        turn = self.turns
        if source == SUPPLY:
            drawn = self.draw_from_supply(seat, wanted, events)
        else:
            drawn = self.draw_from_waiter(seat, wanted, events)
        if drawn:
            self.turn_active = True
        if self.step == REFILL and self.turns == turn:  # the supply's last card ends the turn itself
            self.end_turn(events)
        return events

    def draw_from_supply(self, seat: int, wanted: int, events: list[RawEvent]) -> int:
        supply = self.supply
        drawn = [0] * NUM_KINDS
        got = 0
        met_mamma_mia = False
        while got < wanted and supply:
            card = supply.pop()
            if card == MAMMA_MIA_CARD:
                # Laid face up in front of the drawer; the draw goes on as if it were not there.
                self.holder = seat
                met_mamma_mia = True
                continue
            drawn[card] = drawn[card] + 1
            got += 1
        base = seat * NUM_KINDS
        for k in range(NUM_KINDS):
            if drawn[k]:
                self.hand_toppings[base + k] = self.hand_toppings[base + k] + drawn[k]
        self.n_toppings[seat] = self.n_toppings[seat] + got
        events.append((DREW, (seat, SUPPLY, got), None))
        if got:
            events.append((DREW_CARDS, (seat, counts_json(drawn), []), seat))
        if met_mamma_mia:
            self.turn_active = True
            events.append((MAMMA_MIA_DRAWN, (seat,), None))
        if not supply:
            # §4.5: phase 1 ends the moment the supply's last card is drawn.
            self.end_phase_one("supply_empty", events)
        return got + met_mamma_mia

    def draw_from_waiter(self, seat: int, wanted: int, events: list[RawEvent]) -> int:
        waiter = self.waiters[seat]
        taken, rest = waiter[:wanted], waiter[wanted:]
        self.waiters[seat] = rest
        # Cards drawn from the publicly returned bottom part are known to everyone.
        unknown = len(waiter) - self.waiter_known[seat]
        known_taken = taken[unknown:] if len(taken) > unknown else ()
        if known_taken:
            self.waiter_known[seat] = self.waiter_known[seat] - len(known_taken)
            self.known_hand_orders[seat] = self.known_hand_orders[seat] + known_taken
        self.hand_orders[seat] = self.hand_orders[seat] + taken
        events.append((DREW_KNOWN, (seat, WAITER, len(taken), [ORDER_NAME[o] for o in known_taken]), None))
        if taken:
            events.append((DREW_CARDS, (seat, {}, [ORDER_NAME[o] for o in taken]), seat))
        return len(taken)

    def end_turn(self, events: list[RawEvent]) -> None:
        # §4.6 deadlock guard: a full lap of turns in which nobody played or drew ends phase 1.
        self.quiet_turns = 0 if self.turn_active else self.quiet_turns + 1
        if self.quiet_turns >= self.players:
            self.end_phase_one("deadlock", events)
            return
        self.active = (self.active + 1) % self.players
        self.start_turn(events)

    def end_phase_one(self, reason: str, events: list[RawEvent]) -> None:
        self.opener = self.holder if self.holder >= 0 else self.start_player
        events.append(public("phase_one_ended", reason=reason, opener=self.opener))
        self.open_the_oven(events)

    # ================================================================== phase 2 (§5)
    def open_the_oven(self, events: list[RawEvent]) -> None:
        self.counter = [0] * NUM_KINDS
        self.used = [0] * NUM_KINDS
        self.reveal = 0
        events.append(public("oven_opened", seat=self.opener, size=self.oven_size()))
        self.reveal_cards(events)

    def reveal_cards(self, events: list[RawEvent]) -> None:
        """Turn the oven over, first played first, until an owner must decide.

        Cards come up one at a time; a play of several toppings of one kind is reported as
        one event, since nothing can happen between its cards.
        """
        oven = self.oven
        counter = self.counter
        while self.reveal < len(oven):
            _, card, count = oven[self.reveal]
            self.reveal += 1
            if card < NUM_KINDS:
                counter[card] = counter[card] + count
                events.append((TOPPINGS_REVEALED, (KINDS[card], count, counter[card]), None))
                continue
            order = card - ORDER_BASE
            events.append((ORDER_REVEALED, (self.owner_of(order), ORDER_NAME[order]), None))
            if self.check_order(order, events):
                return
        self.end_round(events)

    def ask(self, order: int, step: int) -> bool:
        self.pending = order
        self.step = step
        self.to_move = (self.owner_of(order),)
        return True

    def check_order(self, order: int, events: list[RawEvent]) -> bool:
        """Check a just-revealed order; True if its owner must now decide something."""
        kind = ORDER_KIND[order]
        self.need = ()  # fixed below, once the requirement is known
        if kind == BOMBASTICA:
            return self.check_bombastica(order, events)
        if kind == MONOTONI:
            return self.ask(order, JOKER)
        if kind == MINIMALE:
            return self.check_minimale(order, events)
        return self.settle(order, ORDERS[order].need, events)

    def settle(self, order: int, need: tuple[int, ...], events: list[RawEvent]) -> bool:
        """§5.2: complete, or offer the owner a top-up, or fail."""
        self.need = need
        counter = self.counter
        missing = 0  # cards short of the requirement, over all kinds
        for k in range(NUM_KINDS):
            if need[k] > counter[k]:
                missing += need[k] - counter[k]
        if not missing:
            if self.options.owner_may_decline_when_table_suffices:
                return self.ask(order, TOP_UP)
            self.complete_order(order, need, (0,) * NUM_KINDS, events)
            return False
        # Whether the owner is asked must not give their hand away: everyone can count the
        # topping cards in a hand (the backs differ), nobody else knows their kinds. So the
        # owner is asked whenever they hold enough cards, even if the kinds do not fit and
        # declining is all they can do.
        if self.n_toppings[self.owner_of(order)] >= missing:
            return self.ask(order, TOP_UP)
        self.fail_order(order, events)
        return False

    # ---- Pizza Bombastica (§5.4)
    def check_bombastica(self, order: int, events: list[RawEvent]) -> bool:
        on_counter = sum(self.counter)
        if on_counter >= ORDERS[order].min_total:
            if self.options.owner_may_decline_when_table_suffices:
                return self.ask(order, TOP_UP)
            self.complete_bombastica(order, (0,) * NUM_KINDS, events)
            return False
        missing = ORDERS[order].min_total - on_counter
        if self.options.bombastica_hand_topup and self.topping_count(self.owner_of(order)) >= missing:
            self.need = ()
            return self.ask(order, TOP_UP)
        self.fail_order(order, events)
        return False

    def complete_bombastica(self, order: int, from_hand: tuple[int, ...], events: list[RawEvent]) -> None:
        owner = self.owner_of(order)
        took = [self.counter[k] + from_hand[k] for k in range(NUM_KINDS)]
        base = owner * NUM_KINDS
        for k in range(NUM_KINDS):
            self.hand_toppings[base + k] = self.hand_toppings[base + k] - from_hand[k]
            self.used[k] = self.used[k] + took[k]
            self.counter[k] = 0
        self.n_toppings[owner] = self.n_toppings[owner] - sum(from_hand)
        self.completed[owner] = self.completed[owner] + (order,)
        events.append((ORDER_COMPLETED, (owner, ORDER_NAME[order], counts_json(took), counts_json(from_hand)), None))

    # ---- Pizza Monotoni (§5.5)
    def joker_choices(self, order: int) -> list[int]:
        own = ORDERS[order].own
        kinds = [k for k in range(NUM_KINDS) if k != own]
        if self.options.monotoni_joker == "table_first":
            count = ORDERS[order].joker_count
            covered = [k for k in kinds if self.counter[k] >= count and self.counter[own] >= 1]
            if covered:
                return covered
        return kinds

    def monotoni_need(self, order: int, joker: int) -> tuple[int, ...]:
        card = ORDERS[order]
        need = list(card.need)
        need[joker] = need[joker] + card.joker_count
        return tuple(need)

    # ---- Pizza Minimale (§5.6)
    def minimale_candidates(self, order: int) -> list[int]:
        """The kinds that may be the '?' kind: the rarest face-up kinds (ties all listed)."""
        own = ORDERS[order].own
        counter = self.counter
        present = [
            k for k in range(NUM_KINDS) if counter[k] > 0 and not (k == own and self.options.minimale_excludes_pictured)
        ]
        if not present:
            if self.options.minimale_when_no_candidate == "any_kind":
                return [k for k in range(NUM_KINDS) if k != own]
            return []
        fewest = min(counter[k] for k in present)
        return [k for k in present if counter[k] == fewest]

    def minimale_need(self, order: int, rarest: int) -> tuple[int, ...]:
        card = ORDERS[order]
        need = list(card.need)
        need[rarest] = need[rarest] + card.rarest_count
        return tuple(need)

    def check_minimale(self, order: int, events: list[RawEvent]) -> bool:
        candidates = self.minimale_candidates(order)
        if not candidates:
            self.fail_order(order, events)
            return False
        if len(candidates) > 1:
            return self.ask(order, RAREST)
        events.append(
            public("rarest_kind", seat=self.owner_of(order), order=ORDER_NAME[order], kind=KINDS[candidates[0]])
        )
        return self.settle(order, self.minimale_need(order, candidates[0]), events)

    # ---- the outcome of a check
    def complete_order(
        self, order: int, need: tuple[int, ...], from_hand: tuple[int, ...], events: list[RawEvent]
    ) -> None:
        """The counter's cards are used first; the hand adds only the difference (§5.2.3)."""
        owner = self.owner_of(order)
        base = owner * NUM_KINDS
        for k in range(NUM_KINDS):
            if need[k]:
                self.counter[k] = self.counter[k] - (need[k] - from_hand[k])
                self.hand_toppings[base + k] = self.hand_toppings[base + k] - from_hand[k]
                self.used[k] = self.used[k] + need[k]
        self.n_toppings[owner] = self.n_toppings[owner] - sum(from_hand)
        self.completed[owner] = self.completed[owner] + (order,)
        events.append((ORDER_COMPLETED, (owner, ORDER_NAME[order], counts_json(need), counts_json(from_hand)), None))

    def fail_order(self, order: int, events: list[RawEvent]) -> None:
        """A failed order goes face down to the bottom of its owner's waiter, in view of all."""
        owner = self.owner_of(order)
        self.waiters[owner] = self.waiters[owner] + (order,)
        self.waiter_known[owner] = self.waiter_known[owner] + 1
        events.append((ORDER_FAILED, (owner, ORDER_NAME[order]), None))

    def shortfall(self) -> tuple[int, ...]:
        need, counter = self.need, self.counter
        return tuple(need[k] - counter[k] if need[k] > counter[k] else 0 for k in range(NUM_KINDS))

    def resume_reveal(self, events: list[RawEvent]) -> None:
        self.pending = -1
        self.need = ()
        self.reveal_cards(events)

    # ================================================================== between rounds (§6)
    def end_round(self, events: list[RawEvent]) -> None:
        self.pending = -1
        leftovers = tuple(self.counter)
        events.append(
            public("round_ended", round=self.round, leftovers=counts_json(leftovers), used=counts_json(self.used))
        )
        no_orders_left = not any(self.hand_orders) and not any(self.waiters)
        if self.round >= ROUNDS or (self.options.end_early_when_no_orders_left and no_orders_left):
            self.game_over(events)
            return
        # The used pile and the Mamma Mia! card (and, after a deadlock, the rest of the supply)
        # form the new supply; the leftovers become the bottom of the next oven.
        supply = self.supply
        for k in range(NUM_KINDS):
            supply.extend([k] * self.used[k])
        if self.holder >= 0:  # after a deadlock the card may still be in the supply
            supply.append(MAMMA_MIA_CARD)
        self.rng.shuffle(supply)
        self.oven = [(-1, k, leftovers[k]) for k in range(NUM_KINDS) if leftovers[k]]
        self.leftovers = leftovers
        self.counter = [0] * NUM_KINDS
        self.used = [0] * NUM_KINDS
        self.reveal = 0
        self.start_player = self.opener
        self.active = self.opener
        self.holder = -1
        self.opener = -1
        self.quiet_turns = 0
        self.round += 1
        events.append(public("round_started", round=self.round, start_player=self.start_player, supply=len(supply)))
        self.start_turn(events)

    def game_over(self, events: list[RawEvent]) -> None:
        self.step = OVER
        self.to_move = ()
        events.append(public("game_over", **self.result().to_json()))

    # ================================================================== the protocol
    def _forced_move_is_public(self, seat: int) -> bool:
        # A top-up offer with "decline" as the only choice must still be asked (see settle).
        return self.step != TOP_UP

    def _legal_actions(self, seat: int) -> list[Action]:
        step = self.step
        if step == TOPPINGS:
            # The list depends only on the hand's counts and the skip rule: one shared list
            # per (hand, rule), keyed by the counts as base-64 digits (a kind has 13 cards).
            base = seat * NUM_KINDS
            hand = self.hand_toppings
            key = 0
            for k in range(NUM_KINDS):
                key = key * 64 + hand[base + k]
            may_skip = not self.options.topping_play_required
            if may_skip:
                key = -1 - key
            legal = _TOPPING_CHOICES.get(key)
            if legal is None:
                legal = topping_choices(hand[base : base + NUM_KINDS], may_skip)
                _TOPPING_CHOICES[key] = legal
            return legal
        if step == ORDER:
            # The list depends only on which orders are in hand: one shared list per set
            # of orders, keyed by a bitmask over the order ids (0..39).
            hand_orders = self.hand_orders[seat]
            mask = 0
            for o in hand_orders:
                mask |= 1 << o
            legal = _ORDER_CHOICES.get(mask)
            if legal is None:
                legal = order_choices(hand_orders)
                _ORDER_CHOICES[mask] = legal
            return legal
        if step == REFILL:
            sources = self.refill_sources(seat)
            if self.options.refill_mode == "fill":
                return _FILL_CHOICES[sources] if sources else []
            gap = HAND_LIMIT - self.hand_size(seat)
            legal = []
            for s in sources:
                # Counted in cards, the Mamma Mia! card included while it is in the supply: asking
                # for one more than the toppings left draws the supply out, meeting the card on the
                # way and ending phase 1 (§4.4-4.5), e.g. [salami, Mamma Mia!] with room for 3.
                available = len(self.supply) if s == SUPPLY else len(self.waiters[seat])
                legal.extend(DRAW_COUNT[s][: min(gap, available) + 1])
            return legal
        if step == JOKER:
            return [CHOOSE_JOKER[k] for k in self.joker_choices(self.pending)]
        if step == RAREST:
            return [CHOOSE_RAREST[k] for k in self.minimale_candidates(self.pending)]
        if step == TOP_UP:
            if ORDER_KIND[self.pending] == BOMBASTICA:
                missing = ORDERS[self.pending].min_total - sum(self.counter)
                if missing <= 0:
                    legal = [COMPLETE]
                else:
                    hand = self.toppings_of(seat)
                    topups = BOMBASTICA_TOPUPS[missing]
                    legal = [a for v, a in topups if all(v[k] <= hand[k] for k in range(NUM_KINDS))]
            else:
                hand = self.toppings_of(seat)
                shortfall = self.shortfall()
                covered = all(hand[k] >= shortfall[k] for k in range(NUM_KINDS))
                legal = [COMPLETE] if covered else []
            legal.append(DECLINE)
            return legal
        return []

    def _apply(self, seat: int, action: Action) -> list[RawEvent]:
        step = self.step
        if step == TOPPINGS:
            if type(action) is PlayToppings:
                events = self.put_toppings_in_oven(seat, KIND_OF[action.kind], action.count)
            else:
                events = self.skip_toppings(seat)
            self.proceed(events)
            return events
        if step == ORDER:
            if type(action) is PlayOrder:
                events = self.put_order_in_oven(seat, ORDER_OF[action.order])
            else:
                events = []
                self.step = REFILL
            self.proceed(events)
            return events
        if step == REFILL:
            count = action.count if type(action) is DrawCount else None
            return self.refill(seat, action.source, count)  # type: ignore[attr-defined]
        events = []
        order = self.pending
        if step == JOKER:
            joker = KIND_OF[action.kind]  # type: ignore[attr-defined]
            events.append(public("joker_chosen", seat=seat, order=ORDER_NAME[order], kind=KINDS[joker]))
            if self.settle(order, self.monotoni_need(order, joker), events):
                return events
        elif step == RAREST:
            rarest = KIND_OF[action.kind]  # type: ignore[attr-defined]
            events.append(public("rarest_chosen", seat=seat, order=ORDER_NAME[order], kind=KINDS[rarest]))
            if self.settle(order, self.minimale_need(order, rarest), events):
                return events
        elif step == TOP_UP:
            if type(action) is Decline:
                events.append(public("order_declined", seat=seat, order=ORDER_NAME[order]))
                self.fail_order(order, events)
            elif ORDER_KIND[order] == BOMBASTICA:
                from_hand = [0] * NUM_KINDS
                for kind, n in action.toppings:  # type: ignore[attr-defined]
                    from_hand[KIND_OF[kind]] = n
                self.complete_bombastica(order, tuple(from_hand), events)
            else:
                self.complete_order(order, self.need, self.shortfall(), events)
        self.resume_reveal(events)
        return events

    # ------------------------------------------------------------------ the end (§7)
    def result(self) -> Result:
        scores = tuple(len(c) for c in self.completed)
        tiebreaks = tuple(self.topping_count(s) for s in range(self.players))
        return Result.rank(scores, tiebreaks)

    # ------------------------------------------------------------------ hidden information
    def _view(self, seat: int | None, recall: bool) -> dict[str, Any]:
        from .views import view

        return view(self, seat, recall)

    def _determinize(self, seat: int, rng: AnyRng) -> "MammaMiaState":
        """A full state ``seat`` cannot tell apart from this one (§8).

        Hidden: other hands, the supply's order and content, every waiter's shuffled part
        (its owner's included). Toppings are exchangeable between other hands and the
        supply; a player's unknown orders between their hand and their waiter's top part.
        """
        d = self.clone()
        d.rng = rng.fork()  # the future shuffles are unknown too
        d._legal = None
        d._history = None  # a sampled position has no real past
        # Every pool below is sorted before it is shuffled, so the sample depends only on
        # what the seat knows and on ``rng``, never on where the hidden cards really are.
        others = [p for p in range(self.players) if p != seat]
        # Toppings: everything no one has seen, redealt to the same hand sizes.
        pool: list[int] = []
        has_mamma_mia = MAMMA_MIA_CARD in d.supply
        pool.extend(c for c in d.supply if c != MAMMA_MIA_CARD)
        sizes = []
        for p in others:
            base = p * NUM_KINDS
            counts = d.hand_toppings[base : base + NUM_KINDS]
            sizes.append(sum(counts))
            for k in range(NUM_KINDS):
                pool.extend([k] * counts[k])
                d.hand_toppings[base + k] = 0
        pool.sort()
        rng.shuffle(pool)
        for p, size in zip(others, sizes):
            base = p * NUM_KINDS
            for card in pool[:size]:
                d.hand_toppings[base + card] = d.hand_toppings[base + card] + 1
            del pool[:size]
        if has_mamma_mia:
            pool.insert(rng.below(len(pool) + 1), MAMMA_MIA_CARD)
        d.supply = pool
        # Orders: each player's unknown orders shuffle between hand and the waiter's top part.
        for p in range(self.players):
            waiter = d.waiters[p]
            hidden_top = len(waiter) - d.waiter_known[p]
            known_bottom = waiter[hidden_top:]
            unknown = list(waiter[:hidden_top])
            if p == seat:
                unknown.sort()
                rng.shuffle(unknown)
                d.waiters[p] = tuple(unknown) + known_bottom
                continue
            hand = list(d.hand_orders[p])
            for o in d.known_hand_orders[p]:
                hand.remove(o)
            slots = len(hand)
            unknown.extend(hand)
            unknown.sort()
            rng.shuffle(unknown)
            d.hand_orders[p] = d.known_hand_orders[p] + tuple(unknown[:slots])
            d.waiters[p] = tuple(unknown[slots:]) + known_bottom
        return d

    # ------------------------------------------------------------------ persistence
    def _state_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "step": STEP_NAMES[self.step],
            "active": self.active,
            "start_player": self.start_player,
            "decks": list(self.decks),
            "hand_toppings": list(self.hand_toppings),
            "hand_orders": [list(h) for h in self.hand_orders],
            "known_hand_orders": [list(h) for h in self.known_hand_orders],
            "waiters": [list(w) for w in self.waiters],
            "waiter_known": list(self.waiter_known),
            "completed": [list(c) for c in self.completed],
            "supply": list(self.supply),
            "holder": self.holder,
            "oven": [list(p) for p in self.oven],
            "leftovers": list(self.leftovers),
            "played_toppings": self.played_toppings,
            "quiet_turns": self.quiet_turns,
            "turn_active": self.turn_active,
            "counter": list(self.counter),
            "used": list(self.used),
            "reveal": self.reveal,
            "opener": self.opener,
            "pending": self.pending,
            "need": list(self.need),
            "box": list(self.box),
            "boxed_orders": list(self.boxed_orders),
            "turns": self.turns,
        }


KIND_OF: Final[dict[str, int]] = {k: i for i, k in enumerate(KINDS)}
ORDER_OF: Final[dict[str, int]] = {o.name: o.index for o in ORDERS}


# ====================================================================== setup (§3)
def setup(state: MammaMiaState) -> None:
    """Deal a new game: decks, the removal by player count, 6 toppings each, the supply."""
    players, rng, options = state.players, state.rng, state.options
    state.decks = tuple(range(players))
    state.round = 1
    state.step = TOPPINGS
    state.box = (REMOVED_PER_KIND[players],) * NUM_KINDS
    state.boxed_orders = ()
    # 1. Each player shuffles their own colour deck: that is their waiter.
    state.waiters = []
    for seat in range(players):
        deck = list(DECKS[state.decks[seat]].orders)
        rng.shuffle(deck)
        state.waiters.append(tuple(deck))
    state.waiter_known = [0] * players
    # 2-3. Remove toppings by player count, shuffle the rest, deal 6 to each player.
    in_play = CARDS_PER_KIND - REMOVED_PER_KIND[players]
    toppings = [k for k in range(NUM_KINDS) for _ in range(in_play)]
    state.hand_toppings = [0] * (players * NUM_KINDS)
    state.n_toppings = [TOPPINGS_DEALT] * players
    state.holder = -1
    if options.mamma_mia_card_setup == "before_dealing":
        # The second zh rulebook: the card is in the deck being dealt; whoever is dealt it lays
        # it out face up and is dealt the next card instead.
        toppings.append(MAMMA_MIA_CARD)
        rng.shuffle(toppings)
        deck = toppings[::-1]  # dealt from the top (the end of the list)
        for seat in range(players):
            dealt = 0
            while dealt < TOPPINGS_DEALT:
                card = deck.pop()
                if card == MAMMA_MIA_CARD:
                    state.holder = seat
                    continue
                slot = seat * NUM_KINDS + card
                state.hand_toppings[slot] = state.hand_toppings[slot] + 1
                dealt += 1
        state.supply = deck  # what is left, top = last
    else:
        rng.shuffle(toppings)
        for seat in range(players):
            for card in toppings[seat * TOPPINGS_DEALT : (seat + 1) * TOPPINGS_DEALT]:
                slot = seat * NUM_KINDS + card
                state.hand_toppings[slot] = state.hand_toppings[slot] + 1
        # 4. Only now shuffle the Mamma Mia! card into the rest: nobody can start with it.
        supply = toppings[players * TOPPINGS_DEALT :]
        supply.append(MAMMA_MIA_CARD)
        rng.shuffle(supply)
        state.supply = supply
    # 5. Everyone draws the top order of their waiter.
    state.hand_orders = [w[:1] for w in state.waiters]
    state.waiters = [w[1:] for w in state.waiters]
    state.known_hand_orders = [()] * players
    state.completed = [()] * players
    # 6. The start player.
    if options.start_player == "random":
        state.start_player = rng.below(players)
    elif options.start_player < players:
        state.start_player = options.start_player
    else:
        raise OptionError(f"start_player is Seat {options.start_player + 1}, but there are only {players} seats")
    state.active = state.start_player
    init_round_fields(state)


def init_round_fields(state: MammaMiaState) -> None:
    state.oven = []
    state.leftovers = (0,) * NUM_KINDS
    state.played_toppings = False
    state.quiet_turns = 0
    state.turn_active = False
    state.counter = [0] * NUM_KINDS
    state.used = [0] * NUM_KINDS
    state.reveal = 0
    state.opener = -1
    state.pending = -1
    state.need = ()
    state.turns = 0
