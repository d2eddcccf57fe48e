"""The turn-based routes (docs/protocol.md, "Turn-based tables"): the signed-in player's "your turn"
list and vacations. Parse → authenticate → one call into the hub's turn store (``storage/turns.py``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from parlor.server.storage import VacationRefused
from parlor.server.table import Hub
from parlor.server.wire import ServerError

from .common import object_body
from .common import signed_in as signed_in_as

router = APIRouter()


def hub_of(request: Request) -> Hub:
    return request.app.state.hub


async def signed_in(request: Request) -> dict[str, Any]:
    return await signed_in_as(request, "the turns list is")


def _iso(stamp: Any) -> str | None:
    return None if stamp is None else stamp.isoformat().replace("+00:00", "Z")


async def _vacation(hub: Hub, account_id: str) -> dict[str, Any]:
    held = await hub.run_db(hub.turns.vacation, account_id, hub.clock())
    allowance = hub.limits.vacation_days_per_year
    return {
        "on_vacation": held["until"] is not None,
        "until": _iso(held["until"]),
        "days_used": held["days_used"],
        "days_left": max(0, allowance - held["days_used"]),
        "days_per_year": allowance,
    }


@router.get("/api/account/turns")
async def turns(request: Request) -> dict[str, Any]:
    """The turn-based tables where the signed-in player must decide, the longest waiting first."""
    me = await signed_in(request)
    hub = hub_of(request)
    return {"turns": await hub.run_db(hub.turns.turns_of, me["id"]), "vacation": await _vacation(hub, me["id"])}


@router.get("/api/account/vacation")
async def vacation(request: Request) -> dict[str, Any]:
    me = await signed_in(request)
    return await _vacation(hub_of(request), me["id"])


@router.post("/api/account/vacation")
async def change_vacation(request: Request) -> dict[str, Any]:
    """``{"action": "start", "days": N}`` pauses the player's turn-based deadlines for N whole days (the
    year's allowance permitting); ``{"action": "stop"}`` ends the running vacation now (whole days
    unused are given back)."""
    body = await object_body(request)
    me = await signed_in(request)
    hub = hub_of(request)
    unknown = sorted(k for k in body if k not in ("action", "days"))
    if unknown:
        raise ServerError("bad_request", f"unknown field {unknown[0]!r}; known: action, days", field=unknown[0])
    action = body.get("action")
    allowance = hub.limits.vacation_days_per_year
    try:
        if action == "start":
            days = body.get("days")
            if type(days) is not int or not 1 <= days <= allowance:
                raise ServerError(
                    "bad_request", f"'days' must be a whole number of days from 1 to {allowance}", field="days"
                )
            until, moved = await hub.run_db(hub.turns.start_vacation, me["id"], days, hub.clock(), allowance)
            hub.vacations[me["id"]] = until
        elif action == "stop":
            if "days" in body:
                raise ServerError("bad_request", "'days' goes with 'start' only", field="days")
            _back, moved = await hub.run_db(hub.turns.stop_vacation, me["id"], hub.clock())
            hub.vacations.pop(me["id"], None)
        else:
            raise ServerError("bad_request", '\'action\' must be "start" or "stop"', field="action")
    except VacationRefused as exc:
        raise ServerError(exc.code, exc.message, 409) from None
    hub.shift_deadlines(me["id"], moved)
    return await _vacation(hub, me["id"])
