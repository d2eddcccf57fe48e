"""Clocks and leavers: turn clocks, and bots playing for human seats whose players are missing.

A bot plays a human seat only when its player has joined at least once (opened the table with the
seat's token) — or when the host allowed it: for every seat at creation (``bots_before_join``), or
for one seat (a stand-in, see ``changes.StandIn``). Then:

* **away**: a player disconnected longer than the table's ``seat_timeout`` is played by a bot until
  they connect again (``by = "substitute"``);
* **stand-in**: the host asked a bot to play the seat until its player connects (``"stand_in"``);
* **clock**: the table's ``turn_time`` ran out on a decision; a bot makes that one decision
  (``"clock"``) and the player keeps the seat.

The clock is the same for every decision and starts when a seat is asked (or, for a seat asked
before its player came, when the player arrives). It never depends on anything hidden: not the
cards in a hand, not how many moves are legal. When it ends is stored with the seat, so a restarted
server resumes a running clock where it stood (with at least ``RESUME_GRACE`` seconds left, for the
player to reconnect) rather than giving a full turn again. The deadline belongs to the decision
(``Seat.turn_ends_at``): it stays when the clock runs out and a bot takes over, and an undo gives
no time back: the mover's clock resumes from that deadline (stored with the decision), and every
other running clock runs on. A decision whose deadline has passed cannot be taken back at all
(``undo.py``), so moving and undoing at the deadline never buys a fresh turn. Each decision a bot
made for a human seat is preceded in the log by a public ``bot_played`` event (not stored: derived
from the decision's ``by``).

The timers here call back into the table (``LiveTable.clock_ran_out`` …), which turns each into a
change through its one method.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from parlor.core import Event
from parlor.server.storage import SetClock, SetTurn, Write

if TYPE_CHECKING:
    from .live import LiveTable
    from .seats import Seat

log = logging.getLogger("parlor.server")

MAX_TURN_TIME = 86400.0  # a day per decision: slow tables are fine, absurd ones are refused
RESUME_GRACE = 10.0  # seconds a clock resumed after a restart has at least (at most a full turn)
TIMEOUTS_TO_ABANDON = 3  # a turn-based seat whose time ran out this many decisions in a row is abandoned
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


def bot_move_kind(s: Seat) -> str:
    """How a bot's decision for this seat is recorded (``by``): bot, clock, stand_in or substitute."""
    if s.kind == "bot":
        return "bot"
    if s.clock_out:
        return "clock"
    return "stand_in" if s.stand_in else "substitute"


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


def fill_moment(table: Any) -> datetime | None:
    """When a public table's empty seats become bots (``fill_bots_at``, UTC), None: never."""
    at = getattr(table, "fill_bots_at", None)
    return at if at is None or at.tzinfo is not None else at.replace(tzinfo=UTC)  # (SQLite's are naive)


def fill_bots_left(table: Any) -> float | None:
    """The seconds until a public table's empty seats become bots, or None when no such wait runs:
    none was set, no seat is empty, the game is not on, or the wait ran out while nobody sat there
    (no bots came: the next to sit down starts it again, ``SitDown``). Public (everyone at a public
    table may know when bots join); sent as seconds left, like the turn clocks, so a wrong clock on
    the reader's computer does not matter."""
    at = fill_moment(table)
    if at is None or not table.public or table.status != "playing" or not any(s.is_open for s in table.seats):
        return None
    left = (at - datetime.now(UTC)).total_seconds()
    if left <= 0 and not any(s.kind == "human" and not s.is_open for s in table.seats):
        return None
    return round(max(0.0, left), 2)


def clock_runs(table: LiveTable, s: Seat) -> bool:
    return (
        table.turn_time is not None
        and table.status == "playing"
        and not table.hub.closing
        and s.kind == "human"
        and s.seat in table.state.to_move
        and not table.bot_controls(s.seat)
        and may_be_played_by_a_bot(table, s)
    )


def reset_clocks(table: LiveTable, undone: tuple[int, datetime | None] | None = None) -> list[Write]:
    """After any change: start the clock of each seat newly asked (or that just decided and is asked
    again), keep the others running, stop those no longer asked. ``undone``: an undo's (seat, when its
    clock was to run out as it decided): that seat's clock resumes from there. A seat still asked the
    same decision whose clock stopped (it ran out, a bot took over) resumes from that decision's
    deadline, never from a full turn. Returns the clock notes to store."""
    last_seat = table.action_seats[-1] if table.action_seats else None
    writes: list[Write] = []
    loop = asyncio.get_running_loop()
    asked = table.state.to_move if table.status == "playing" else ()
    for s in table.seats:
        back_to_undone = False
        if s.seat not in asked:  # its decision is made (or the game is over): its deadline goes with it
            s.turn_ends_at = None
        elif undone is not None and s.seat == undone[0]:  # back to the decision undone, and its deadline
            s.turn_ends_at, s.turn_asked_at, back_to_undone = undone[1], table.version, True
        elif undone is None and s.seat == last_seat and s.turn_asked_at < table.version:
            s.turn_ends_at = None  # it just decided and is asked again: a new decision
        if not clock_runs(table, s):
            stop_clock(s)
            continue
        assert table.turn_time is not None
        if s.turn_ends_at is not None and (s.clock is None or back_to_undone):
            ends_at = s.turn_ends_at
            seconds = max(0.0, (ends_at - datetime.now(UTC)).total_seconds())
            start_clock(table, s, loop.time() + seconds)
            writes.append(SetClock(table.id, s.seat, ends_at, table.version))
        elif s.clock is None or s.turn_ends_at is None:
            seconds = resumed_seconds(table, s)
            if seconds is None:
                seconds = table.turn_time
            ends_at = datetime.now(UTC) + timedelta(seconds=seconds)
            writes.append(SetClock(table.id, s.seat, ends_at, table.version))
            start_clock(table, s, loop.time() + seconds)
            s.turn_ends_at, s.turn_asked_at = ends_at, table.version
        s.saved_clock = None  # a stored clock is resumed once, at the first reset after a restart
    return writes


