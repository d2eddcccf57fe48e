"""A table in play: one live object per table, which changes only through :meth:`LiveTable.change`.

``change(c)`` is the one way in, for a player's action and a bot's, an undo, a chat line, a connection
arriving or leaving, a clock running out, and whatever the host asks. Under the table's lock, in order:

1. ``c.prepare(table)`` checks the change against the table as it is (a refusal is a ``ServerError``
   and changes nothing) and says what to store: a list of writes (``storage.writes``);
2. the writes are stored in one fenced transaction (the group commit of ``storage.writer``): when this
   process is one of several it must still hold the table's lease, or nothing is stored and the
   table is let go (its clients reconnect to its new owner);
3. ``c.apply(table, results)`` swaps the change in (no ``await``: nothing sees half of it);
4. the consequences are derived: clocks, the bots' turn, and the frames every connection is sent.

Timers (a turn clock, a player away) call back into the table, which submits the matching change.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import UTC
from typing import TYPE_CHECKING, Any

from parlor import games as registry
from parlor.core import Event, State
from parlor.core.options import options_to_json
from parlor.server.storage import CreationRefused, LeaseLost, Touch, Write
from parlor.server.wire import ServerError

from .changes import Change, ClockRanOut, SeatTimedOut
from .chat import ChatLog
from .clocks import BOT_FOR_HUMAN, fill_bots_left, reset_clocks, reset_deadlines
from .frames import Frames
from .seats import Seat

if TYPE_CHECKING:
    from .connection import Connection
    from .hub import Hub

log = logging.getLogger("parlor.server")


class StoredTable:
    """What a table's database row says, for a live table and a finished one alike."""

    def __init__(self, row: dict[str, Any]) -> None:
        self.id: str = row["id"]
        self.players: int = row["players"]
        self.status: str = row["status"]
        self.seat_timeout: float | None = row["seat_timeout"]
        self.substitute_level: str = row["substitute_level"]
        self.spectator_hash: str = row["spectator_hash"]
        self.previous_table: str | None = row.get("previous_table")
        self.next_table: str | None = row.get("next_table")
        self.created_at = row.get("created_at")
        self.turn_time: float | None = row.get("turn_time")
        self.bots_before_join: bool = bool(row.get("bots_before_join", False))
        self.hints_on: bool = bool(row.get("hints", False))  # a seat may ask for hints (parlor.review)
        self.result: dict[str, Any] | None = row.get("result")
        self.host_hash: str | None = row.get("host_hash")
        self.public: bool = row.get("visibility") == "public"  # listed in the lobby; anyone may sit down
        self.rated: bool = bool(row.get("rated", False))
        self.quick: bool = bool(row.get("quick", False))  # opened by quick play
        self.practice: bool = bool(row.get("scenario"))  # started from a dealt position ("Try it again")
        self.fill_bots_at: Any = row.get("fill_bots_at")  # a waiting table's empty seats become bots then
        self.fill_bots_after: float | None = row.get("fill_bots_after")  # that wait, in seconds
        self.days_per_move: int | None = row.get("days_per_move")  # a turn-based table (None: live)
        self.fill_timer: Any = None  # the hub's timer for ``fill_bots_at`` (one at a time)
        self.chat = ChatLog(list(row.get("chat") or []), int(row.get("chat_total", len(row.get("chat") or []))))
        self.connections: set[Connection] = set()
        self.seats: list[Seat] = []
        self.away_after: float | None = None  # seconds without a connection before a seat is "away"

    def seat_summaries(self) -> list[dict[str, Any]]:
        return [s.summary(self.away_after) for s in self.seats]


