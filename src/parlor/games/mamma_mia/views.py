"""What a seat may see (spec §8). The only place that turns a Mamma Mia! state into
something a player, a spectator, a bot or a UI receives.

Public: every play into the oven (but the physical oven shows only its top card and
height), draw sources and counts, the Mamma Mia! holder, everything in phase 2, the
leftovers, completed orders, the number of topping and order cards in each hand (the
backs differ), waiter sizes and their publicly returned bottom part.
Private: a hand's contents (to its owner), the cards drawn (to the drawer).
Nobody: the supply's order and content, the shuffled part of every waiter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .data import DECKS, KINDS, MAMMA_MIA_CARD, NUM_KINDS, ORDER_BASE, ORDERS

if TYPE_CHECKING:
    from .rules import MammaMiaState


def card_json(card: int) -> dict[str, Any]:
    if card < NUM_KINDS:
        return {"type": "topping", "kind": KINDS[card]}
    if card == MAMMA_MIA_CARD:
        return {"type": "mamma_mia"}
    return {"type": "order", "order": ORDERS[card - ORDER_BASE].name}


def _counts(counts: Any) -> dict[str, int]:
    return {KINDS[k]: n for k, n in enumerate(counts) if n}


def _player(state: "MammaMiaState", p: int, seat: int | None) -> dict[str, Any]:
    deck = DECKS[state.decks[p]]
    waiter = state.waiters[p]
    known = state.waiter_known[p]
    out: dict[str, Any] = {
        "seat": p,
        "deck": deck.colour,
        "own_topping": KINDS[deck.own],
        "toppings_in_hand": state.topping_count(p),
        "orders_in_hand": len(state.hand_orders[p]),
        "known_orders_in_hand": [ORDERS[o].name for o in state.known_hand_orders[p]],
        "waiter_size": len(waiter),
        # Failed orders went to the bottom in view of everyone, in this order (bottom last).
        "waiter_known_bottom": [ORDERS[o].name for o in waiter[len(waiter) - known :]] if known else [],
        "completed": [ORDERS[o].name for o in state.completed[p]],
        "score": len(state.completed[p]),
        "has_mamma_mia": state.holder == p,
    }
    if seat == p:
        out["hand"] = {
            "toppings": _counts(state.toppings_of(p)),
            "orders": [ORDERS[o].name for o in sorted(state.hand_orders[p])],
        }
    return out


def _pending(state: "MammaMiaState") -> dict[str, Any] | None:
    from .rules import STEP_NAMES

    if state.pending < 0:
        return None
    order = ORDERS[state.pending]
    out: dict[str, Any] = {
        "order": order.name,
        "owner": state.owner_of(state.pending),
        "decision": STEP_NAMES[state.step],
    }
    if state.need:
        out["requirement"] = _counts(state.need)
        out["shortfall"] = _counts(state.shortfall())
    elif order.kind_name == "bombastica":
        out["requirement"] = {"any": order.min_total}
        out["shortfall"] = {"any": max(0, order.min_total - sum(state.counter))}
    return out


def view(state: "MammaMiaState", seat: int | None, recall: bool = False) -> dict[str, Any]:
    """What ``seat`` sees now; ``recall=True`` adds what it could remember from public events
    (this round's oven plays and the leftovers), as a bot with perfect recall would."""
    from .rules import JOKER, OVER, RAREST, STEP_NAMES, TOP_UP

    phase = "over" if state.step == OVER else ("oven" if state.step in (JOKER, RAREST, TOP_UP) else "turn")
    in_phase_two = state.opener >= 0
    remaining = state.oven[state.reveal :] if in_phase_two else state.oven
    out: dict[str, Any] = {
        "game": "mamma-mia",
        "you": seat,
        "players": state.players,
        "round": state.round,
        "phase": phase,
        "step": STEP_NAMES[state.step],
        "to_move": list(state.to_move),
        "active": state.active,
        "start_player": state.start_player,
        "mamma_mia_holder": state.holder if state.holder >= 0 else None,
        "supply_size": len(state.supply),
        "mamma_mia_in_supply": MAMMA_MIA_CARD in state.supply,
        "oven": {
            "size": state.oven_size(),
            "top": card_json(remaining[-1][1]) if remaining else None,
        },
        "box": _counts(state.box),
        "used_pile": _counts(state.used),
        "players_info": [_player(state, p, seat) for p in range(state.players)],
    }
    if recall or state.options.show_oven_history:
        # Everything went in face up and was announced: a seat may remember it all. The
        # leftover block is the bottom entries, one per kind; in phase 2 only what is still
        # to be revealed is listed.
        leftover_entries = sum(1 for n in state.leftovers if n)
        start = state.reveal if in_phase_two else leftover_entries
        out["oven"]["leftovers"] = {} if in_phase_two else _counts(state.leftovers)
        out["oven"]["plays"] = [
            {"seat": p if p >= 0 else None, **card_json(card), **({"count": n} if card < NUM_KINDS else {})}
            for p, card, n in state.oven[max(start, leftover_entries) :]
        ]
    if in_phase_two:
        out["opener"] = state.opener
        out["counter"] = _counts(state.counter)
        out["pending"] = _pending(state)
    if state.step == OVER:
        out["result"] = state.result().to_json()
    return out
