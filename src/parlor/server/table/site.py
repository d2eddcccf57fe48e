"""Several server processes as one site, on one PostgreSQL database (``parlor serve --workers N``, on one
host or several).

Each unfinished table is played by one process at a time, its *owner*, which holds a lease on it in
``parlor_leases`` (a finished table that a process holds live, for its chat, has one too). The owner
renews its leases every third of the lease time, and in every transaction that writes one of the
table's rows (``Database.fence``: the row lock it takes fences off a process that lost the lease).
Connections land on any process; a request for a table another live process owns is relayed to it
(``edge/relay.py``), to the address it registered (``--advertise-address``, or its loopback listener).

A table whose lease has run out (its owner died or hung) is **taken over**: every process sweeps for
such tables and claims them with one atomic statement, and the winner restores the table from the
database the way a restarted server does. No acknowledged action is lost, as an action is
acknowledged only after the transaction that stored it. A process that wakes up after its lease ran
out (it was stopped, or starved) finds out at its next write, heartbeat or change of the table, stores
nothing, and lets the table go (``LiveTable._store``).

PostgreSQL's LISTEN/NOTIFY tells the other processes at once when a process leaves cleanly
(``parlor_cluster`` channel, payload ``*``), so that they sweep then rather than at their next tick;
after a crash the sweep's own clock finds the orphaned tables within a lease period or two. The same
channel says when an account was deleted (payload ``forget:<account id>``, sent by the deleting
transaction): each process clears the name of the account's seats at the tables it holds and closes
the connections the account's sessions opened there (``Hub.forget_account``). When the LISTEN
connection drops (the database restarted, a network cut), the process listens again at its next
heartbeat and then catches up on what it missed: the deleted accounts among the seats it holds are
forgotten as if told (``Site._caught_up``); a missed "a process left" only delays a takeover to the
sweep's own clock. A ban (payload ``ban:<account id>``, ``server/moderation``) hands the account's
seats at the tables a process holds to their bots and closes its connections there (``Hub.ban_account``);
a missed one is not caught up, but the banned account can neither sign in nor open its seats again
(both are checked against the database), so it only keeps the connections it already had.
SQLite has no such server: several processes are refused there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from parlor.server.storage import ModerationStore, SiteRows
from parlor.server.storage.site import BAN, CHANNEL, FORGET

from .live import LiveTable

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("parlor.server")


@dataclass(frozen=True)
class SiteConfig:
    """This process's place in the site: where the others reach it, and the lease time."""

    address: str  # host:port where the site's other processes relay requests to this one
    lease_seconds: float = 10.0
    listen: tuple[str, int] | None = None  # the relay listener's own socket address (it may differ)

    def __call__(self, hub: Hub) -> Site:
        return Site(hub, self)


