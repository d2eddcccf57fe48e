"""Mottainai as tensors for learning agents (``parlor.rl``; needs the ``[rl]`` extra).

The observation holds what ``view(seat, recall=True)`` shows and nothing else (docs/rl.md lists every
slice); action ids are ``GAME.action_id``; the information state is the view as text.
Cards are counted per card type (54 types, one copy each).
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
from .data import CARD_IDS, MATERIALS, NUM_TYPES, ROLES, WINGS
from .game import GAME

MAX_PLAYERS = 6
DECISIONS = observation.DECISIONS
SUPPORT_HOW = observation.SUPPORT_HOW


def _d(v: dict[str, Any]) -> dict[str, Any]:
    return v["decision"] or {}


def _d_card(v: dict[str, Any]) -> str | None:
    d = _d(v)
    return d.get("work") or d.get("effect")


def _d_cards(v: dict[str, Any]) -> list[str]:
    d = _d(v)
    return [*d.get("revealed", ()), *d.get("effects", ()), *d.get("cards", ())]


def _d_seat(v: dict[str, Any]) -> int | None:
    d = _d(v)
    for key in ("player", "to"):
        if isinstance(d.get(key), int):
            return d[key]
    return None


def _how(v: dict[str, Any]) -> str | None:
    how = _d(v).get("how")
    return how.split(":")[0] if isinstance(how, str) else how


def _task(p: dict[str, Any]) -> dict[str, Any]:
    return p["task"] or {}


def _card_counts(name: str, get: Any, meaning: str) -> Any:
    return counts(name, get, CARD_IDS, 1, meaning)


LAYOUT = Layout(
    "mottainai",
    MAX_PLAYERS,
    table=[
        scalar("turn", lambda v: v["turn"], 50, "turn number"),
        seat("active", lambda v: v["active"], MAX_PLAYERS, "active player"),
        seat("start_player", lambda v: v["start_player"], MAX_PLAYERS, "start player"),
        seats("to_move", lambda v: v["to_move"], MAX_PLAYERS, "seats to move"),
        scalar("deck_size", lambda v: v["deck_size"], NUM_TYPES, "cards in the deck"),
        one_hot("deck_top", lambda v: v["deck_top"], CARD_IDS, "deck's top card if face up"),
        _card_counts("deck_known", lambda v: [c for _, c in v.get("deck_known", ())], "deck cards you know"),
        _card_counts("floor", lambda v: v["floor"], "cards on the floor"),
        scalar("extra_turns", lambda v: v["extra_turns"], 2, "extra turns pending"),
        one_hot("decision", lambda v: _d(v).get("kind"), DECISIONS, "kind of decision awaited"),
        seat("decision_owner", lambda v: _d(v).get("owner"), MAX_PLAYERS, "whose decision frame it is"),
        one_hot("decision_role", lambda v: _d(v).get("role"), ROLES, "role of the action"),
        flag("decision_pin", lambda v: _d(v).get("pin"), "a Pin action"),
        scalar("decision_actions_left", lambda v: _d(v).get("actions_left"), 5, "actions left"),
        one_hot("decision_card", _d_card, CARD_IDS, "work or effect the decision is about"),
        one_hot("decision_material", lambda v: _d(v).get("material"), MATERIALS, "material the decision is about"),
        _card_counts("decision_cards", _d_cards, "cards revealed / listed by the decision"),
        seat("decision_seat", _d_seat, MAX_PLAYERS, "player the decision points at (Kite copy, floor taker)"),
        scalar("decision_remaining", lambda v: _d(v).get("remaining"), 5, "cards still to give or take"),
        one_hot("decision_wing", lambda v: _d(v).get("wing"), WINGS, "wing of the work"),
        one_hot("decision_how", _how, SUPPORT_HOW, "how the work is supported"),
        _card_counts("used_effects", lambda v: v.get("used_effects"), "morning / night effects used this step"),
    ],
    player=[
        scalar("hand_size", lambda p: p["hand_size"], 5, "cards in hand"),
        _card_counts("revealed_in_hand", lambda p: p["revealed_in_hand"], "hand cards everyone knows"),
        scalar("waiting_size", lambda p: p["waiting_size"], 5, "cards in the waiting area"),
        one_hot("task", lambda p: _task(p).get("card"), CARD_IDS, "task card (face up)"),
        flag("task_face_down", lambda p: _task(p).get("face_down"), "task card face down"),
        flag("task_doll", lambda p: _task(p).get("doll"), "task performed as Doll"),
        _card_counts("helpers", lambda p: p["helpers"], "helpers"),
        _card_counts("craft_bench", lambda p: p["craft_bench"], "craft bench"),
        _card_counts("sales", lambda p: p["sales"], "sales"),
        _card_counts("gallery", lambda p: p["gallery"], "gallery works"),
        _card_counts("gift_shop", lambda p: p["gift_shop"], "gift shop works"),
        _card_counts("kite_copies", lambda p: p["kite_copies"], "Kite copies"),
        _card_counts("works_as_gallery", lambda p: p["works_as"]["gallery"], "works counting in the gallery"),
        _card_counts("works_as_gift_shop", lambda p: p["works_as"]["gift_shop"], "works counting in the gift shop"),
        _card_counts("hand", lambda p: p.get("hand") or p.get("final_hand"), "hand (yours; everyone's at the end)"),
        _card_counts("waiting", lambda p: p.get("waiting") or p.get("final_waiting"), "waiting area (when shown)"),
    ],
)


ENCODER = Encoder(LAYOUT, observation.write, observation.SIZE, GAME, observation.write_changed, observation.Row)


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
