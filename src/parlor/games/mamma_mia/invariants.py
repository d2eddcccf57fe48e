"""The invariants of spec §2, checked after every action by the tests and on every load."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .data import CARDS_PER_KIND, DECKS, HAND_LIMIT, MAMMA_MIA_CARD, NUM_KINDS, ORDER_BASE, ORDERS

if TYPE_CHECKING:
    from .rules import MammaMiaState


def check_invariants(state: "MammaMiaState") -> list[str]:
    """Every broken invariant, in words (empty when all hold)."""
    problems: list[str] = []
    players = state.players
    # Each kind: box + supply + hands + oven (unrevealed) + counter + used = 13.
    entries = state.oven[state.reveal :] if state.opener >= 0 else state.oven
    unrevealed = [card for _, card, n in entries for _ in range(n)]
    for k in range(NUM_KINDS):
        total = (
            state.box[k]
            + state.supply.count(k)
            + sum(state.hand_toppings[p * NUM_KINDS + k] for p in range(players))
            + unrevealed.count(k)
            + state.counter[k]
            + state.used[k]
        )
        if total != CARDS_PER_KIND:
            problems.append(f"topping {k}: {total} cards, expected {CARDS_PER_KIND}")
    if any(n < 0 for n in state.hand_toppings):
        problems.append("a negative topping count in a hand")
    # Each deck in play: waiter + hand + oven + completed (+ the order under check) = 8.
    for p in range(players):
        deck = DECKS[state.decks[p]]
        where = (
            list(state.waiters[p])
            + list(state.hand_orders[p])
            + [c - ORDER_BASE for c in unrevealed if c >= ORDER_BASE and ORDERS[c - ORDER_BASE].deck == deck.index]
            + list(state.completed[p])
            + [o for o in state.boxed_orders if ORDERS[o].deck == deck.index]
        )
        if state.pending >= 0 and ORDERS[state.pending].deck == deck.index:
            where.append(state.pending)
        if sorted(where) != sorted(deck.orders):
            problems.append(f"seat {p}: orders {sorted(where)} are not its deck {list(deck.orders)}")
        if state.hand_size(p) > HAND_LIMIT:
            problems.append(f"seat {p}: {state.hand_size(p)} cards in hand")
        if not 0 <= state.waiter_known[p] <= len(state.waiters[p]):
            problems.append(f"seat {p}: waiter_known out of range")
        if any(o not in state.hand_orders[p] for o in state.known_hand_orders[p]):
            problems.append(f"seat {p}: a known hand order is not in hand")
    # The Mamma Mia! card: in the supply or with exactly one holder.
    in_supply = state.supply.count(MAMMA_MIA_CARD)
    held = 1 if state.holder >= 0 else 0
    if state.step != 6 and in_supply + held != 1:  # after the game it is simply gone back
        problems.append(f"Mamma Mia! card: {in_supply} in supply, {held} held")
    if any(c >= ORDER_BASE + len(ORDERS) or NUM_KINDS <= c < ORDER_BASE for _, c, _ in state.oven):
        problems.append("an unknown card in the oven")
    if state.n_toppings != [sum(state.hand_toppings[p * NUM_KINDS : (p + 1) * NUM_KINDS]) for p in range(players)]:
        problems.append("n_toppings does not match the hands")
    return problems
