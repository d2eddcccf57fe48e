"""Connections and seats: arriving and leaving, names, claiming a link, sitting down and standing up,
bots filling a public table's seats, a deleted account forgotten.
(``LiveTable.change`` applies them; the three steps of a change: ``changes/__init__.py``)."""

from __future__ import annotations

import hmac
import logging
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any, ClassVar

from parlor.server.storage import ClaimSeat, LeaveSeat, SeatLimits, SeatsToBots, SetSeat, TakeSeat, Write, now
from parlor.server.wire import ServerError, dumps

from ..chat import hidden_from, viewer_of
from ..clocks import arm_away, arm_timeout, fill_moment
from ..seats import Seat, clean_name, hash_token, new_token
from .again import announce_next
from .base import Change, playing

if TYPE_CHECKING:
    from ..connection import Connection
    from ..live import LiveTable

log = logging.getLogger("parlor.server")


# ---- connections and seats -------------------------------------------------------------------------
@dataclass
class Arrive(Change):
    """A connection opens: a seat's player is here (joined from now on: no stand-in any more), or a
    spectator. It gets its welcome, the whole state, the chat so far and, after "play again", where."""

    conn: Connection
    welcome: dict[str, Any]
    _changed: bool = False

    what: ClassVar[str] = "joining"
    moves_play: ClassVar[bool] = True

    def prepare(self, table: LiveTable) -> list[Write]:
        seat = self.conn.seat
        if seat is None:
            return []
        s = table.seats[seat]
        if not s.joined or s.stand_in or s.open_by is not None:
            return [SetSeat(table.id, seat, s.name, True, False, opened=True)]
        return []

    def apply(self, table: LiveTable, results: list[Any]) -> Connection:
        conn = self.conn
        table.connections.add(conn)
        if conn.seat is not None:
            s = table.seats[conn.seat]
            s.connections += 1
            for timer in (s.timer, s.away_timer, s.open_timer):
                if timer is not None:
                    timer.cancel()
            s.timer = s.away_timer = s.open_timer = None
            self._changed = s.substituted or s.stand_in or not s.joined or s.connections == 1 or s.open_by is not None
            s.open_by = None  # opened: the seat is its holder's
            s.substituted = False
            s.joined, s.stand_in = True, False
        return conn

    def announce(self, table: LiveTable) -> None:
        if self._changed:
            table.frames.broadcast_seats()  # (the new connection is not ready yet: it gets its own below)
        conn = self.conn
        conn.ready = True
        conn.push(dumps(self.welcome | {"table": table.summary()}))
        conn.push(table.frames.full_frame(conn, "join"))
        viewer = viewer_of(table, conn)
        page = table.chat.page(seat_only=conn.seat is not None, hidden=lambda m: hidden_from(table, viewer, m))
        conn.push(dumps({"type": "chat", "history": True, **page}))
        if table.next_table is not None:  # "play again" was asked: where (and this seat's new link)
            announce_next(table, only=conn)


@dataclass
class Leave(Change):
    """A connection closed: its seat may turn away (a bot after ``seat_timeout``; a new link later)."""

    conn: Connection

    what: ClassVar[str] = "leaving"

    def apply(self, table: LiveTable, results: list[Any]) -> None:
        leave(table, self.conn)


def leave(table: Any, conn: Connection) -> None:
    """A connection's bookkeeping when it goes (also for a table already let go)."""
    if conn not in table.connections:  # already gone (e.g. its seat was given a new link)
        return
    if not conn.closed:
        conn.closed = True
        conn.queue.put_nowait(None)
    table.connections.discard(conn)
    if conn.seat is not None and hasattr(table, "frames"):
        s = table.seats[conn.seat]
        s.connections -= 1
        if s.connections == 0:
            s.gone_since = time.monotonic()
            arm_timeout(table, s)
            arm_away(table, s, table.away_after)
            table.frames.broadcast_seats()


