"""Seats and tokens: who holds which seat, how a token opens it, and connections arriving and leaving."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from .broadcast import Connection
from .protocol import ServerError

if TYPE_CHECKING:
    from .tables import LiveTable

log = logging.getLogger("parlor.server")

MAX_NAME = 40


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)  # 32 characters


def join_path(table_id: str, token: str) -> str:
    """The spectators' link (a token anyone with the link may use)."""
    return f"/play/{table_id}#token={token}"


def claim_path(table_id: str, code: str) -> str:
    """A seat's join link: its one-time claim code, exchanged for the seat's token on first use."""
    return f"/play/{table_id}#claim={code}"


def clean_name(name: Any, seat: int) -> str | None:
    if name is None:
        return None
    if not isinstance(name, str):
        raise ServerError("bad_request", f"seat {seat}: a name must be a string", field=f"seats[{seat}].name")
    name = " ".join(name.split())[:MAX_NAME]
    return name or None


@dataclass
class Seat:
    seat: int
    kind: str  # human | bot
    level: str | None
    name: str | None
    token_hash: str | None
    joined: bool
    connections: int = 0
    gone_since: float = field(default_factory=time.monotonic)
    substituted: bool = False  # a bot plays it: its player is away longer than the seat timeout
    stand_in: bool = False  # a bot plays it: the host asked, until its player connects
    bot_moves: int = 0  # decisions a substitute bot made for this human seat
    bot: Any = None
    bot_level: str | None = None  # the level ``bot`` was made for
    timer: asyncio.TimerHandle | None = None
    clock: asyncio.TimerHandle | None = None  # the turn clock of the decision it is asked
    clock_deadline: float | None = None  # loop time at which that clock runs out
    clock_version: int = -1  # the table's version when that clock started
    clock_out: bool = False  # its clock ran out: a bot makes this one decision
    saved_clock: tuple[datetime, int] | None = None  # (ends at, version) stored before a restart
    claim_hash: str | None = None  # the one-time code of its join link, until claimed

    def summary(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "level": self.level,
            "name": self.name,
            "joined": self.joined,
            "connected": self.connections > 0,
            "substituted": self.substituted or self.stand_in,
            "stand_in": self.stand_in,
            "bot_moves": self.bot_moves,
        }


def seat_of_token(table: LiveTable, token: str) -> int | bool | None:
    """The seat a token opens, ``None`` for the spectator token, ``False`` for no match."""
    digest = hash_token(token)
    found: int | bool | None = False
    for s in table.seats:
        if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
            found = s.seat
    if hmac.compare_digest(table.spectator_hash, digest):
        found = None
    return found


class SeatsMixin:
    """The hub's part that seats people: joining, authenticating, connecting, disconnecting."""

    async def join(self, table: LiveTable, token: Any, name: Any) -> dict[str, Any]:
        seat = self.authenticate(table, token)
        if seat is not None:
            s = table.seats[seat]
            new_name = clean_name(name, seat) if name is not None else s.name
            if new_name != s.name or not s.joined or s.stand_in:
                await self.run_db(self.db.set_seat, table.id, seat, new_name, True, False)
                s.name, s.joined, s.stand_in = new_name, True, False
                self._seat_control_changed(table, s)
        return {"role": "spectator" if seat is None else "seat", "seat": seat, "table": table.summary()}

    async def claim(self, table: LiveTable, code: Any) -> dict[str, Any]:
        """A join link's claim code, exchanged once for the seat's own token (only the claimant ever
        holds it). A code used before, or replaced by the host's new link, is refused."""
        if not isinstance(code, str) or not code or len(code) > 200:
            raise ServerError("bad_claim", "a claim code is required (the secret of your join link)", 403)
        digest = hash_token(code)
        async with table.lock:
            for s in table.seats:
                if s.claim_hash is not None and hmac.compare_digest(s.claim_hash, digest):
                    token = new_token()
                    if not await self.run_db(self.db.claim_seat, table.id, s.seat, digest, hash_token(token)):
                        break  # claimed meanwhile by another server process
                    s.claim_hash, s.token_hash = None, hash_token(token)
                    log.info("table %s: seat %d claimed", table.id, s.seat)
                    return {"table_id": table.id, "seat": s.seat, "token": token}
        raise ServerError(
            "link_used",
            "this join link was already used to take its seat (or the host replaced it): open the table "
            "in the browser that took the seat, or ask the host for a new link",
            403,
        )

    def authenticate(self, table: LiveTable, token: Any) -> int | None:
        if not isinstance(token, str) or not token or len(token) > 200:
            raise ServerError("bad_token", "a token is required (the secret from your join link)", 403)
        seat = seat_of_token(table, token)
        if seat is False:
            raise ServerError("bad_token", "this token does not open any seat at this table", 403)
        return seat  # type: ignore[return-value]

    async def connect(
        self,
        table: LiveTable,
        seat: int | None,
        send: Callable[[str], Any],
        close: Callable[[int, str], Any] | None = None,
        max_queue_bytes: int = 8 * 1024 * 1024,
    ) -> Connection:
        conn = Connection(table, seat, send, close, max_queue_bytes)
        table.connections.add(conn)  # at once, so that the table counts as watched; frames wait for ready
        if seat is not None:
            s = table.seats[seat]
            s.connections += 1
            if s.timer is not None:
                s.timer.cancel()
                s.timer = None
            changed = s.substituted or s.stand_in or not s.joined
            s.substituted = False
            if not s.joined or s.stand_in:  # the player is here: no stand-in from now on
                s.joined, s.stand_in = True, False
                try:
                    await self.run_db(self.db.set_seat, table.id, seat, s.name, True, False)
                except Exception:  # only the "joined" mark: not worth refusing the player
                    log.exception("table %s: cannot mark seat %d joined", table.id, seat)
            if changed or s.connections == 1:
                self._seat_control_changed(table, s)
        # Only now (after the last await) may broadcasts reach it: the caller queues the join state at once.
        conn.ready = True
        return conn

    def disconnect(self, conn: Connection) -> None:
        table = conn.table
        if conn not in table.connections:  # already gone (e.g. its seat was given a new link)
            return
        conn.closed = True
        conn.queue.put_nowait(None)
        table.connections.discard(conn)
        if conn.seat is not None:
            s = table.seats[conn.seat]
            s.connections -= 1
            if s.connections == 0:
                s.gone_since = time.monotonic()
                self._arm_timeout(table, s)
                self._broadcast_seats(table)
        self.release(table)
