"""The account routes (``/api/account/…``) and the request rules of every state-changing REST call.

Parse → limit → authenticate → one call into the accounts service (``server/accounts``), as the
table routes do. The session secret travels only in its HttpOnly cookie; a page learns the CSRF token
that goes with it from ``GET /api/account`` (an answer only a same-origin page can read) and sends it
back in the ``X-CSRF-Token`` header.

**One reading of the cookies.** ``CsrfMiddleware`` reads the raw ``Cookie`` header once per request
(:func:`read_cookies`) and keeps the result in the request's state; the CSRF check and every route
(:func:`cookies_of`) use that one reading. A request that carries one of Parlor's cookies twice is
refused: a sibling subdomain can add a cookie of the same name ("cookie tossing"), and which copy a
reader takes would then decide whose authority the request has.
"""

from __future__ import annotations

import hmac
import re
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request, WebSocket
from fastapi.responses import JSONResponse

from parlor.server.accounts import CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE, Accounts, csrf_token
from parlor.server.wire import ServerError, dumps

UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
SIGN_IN_PATHS = frozenset({"/api/account/sign-up", "/api/account/sign-in"})
MAX_SECRET = 200
# The secrets the server hands out are secrets.token_urlsafe values; anything else in the cookie
# (empty, quoted, over-long, other characters) is no secret, for the check and the routes alike.
SECRET_FORM = re.compile(rf"[A-Za-z0-9_-]{{1,{MAX_SECRET}}}")
HOST_PREFIX = "__Host-"
STATE_KEY = "parlor.cookies"  # where the one reading is kept in the ASGI scope's "state"
JSON_TYPE = "application/json"


@dataclass(frozen=True)
class CookieNames:
    """The names of the session cookie and of the sign-in form's cookie. With ``secure`` (a site served
    over TLS only: ``parlor serve --secure-cookies``) they carry the ``__Host-`` prefix: a browser then
    takes such a cookie only from this very host, over TLS, for ``Path=/``, so a sibling subdomain can
    neither set nor shadow it."""

    secure: bool = False

    @property
    def session(self) -> str:
        return HOST_PREFIX + SESSION_COOKIE if self.secure else SESSION_COOKIE

    @property
    def form(self) -> str:
        return HOST_PREFIX + CSRF_COOKIE if self.secure else CSRF_COOKIE


@dataclass(frozen=True)
class Cookies:
    """What a request's ``Cookie`` header says, read once (:func:`read_cookies`)."""

    session: str | None = None  # the session secret; None when absent or malformed
    form: str | None = None  # the sign-in form's CSRF secret; None when absent or malformed
    session_sent: bool = False  # a session cookie was sent at all (even a malformed one: cleared on sign-out)
    repeated: str | None = None  # the name of a Parlor cookie sent more than once


def read_cookies(headers: list[tuple[bytes, bytes]], names: CookieNames) -> Cookies:
    """The session and sign-in form cookies of raw ASGI headers (every ``Cookie`` header, every pair).
    Hand-written rather than ``http.cookies`` or Starlette's parser: those keep one value per name
    (the last one), and a second value is exactly what must be seen here."""
    found: dict[str, list[str]] = {names.session: [], names.form: []}
    for key, value in headers:
        if key != b"cookie":
            continue
        for part in value.decode("latin-1").split(";"):
            name, _, raw = part.partition("=")
            values = found.get(name.strip())
            if values is not None:
                values.append(raw.strip())
    repeated = next((name for name, values in found.items() if len(values) > 1), None)
    if repeated is not None:
        return Cookies(repeated=repeated)

    def secret(values: list[str]) -> str | None:
        return values[0] if values and SECRET_FORM.fullmatch(values[0]) else None

    sessions = found[names.session]
    return Cookies(session=secret(sessions), form=secret(found[names.form]), session_sent=bool(sessions))


def cookies_of(connection: Request | WebSocket) -> Cookies:
    """The request's one reading of its cookies, made by ``CsrfMiddleware`` (read here if it did not run)."""
    state = connection.scope.setdefault("state", {})
    cookies = state.get(STATE_KEY)
    if cookies is None:
        names = getattr(connection.app.state, "cookie_names", CookieNames())
        cookies = state[STATE_KEY] = read_cookies(connection.scope.get("headers") or [], names)
    return cookies


def _header(headers: list[tuple[bytes, bytes]], name: bytes) -> str | None:
    return next((v.decode("latin-1") for k, v in headers if k == name), None)


