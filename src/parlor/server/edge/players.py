"""The players' routes: the leaderboards and a player's public page (``server/ratings``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from parlor.server.accounts import fold_name
from parlor.server.ratings import Ratings

router = APIRouter()


def ratings_of(request: Request) -> Ratings:
    return request.app.state.ratings


@router.get("/api/leaderboard")
async def leaderboard(request: Request) -> dict[str, Any]:
    query = request.query_params
    return await ratings_of(request).leaderboard(query.get("game"), query.get("players"))


@router.get("/api/players/{name}")
async def player(name: str, request: Request) -> dict[str, Any]:
    return await ratings_of(request).profile(fold_name(" ".join(name.split()))[:64])
