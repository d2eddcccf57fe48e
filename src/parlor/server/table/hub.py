"""The hub: every live table of this server process, and what is not one table's change.

It creates tables (the lobby; from a request already checked, ``requests.py``), restores them from
the database (by replaying their records), finds a table for a request (:meth:`Hub.get` to play,
:meth:`Hub.peek` to read a finished one without replaying it), forgets finished tables nobody
watches, closes tables nobody joined, lets go of a table another process took over, and serves
replays and chat pages. It owns the ports the tables share: the storage writer (group commit), the
bot runner, the database threads and, on a site of several processes, this process's membership
(``site.py``).

A table's own changes are not here: they go through ``LiveTable.change`` (``live.py``, and the
``changes`` package).
Game-agnostic: only ``parlor.games.get`` and the State protocol are used.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from typing import Any

from parlor import games as registry
from parlor.core import ENGINE_VERSION, ParlorError
from parlor.core.options import options_to_json
from parlor.review.practice import information_set, practice_deal
from parlor.server.limits import Limits, RateLimiter
from parlor.server.storage import (
    CreateTable,
    CreationLimits,
    CreationRefused,
    Database,
    MarkBroken,
    StoreReplay,
    StoreSnapshot,
    TurnStore,
    Writer,
    now,
    record_of,
)
from parlor.server.wire import ServerError, dumps

from .bot_workers import default_processes
from .bots import BotRunner
from .changes import (
    Arrive,
    BanSeat,
    CloseUnjoined,
    FillWithBots,
    ForgetAccount,
    Leave,
    SeatNotOpened,
    TurnTimedOut,
    leave,
    new_table_row,
    seat_of_account,
)
from .chat import chat_json, hidden_from, viewer_of
from .clocks import (
    BOT_FOR_HUMAN,
    TIMEOUTS_TO_ABANDON,
    arm_timeout,
    fill_moment,
    reset_clocks,
    reset_deadlines,
    stop_clocks,
    timeouts_in_a_row,
    with_bot_marks,
)
from .connection import MOVED, Connection
from .live import BrokenTable, FinishedTable, LiveTable
from .replays import replay_steps_json
from .requests import NewTableRequest, SeatRequest
from .seats import Seat, claim_path, hash_token, join_path, new_token
from .snapshots import Rebuilt, SnapshotUnusable, from_snapshot, replay, snapshot_data

log = logging.getLogger("parlor.server")

TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # what secrets.token_urlsafe makes; anything else is no table


def valid_table_id(table_id: Any) -> bool:
    return isinstance(table_id, str) and TABLE_ID.fullmatch(table_id) is not None


class Hub:
    def __init__(
        self,
        db: Database,
        *,
        bot_delay: float = 0.8,
        default_seat_timeout: float | None = 120.0,
        db_workers: int | None = None,
        limits: Limits | None = None,
        bot_processes: int | None = None,
        site: Any = None,
    ) -> None:
        self.db = db
        self.limits = limits or Limits()
        self.default_seat_timeout = default_seat_timeout
        self.tables: dict[str, LiveTable | BrokenTable] = {}
        self.loads = 0  # records replayed to load a table (a request with a wrong secret must cost none)
        self.closing = False
        self._sweeper: asyncio.Task[None] | None = None
        self._db_pool = ThreadPoolExecutor(
            max_workers=db_workers or (1 if db.is_sqlite else 4), thread_name_prefix="db"
        )
        self.writer = Writer(db, self.run_db)
        self.bots = BotRunner(self.limits, bot_delay, bot_processes or default_processes())
        per_address = self.limits.chat_per_address_per_second
        self.chat_by_address = RateLimiter(per_address, max(1.0, per_address * 10))
        # One of several processes of a site (PostgreSQL): tables are owned by leases (site.py).
        self.site = site(self) if site is not None else None
        # Called (synchronously, on the event loop) with a table whose game just ended, after the change
        # that ended it was stored: the ratings follow games this way, without table/ importing them.
        self.finished_hooks: list[Callable[[LiveTable], None]] = []
        # Blocking (server/friends): whether a chat line of ``speaker``'s seat is kept from ``viewer``'s
        # connections (accounts' ids; asked with no wait, under the table's lock), and what to await
        # with a seat's account before its connection gets its first frames (the chat so far).
        self.chat_hidden: Callable[[str, str], bool] = lambda viewer, speaker: False
        self.arrival_hooks: list[Callable[[str], Awaitable[None]]] = []
        # Called (synchronously, under the table's lock) after every change, once its clocks and bots
        # are set: the notifications (server/notify) tell a seat asked for a decision
        # that has no connection here that it is its turn. A hook must not wait nor raise.
        self.change_hooks: list[Callable[[LiveTable], None]] = []
        # Turn-based tables. ``clock``: the moment their deadlines are measured against (the tests move
        # it). ``vacations``: the accounts on vacation and when each comes back (a decision asked
        # meanwhile gets its days from then). ``turn_hooks``: the notification hook, called (on the
        # event loop, no wait) with (account id, what, table id) when an account must decide at a
        # turn-based table ("your_turn") or such a table's game ends ("game_over"); e-mail or push
        # notifications attach here without table/ knowing of them.
        self.clock: Callable[[], datetime] = now
        self.vacations: dict[str, datetime] = {}
        self.turn_hooks: list[Callable[[str, str, str], None]] = []
        self.turns = TurnStore(db)
        self.scans = 0  # scans of the stored deadlines done (the tests wait for one)
        self.evicted = 0  # turn-based tables evicted from memory (the benchmark and the tests read it)
        self.snapshot_loads = 0  # tables loaded from their snapshot, without replaying their record
        self._scanner: asyncio.Task[None] | None = None
        self.finished_hooks.append(self._turn_game_over)

    # The benchmark and the tests read how decisions were grouped into transactions.
    @property
    def decisions_stored(self) -> int:
        return self.writer.decisions_stored

    @property
    def decision_groups(self) -> int:
        return self.writer.decision_groups

    async def run_db(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._db_pool, fn, *args)

    # ---- life ---------------------------------------------------------------------------------
    async def start(self) -> None:
        notice = await self.run_db(self.db.check_integrity)  # raises DamagedDatabase: refuse to serve
        if notice:
            log.warning("%s", notice)
        await self.run_db(self.db.migrate)
        if self.site is not None:  # restores the unfinished tables no other process holds
            await self.site.start()
        else:  # (turn-based tables are loaded on demand: a move, a connection, or a deadline passed)
            ids = await self.run_db(self.db.unfinished_ids, True)
            for table_id in ids:
                await self.load(table_id)
            log.info("restored %d unfinished table(s)", len(ids))
        self.vacations = await self.run_db(self.turns.on_vacation, self.clock())
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_unjoined())
        self._scanner = asyncio.get_running_loop().create_task(self._scan_turns())

    async def close(self) -> None:
        self.closing = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._scanner is not None:
            self._scanner.cancel()
        if self.site is not None:
            await self.site.close()
        for table in self.tables.values():
            if table.bot_task is not None:
                table.bot_task.cancel()
            if isinstance(table, LiveTable):
                stop_clocks(table)
            for conn in list(table.connections):
                conn.closed = True
                conn.queue.put_nowait(None)
        self.bots.close()
        self._db_pool.shutdown(wait=True)
        self.db.close()

    def let_go(self, table: LiveTable) -> None:
        """Stop playing a table another process now owns: its clients reconnect and are relayed there."""
        table.gone = True
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        if table.bot_task is not None:
            table.bot_task.cancel()
        stop_clocks(table)
        for conn in list(table.connections):
            conn.close_with(MOVED, "the table moved to another server process")

    # ---- finding a table ------------------------------------------------------------------------
    async def get(self, table_id: str, row: dict[str, Any] | None = None) -> LiveTable:
        """The live table, loaded (replayed) if need be: for a request that plays or changes it.
        ``row``: the table as :meth:`Database.load` gives it, read just before (see :meth:`load`)."""
        table = self.tables.get(table_id) if valid_table_id(table_id) else None
        if table is None:
            table = await self.load(table_id, row=row)
        if table is None:
            raise ServerError("table_not_found", f"no table {table_id[:40]!r}", 404)
        if isinstance(table, BrokenTable):
            raise ServerError("unavailable", f"table {table_id} is closed: its record no longer replays", 409)
        return table

    async def peek(self, table_id: str) -> LiveTable | FinishedTable:
        """A table to read or to check a secret against: the live one if it is loaded, a finished one
        straight from the database (no replay of its record), else the table loaded to play."""
        if not valid_table_id(table_id):
            raise ServerError("table_not_found", f"no table {str(table_id)[:40]!r}", 404)
        table = self.tables.get(table_id)
        if isinstance(table, LiveTable):
            return table
        if table is None:
            # One process alone: an unfinished table's record comes in the same visit to the database,
            # as it is loaded next (an evicted turn-based table: one round trip, not two).
            alone = self.site is None
            row = await self.run_db(self.db.load_head, table_id, alone)
            if row is None:
                raise ServerError("table_not_found", f"no table {table_id!r}", 404)
            if row["status"] == "over":
                try:
                    return FinishedTable(row)
                except Exception:  # its game cannot be loaded now: the full path says why
                    pass
            elif alone and row["status"] == "playing":
                return await self.get(table_id, row)
        return await self.get(table_id)

    async def live(self, table: LiveTable | FinishedTable) -> LiveTable:
        """The live table for one that :meth:`peek` read (a finished table is loaded, replayed, only now:
        after the caller checked its secret against the stored row)."""
        return table if isinstance(table, LiveTable) else await self.get(table.id)

    async def load(
        self, table_id: str, claimed: bool = False, row: dict[str, Any] | None = None
    ) -> LiveTable | BrokenTable | None:
        """Rebuild a table from the database (from its snapshot, or by replaying its record). One of
        several processes first takes the table's lease (finished tables too: their chat is written by
        one process), unless ``claimed`` already. ``row``: the table read just before by this process
        alone (nothing else changes a table that is not in its memory), so not read again."""
        if not valid_table_id(table_id):
            return None
        if row is None:
            row = await self.run_db(self.db.load, table_id)
        if row is None:
            return None
        if table_id in self.tables:  # loaded meanwhile
            return self.tables[table_id]
        if self.site is not None and row["status"] != "broken" and not claimed:
            if not await self.run_db(self.site.rows.claim, table_id):
                raise ServerError("unavailable", "another server process plays this table now; try again", 503)
            if table_id in self.tables:
                return self.tables[table_id]
        if row["status"] == "broken":
            broken = self.tables[table_id] = BrokenTable(row)
            return broken
        try:
            game = registry.get(row["game"])
        except Exception as exc:  # a game missing or failing to import now: retried at the next start
            log.error("table %s cannot be restored now: %s", table_id, exc)
            unavailable = self.tables[table_id] = BrokenTable(row)
            return unavailable
        self.loads += 1
        try:
            if row["engine_version"] != ENGINE_VERSION:
                raise ParlorError(f"made by engine version {row['engine_version']}, this is {ENGINE_VERSION}")
            rebuilt = self._rebuild(game, row)
        except Exception as exc:  # the record does not replay (or the game's code fails on it)
            log.error("table %s cannot be restored: %s", table_id, exc)
            if isinstance(exc, ParlorError):  # for good; a crash in a game's code is retried at the next start
                await self.writer.write([MarkBroken(table_id, str(exc))])
            row["status"] = "broken"
            broken = self.tables[table_id] = BrokenTable(row)
            return broken
        state, events, rng_before, private = rebuilt.state, rebuilt.events, rebuilt.rng_before, rebuilt.private
        table = LiveTable(self, row, state)
        table.events = with_bot_marks(events, row["actions"])
        table.rng_before = rng_before
        table.last_private = private
        table.actions_by = [a["by"] for a in row["actions"]]
        table.action_seats = [a["seat"] for a in row["actions"]]
        table.clock_at = [a.get("clock_ends_at") for a in row["actions"]]
        table.reveals = [None] * len(row["actions"])
        if rebuilt.from_snapshot:  # (evicted again with no decision since: the stored snapshot still holds)
            table.snapshot_version = len(row["actions"])
        for s in row["seats"]:
            seat = Seat.from_row(s)
            if s.get("clock_ends_at") is not None and s.get("clock_version") is not None:
                seat.saved_clock = (s["clock_ends_at"], s["clock_version"])
            table.seats.append(seat)
        for a in row["actions"]:
            if a["by"] in BOT_FOR_HUMAN:
                table.seats[a["seat"]].bot_moves += 1
        if table.days_per_move is not None:  # a seat that timed out too often in a row stays abandoned
            for s in table.seats:
                if s.kind == "human" and timeouts_in_a_row(table, s.seat) >= TIMEOUTS_TO_ABANDON:
                    s.substituted = True
        if state.is_over and table.status == "playing":
            table.status = "over"
        if table.status == "over" and table.result is None:
            table.result = table.result_of(state)
        self.tables[table_id] = table
        self._begin(table)
        return table

    def _rebuild(self, game: Any, row: dict[str, Any]) -> Rebuilt:
        """The table's game: from its snapshot (a turn-based table evicted before) when that holds for
        its record, else by replaying the record (a missing or unusable snapshot is logged)."""
        if row["days_per_move"] is not None:
            try:
                rebuilt = from_snapshot(game, row)
            except SnapshotUnusable as exc:
                level = logging.INFO if row.get("snapshot") is None else logging.WARNING
                log.log(level, "table %s: snapshot not used (%s); its record is replayed", row["id"], exc)
            else:
                self.snapshot_loads += 1
                return rebuilt
        return replay(game, row)

    def _begin(self, table: LiveTable) -> None:
        """A table now played here: its seat timers, clocks and bots start."""
        if table.status != "playing":
            return
        for s in table.seats:
            if s.kind == "human":
                arm_timeout(table, s)
                if table.days_per_move is None:  # (turn-based: a seat sat down in waits for its player)
                    self.arm_open(table, s)
        writes = reset_clocks(table) + reset_deadlines(table)
        if writes:
            self.writer.write_later(writes, table._background_write_failed)
        self.bots.schedule(table)
        if table.fill_bots_at is not None:
            self.arm_fill(table)

    def arm_fill(self, table: LiveTable) -> None:
        """A public table's empty seats become bots at ``fill_bots_at`` (also after a restart or a
        takeover: the moment is stored). One timer per table: arming it again (a seated player stood
        up, ``StandUp``) cancels the one armed for the earlier moment."""
        if table.fill_timer is not None:
            table.fill_timer.cancel()
            table.fill_timer = None
        armed = table.fill_bots_at
        at = fill_moment(table)
        if at is None:
            return
        delay = max(0.0, (at - now()).total_seconds())

        def fire() -> None:
            table.fill_timer = None
            if self.closing or table.gone or table.status != "playing" or table.fill_bots_at is not armed:
                return
            task = asyncio.get_running_loop().create_task(table.change(FillWithBots(table.substitute_level)))
            task.add_done_callback(lambda t: t.cancelled() or t.exception())  # (a refusal is nothing to report)

        table.fill_timer = asyncio.get_running_loop().call_later(delay, fire)

    def arm_open(self, table: LiveTable, s: Seat) -> None:
        """A seat sat down in must be opened by ``open_by`` (stored: a restart or a takeover arms it
        again, and a moment already past acts at once); then ``SeatNotOpened`` frees it or lets a bot
        play it."""
        if s.open_timer is not None:
            s.open_timer.cancel()
            s.open_timer = None
        if s.open_by is None or s.kind != "human" or table.status != "playing":
            return
        delay = max(0.0, (s.open_by - now()).total_seconds())

        def fire() -> None:
            s.open_timer = None
            if not (self.closing or table.gone):
                table.submit(SeatNotOpened(s.seat))

        s.open_timer = asyncio.get_running_loop().call_later(delay, fire)

    async def forget_account(self, account_id: str) -> None:
        """An account was deleted (here, or by another process of the site: ``site.py``): its seat at
        every table this process holds loses its name, by the table's own change, and the connections its
        sessions opened there are closed."""
        for table in list(self.tables.values()):
            if isinstance(table, LiveTable) and not table.gone and seat_of_account(table, account_id) is not None:
                try:
                    await table.change(ForgetAccount(account_id))
                except ServerError as exc:  # (a table let go meanwhile: its next owner loads no name)
                    log.info("table %s: the deleted account's seat was not renamed (%s)", table.id, exc.code)

    async def ban_account(self, account_id: str, reason: str) -> None:
        """An account was banned (here, or by another process of the site: ``site.py``): at every table
        this process holds, its connections close and a bot plays its seat (the table's own change)."""
        for table in list(self.tables.values()):
            if isinstance(table, LiveTable) and not table.gone and seat_of_account(table, account_id) is not None:
                try:
                    await table.change(BanSeat(account_id, reason))
                except ServerError as exc:  # (a table let go meanwhile: its next owner refuses the account)
                    log.info("table %s: the banned account's seat was not handed over (%s)", table.id, exc.code)

    def release(self, table: Any) -> None:
        """Forget a finished table nobody watches, or an idle turn-based one (it is loaded again on demand)."""
        if table.connections or table.busy or self.tables.get(table.id) is not table:
            return
        if table.status != "playing":
            del self.tables[table.id]
        elif self.evictable(table):
            self.evict(table)

    # ---- turn-based tables ------------------------------------------------------------------------
    def evictable(self, table: Any) -> bool:
        """A turn-based table may leave memory: nobody is connected, nothing runs on it (a change, a
        bot's thinking), and no deadline of it is near (the scan of stored deadlines will load it)."""
        if not isinstance(table, LiveTable) or table.days_per_move is None or table.status != "playing":
            return False
        if table.connections or table.busy or table._background:
            return False
        if table.bot_task is not None and not table.bot_task.done():
            return False
        if any(table.bot_controls(seat) for seat in table.state.to_move):  # a bot is about to move
            return False
        near = self.clock() + timedelta(seconds=self.limits.turn_keep_loaded)
        return not any(s.turn_ends_at is not None and s.turn_ends_at <= near for s in table.seats)

    def evict(self, table: LiveTable) -> None:
        """Drop an idle turn-based table from memory; everything it needs is stored (its record, seats and
        deadlines), and :meth:`get` loads it again, under its lease, as a takeover does."""
        del self.tables[table.id]
        stop_clocks(table)
        if table.fill_timer is not None:
            table.fill_timer.cancel()
            table.fill_timer = None
        table.gone = table.evicted = True  # (a change through a stale reference revives it: ``revive``)
        self.evicted += 1
        if table.snapshot_version != table.version:  # its last state, so that loading it needs no replay
            data = snapshot_data(Rebuilt(table.state, [], table.rng_before, table.last_private))
            table.snapshot_version = table.version
            self.writer.write_later([StoreSnapshot(table.id, table.version, data)], self._snapshot_failed)

    def _snapshot_failed(self, exc: BaseException) -> None:
        """A snapshot not stored costs only a replay at the next load (a table taken over: not ours)."""
        log.info("a snapshot was not stored (%s); the table is replayed when loaded", exc)

    async def revive(self, table: LiveTable) -> None:
        """A change came to a table just evicted (its request found it before): it is played here again,
        as it was (nothing changed it meanwhile), unless it was loaded again since; one of several
        processes takes its lease first."""
        if not table.evicted:
            return
        if self.tables.get(table.id) is not None:
            raise ServerError("unavailable", "this table was reloaded; reconnect", 503)
        if self.site is not None and not await self.run_db(self.site.rows.claim, table.id):
            raise ServerError("unavailable", "another server process plays this table now; try again", 503)
        if not table.evicted or self.tables.get(table.id) is not None:  # (revived meanwhile)
            if self.tables.get(table.id) is table:
                return
            raise ServerError("unavailable", "this table was reloaded; reconnect", 503)
        table.gone = table.evicted = False
        self.tables[table.id] = table
        self._begin(table)

    def notify_turn(self, account_id: str | None, what: str, table_id: str) -> None:
        """Tell the notification hooks (``turn_hooks``); a hook's failure is logged, never the table's."""
        if account_id is None:
            return
        for hook in self.turn_hooks:
            try:
                hook(account_id, what, table_id)
            except Exception:
                log.exception("a turn notification hook failed")

    def _turn_game_over(self, table: LiveTable) -> None:
        if table.days_per_move is not None:
            for s in table.seats:
                self.notify_turn(s.account_id, "game_over", table.id)

    async def _scan_turns(self) -> None:
        """Every ``turn_scan_interval`` seconds: act on the stored deadlines that passed, and evict the
        turn-based tables that are idle."""
        while not self.closing:
            await asyncio.sleep(self.limits.turn_scan_interval)
            try:
                await self.scan_turns()
            except Exception:
                log.exception("scanning turn-based deadlines failed")

    async def scan_turns(self) -> int:
        """One scan: each waiting decision whose stored deadline passed is handed to its table (loaded if
        need be) as ``TurnTimedOut``; returns how many were found."""
        due = await self.run_db(self.turns.due, self.clock())
        self.scans += 1
        for table_id, seat, _version in due:
            try:
                table = await self.get(table_id)
                await table.change(TurnTimedOut(seat))
            except ServerError as exc:  # (another process plays it: its own scan acts)
                log.info("table %s: a passed deadline was not acted on here (%s)", table_id, exc.code)
        for table in list(self.tables.values()):
            self.release(table)
        return len(due)

    def shift_deadlines(self, account_id: str, moved: list[tuple[str, int, datetime]]) -> None:
        """A vacation moved these stored deadlines: the tables held in memory follow (what they show)."""
        for table_id, seat, deadline in moved:
            table = self.tables.get(table_id)
            if isinstance(table, LiveTable) and seat < len(table.seats):
                s = table.seats[seat]
                if s.account_id == account_id and s.turn_ends_at is not None:
                    s.turn_ends_at = deadline
                    s.turn_stored = (s.turn_stored[0], deadline)
                    table.frames.broadcast_seats()

    # ---- connections --------------------------------------------------------------------------
    async def connect(
        self,
        table: LiveTable,
        seat: int | None,
        send: Callable[[str], Any],
        close: Callable[[int, str], Any] | None,
        address: str,
        welcome: dict[str, Any],
        account_id: str | None = None,
    ) -> Connection:
        """A WebSocket for ``seat`` (None: a spectator) joins the table; its first frames are queued.
        ``account_id``: the seat was opened by that account's session (closed if the account goes)."""
        conn = Connection(table, seat, send, close, self.limits.max_queue_bytes)
        conn.address = address
        conn.account_id = account_id
        viewer = viewer_of(table, conn)
        if viewer is not None:
            for hook in self.arrival_hooks:
                await hook(viewer)
        await table.change(Arrive(conn, welcome))
        return conn

    def connected_accounts(self) -> set[str]:
        """The accounts whose seats have a connection to a table of this process."""
        return {
            viewer
            for table in self.tables.values()
            if isinstance(table, LiveTable)
            for conn in table.connections
            if (viewer := viewer_of(table, conn)) is not None
        }

    async def disconnect(self, conn: Connection) -> None:
        table = conn.table
        if table.gone or self.closing:
            leave(table, conn)
            return
        try:
            await table.change(Leave(conn))
        except ServerError:
            leave(table, conn)
        self.release(table)

    # ---- creating -------------------------------------------------------------------------------
    def creation_limits(self, address: str | None, account_id: str | None = None) -> CreationLimits | None:
        if address is None:
            return None
        caps = self.limits
        mine = None
        if account_id is not None:
            mine = (account_id, caps.tables_per_account_per_minute, caps.max_unfinished_tables_per_account)
        return CreationLimits(
            hash_token(address),
            self.limits.tables_per_address_per_minute,
            self.limits.max_unfinished_tables_per_address,
            mine,
        )

    async def create(
        self, request: NewTableRequest, address: str | None = None, account_id: str | None = None, quick: bool = False
    ) -> dict[str, Any]:
        """``POST /api/tables``: store the table the checked request asks for (the per-address limits,
        and a signed-in creator's per-account ones, are enforced in the same transaction) and start it."""
        row, seats, claims, spectator, host = self._new_table_row(request)
        row["creator_hash"] = hash_token(address) if address is not None else None
        row["creator_account"] = account_id
        row["quick"] = quick  # opened by quick play: quick play fills it
        row, state = new_table_row(registry.get(row["game"]), row)
        return await self._store_new(row, seats, claims, spectator, host, state, address, account_id)

    async def create_practice(
        self, table: Any, seat: int | None, step: Any, address: str | None = None, account_id: str | None = None
    ) -> dict[str, Any]:
        """``POST /api/tables/{id}/practice``: a practice table at decision ``step`` of ``seat`` in a
        finished game ("Try it again" on a review): the seat's position with the cards it could not see
        dealt afresh from what it knew (``parlor.review.practice``, never the real ones), the seat a
        human's, the others bots (a bot's seat keeps its level). Unrated, private, with hints; counted
        against the asker's creation limits like any new table."""
        if seat is None:
            raise ServerError("spectator", "a practice table starts from one seat's decision: ask with its token", 403)
        if table.status != "over":
            raise ServerError("not_over", f"table {table.id} is not finished: practice opens after the end", 409)
        if type(step) is not int:
            raise ServerError("bad_request", "'step' must be the number of one of your decisions", field="step")
        stored = await self.run_db(self.db.load, table.id)
        if stored is None:
            raise ServerError("table_not_found", f"no table {table.id!r}", 404)
        record = record_of(stored)  # holds the real cards: read here only to find the seat's position
        try:
            known = information_set(record, seat, step)
        except ParlorError as exc:
            raise ServerError("bad_step", str(exc), field="step") from None
        # (the information set answers only what the seat knew: its moves, its view and dealt worlds)
        state = practice_deal(known, secrets.randbelow(1 << 62))
        game = state.game
        levels = {s["seat"]: s["level"] for s in stored["seats"] if s["kind"] == "bot"}
        request = NewTableRequest(
            game=game,
            players=known.players,
            options=game.options_from_json(stored["options"]),
            seats=tuple(
                SeatRequest("human", None, None) if i == seat else SeatRequest("bot", levels.get(i, "medium"), None)
                for i in range(known.players)
            ),
            seat_timeout=self.default_seat_timeout,
            substitute_level="medium",
            turn_time=None,
            bots_before_join=False,
            hints=True,  # a table for learning: the judge may be asked again while trying
            public=False,
            rated=False,
            fill_bots_after=None,
        )
        row, seats, claims, spectator, host = self._new_table_row(request)
        row["creator_hash"] = hash_token(address) if address is not None else None
        row["creator_account"] = account_id
        row["quick"] = False
        row, _ = new_table_row(game, row)
        row["scenario"] = dumps(state.record()["scenario"])  # the dealt position: the game starts there
        row["status"] = "playing" if not state.is_over else "over"
        return await self._store_new(row, seats, claims, spectator, host, state, address, account_id)

    async def _store_new(
        self,
        row: dict[str, Any],
        seats: list[dict[str, Any]],
        claims: dict[int, str],
        spectator: str,
        host: str,
        state: Any,
        address: str | None,
        account_id: str | None,
    ) -> dict[str, Any]:
        """Store a new table (the per-address and per-account limits enforced in the same transaction),
        start it, and answer its links as ``POST /api/tables`` does."""
        try:
            limits = self.creation_limits(address, account_id)
            await self.writer.write([CreateTable(row["id"], row, seats, limits)])
        except CreationRefused as exc:
            raise ServerError(exc.code, exc.message, 429) from None
        table = self.register(row, seats, state)
        table.creator = address
        return {
            "table": table.summary(),
            "seats": [
                {
                    "seat": s["seat"],
                    "kind": "human",
                    "claim": claims[s["seat"]],
                    "join_path": claim_path(table.id, claims[s["seat"]]),
                }
                if s["kind"] == "human"
                else {"seat": s["seat"], "kind": "bot", "level": s["level"]}
                for s in seats
            ],
            "spectator_token": spectator,
            "spectator_path": join_path(table.id, spectator),
            "host_token": host,
        }

    def register(self, row: dict[str, Any], seats: list[dict[str, Any]], state: Any) -> LiveTable:
        """A table just stored: live from now on in this process."""
        table = LiveTable(self, row, state)
        for spec in seats:
            table.seats.append(Seat.from_row(spec))
        if table.status == "over":
            table.result = table.result_of(state)
        self.tables[table.id] = table
        self._begin(table)
        return table

    def rated_settings(self) -> dict[str, Any]:
        """The clock and substitute settings of every rated table: the site's, never its creator's. A
        creator who could pick them could hand a seat to a strong bot on a clock too short to play
        (and take the bot's result as their own), or never let a leaver's seat be played at all."""
        return {
            "seat_timeout": self.default_seat_timeout,
            "substitute_level": self.limits.rated_substitute_level,
            "turn_time": self.limits.rated_turn_time,
            "bots_before_join": False,  # no bot plays (and loses for) an account that never came
        }

    def _new_table_row(
        self, request: NewTableRequest
    ) -> tuple[dict[str, Any], list[dict[str, Any]], dict[int, str], str, str]:
        """A checked create request made a table: (row, seats, claim codes, spectator token, host token)."""
        game, players, options = request.game, request.players, request.options
        timeout, substitute, turn_time = request.seat_timeout, request.substitute_level, request.turn_time
        bots_before_join, hints, public, rated = request.bots_before_join, request.hints, request.public, request.rated
        fill_after = request.fill_bots_after
        if rated and not request.tournament:  # checked, then replaced: a rated table plays by the site's clock
            settings = self.rated_settings()
            timeout, substitute = settings["seat_timeout"], settings["substitute_level"]
            turn_time, bots_before_join = settings["turn_time"], settings["bots_before_join"]
            if request.days_per_move is not None:  # turn-based: the days per move are its clock
                timeout, turn_time = None, None
        seats: list[dict[str, Any]] = []
        claims: dict[int, str] = {}  # seat -> the one-time code of its join link
        for i, spec in enumerate(request.seats):
            if spec.kind == "bot":
                seats.append(
                    {
                        "seat": i,
                        "kind": "bot",
                        "level": spec.level,
                        "name": spec.name,
                        "token_hash": None,
                        "claim_hash": None,
                        "joined": True,
                    }
                )
            else:
                claims[i] = new_token()
                seats.append(
                    {
                        "seat": i,
                        "kind": "human",
                        "level": None,
                        "name": spec.name,
                        "token_hash": None,  # set when the link is claimed: only the claimant holds it
                        "claim_hash": hash_token(claims[i]),
                        "joined": False,
                    }
                )
        spectator = new_token()
        host = new_token()
        row = {
            "game": game.name,
            "players": players,
            "options": options_to_json(options),
            "seat_timeout": None if timeout is None else float(timeout),
            "substitute_level": substitute,
            "spectator_hash": hash_token(spectator),
            "previous_table": None,
            "next_table": None,
            "turn_time": None if turn_time is None else float(turn_time),
            "bots_before_join": bots_before_join,
            "hints": hints,
            "host_hash": hash_token(host),
            "visibility": "public" if public else "private",
            "rated": rated,
            "fill_bots_at": None if fill_after is None else now() + timedelta(seconds=fill_after),
            "fill_bots_after": None if fill_after is None else float(fill_after),
            "days_per_move": request.days_per_move,
        }
        return row, seats, claims, spectator, host

    # ---- tables nobody joined ---------------------------------------------------------------------
    async def _sweep_unjoined(self) -> None:
        """Close tables whose human seats nobody took within ``limits.unjoined_table_ttl``."""
        ttl = self.limits.unjoined_table_ttl
        while not self.closing:
            await asyncio.sleep(max(0.05, min(60.0, ttl / 4)))
            try:
                await self.expire_unjoined()
            except Exception:
                log.exception("sweeping unjoined tables failed")

    async def expire_unjoined(self) -> list[str]:
        ttl = self.limits.unjoined_table_ttl
        stamp = now()
        expired = []
        for table in list(self.tables.values()):
            if not isinstance(table, LiveTable) or table.status != "playing" or table.created_at is None:
                continue
            humans = [s for s in table.seats if s.kind == "human"]
            if not humans or any(s.joined for s in humans) or table.connections:
                continue
            if table.days_per_move is not None and all(s.token_hash or s.account_id for s in humans):
                # A turn-based table whose every seat is held (a tournament's seats are its players'
                # accounts from the start) is not "unjoined": its deadlines run, and the timeout rule ends it.
                continue
            created = table.created_at
            if created.tzinfo is None:  # SQLite gives the stored UTC time back without its zone
                created = created.replace(tzinfo=stamp.tzinfo)
            if stamp - created < timedelta(seconds=ttl):
                continue
            try:
                await table.change(CloseUnjoined(ttl))
            except ServerError:
                continue
            expired.append(table.id)
            self.release(table)
        if expired:
            log.info("closed %d table(s) nobody joined", len(expired))
        return expired

    # ---- reading finished tables ------------------------------------------------------------------
    async def replay(self, table: LiveTable | FinishedTable, seat: int | None = None) -> str:
        """The game as ``seat`` saw it (``None``: the spectators), with the table's newest chat, as JSON.

        A finished game never changes, so each seat's replay (and the spectators') is built once, the
        first time it is asked for, from the stored record, and kept (``parlor_replays``); later reads
        are a lookup."""
        if table.status != "over":
            raise ServerError("not_over", f"table {table.id} is not finished: the replay opens after the end", 409)
        steps = await self.run_db(self.db.stored_replay, table.id, seat)
        if steps is None:
            row = await self.run_db(self.db.load, table.id)
            if row is None:
                raise ServerError("table_not_found", f"no table {table.id!r}", 404)
            game = registry.get(row["game"])
            record = record_of(row)  # holds the seed: used here only, never sent
            by = [a["by"] for a in row["actions"]]
            try:
                steps = await asyncio.get_running_loop().run_in_executor(
                    None, replay_steps_json, game, record, seat, by
                )
            except Exception as exc:
                raise ServerError("unavailable", f"table {table.id} cannot be replayed ({exc})", 409) from None
            await self.writer.write([StoreReplay(table.id, seat, steps)])
        page = table.chat.page(seat_only=False)
        head = {"table": table.summary(), "result": table.result, "seat": seat, "chat": page["messages"]}
        head |= {"chat_total": page["total"], "chat_more": page["more"]}
        if seat is not None:  # the hints the seat asked for: its own, like its view (server/review/)
            head["hints"] = await self.run_db(self.db.hints, table.id, seat)
        # The stored steps go out as they are: only the small parts around them are encoded here.
        return dumps(head)[:-1] + ',"steps":' + steps + "}"

    async def chat_page(self, table: LiveTable | FinishedTable, seat: int | None, before: Any, limit: Any) -> str:
        """``GET /api/tables/{id}/chat``: up to ``limit`` messages older than ``before`` (newest first
        when ``before`` is omitted), as the asker may read them: while the game runs a seat reads the
        players' channel only; a spectator both; after the game everyone both."""
        if before is not None and (type(before) is not int or before < 0):
            raise ServerError("bad_request", "'before' must be a message's idx (a whole number ≥ 0)", field="before")
        if type(limit) is not int or not 1 <= limit <= 500:
            raise ServerError("bad_request", "'limit' must be from 1 to 500", field="limit")
        seat_only = table.status == "playing" and seat is not None
        rows = await self.run_db(self.db.chat_page, table.id, before, limit, seat_only)
        viewer = table.seats[seat].account_id if seat is not None else None
        if viewer is not None and isinstance(table, LiveTable):  # (a seat's page: not what its account blocks)
            await asyncio.gather(*(hook(viewer) for hook in self.arrival_hooks))
            messages = [chat_json(m) for m in rows if not hidden_from(table, viewer, m)]
        else:
            messages = [chat_json(m) for m in rows]
        more = bool(rows) and rows[0]["idx"] > 0
        return dumps({"table_id": table.id, "messages": messages, "more": more, "total": table.chat.total})