def _json_or_no_body(headers: list[tuple[bytes, bytes]]) -> bool:
    """A state-changing call sends JSON (``Content-Type: application/json``) or no body at all. A form or
    ``text/plain`` post is what a page of another site can send without asking (no CORS preflight); it
    is refused before any route reads it."""
    content_type = _header(headers, b"content-type")
    if content_type is not None:
        return content_type.split(";", 1)[0].strip().lower() == JSON_TYPE
    length = _header(headers, b"content-length")
    return _header(headers, b"transfer-encoding") is None and (length is None or length.strip() == "0")


class CsrfMiddleware:
    """The request rules checked before any route runs (docs/protocol.md, "CSRF"):

    * a request under ``/api/`` that carries the session cookie or the sign-in form's cookie more than
      once → 400 ``repeated_cookie``; a WebSocket handshake that does is opened without cookies;
    * a state-changing call (``POST``/``PUT``/``PATCH``/``DELETE`` under ``/api/``) whose body is not
      ``application/json`` → 415 ``unsupported_media_type``;
    * a state-changing call that carries the session cookie (or signs in or up, which carry the sign-in
      form's cookie) must send ``X-CSRF-Token`` with the token that goes with that cookie; else 403
      ``csrf``. A call without either cookie has no authority a forged request could borrow (a table's
      secrets are in the body, which another site cannot read), so it passes.

    Nothing happens on a refusal. The cookies read here are the ones the routes use (:func:`cookies_of`)."""

    def __init__(self, app: Any, names: CookieNames | None = None) -> None:
        self.app = app
        self.names = names or CookieNames()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            scope = _same_origin_cookies(scope)
            cookies = read_cookies(scope.get("headers") or [], self.names)
            scope.setdefault("state", {})[STATE_KEY] = Cookies() if cookies.repeated else cookies
        elif scope["type"] == "http":
            headers = scope["headers"]
            cookies = read_cookies(headers, self.names)
            scope.setdefault("state", {})[STATE_KEY] = cookies
            api = scope["path"].startswith("/api/")
            if api and cookies.repeated is not None:
                await _refuse(
                    send,
                    400,
                    "repeated_cookie",
                    f"this request carries the cookie {cookies.repeated} more than once (another site of this "
                    "domain may have set one): clear this site's cookies and sign in again",
                )
                return
            if api and scope["method"] in UNSAFE:
                if not _json_or_no_body(headers):
                    message = "a request body must be JSON (Content-Type: application/json)"
                    await _refuse(send, 415, "unsupported_media_type", message)
                    return
                secret = cookies.session
                if secret is None and scope["path"] in SIGN_IN_PATHS:
                    secret = cookies.form
                    if secret is None:
                        await _refuse(send, 403, "csrf", "no sign-in form was opened here: reload the page")
                        return
                if secret is not None:
                    sent = (_header(headers, CSRF_HEADER.encode()) or "").encode("latin-1")
                    if not hmac.compare_digest(sent, csrf_token(secret).encode()):
                        await _refuse(send, 403, "csrf", "this request lacks the page's CSRF token: reload the page")
                        return
        await self.app(scope, receive, send)


def _same_origin_cookies(scope: Any) -> Any:
    """A WebSocket opened by a page of another origin does not get the session's authority (browsers
    send cookies with any WebSocket handshake, and no CORS rule stops one): its cookies are dropped.
    A handshake relayed by another process of the site (the relay listener, keyed) was checked there."""
    hub = getattr(scope["app"].state, "hub", None)
    site = getattr(hub, "site", None)
    if site is not None and tuple(scope.get("server") or ()) == site.relay_listen:
        return scope
    headers = scope.get("headers") or []
    origin = next((v for k, v in headers if k == b"origin"), None)
    host = next((v for k, v in headers if k == b"host"), b"")
    if origin is None or urlsplit(origin.decode("latin-1")).netloc.encode("latin-1") == host:
        return scope
    # The site's public address (--public-url): its pages are the site's own, whatever Host the proxy sends.
    public = getattr(scope["app"].state, "public_url", None)
    if public is not None and origin.decode("latin-1").rstrip("/").lower() == public:
        return scope
    return {**scope, "headers": [(k, v) for k, v in headers if k != b"cookie"]}


