"""The lobby's routes: the public tables, sitting down at one, quick play (docs/protocol.md, "Lobby");
the leaderboards and the players' pages (``server/ratings``). Parse → authenticate (a session, if
any) → one call into the service."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request

from parlor.server.accounts import fold_name
from parlor.server.lobby import Lobby
from parlor.server.ratings import Ratings


def lobby_router(
    lobby_of: Callable[[Request], Lobby],
    object_body: Callable[[Request], Awaitable[dict[str, Any]]],
    address_of: Callable[[Request], str | None],
    account_of: Callable[[Request], Awaitable[dict[str, Any] | None]],
    ratings_of: Callable[[Request], Ratings],
) -> APIRouter:
    router = APIRouter()

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

    @router.get("/api/leaderboard")
    async def leaderboard(request: Request) -> dict[str, Any]:
        query = request.query_params
        return await ratings_of(request).leaderboard(query.get("game"), query.get("players"))

    @router.get("/api/players/{name}")
    async def player(name: str, request: Request) -> dict[str, Any]:
        return await ratings_of(request).profile(fold_name(" ".join(name.split()))[:64])

    return router
