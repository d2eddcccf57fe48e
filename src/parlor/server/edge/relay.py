"""Relaying a request to the process that owns its table (a site of several processes, ``table/site.py``).

Connections land on any process of a site: the kernel spreads one host's connections over its
processes, and a load balancer spreads them over the hosts. A request or WebSocket for a table that
another live process owns is relayed to the address that process registered (its loopback listener,
or ``--advertise-address HOST:PORT`` on a site of several hosts), marked with the site's relay key so
that the owner sees the real client address. The relayed WebSocket carries the owner's frames, so every
change reaches every client through the one process that made it.

The relay listener (where the others relay to this process) serves only relayed requests: a request
there without the right key is refused (403). On the public port the relay headers are ignored (a
client cannot name its own address). The relay keeps the public side's guards: a body must arrive
within ``Limits.body_timeout``, and the relay listener has the same header timeout as the public port.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
from typing import Any
from urllib.parse import quote

from parlor.server.table import valid_table_id
from parlor.server.wire import dumpb

RELAY_KEY_HEADER = "x-parlor-relay"
RELAY_CLIENT_HEADER = "x-parlor-client"
_RELAY_HEADERS = {RELAY_KEY_HEADER.encode(), RELAY_CLIENT_HEADER.encode()}


# ---- relaying a request to the table's owner --------------------------------------------------------
def table_of_path(path: str) -> str | None:
    """``/api/tables/<id>/...`` or ``/ws/tables/<id>`` -> ``<id>`` (creating a table is local; a
    malformed id is no table: answered here, never relayed)."""
    for prefix in ("/api/tables/", "/ws/tables/"):
        if path.startswith(prefix):
            table_id = path[len(prefix) :].split("/", 1)[0]
            return table_id if valid_table_id(table_id) else None
    return None


_HOP_BY_HOP = {b"host", b"content-length", b"connection", b"transfer-encoding", b"upgrade", b"keep-alive"}


class RelayMiddleware:
    """ASGI middleware: a request for a table another process owns is relayed to that process."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self._client: Any = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            return await self.app(scope, self._closing_on_shutdown(receive), send)
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        hub = getattr(scope["app"].state, "hub", None)
        site = getattr(hub, "site", None)
        if site is None:
            return await self.app(scope, receive, send)
        raw = scope.get("headers") or []
        if tuple(scope.get("server") or ()) == site.relay_listen:
            # The relay listener: another process of the site relayed this request. Only with the key;
            # the client is the one it names; served here, never relayed again (no loops).
            headers = dict(raw)
            key = headers.get(RELAY_KEY_HEADER.encode(), b"")
            if not site.relay_key or not hmac.compare_digest(key, site.relay_key.encode()):
                return await _refuse(scope, receive, send)
            client = headers.get(RELAY_CLIENT_HEADER.encode(), b"?").decode("latin-1")
            return await self.app({**scope, "client": (client, 0)}, receive, send)
        if any(k in _RELAY_HEADERS for k, _ in raw):  # on the public port a client names no address
            scope = {**scope, "headers": [(k, v) for k, v in raw if k not in _RELAY_HEADERS]}
        table_id = table_of_path(scope["path"])
        if table_id is None or table_id in hub.tables:
            return await self.app(scope, receive, send)
        try:
            owner = await site.owner_elsewhere(table_id)
        except Exception:
            owner = None
        if owner is None:
            return await self.app(scope, receive, send)
        client = scope["client"][0] if scope.get("client") else "?"
        extra = [
            (RELAY_KEY_HEADER.encode(), site.relay_key.encode()),
            (RELAY_CLIENT_HEADER.encode(), client.encode("latin-1", "replace")),
        ]
        if scope["type"] == "http":
            await self._relay_http(scope, receive, send, owner, extra, hub.limits)
        else:  # a WebSocket carries its cookie on: a signed-in player's seat is opened by the session
            cookie = [(k, v) for k, v in scope.get("headers") or [] if k == b"cookie"]
            await self._relay_websocket(scope, receive, send, owner, extra + cookie)

    def _closing_on_shutdown(self, receive: Any) -> Any:
        """``receive`` for the lifespan: at shutdown, the relay's HTTP client (its pooled
        connections to the other processes) is closed before the application shuts down."""

        async def receive_and_close() -> Any:
            message = await receive()
            if message.get("type") == "lifespan.shutdown" and self._client is not None:
                client, self._client = self._client, None
                await client.aclose()
            return message

        return receive_and_close

    @staticmethod
    def _target(scope: dict[str, Any], scheme: str, owner: str) -> str:
        query = scope.get("query_string", b"").decode("latin-1")
        return f"{scheme}://{owner}{quote(scope['path'])}" + (f"?{query}" if query else "")

    async def _relay_http(
        self, scope: dict[str, Any], receive: Any, send: Any, owner: str, extra: list[Any], limits: Any
    ) -> None:
        import httpx

        limit = limits.max_body_bytes
        chunks: list[bytes] = []
        size = 0

        async def read() -> bool:
            nonlocal size
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return False
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > limit:
                    return False
                chunks.append(chunk)
                if not message.get("more_body"):
                    return True

        try:  # the same guard as a request served here: the whole body within the body timeout
            whole = await asyncio.wait_for(read(), limits.body_timeout)
        except TimeoutError:
            return await _json_reply(
                send, 408, "timeout", f"the request body did not arrive within {limits.body_timeout:g} s"
            )
        if size > limit:
            return await _json_reply(send, 413, "too_large", f"the request body is larger than {limit} bytes")
        if not whole:
            return None
        body = b"".join(chunks)
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=30)
        headers = [(k, v) for k, v in scope["headers"] if k.lower() not in _HOP_BY_HOP] + extra
        try:
            answer = await self._client.request(
                scope["method"], self._target(scope, "http", owner), headers=headers, content=body
            )
        except httpx.HTTPError:
            return await _json_reply(send, 503, "unavailable", "the table's server process did not answer; try again")
        out = [(k.encode(), v.encode()) for k, v in answer.headers.items() if k.encode().lower() not in _HOP_BY_HOP]
        out.append((b"content-length", str(len(answer.content)).encode()))
        await send({"type": "http.response.start", "status": answer.status_code, "headers": out})
        await send({"type": "http.response.body", "body": answer.content})

    async def _relay_websocket(
        self, scope: dict[str, Any], receive: Any, send: Any, owner: str, extra: list[Any]
    ) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        if (await receive())["type"] != "websocket.connect":
            return
        try:
            upstream = await connect(
                self._target(scope, "ws", owner),
                additional_headers=[(k.decode(), v.decode()) for k, v in extra],
                max_size=1 << 20,
                open_timeout=10,
                compression=None,
            )
        except Exception:
            # Its owner is gone and its lease not yet over: "try again later"; the page reconnects, and
            # within a lease period the table is taken over (a refused handshake would read as HTTP 403).
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": 1013, "reason": "the table's server process is away"})
            return
        await send({"type": "websocket.accept"})

        async def downstream() -> None:
            with contextlib.suppress(ConnectionClosed):
                async for message in upstream:
                    if isinstance(message, str):
                        await send({"type": "websocket.send", "text": message})
                    else:
                        await send({"type": "websocket.send", "bytes": message})

        async def from_client() -> None:
            while True:
                message = await receive()
                if message["type"] == "websocket.disconnect":
                    return
                if message["type"] == "websocket.receive":
                    data = message.get("text")
                    await upstream.send(data if data is not None else message.get("bytes") or b"")

        tasks = [asyncio.ensure_future(downstream()), asyncio.ensure_future(from_client())]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            with contextlib.suppress(Exception):
                await upstream.close()
        # The owner's close code reaches the client (4403 bad token, 4404 …); an owner that died
        # closes with 1012 (restart): the client reconnects and lands on whoever took the table over.
        code = upstream.close_code if upstream.close_code not in (None, 1006) else 1012
        with contextlib.suppress(Exception):
            await send({"type": "websocket.close", "code": code, "reason": upstream.close_reason or ""})


async def _refuse(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """A request on the relay listener without the site's relay key."""
    if scope["type"] == "websocket":
        await receive()
        await send({"type": "websocket.close", "code": 4403, "reason": "relayed requests only"})
        return
    await _json_reply(send, 403, "not_relayed", "this address takes requests relayed by the site's processes only")


async def _json_reply(send: Any, status: int, code: str, message: str) -> None:
    body = dumpb({"error": {"code": code, "message": message}})
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
