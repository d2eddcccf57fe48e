"""Seats and tokens: who holds which seat, how a token opens it, and when a seat counts as away."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import time
import unicodedata
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from parlor.server.wire import ServerError

MAX_NAME = 40
SEAT_REPLACED = "the host gave this seat a new link while you were away: ask the host for it"


def _utc(stamp: datetime | None) -> datetime | None:
    return stamp if stamp is None or stamp.tzinfo is not None else stamp.replace(tzinfo=UTC)


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


def clean_name(name: Any, seat: int, field_name: str | None = None) -> str | None:
    """A seat's name as stored: white space folded to single spaces, at most ``MAX_NAME`` characters.
    Control characters (NUL, bells, escapes) are refused: no database stores NUL in text, and none
    belongs in a name."""
    where = field_name or f"seats[{seat}].name"
    if name is None:
        return None
    if not isinstance(name, str):
        raise ServerError("bad_request", f"seat {seat}: a name must be a string", field=where)
    name = " ".join(name.split())[:MAX_NAME]
    if any(unicodedata.category(c) == "Cc" for c in name):
        raise ServerError("bad_request", f"seat {seat}: a name cannot hold control characters", field=where)
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
    # The decision the seat is asked: when its time runs out (UTC), and the table's version when it was
    # asked. Kept when the clock runs out or a bot takes over, and through a move and its undo: the
    # deadline belongs to the decision, so a seat holds one decision at most one turn time.
    turn_ends_at: datetime | None = None
    turn_asked_at: int = -1
    clock_out: bool = False  # its clock ran out: a bot makes this one decision
    # At a turn-based table: since when the seat waits on its decision, and the (since, deadline) last
    # stored for it (what the deadline scan and the "your turn" list read).
    turn_since: datetime | None = None
    turn_stored: tuple[datetime | None, datetime | None] = (None, None)
    saved_clock: tuple[datetime, int] | None = None  # (ends at, version) stored before a restart
    claim_hash: str | None = None  # the one-time code of its join link, until claimed
    replaced_hash: str | None = None  # the token the host's last new link replaced (its holder is told)
    away_timer: asyncio.TimerHandle | None = None  # when it turns "away" (the host may then relink it)
    account_id: str | None = None  # the account it belongs to (taken while signed in): its player's sign-in opens it
    # Sat down in (the lobby, quick play) and not opened yet: its holder must open the table by then, or
    # the seat is freed (the table still waits for players) or a bot plays it (the game is on).
    open_by: datetime | None = None
    open_timer: asyncio.TimerHandle | None = None  # acts at ``open_by``

    @classmethod
    def from_row(cls, s: dict[str, Any]) -> "Seat":
        """A seat as stored (``parlor_seats``)."""
        seat = cls(s["seat"], s["kind"], s["level"], s["name"], s["token_hash"], bool(s["joined"]))
        seat.stand_in = bool(s.get("stand_in", False))
        seat.claim_hash = s.get("claim_hash")
        seat.replaced_hash = s.get("replaced_hash")
        seat.account_id = s.get("account_id")
        seat.open_by = s.get("open_by")
        if s.get("turn_deadline") is not None:  # a turn-based decision waiting (stored UTC; SQLite's naive)
            since, deadline = (_utc(s.get("turn_since")), _utc(s["turn_deadline"]))
            seat.turn_since, seat.turn_ends_at, seat.turn_stored = since, deadline, (since, deadline)
            seat.turn_asked_at = s.get("turn_version") if s.get("turn_version") is not None else -1
        return seat

    def is_away(self, after: float) -> bool:
        """Away: nobody holds the seat (never claimed), or its player has had no connection for
        ``after`` seconds. Only an away seat may be given a new link by the host."""
        if self.kind != "human":
            return False
        if self.token_hash is None:
            return True
        return self.connections == 0 and time.monotonic() - self.gone_since >= after

    @property
    def is_open(self) -> bool:
        """Nobody holds it (no link claimed, no account): at a public table anyone may sit down there."""
        return self.kind == "human" and self.token_hash is None and self.account_id is None

    @property
    def is_absent(self) -> bool:
        """Held (a claimed link, an account, somebody sat down) by someone who has not opened the table:
        the others see that the seat is taken but nobody is there."""
        return self.kind == "human" and not self.is_open and (not self.joined or self.open_by is not None)

    def open_within(self) -> float | None:
        """Seconds left for the holder of a seat sat down in to open the table (None: no such wait)."""
        if self.open_by is None or self.kind != "human":
            return None
        return round(max(0.0, (self.open_by - datetime.now(UTC)).total_seconds()), 2)

    def summary(self, away_after: float | None = None) -> dict[str, Any]:
        out = {
            "seat": self.seat,
            "kind": self.kind,
            "level": self.level,
            "name": self.name,
            "joined": self.joined,
            "connected": self.connections > 0,
            "substituted": self.substituted or self.stand_in,
            "stand_in": self.stand_in,
            "bot_moves": self.bot_moves,
            "account": self.account_id is not None,
            "open": self.is_open,
            "absent": self.is_absent,
            "open_within": self.open_within(),
        }
        if away_after is not None and self.kind == "human":
            out["away"] = self.is_away(away_after)
        return out


def seat_of_token(table: Any, token: str) -> int | bool | None:
    """The seat a token opens, ``None`` for the spectator token, ``False`` for no match."""
    digest = hash_token(token)
    found: int | bool | None = False
    for s in table.seats:
        if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
            found = s.seat
    if hmac.compare_digest(table.spectator_hash, digest):
        found = None
    return found


def authenticate(table: Any, token: Any) -> int | None:
    """The seat a token opens (None: the spectator token), or a ``bad_token`` refusal. The holder of a
    token the host's new link replaced is told so (``seat_replaced``)."""
    if not isinstance(token, str) or not token or len(token) > 200:
        raise ServerError("bad_token", "a token is required (the secret from your join link)", 403)
    seat = seat_of_token(table, token)
    if seat is False:
        digest = hash_token(token)
        if any(s.replaced_hash is not None and hmac.compare_digest(s.replaced_hash, digest) for s in table.seats):
            raise ServerError("seat_replaced", SEAT_REPLACED, 403)
        raise ServerError("bad_token", "this token does not open any seat at this table", 403)
    return seat  # type: ignore[return-value]
