"""What a table sends: each seat's state, built once per change and sent as a delta.

After a change of the game (a decision, an undo) the table computes each watching seat's *body* once
(``view(seat)``, whose turn, the seat's legal actions with their words, the result, ``can_undo``), and
each connection of that seat gets either

* a **delta** (``"base": <seq>``): the parts of the body that differ from the body of the change it
  last got, when it has that one (every connection that was there for the previous change), or
* a **full** frame: on joining, on ``sync``, and for a connection that missed a change.

Both carry the events this connection has not been offered yet and the clocks. The protocol is in
``docs/protocol.md`` ("state"); ``web/js/frames.js`` and the tests' client apply deltas the same way.
Nothing here is sent that ``state.view(seat)`` and ``for_seat`` do not allow.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from parlor.core import Event, for_seat
from parlor.server.wire import dumps
from parlor.text import action_text

from .clocks import clocks_left, fill_bots_left, turn_deadlines
from .undo import quick_refusal

if TYPE_CHECKING:
    from .connection import Connection
    from .live import LiveTable

log = logging.getLogger("parlor.server")

Ack = tuple["Connection", Any] | None  # (the connection whose frame caused a change, its ref)
_MISSING = object()


def event_json(event: Event) -> dict[str, Any]:
    return event.to_json()  # the protocol's form: {"event", "data", "visible_to"?}


def delta(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """What changed from ``old`` to ``new``: the top-level keys that differ, and within ``view`` the view's
    keys that differ (``view_removed``: view keys gone). Applying it to ``old`` gives ``new``."""
    out = {k: v for k, v in new.items() if k != "view" and old.get(k, _MISSING) != v}
    old_view, new_view = old["view"], new["view"]
    if old_view != new_view:
        changed = {k: v for k, v in new_view.items() if old_view.get(k, _MISSING) != v}
        if changed:
            out["view"] = changed
        gone = [k for k in old_view if k not in new_view]
        if gone:
            out["view_removed"] = gone
    return out


class Frames:
    """A table's per-seat bodies and event logs (as JSON), kept between changes."""

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self.bodies: dict[int | None, tuple[int, dict[str, Any]]] = {}  # seat -> (seq, body)
        self.logs: dict[int | None, tuple[int, list[str]]] = {}  # seat -> (events covered, JSON items)
        self.full: dict[tuple[int | None, str], tuple[int, str]] = {}  # (seat, cause) -> (seq, frame less clocks)

    def forget_logs(self) -> None:
        """The event log lost its end (an undo): each seat's JSON log is rebuilt when next asked."""
        self.logs.clear()

    # ---- building ---------------------------------------------------------------------------
    def body(self, seat: int | None) -> dict[str, Any]:
        """The seat's state at this change, built once per change."""
        table = self.table
        cached = self.bodies.get(seat)
        if cached is not None and cached[0] == table.seq:
            return cached[1]
        state = table.state
        over = state.is_over or table.status == "over"  # "over" also when abandoned at the decision cap
        view = state.view(seat)
        your_turn = not over and seat is not None and seat in state.to_move
        legal: list[dict[str, Any]] = []
        if your_turn:
            game = table.game
            for a in state.legal_actions(seat):
                legal.append({"id": game.action_id(a), "action": a.to_json(), "text": action_text(game, a, view)})
        body = {
            "view": view,
            "to_move": [] if over else list(state.to_move),
            "your_turn": your_turn,
            "legal": legal,
            "over": over,
            "result": table.result if over else None,
            "can_undo": quick_refusal(table, seat) is None,
        }
        self.bodies[seat] = (table.seq, body)
        return body

    def log_json(self, seat: int | None) -> str:
        """The table's whole event log as ``seat`` may see it, as JSON array items: kept per seat and
        extended with each change, so that a ``join`` or ``sync`` never walks the whole log again."""
        events = self.table.events
        done, items = self.logs.get(seat, (0, []))
        if done < len(events):
            items.extend(dumps(event_json(e)) for e in for_seat([e for _, e in events[done:]], seat))
        self.logs[seat] = (len(events), items)
        return ",".join(items)

    def full_frame(self, conn: Connection, cause: str) -> str:
        """The whole state with every event so far (``join``, ``sync``): built once per seat and change."""
        table, seat = self.table, conn.seat
        conn.sent_events = len(table.events)
        conn.seq = table.seq
        key = (seat, cause)
        hit = self.full.get(key)
        if hit is None or hit[0] != table.seq:
            head = {"type": "state", "seq": table.seq, "version": table.version, "cause": cause, **self.body(seat)}
            text = dumps(head)[:-1] + ',"events":[' + self.log_json(seat) + "]"
            hit = self.full[key] = (table.seq, text)
        return hit[1] + ',"clocks":' + dumps(clocks_left(table)) + ',"deadlines":' + dumps(turn_deadlines(table)) + "}"

    def _events_since(self, seat: int | None, start: int) -> list[dict[str, Any]]:
        return [event_json(e) for e in for_seat([e for _, e in self.table.events[start:]], seat)]

    # ---- sending ----------------------------------------------------------------------------
    def broadcast_state(self, cause: str, extra: list[dict[str, Any]] | None = None, ack: Ack = None) -> None:
        """After a change of the game: every ready connection gets its seat's frame (the connection that
        caused it first gets its ``ack``). A delta is built once per seat and shared by its connections."""
        table = self.table
        clocks = dumps(clocks_left(table)) + ',"deadlines":' + dumps(turn_deadlines(table))
        by_seat: dict[int | None, list[Connection]] = {}
        for conn in table.connections:
            if conn.ready and not conn.closed:
                by_seat.setdefault(conn.seat, []).append(conn)
        for seat, conns in by_seat.items():
            previous = self.bodies.get(seat)
            try:
                body = self.body(seat)
                shared: dict[tuple[int, int], str] = {}  # (base seq, first event) -> the delta frame
                for conn in conns:
                    if ack is not None and ack[0] is conn:  # the committed change is acknowledged before its state
                        conn.push(dumps({"type": "ack", "ref": ack[1], "version": table.version}))
                    start = min(conn.sent_events, len(table.events))
                    if previous is not None and conn.seq == previous[0]:
                        key = (conn.seq, start)
                        text = shared.get(key)
                        if text is None:
                            events = self._events_since(seat, start) + (extra or [])
                            frame = {"type": "state", "seq": table.seq, "base": conn.seq, "version": table.version}
                            frame |= {"cause": cause, "delta": delta(previous[1], body), "events": events}
                            text = shared[key] = dumps(frame)[:-1] + ',"clocks":' + clocks + "}"
                    else:  # it missed a change (or never had a state): the whole body
                        events = self._events_since(seat, start) + (extra or [])
                        frame = {"type": "state", "seq": table.seq, "version": table.version, "cause": cause}
                        text = dumps(frame | body | {"events": events})[:-1] + ',"clocks":' + clocks + "}"
                    conn.sent_events = len(table.events)
                    conn.seq = table.seq
                    conn.push(text)
            except Exception:  # a view that fails (a game's bug) must not stop the others' frames
                log.exception("table %s: cannot build the state frame for seat %s", table.id, seat)
                for conn in conns:
                    conn.push(dumps({"type": "error", "code": "server_error", "message": "cannot show the table"}))

    def broadcast_seats(self) -> None:
        table = self.table
        frame = dumps(
            {
                "type": "seats",
                "seats": table.seat_summaries(),
                "clocks": clocks_left(table),
                "deadlines": turn_deadlines(table),
                "fill_bots_in": fill_bots_left(table),
            }
        )
        for conn in list(table.connections):
            conn.push(frame)

    def send_all(self, frame: dict[str, Any]) -> None:
        text = dumps(frame)
        for conn in list(self.table.connections):
            conn.push(text)
