"""The lobby's routes: the public tables, sitting down at one, quick play (docs/protocol.md, "Lobby").
Parse → authenticate (a session, if any) → one call into the service."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from parlor.server.lobby import Lobby

from .common import account_of, address_of, object_body

router = APIRouter()


def lobby_of(request: Request) -> Lobby:
    return request.app.state.lobby


@router.get("/api/lobby")
async def lobby(request: Request) -> dict[str, Any]:
    return await lobby_of(request).tables(request.query_params.get("game"))


@router.post("/api/tables/{table_id}/sit")
async def sit(table_id: str, request: Request) -> dict[str, Any]:
    body = await object_body(request)
    account = await account_of(request)
    seat, name = body.get("seat"), body.get("name")
    return await lobby_of(request).sit(table_id, seat, account, name, address_of(request))


@router.post("/api/tables/{table_id}/stand-up")
async def stand_up(table_id: str, request: Request) -> dict[str, Any]:
    body = await object_body(request)
    account = await account_of(request)
    return await lobby_of(request).stand_up(table_id, body.get("token"), account)


@router.post("/api/quick-play")
async def quick_play(request: Request) -> dict[str, Any]:
    body = await object_body(request)
    account = await account_of(request)
    return await lobby_of(request).quick_play(body, address_of(request), account)
