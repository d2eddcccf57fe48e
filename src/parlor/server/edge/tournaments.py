"""The tournaments' routes (docs/protocol.md, "Tournaments"): making one, the list, one tournament,
signing up and withdrawing. Reading is public; the rest needs a signed-in player. Parse →
authenticate → one call into the service (``server/tournaments``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from parlor.server.tournaments import Tournaments

from .common import account_of, object_body
from .common import signed_in as signed_in_as

router = APIRouter()


def tournaments_of(request: Request) -> Tournaments:
    return request.app.state.tournaments


async def signed_in(request: Request) -> dict[str, Any]:
    return await signed_in_as(request, "tournaments are")


@router.get("/api/tournaments")
async def listing(request: Request) -> dict[str, Any]:
    """The upcoming, running and finished tournaments."""
    return await tournaments_of(request).listing()


@router.post("/api/tournaments", status_code=201)
async def create(request: Request) -> dict[str, Any]:
    body = await object_body(request)
    return await tournaments_of(request).create(await signed_in(request), body)


@router.get("/api/tournaments/{tournament_id}")
async def show(tournament_id: str, request: Request) -> dict[str, Any]:
    """Players, standings, rounds with their tables; with ``you`` for a signed-in player."""
    return await tournaments_of(request).show(tournament_id, await account_of(request))


@router.post("/api/tournaments/{tournament_id}/sign-up")
async def sign_up(tournament_id: str, request: Request) -> dict[str, Any]:
    await object_body(request)
    return await tournaments_of(request).sign_up(await signed_in(request), tournament_id)


@router.post("/api/tournaments/{tournament_id}/withdraw")
async def withdraw(tournament_id: str, request: Request) -> dict[str, Any]:
    await object_body(request)
    return await tournaments_of(request).withdraw(await signed_in(request), tournament_id)