class Site:
    def __init__(self, hub: Hub, config: SiteConfig) -> None:
        self.hub = hub
        self.id = secrets.token_hex(8)
        self.address = config.address
        self.relay_listen = config.listen or _split(config.address)
        self.lease_seconds = config.lease_seconds
        self.rows = SiteRows(hub.db, self.id, config.lease_seconds)
        self.relay_key = ""
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._listener: Any = None
        self._notifying: asyncio.Task[None] | None = None  # kept: a task nobody holds may be collected
        self._forgetting: set[asyncio.Task[None]] = set()
        self._listen_failed = False  # the last LISTEN attempt failed (said once, not at every retry)
        self.taken_over = 0  # tables this process took over from another (read by tests)

    async def start(self) -> None:
        self.relay_key = await self.hub.run_db(self.rows.register, self.address)
        self.hub.db.lease = (self.id, self.lease_seconds)
        await self._listen()
        await self.tick()
        self._task = asyncio.get_running_loop().create_task(self._run())
        log.info("server process %s joined the site (relayed requests on %s)", self.id, self.address)

    async def _listen(self) -> None:
        """LISTEN on the site's channel (psycopg's own async connection): a process leaving wakes the
        others' sweep at once."""
        try:
            import psycopg
            from sqlalchemy.engine import make_url

            url = make_url(self.hub.db.url).set(drivername="postgresql")
            conninfo = url.render_as_string(hide_password=False)
            listener = await psycopg.AsyncConnection.connect(conninfo, autocommit=True)
            await listener.execute(f"LISTEN {CHANNEL}")
        except Exception as exc:  # the lease sweep still runs on its own clock; the next heartbeat retries
            if not self._listen_failed:
                log.warning("LISTEN %s failed (%s); tables are taken over at the next sweep", CHANNEL, exc)
            self._listen_failed = True
            return
        if self._listen_failed:
            log.info("listening on %s again", CHANNEL)
        self._listen_failed = False
        self._listener = listener
        self._notifying = asyncio.get_running_loop().create_task(self._notifications(listener))

    async def _notifications(self, listener: Any) -> None:
        try:
            async for note in listener.notifies():
                if note.payload.startswith(FORGET):
                    task = asyncio.get_running_loop().create_task(self.hub.forget_account(note.payload[len(FORGET) :]))
                    self._forgetting.add(task)
                    task.add_done_callback(self._forgetting.discard)
                elif note.payload.startswith(BAN):
                    task = asyncio.get_running_loop().create_task(self._banned(note.payload[len(BAN) :]))
                    self._forgetting.add(task)
                    task.add_done_callback(self._forgetting.discard)
                else:
                    self._wake.set()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if not self.hub.closing:
                log.warning("the LISTEN connection was lost (%s); listening again at the next heartbeat", exc)
        # Lost (or ended): the heartbeat listens again, then catches up on what was said meanwhile.
        if self._listener is listener:
            self._listener = None
        with contextlib.suppress(Exception):
            await listener.close()

    async def _banned(self, account_id: str) -> None:
        """Another process banned an account: its seats at the tables held here go to their bots, and its
        connections here are told why and until when (read from the ban itself)."""
        ban = await self.hub.run_db(ModerationStore(self.hub.db).active, [account_id], "ban")
        why = f"this account is banned until {ban['until']}: {ban['reason']}" if ban else "this account is banned"
        await self.hub.ban_account(account_id, why)

    async def _caught_up(self) -> None:
        """After listening again: forget the accounts deleted while nobody here was listening (their
        ``forget:`` message went to no one in this process), at the tables this process holds."""
        named = {
            s.account_id
            for t in self.hub.tables.values()
            if isinstance(t, LiveTable) and not t.gone
            for s in t.seats
            if s.account_id is not None and s.name is not None
        }
        if not named:
            return
        for account_id in await self.hub.run_db(self.rows.deleted_accounts, sorted(named)):
            log.info("an account deleted while this process was not listening is forgotten now")
            await self.hub.forget_account(account_id)

    async def _run(self) -> None:
        while not self.hub.closing:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.lease_seconds / 3)
            self._wake.clear()
            try:
                if self._listener is None and not self.hub.closing:
                    await self._listen()
                    if self._listener is not None:
                        await self._caught_up()
                await self.tick()
            except Exception:
                log.exception("the site heartbeat failed")

    async def tick(self) -> None:
        """Renew what this process holds, let go of what it lost, take over what nobody holds."""
        hub = self.hub
        held = [t for t in hub.tables.values() if isinstance(t, LiveTable)]
        asked = time.monotonic()
        renewed, orphans = await hub.run_db(self.rows.heartbeat, [t.id for t in held])
        for table in held:
            if table.id in renewed:
                table.lease_checked = max(table.lease_checked, asked)
            elif hub.tables.get(table.id) is table:
                log.warning("table %s: this process no longer holds its lease; letting it go", table.id)
                hub.let_go(table)
        for table_id in orphans:
            if hub.closing:
                return
            if table_id in hub.tables or not await hub.run_db(self.rows.claim, table_id):
                continue
            table = await hub.load(table_id, claimed=True)
            if table is not None:
                self.taken_over += 1
                log.info("table %s taken over by server process %s", table_id, self.id)

    async def owner_elsewhere(self, table_id: str) -> str | None:
        """The address of the live process that owns the table, if that is not this one."""
        return await self.hub.run_db(self.rows.owner_elsewhere, table_id)

    async def close(self) -> None:
        for task in (self._task, self._notifying):
            if task is not None:
                task.cancel()
        if self._listener is not None:
            with contextlib.suppress(Exception):
                await self._listener.close()
        with contextlib.suppress(Exception):
            await self.hub.run_db(self.rows.leave, CHANNEL)


def _split(address: str) -> tuple[str, int]:
    host, _, port = address.rpartition(":")
    return host.strip("[]"), int(port)