def start_clock(table: LiveTable, s: Seat, deadline: float) -> None:
    stop_clock(s)
    s.clock_deadline = deadline
    s.clock_version = table.version
    s.clock = asyncio.get_running_loop().call_at(deadline, table.clock_ran_out, s.seat)


def resumed_seconds(table: LiveTable, s: Seat) -> float | None:
    """The seconds left on the clock stored before a restart, if it was for this very decision."""
    if s.saved_clock is None or table.turn_time is None:
        return None
    ends_at, version = s.saved_clock
    if version != table.version:
        return None
    left = (ends_at - datetime.now(UTC)).total_seconds()
    return min(table.turn_time, max(left, min(RESUME_GRACE, table.turn_time)))


def stop_clock(s: Seat) -> None:
    if s.clock is not None:
        s.clock.cancel()
    s.clock = None
    s.clock_deadline = None


def stop_clocks(table: LiveTable) -> None:
    """The table ends (or leaves this process): no timer of it runs any more."""
    for s in table.seats:
        for timer in (s.timer, s.away_timer, s.open_timer):
            if timer is not None:
                timer.cancel()
        s.timer = s.away_timer = s.open_timer = None
        stop_clock(s)
        s.clock_out = False


def arm_timeout(table: LiveTable, s: Seat) -> None:
    """A joined seat's player left: after the table's ``seat_timeout`` a bot plays it (``substituted``)."""
    if s.timer is not None:
        s.timer.cancel()
        s.timer = None
    if table.seat_timeout is None or s.connections > 0 or table.status != "playing" or table.hub.closing:
        return
    if not (s.joined or table.bots_before_join):  # never before the player first came
        return
    s.gone_since = time.monotonic()
    s.timer = asyncio.get_running_loop().call_later(table.seat_timeout, table.seat_timed_out, s.seat)


def arm_away(table: LiveTable, s: Seat, after: float) -> None:
    """A seat's player left: once the seat counts as away (``Seat.is_away``) every connection is told,
    since the host may then give it a new link."""
    if s.away_timer is not None:
        s.away_timer.cancel()
        s.away_timer = None
    if s.kind != "human" or s.connections > 0 or table.status != "playing" or table.hub.closing:
        return
    s.away_timer = asyncio.get_running_loop().call_later(after + 0.05, table.seat_turned_away, s.seat)


# ---- turn-based tables ------------------------------------------------------------------------------
# A turn-based table (``days_per_move``) has no timer: each waiting decision's deadline is stored
# (``parlor_seats.turn_deadline``) and the hub's scan of stored deadlines acts on those that passed
# (``changes.TurnTimedOut``), so a table nobody has open can leave memory and still time out.


def turn_waits(table: LiveTable, s: Seat) -> bool:
    """Whether a turn-based seat's player must decide now (a deadline runs): asked, held by somebody,
    and no bot plays it."""
    return (
        table.days_per_move is not None
        and table.status == "playing"
        and s.kind == "human"
        and s.seat in table.state.to_move
        and (s.token_hash is not None or s.account_id is not None or s.joined)
        and not table.bot_controls(s.seat)
    )


def reset_deadlines(table: LiveTable) -> list[Write]:
    """After any change at a turn-based table: a seat newly asked gets its deadline (``days_per_move``
    days from now, or from the end of its account's vacation); the deadline of a decision already
    waiting stays. Returns the notes to store (only those that changed)."""
    if table.days_per_move is None:
        return []
    moment = table.hub.clock()
    writes: list[Write] = []
    for s in table.seats:
        if turn_waits(table, s):
            if s.turn_ends_at is None:
                start = moment
                back = table.hub.vacations.get(s.account_id) if s.account_id is not None else None
                if back is not None and back > moment:  # asked while on vacation: the days start at its end
                    start = back
                s.turn_ends_at = start + timedelta(days=table.days_per_move)
                s.turn_since, s.turn_asked_at = moment, table.version
                table.hub.notify_turn(s.account_id, "your_turn", table.id)
            elif s.turn_since is None:
                s.turn_since = moment
            stored: tuple[datetime | None, datetime | None] = (s.turn_since, s.turn_ends_at)
        else:
            stored = (None, None)
            if s.seat not in table.state.to_move or table.status != "playing":
                s.turn_since = None
        if stored != s.turn_stored:
            s.turn_stored = stored
            writes.append(SetTurn(table.id, s.seat, stored[0], stored[1], table.version))
    return writes


def turn_deadlines(table: Any) -> dict[str, str]:
    """When each waiting turn-based decision's time runs out (UTC, ISO 8601), by seat (as strings)."""
    if getattr(table, "days_per_move", None) is None or table.status != "playing":
        return {}
    return {
        str(s.seat): s.turn_stored[1].isoformat().replace("+00:00", "Z")
        for s in table.seats
        if s.turn_stored[1] is not None
    }


def timeouts_in_a_row(table: LiveTable, seat: int) -> int:
    """How many of the seat's last decisions in a row the clock's bot made (its time ran out)."""
    count = 0
    for mover, by in zip(reversed(table.action_seats), reversed(table.actions_by), strict=True):
        if mover != seat:
            continue
        if by != "clock":
            break
        count += 1
    return count
