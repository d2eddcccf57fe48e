"""Events: what happened, and who may see it.

UIs, logs and bots are built from events. Visibility is decided where the event is
made, by the rules that know what is hidden: ``visible_to=None`` means everyone;
otherwise only the listed seats (spectators never see a private event).

Events cost nothing when nobody reads them. An :class:`Event` costs more to build than many
rule steps, and the plain playout loop (bots, simulations, RL) never looks at one. So the
rules make *raw events* (``raw_public``, ``raw_private``: plain tuples holding the same kind,
data and seats), and ``State.apply`` returns them in an :class:`EventList`: a real ``list`` of
``Event`` whose Event objects are built the first time the list is used in any way. Whoever
reads gets exactly the events an eager build would have given; whoever does not pays for a
tuple per event.
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


# ---- raw events: what the rules make ---------------------------------------------------------------
class EventKind:
    """An event type whose fields are fixed, so the rules can give its data as a tuple.

    A raw event ``(kind, data, seats)`` may carry an ``EventKind`` and a tuple of the field
    values in ``fields`` order instead of a string and a dict: the tuple costs a fraction of
    the dict to build and to free, and the dict is made only if somebody reads the event::

        PLAYED: Final = EventKind("played", "seat", "card")
        events.append((PLAYED, (seat, card), None))   # the same as raw_public("played", seat=seat, card=card)
    """

    __slots__ = ("fields", "name")

    def __init__(self, name: str, /, *fields: str) -> None:
        if len(set(fields)) != len(fields):
            raise ValueError(f"event {name!r} names a field twice: {fields}")
        self.name = name
        self.fields = fields

    def __repr__(self) -> str:
        return f"EventKind({self.name!r}, {', '.join(map(repr, self.fields))})"

    def __reduce__(self) -> Any:
        return EventKind, (self.name, *self.fields)


# (kind, data, seats): seats is None for a public event, else an int or a frozenset of ints; kind
# and data are a str and a dict, or an EventKind and a tuple of its fields' values.
RawEvent = tuple["str | EventKind", "dict[str, Any] | tuple[Any, ...]", "int | frozenset[int] | None"]


def raw_public(event: str, /, **data: Any) -> RawEvent:
    """:func:`public` for the rules: the same event, built into an ``Event`` only when read."""
    return (event, data, None)


def raw_private(seats: Iterable[int] | int, event: str, /, **data: Any) -> RawEvent:
    """:func:`private` for the rules: the same event, built into an ``Event`` only when read."""
    # Several seats are frozen now, so that a list changed later cannot change who saw the event.
    return (event, data, seats if isinstance(seats, int) else frozenset(seats))


def build_event(raw: RawEvent) -> Event:
    """The :class:`Event` a raw event stands for (what ``public``/``private`` would have made)."""
    kind, data, seats = raw
    if type(kind) is EventKind:
        if len(data) != len(kind.fields):
            raise ValueError(f"event {kind.name!r} has fields {kind.fields}, got values {data!r}")
        data = dict(zip(kind.fields, data))
        kind = kind.name
    if isinstance(seats, int):
        seats = frozenset([seats])
    return Event(kind, data, seats)  # type: ignore[arg-type]


class EventList(list[Event]):
    """The events of one ``State.apply``: a ``list`` of :class:`Event`, built on first use.

    Made from the rules' raw events (``EventList(raw)``, a C-level copy: no Python code runs),
    it holds them until anything at all is asked of it (iterating, ``len``, truth, indexing,
    comparing, copying, pickling, changing it); then each is replaced by its Event, once, in
    order, and from there on it is an ordinary list. Nothing is built for a caller that drops
    the result, as the plain random-play loop does.
    """

    _built = False  # set on the instance by _build (no __slots__: a fresh list stays this cheap)

    def _build(self) -> None:
        self._built = True
        list.__setitem__(self, slice(None), [build_event(raw) for raw in list.__iter__(self)])

    def __reduce__(self) -> Any:  # copy and pickle: an EventList of the built events
        return _rebuilt, (list(self),)


def _rebuilt(events: list[Event]) -> EventList:
    out = EventList(events)
    out._built = True
    return out


def _built_first(name: str) -> Any:
    method = getattr(list, name)

    def wrapper(self: EventList, *args: Any) -> Any:
        if not self._built:
            self._build()
        for other in args:  # e.g. comparing with (or adding) another EventList not yet built
            if type(other) is EventList and not other._built:
                other._build()
        return method(self, *args)

    wrapper.__name__ = wrapper.__qualname__ = name
    wrapper.__doc__ = method.__doc__
    return wrapper


# Every way into a list but the C functions that read a list's storage directly (``json``,
# ``str.join``): those would see the raw tuples. Nothing passes a list of events to them.
for _name in (
    "__iter__", "__len__", "__getitem__", "__setitem__", "__delitem__", "__contains__", "__reversed__",
    "__repr__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__add__", "__mul__", "__rmul__",
    "__iadd__", "__imul__", "__sizeof__", "append", "extend", "insert", "pop",
    "remove", "index", "count", "copy", "sort", "reverse", "clear",
):  # fmt: skip
    setattr(EventList, _name, _built_first(_name))
del _name


def _radd(self: EventList, other: Any) -> Any:  # ``[...] + events``: list's own + reads the storage directly
    if not self._built:
        self._build()
    return other.__add__(list(self)) if isinstance(other, list) else NotImplemented


EventList.__radd__ = _radd  # type: ignore[attr-defined]


def for_seat(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` may see; the one filter every interface goes through."""
    return [e for e in events if e.visible_to is None or (seat is not None and seat in e.visible_to)]