@dataclass
class Rename(Change):
    """``POST …/join``: a seat's player names itself (and counts as joined)."""

    seat: int
    name: Any

    what: ClassVar[str] = "the name"
    moves_play: ClassVar[bool] = True

    def prepare(self, table: LiveTable) -> list[Write]:
        s = table.seats[self.seat]
        self.name = clean_name(self.name, self.seat, "name") if self.name is not None else s.name
        if s.account_id is not None:  # a seat of an account bears the account's name
            self.name = s.name
        if self.name != s.name or not s.joined or s.stand_in:
            return [SetSeat(table.id, self.seat, self.name, True, False)]
        return []

    def apply(self, table: LiveTable, results: list[Any]) -> None:
        if results:
            s = table.seats[self.seat]
            s.name, s.joined, s.stand_in = self.name, True, False

    def announce(self, table: LiveTable) -> None:
        table.frames.broadcast_seats()


@dataclass
class Claim(Change):
    """A join link's claim code, exchanged once for the seat's own token (only the claimant ever holds
    it). A code used before, or replaced by the host's new link, is refused. Claimed while signed in
    (``account``: its ``id`` and ``name``), the seat belongs to the account and takes its name: its
    player opens it from any device by signing in. One account holds one seat of a table at most."""

    code: Any
    account: dict[str, Any] | None = None
    _seat: Seat | None = None
    _token: str = ""

    what: ClassVar[str] = "the claim"

    def prepare(self, table: LiveTable) -> list[Write]:
        s = seat_of_claim(table, self.code)
        account_id = self.account["id"] if self.account is not None else None
        if account_id is not None:
            held = seat_of_account(table, account_id)
            if held is not None and held != s.seat:  # (its own seat's link, as a rematch hands out: fine)
                raise ServerError(
                    "already_seated", f"your account holds seat {held} at this table already: one seat each", 409
                )
        self._seat, self._token = s, new_token()
        name = self.account["name"] if self.account is not None else None
        return [ClaimSeat(table.id, s.seat, s.claim_hash or "", hash_token(self._token), account_id, name)]

    def apply(self, table: LiveTable, results: list[Any]) -> dict[str, Any]:
        s = self._seat
        assert s is not None
        if not results[0]:  # claimed meanwhile by another server process
            raise link_used()
        s.claim_hash, s.token_hash = None, hash_token(self._token)
        if self.account is not None:
            s.account_id, s.name = self.account["id"], self.account["name"]
        log.info("table %s: seat %d claimed", table.id, s.seat)
        return {"table_id": table.id, "seat": s.seat, "token": self._token}

    def announce(self, table: LiveTable) -> None:
        if self.account is not None:  # the seat's name is the account's from now on
            table.frames.broadcast_seats()


def seat_of_account(table: Any, account_id: str) -> int | None:
    """The seat of ``table`` that belongs to the account, if any."""
    return next((s.seat for s in table.seats if s.account_id is not None and s.account_id == account_id), None)


def open_seat(s: Seat) -> bool:
    """A human seat nobody holds: no token (nobody claimed its link) and no account."""
    return s.is_open


