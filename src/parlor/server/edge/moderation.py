"""The moderation routes (``server/moderation``): a player's report, and the moderators' own routes,
every one of them tagged ``admin`` in the OpenAPI description and refused to anyone but a signed-in
moderator (401 signed out, 403 a player). Those that act at a table are under ``/api/tables/{id}/``,
so that on a site of several processes they are relayed to the process that holds the table."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, RedirectResponse, Response

from parlor.server.moderation import Moderation
from parlor.server.table import CloseTable, DeleteChat
from parlor.server.wire import ServerError

from .common import account_of, hub_of, object_body
from .pages import WEB

router = APIRouter()
ADMIN = ["admin"]  # the OpenAPI tag of every moderator's route (tests/server/test_moderation.py lists them)


def moderation_of(request: Request) -> Moderation:
    return request.app.state.moderation


async def admin_of(request: Request) -> dict[str, Any]:
    return await moderation_of(request).require_admin(await account_of(request))


@router.post("/api/reports", status_code=201)
async def report(request: Request) -> dict[str, Any]:
    """A signed-in player reports a player (``player``), optionally at a table (``table_id``) or for a
    chat line there (``chat_idx``), with a ``reason`` and their own words (``text``)."""
    body = await object_body(request)
    return await moderation_of(request).report(await account_of(request), body)


@router.get("/api/admin/reports", tags=ADMIN)
async def reports(request: Request) -> dict[str, Any]:
    await admin_of(request)
    return await moderation_of(request).reports(request.query_params.get("status"))


@router.post("/api/admin/reports/{report_id}/resolve", tags=ADMIN)
async def resolve(report_id: int, request: Request) -> dict[str, Any]:
    admin = await admin_of(request)
    return await moderation_of(request).resolve(admin, report_id, await object_body(request))


@router.get("/api/admin/sanctions", tags=ADMIN)
async def sanctions(request: Request) -> dict[str, Any]:
    await admin_of(request)
    return await moderation_of(request).sanctions()


@router.post("/api/admin/sanctions", status_code=201, tags=ADMIN)
async def sanction(request: Request) -> dict[str, Any]:
    admin = await admin_of(request)
    return await moderation_of(request).sanction(admin, await object_body(request))


@router.post("/api/admin/sanctions/lift", tags=ADMIN)
async def lift(request: Request) -> dict[str, Any]:
    admin = await admin_of(request)
    return await moderation_of(request).lift(admin, await object_body(request))


@router.post("/api/admin/leaderboards/hide", tags=ADMIN)
async def hide(request: Request) -> dict[str, Any]:
    admin = await admin_of(request)
    return await moderation_of(request).hide(admin, await object_body(request))


@router.get("/api/admin/log", tags=ADMIN)
async def admin_log(request: Request) -> dict[str, Any]:
    await admin_of(request)
    return await moderation_of(request).log_lines()


@router.post("/api/tables/{table_id}/moderate/delete-chat", tags=ADMIN)
async def delete_chat(table_id: str, request: Request) -> dict[str, Any]:
    """Delete chat line ``idx`` for everyone (connected clients get a ``chat_deleted`` frame)."""
    admin = await admin_of(request)
    body = await object_body(request)
    logged = moderation_of(request).table_log(admin, table_id, "delete_chat", body)
    table = await hub_of(request).get(table_id)
    result: dict[str, Any] = await table.change(DeleteChat(body.get("idx"), logged))
    return result


@router.post("/api/tables/{table_id}/moderate/close", tags=ADMIN)
async def close_table(table_id: str, request: Request) -> dict[str, Any]:
    """End a table in play: nobody wins, nothing is rated."""
    admin = await admin_of(request)
    body = await object_body(request)
    logged = moderation_of(request).table_log(admin, table_id, "close_table", body)
    table = await hub_of(request).get(table_id)
    return {"table": await table.change(CloseTable(logged))}


@router.get("/admin", include_in_schema=False)
async def admin_page(request: Request) -> Response:
    """The moderators' page: signed out, to the sign-in page and back; a player is refused (403)."""
    account = await account_of(request)
    if account is None:
        return RedirectResponse("/account?next=/admin", status_code=303)
    if not await moderation_of(request).is_admin(account):
        raise ServerError("not_admin", "only the site's moderators may open this page", 403)
    return FileResponse(WEB / "admin.html", headers={"Cache-Control": "no-store"})
