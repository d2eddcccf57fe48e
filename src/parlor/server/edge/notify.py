"""The notifications' routes (docs/protocol.md, "Notifications"): a signed-in player's list, its
settings and its browsers' push subscriptions under ``/api/account/``; and the links mailed out
(unsubscribe, e-mail verification) under ``/notify/``, which work without signing in: their
authority is the signed token they carry. Parse → authenticate → one call into ``server/notify``."""

from __future__ import annotations

import html
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from parlor.server.notify import Notifier
from parlor.server.notify.messages import mail_line

from .common import object_body
from .common import signed_in as signed_in_as

router = APIRouter()


def notifier_of(request: Request) -> Notifier:
    return request.app.state.notifier


async def signed_in(request: Request) -> dict[str, Any]:
    return await signed_in_as(request, "notifications are")


@router.get("/api/account/notifications")
async def notifications(request: Request) -> dict[str, Any]:
    """The newest notifications first, with the unread count. ``?lang=``: the page's language."""
    me = await signed_in(request)
    return await notifier_of(request).listing(me, request.query_params.get("lang"))


@router.post("/api/account/notifications/read")
async def mark_read(request: Request) -> dict[str, Any]:
    """``{"ids": [...]}`` marks those read; ``{}`` marks all."""
    body = await object_body(request)
    return await notifier_of(request).mark_read(await signed_in(request), body.get("ids"))


@router.get("/api/account/notify-settings")
async def settings(request: Request) -> dict[str, Any]:
    return await notifier_of(request).settings(await signed_in(request))


@router.post("/api/account/notify-settings")
async def change_settings(request: Request) -> dict[str, Any]:
    """``{"email", "kinds_off", "language"}``, any of them."""
    body = await object_body(request)
    return await notifier_of(request).change_settings(await signed_in(request), body)


@router.post("/api/account/push")
async def push(request: Request) -> dict[str, Any]:
    """``{"subscription": PushSubscription.toJSON()}`` or ``{"unsubscribe": endpoint}``."""
    body = await object_body(request)
    return await notifier_of(request).push(await signed_in(request), body)


def _page(language: str, text: str, form: str = "", status: int = 200) -> HTMLResponse:
    return HTMLResponse(
        f'<!doctype html><html lang="{html.escape(language)}"><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width">'
        # (an icon of its own: the browser asks for no /favicon.ico, which the site does not have)
        '<link rel="icon" href="data:,"><link rel="stylesheet" href="/static/style.css">'
        f"<title>Parlor</title><body><main><h1>Parlor</h1><p>{html.escape(text)}</p>{form}"
        '<p><a href="/account">Parlor</a></p></main></body></html>',
        status_code=status,
    )


@router.get("/notify/unsubscribe")
async def unsubscribe_page(request: Request) -> HTMLResponse:
    """The mailed link: a page with one button. Opening it changes nothing (mail scanners open links);
    the button, like a mail client's one-click unsubscribe (RFC 8058), POSTs to the same address."""
    notifier = notifier_of(request)
    token = request.query_params.get("token")
    found = notifier.read_unsubscribe(token)
    if found is None:
        return _page("en", mail_line("bad_link", "en"), status=400)
    account_id, kind = found
    language = await notifier.language(account_id)
    button = html.escape(mail_line("unsubscribe_button", language))
    form = (
        f'<form method="post" action="/notify/unsubscribe?token={html.escape(token or "", quote=True)}">'
        f'<button type="submit" name="List-Unsubscribe" value="One-Click">{button}</button></form>'
    )
    return _page(language, mail_line("unsubscribe_confirm", language, kind=kind), form)


@router.post("/notify/unsubscribe")
async def unsubscribe(request: Request) -> HTMLResponse:
    """RFC 8058 one-click: ``List-Unsubscribe=One-Click`` POSTed here switches the token's kind off."""
    notifier = notifier_of(request)
    found = notifier.read_unsubscribe(request.query_params.get("token"))
    if found is None:
        return _page("en", mail_line("bad_link", "en"), status=400)
    account_id, kind = found
    await notifier.unsubscribe(account_id, kind)
    language = await notifier.language(account_id)
    return _page(language, mail_line("unsubscribed", language, kind=kind))


@router.get("/notify/verify")
async def verify(request: Request) -> HTMLResponse:
    """The link mailed to a new address: the address is confirmed (e-mails go only to one confirmed)."""
    notifier = notifier_of(request)
    account_id = await notifier.verify(request.query_params.get("token"))
    if account_id is None:
        return _page("en", mail_line("bad_link", "en"), status=400)
    language = await notifier.language(account_id)
    return _page(language, mail_line("verified", language))
