"""The review's routes (docs/protocol.md, "Game review"): parse, authenticate the seat, one call into
the review service (server/review/). The ``hint`` frame is handled with the other frames (websocket.py).
Who asks (``requester_of``: an account, or a guest's address) is for the review queue's
one-at-a-time rule."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from parlor.server.table import authenticate

from .common import account_of, address_of, bearer, object_body, requester_of

router = APIRouter()


async def seat_and_table(table_id: str, request: Request) -> tuple[Any, Any, int | None]:
    hub = request.app.state.hub
    table = await hub.peek(table_id)  # a finished table: its stored row, nothing replayed
    try:
        return hub, table, authenticate(table, bearer(request))
    except Exception:
        hub.release(table)
        raise


@router.post("/api/tables/{table_id}/review")
async def ask_review(table_id: str, request: Request) -> dict[str, Any]:
    """Start the review of the seat whose token is given (``Authorization: Bearer``, or ``?token=``):
    only after the end, only of one's own seat. Answers its status (``status``, ``done``, ``total``,
    and ``position`` while it is ``queued``)."""
    requester = await requester_of(request)
    hub, table, seat = await seat_and_table(table_id, request)
    try:
        return await request.app.state.reviews.request(table, seat, requester)
    finally:
        hub.release(table)


@router.get("/api/tables/{table_id}/review")
async def get_review(table_id: str, request: Request) -> dict[str, Any]:
    """The seat's review as it stands: ``status`` none | queued | working | done | failed, and ``review``."""
    requester = await requester_of(request)
    hub, table, seat = await seat_and_table(table_id, request)
    try:
        return await request.app.state.reviews.status(table, seat, requester)
    finally:
        hub.release(table)


@router.post("/api/tables/{table_id}/practice", status_code=201)
async def practice(table_id: str, request: Request) -> dict[str, Any]:
    """The "Try it again" button: a practice table at one of the asker's decisions (``{"step": K}``, an index of
    the record as the review gives it) of a finished game, with the seat's token. The answer is the
    new table's, as ``POST /api/tables`` gives it (its seat's ``join_path``)."""
    body = await object_body(request)
    account = await account_of(request)
    hub, table, seat = await seat_and_table(table_id, request)
    try:
        return await hub.create_practice(
            table, seat, body.get("step"), address_of(request), account["id"] if account else None
        )
    finally:
        hub.release(table)
