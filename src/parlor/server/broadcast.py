"""Broadcasting: each connection's outgoing queue and the frames a seat (or spectator) is sent."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from parlor.core import Event, for_seat

from .protocol import dumps

if TYPE_CHECKING:
    from .tables import LiveTable

log = logging.getLogger("parlor.server")

Ack = tuple["Connection", Any] | None  # (the connection whose frame caused a change, its ref)


class Connection:
    """One WebSocket: a seat (or ``None`` for a spectator) and its outgoing queue, bounded in bytes."""

    def __init__(
        self,
        table: LiveTable,
        seat: int | None,
        send: Callable[[str], Any],
        close: Callable[[int, str], Any] | None = None,
        max_queue_bytes: int = 8 * 1024 * 1024,
    ) -> None:
        self.table = table
        self.seat = seat
        self.address = "?"
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.queued_bytes = 0  # characters waiting in the queue (a close bound on the bytes)
        self.max_queue_bytes = max_queue_bytes
        self.sent_events = 0  # how much of the table's event log this connection has been offered
        self.closed = False
        self.ready = False  # set once its join frame is queued: broadcasts skip it until then
        self.too_slow = False
        self.dead = asyncio.Event()  # set when the writer stops for good: the reader then lets go
        self.close_code: int | None = None  # set to close the socket with this code once its queue is sent
        self.chat_bucket: Any = None  # a spectator's own chat allowance (chat.py; seats share one per seat)
        self._send = send
        self._close = close

    def push(self, text: str) -> None:
        if self.closed or not self.ready:
            return
        if self.queued_bytes + len(text) > self.max_queue_bytes:
            # A reader that does not keep up is dropped, never buffered without bound.
            log.warning("dropping a connection that cannot keep up (table %s)", self.table.id)
            self.closed = True
            self.too_slow = True
            self.queue.put_nowait(None)
            return
        self.queued_bytes += len(text)
        self.queue.put_nowait(text)

    async def writer(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    if self.too_slow and self._close is not None:
                        await self._close(4008, f"too slow: more than {self.max_queue_bytes} bytes waiting")
                    elif self.close_code is not None and self._close is not None:
                        why = "the table moved to another server process" if self.close_code == MOVED else (
                            "this seat's link no longer works"
                        )
                        await self._close(self.close_code, why)
                    return
                self.queued_bytes -= len(text)
                await self._send(text)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a socket that cannot be written: close it so the seat is freed
            log.warning("table %s: a connection's writer failed (%s); closing it", self.table.id, exc)
            self.closed = True
            if self._close is not None:
                with contextlib.suppress(Exception):
                    await self._close(1011, "the server could not send a frame")
        finally:
            self.dead.set()


MOVED = 4012  # close code: the table is now played by another server process (reconnect)


def event_json(event: Event) -> dict[str, Any]:
    return event.to_json()  # the protocol's form: {"event", "data", "visible_to"?}


@functools.lru_cache(maxsize=8192)
def _plain(markup: str) -> str:
    try:
        from rich.text import Text

        return Text.from_markup(markup).plain
    except Exception:
        return markup


class BroadcastMixin:
    """The hub's part that tells every connection what it may see."""

    def _text(self, game: Any) -> Any:
        if game.name not in self._text_modules:
            try:
                from parlor.cli.common import text_module

                self._text_modules[game.name] = text_module(game)
            except Exception:
                self._text_modules[game.name] = None
        return self._text_modules[game.name]

    def _seat_log(self, table: LiveTable, seat: int | None) -> str:
        """The table's whole event log as ``seat`` may see it, as JSON array items: kept per seat and
        extended with each change, so that a ``join`` or ``sync`` never walks the whole log again."""
        cached = table.seat_logs.get(seat)
        if cached is None:
            cached = table.seat_logs[seat] = (0, [])
        done, items = cached
        if done < len(table.events):
            items.extend(dumps(event_json(e)) for e in for_seat([e for _, e in table.events[done:]], seat))
            table.seat_logs[seat] = (len(table.events), items)
        return ",".join(items)

    def state_frame(self, conn: Connection, cause: str, extra_events: list[dict[str, Any]] | None = None) -> str:
        table, seat = conn.table, conn.seat
        if cause in ("join", "sync") and not extra_events:
            # The full frame for this seat at this change is built once, whoever asks how often.
            conn.sent_events = len(table.events)
            key = (seat, cause)
            hit = table.full_frames.get(key)
            if hit is not None and hit[0] == table.changes:
                return self._with_clocks(table, hit[1])
            body = self._frame_body(table, seat, cause)
            text = body[:-1] + ',"events":[' + self._seat_log(table, seat) + "]}"
            table.full_frames[key] = (table.changes, text)
            return self._with_clocks(table, text)
        new_events = [e for _, e in table.events[conn.sent_events :]]
        conn.sent_events = len(table.events)
        events = [event_json(e) for e in for_seat(new_events, seat)]
        if extra_events:
            events.extend(extra_events)
        return self._with_clocks(table, self._frame_body(table, seat, cause, events))

    @staticmethod
    def _with_clocks(table: LiveTable, text: str) -> str:
        """The clocks run between changes: added to each frame as it is sent, never cached."""
        from .clocks import clocks_left

        return text[:-1] + ',"clocks":' + dumps(clocks_left(table)) + "}"

    def _frame_body(
        self, table: LiveTable, seat: int | None, cause: str, events: list[dict[str, Any]] | None = None
    ) -> str:
        """A state frame; without ``events`` the key is left out (the caller splices the log in)."""
        from .moves import undo_refusal

        state = table.state
        over = state.is_over or table.status == "over"  # "over" also when abandoned at the decision cap
        legal: list[dict[str, Any]] = []
        view = state.view(seat)
        if seat is not None and not over and seat in state.to_move:
            text = self._text(table.game)
            for a in state.legal_actions(seat):
                entry = {"id": table.game.action_id(a), "action": a.to_json()}
                try:
                    entry["text"] = _plain(text.describe_action(a, view)) if text is not None else str(a)
                except Exception:
                    entry["text"] = str(a)
                legal.append(entry)
        frame: dict[str, Any] = {
            "type": "state",
            "version": table.version,
            "cause": cause,
            "view": view,
            "to_move": [] if over else list(state.to_move),
            "your_turn": not over and seat is not None and seat in state.to_move,
            "legal": legal,
            "over": over,
            "result": table.result if over else None,
            "can_undo": undo_refusal(table, seat) is None,
        }
        if events is not None:
            frame["events"] = events
        return dumps(frame)

    def _broadcast_state(
        self, table: LiveTable, cause: str, extra: list[dict[str, Any]] | None = None, ack: Ack = None
    ) -> None:
        for conn in list(table.connections):
            if not conn.ready:
                continue
            if ack is not None and ack[0] is conn:  # the committed change is acknowledged before its state
                conn.push(dumps({"type": "ack", "ref": ack[1], "version": table.version}))
            try:
                conn.push(self.state_frame(conn, cause, extra))
            except Exception:  # a view that fails (a game's bug) must not stop the others' frames
                log.exception("table %s: cannot build the state frame for seat %s", table.id, conn.seat)
                conn.push(dumps({"type": "error", "code": "server_error", "message": "cannot show the table"}))

    def _broadcast_seats(self, table: LiveTable) -> None:
        from .clocks import clocks_left

        frame = dumps({"type": "seats", "seats": [s.summary() for s in table.seats], "clocks": clocks_left(table)})
        for conn in list(table.connections):
            conn.push(frame)

    def announce_next(self, table: LiveTable, only: Connection | None = None) -> None:
        """Tell the table's connections (or one) about the "play again" table; a seat's own frame
        carries that seat's new join link, and nobody else's."""
        for conn in [only] if only is not None else list(table.connections):
            frame: dict[str, Any] = {"type": "next_table", "table_id": table.next_table}
            code = table.next_claims.get(conn.seat) if conn.seat is not None else None
            if code is not None:
                frame["join_path"] = f"/play/{table.next_table}#claim={code}"
            conn.push(dumps(frame))
