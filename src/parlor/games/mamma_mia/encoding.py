"""Mamma Mia! as tensors for learning agents (``parlor.rl``; needs the ``[rl]`` extra).

The observation holds what ``view(seat, recall=True)`` shows and nothing else (docs/rl.md lists every
slice); action ids are ``GAME.action_id``; the information state is the view as text.
"""

from __future__ import annotations

from typing import Any

from parlor.rl.tensor import (
    Encoder,
    Layout,
    counts,
    flag,
    information_state_string,
    observe,
    one_hot,
    scalar,
    seat,
    seats,
)

from . import observation
from .data import DECKS, KINDS, ORDERS, ROUNDS
from .game import GAME
from .rules import STEP_NAMES

MAX_PLAYERS = 5
ORDER_NAMES = [o.name for o in ORDERS]
COLOURS = [d.colour for d in DECKS]
CARD_TYPES = ("topping", "order", "mamma_mia")


def _top(v: dict[str, Any]) -> dict[str, Any]:
    return v["oven"]["top"] or {}


def _played_toppings(v: dict[str, Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for play in v["oven"].get("plays", ()):
        if play["type"] == "topping":
            out[play["kind"]] = out.get(play["kind"], 0) + play["count"]
    return out


def _played_orders(v: dict[str, Any]) -> list[str]:
    return [p["order"] for p in v["oven"].get("plays", ()) if p["type"] == "order"]


def _pending(v: dict[str, Any]) -> dict[str, Any]:
    return v.get("pending") or {}


LAYOUT = Layout(
    "mamma-mia",
    MAX_PLAYERS,
    table=[
        scalar("round", lambda v: v["round"], ROUNDS, "round number"),
        one_hot("phase", lambda v: v["phase"], ("turn", "oven", "over"), "phase"),
        one_hot("step", lambda v: v["step"], STEP_NAMES, "decision step"),
        seats("to_move", lambda v: v["to_move"], MAX_PLAYERS, "seats to move"),
        seat("active", lambda v: v["active"], MAX_PLAYERS, "active player"),
        seat("start_player", lambda v: v["start_player"], MAX_PLAYERS, "start player"),
        seat("mamma_mia_holder", lambda v: v["mamma_mia_holder"], MAX_PLAYERS, "holder of the Mamma Mia! card"),
        scalar("supply_size", lambda v: v["supply_size"], 65, "cards in the supply"),
        flag("mamma_mia_in_supply", lambda v: v["mamma_mia_in_supply"], "Mamma Mia! card still in the supply"),
        scalar("oven_size", lambda v: v["oven"]["size"], 40, "cards in the oven"),
        one_hot("oven_top_type", lambda v: _top(v).get("type"), CARD_TYPES, "type of the oven's top card"),
        one_hot("oven_top_topping", lambda v: _top(v).get("kind"), KINDS, "topping on the oven's top card"),
        one_hot("oven_top_order", lambda v: _top(v).get("order"), ORDER_NAMES, "order on the oven's top card"),
        counts("oven_leftovers", lambda v: v["oven"].get("leftovers"), KINDS, 13, "leftovers at the oven's bottom"),
        counts("oven_played_toppings", _played_toppings, KINDS, 13, "toppings played into the oven this round"),
        counts("oven_played_orders", _played_orders, ORDER_NAMES, 1, "orders played into the oven this round"),
        counts("box", lambda v: v["box"], KINDS, 13, "toppings in the box"),
        counts("used_pile", lambda v: v["used_pile"], KINDS, 13, "toppings on the used pile"),
        seat("opener", lambda v: v.get("opener"), MAX_PLAYERS, "who opens the oven (phase 2)"),
        counts("counter", lambda v: v.get("counter"), KINDS, 13, "toppings counted out so far (phase 2)"),
        one_hot("pending_order", lambda v: _pending(v).get("order"), ORDER_NAMES, "order being baked"),
        seat("pending_owner", lambda v: _pending(v).get("owner"), MAX_PLAYERS, "owner of the order being baked"),
        one_hot("pending_decision", lambda v: _pending(v).get("decision"), STEP_NAMES, "decision the order needs"),
        counts("pending_requirement", lambda v: _pending(v).get("requirement"), KINDS, 6, "toppings it needs"),
        counts("pending_shortfall", lambda v: _pending(v).get("shortfall"), KINDS, 6, "toppings still missing"),
        scalar("pending_any", lambda v: (_pending(v).get("requirement") or {}).get("any"), 15, "Bombastica total"),
    ],
    player=[
        one_hot("deck", lambda p: p["deck"], COLOURS, "deck colour"),
        one_hot("own_topping", lambda p: p["own_topping"], KINDS, "the deck's own topping"),
        scalar("toppings_in_hand", lambda p: p["toppings_in_hand"], 7, "topping cards in hand"),
        scalar("orders_in_hand", lambda p: p["orders_in_hand"], 8, "order cards in hand"),
        counts("known_orders_in_hand", lambda p: p["known_orders_in_hand"], ORDER_NAMES, 1, "orders known in hand"),
        scalar("waiter_size", lambda p: p["waiter_size"], 8, "cards in the waiter"),
        counts("waiter_known_bottom", lambda p: p["waiter_known_bottom"], ORDER_NAMES, 1, "waiter's known bottom"),
        counts("completed", lambda p: p["completed"], ORDER_NAMES, 1, "completed orders"),
        scalar("score", lambda p: p["score"], 8, "score"),
        flag("has_mamma_mia", lambda p: p["has_mamma_mia"], "holds the Mamma Mia! card"),
        counts("hand_toppings", lambda p: (p.get("hand") or {}).get("toppings"), KINDS, 7, "own hand (you only)"),
        counts("hand_orders", lambda p: (p.get("hand") or {}).get("orders"), ORDER_NAMES, 1, "own orders (you only)"),
    ],
)


ENCODER = Encoder(LAYOUT, observation.write, observation.SIZE, GAME)


def encode(state: Any, seat: int, out: Any = None) -> Any:
    """The float32 observation of ``seat`` (``LAYOUT.size`` floats), written into ``out`` if given.

    Written straight from the state (``observation.py``); the same bytes as
    ``encode_from_view`` (``LAYOUT`` applied to ``state.view(seat, recall=True)``)."""
    return ENCODER.encode(state, seat, out)


def encode_batch(states: Any, seats: Any, out: Any = None) -> Any:
    """float32 ``(len(states), LAYOUT.size)``: row ``i`` is ``encode(states[i], seats[i])``."""
    return ENCODER.encode_batch(states, seats, out)


def encode_from_view(state: Any, seat: int, out: Any = None) -> Any:
    """The reference encoder: ``LAYOUT`` slice by slice over the seat's recall view (slow)."""
    return observe(LAYOUT, state, seat, out)


def action_mask(state: Any, seat: int, out: Any = None) -> Any:
    """1 for each action id ``seat`` may play now (``GAME.num_actions`` entries)."""
    return ENCODER.action_mask(state, seat, out)


def action_mask_batch(states: Any, seats: Any, out: Any = None) -> Any:
    """int8 ``(len(states), GAME.num_actions)``: row ``i`` is ``action_mask(states[i], seats[i])``."""
    return ENCODER.action_mask_batch(states, seats, out)


def information_state(state: Any, seat: int) -> str:
    """What ``seat`` knows, as readable text (its recall view, keys sorted)."""
    return information_state_string(state.view(seat, recall=True))
