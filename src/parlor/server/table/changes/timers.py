"""The timers' changes: a turn clock ran out, an away seat given to a bot, a link never opened,
a table nobody joined closed.
(``LiveTable.change`` applies them; the three steps of a change: ``changes/__init__.py``)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from parlor.server.storage import CloseUnplayed, FreeSeat, Write, now
from parlor.server.wire import ServerError

from ..clocks import TIMEOUTS_TO_ABANDON, clock_runs, stop_clocks, timeouts_in_a_row, turn_waits
from ..seats import Seat
from .base import Change
from .seats import open_seat

if TYPE_CHECKING:
    from ..live import LiveTable

log = logging.getLogger("parlor.server")


# ---- timers ---------------------------------------------------------------------------------------
@dataclass
class ClockRanOut(Change):
    """A seat's turn clock ran out: a bot makes this one decision (recorded as by ``clock``)."""

    seat: int

    what: ClassVar[str] = "the clock"
    moves_play: ClassVar[bool] = True

    def apply(self, table: LiveTable, results: list[Any]) -> None:
        s = table.seats[self.seat]
        if s.clock is not None:  # a clock started since this one ran out (a new decision): it runs on
            return
        s.clock_deadline = None
        if clock_runs(table, s):
            log.info("table %s: seat %d's time ran out (version %d): a bot decides", table.id, s.seat, table.version)
            s.clock_out = True  # the bot runner makes the decision; Decide clears it


@dataclass
class TurnTimedOut(Change):
    """A turn-based seat's deadline passed (the hub's scan of stored deadlines found it): the seat's
    substitute bot makes this one decision (recorded as by ``clock``). The seat's last
    ``TIMEOUTS_TO_ABANDON`` decisions all timed out: its player has abandoned the game, and a bot plays
    the seat until they come back (as for a player away: a game that ends so counts them absent)."""

    seat: int
    _acted: bool = False

    what: ClassVar[str] = "the days per move"
    moves_play: ClassVar[bool] = True

    def apply(self, table: LiveTable, results: list[Any]) -> None:
        if not 0 <= self.seat < len(table.seats):
            return
        s = table.seats[self.seat]
        # (a move, or a vacation moving the deadline, since the scan read it: nothing is due)
        if not turn_waits(table, s) or s.turn_ends_at is None or s.turn_ends_at > table.hub.clock():
            return
        s.clock_out = self._acted = True  # the bot runner makes the decision; Decide clears it
        if timeouts_in_a_row(table, s.seat) + 1 >= TIMEOUTS_TO_ABANDON:
            s.substituted = True
            log.info("table %s: seat %d timed out %d times in a row: abandoned", table.id, s.seat, TIMEOUTS_TO_ABANDON)

    def announce(self, table: LiveTable) -> None:
        if self._acted:
            table.frames.broadcast_seats()


@dataclass
class SeatTimedOut(Change):
    """A joined seat's player has been away longer than the table's ``seat_timeout``: a bot plays it."""

    seat: int
    _now: bool = False

    what: ClassVar[str] = "the substitution"
    moves_play: ClassVar[bool] = True

    def apply(self, table: LiveTable, results: list[Any]) -> None:
        s = table.seats[self.seat]
        if s.connections > 0 or table.status != "playing" or s.substituted:
            return
        log.info("table %s: seat %d gone for %.1fs, a bot plays it", table.id, s.seat, table.seat_timeout or 0)
        s.substituted = self._now = True

    def announce(self, table: LiveTable) -> None:
        if self._now:
            table.frames.broadcast_seats()


def waits_for_players(table: LiveTable, s: Seat) -> bool:
    """Whether a public table still waits for players as far as seat ``s`` goes: a seat is open and
    ``s`` has made no decision (as for ``StandUp``); otherwise the game is on."""
    return table.public and any(open_seat(o) for o in table.seats) and s.seat not in table.action_seats


@dataclass
class SeatNotOpened(Change):
    """A seat sat down in was not opened by ``open_by`` (its holder never came): at a table still waiting
    for players it is open again for anyone (the wait for bots goes on as it was); once the game is on
    a bot plays it, as for a player away, until its holder opens it."""

    seat: int
    _outcome: str = ""  # decided once, in ``prepare``: "free", "bot", "later" (not due yet) or "" (nothing)

    what: ClassVar[str] = "the unopened seat"
    moves_play: ClassVar[bool] = True

    def prepare(self, table: LiveTable) -> list[Write]:
        s = table.seats[self.seat]
        if table.status != "playing" or s.kind != "human" or s.open_by is None or s.connections > 0:
            return []
        if s.open_by > now():  # (its timer fired a moment early)
            self._outcome = "later"
            return []
        if s.token_hash is not None and waits_for_players(table, s):
            self._outcome = "free"
            return [FreeSeat(table.id, s.seat, s.token_hash)]
        self._outcome = "bot" if not s.substituted else ""
        return []

    def apply(self, table: LiveTable, results: list[Any]) -> None:
        s = table.seats[self.seat]
        if self._outcome == "later":
            table.hub.arm_open(table, s)
        elif self._outcome == "free":
            if not results[0]:  # (opened, or changed, meanwhile by another process: nothing to free)
                self._outcome = ""
                return
            s.token_hash = s.account_id = s.name = s.claim_hash = s.open_by = None
            s.joined = s.stand_in = s.substituted = False
            log.info("table %s: seat %d was not opened in time; it is open again", table.id, s.seat)
        elif self._outcome == "bot":
            s.substituted = True  # (kept in memory: a restart acts on ``open_by`` again)
            log.info("table %s: seat %d was never opened; a bot plays it", table.id, s.seat)

    def announce(self, table: LiveTable) -> None:
        if self._outcome in ("free", "bot"):
            table.frames.broadcast_seats()


@dataclass
class CloseUnjoined(Change):
    """Nobody took the table's human seats within ``Limits.unjoined_table_ttl``: it ends, unplayed."""

    ttl: float
    _result: dict[str, Any] | None = None

    what: ClassVar[str] = "closing"

    def prepare(self, table: LiveTable) -> list[Write]:
        if table.status != "playing" or table.connections or any(s.joined for s in table.seats if s.kind == "human"):
            raise ServerError("stale", "the table is in use")
        self._result = table.abandoned_result(f"nobody joined within {self.ttl:g} seconds", "nobody_joined", self.ttl)
        return [CloseUnplayed(table.id, self._result)]

    def apply(self, table: LiveTable, results: list[Any]) -> None:
        table.status, table.result = "over", self._result
        table.seq += 1
        stop_clocks(table)
        if table.bot_task is not None:
            table.bot_task.cancel()
