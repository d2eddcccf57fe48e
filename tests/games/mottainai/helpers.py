"""Small helpers shared by the Mottainai tests (scenarios, playing, reading zones)."""

from __future__ import annotations

from typing import Any

from parlor import games
from parlor.games.mottainai.data import CARD_IDS, CARD_INDEX
from parlor.games.mottainai.invariants import check_invariants

G = games.get("mottainai") if "mottainai" in games.names() else None
if G is None:  # before registration
    from parlor.games.mottainai import GAME as G


def scen(**data: Any) -> Any:
    """A scenario (2 players, starting at the active seat's Noon unless told otherwise)."""
    data.setdefault("players", 2)
    data.setdefault("start", "noon")
    state = G.scenario(data)
    assert check_invariants(state) == []
    return state


def play(state: Any, action: Any) -> list[Any]:
    """The active seat plays ``action``; invariants are checked afterwards."""
    seat = state.to_move[0]
    events = state.apply(seat, action)
    assert check_invariants(state) == [], check_invariants(state)
    return events


def names(cards: Any) -> list[str]:
    return sorted(CARD_IDS[c] for c in cards)


def ids(*cards: str) -> tuple[int, ...]:
    return tuple(CARD_INDEX[c] for c in cards)


def actions_left(state: Any) -> int:
    """Actions of the task being performed, the one being decided included."""
    return state.view(None)["decision"]["actions_left"]


def kinds(events: list[Any]) -> list[str]:
    return [e.kind for e in events]


def decision(state: Any) -> str:
    d = state.view(None)["decision"]
    return d["kind"] if d else "over"


def legal(state: Any) -> list[Any]:
    return state.legal_actions(state.to_move[0]) if state.to_move else []
