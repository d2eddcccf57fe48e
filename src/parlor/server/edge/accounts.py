"""The account routes (``/api/account/…``) and the CSRF rule of every state-changing REST call.

Parse → limit → authenticate → one call into the accounts service (``server/accounts``), as the
table routes do. The session secret travels only in its HttpOnly cookie; a page learns the CSRF token
that goes with it from ``GET /api/account`` (an answer only a same-origin page can read) and sends it
back in the ``X-CSRF-Token`` header.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from parlor.server.accounts import CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE, Accounts, csrf_token
from parlor.server.wire import ServerError, dumps

UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
SIGN_IN_PATHS = frozenset({"/api/account/sign-up", "/api/account/sign-in"})
MAX_SECRET = 200


def _cookie(headers: list[tuple[bytes, bytes]], name: str) -> str | None:
    """One cookie's value from a raw ASGI scope's headers (no Request object on the hot path)."""
    prefix = name + "="
    for key, value in headers:
        if key == b"cookie":
            for part in value.decode("latin-1").split(";"):
                part = part.strip()
                if part.startswith(prefix):
                    found = part[len(prefix) :]
                    return found if 0 < len(found) <= MAX_SECRET else None
    return None


class CsrfMiddleware:
    """Every state-changing REST call that carries the session cookie (or signs in or up, which carry the
    sign-in form's cookie) must send ``X-CSRF-Token`` with the token that goes with that cookie; else
    403 ``csrf`` and nothing happens. A call without either cookie has no authority a forged request
    could borrow (a table's secrets are in the body, which another site cannot read), so it passes."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            scope = _same_origin_cookies(scope)
        elif scope["type"] == "http" and scope["method"] in UNSAFE and scope["path"].startswith("/api/"):
            headers = scope["headers"]
            secret = _cookie(headers, SESSION_COOKIE)
            if secret is None and scope["path"] in SIGN_IN_PATHS:
                secret = _cookie(headers, CSRF_COOKIE)
                if secret is None:
                    await _refuse(send, "no sign-in form was opened here: reload the page")
                    return
            if secret is not None:
                sent = next((v for k, v in headers if k == CSRF_HEADER.encode()), b"").decode("latin-1")
                if not hmac.compare_digest(sent.encode(), csrf_token(secret).encode()):
                    await _refuse(send, "this request lacks the page's CSRF token: reload the page")
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
    return {**scope, "headers": [(k, v) for k, v in headers if k != b"cookie"]}


async def _refuse(send: Any, message: str) -> None:
    body = dumps({"error": {"code": "csrf", "message": message}}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 403,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


def session_secret(request: Request) -> str | None:
    secret = request.cookies.get(SESSION_COOKIE)
    return secret if secret and len(secret) <= MAX_SECRET else None


def account_router(
    accounts_of: Callable[[Request], Accounts],
    object_body: Callable[[Request], Awaitable[dict[str, Any]]],
    address_of: Callable[[Request], str | None],
    forget_account: Callable[[Request, str], Awaitable[None]],
) -> APIRouter:
    router = APIRouter()

    def set_cookie(response: JSONResponse, request: Request, name: str, value: str, max_age: int | None) -> None:
        response.set_cookie(
            name,
            value,
            max_age=max_age,
            path="/",
            httponly=True,
            samesite="lax" if name == SESSION_COOKIE else "strict",
            secure=request.url.scheme == "https",  # behind TLS (the proxy says so: --forwarded-allow-ips)
        )

    def signed_in(request: Request, account: dict[str, Any], secret: str, status: int = 200) -> JSONResponse:
        response = JSONResponse({"account": {"name": account["name"]}, "csrf": csrf_token(secret)}, status)
        lifetime = accounts_of(request).limits.session_lifetime
        set_cookie(response, request, SESSION_COOKIE, secret, int(lifetime.total_seconds()))
        response.delete_cookie(CSRF_COOKIE, path="/")
        return response

    def signed_out(request: Request) -> JSONResponse:
        """No session: the sign-in form's own CSRF secret (kept if the browser holds one)."""
        form = request.cookies.get(CSRF_COOKIE)
        if not form or len(form) > MAX_SECRET:
            form = secrets.token_urlsafe(24)
        response = JSONResponse({"account": None, "csrf": csrf_token(form)})
        set_cookie(response, request, CSRF_COOKIE, form, None)
        if request.cookies.get(SESSION_COOKIE) is not None:
            response.delete_cookie(SESSION_COOKIE, path="/")
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
        account, secret = await accounts_of(request).sign_in(name, password, address_of(request))
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
