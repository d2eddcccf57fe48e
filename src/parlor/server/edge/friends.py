"""The friends routes (docs/protocol.md, "Friends"): following, blocking, the friends panel and
invitations. Every one needs a signed-in player. Parse → authenticate → one call into the service
(``server/friends``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from parlor.server.friends import Friends
from parlor.server.wire import ServerError

from .common import address_of, object_body
from .common import signed_in as signed_in_as

router = APIRouter()


def friends_of(request: Request) -> Friends:
    return request.app.state.friends


async def signed_in(request: Request) -> dict[str, Any]:
    return await signed_in_as(request, "friends are")


@router.get("/api/friends")
async def panel(request: Request) -> dict[str, Any]:
    """The players one follows (online or not, their tables waiting for players), the players one
    blocks, and the invitations one has."""
    return await friends_of(request).panel(await signed_in(request))


@router.get("/api/friends/relation")
async def relation(request: Request) -> dict[str, Any]:
    """``?name=``: whether one follows and blocks that player (for their page's buttons)."""
    me = await signed_in(request)
    return await friends_of(request).relation(me, request.query_params.get("name"))


@router.post("/api/friends/follow")
async def follow(request: Request) -> dict[str, Any]:
    body = await object_body(request)
    return await friends_of(request).follow(await signed_in(request), body.get("name"))


@router.post("/api/friends/unfollow")
async def unfollow(request: Request) -> dict[str, Any]:
    body = await object_body(request)
    return await friends_of(request).unfollow(await signed_in(request), body.get("name"))


@router.post("/api/friends/block")
async def block(request: Request) -> dict[str, Any]:
    body = await object_body(request)
    return await friends_of(request).block(await signed_in(request), body.get("name"))


@router.post("/api/friends/unblock")
async def unblock(request: Request) -> dict[str, Any]:
    body = await object_body(request)
    return await friends_of(request).unblock(await signed_in(request), body.get("name"))


@router.post("/api/friends/invitations", status_code=201)
async def invite(request: Request) -> dict[str, Any]:
    """``{"table_id", "name"}``: invite a player one follows to the table where one sits."""
    body = await object_body(request)
    return await friends_of(request).invite(await signed_in(request), body.get("table_id"), body.get("name"))


@router.post("/api/tables/{table_id}/accept-invitation")
async def accept(table_id: str, request: Request) -> dict[str, Any]:
    """``{"invitation": id}``: take a seat at the table one was invited to; answers as sitting down does
    (``table_id``, ``seat``, ``token``). Under ``/api/tables/<id>/`` so that, on a site of several
    processes, the relay hands it to the process that plays the table (``edge/relay.py``)."""
    body = await object_body(request)
    invitation = body.get("invitation")
    if not isinstance(invitation, str) or not 0 < len(invitation) <= 64:
        raise ServerError("bad_request", "'invitation' must be an invitation's id", field="invitation")
    return await friends_of(request).accept(await signed_in(request), table_id, invitation, address_of(request))


@router.post("/api/friends/invitations/{invitation_id}/decline")
async def decline(invitation_id: str, request: Request) -> dict[str, Any]:
    await object_body(request)
    return await friends_of(request).decline(await signed_in(request), invitation_id)
