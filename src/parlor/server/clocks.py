"""Clocks and leavers: turn clocks, and bots playing for human seats whose players are missing.

A bot plays a human seat only when its player has joined at least once (opened the table with the
seat's token) — or when the host allowed it: for every seat at creation (``bots_before_join``), or
for one seat (a stand-in, see ``host.py``). Then:

* **away**: a player disconnected longer than the table's ``seat_timeout`` is played by a bot until
  they connect again (``by = "substitute"``);
* **stand-in**: the host asked a bot to play the seat until its player connects (``"stand_in"``);
* **clock**: the table's ``turn_time`` ran out on a decision; a bot makes that one decision
  (``"clock"``) and the player keeps the seat.

The clock is the same for every decision and starts when a seat is asked (or, for a seat asked
before its player came, when the player arrives). It never depends on anything hidden: not the
cards in a hand, not how many moves are legal. When it ends is stored with the seat, so a restarted
server resumes a running clock where it stood (with at least ``RESUME_GRACE`` seconds left, for the
player to reconnect) rather than giving a full turn again. Each such decision is preceded in the log by a public
``bot_played`` event (not stored: derived from the decision's ``by``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from parlor.core import Event

if TYPE_CHECKING:
    from .seats import Seat
    from .tables import LiveTable

log = logging.getLogger("parlor.server")

MAX_TURN_TIME = 86400.0  # a day per decision: slow tables are fine, absurd ones are refused
RESUME_GRACE = 10.0  # seconds a clock resumed after a restart has at least (at most a full turn)
BOT_FOR_HUMAN = {"substitute": "away", "stand_in": "host", "clock": "clock"}  # by -> the mark's reason


def bot_mark(seat: int, by: str | None) -> Event | None:
    """The public ``bot_played`` event for a decision a bot made for a human seat, else None."""
    reason = BOT_FOR_HUMAN.get(by or "")
    return None if reason is None else Event("bot_played", {"seat": seat, "reason": reason})


def with_bot_marks(events: list[tuple[int, Event]], actions: list[dict[str, Any]]) -> list[tuple[int, Event]]:
    """A restored event log with the marks put back before the decisions they belong to."""
    out: list[tuple[int, Event]] = []
    marked: set[int] = set()
    by_idx = {i: a for i, a in enumerate(actions)}
    for idx, event in events:
        if idx not in marked:
            marked.add(idx)
            mark = bot_mark(by_idx[idx]["seat"], by_idx[idx]["by"])
            if mark is not None:
                out.append((idx, mark))
        out.append((idx, event))
    for idx, action in by_idx.items():  # a decision without any event still gets its mark
        if idx not in marked:
            mark = bot_mark(action["seat"], action["by"])
            if mark is not None:
                out.append((idx, mark))
    out.sort(key=lambda pair: pair[0])  # stable: each decision's mark stays before its events
    return out


def may_be_played_by_a_bot(table: LiveTable, s: Seat) -> bool:
    """Whether a bot may ever play this human seat now: its player came, or the host allowed it."""
    return s.joined or table.bots_before_join or s.stand_in


def clocks_left(table: LiveTable) -> dict[str, float]:
    """The seconds left on each running turn clock, by seat (as strings, for JSON)."""
    if table.turn_time is None or table.status != "playing":
        return {}
    now = asyncio.get_running_loop().time()
    return {
        str(s.seat): round(max(0.0, s.clock_deadline - now), 2)
        for s in table.seats
        if s.clock is not None and s.clock_deadline is not None
    }


def _log_clock_failure(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("a turn clock could not be stored: %s", task.exception())


class ClocksMixin:
    """The hub's part that watches turn clocks and absent players."""

    def _arm_timeout(self, table: LiveTable, s: Seat) -> None:
        if s.timer is not None:
            s.timer.cancel()
            s.timer = None
        if table.seat_timeout is None or s.connections > 0 or table.status != "playing" or self._closing:
            return
        if not (s.joined or table.bots_before_join):  # never before the player first came
            return
        s.gone_since = time.monotonic()
        s.timer = asyncio.get_running_loop().call_later(table.seat_timeout, self._timed_out, table, s)

    def _timed_out(self, table: LiveTable, s: Seat) -> None:
        s.timer = None
        if s.connections > 0 or table.status != "playing" or s.substituted:
            return
        log.info("table %s: seat %d gone for %.1fs, a bot plays it", table.id, s.seat, table.seat_timeout or 0)
        s.substituted = True
        self._reset_clocks(table)
        self._broadcast_seats(table)
        self.schedule(table)

    def _seat_control_changed(self, table: LiveTable, s: Seat) -> None:
        """A seat's player arrived or left, or the host changed who plays it: re-arm, tell, move."""
        self._arm_timeout(table, s)
        self._reset_clocks(table)
        self._broadcast_seats(table)
        self.schedule(table)

    # ---- the turn clock -------------------------------------------------------------------
    def _clock_runs(self, table: LiveTable, s: Seat) -> bool:
        return (
            table.turn_time is not None
            and table.status == "playing"
            and not self._closing
            and s.kind == "human"
            and s.seat in table.state.to_move
            and not table.bot_controls(s.seat)
            and may_be_played_by_a_bot(table, s)
        )

    def _reset_clocks(self, table: LiveTable, restart: bool = False) -> None:
        """After any change: start the clock of each seat newly asked (or that just decided and is asked
        again), keep the others running, stop those no longer asked. ``restart``: start all afresh."""
        if not hasattr(table, "turn_time"):  # a broken table
            return
        last_seat = table.action_seats[-1] if table.action_seats else None
        for s in table.seats:
            if not self._clock_runs(table, s):
                self._stop_clock(s)
                continue
            fresh = s.clock is None or restart or (s.seat == last_seat and s.clock_version < table.version)
            if fresh:
                self._stop_clock(s)
                loop = asyncio.get_running_loop()
                assert table.turn_time is not None
                seconds = self._resumed_seconds(table, s) if not restart else None
                if seconds is None:
                    seconds = table.turn_time
                    self._store_clock(table, s, seconds)
                s.clock_deadline = loop.time() + seconds
                s.clock_version = table.version
                s.clock = loop.call_at(s.clock_deadline, self._clock_ran_out, table, s, table.version)
            s.saved_clock = None  # a stored clock is resumed once, at the first reset after a restart

    def _resumed_seconds(self, table: LiveTable, s: Seat) -> float | None:
        """The seconds left on the clock stored before a restart, if it was for this very decision."""
        if s.saved_clock is None or table.turn_time is None:
            return None
        ends_at, version = s.saved_clock
        if version != table.version:
            return None
        left = (ends_at - datetime.now(UTC)).total_seconds()
        return min(table.turn_time, max(left, min(RESUME_GRACE, table.turn_time)))

    def _store_clock(self, table: LiveTable, s: Seat, seconds: float) -> None:
        """Write when the clock runs out (in the background: the clock runs meanwhile)."""
        ends_at = datetime.now(UTC) + timedelta(seconds=seconds)
        task = asyncio.ensure_future(self.run_db(self.db.set_clock, table.id, s.seat, ends_at, table.version))
        task.add_done_callback(_log_clock_failure)

    def _stop_clock(self, s: Seat) -> None:
        if s.clock is not None:
            s.clock.cancel()
        s.clock = None
        s.clock_deadline = None

    def _clock_ran_out(self, table: LiveTable, s: Seat, version: int) -> None:
        s.clock = None
        s.clock_deadline = None
        if not self._clock_runs(table, s):
            return
        log.info("table %s: seat %d's time ran out (version %d): a bot makes this decision", table.id, s.seat, version)
        s.clock_out = True  # the bot runner makes the decision, recorded as by "clock"; _commit clears it
        self.schedule(table)

    def _stop_clocks(self, table: LiveTable) -> None:
        for s in table.seats:
            if s.timer is not None:
                s.timer.cancel()
                s.timer = None
            self._stop_clock(s)
            s.clock_out = False
