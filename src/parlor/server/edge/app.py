"""The FastAPI application: the REST lobby and the WebSocket per connection (docs/protocol.md).

The edge of the server: every route parses its request, applies the edge's limits (body size and
time, frame size and rate, connections per address), checks the caller's secret against the table
(a finished table's stored row is enough: nothing is replayed for a wrong token), and then makes one
call into the table layer, usually ``table.change(<a change value>)``. Nothing here writes to the
database or changes a table by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
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
from parlor.server.accounts import AccountLimits, Accounts
from parlor.server.limits import Limits, RateLimiter, raise_open_files_limit
from parlor.server.lobby import Lobby
from parlor.server.ratings import Ratings
from parlor.server.review import ReviewService
from parlor.server.storage import Database
from parlor.server.table import (
    BOT_LEVELS,
    Claim,
    Connection,
    Decide,
    Hub,
    LiveTable,
    PlayAgain,
    Relink,
    Rename,
    Say,
    SiteConfig,
    StandIn,
    Undo,
    authenticate,
    bot_level_description,
    seat_of_claim,
)
from parlor.server.table.changes import check_host, seat_of_account
from parlor.server.table.live import FinishedTable
from parlor.server.table.seats import clean_name
from parlor.server.wire import ServerError, dumps, loads

from .accounts import CookieNames, CsrfMiddleware, account_router, cookies_of
from .lobby import lobby_router
from .logs import install_log_redaction
from .relay import RelayMiddleware
from .review import review_router

PROTOCOL = 2  # 2: state frames after the first are deltas (docs/protocol.md, "state")
WEB = Path(__file__).resolve().parents[2] / "web"  # the browser front end (src/parlor/web)
CLIENT_TYPES = ("action", "undo", "play_again", "chat", "sync", "ping", "hint")
FLOOD_REFUSALS, FLOOD_WINDOW = 30, 10.0  # chat lines refused for their rate within the window (seconds)
log = logging.getLogger("parlor.server")


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
    site: SiteConfig | None = None,
    account_limits: AccountLimits | None = None,
    review_budget: int | None = None,
    review_processes: int = 1,
    review_queue: int | None = None,
    secure_cookies: bool = False,
) -> FastAPI:
    """The Parlor server as an ASGI app.

    ``database_url``: SQLAlchemy URL (``sqlite:///path``, ``postgresql://user@host/db``); default
    ``$PARLOR_DATABASE_URL`` or SQLite in ``~/.local/share/parlor/parlor.db``. ``bot_delay``: seconds a
    bot waits before moving (randomised ±40%). ``seat_timeout``: the default seconds after which a
    disconnected player's seat is played by a bot. The frame size and rate limits apply per connection;
    ``limits`` holds the server-wide ones (docs/protocol.md, "Limits"). ``bot_processes``: worker
    processes for searching bots (default: one fewer than the machine's cores, at least one).
    ``site``: this process is one of several serving one PostgreSQL database (``table/site.py``).
    ``account_limits``: the sign-in and sign-up limits (``server/accounts``).
    ``review_budget``: the judge's search iterations per decision for reviews and hints (default: each
    game's own, ``parlor.review.settings``); ``review_processes``: the review's worker processes
    (as many reviews run at once); ``review_queue``: how many reviews may wait for them (default 100).
    ``secure_cookies``: the site is served over TLS only; its cookies take the ``__Host-`` prefix
    (``edge/accounts.py``, ``CookieNames``).
    """
    db = Database(database_url)
    if site is not None and db.is_sqlite:
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
            site=site,
        )
        app.state.hub = hub
        app.state.accounts = Accounts(db, hub.run_db, account_limits)
        app.state.lobby = Lobby(hub)
        app.state.ratings = Ratings(hub)
        queue_bound = {} if review_queue is None else {"max_waiting": review_queue}
        app.state.reviews = ReviewService(hub, budget=review_budget, processes=review_processes, **queue_bound)
        await hub.start()
        loop = asyncio.get_running_loop()
        sweepers = [
            loop.create_task(app.state.accounts.sweep_forever()),
            loop.create_task(app.state.ratings.sweep_forever()),
        ]
        try:
            yield
        finally:
            for sweeper in sweepers:
                sweeper.cancel()
            await app.state.ratings.close()
            app.state.reviews.close()
            await hub.close()

    # /api/docs: Swagger UI from the swagger-ui-bundle package, not a CDN (the server may have no internet)
    app = FastAPI(
        title="Parlor",
        version=str(PROTOCOL),
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    _offline_docs(app)
    app.add_middleware(RelayMiddleware)  # one of several processes: a table another owns is relayed there
    cookie_names = CookieNames(secure=secure_cookies)
    app.add_middleware(CsrfMiddleware, names=cookie_names)  # (outermost: checked before a request is relayed)
    app.state.cookie_names = cookie_names
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

    def bearer(request: Request) -> str | None:
        """A seat's or the spectators' token: ``Authorization: Bearer …`` or ``?token=``."""
        auth = request.headers.get("authorization", "")
        return auth[7:].strip() if auth[:7].lower() == "bearer " else request.query_params.get("token")

    async def forget_account(request: Request, account_id: str) -> None:
        """A deleted account's seats at the tables this process holds lose their name, and its sessions'
        connections there close (the site's other processes do the same when told: ``table/site.py``)."""
        await hub_of(request).forget_account(account_id)

    app.include_router(
        account_router(lambda r: r.app.state.accounts, object_body, address_of, forget_account, cookie_names)
    )

    # ---- the web front end (static files, no build step) -------------------------------------------
    app.mount("/static", StaticFiles(directory=WEB), name="static")

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(WEB / "index.html")

    @app.get("/play/{table_id}", include_in_schema=False)
    async def play_page(table_id: str) -> FileResponse:
        return FileResponse(WEB / "table.html")  # the token is in the URL fragment, read by the page

    @app.get("/account", include_in_schema=False)
    async def account_page() -> FileResponse:
        return FileResponse(WEB / "account.html")

    @app.get("/players/{name}", include_in_schema=False)
    async def profile_page(name: str) -> FileResponse:
        return FileResponse(WEB / "profile.html")

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

    # ---- REST ---------------------------------------------------------------------------------
    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "protocol": PROTOCOL}

    @app.get("/api/games")
    async def list_games(request: Request) -> dict[str, Any]:
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
        # how long a player may be away before a bot plays their seat (the lobby says so; None: never)
        return {"games": out, "bot_levels": levels, "seat_timeout": hub_of(request).default_seat_timeout}

    async def account_of(request: Request | WebSocket) -> dict[str, Any] | None:
        """The signed-in player of this request (its session cookie, as the CSRF check read it), or None: a guest."""
        secret = cookies_of(request).session
        return await request.app.state.accounts.current(secret) if secret else None

    app.include_router(
        lobby_router(lambda r: r.app.state.lobby, object_body, address_of, account_of, lambda r: r.app.state.ratings)
    )

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request) -> dict[str, Any]:
        body = await body_of(request)
        account = await account_of(request)
        return await hub_of(request).create(body, address_of(request), account["id"] if account else None)

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
        head = await hub.peek(table_id)
        seat_of_claim(head, body.get("claim"))  # a wrong code is refused before a finished table is replayed
        account = await account_of(request)  # signed in: the seat becomes the account's
        table = await hub.live(head)
        try:
            return await table.change(Claim(body.get("claim"), account))
        finally:
            hub.release(table)

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        body = await object_body(request)
        head = await hub.peek(table_id)
        seat = authenticate(head, body.get("token"))
        if seat is not None and body.get("name") is not None:
            clean_name(body["name"], seat, "name")  # refused alike whether the game runs or not
        table: Any = head
        if seat is not None and (isinstance(head, LiveTable) or head.status == "playing"):
            table = await hub.live(head)
            try:
                await table.change(Rename(seat, body.get("name")))
            finally:
                hub.release(table)
        return {"role": "spectator" if seat is None else "seat", "seat": seat, "table": table.summary()}

    @app.get("/api/tables/{table_id}/replay")
    async def replay(table_id: str, request: Request) -> Response:
        """The spectators' replay, or with a seat's token (``Authorization: Bearer``, or ``?token=``) that
        seat's own."""
        hub = hub_of(request)
        table = await hub.peek(table_id)
        try:
            token = bearer(request)
            seat = None if token is None else authenticate(table, token)
            return Response(await hub.replay(table, seat), media_type="application/json")
        finally:
            hub.release(table)

    @app.get("/api/tables/{table_id}/chat")
    async def chat_page(table_id: str, request: Request) -> Response:
        """Older chat messages, a page at a time (``?before=<idx>&limit=<n>``): public once the game is
        over; while it runs, with a seat's token (the players' channel) or the spectators' (both)."""
        hub = hub_of(request)
        table = await hub.peek(table_id)
        try:
            token = bearer(request)
            if token is None and table.status == "playing":
                raise ServerError("bad_token", "a token is required while the game runs", 403)
            seat = None if token is None else authenticate(table, token)
            before, limit = _int_param(request, "before"), _int_param(request, "limit", 100)
            return Response(await hub.chat_page(table, seat, before, limit), media_type="application/json")
        finally:
            hub.release(table)

    async def requester_of(request: Request) -> str:
        """Who asks for a review, for the review queue's one-at-a-time rule: the signed-in account, else
        the guest's address."""
        account = await account_of(request)
        return f"account:{account['id']}" if account is not None else f"address:{address_of(request)}"

    app.include_router(review_router(bearer, requester_of))

    # ---- the host ---------------------------------------------------------------------------------
    async def host_table(table_id: str, seat: str, request: Request) -> tuple[Hub, LiveTable, dict[str, Any], int]:
        hub = hub_of(request)
        body = await object_body(request)
        try:
            number = int(seat)
        except ValueError:
            raise ServerError("bad_seat", f"{seat[:20]!r} is not a seat number") from None
        head = await hub.peek(table_id)
        check_host(head, body.get("host_token"))  # before a finished table would be replayed
        if head.status != "playing":
            raise ServerError("game_over", "the game is over", 409)
        table = await hub.live(head)
        return hub, table, body, number

    @app.post("/api/tables/{table_id}/seats/{seat}/stand-in")
    async def stand_in(table_id: str, seat: str, request: Request) -> dict[str, Any]:
        hub, table, body, number = await host_table(table_id, seat, request)
        try:
            return await table.change(StandIn(body.get("host_token"), number, body.get("on", True)))
        finally:
            hub.release(table)

    @app.post("/api/tables/{table_id}/seats/{seat}/new-link")
    async def new_link(table_id: str, seat: str, request: Request) -> dict[str, Any]:
        hub, table, body, number = await host_table(table_id, seat, request)
        try:
            return await table.change(Relink(body.get("host_token"), number))
        finally:
            hub.release(table)

    @app.post("/api/tables/{table_id}/play-again")
    async def play_again(table_id: str, request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        body = await object_body(request)
        head = await hub.peek(table_id)
        seat = authenticate(head, body.get("token"))
        if seat is None:
            raise ServerError("spectator", "spectators cannot start a new game", 403)
        if head.next_table is not None and not isinstance(head, LiveTable):
            return {"table_id": head.next_table}  # (each seat's new link went to its own connections)
        table = await hub.live(head)
        try:
            new_id = await table.change(PlayAgain(seat, address_of(request)))
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
            head = await hub.peek(table_id)
            account_id = None
            if token == "":  # a signed-in player's own seat (any device), or a public table's spectator
                seat, account_id = await seat_without_token(ws, head)
            else:
                seat = authenticate(head, token)  # a finished table is replayed only for a right token
            table = await hub.live(head)
            if len(table.connections) >= caps.max_connections_per_table:
                raise ServerError(
                    "too_many_connections", f"at most {caps.max_connections_per_table} connections to one table", 429
                )
        except ServerError as exc:
            close = {"table_not_found": 4404, "bad_token": 4403, "seat_replaced": 4403, "too_many_connections": 4429}
            with contextlib.suppress(Exception):
                await ws.send_text(dumps({"type": "error", "code": exc.code, "message": exc.message}))
                await ws.close(code=close.get(exc.code, 4409))
            return
        sockets_per_address[address] = sockets_per_address.get(address, 0) + 1
        try:
            await serve_socket(hub, ws, table, seat, address, account_id)
        finally:
            sockets_per_address[address] -= 1
            if sockets_per_address[address] <= 0:
                del sockets_per_address[address]

    async def seat_without_token(ws: WebSocket, table: LiveTable | FinishedTable) -> tuple[int | None, str | None]:
        """The seat the session's account holds here and that account (None, None: watching a public
        table, as its spectator link would)."""
        account = await account_of(ws)
        seat = seat_of_account(table, account["id"]) if account is not None else None
        if seat is None and not table.public:
            raise ServerError("bad_token", "your account holds no seat at this table (sign in, or open your link)", 403)
        return seat, account["id"] if seat is not None and account is not None else None

    async def serve_socket(
        hub: Hub, ws: WebSocket, table: LiveTable, seat: int | None, address: str, account_id: str | None = None
    ) -> None:
        welcome = {
            "type": "welcome",
            "protocol": PROTOCOL,
            "role": "spectator" if seat is None else "seat",
            "seat": seat,
            "limits": frame_limits,
        }
        try:
            conn = await hub.connect(
                table,
                seat,
                ws.send_text,
                lambda code, reason: ws.close(code=code, reason=reason),
                address,
                welcome,
                account_id,
            )
        except ServerError as exc:
            with contextlib.suppress(Exception):
                await ws.send_text(dumps({"type": "error", "code": exc.code, "message": exc.message}))
                await ws.close(code=1012 if exc.code == "unavailable" else 4409)
            return
        loop = asyncio.get_running_loop()
        writer = loop.create_task(conn.writer())
        bucket = _Bucket(rate_per_second, burst)
        heard = loop.time()
        closing: list[asyncio.Task[None]] = []

        def watch() -> None:
            """Silent for too long (not even the browser's keep-alive ping): closed, and its seat freed.
            One timer per connection, moved on only when it fires (cheaper than a timeout per frame)."""
            silent = loop.time() - heard
            if conn.closed:
                return
            if silent >= caps.idle_timeout:
                closing.append(loop.create_task(ws.close(code=4008, reason="idle for too long")))
                return
            watchdog[0] = loop.call_later(caps.idle_timeout - silent, watch)

        watchdog = [loop.call_later(caps.idle_timeout, watch)]
        try:
            while not conn.closed:
                message = await ws.receive()
                heard = loop.time()
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
                await handle(conn, text, limited)
        except WebSocketDisconnect:
            pass
        except Exception:  # a broken socket must never take the table down
            log.exception("connection to table %s failed", table.id)
        finally:
            watchdog[0].cancel()
            await hub.disconnect(conn)
            if not conn.close_code:
                writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer

    def refuse_chat(conn: Connection, frame: str) -> None:
        """A chat line refused for its rate. A connection that goes on regardless (more than
        ``FLOOD_REFUSALS`` refusals within ``FLOOD_WINDOW`` seconds) is closed (4008): a chat flood
        costs the server the work of refusing it, which other tables would pay for."""
        now = time.monotonic()
        if now - conn.refused_since > FLOOD_WINDOW:
            conn.refused_since, conn.refused = now, 0
        conn.refused += 1
        if conn.refused > FLOOD_REFUSALS:
            conn.close_with(4008, "too many frames refused for their rate")
            return
        conn.push(frame)

    async def handle(conn: Connection, text: str, limited: bool) -> None:
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
        table = conn.table
        try:
            if kind == "ping":
                conn.push(dumps({"type": "pong", "ref": ref}))
            elif kind == "sync":
                # Served from the table's cache; still throttled per table and per address, so that many
                # connections together cannot keep the loop busy.
                if not syncs_per_table.take(table.id) or not syncs_per_address.take(conn.address):
                    raise ServerError(
                        "rate_limited", "too many syncs on this table or from this address; wait a moment"
                    )
                if table.gone:
                    raise ServerError("unavailable", "this table moved to another server process; reconnect", 503)
                conn.push(table.frames.full_frame(conn, "sync"))
            elif kind == "action":
                await table.change(Decide.from_frame(table, conn, msg, ref))  # the ack goes out with the state
            elif kind == "undo":
                await table.change(Undo(conn.seat, (conn, ref)))
            elif kind == "chat":
                say = Say.from_frame(table, conn, msg.get("text"), ref)  # limits first, outside the lock
                await table.change(say)  # its ack, then the chat frame to everyone
            elif kind == "hint":  # answered by a "hint" frame once the judge is done (server/review/)
                app.state.reviews.ask_hint(conn, ref)
            elif kind == "play_again":
                if conn.seat is None:
                    raise ServerError("spectator", "spectators cannot start a new game")
                await table.change(PlayAgain(conn.seat, conn.address, ack=(conn, ref)))
        except ServerError as exc:
            if exc.code == "rate_limited" and kind == "chat":
                refuse_chat(conn, _error(exc.code, exc.message, ref, exc.field))
            else:
                conn.push(_error(exc.code, exc.message, ref, exc.field))
        except Exception as exc:  # never let one frame take the connection (or the table) down
            log.exception("frame %r failed", kind)
            conn.push(_error("server_error", f"the server failed on this frame ({type(exc).__name__})", ref))

    return app


def _int_param(request: Request, name: str, default: int | None = None) -> Any:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    try:
        return int(raw) if len(raw) <= 12 else raw
    except ValueError:
        return raw  # refused with the field named by the table layer


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


def _error(code: str, message: str, ref: Any = None, field: str | None = None) -> str:
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if field is not None:
        out["field"] = field
    if ref is not None:
        out["ref"] = ref
    return dumps(out)
