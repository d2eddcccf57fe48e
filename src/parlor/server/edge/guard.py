"""Connection guard: idle and half-sent HTTP connections, and how many one address may hold.

uvicorn closes a keep-alive connection that stays silent after a response, but a connection that
never sends a whole request head — nothing at all, or headers that stop half way — is kept open
for good, and enough of them exhaust the process's file descriptors and lock everyone out. uvicorn
offers no setting for that (its ``timeout_keep_alive`` starts only after a first response), so the
server runs uvicorn's own HTTP protocol with this small mixin on top:

* a connection waiting for a request head (a new one, or a kept-alive one after its response) is
  closed when the head has not arrived within ``header_timeout`` seconds, however many bytes trickle
  in meanwhile;
* one client address holds at most ``max_per_address`` open HTTP connections; more are closed as
  soon as they are accepted (WebSockets have their own per-address cap in the app, see limits.py).

A request body that stalls is the app's concern (``Limits.body_timeout``); a WebSocket, once
upgraded, is no longer watched here.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, ClassVar

log = logging.getLogger("parlor.server")


class GuardMixin:
    """Mixed into uvicorn's HTTP protocol class (``guarded_protocol``)."""

    header_timeout: ClassVar[float] = 10.0
    max_per_address: ClassVar[int] = 256
    by_address: ClassVar[dict[str, set[Any]]] = {}

    # set by uvicorn's protocol
    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop
    cycle: Any

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)  # type: ignore[misc]
        peer = transport.get_extra_info("peername")
        self._guard_address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        held = self.by_address.setdefault(self._guard_address, set())
        if len(held) >= self.max_per_address:
            log.warning("%s holds %d HTTP connections: one more is refused", self._guard_address, len(held))
            transport.close()
            return
        held.add(self)
        self._guard_waiting_since = self.loop.time()
        self._guard_timer: asyncio.TimerHandle | None = self.loop.call_later(self.header_timeout, self._guard_check)

    def connection_lost(self, exc: Exception | None) -> None:
        self._guard_forget()
        super().connection_lost(exc)  # type: ignore[misc]

    def on_response_complete(self) -> None:
        super().on_response_complete()  # type: ignore[misc]
        # Waiting for the next request head from now (uvicorn's keep-alive timeout also runs).
        self._guard_waiting_since = self.loop.time()

    def _guard_forget(self) -> None:
        timer = getattr(self, "_guard_timer", None)
        if timer is not None:
            timer.cancel()
            self._guard_timer = None
        held = self.by_address.get(getattr(self, "_guard_address", ""))
        if held is not None:
            held.discard(self)
            if not held:
                del self.by_address[self._guard_address]

    def _waiting_for_a_head(self) -> bool:
        return self.cycle is None or bool(getattr(self.cycle, "response_complete", False))

    def _guard_check(self) -> None:
        self._guard_timer = None
        if self.transport.is_closing() or self.transport.get_protocol() is not self:  # closed, or now a WebSocket
            self._guard_forget()
            return
        if self._waiting_for_a_head():
            waited = self.loop.time() - self._guard_waiting_since
            if waited >= self.header_timeout:
                self._guard_forget()
                self.transport.close()
                return
            wait = self.header_timeout - waited
        else:
            wait = self.header_timeout  # a request is being served: look again later
            self._guard_waiting_since = self.loop.time()
        self._guard_timer = self.loop.call_later(wait, self._guard_check)


def guarded_protocol(header_timeout: float, max_per_address: int) -> type:
    """uvicorn's HTTP protocol class (httptools when installed, else h11) with the guard."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as Base
    except ImportError:  # httptools is optional for uvicorn
        from uvicorn.protocols.http.h11_impl import H11Protocol as Base  # type: ignore[assignment]
    return type(
        "GuardedHTTPProtocol",
        (GuardMixin, Base),
        {"header_timeout": header_timeout, "max_per_address": max_per_address, "by_address": {}},
    )
