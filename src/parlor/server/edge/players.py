"""The players' routes: the leaderboards, a finished table's rating changes and a player's public page
(``server/ratings``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from parlor.server.accounts import fold_name
from parlor.server.ratings import Ratings

from .common import account_of

router = APIRouter()


def ratings_of(request: Request) -> Ratings:
    return request.app.state.ratings


@router.get("/api/leaderboard")
async def leaderboard(request: Request) -> dict[str, Any]:
    query = request.query_params
    account = await account_of(request)
    return await ratings_of(request).leaderboard(query.get("game"), query.get("players"), account)


@router.get("/api/tables/{table_id}/ratings")
async def table_ratings(table_id: str, request: Request) -> dict[str, Any]:
    return await ratings_of(request).table_changes(table_id[:64])


@router.get("/api/tables/{table_id}/quick-range")
async def quick_range(table_id: str, request: Request) -> dict[str, Any]:
    return await ratings_of(request).quick_window_of(table_id[:64])


@router.get("/api/players/{name}")
async def player(name: str, request: Request) -> dict[str, Any]:
    return await ratings_of(request).profile(fold_name(" ".join(name.split()))[:64])