class LiveTable(StoredTable):
    def __init__(self, hub: Hub, row: dict[str, Any], state: State) -> None:
        super().__init__(row)
        self.hub = hub
        self.away_after = hub.limits.relink_after
        self.game = state.game
        self.options = state.options
        self.seed: int = row["seed"]
        self.state = state
        self.events: list[tuple[int, Event]] = []  # (decision index, event): the table's log
        self.actions_by: list[str] = []  # who made each decision: player | bot | substitute | stand_in | clock
        self.action_seats: list[int] = []
        self.rng_before: list[int] = []  # the RNG state before each decision (for undo)
        self.last_private: list[bool] = []  # per decision: did it make a private event (for undo)?
        self.clock_at: list[Any] = []  # per decision: when the mover's clock was to run out as it decided
        self.reveals: list[bool | None] = []  # per decision: did it show something hidden? (undo; asked lazily)
        self.before_last: State | None = None  # the state before the last decision, for that check
        self.lock = asyncio.Lock()
        self.bot_task: asyncio.Task[None] | None = None
        self.seq = 0  # counts every change of the game (an action, an undo): the key of the cached frames
        self.frames = Frames(self)
        self.creator: str | None = None  # the client address that created it (for the per-address caps)
        self.chat_buckets: dict[int, Any] = {}  # seat -> its chat rate bucket
        self.next_claims: dict[int, str] = {}  # after "play again": each human seat's claim code there
        self.hints_given: dict[tuple[int, int], dict[str, Any]] = {}  # (version, seat) -> the hint's JSON
        self.gone = False  # let go (another process owns it now): every change is refused
        self.evicted = False  # an idle turn-based table dropped from memory (``Hub.evict``); revived on use
        self.snapshot_version: int | None = None  # the version whose snapshot is stored (``Hub.evict``)
        self.busy = 0  # changes waiting or running: the table is not forgotten meanwhile
        self.lease_checked = time.monotonic()  # when this process last knew it held the table's lease
        self._background: set[asyncio.Task[Any]] = set()

    # ---- reading ----------------------------------------------------------------------------------
    @property
    def version(self) -> int:
        return len(self.actions_by)

    def bot_controls(self, seat: int) -> bool:
        s = self.seats[seat]
        return s.kind == "bot" or s.substituted or s.stand_in or s.clock_out

    def summary(self) -> dict[str, Any]:
        return table_summary(self, options_to_json(self.options))

    def abandoned_result(self, reason: str, code: str, limit: float) -> dict[str, Any]:
        """The result of a game ended by the server (the decision cap, nobody joining): nobody wins.
        ``reason`` is in English for API readers; ``abandoned_code`` and ``abandoned_limit`` let a
        client say it in the reader's language."""
        n = self.players
        return {
            "scores": [0] * n,
            "tiebreaks": [0] * n,
            "places": [1] * n,
            "winners": [],
            "abandoned": reason,
            "abandoned_code": code,
            "abandoned_limit": limit,
            "seats": [{"seat": s.seat, "bot_moves": s.bot_moves, "substituted": s.bot_moves > 0} for s in self.seats],
        }

    def result_of(self, state: State, finishing: tuple[int, str] | None = None) -> dict[str, Any]:
        """The result of a finished ``state``, with who made each human seat's decisions
        (``finishing``: the (seat, by) of the deciding decision, not in ``actions_by`` yet)."""
        out = state.result().to_json()
        out["seats"] = []
        decisions = list(zip(self.action_seats, self.actions_by, strict=True))
        if finishing is not None:
            decisions.append(finishing)
        for s in self.seats:
            moves = sum(1 for seat, by in decisions if seat == s.seat and by in BOT_FOR_HUMAN)
            own = sum(1 for seat, by in decisions if seat == s.seat and by == "player")
            # ``left``: its player had left when the game ended (a bot was playing the seat in their
            # stead). ``absent``: that, or its player made fewer than half of its decisions (the clock's
            # bot or a substitute made the rest): a rating counts only what players played. Both are
            # stored with the result (from the stored ``by`` of each decision), so that a rated game is
            # rated alike after a restart, mid-game or between its end and its rating.
            human = s.kind == "human"
            left = human and (s.substituted or s.stand_in)
            absent = human and (left or 2 * own < own + moves)
            out["seats"].append(
                {"seat": s.seat, "bot_moves": moves, "player_moves": own, "substituted": moves > 0, "left": left,
                 "absent": absent}
            )  # fmt: skip
        return out

    # ---- changing ---------------------------------------------------------------------------------
    async def change(self, change: Change) -> Any:
        """Apply one change (see the module's docstring); returns what the change answers. Raises
        ``ServerError`` when it is refused; the table is then as it was."""
        self.busy += 1
        try:
            if self.evicted:  # (a request that found it just before an idle turn-based table left memory)
                await self.hub.revive(self)
            async with self.lock:
                if self.gone:
                    raise ServerError("unavailable", "this table moved to another server process; reconnect", 503)
                was_playing = self.status == "playing"
                writes = change.prepare(self)
                results = await self._store(writes, change.what)
                outcome = change.apply(self, results)
                self._settle(change)
                if was_playing and self.status == "over":  # (stored: the features that follow a game may act)
                    for hook in self.hub.finished_hooks:
                        hook(self)
                return outcome
        finally:
            self.busy -= 1

    def submit(self, change: Change) -> None:
        """A change from a timer (no caller waits): run it in a task; a refusal is logged, not raised."""
        if self.gone or self.hub.closing:
            return
        task = asyncio.get_running_loop().create_task(self._quietly(change))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _quietly(self, change: Change) -> None:
        try:
            await self.change(change)
        except ServerError as exc:
            if exc.code not in ("unavailable", "stale"):
                log.warning("table %s: %s refused: %s", self.id, change.what, exc.message)
        except Exception:
            log.exception("table %s: %s failed", self.id, change.what)

    async def _store(self, writes: list[Write], what: str) -> list[Any]:
        """Store a change's writes (fenced, one transaction). With no writes, a process of a site that
        has not seen the table's lease renewed for half the lease time checks it first, so that a
        process that slept past its lease never shows or changes a table another process now plays."""
        site = self.hub.site
        if not writes:  # (the heartbeat renews every third of the lease: this is the rare case)
            if site is None or time.monotonic() - self.lease_checked < site.lease_seconds / 2:
                return []
            writes = [Touch(self.id)]
        asked = time.monotonic()
        try:
            results = await self.hub.writer.write(writes)
        except LeaseLost:
            log.warning("table %s: another server process took it over; letting it go", self.id)
            self.hub.let_go(self)
            raise ServerError("unavailable", "this table moved to another server process; reconnect", 503) from None
        except CreationRefused as exc:
            raise ServerError(exc.code, exc.message, 429) from None
        except Exception as exc:
            log.error("table %s: cannot store %s: %s", self.id, what, exc)
            raise ServerError("server_error", f"{what} could not be stored ({type(exc).__name__}); try again") from None
        self.lease_checked = asked
        return results

    def _settle(self, change: Change) -> None:
        """What follows from a change: the clocks, the bots' turn, then what every connection is told."""
        if change.moves_play and not self.gone:
            writes = reset_clocks(self, getattr(change, "undone", None))
            if writes:
                self.hub.writer.write_later(writes, self._background_write_failed)
            self.hub.bots.schedule(self)
        if self.days_per_move is not None and not self.gone:  # (a seat claimed, sat down in: its days begin)
            writes = reset_deadlines(self)
            if writes:
                self.hub.writer.write_later(writes, self._background_write_failed)
        if not self.gone:
            # (after every change, not only those that move play: the seat taken last starts the game)
            for hook in self.hub.change_hooks:
                try:
                    hook(self)
                except Exception:  # (a notification must never stop a table)
                    log.exception("table %s: a turn hook failed", self.id)
        change.announce(self)

    def _background_write_failed(self, exc: BaseException) -> None:
        if isinstance(exc, LeaseLost):
            log.warning("table %s: another server process took it over; letting it go", self.id)
            self.hub.let_go(self)
        else:
            log.warning("table %s: a turn clock could not be stored: %s", self.id, exc)

    # ---- timers -----------------------------------------------------------------------------------
    def clock_ran_out(self, seat: int) -> None:
        self.seats[seat].clock = None
        self.submit(ClockRanOut(seat))

    def seat_timed_out(self, seat: int) -> None:
        self.seats[seat].timer = None
        self.submit(SeatTimedOut(seat))

    def seat_turned_away(self, seat: int) -> None:
        self.seats[seat].away_timer = None
        self.frames.broadcast_seats()  # nothing changes but what the summary says: the host may relink it


