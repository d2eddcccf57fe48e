"""The lobby: public tables waiting for players, sitting down at one, and quick play.

A feature beside ``table/`` (docs/server.md): it reads the listings from the database (every process
of a site lists the same tables, whichever plays them) and changes a table only through the table's
own changes (``SitDown``), so the lock, the fence and the announcements come with them.

Quick play for a game and a player count seats the player at the oldest table quick play opened
that still waits for players (and where their account holds no seat); with none, it opens one and
seats them first. Within one process the search and the opening are serialized per game and player
count, so two players asking together end at one table, not two. Rated quick play takes only a
table whose rating window holds the asker's rating (``ratings.quick_window``: it widens as the table
waits).
"""

from __future__ import annotations

import asyncio
from typing import Any

from parlor.server.ratings import Ratings
from parlor.server.storage import Listings
from parlor.server.table import Hub, SitDown, StandUp, authenticate, parse_new_table
from parlor.server.table.changes import CloseUnjoined, seat_of_account
from parlor.server.wire import ServerError


class Lobby:
    def __init__(self, hub: Hub, ratings: Ratings) -> None:
        self.hub = hub
        self.ratings = ratings  # rated quick play pairs by rating
        self.listings = Listings(hub.db)
        self._quick: dict[tuple[str, int, bool], asyncio.Lock] = {}

    async def tables(self, game: Any) -> dict[str, Any]:
        """``GET /api/lobby``: the public tables waiting for players, and those playing (to watch)."""
        if game is not None and (not isinstance(game, str) or len(game) > 64):
            raise ServerError("unknown_game", "'game' must be a game's name", field="game")
        waiting, playing = await self.hub.run_db(self.listings.public_tables, game)
        return {"waiting": waiting, "playing": playing}

    async def sit(
        self, table_id: str, seat: Any, account: dict[str, Any] | None, name: Any, address: str | None = None
    ) -> dict[str, Any]:
        """Sit down at a public table waiting for players (answers as a claim: the seat's token). The seat
        must be opened (a WebSocket) within ``Limits.sit_open_within``; one address and one account hold
        a few such seats at once (429 ``too_many_seats``)."""
        table = await self.hub.get(table_id)
        try:
            return await table.change(SitDown(seat, account, name, address))
        finally:
            self.hub.release(table)

    async def stand_up(self, table_id: str, token: Any, account: dict[str, Any] | None) -> dict[str, Any]:
        """Leave a public table that still waits for players: the seat of ``token`` (or, with none, the
        signed-in account's) is open again, and the table's wait for bots starts again."""
        table = await self.hub.get(table_id)
        try:
            if token is not None:
                seat = authenticate(table, token)
            else:
                seat = seat_of_account(table, account["id"]) if account is not None else None
            if seat is None:
                raise ServerError("bad_token", "a seat's token is required (or sign in to the seat's account)", 403)
            return await table.change(StandUp(seat))
        finally:
            self.hub.release(table)

    async def quick_play(
        self, body: dict[str, Any], address: str | None, account: dict[str, Any] | None
    ) -> dict[str, Any]:
        game, players = body.get("game"), body.get("players")
        if type(players) is not int:
            raise ServerError("bad_players", "'players' must be a whole number", field="players")
        rated = body.get("rated", False)
        if type(rated) is not bool:
            raise ServerError("bad_request", "'rated' must be true or false", field="rated")
        if rated and account is None:
            raise ServerError("not_signed_in", "rated games are for signed-in players: sign in first", 401)
        unknown = sorted(
            k for k in body if k not in ("game", "players", "rated", "name", "fill_bots_after", "days_per_move")
        )
        if unknown:
            raise ServerError("bad_request", f"unknown field {unknown[0]!r}", field=unknown[0])
        days = body.get("days_per_move")
        if days is not None and type(days) is not int:  # (its range is checked with the new table's fields)
            raise ServerError(
                "bad_request", "'days_per_move' must be a whole number of days, or null", field="days_per_move"
            )
        key = (str(game)[:64], players, rated, days)
        lock = self._quick.setdefault(key, asyncio.Lock())
        async with lock:
            account_id = account["id"] if account is not None else None
            candidates = await self.hub.run_db(self.listings.quick_candidates, key[0], players, rated, account_id, days)
            if rated and candidates and account_id is not None:  # near ratings first (ratings/: the window)
                candidates = await self.ratings.quick_fits(candidates, key[0], players, account_id)
            for table_id in candidates:
                try:
                    return {**await self.sit(table_id, None, account, body.get("name"), address), "created": False}
                except ServerError as exc:
                    # (a bad name, or too many seats held, is the asker's, not the table's)
                    if exc.code in ("bad_request", "bad_json", "too_many_seats"):
                        raise
                    continue  # taken meanwhile, or played by another process now: the next one
            spec = {
                "game": game,
                "players": players,
                "seats": [{"kind": "human"}] * players,
                "public": True,
                "rated": rated,
                "fill_bots_after": body.get("fill_bots_after"),
                "days_per_move": days,
            }
            asked = parse_new_table(spec, self.hub.limits, self.hub.default_seat_timeout)
            created = await self.hub.create(asked, address, account_id, quick=True)
            try:
                seated = await self.sit(created["table"]["id"], 0, account, body.get("name"), address)
            except ServerError as exc:
                if exc.code == "too_many_seats":  # nobody will sit at the table opened for them: closed
                    table = await self.hub.get(created["table"]["id"])
                    await table.change(CloseUnjoined(0.0))
                    self.hub.release(table)
                raise
            return {**seated, "created": True}
