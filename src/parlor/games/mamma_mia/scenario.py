"""Scenarios: put a Mamma Mia! game in a given position from JSON.

For tests, puzzles and bug reports. Every key is optional::

    {
      "players": 2, "seed": 0, "options": {"refill_mode": "up_to"},
      "decks": ["pepper", "mushroom"],          # own topping per seat (default: seat order)
      "round": 1, "active": 0, "start_player": 0,
      "hands": [{"toppings": {"salami": 3}, "orders": ["green_four_salami"]}, ...],
      "waiters": [["green_mixed", "green_monotoni"], ...],   # top first
      "waiter_known": [0, 0],                   # bottom cards everyone saw returned
      "completed": [["green_four_olive"], []],
      "supply": ["olive", "mamma_mia", "salami"],             # top first; default: "rest"
      "mamma_mia_holder": null,
      "oven": ["salami", "salami", "green_four_salami"],      # bottom first
      "leftovers": {"salami": 1},                # round 2+: the bottom block of the oven
      "phase": "turn" | "oven",                  # "oven": open it now (phase 2)
      "counter": {"pepper": 4},                  # phase 2: toppings already face up
      "opener": 0
    }

Cards not placed anywhere are out of play (in the box), so a scenario only has to name
what matters. ``"supply": "rest"`` (the default) shuffles every in-play topping not
placed elsewhere into the supply, with the Mamma Mia! card unless someone holds it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parlor.core.errors import ScenarioError
from parlor.core.events import RawEvent

from .data import (
    CARDS_PER_KIND,
    DECK_BY_OWN,
    KIND_INDEX,
    KINDS,
    MAMMA_MIA_CARD,
    NUM_KINDS,
    ORDER_BASE,
    ORDER_INDEX,
    ORDERS,
    REMOVED_PER_KIND,
)
from .rules import TOPPINGS, MammaMiaState, init_round_fields

_KEYS = {
    "players", "seed", "options", "decks", "round", "active", "start_player", "hands", "waiters",
    "waiter_known", "completed", "supply", "mamma_mia_holder", "oven", "leftovers", "phase", "counter", "opener",
}  # fmt: skip


def _kind(name: Any, where: str) -> int:
    if name not in KIND_INDEX:
        raise ScenarioError(f"{where}: unknown topping {name!r}; toppings are {', '.join(KIND_INDEX)}")
    return KIND_INDEX[name]


def _counts(data: Any, where: str) -> list[int]:
    if data is None:
        return [0] * NUM_KINDS
    if not isinstance(data, Mapping):
        raise ScenarioError(f"{where}: expected {{topping: count}}, got {data!r}")
    out = [0] * NUM_KINDS
    for name, n in data.items():
        if type(n) is not int or n < 0:
            raise ScenarioError(f"{where}: count of {name!r} must be a non-negative integer, got {n!r}")
        out[_kind(name, where)] = n
    return out


def _card(name: Any, where: str) -> int:
    if name == "mamma_mia":
        return MAMMA_MIA_CARD
    if name in KIND_INDEX:
        return KIND_INDEX[name]
    if name in ORDER_INDEX:
        return ORDER_BASE + ORDER_INDEX[name]
    raise ScenarioError(f"{where}: unknown card {name!r}")


def _seat_list(data: Any, players: int, where: str) -> list[Any]:
    if data is None:
        return [None] * players
    if not isinstance(data, list) or len(data) != players:
        raise ScenarioError(f"{where}: expected a list with one entry per seat ({players})")
    return data


def _seat(value: Any, players: int, where: str) -> int:
    if type(value) is not int or not 0 <= value < players:
        raise ScenarioError(f"{where}: expected a seat 0..{players - 1}, got {value!r}")
    return value


def build(game: Any, data: Mapping[str, Any]) -> MammaMiaState:
    players, options, seed = game.scenario_basics(data, _KEYS, default_players=2)
    state = game._new_state(players, seed, options, deal=False)
    init_round_fields(state)

    # Decks: which colour (own topping) each seat plays.
    decks = data.get("decks")
    if decks is None:
        state.decks = tuple(range(players))
    else:
        owns = [_kind(d, "decks") for d in _seat_list(decks, players, "decks")]
        if len(set(owns)) != players:
            raise ScenarioError("decks: two seats cannot play the same deck")
        state.decks = tuple(DECK_BY_OWN[k].index for k in owns)

    placed_toppings = [0] * NUM_KINDS
    placed_orders: set[int] = set()

    def take_order(name: Any, seat: int, where: str) -> int:
        if name not in ORDER_INDEX:
            raise ScenarioError(f"{where}: unknown order {name!r}")
        o = ORDER_INDEX[name]
        if ORDERS[o].deck != state.decks[seat]:
            raise ScenarioError(f"{where}: {name} is not in seat {seat}'s deck")
        if o in placed_orders:
            raise ScenarioError(f"{where}: {name} is placed twice")
        placed_orders.add(o)
        return o

    state.hand_toppings = [0] * (players * NUM_KINDS)
    state.hand_orders = []
    for seat, hand in enumerate(_seat_list(data.get("hands"), players, "hands")):
        hand = hand or {}
        if not isinstance(hand, Mapping):
            raise ScenarioError(f"hands[{seat}]: expected an object with toppings and orders")
        extra = sorted(set(hand) - {"toppings", "orders"})
        if extra:
            raise ScenarioError(f"hands[{seat}]: unknown key(s) {', '.join(map(str, extra))}")
        counts = _counts(hand.get("toppings"), f"hands[{seat}].toppings")
        for k in range(NUM_KINDS):
            state.hand_toppings[seat * NUM_KINDS + k] = counts[k]
            placed_toppings[k] += counts[k]
        orders = tuple(take_order(o, seat, f"hands[{seat}].orders") for o in hand.get("orders", []))
        state.hand_orders.append(orders)
        if sum(counts) + len(orders) > 7:
            raise ScenarioError(f"hands[{seat}]: more than 7 cards")
    state.known_hand_orders = [()] * players
    state.recount_toppings()
    state.waiters = [
        tuple(take_order(o, s, f"waiters[{s}]") for o in (w or []))
        for s, w in enumerate(_seat_list(data.get("waiters"), players, "waiters"))
    ]
    known = data.get("waiter_known") or [0] * players
    state.waiter_known = list(_seat_list(known, players, "waiter_known"))
    if any(type(k) is not int for k in state.waiter_known):
        raise ScenarioError(f"waiter_known: expected one integer per seat, got {known!r}")
    for s in range(players):
        if not 0 <= state.waiter_known[s] <= len(state.waiters[s]):
            raise ScenarioError(f"waiter_known[{s}] is larger than the waiter")
    state.completed = [
        tuple(take_order(o, s, f"completed[{s}]") for o in (c or []))
        for s, c in enumerate(_seat_list(data.get("completed"), players, "completed"))
    ]

    leftovers = _counts(data.get("leftovers"), "leftovers")
    oven = [(-1, k, leftovers[k]) for k in range(NUM_KINDS) if leftovers[k]]
    for i, name in enumerate(data.get("oven") or []):
        card = _card(name, f"oven[{i}]")
        if card == MAMMA_MIA_CARD:
            raise ScenarioError(f"oven[{i}]: the Mamma Mia! card never goes in the oven")
        if card >= ORDER_BASE:
            deck = ORDERS[card - ORDER_BASE].deck
            if deck not in state.decks:
                raise ScenarioError(f"oven[{i}]: {name} belongs to a deck nobody plays")
            take_order(name, state.decks.index(deck), f"oven[{i}]")
            oven.append((state.decks.index(deck), card, 1))
        else:
            oven.append((-1, card, 1))
    for _, card, n in oven:
        if card < NUM_KINDS:
            placed_toppings[card] += n
    state.oven = oven
    state.leftovers = tuple(leftovers)
    counter = _counts(data.get("counter"), "counter")
    for k in range(NUM_KINDS):
        placed_toppings[k] += counter[k]

    holder = data.get("mamma_mia_holder")
    state.holder = -1 if holder is None else _seat(holder, players, "mamma_mia_holder")

    supply_data = data.get("supply", "rest")
    if supply_data == "rest":
        in_play = CARDS_PER_KIND - REMOVED_PER_KIND[players]
        supply = []
        for k in range(NUM_KINDS):
            spare = in_play - placed_toppings[k]
            supply.extend([k] * max(0, spare))
        if state.holder < 0:
            supply.append(MAMMA_MIA_CARD)
        state.rng.shuffle(supply)
    elif isinstance(supply_data, list):
        supply = [_card(c, f"supply[{i}]") for i, c in enumerate(supply_data)][::-1]  # top = end
        if any(c >= ORDER_BASE for c in supply):
            raise ScenarioError("supply: only toppings and the Mamma Mia! card go in the supply")
        if supply.count(MAMMA_MIA_CARD) > 1:
            raise ScenarioError("supply: there is only one Mamma Mia! card")
        if MAMMA_MIA_CARD in supply and state.holder >= 0:
            raise ScenarioError("supply: the Mamma Mia! card cannot be in the supply and held at once")
    else:
        raise ScenarioError('supply: expected a list of cards (top first) or "rest"')
    state.supply = supply
    for card in supply:
        if card < NUM_KINDS:
            placed_toppings[card] += 1
    over = [KINDS[k] for k in range(NUM_KINDS) if placed_toppings[k] > CARDS_PER_KIND]
    if over:
        raise ScenarioError(f"more than {CARDS_PER_KIND} cards of {', '.join(over)} placed")
    state.box = tuple(CARDS_PER_KIND - placed_toppings[k] for k in range(NUM_KINDS))
    state.boxed_orders = tuple(
        o for d in state.decks for o in range(len(ORDERS)) if ORDERS[o].deck == d and o not in placed_orders
    )

    state.round = data.get("round", 1)
    if type(state.round) is not int or not 1 <= state.round <= 3:
        raise ScenarioError(f"round must be 1, 2 or 3, got {state.round!r}")
    state.start_player = _seat(data.get("start_player", 0), players, "start_player")
    state.active = _seat(data.get("active", state.start_player), players, "active")
    events: list[RawEvent] = []
    phase = data.get("phase", "turn")
    if phase == "turn":
        if any(counter):
            raise ScenarioError("counter: only phase 2 ('phase': 'oven') has a counter")
        state.step = TOPPINGS
        state.played_toppings = False
        state.turn_active = False
        state.proceed(events)
    elif phase == "oven":
        state.opener = _seat(data.get("opener", state.holder if state.holder >= 0 else state.start_player),
                             players, "opener")  # fmt: skip
        state.counter = counter
        state.used = [0] * NUM_KINDS
        state.reveal = 0
        state.reveal_cards(events)
    else:
        raise ScenarioError(f"phase must be 'turn' or 'oven', got {phase!r}")
    state._settle()
    return state