async def _refuse(send: Any, status: int, code: str, message: str) -> None:
    body = dumps({"error": {"code": code, "message": message}}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


def session_secret(request: Request) -> str | None:
    """The session secret of the request (the one reading the CSRF check used), or None."""
    return cookies_of(request).session


def account_router(
    accounts_of: Callable[[Request], Accounts],
    object_body: Callable[[Request], Awaitable[dict[str, Any]]],
    address_of: Callable[[Request], str | None],
    forget_account: Callable[[Request, str], Awaitable[None]],
    names: CookieNames | None = None,
) -> APIRouter:
    router = APIRouter()
    cookie_names = names or CookieNames()

    def set_cookie(response: JSONResponse, request: Request, name: str, value: str, max_age: int | None) -> None:
        response.set_cookie(
            name,
            value,
            max_age=max_age,
            path="/",
            httponly=True,
            samesite="lax" if name == cookie_names.session else "strict",
            # behind TLS (the proxy says so: --forwarded-allow-ips); always with the __Host- prefix
            secure=cookie_names.secure or request.url.scheme == "https",
        )

    def delete_cookie(response: JSONResponse, name: str) -> None:
        response.delete_cookie(name, path="/", secure=cookie_names.secure, httponly=True)

    def signed_in(request: Request, account: dict[str, Any], secret: str, status: int = 200) -> JSONResponse:
        response = JSONResponse({"account": {"name": account["name"]}, "csrf": csrf_token(secret)}, status)
        lifetime = accounts_of(request).limits.session_lifetime
        set_cookie(response, request, cookie_names.session, secret, int(lifetime.total_seconds()))
        delete_cookie(response, cookie_names.form)
        return response

    def signed_out(request: Request) -> JSONResponse:
        """No session: the sign-in form's own CSRF secret (kept if the browser holds one)."""
        cookies = cookies_of(request)
        form = cookies.form or secrets.token_urlsafe(24)
        response = JSONResponse({"account": None, "csrf": csrf_token(form)})
        set_cookie(response, request, cookie_names.form, form, None)
        if cookies.session_sent:
            delete_cookie(response, cookie_names.session)
        return response

    async def require_account(request: Request) -> tuple[dict[str, Any], str]:
        secret = session_secret(request)
        account = await accounts_of(request).current(secret)
        if account is None or secret is None:
            raise ServerError("not_signed_in", "sign in first", 401)
        return account, secret

    @router.get("/api/account")
    async def who(request: Request) -> JSONResponse:
        """The signed-in player (or null) and the CSRF token the page sends with what it changes."""
        secret = session_secret(request)
        account = await accounts_of(request).current(secret)
        if account is None or secret is None:
            return signed_out(request)
        return JSONResponse({"account": {"name": account["name"]}, "csrf": csrf_token(secret)})

    @router.get("/api/account/tables")
    async def my_tables(request: Request) -> dict[str, Any]:
        """The signed-in player's unfinished tables (their seats open by the session: no link needed)."""
        account, _ = await require_account(request)
        return {"tables": await accounts_of(request).tables(account)}

    @router.post("/api/account/sign-up", status_code=201)
    async def sign_up(request: Request) -> JSONResponse:
        body = await object_body(request)
        name, password = body.get("name"), body.get("password")
        account, secret = await accounts_of(request).sign_up(name, password, address_of(request))
        return signed_in(request, account, secret, 201)

    @router.post("/api/account/sign-in")
    async def sign_in(request: Request) -> JSONResponse:
        body = await object_body(request)
        name, password = body.get("name"), body.get("password")
        try:
            account, secret = await accounts_of(request).sign_in(name, password, address_of(request))
        except ServerError as exc:
            request.app.state.metrics.sign_in_failures.labels(reason=exc.code).inc()
            raise
        old = session_secret(request)
        if old is not None:  # signing in as someone else ends the session this browser had
            await accounts_of(request).sign_out(old)
        return signed_in(request, account, secret)

    @router.post("/api/account/sign-out")
    async def sign_out(request: Request) -> JSONResponse:
        await accounts_of(request).sign_out(session_secret(request))
        return signed_out(request)

    @router.post("/api/account/password")
    async def change_password(request: Request) -> JSONResponse:
        body = await object_body(request)
        account, secret = await require_account(request)
        await accounts_of(request).change_password(
            account, secret, body.get("password"), body.get("new_password"), address_of(request)
        )
        return JSONResponse({"account": {"name": account["name"]}, "csrf": csrf_token(secret)})

    @router.post("/api/account/delete")
    async def delete(request: Request) -> JSONResponse:
        body = await object_body(request)
        account, _ = await require_account(request)
        await accounts_of(request).delete(account, body.get("password"), address_of(request))
        await forget_account(request, account["id"])
        return signed_out(request)

    return router
