"""Events: what happened, and who may see it.

UIs, logs and bots are built from events. Visibility is decided where the event is
made, by the rules that know what is hidden: ``visible_to=None`` means everyone;
otherwise only the listed seats (spectators never see a private event).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class Event:
    """One thing that happened. Treat as immutable.

    A plain slotted class rather than a frozen dataclass: events are made on the
    playout hot path, and a frozen dataclass costs several times more to construct.
    """

    __slots__ = ("data", "kind", "visible_to")

    def __init__(self, kind: str, data: dict[str, Any], visible_to: frozenset[int] | None = None) -> None:
        self.kind = kind
        self.data = data
        self.visible_to = visible_to

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Event)
            and self.kind == other.kind
            and self.data == other.data
            and self.visible_to == other.visible_to
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        who = "" if self.visible_to is None else f", visible_to={sorted(self.visible_to)}"
        return f"Event({self.kind!r}, {self.data!r}{who})"

    def visible(self, seat: int | None) -> bool:
        """May ``seat`` (``None`` = spectator) see this event?"""
        return self.visible_to is None or (seat is not None and seat in self.visible_to)

    def to_json(self) -> dict[str, Any]:
        """``{"event": kind, "data": {...}}`` (plus ``"visible_to"`` for a private event).

        The event's type and its data are kept apart, so a data field may have any name
        (Mamma Mia!'s ``toppings_played`` has a ``kind`` field of its own). This is the
        form the server sends (docs/protocol.md) and the one ``from_json`` reads back.
        """
        out: dict[str, Any] = {"event": self.kind, "data": self.data}
        if self.visible_to is not None:
            out["visible_to"] = sorted(self.visible_to)
        return out

    @staticmethod
    def from_json(data: Any) -> "Event":
        """The event ``to_json`` wrote; anything else raises ``ValueError``."""
        if not (isinstance(data, dict) and isinstance(data.get("event"), str) and isinstance(data.get("data"), dict)):
            raise ValueError(f"an event is {{'event': str, 'data': {{...}}}}, got {data!r}")
        extra = set(data) - {"event", "data", "visible_to"}
        if extra:
            raise ValueError(f"unexpected event field(s) {sorted(extra)}")
        seats = data.get("visible_to")
        if seats is not None and (not isinstance(seats, list) or not all(type(s) is int for s in seats)):
            raise ValueError(f"visible_to must be a list of seats, got {seats!r}")
        return Event(data["event"], dict(data["data"]), None if seats is None else frozenset(seats))


def public(event: str, /, **data: Any) -> Event:
    return Event(event, data)


def private(seats: Iterable[int] | int, event: str, /, **data: Any) -> Event:
    who = frozenset([seats]) if isinstance(seats, int) else frozenset(seats)
    return Event(event, data, who)


def for_seat(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` may see; the one filter every interface goes through."""
    return [e for e in events if e.visible_to is None or (seat is not None and seat in e.visible_to)]
