"""Tables in play: the :class:`Hub` owns every live table.

All changes to a table happen on the event loop under the table's lock, in this order: the engine
validates the action on a copy of the state, the database commits the decision and its events, then
the live state is replaced and every connection is sent what it may see. A failure anywhere before
the swap leaves the table as it was.

The hub is assembled from one part per concern, each in its own module:

- ``tables``      tables and the lobby: creating, restoring, forgetting, playing again
- ``seats``       seats and tokens: joining, authenticating, connections arriving and leaving
- ``clocks``      clocks and leavers: turn clocks, an absent player's seat handed to a bot
- ``moves``       actions and undo: validate, store, swap in
- ``bot_runner``  bots taking their turns
- ``broadcast``   each connection's queue and the frames it is sent
- ``replays``     a finished game step by step, from the spectators' or a seat's view
- ``chat``        the table's chat
- ``host``        what the table's host may do: a stand-in bot, a new link

Game-agnostic: only ``parlor.games.get`` and the State protocol are used.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from .bot_runner import BOT_LEVELS, BotRunnerMixin, bot_level_description
from .bot_workers import BotWorkers, default_processes
from .broadcast import MOVED, BroadcastMixin, Connection, event_json
from .chat import ChatMixin
from .clocks import ClocksMixin
from .cluster import Cluster, ClusterConfig
from .db import Database, Decision, now
from .host import HostMixin
from .limits import Limits
from .moves import MovesMixin, undo_refusal
from .protocol import ServerError
from .replays import ReplaysMixin, spectator_steps
from .seats import MAX_NAME, Seat, SeatsMixin, hash_token, new_token
from .tables import LiveTable, TablesMixin

__all__ = [
    "BOT_LEVELS",
    "MAX_NAME",
    "Connection",
    "Hub",
    "LiveTable",
    "Seat",
    "ServerError",
    "bot_level_description",
    "event_json",
    "hash_token",
    "new_token",
    "spectator_steps",
    "undo_refusal",
]

log = logging.getLogger("parlor.server")


class Hub(
    TablesMixin,
    SeatsMixin,
    ClocksMixin,
    MovesMixin,
    BotRunnerMixin,
    BroadcastMixin,
    ReplaysMixin,
    ChatMixin,
    HostMixin,
):
    def __init__(
        self,
        db: Database,
        *,
        bot_delay: float = 0.8,
        default_seat_timeout: float | None = 120.0,
        db_workers: int | None = None,
        limits: Limits | None = None,
        bot_processes: int | None = None,
        cluster: ClusterConfig | None = None,
    ) -> None:
        self.db = db
        self.limits = limits or Limits()
        self._sweeper: asyncio.Task[None] | None = None

        self.bot_delay = bot_delay
        self.default_seat_timeout = default_seat_timeout
        self.tables: dict[str, LiveTable] = {}
        self._db_pool = ThreadPoolExecutor(
            max_workers=db_workers or (1 if db.is_sqlite else 4), thread_name_prefix="db"
        )
        # Two lanes: searching bots (hard, expert) think in worker processes (bot_workers.py), every
        # other bot (random, easy, medium: a heuristic's millisecond) in a thread here, so a crowd of
        # expert tables never makes another table's quick bots wait behind their searches.
        self._bot_workers = BotWorkers(bot_processes or default_processes(), self.limits.bot_move_budget)
        self._quick_bot_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="bot-quick")
        self._decisions_waiting: list[tuple[Decision, asyncio.Future[None]]] = []  # group commit (moves.py)
        self._decision_writer: asyncio.Task[None] | None = None
        self.decisions_stored = 0  # decisions committed, and in how many transactions (the benchmark reads them)
        self.decision_groups = 0
        self._create_lock = asyncio.Lock()
        self._text_modules: dict[str, Any] = {}
        self._closing = False
        # One of several processes of a site (PostgreSQL): tables are owned by leases (cluster.py).
        self.cluster = Cluster(self, cluster) if cluster is not None else None

    async def run_db(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._db_pool, fn, *args)

    async def start(self) -> None:
        notice = await self.run_db(self.db.check_integrity)  # raises DamagedDatabase: refuse to serve
        if notice:
            log.warning("%s", notice)
        await self.run_db(self.db.migrate)
        if self.cluster is not None:  # restores the unfinished tables no other process holds
            await self.cluster.start()
        else:
            ids = await self.run_db(self.db.unfinished_ids)
            for table_id in ids:
                await self.load(table_id)
            log.info("restored %d unfinished table(s)", len(ids))
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_unjoined())

    async def _sweep_unjoined(self) -> None:
        """Close tables whose human seats nobody took within ``limits.unjoined_table_ttl``."""
        ttl = self.limits.unjoined_table_ttl
        while not self._closing:
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
            created = table.created_at
            if created.tzinfo is None:  # SQLite gives the stored UTC time back without its zone
                created = created.replace(tzinfo=stamp.tzinfo)
            if (stamp - created).total_seconds() < ttl:
                continue
            async with table.lock:
                if table.status != "playing":
                    continue
                result = table.abandoned_result(f"nobody joined within {ttl:g} seconds", "nobody_joined", ttl)
                await self.run_db(self.db.close_unplayed, table.id, result)
                table.status, table.result = "over", result
                table.changes += 1
                self._stop_clocks(table)
                if table.bot_task is not None:
                    table.bot_task.cancel()
                expired.append(table.id)
                self.release(table)
        if expired:
            log.info("closed %d table(s) nobody joined", len(expired))
        return expired

    async def let_go(self, table: LiveTable) -> None:
        """Stop playing a table another process now owns: its clients reconnect and are relayed there."""
        self.tables.pop(table.id, None)
        if table.bot_task is not None:
            table.bot_task.cancel()
        if isinstance(table, LiveTable):
            self._stop_clocks(table)
        for conn in list(table.connections):
            conn.close_code = MOVED  # any code but 4403/4404: the page reconnects
            conn.closed = True
            conn.queue.put_nowait(None)

    async def close(self) -> None:
        self._closing = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self.cluster is not None:
            await self.cluster.close()
        for table in self.tables.values():
            if table.bot_task is not None:
                table.bot_task.cancel()
            if isinstance(table, LiveTable):
                self._stop_clocks(table)
            for conn in list(table.connections):
                conn.closed = True
                conn.queue.put_nowait(None)
        self._bot_workers.close()
        self._quick_bot_pool.shutdown(wait=False, cancel_futures=True)
        self._db_pool.shutdown(wait=True)
        self.db.close()