@dataclass
class SitDown(Change):
    """Someone sits down at a public table that waits for players (the lobby, quick play): an open seat
    (``seat``, or the first one) becomes theirs, with a token of its own, as a claimed link would; signed
    in, the seat is the account's. The table's other links keep working for their own seats. A table
    whose wait for bots ran out while nobody sat there (``FillWithBots`` seats no bots then) starts
    that wait again: the one who sits down gets the whole of it, as after a ``StandUp``."""

    seat: Any
    account: dict[str, Any] | None
    name: Any = None
    address: str | None = None  # the client's: the per-address limit on seats held counts it
    invited: bool = False  # an accepted invitation (server/friends): a private table's open seat too
    _seat: Seat | None = None
    _token: str = ""
    _fill_at: Any = None
    _open_by: Any = None

    what: ClassVar[str] = "the seat"

    def prepare(self, table: LiveTable) -> list[Write]:
        playing(table)
        # (a seat nobody holds stops the game when its turn comes: it waits for a player)
        if not table.public and not self.invited:
            raise ServerError("not_open", "this table is private: its links open its seats", 409)
        if self.seat is not None and (type(self.seat) is not int or not 0 <= self.seat < len(table.seats)):
            raise ServerError("bad_seat", "'seat' must be a seat number of this table", field="seat")
        account_id = self.account["id"] if self.account is not None else None
        if account_id is not None and (held := seat_of_account(table, account_id)) is not None:
            raise ServerError("already_seated", f"your account holds seat {held} at this table already", 409)
        free = [s for s in table.seats if open_seat(s) and (self.seat is None or s.seat == self.seat)]
        if not free:
            raise ServerError("seat_taken", "that seat is taken" if self.seat is not None else "the table is full", 409)
        name = self.account["name"] if self.account is not None else clean_name(self.name, free[0].seat, "name")
        self._seat, self._token, self.name = free[0], new_token(), name
        ran_out = (at := fill_moment(table)) is not None and at <= now()
        if ran_out and table.fill_bots_after is not None:
            self._fill_at = now() + timedelta(seconds=table.fill_bots_after)
        caps = table.hub.limits
        self._open_by = now() + timedelta(seconds=caps.sit_open_within)
        limits = SeatLimits(
            hash_token(self.address) if self.address is not None else None,
            caps.max_held_seats_per_address,
            account_id,
            caps.max_held_seats_per_account,
        )
        token_hash = hash_token(self._token)
        return [TakeSeat(table.id, free[0].seat, token_hash, account_id, name, self._fill_at, self._open_by, limits)]

    def apply(self, table: LiveTable, results: list[Any]) -> dict[str, Any]:
        s = self._seat
        assert s is not None
        if not results[0]:
            raise ServerError("seat_taken", "somebody sat down there first", 409)
        s.token_hash, s.claim_hash, s.name = hash_token(self._token), None, self.name
        s.account_id = self.account["id"] if self.account is not None else None
        s.open_by = self._open_by
        table.hub.arm_open(table, s)
        if self._fill_at is not None:
            table.fill_bots_at = self._fill_at
            table.hub.arm_fill(table)
        log.info("table %s: somebody sat down at seat %d", table.id, s.seat)
        return {"table_id": table.id, "seat": s.seat, "token": self._token}

    def announce(self, table: LiveTable) -> None:
        table.frames.broadcast_seats()


@dataclass
class StandUp(Change):
    """A seated player leaves a public table that still waits for players (``POST …/stand-up``): the
    seat is open again for anyone, the connections it had are closed, and the table's wait for bots
    (``fill_bots_after``) starts again from now, so the players who stay get the whole wait for someone
    to take the seat. Once every seat is held the game is on: leaving then is leaving the game (the
    seat timeout's substitute, counted last in a rated game), not standing up."""

    seat: int
    _fill_at: Any = None

    what: ClassVar[str] = "the seat"
    moves_play: ClassVar[bool] = True

    def prepare(self, table: LiveTable) -> list[Write]:
        playing(table)
        s = table.seats[self.seat]
        if not table.public or not any(open_seat(o) for o in table.seats) or self.seat in table.action_seats:
            raise ServerError("not_waiting", "the game is on: this table no longer waits for players", 409)
        if s.token_hash is None:
            raise ServerError("bad_token", "this seat is nobody's to leave", 403)
        if table.fill_bots_after is not None:
            self._fill_at = now() + timedelta(seconds=table.fill_bots_after)
        return [LeaveSeat(table.id, self.seat, s.token_hash, self._fill_at)]

    def apply(self, table: LiveTable, results: list[Any]) -> dict[str, Any]:
        if not results[0]:
            raise ServerError("bad_token", "this seat is nobody's to leave", 403)
        s = table.seats[self.seat]
        s.token_hash = s.account_id = s.name = s.claim_hash = s.open_by = None
        s.joined = s.stand_in = s.substituted = False
        for timer in (s.timer, s.away_timer, s.open_timer):
            if timer is not None:
                timer.cancel()
        s.timer = s.away_timer = s.open_timer = None
        for conn in list(table.connections):
            if conn.seat == self.seat:
                conn.close_with(4403, "you left this table")
        if self._fill_at is not None:
            table.fill_bots_at = self._fill_at
            table.hub.arm_fill(table)  # the new moment; the timer armed for the old one is cancelled
        log.info("table %s: seat %d stood up; the table waits for a player again", table.id, self.seat)
        return {"table_id": table.id, "seat": self.seat, "fill_bots_at": table.fill_bots_at}

    def announce(self, table: LiveTable) -> None:
        table.frames.broadcast_seats()


