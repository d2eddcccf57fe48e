"""The tables' routes (docs/protocol.md, "REST"): the games on offer, creating a table, reading it,
claiming a seat's link, joining, the replay and the chat's pages, and the host's controls. Each one
parses its request, checks the caller's secret against the table (a finished table's stored row is
enough: nothing is replayed for a wrong token), and then makes one call into the table layer."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from parlor import games as registry
from parlor.bots import LEVELS
from parlor.core import ParlorError
from parlor.core.options import describe_options
from parlor.server.table import (
    BOT_LEVELS,
    Claim,
    Hub,
    LiveTable,
    PlayAgain,
    Relink,
    Rename,
    StandIn,
    authenticate,
    bot_level_description,
    parse_new_table,
    seat_of_claim,
)
from parlor.server.table.changes import check_host
from parlor.server.table.seats import clean_name
from parlor.server.wire import ServerError

from .common import PROTOCOL, account_of, address_of, bearer, body_of, hub_of, int_param, object_body, with_urls

router = APIRouter()


@router.get("/api/health")
async def health() -> dict[str, Any]:
    return {"ok": True, "protocol": PROTOCOL}


@router.get("/api/games")
async def list_games(request: Request) -> dict[str, Any]:
    out = []
    for name in registry.names():
        try:
            g = registry.get(name)
        except (ParlorError, ImportError, Exception) as exc:  # a game still being written
            out.append({"name": name, "available": False, "error": str(exc)})
            continue
        low, high = g.player_range()
        out.append(
            {
                "name": g.name,
                "title": g.title,
                "available": True,
                # the range with no option chosen; each option set's own range is checked on create
                "min_players": low,
                "max_players": high,
                "player_ranges_by_option": g.player_ranges_by_option(),
                "summary": g.summary,
                "options": describe_options(g.Options),
            }
        )
    levels = [{"level": lvl, "description": bot_level_description(lvl)} for lvl in BOT_LEVELS]
    assert all(lvl in LEVELS or lvl == "random" for lvl in BOT_LEVELS)
    # how long a player may be away before a bot plays their seat (the lobby says so; None: never)
    return {"games": out, "bot_levels": levels, "seat_timeout": hub_of(request).default_seat_timeout}


@router.post("/api/tables", status_code=201)
async def create_table(request: Request) -> dict[str, Any]:
    body = await body_of(request)
    account = await account_of(request)
    hub = hub_of(request)
    asked = parse_new_table(body, hub.limits, hub.default_seat_timeout)  # the hub takes only a checked request
    return with_urls(request, await hub.create(asked, address_of(request), account["id"] if account else None))


@router.get("/api/tables/{table_id}")
async def get_table(table_id: str, request: Request) -> dict[str, Any]:
    hub = hub_of(request)
    table = await hub.peek(table_id)  # a finished table: read from the database, not replayed
    summary = table.summary()
    hub.release(table)
    return summary


@router.post("/api/tables/{table_id}/claim")
async def claim(table_id: str, request: Request) -> dict[str, Any]:
    """A seat's join link, claimed once: ``{"claim": code}`` → ``{"seat", "token"}``."""
    hub = hub_of(request)
    body = await object_body(request)
    head = await hub.peek(table_id)
    seat_of_claim(head, body.get("claim"))  # a wrong code is refused before a finished table is replayed
    account = await account_of(request)  # signed in: the seat becomes the account's
    table = await hub.live(head)
    try:
        return await table.change(Claim(body.get("claim"), account))
    finally:
        hub.release(table)


@router.post("/api/tables/{table_id}/join")
async def join(table_id: str, request: Request) -> dict[str, Any]:
    hub = hub_of(request)
    body = await object_body(request)
    head = await hub.peek(table_id)
    seat = authenticate(head, body.get("token"))
    if seat is not None and body.get("name") is not None:
        clean_name(body["name"], seat, "name")  # refused alike whether the game runs or not
    table: Any = head
    if seat is not None and (isinstance(head, LiveTable) or head.status == "playing"):
        table = await hub.live(head)
        try:
            await table.change(Rename(seat, body.get("name")))
        finally:
            hub.release(table)
    return {"role": "spectator" if seat is None else "seat", "seat": seat, "table": table.summary()}


@router.get("/api/tables/{table_id}/replay")
async def replay(table_id: str, request: Request) -> Response:
    """The spectators' replay, or with a seat's token (``Authorization: Bearer``, or ``?token=``) that
    seat's own."""
    hub = hub_of(request)
    table = await hub.peek(table_id)
    try:
        token = bearer(request)
        seat = None if token is None else authenticate(table, token)
        return Response(await hub.replay(table, seat), media_type="application/json")
    finally:
        hub.release(table)


@router.get("/api/tables/{table_id}/chat")
async def chat_page(table_id: str, request: Request) -> Response:
    """Older chat messages, a page at a time (``?before=<idx>&limit=<n>``): public once the game is
    over; while it runs, with a seat's token (the players' channel) or the spectators' (both)."""
    hub = hub_of(request)
    table = await hub.peek(table_id)
    try:
        token = bearer(request)
        if token is None and table.status == "playing":
            raise ServerError("bad_token", "a token is required while the game runs", 403)
        seat = None if token is None else authenticate(table, token)
        before, limit = int_param(request, "before"), int_param(request, "limit", 100)
        return Response(await hub.chat_page(table, seat, before, limit), media_type="application/json")
    finally:
        hub.release(table)


# ---- the host ---------------------------------------------------------------------------------
async def host_table(table_id: str, seat: str, request: Request) -> tuple[Hub, LiveTable, dict[str, Any], int]:
    hub = hub_of(request)
    body = await object_body(request)
    try:
        number = int(seat)
    except ValueError:
        raise ServerError("bad_seat", f"{seat[:20]!r} is not a seat number") from None
    head = await hub.peek(table_id)
    check_host(head, body.get("host_token"))  # before a finished table would be replayed
    if head.status != "playing":
        raise ServerError("game_over", "the game is over", 409)
    table = await hub.live(head)
    return hub, table, body, number


@router.post("/api/tables/{table_id}/seats/{seat}/stand-in")
async def stand_in(table_id: str, seat: str, request: Request) -> dict[str, Any]:
    hub, table, body, number = await host_table(table_id, seat, request)
    try:
        return await table.change(StandIn(body.get("host_token"), number, body.get("on", True)))
    finally:
        hub.release(table)


@router.post("/api/tables/{table_id}/seats/{seat}/new-link")
async def new_link(table_id: str, seat: str, request: Request) -> dict[str, Any]:
    hub, table, body, number = await host_table(table_id, seat, request)
    try:
        return with_urls(request, await table.change(Relink(body.get("host_token"), number)))
    finally:
        hub.release(table)


@router.post("/api/tables/{table_id}/play-again")
async def play_again(table_id: str, request: Request) -> dict[str, Any]:
    hub = hub_of(request)
    body = await object_body(request)
    head = await hub.peek(table_id)
    seat = authenticate(head, body.get("token"))
    if seat is None:
        raise ServerError("spectator", "spectators cannot start a new game", 403)
    if head.next_table is not None and not isinstance(head, LiveTable):
        return {"table_id": head.next_table}  # (each seat's new link went to its own connections)
    table = await hub.live(head)
    try:
        new_id = await table.change(PlayAgain(seat, address_of(request)))
        answer = {"table_id": new_id}
        if seat in table.next_claims:  # the asking seat's own new join link
            answer["join_path"] = f"/play/{new_id}#claim={table.next_claims[seat]}"
        return with_urls(request, answer)
    finally:
        hub.release(table)