class BrokenTable:
    """A table whose record does not replay: listed, never played."""

    def __init__(self, row: dict[str, Any]) -> None:
        self.id = row["id"]
        self.status = "broken"
        self.connections: set[Connection] = set()
        self.bot_task: asyncio.Task[None] | None = None
        self.busy = 0
        self.gone = False


def table_summary(table: Any, options: dict[str, Any]) -> dict[str, Any]:
    """What ``GET /api/tables/{id}`` says of a table (live or finished), without any secret."""
    created = table.created_at
    if created is not None and created.tzinfo is None:  # SQLite hands back naive stamps; all are UTC
        created = created.replace(tzinfo=UTC)
    return {
        "id": table.id,
        "game": table.game.name,
        "title": table.game.title,
        "players": table.players,
        "options": options,
        "status": table.status,
        "version": table.version,
        "seat_timeout": table.seat_timeout,
        "substitute_level": table.substitute_level,
        "turn_time": table.turn_time,
        "days_per_move": table.days_per_move,
        "bots_before_join": table.bots_before_join,
        "hints": table.hints_on,
        "public": table.public,
        "rated": table.rated,
        "quick": table.quick,
        "practice": table.practice,
        "seats": table.seat_summaries(),
        "fill_bots_in": fill_bots_left(table),
        "result": table.result,
        "previous_table": table.previous_table,
        "next_table": table.next_table,
        "created_at": created.isoformat().replace("+00:00", "Z") if created is not None else None,
        "chat_total": table.chat.total,
    }


class FinishedTable(StoredTable):
    """A finished table read from the database without replaying its record: enough to describe
    it, check a token or claim code, and serve its stored replay (``Hub.peek``)."""

    def __init__(self, row: dict[str, Any]) -> None:
        super().__init__(row)
        self.game = registry.get(row["game"])
        self.options_json: dict[str, Any] = row["options"]
        self.version: int = row["version"]
        self.busy = 0
        self.gone = False
        for s in row["seats"]:
            seat = Seat.from_row(s)
            seat.bot_moves = row["bot_moves"].get(s["seat"], 0)
            seat.open_by = None  # (the game is over: nobody has to open it any more)
            self.seats.append(seat)

    def summary(self) -> dict[str, Any]:
        return table_summary(self, self.options_json)