@dataclass
class FillWithBots(Change):
    """A public table's wait is over (``fill_bots_at``): its open seats become bots of ``level`` (unless
    nobody holds a seat any more: a table of bots alone is nobody's game; it waits on)."""

    level: str

    what: ClassVar[str] = "the seats"
    moves_play: ClassVar[bool] = True

    def prepare(self, table: LiveTable) -> list[Write]:
        playing(table)
        if not any(s.kind == "human" and not open_seat(s) for s in table.seats):
            raise ServerError("not_waiting", "nobody is seated: the table waits for players")
        seats = tuple(s.seat for s in table.seats if open_seat(s))
        return [SeatsToBots(table.id, seats, self.level)]

    def apply(self, table: LiveTable, results: list[Any]) -> None:
        table.fill_bots_at = None
        for s in table.seats:
            if open_seat(s):
                s.kind, s.level, s.joined, s.claim_hash, s.name = "bot", self.level, True, None, None
                for timer in (s.timer, s.away_timer):
                    if timer is not None:
                        timer.cancel()
                s.timer = s.away_timer = None
        log.info("table %s: open seats filled with %s bots", table.id, self.level)

    def announce(self, table: LiveTable) -> None:
        table.frames.broadcast_seats()


@dataclass
class ForgetAccount(Change):
    """An account was deleted: its seat at this table keeps its place and its games, but loses the name
    ("deleted player"); the connections its sessions opened are closed (a seat token's stay)."""

    account_id: str

    what: ClassVar[str] = "the name"

    def prepare(self, table: LiveTable) -> list[Write]:
        seat = seat_of_account(table, self.account_id)
        if seat is None or table.seats[seat].name is None:
            return []
        s = table.seats[seat]
        return [SetSeat(table.id, seat, None, s.joined, s.stand_in)]

    def apply(self, table: LiveTable, results: list[Any]) -> None:
        seat = seat_of_account(table, self.account_id)
        if results and seat is not None:
            table.seats[seat].name = None

    def announce(self, table: LiveTable) -> None:
        table.frames.broadcast_seats()
        for conn in list(table.connections):
            if conn.account_id == self.account_id:
                conn.close_with(4403, "the account was deleted")


def link_used() -> ServerError:
    return ServerError(
        "link_used",
        "this join link was already used to take its seat (or the host replaced it): open the table "
        "in the browser that took the seat, or ask the host for a new link",
        403,
    )


def seat_of_claim(table: Any, code: Any) -> Seat:
    """The seat whose join link ``code`` is (checked on a finished table's stored row too)."""
    if not isinstance(code, str) or not code or len(code) > 200:
        raise ServerError("bad_claim", "a claim code is required (the secret of your join link)", 403)
    digest = hash_token(code)
    for s in table.seats:
        if s.claim_hash is not None and hmac.compare_digest(s.claim_hash, digest):
            return s
    raise link_used()
