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
        out: dict[str, Any] = {"kind": self.kind, **self.data}
        if self.visible_to is not None:
            out["visible_to"] = sorted(self.visible_to)
        return out


def public(event: str, /, **data: Any) -> Event:
    return Event(event, data)


def private(seats: Iterable[int] | int, event: str, /, **data: Any) -> Event:
    who = frozenset([seats]) if isinstance(seats, int) else frozenset(seats)
    return Event(event, data, who)


def for_seat(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` may see; the one filter every interface goes through."""
    return [e for e in events if e.visible_to is None or (seat is not None and seat in e.visible_to)]
