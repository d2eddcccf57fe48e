"""A connection to a table: one WebSocket's seat (or a spectator) and its outgoing queue."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger("parlor.server")

MOVED = 4012  # close code: the table is now played by another server process (reconnect)


class Connection:
    """One WebSocket: a seat (or ``None`` for a spectator) and its outgoing queue, bounded in bytes."""

    def __init__(
        self,
        table: Any,
        seat: int | None,
        send: Callable[[str], Any],
        close: Callable[[int, str], Any] | None = None,
        max_queue_bytes: int = 8 * 1024 * 1024,
    ) -> None:
        self.table = table
        self.seat = seat
        self.address = "?"
        self.account_id: str | None = None  # opened by this account's session, not by a seat token
        self.signed_in_id: str | None = None  # the account signed in where it was opened (a mute follows it)
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.queued_bytes = 0  # characters waiting in the queue (a close bound on the bytes)
        self.max_queue_bytes = max_queue_bytes
        self.sent_events = 0  # how much of the table's event log this connection has been offered
        self.seq = -1  # the table's change (``LiveTable.seq``) of the last state frame it was sent
        self.closed = False
        self.ready = False  # set once its join frame is queued: broadcasts skip it until then
        self.too_slow = False
        self.dead = asyncio.Event()  # set when the writer stops for good: the reader then lets go
        self.close_code: int | None = None  # set to close the socket with this code once its queue is sent
        self.close_reason = ""
        self.refused = 0  # frames refused for their rate since ``refused_since`` (the edge closes a flood)
        self.refused_since = 0.0
        self.chat_bucket: Any = None  # a spectator's own chat allowance (chat.py; seats share one per seat)
        self._send = send
        self._close = close

    def close_with(self, code: int, reason: str) -> None:
        """Close the socket with ``code`` once what is queued has been sent (its reader then lets go)."""
        if self.close_code is None:
            self.close_code, self.close_reason = code, reason
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)

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
                        await self._close(self.close_code, self.close_reason)
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
