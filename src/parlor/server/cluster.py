"""Several server processes as one site, on one PostgreSQL database (``parlor serve --workers N``).

Each unfinished table is played by one process at a time, its *owner*, which holds a lease on it in
``parlor_leases``. The owner renews its leases every third of the lease time, and in every
transaction that stores a decision (``Database._store``: the row lock it takes fences off a process
that lost the lease). Connections land on any process (the processes share the listening socket):

* a request or WebSocket for a table another live process owns is **relayed** to that process's
  private loopback listener (:class:`RelayMiddleware`), marked with the site's relay key so the
  owner sees the real client address; the relayed WebSocket carries the table's frames, so every
  change reaches every client through the one process that made it;
* a table whose lease has run out (its owner died or hung) is **taken over**: every process sweeps for
  such tables and claims them with one atomic statement, and the winner restores the table from the
  database the way a restarted server does. No acknowledged action is lost, as an action is
  acknowledged only after the transaction that stored it.

PostgreSQL's LISTEN/NOTIFY tells the other processes at once when a process leaves cleanly
(``parlor_cluster`` channel, payload ``*``), so that they sweep then rather than at their next tick;
after a crash the sweep's own clock finds the orphaned tables within a lease period or two.
SQLite has no such server: several processes are refused there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from sqlalchemy import text

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("parlor.server")

RELAY_KEY_HEADER = "x-parlor-relay"
RELAY_CLIENT_HEADER = "x-parlor-client"
CHANNEL = "parlor_cluster"

_CLAIM = text(
    "INSERT INTO parlor_leases (table_id, owner, expires_at)"
    " VALUES (:table_id, :owner, now() + make_interval(secs => :seconds))"
    " ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at"
    " WHERE parlor_leases.expires_at < now() OR parlor_leases.owner = EXCLUDED.owner"
    " RETURNING owner"
)
_OWNER = text(
    "SELECT l.owner, p.address FROM parlor_leases l JOIN parlor_processes p ON p.id = l.owner"
    " WHERE l.table_id = :table_id AND l.expires_at > now()"
)
_ORPHANS = text(
    "SELECT t.id FROM parlor_tables t LEFT JOIN parlor_leases l ON l.table_id = t.id"
    " WHERE t.status = 'playing' AND (l.table_id IS NULL OR l.expires_at < now())"
    " ORDER BY t.updated_at"
)
_RENEW_MINE = text(
    "UPDATE parlor_leases SET expires_at = now() + make_interval(secs => :seconds)"
    " WHERE owner = :owner AND table_id = ANY(:held) RETURNING table_id"
)


@dataclass(frozen=True)
class ClusterConfig:
    """This process's place in the site: where the others reach it, and the lease time."""

    address: str  # host:port of this process's private loopback listener
    lease_seconds: float = 10.0


