"""Liveness and readiness, for a supervisor, a load balancer or a monitor (docs/deploy.md, "Health checks").

* ``GET /healthz``: the process is alive (its event loop answers); nothing else is looked at, so a
  supervisor restarts only a process that is truly stuck, never one whose database is away.
* ``GET /readyz``: the process can serve: the database answers and its schema is at the newest
  migration this code knows. 503 with the reason otherwise (a load balancer then sends players elsewhere).

``GET /api/health`` (the protocol's version, used by the pages) is unchanged beside them.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from .common import hub_of

router = APIRouter()

READY_WITHIN = 5.0  # seconds the database has to answer the readiness check


@router.get("/healthz")
async def healthz() -> dict[str, Any]:
    return {"ok": True}


@router.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    db = hub_of(request).db
    # One check at a time: a database that hangs must not pile up a blocked thread per probe.
    pending: asyncio.Future[tuple[set[str], set[str]]] | None = getattr(request.app.state, "ready_check", None)
    if pending is None or pending.done():
        pending = request.app.state.ready_check = asyncio.ensure_future(asyncio.to_thread(db.schema_revisions))
    try:
        current, heads = await asyncio.wait_for(asyncio.shield(pending), READY_WITHIN)
    except TimeoutError:
        return not_ready(f"the database did not answer within {READY_WITHIN:g} s")
    except Exception as exc:  # the driver's own words name the cause (refused, unknown host, password)
        lines = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        return not_ready(f"the database cannot be reached: {lines[0] if lines else type(exc).__name__}")
    if current != heads:
        at = ", ".join(sorted(current)) or "no schema"
        need = ", ".join(sorted(heads))
        return not_ready(
            f"the database schema is at {at}, this server's is {need}: a server migrates the schema when it "
            "starts (restart it; upgrade it first if the database was migrated by a newer Parlor)"
        )
    return JSONResponse({"ok": True, "schema": ", ".join(sorted(heads))})


def not_ready(reason: str) -> JSONResponse:
    return JSONResponse({"ok": False, "reason": reason}, status_code=503, headers={"Cache-Control": "no-store"})
