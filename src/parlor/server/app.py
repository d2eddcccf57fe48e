"""The FastAPI application: the REST lobby and the WebSocket per connection (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from parlor import games as registry
from parlor.bots import LEVELS
from parlor.core import ParlorError
from parlor.core.options import describe_options

from .cluster import ClusterConfig, RelayMiddleware
from .db import Database
from .hub import BOT_LEVELS, Connection, Hub, ServerError, bot_level_description
from .limits import Limits, RateLimiter, install_log_redaction, raise_open_files_limit
from .protocol import loads

PROTOCOL = 1
WEB = Path(__file__).resolve().parent.parent / "web"  # the browser front end (src/parlor/web)
CLIENT_TYPES = ("action", "undo", "play_again", "chat", "sync", "ping")


def _offline_docs(app: FastAPI) -> None:
    import swagger_ui_bundle
    from fastapi.openapi.docs import get_swagger_ui_html

    app.mount("/api/docs/static", StaticFiles(directory=swagger_ui_bundle.swagger_ui_path), name="api-docs-static")

    @app.get("/api/docs", include_in_schema=False)
    async def api_docs() -> Any:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title="Parlor API",
            swagger_js_url="/api/docs/static/swagger-ui-bundle.js",
            swagger_css_url="/api/docs/static/swagger-ui.css",
            swagger_favicon_url="/api/docs/static/favicon-32x32.png",
        )


def create_app(
    database_url: str | None = None,
    *,
    bot_delay: float = 0.8,
    seat_timeout: float | None = 120.0,
    max_frame_bytes: int = 16 * 1024,
    rate_per_second: float = 20.0,
    burst: int = 40,
    limits: Limits | None = None,
    bot_processes: int | None = None,
    cluster: ClusterConfig | None = None,
) -> FastAPI:
    """The Parlor server as an ASGI app.

    ``database_url``: SQLAlchemy URL (``sqlite:///path``, ``postgresql://user@host/db``); default
    ``$PARLOR_DATABASE_URL`` or SQLite in ``~/.local/share/parlor/parlor.db``. ``bot_delay``: seconds a
    bot waits before moving (randomised ±40%). ``seat_timeout``: the default seconds after which a
    disconnected player's seat is played by a bot. The frame size and rate limits apply per connection;
    ``limits`` holds the server-wide ones (docs/protocol.md, "Limits"). ``bot_processes``: worker
    processes for searching bots (default: one fewer than the machine's cores, at least one).
    ``cluster``: this process is one of several serving one PostgreSQL database (cluster.py).
    """
    db = Database(database_url)
    if cluster is not None and db.is_sqlite:
        raise ValueError("several server processes need PostgreSQL: SQLite has no server to share them")
    caps = limits or Limits()
    frame_limits = {"max_frame_bytes": max_frame_bytes, "rate_per_second": rate_per_second, "burst": burst}
    install_log_redaction()
    syncs_per_table = RateLimiter(caps.syncs_per_table_per_second, caps.syncs_per_table_per_second * 2)
    syncs_per_address = RateLimiter(caps.syncs_per_address_per_second, caps.syncs_per_address_per_second * 2)
    sockets_per_address: dict[str, int] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        raise_open_files_limit()
        hub = Hub(
            db,
            bot_delay=bot_delay,
            default_seat_timeout=seat_timeout,
            limits=caps,
            bot_processes=bot_processes,
            cluster=cluster,
        )
        app.state.hub = hub
        await hub.start()
        try:
            yield
        finally:
            await hub.close()

    # /api/docs: Swagger UI from the swagger-ui-bundle package, not a CDN (the server may have no internet)
    app = FastAPI(title="Parlor", version=str(PROTOCOL), lifespan=lifespan, docs_url=None, redoc_url=None)
    _offline_docs(app)
    app.add_middleware(RelayMiddleware)  # one of several processes: a table another owns is relayed there
    app.state.database_url = db.url

    def hub_of(request: Request | WebSocket) -> Hub:
        return request.app.state.hub

    def address_of(request: Request) -> str | None:
        return request.client.host if request.client is not None else None

    def error(code: str, message: str, status: int) -> JSONResponse:
        return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)

    @app.exception_handler(ServerError)
    async def _server_error(_request: Request, exc: ServerError) -> JSONResponse:
        return JSONResponse({"error": exc.to_json()}, status_code=exc.status)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return error(code, str(exc.detail), exc.status_code)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return error("bad_request", str(exc.errors()), 422)

    async def body_of(request: Request) -> Any:
        """The request's JSON, read as it streams: refused as soon as it passes the size limit, or when
        it arrives slower than the body timeout allows (a body announced but never sent)."""
        announced = request.headers.get("content-length")
        if announced is not None and announced.isdigit() and int(announced) > caps.max_body_bytes:
            raise ServerError("too_large", f"the request body is larger than {caps.max_body_bytes} bytes", 413)
        chunks: list[bytes] = []
        size = 0

        async def read() -> None:
            nonlocal size
            async for chunk in request.stream():
                size += len(chunk)
                if size > caps.max_body_bytes:
                    raise ServerError("too_large", f"the request body is larger than {caps.max_body_bytes} bytes", 413)
                chunks.append(chunk)

        try:
            await asyncio.wait_for(read(), caps.body_timeout)
        except TimeoutError:
            raise ServerError(
                "timeout", f"the request body did not arrive within {caps.body_timeout:g} s", 408
            ) from None
        return loads(b"".join(chunks) or b"{}")

    async def object_body(request: Request) -> dict[str, Any]:
        body = await body_of(request)
        if not isinstance(body, dict):
            raise ServerError("bad_request", "the body must be a JSON object")
        return body

    # ---- REST ---------------------------------------------------------------------------------
    # ---- the web front end (static files, no build step) -------------------------------------------
    app.mount("/static", StaticFiles(directory=WEB), name="static")

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(WEB / "index.html")

    @app.get("/play/{table_id}", include_in_schema=False)
    async def play_page(table_id: str) -> FileResponse:
        return FileResponse(WEB / "table.html")  # the token is in the URL fragment, read by the page

    @app.get("/replay/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str) -> FileResponse:
        return FileResponse(WEB / "replay.html")

    # The installable app (web/js/pwa.js): a service worker covers only the pages under its own
    # address, so it is served from the root, and the manifest beside it.
    @app.get("/sw.js", include_in_schema=False)
    async def service_worker() -> FileResponse:
        return FileResponse(WEB / "sw.js", media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    @app.get("/manifest.webmanifest", include_in_schema=False)
    async def manifest() -> FileResponse:
        return FileResponse(WEB / "manifest.webmanifest", media_type="application/manifest+json")

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "protocol": PROTOCOL}

    @app.get("/api/games")
    async def list_games() -> dict[str, Any]:
        out = []
        for name in registry.names():
            try:
                g = registry.get(name)
            except (ParlorError, ImportError, Exception) as exc:  # a game still being written
                out.append({"name": name, "available": False, "error": str(exc)})
                continue
            low, high = g.player_range()
            out.append(
                {
                    "name": g.name,
                    "title": g.title,
                    "available": True,
                    # the range with no option chosen; each option set's own range is checked on create
                    "min_players": low,
                    "max_players": high,
                    "player_ranges_by_option": g.player_ranges_by_option(),
                    "summary": g.summary,
                    "options": describe_options(g.Options),
                }
            )
        levels = [{"level": lvl, "description": bot_level_description(lvl)} for lvl in BOT_LEVELS]
        assert all(lvl in LEVELS or lvl == "random" for lvl in BOT_LEVELS)
        return {"games": out, "bot_levels": levels}

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request) -> dict[str, Any]:
        return await hub_of(request).create(await body_of(request), address_of(request))

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str, request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        table = await hub.peek(table_id)  # a finished table: read from the database, not replayed
        summary = table.summary()
        hub.release(table)
        return summary

    @app.post("/api/tables/{table_id}/claim")
    async def claim(table_id: str, request: Request) -> dict[str, Any]:
        """A seat's join link, claimed once: ``{"claim": code}`` → ``{"seat", "token"}``."""
        hub = hub_of(request)
        body = await object_body(request)
        table = await hub.get(table_id)
        try:
            return await hub.claim(table, body.get("claim"))
        finally:
            hub.release(table)

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        body = await object_body(request)
        table = await hub.get(table_id)
        try:
            return await hub.join(table, body.get("token"), body.get("name"))
        finally:
            hub.release(table)

    @app.get("/api/tables/{table_id}/replay")
    async def replay(table_id: str, request: Request) -> Response:
        """The spectators' replay, or with a seat's token (``Authorization: Bearer``, or ``?token=``) that
        seat's own."""
        hub = hub_of(request)
        table = await hub.peek(table_id)
        try:
            auth = request.headers.get("authorization", "")
            token = auth[7:].strip() if auth[:7].lower() == "bearer " else request.query_params.get("token")
            seat = None if token is None else hub.authenticate(table, token)
            return await hub.replay(table, seat)
        finally:
            hub.release(table)

    # ---- the host ---------------------------------------------------------------------------------
    async def host_request(table_id: str, seat: str, request: Request) -> tuple[Hub, Any, dict[str, Any], int]:
        hub = hub_of(request)
        body = await object_body(request)
        try:
            number = int(seat)
        except ValueError:
            raise ServerError("bad_seat", f"{seat[:20]!r} is not a seat number") from None
        return hub, await hub.get(table_id), body, number

    @app.post("/api/tables/{table_id}/seats/{seat}/stand-in")
    async def stand_in(table_id: str, seat: str, request: Request) -> dict[str, Any]:
        hub, table, body, number = await host_request(table_id, seat, request)
        try:
            return await hub.set_stand_in(table, body.get("host_token"), number, body.get("on", True))
        finally:
            hub.release(table)

    @app.post("/api/tables/{table_id}/seats/{seat}/new-link")
    async def new_link(table_id: str, seat: str, request: Request) -> dict[str, Any]:
        hub, table, body, number = await host_request(table_id, seat, request)
        try:
            return await hub.new_link(table, body.get("host_token"), number)
        finally:
            hub.release(table)

    @app.post("/api/tables/{table_id}/play-again")
    async def play_again(table_id: str, request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        body = await object_body(request)
        table = await hub.get(table_id)
        try:
            seat = hub.authenticate(table, body.get("token"))
            new_id = await hub.play_again(table, seat, address_of(request))
            hub.announce_next(table)
            answer = {"table_id": new_id}
            if seat in table.next_claims:  # the asking seat's own new join link
                answer["join_path"] = f"/play/{new_id}#claim={table.next_claims[seat]}"
            return answer
        finally:
            hub.release(table)

    # ---- WebSocket --------------------------------------------------------------------------------
    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(ws: WebSocket, table_id: str) -> None:
        hub = hub_of(ws)
        await ws.accept()
        token = ws.query_params.get("token", "")
        address = ws.client.host if ws.client is not None else "?"
        try:
            if sockets_per_address.get(address, 0) >= caps.max_connections_per_address:
                raise ServerError(
                    "too_many_connections",
                    f"at most {caps.max_connections_per_address} connections from one address",
                    429,
                )
            table = await hub.get(table_id)
            seat = hub.authenticate(table, token)
            if len(table.connections) >= caps.max_connections_per_table:
                raise ServerError(
                    "too_many_connections", f"at most {caps.max_connections_per_table} connections to one table", 429
                )
        except ServerError as exc:
            close = {"table_not_found": 4404, "bad_token": 4403, "too_many_connections": 4429}.get(exc.code, 4409)
            with contextlib.suppress(Exception):
                await ws.send_text(_frame({"type": "error", "code": exc.code, "message": exc.message}))
                await ws.close(code=close)
            return
        sockets_per_address[address] = sockets_per_address.get(address, 0) + 1
        try:
            await serve_socket(hub, ws, table, seat, address)
        finally:
            sockets_per_address[address] -= 1
            if sockets_per_address[address] <= 0:
                del sockets_per_address[address]

    async def serve_socket(hub: Hub, ws: WebSocket, table: Any, seat: int | None, address: str) -> None:
        table_id = table.id
        conn = await hub.connect(
            table,
            seat,
            ws.send_text,
            lambda code, reason: ws.close(code=code, reason=reason),
            max_queue_bytes=caps.max_queue_bytes,
        )
        conn.address = address
        writer = asyncio.get_running_loop().create_task(conn.writer())
        bucket = _Bucket(rate_per_second, burst)
        try:
            welcome = {
                "type": "welcome",
                "protocol": PROTOCOL,
                "role": "spectator" if seat is None else "seat",
                "seat": seat,
                "table": table.summary(),
                "limits": frame_limits,
            }
            conn.push(_frame(welcome))
            conn.push(hub.state_frame(conn, "join"))
            conn.push(hub.chat_history_frame(table, conn))
            if table.next_table is not None:  # "play again" was asked: where (and this seat's new link)
                hub.announce_next(table, only=conn)
            while not conn.closed:
                try:
                    message = await asyncio.wait_for(ws.receive(), caps.idle_timeout)
                except TimeoutError:  # silent for too long: not even the browser's keep-alive ping
                    with contextlib.suppress(Exception):
                        await ws.close(code=4008, reason="idle for too long")
                    break
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    data = message.get("bytes") or b""
                    size = len(data)
                else:
                    size = len(text.encode("utf-8", "surrogatepass")) if len(text) * 4 > max_frame_bytes else len(text)
                limited = not bucket.take()
                if size > max_frame_bytes:
                    conn.push(_error("too_large", f"frames are limited to {max_frame_bytes} bytes, got {size}"))
                    continue
                if text is None:
                    try:
                        text = data.decode("utf-8")
                    except UnicodeDecodeError:
                        conn.push(_error("bad_json", "binary frames must be UTF-8 JSON"))
                        continue
                await handle(hub, conn, text, limited)
        except WebSocketDisconnect:
            pass
        except Exception:  # a broken socket must never take the table down
            logging.getLogger("parlor.server").exception("connection to table %s failed", table_id)
        finally:
            hub.disconnect(conn)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer

    async def handle(hub: Hub, conn: Connection, text: str, limited: bool) -> None:
        try:
            msg = loads(text)
        except ServerError as exc:
            conn.push(_error(exc.code, exc.message))
            return
        if not isinstance(msg, dict):
            conn.push(_error("bad_frame", "a frame must be a JSON object with a 'type'"))
            return
        ref = msg.get("ref")
        if ref is not None and not (
            (isinstance(ref, str) and len(ref) <= 64) or (type(ref) is int and abs(ref) < 1 << 53)
        ):
            conn.push(_error("bad_frame", "'ref' must be a string of at most 64 characters or an integer"))
            return
        if limited:
            conn.push(_error("rate_limited", f"slow down: at most {rate_per_second:g} frames a second", ref))
            return
        kind = msg.get("type")
        if not isinstance(kind, str):
            conn.push(_error("bad_frame", "a frame needs a string 'type'", ref))
            return
        if kind not in CLIENT_TYPES:
            conn.push(
                _error("unknown_type", f"unknown frame type {kind[:40]!r}; known: {', '.join(CLIENT_TYPES)}", ref)
            )
            return
        try:
            if kind == "ping":
                conn.push(_frame({"type": "pong", "ref": ref}))
            elif kind == "sync":
                # Served from the table's cache; still throttled per table and per address, so that many
                # connections together cannot keep the loop busy.
                if not syncs_per_table.take(conn.table.id) or not syncs_per_address.take(conn.address):
                    raise ServerError(
                        "rate_limited", "too many syncs on this table or from this address; wait a moment"
                    )
                conn.push(hub.state_frame(conn, "sync"))
            elif kind == "action":
                await hub.act(conn, msg, ref)  # the ack goes out with the state frames
            elif kind == "undo":
                await hub.undo(conn, ref)
            elif kind == "chat":
                await hub.say(conn, msg.get("text"), ref)  # its ack, then the chat frame to everyone
            elif kind == "play_again":
                if conn.seat is None:
                    raise ServerError("spectator", "spectators cannot start a new game")
                new_id = await hub.play_again(conn.table, conn.seat, conn.address)
                ack = {"type": "ack", "ref": ref, "version": conn.table.version, "table_id": new_id}
                if conn.seat in conn.table.next_claims:  # this seat's own link to the new table
                    ack["join_path"] = f"/play/{new_id}#claim={conn.table.next_claims[conn.seat]}"
                conn.push(_frame(ack))
                hub.announce_next(conn.table)
        except ServerError as exc:
            conn.push(_error(exc.code, exc.message, ref, exc.field))
        except Exception as exc:  # never let one frame take the connection (or the table) down
            logging.getLogger("parlor.server").exception("frame %r failed", kind)
            conn.push(_error("server_error", f"the server failed on this frame ({type(exc).__name__})", ref))

    return app


class _Bucket:
    """A token bucket: ``burst`` frames at once, ``rate`` a second sustained."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.capacity = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def _frame(value: dict[str, Any]) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _error(code: str, message: str, ref: Any = None, field: str | None = None) -> str:
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if field is not None:
        out["field"] = field
    if ref is not None:
        out["ref"] = ref
    return _frame(out)
