"""Events: what happened, and who may see it.

UIs, logs and bots are built from events. Visibility is decided where the event is
made, by the rules that know what is hidden: ``visible_to=None`` means everyone;
otherwise only the listed seats (spectators never see a private event).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    data: dict[str, Any]
    visible_to: frozenset[int] | None = None

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
