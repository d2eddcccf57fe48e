"""What every route of the edge shares: the app's services, the caller's address, token and account,
and the request body read within the edge's limits. Plain functions of the request (the app's
services and limits live on ``app.state``, set by ``create_app``), so that each router module can
use them without being built inside ``create_app``."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import Request, WebSocket
from fastapi.responses import JSONResponse

from parlor.server.limits import Limits
from parlor.server.table import Hub
from parlor.server.wire import ServerError, loads

from .accounts import cookies_of

PROTOCOL = 2  # 2: state frames after the first are deltas (docs/protocol.md, "state")


def hub_of(request: Request | WebSocket) -> Hub:
    return request.app.state.hub


def address_of(request: Request) -> str | None:
    return request.client.host if request.client is not None else None


def with_urls(request: Request, answer: dict[str, Any]) -> dict[str, Any]:
    """``answer`` with a full link (``join_url``, ``spectator_url``) beside each path it hands out
    (``join_path``, ``spectator_path``), at the top and in its seats, when the site has a public address
    (``--public-url``): the links a host copies and sends. Without one the answer keeps its paths only,
    and the page makes the links with the address it was opened at: the address a request came to is
    no guide (a request relayed from another process of the site came to that process's relay port)."""
    base: str | None = getattr(request.app.state, "public_url", None)
    if base is None:
        return answer

    def linked(entry: dict[str, Any]) -> dict[str, Any]:
        urls = {f"{k[: -len('_path')]}_url": base + v for k, v in entry.items() if k.endswith("_path") and v}
        return {**entry, **urls}

    out = linked(answer)
    if isinstance(answer.get("seats"), list):
        out["seats"] = [linked(s) if isinstance(s, dict) else s for s in answer["seats"]]
    return out


def error(code: str, message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


async def body_of(request: Request) -> Any:
    """The request's JSON, read as it streams: refused as soon as it passes the size limit, or when
    it arrives slower than the body timeout allows (a body announced but never sent)."""
    caps: Limits = request.app.state.limits
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
        raise ServerError("timeout", f"the request body did not arrive within {caps.body_timeout:g} s", 408) from None
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


async def account_of(request: Request | WebSocket) -> dict[str, Any] | None:
    """The signed-in player of this request (its session cookie, as the CSRF check read it), or None: a guest."""
    secret = cookies_of(request).session
    return await request.app.state.accounts.current(secret) if secret else None


async def signed_in(request: Request, what: str) -> dict[str, Any]:
    """The signed-in player of this request; a guest gets 401 ``not_signed_in``, saying that ``what``
    ("friends are", "the turns list is"...) for signed-in players."""
    account = await account_of(request)
    if account is None:
        raise ServerError("not_signed_in", f"sign in first: {what} for signed-in players", 401)
    return account


async def requester_of(request: Request) -> str:
    """Who asks for a review, for the review queue's one-at-a-time rule: the signed-in account, else
    the guest's address."""
    account = await account_of(request)
    return f"account:{account['id']}" if account is not None else f"address:{address_of(request)}"


async def forget_account(request: Request, account_id: str) -> None:
    """A deleted account's seats at the tables this process holds lose their name, and its sessions'
    connections there close (the site's other processes do the same when told: ``table/site.py``)."""
    await hub_of(request).forget_account(account_id)


def int_param(request: Request, name: str, default: int | None = None) -> Any:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    try:
        return int(raw) if len(raw) <= 12 else raw
    except ValueError:
        return raw  # refused with the field named by the table layer