class Cluster:
    def __init__(self, hub: Hub, config: ClusterConfig) -> None:
        self.hub = hub
        self.db = hub.db
        self.id = secrets.token_hex(8)
        self.address = config.address
        self.lease_seconds = config.lease_seconds
        self.relay_key = ""
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._listener: Any = None
        self._notifying: asyncio.Task[None] | None = None  # kept: a task nobody holds may be collected
        self.taken_over = 0  # tables this process took over from another (read by tests)

    # ---- database, in the hub's database threads ----------------------------------------------------
    def _register(self) -> str:
        with self.db.engine.begin() as conn:
            conn.execute(
                text("INSERT INTO parlor_processes (id, address, heartbeat_at) VALUES (:id, :address, now())"),
                {"id": self.id, "address": self.address},
            )
            conn.execute(
                text("INSERT INTO parlor_settings (name, value) VALUES ('relay_key', :key) ON CONFLICT DO NOTHING"),
                {"key": secrets.token_urlsafe(32)},
            )
            return str(conn.execute(text("SELECT value FROM parlor_settings WHERE name = 'relay_key'")).scalar_one())

    def claim(self, table_id: str) -> bool:
        """Take (or keep) the lease of a table nobody else holds; True if this process owns it now."""
        with self.db.engine.begin() as conn:
            row = conn.execute(_CLAIM, {"table_id": table_id, "owner": self.id, "seconds": self.lease_seconds}).first()
        return row is not None

    def owner_elsewhere(self, table_id: str) -> str | None:
        """The address of the live process that owns the table, if that is not this one."""
        with self.db.engine.connect() as conn:
            row = conn.execute(_OWNER, {"table_id": table_id}).first()
        if row is None or row.owner == self.id:
            return None
        return str(row.address)

    def _heartbeat(self, held: list[str]) -> tuple[set[str], list[str]]:
        """Renew this process's row and the leases of the tables it holds; return the renewed ones and
        the unfinished tables that nobody holds (to take over)."""
        with self.db.engine.begin() as conn:
            conn.execute(text("UPDATE parlor_processes SET heartbeat_at = now() WHERE id = :id"), {"id": self.id})
            renewed = {
                r[0] for r in conn.execute(_RENEW_MINE, {"seconds": self.lease_seconds, "owner": self.id, "held": held})
            }
            conn.execute(
                text("DELETE FROM parlor_processes WHERE heartbeat_at < now() - make_interval(secs => :s)"),
                {"s": self.lease_seconds * 6},
            )
            orphans = [r[0] for r in conn.execute(_ORPHANS)]
        return renewed, orphans

    def _leave(self) -> None:
        with self.db.engine.begin() as conn:
            conn.execute(text("DELETE FROM parlor_leases WHERE owner = :id"), {"id": self.id})
            conn.execute(text("DELETE FROM parlor_processes WHERE id = :id"), {"id": self.id})
            conn.execute(text("SELECT pg_notify(:channel, '*')"), {"channel": CHANNEL})

    # ---- life ---------------------------------------------------------------------------------------
    async def start(self) -> None:
        self.relay_key = await self.hub.run_db(self._register)
        self.db.lease = (self.id, self.lease_seconds)
        await self._listen()
        await self.tick()
        self._task = asyncio.get_running_loop().create_task(self._run())
        log.info("server process %s joined the site (relayed requests on %s)", self.id, self.address)

    async def _listen(self) -> None:
        """LISTEN on the site's channel (psycopg's own async connection): a process leaving wakes the
        others' sweep at once."""
        try:
            import psycopg
            from sqlalchemy.engine import make_url

            url = make_url(self.db.url).set(drivername="postgresql")
            conninfo = url.render_as_string(hide_password=False)
            self._listener = await psycopg.AsyncConnection.connect(conninfo, autocommit=True)
            await self._listener.execute(f"LISTEN {CHANNEL}")
            self._notifying = asyncio.get_running_loop().create_task(self._notifications())
        except Exception as exc:  # the lease sweep still runs on its own clock
            log.warning("LISTEN %s failed (%s); tables are taken over at the next sweep", CHANNEL, exc)

    async def _notifications(self) -> None:
        with contextlib.suppress(Exception):
            async for _ in self._listener.notifies():
                self._wake.set()

    async def _run(self) -> None:
        while not self.hub._closing:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.lease_seconds / 3)
            self._wake.clear()
            try:
                await self.tick()
            except Exception:
                log.exception("the cluster heartbeat failed")

    async def tick(self) -> None:
        """Renew what this process holds, let go of what it lost, take over what nobody holds."""
        hub = self.hub
        held = [t.id for t in hub.tables.values() if t.status == "playing"]
        renewed, orphans = await hub.run_db(self._heartbeat, held)
        for table_id in held:
            if table_id not in renewed and table_id in hub.tables:
                log.warning("table %s: this process no longer holds its lease; letting it go", table_id)
                await hub.let_go(hub.tables[table_id])
        for table_id in orphans:
            if hub._closing:
                return
            if table_id in hub.tables or not await hub.run_db(self.claim, table_id):
                continue
            table = await hub.load(table_id, claimed=True)
            if table is not None:
                self.taken_over += 1
                log.info("table %s taken over by server process %s", table_id, self.id)

    async def close(self) -> None:
        for task in (self._task, self._notifying):
            if task is not None:
                task.cancel()
        if self._listener is not None:
            with contextlib.suppress(Exception):
                await self._listener.close()
        with contextlib.suppress(Exception):
            await self.hub.run_db(self._leave)


# ---- relaying a request to the table's owner --------------------------------------------------------
def table_of_path(path: str) -> str | None:
    """``/api/tables/<id>/...`` or ``/ws/tables/<id>`` -> ``<id>`` (creating a table is local)."""
    for prefix in ("/api/tables/", "/ws/tables/"):
        if path.startswith(prefix):
            table_id = path[len(prefix) :].split("/", 1)[0]
            return table_id or None
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
        cluster = getattr(hub, "cluster", None)
        if cluster is None:
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or [])
        key = headers.get(RELAY_KEY_HEADER.encode())
        if key is not None:
            if secrets.compare_digest(key.decode("latin-1"), cluster.relay_key):
                # Relayed by another process of the site: the client is the one it names. Served here,
                # never relayed again (no loops).
                client = headers.get(RELAY_CLIENT_HEADER.encode(), b"?").decode("latin-1")
                scope = {**scope, "client": (client, 0)}
            return await self.app(scope, receive, send)
        table_id = table_of_path(scope["path"])
        if table_id is None or table_id in hub.tables or len(table_id) > 32:
            return await self.app(scope, receive, send)
        try:
            owner = await hub.run_db(cluster.owner_elsewhere, table_id)
        except Exception:
            owner = None
        if owner is None:
            return await self.app(scope, receive, send)
        client = scope["client"][0] if scope.get("client") else "?"
        extra = [
            (RELAY_KEY_HEADER.encode(), cluster.relay_key.encode()),
            (RELAY_CLIENT_HEADER.encode(), client.encode()),
        ]
        if scope["type"] == "http":
            await self._relay_http(scope, receive, send, owner, extra, hub.limits.max_body_bytes)
        else:
            await self._relay_websocket(scope, receive, send, owner, extra)

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
        self, scope: dict[str, Any], receive: Any, send: Any, owner: str, extra: list[Any], limit: int
    ) -> None:
        import httpx

        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if len(body) > limit:
                return await _json_reply(send, 413, "too_large", f"the request body is larger than {limit} bytes")
            if not message.get("more_body"):
                break
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


async def _json_reply(send: Any, status: int, code: str, message: str) -> None:
    import json

    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
