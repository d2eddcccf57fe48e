"""The FastAPI application: the REST lobby and the WebSocket per connection (docs/protocol.md).

The edge of the server: every route parses its request, applies the edge's limits (body size and
time, frame size and rate, connections per address), checks the caller's secret against the table
(a finished table's stored row is enough: nothing is replayed for a wrong token), and then makes one
call into the table layer, usually ``table.change(<a change value>)``. Nothing here writes to the
database or changes a table by itself.

This module only wires the app: its services (built in the lifespan), its middleware and error
answers, and the routers, one module per concern: ``tables``, ``lobby``, ``players``, ``friends``,
``tournaments``, ``review``, ``moderation``, ``pages``, ``websocket``, ``accounts`` and ``health``; what
they share is in ``common``.
"""

from __future__ import annotations

import asyncio
import html
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from parlor.server.accounts import AccountLimits, Accounts
from parlor.server.friends import Friends
from parlor.server.limits import Limits, raise_open_files_limit
from parlor.server.lobby import Lobby
from parlor.server.metrics import HttpErrorsMiddleware, SiteMetrics, sample_forever
from parlor.server.moderation import Moderation
from parlor.server.notify import Notifier, NotifyConfig
from parlor.server.ratings import Ratings
from parlor.server.review import ReviewService
from parlor.server.storage import Database
from parlor.server.table import Hub, SiteConfig
from parlor.server.tournaments import TournamentClock, Tournaments
from parlor.server.wire import ServerError

from . import friends, health, lobby, moderation, notify, pages, players, review, tables, tournaments, turns
from .accounts import CookieNames, CsrfMiddleware, account_router
from .common import PROTOCOL, address_of, error, forget_account, object_body
from .logs import AccessLogMiddleware, install_log_redaction
from .pages import WEB
from .relay import RelayMiddleware
from .websocket import socket_router

__all__ = ["PROTOCOL", "create_app"]


def opened_by_browser(request: Request) -> bool:
    """A person's browser opening an address (not a script, nor the page's own fetch of the API): it
    gets a page to read, in its language, with a way back, rather than the API's JSON error."""
    path = request.url.path
    if request.method != "GET" or path.startswith(("/api/", "/ws/", "/static/")):
        return False
    return "text/html" in request.headers.get("accept", "")


def missing_page(code: str, title: str, text: str, status: int) -> HTMLResponse:
    """web/missing.html: the English words written in (escaped), translated by js/missing.js."""
    page = (WEB / "missing.html").read_text(encoding="utf-8")
    for name, value in (("code", code), ("title", title), ("text", text)):
        page = page.replace("{" + name + "}", html.escape(value))
    return HTMLResponse(page, status_code=status, headers={"Cache-Control": "no-store"})


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
    metrics: SiteMetrics | None = None,
    access_log: bool = False,
    public_url: str | None = None,
    notify_config: NotifyConfig | None = None,
    tournament_clock: TournamentClock | None = None,
    tournament_scan: float | None = None,
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
    (``edge/accounts.py``, ``CookieNames``). ``metrics``: where the app counts what it does
    (``server/metrics.py``; default: a registry of its own, served only if ``--metrics-address`` asks).
    ``access_log``: a log line per request, with its fields (``--log-format json``, ``edge/logs.py``).
    ``public_url``: the address players reach the site at
    (``https://games.example.org``, checked by ``python -m parlor.server``): the links the server hands
    out are made with it, and WebSockets opened by its pages keep their cookies (``edge/accounts.py``).
    ``notify_config``: e-mail (SMTP) and Web Push of the notifications (``server/notify``); the links
    they carry start with ``public_url`` unless it sets its own ``site_url``.
    ``tournament_clock``: the tournaments' idea of now (tests move it forward); ``tournament_scan``:
    seconds between the tournaments' scheduler's looks at the start times (``server/tournaments``).
    """
    db = Database(database_url)
    if site is not None and db.is_sqlite:
        raise ValueError("several server processes need PostgreSQL: SQLite has no server to share them")
    caps = limits or Limits()
    install_log_redaction()
    counted = metrics or SiteMetrics()

    notify_settings = notify_config or NotifyConfig()
    if notify_config is None and public_url:
        notify_settings = NotifyConfig(site_url=public_url.rstrip("/"))

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
        app.state.friends = Friends(hub)
        app.state.moderation = Moderation(hub)
        app.state.ratings = Ratings(hub)
        app.state.lobby = Lobby(hub, app.state.ratings)
        app.state.notifier = notifier = Notifier(hub, notify_settings)
        app.state.friends.invited_hooks.append(notifier.invited)
        scan = {} if tournament_scan is None else {"scan_every": tournament_scan}
        app.state.tournaments = Tournaments(hub, tournament_clock, **scan)
        app.state.tournaments.round_hooks.append(notifier.tournament_round)
        queue_bound = {} if review_queue is None else {"max_waiting": review_queue}
        app.state.reviews = ReviewService(hub, budget=review_budget, processes=review_processes, **queue_bound)
        await hub.start()
        await notifier.start()
        loop = asyncio.get_running_loop()
        sweepers = [
            loop.create_task(app.state.accounts.sweep_forever()),
            loop.create_task(app.state.ratings.sweep_forever()),
            loop.create_task(sample_forever(counted, hub, app.state.reviews)),
            loop.create_task(app.state.friends.refresh_forever()),
            loop.create_task(app.state.tournaments.scan_forever()),
        ]
        try:
            yield
        finally:
            for sweeper in sweepers:
                sweeper.cancel()
            await app.state.ratings.close()
            await notifier.close()
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
    # Innermost: it sees the route the request took, in the process that served it (not again in a
    # process that relayed it there).
    app.add_middleware(HttpErrorsMiddleware, metrics=counted)
    app.add_middleware(RelayMiddleware)  # one of several processes: a table another owns is relayed there
    cookie_names = CookieNames(secure=secure_cookies)
    app.add_middleware(CsrfMiddleware, names=cookie_names)  # (outermost: checked before a request is relayed)
    app.state.cookie_names = cookie_names
    app.state.metrics = counted
    if access_log:
        app.add_middleware(AccessLogMiddleware)
    app.state.database_url = db.url
    app.state.public_url = public_url.rstrip("/").lower() if public_url else None  # (common.py, ``with_urls``)
    app.state.limits = caps  # the request bodies' limits (edge/common.py, ``body_of``)

    @app.exception_handler(ServerError)
    async def _server_error(request: Request, exc: ServerError) -> Response:
        if exc.code == "not_admin" and opened_by_browser(request):
            return missing_page("not_admin", "Only the site's moderators may open this page", exc.message, exc.status)
        return JSONResponse({"error": exc.to_json()}, status_code=exc.status)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        if code == "not_found" and opened_by_browser(request):
            return missing_page(code, "Page not found", "There is no page at this address.", 404)
        return error(code, str(exc.detail), exc.status_code)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return error("bad_request", str(exc.errors()), 422)

    app.include_router(
        account_router(lambda r: r.app.state.accounts, object_body, address_of, forget_account, cookie_names)
    )
    app.include_router(health.router)
    pages.mount_static(app)
    app.include_router(pages.router)
    app.include_router(tables.router)
    app.include_router(lobby.router)
    app.include_router(players.router)
    app.include_router(friends.router)
    app.include_router(notify.router)
    app.include_router(tournaments.router)
    app.include_router(turns.router)
    app.include_router(review.router)
    app.include_router(moderation.router)
    app.include_router(
        socket_router(caps, max_frame_bytes=max_frame_bytes, rate_per_second=rate_per_second, burst=burst)
    )
    return app
