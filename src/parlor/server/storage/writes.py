"""Every way the server changes a table's stored rows, one value type each.

A write names its table and knows its statements (``run``); it never opens a transaction itself.
:meth:`Database.commit` runs a list of writes in one transaction after checking the fence of every
table they touch (``fenced_tables``): when this process is one of several, it holds the table's lease
(renewed in that same transaction), or nothing is stored and :class:`LeaseLost` is raised. So a new
kind of change needs one new value here, and the fence comes with it.

Results: ``run`` returns what the caller needs back (a claim's success, a chat line's time stamp),
or ``None``. A write that finds the table not as it expects raises (:class:`VersionConflict`), and
the whole transaction is rolled back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, ClassVar

from sqlalchemy import bindparam, delete, func, insert, or_, select, text, update

from parlor.server.wire import dumps

from .schema import (
    actions_t,
    admin_log_t,
    chat_t,
    events_t,
    hints_t,
    replays_t,
    reviews_t,
    seats_t,
    snapshots_t,
    tables_t,
)

if TYPE_CHECKING:
    from .database import Database


class VersionConflict(RuntimeError):
    """The table in the database is not at the version the write follows."""


class LeaseLost(RuntimeError):
    """This process no longer owns the table (another process of the site took it over)."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id} is now owned by another server process")
        self.table_id = table_id


class CreationRefused(RuntimeError):
    """A per-address creation limit (docs/protocol.md, "Limits"): ``code`` is the protocol's."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class SeatsRefused(CreationRefused):
    """A per-address or per-account limit on seats held (docs/protocol.md, "Limits"): a 429 as well."""


@dataclass(frozen=True)
class Write:
    """One change to a table's rows (subclasses), run inside a fenced transaction."""

    table_id: str

    # Whether the table's lease is checked before this write: every write of a table in play is.
    fenced: ClassVar[bool] = True
    # Whether consecutive writes of this kind may be stored together (``run_many``, one statement each).
    batched: ClassVar[bool] = False

    def fenced_tables(self) -> tuple[str, ...]:
        return (self.table_id,) if self.fenced else ()

    def run(self, conn: Any, db: Database, stamp: datetime) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError  # abstract: every Write says how it runs

    @classmethod
    def run_many(cls, conn: Any, db: Database, stamp: datetime, writes: list[Any]) -> list[Any]:
        return [w.run(conn, db, stamp) for w in writes]


@dataclass(frozen=True)
class Touch(Write):
    """Nothing but the fence: a process that has not seen a table's lease renewed for a while checks
    (and renews) it before it shows or changes the table."""

    def run(self, conn: Any, db: Database, stamp: datetime) -> None:
        return None


# The statements of the hottest writes, built once: SQLAlchemy then finds their compiled form in its
# cache instead of building and compiling new statements for every decision.
_INSERT_ACTION = insert(actions_t)
_INSERT_EVENT = insert(events_t)
_ADVANCE_TABLE = (
    update(tables_t)
    .where(tables_t.c.id == bindparam("table_id"), tables_t.c.version == bindparam("idx"))
    .values(version=bindparam("new_version"), status=bindparam("new_status"), updated_at=bindparam("stamp"))
)
_FINISH_TABLE = _ADVANCE_TABLE.values(result=bindparam("new_result"))
_INSERT_CHAT = insert(chat_t)
_SET_CLOCK = (
    update(seats_t)
    .where(
        seats_t.c.table_id == bindparam("tid"),
        seats_t.c.seat == bindparam("s"),
        or_(seats_t.c.clock_version.is_(None), seats_t.c.clock_version <= bindparam("v")),
    )
    .values(clock_ends_at=bindparam("ends_at"), clock_version=bindparam("v"))
)


@dataclass(frozen=True)
class AppendDecision(Write):
    """One decision: its record entry, its events, and the table's version (and status, result) after it."""

    idx: int
    seat: int
    action: Any  # the action's JSON
    by: str
    first_event: int
    events: list[tuple[str, dict[str, Any], list[int] | None]]
    status: str
    result: dict[str, Any] | None
    clock_ends_at: datetime | None = None  # the mover's clock as it decided (an undo resumes it)

    batched: ClassVar[bool] = True

    @classmethod
    def run_many(cls, conn: Any, db: Database, stamp: datetime, writes: list[Any]) -> list[Any]:
        """A group's decisions in three statements (and a fourth for those that end their game), each
        run over all of them by the driver's ``executemany``: the statements are plain SQL handed to
        the driver, as SQLAlchemy's per-statement work was most of the cost of storing a decision
        (``docs/benchmarks.md``). Any table not at the version a decision follows fails the lot
        (:class:`VersionConflict`); the writer then stores each change on its own."""
        p, when = db.placeholder, db.stamp
        at = when(stamp)
        conn.exec_driver_sql(
            f'INSERT INTO parlor_actions (table_id, idx, seat, action, "by", created_at, clock_ends_at)'
            f" VALUES ({p}, {p}, {p}, {p}, {p}, {p}, {p})",
            [(d.table_id, d.idx, d.seat, dumps(d.action), d.by, at, when(d.clock_ends_at)) for d in writes],
        )
        events = [
            (d.table_id, d.first_event + i, d.idx, kind, dumps(data), None if who is None else dumps(who))
            for d in writes
            for i, (kind, data, who) in enumerate(d.events)
        ]
        if events:
            conn.exec_driver_sql(
                "INSERT INTO parlor_events (table_id, idx, action_idx, kind, data, visible_to)"
                f" VALUES ({p}, {p}, {p}, {p}, {p}, {p})",
                events,
            )
        going = [(d.idx + 1, d.status, at, d.table_id, d.idx) for d in writes if d.result is None]
        ending = [(d.idx + 1, d.status, dumps(d.result), at, d.table_id, d.idx) for d in writes if d.result is not None]
        changed = 0
        if going:
            changed += conn.exec_driver_sql(
                f"UPDATE parlor_tables SET version = {p}, status = {p}, updated_at = {p}"
                f" WHERE id = {p} AND version = {p}",
                going,
            ).rowcount
        if ending:
            changed += conn.exec_driver_sql(
                f"UPDATE parlor_tables SET version = {p}, status = {p}, result = {p}, updated_at = {p}"
                f" WHERE id = {p} AND version = {p}",
                ending,
            ).rowcount
        if changed != len(writes):
            raise VersionConflict(f"{len(writes) - changed} of {len(writes)} tables are not at the version expected")
        return [None] * len(writes)

    def run(self, conn: Any, db: Database, stamp: datetime) -> None:
        conn.execute(
            _INSERT_ACTION,
            {
                "table_id": self.table_id,
                "idx": self.idx,
                "seat": self.seat,
                "action": dumps(self.action),
                "by": self.by,
                "created_at": stamp,
                "clock_ends_at": self.clock_ends_at,
            },
        )
        if self.events:
            conn.execute(
                _INSERT_EVENT,
                [
                    {
                        "table_id": self.table_id,
                        "idx": self.first_event + i,
                        "action_idx": self.idx,
                        "kind": kind,
                        "data": dumps(data),
                        "visible_to": None if who is None else dumps(who),
                    }
                    for i, (kind, data, who) in enumerate(self.events)
                ],
            )
        params = {"table_id": self.table_id, "idx": self.idx, "new_version": self.idx + 1, "new_status": self.status}
        params["stamp"] = stamp
        if self.result is not None:
            done = conn.execute(_FINISH_TABLE, params | {"new_result": dumps(self.result)})
        else:
            done = conn.execute(_ADVANCE_TABLE, params)
        if done.rowcount != 1:
            raise VersionConflict(f"table {self.table_id} is not at version {self.idx} in the database")


@dataclass(frozen=True)
class RemoveDecision(Write):
    """Undo: drop decision ``idx`` (the last one) and its events."""

    idx: int

    def run(self, conn: Any, db: Database, stamp: datetime) -> None:
        tid = self.table_id
        conn.execute(delete(events_t).where(events_t.c.table_id == tid, events_t.c.action_idx == self.idx))
        conn.execute(delete(actions_t).where(actions_t.c.table_id == tid, actions_t.c.idx == self.idx))
        done = conn.execute(
            update(tables_t)
            .where(tables_t.c.id == tid, tables_t.c.version == self.idx + 1)
            .values(version=self.idx, updated_at=stamp)
        )
        if done.rowcount != 1:
            raise VersionConflict(f"table {tid} is not at version {self.idx + 1} in the database")


@dataclass(frozen=True)
class AddChat(Write):
    """Chat line ``idx`` of a table (``seat`` None: a spectator); returns its time stamp."""

    idx: int
    seat: int | None
    text: str
    version: int
    channel: str = "table"

    def run(self, conn: Any, db: Database, stamp: datetime) -> datetime:
        conn.execute(
            _INSERT_CHAT,
            {
                "table_id": self.table_id,
                "idx": self.idx,
                "seat": -1 if self.seat is None else self.seat,
                "text": self.text,
                "version": self.version,
                "created_at": stamp,
                "channel": self.channel,
            },
        )
        return stamp


@dataclass(frozen=True)
class SetClock(Write):
    """A seat's turn clock runs out at ``ends_at`` on the decision of ``version``. A note for an older
    decision never overwrites a newer one; ``ends_at`` None clears it."""

    seat: int
    ends_at: datetime | None
    version: int

    def run(self, conn: Any, db: Database, stamp: datetime) -> None:
        conn.execute(_SET_CLOCK, {"tid": self.table_id, "s": self.seat, "ends_at": self.ends_at, "v": self.version})


_SET_TURN = (
    update(seats_t)
    .where(
        seats_t.c.table_id == bindparam("tid"),
        seats_t.c.seat == bindparam("s"),
        or_(seats_t.c.turn_version.is_(None), seats_t.c.turn_version <= bindparam("v")),
    )
    .values(turn_since=bindparam("since"), turn_deadline=bindparam("deadline"), turn_version=bindparam("v"))
)


@dataclass(frozen=True)
class SetTurn(Write):
    """At a turn-based table, the seat waits since ``since`` on the decision of ``version``, up to
    ``deadline`` (both None: it is not asked). A note for an older decision never overwrites a newer one."""

    seat: int
    since: datetime | None
    deadline: datetime | None
    version: int

    def run(self, conn: Any, db: Database, stamp: datetime) -> None:
        values = {"tid": self.table_id, "s": self.seat, "since": self.since, "deadline": self.deadline}
        conn.execute(_SET_TURN, {**values, "v": self.version})


@dataclass(frozen=True)
class SetSeat(Write):
    """A seat's name and joined mark, and ``stand_in`` unless None; ``opened``: a WebSocket opened the
    seat, so the deadline to open it (``open_by``) is met."""

    seat: int
    name: str | None
    joined: bool
    stand_in: bool | None = None
    opened: bool = False

    def run(self, conn: Any, db: Database, stamp: datetime) -> None:
        values: dict[str, Any] = {"name": self.name, "joined": self.joined}
        if self.stand_in is not None:
            values["stand_in"] = self.stand_in
        if self.opened:
            values["open_by"] = None
        conn.execute(
            update(seats_t).where(seats_t.c.table_id == self.table_id, seats_t.c.seat == self.seat).values(**values)
        )


@dataclass(frozen=True)
class ClaimSeat(Write):
    """A join link's claim code exchanged for the seat's token, once: False if the code no longer opens it.
    Claimed while signed in, the seat belongs to that account (``account_id``) and takes its name."""

    seat: int
    claim_hash: str
    token_hash: str
    account_id: str | None = None
    name: str | None = None

    def run(self, conn: Any, db: Database, stamp: datetime) -> bool:
        values: dict[str, Any] = {"claim_hash": None, "token_hash": self.token_hash}
        if self.account_id is not None:
            values["account_id"] = self.account_id
        if self.name is not None:
            values["name"] = self.name
        done = conn.execute(
            update(seats_t)
            .where(
                seats_t.c.table_id == self.table_id,
                seats_t.c.seat == self.seat,
                seats_t.c.claim_hash == self.claim_hash,
            )
            .values(**values)
        )
        return bool(done.rowcount == 1)


@dataclass(frozen=True)
class SeatLimits:
    """How many seats sat down in at unfinished tables one client address (``address_hash``, its
    SHA-256) and one account may hold at once; None: not counted (no address known, not signed in)."""

    address_hash: str | None
    per_address: int
    account_id: str | None
    per_account: int


@dataclass(frozen=True)
class TakeSeat(Write):
    """Someone sits down at an open seat of a public table waiting for players: the seat gets their token
    (and account, if signed in) unless somebody took it first (False); with ``fill_bots_at``, the
    table's wait for bots starts again (``SitDown``: it had run out while nobody sat there).
    ``open_by``: the moment its holder must have opened the table by. ``limits``: the seats the
    address and the account hold already are counted in the same transaction, under a lock on each
    (as for creations, ``check_creation_limits``), and past a limit nothing is stored
    (:class:`SeatsRefused`)."""

    seat: int
    token_hash: str
    account_id: str | None
    name: str | None
    fill_bots_at: datetime | None = None
    open_by: datetime | None = None
    limits: SeatLimits | None = None

    def run(self, conn: Any, db: Database, stamp: datetime) -> bool:
        if self.limits is not None:
            check_seat_limits(conn, db, self.limits)
        sat_from = self.limits.address_hash if self.limits is not None else None
        done = conn.execute(
            update(seats_t)
            .where(
                seats_t.c.table_id == self.table_id,
                seats_t.c.seat == self.seat,
                seats_t.c.kind == "human",
                seats_t.c.token_hash.is_(None),
                seats_t.c.account_id.is_(None),
            )
            .values(
                token_hash=self.token_hash,
                account_id=self.account_id,
                name=self.name,
                claim_hash=None,
                sat_from=sat_from,
                open_by=self.open_by,
            )
        )
        if done.rowcount != 1:
            return False
        if self.fill_bots_at is not None:
            conn.execute(update(tables_t).where(tables_t.c.id == self.table_id).values(fill_bots_at=self.fill_bots_at))
        return True


def check_seat_limits(conn: Any, db: Database, limits: SeatLimits) -> None:
    """Count the seats the address (and the account) sat down in at unfinished tables, under a lock on
    each held to the end of the transaction (PostgreSQL: an advisory lock; SQLite: its one writer), so
    that concurrent sits cannot all pass the check; raise :class:`SeatsRefused` at a limit."""
    held = (
        select(func.count())
        .select_from(seats_t.join(tables_t, seats_t.c.table_id == tables_t.c.id))
        .where(tables_t.c.status == "playing", seats_t.c.kind == "human")
    )
    checks = []
    if limits.address_hash is not None:
        checks.append(("address", limits.address_hash, seats_t.c.sat_from == limits.address_hash, limits.per_address))
    if limits.account_id is not None:
        mine = (seats_t.c.account_id == limits.account_id) & seats_t.c.sat_from.is_not(None)
        checks.append(("account", limits.account_id, mine, limits.per_account))
    for whose, key, where, most in checks:
        if not db.is_sqlite:  # (always address, then account: no two sits deadlock)
            conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": f"parlor-sitter:{key}"})
        count = conn.execute(held.where(where)).scalar_one()
        if count >= most:
            mine_text = "from your address" if whose == "address" else "by your account"
            raise SeatsRefused(
                "too_many_seats",
                f"{count} seats at unfinished tables are held {mine_text} already (at most {most}); play or "
                "stand up from some first",
            )


# What an emptied seat holds: no token, account, name or claim, nobody joined or standing in, and no
# deadline to open it (a seat freed for not being opened, and one its player stood up from).
_SEAT_EMPTIED: dict[str, Any] = {
    "token_hash": None,
    "account_id": None,
    "name": None,
    "claim_hash": None,
    "joined": False,
    "stand_in": False,
    "sat_from": None,
    "open_by": None,
}


@dataclass(frozen=True)
class FreeSeat(Write):
    """A seat sat down in but not opened in time, at a table still waiting for players: open again (no
    token, account, name), if ``token_hash`` still holds it and it is still unopened (False otherwise).
    The table's wait for bots goes on as it was."""

    seat: int
    token_hash: str

    def run(self, conn: Any, db: Database, stamp: datetime) -> bool:
        done = conn.execute(
            update(seats_t)
            .where(
                seats_t.c.table_id == self.table_id,
                seats_t.c.seat == self.seat,
                seats_t.c.token_hash == self.token_hash,
                seats_t.c.open_by.is_not(None),
            )
            .values(**_SEAT_EMPTIED)
        )
        return bool(done.rowcount == 1)


@dataclass(frozen=True)
class LeaveSeat(Write):
    """A seated player stands up from a public table still waiting for players: the seat is open again
    (no token, account, name or claim) if ``token_hash`` still holds it (False otherwise), and the
    table's wait for bots starts again (``fill_bots_at``, None: it has none)."""

    seat: int
    token_hash: str
    fill_bots_at: datetime | None

    def run(self, conn: Any, db: Database, stamp: datetime) -> bool:
        done = conn.execute(
            update(seats_t)
            .where(
                seats_t.c.table_id == self.table_id,
                seats_t.c.seat == self.seat,
                seats_t.c.token_hash == self.token_hash,
            )
            .values(**_SEAT_EMPTIED)
        )
        if done.rowcount != 1:
            return False
        if self.fill_bots_at is not None:
            conn.execute(update(tables_t).where(tables_t.c.id == self.table_id).values(fill_bots_at=self.fill_bots_at))
        return True


@dataclass(frozen=True)
class SeatsToBots(Write):
    """A waiting table's empty seats become bots of ``level`` (nobody sat down in time); the table no
    longer waits to be filled."""

    seats: tuple[int, ...]
    level: str

    def run(self, conn: Any, db: Database, stamp: datetime) -> None:
        conn.execute(
            update(seats_t)
            .where(
                seats_t.c.table_id == self.table_id,
                seats_t.c.seat.in_(self.seats),
                seats_t.c.token_hash.is_(None),
                seats_t.c.account_id.is_(None),
            )
            .values(kind="bot", level=self.level, joined=True, claim_hash=None, name=None)
        )
        conn.execute(update(tables_t).where(tables_t.c.id == self.table_id).values(fill_bots_at=None))


@dataclass(frozen=True)
class NewLink(Write):
    """A host's new join link for a seat: a new claim code, no token opens the seat until it is claimed,
    and the replaced token is kept (hashed) to tell its holder what happened."""

    seat: int
    claim_hash: str
    replaced_hash: str | None

    def run(self, conn: Any, db: Database, stamp: datetime) -> None:
        conn.execute(
            update(seats_t)
            .where(seats_t.c.table_id == self.table_id, seats_t.c.seat == self.seat)
            .values(
                claim_hash=self.claim_hash,
                token_hash=None,
                account_id=None,
                name=None,
                joined=False,
                stand_in=False,
                replaced_hash=self.replaced_hash,
                sat_from=None,
                open_by=None,
            )
        )


@dataclass(frozen=True)
class CloseUnplayed(Write):
    """End a table nobody joined (it no longer resumes at start)."""

    result: dict[str, Any]

    def run(self, conn: Any, db: Database, stamp: datetime) -> None:
        conn.execute(
            update(tables_t)
            .where(tables_t.c.id == self.table_id, tables_t.c.status == "playing")
            .values(status="over", result=dumps(self.result), updated_at=stamp)
        )


@dataclass(frozen=True)
class MarkBroken(Write):
    """A table whose record no longer replays: closed for good, with the reason."""

    error: str

    def run(self, conn: Any, db: Database, stamp: datetime) -> None:
        conn.execute(
            update(tables_t)
            .where(tables_t.c.id == self.table_id)
            .values(status="broken", error=self.error, updated_at=stamp)
        )


@dataclass(frozen=True)
class CreationLimits:
    """The per-address creation limits, checked inside the creating transaction (docs/protocol.md); for a
    signed-in player, the per-account ones too (``account``: its id, per minute, most unfinished)."""

    creator_hash: str
    per_minute: float
    max_unfinished: int
    account: tuple[str, float, int] | None = None


@dataclass(frozen=True)
class CreateTable(Write):
    """A new table with its seats (and, on a site of several processes, its creator's lease on it).

    ``limits``: the creating address's caps, counted and enforced in the same transaction as the insert,
    under a lock on that address (PostgreSQL: an advisory lock; SQLite: the database's one writer), so
    that concurrent creations cannot all pass the check. ``link_from``: the finished table whose "play
    again" this is; its ``next_table`` is set here too (that table's fence is checked: its owner writes it).
    """

    row: dict[str, Any] = field(default_factory=dict)
    seats: list[dict[str, Any]] = field(default_factory=list)
    limits: CreationLimits | None = None
    link_from: str | None = None

    def fenced_tables(self) -> tuple[str, ...]:
        return (self.link_from,) if self.link_from is not None else ()

    def run(self, conn: Any, db: Database, stamp: datetime) -> None:
        if self.limits is not None:
            check_creation_limits(conn, db, self.limits, stamp)
        created = self.row.get("created_at") or stamp
        values = {**self.row, "options": dumps(self.row["options"]), "created_at": created, "updated_at": created}
        conn.execute(insert(tables_t).values(**values))
        conn.execute(insert(seats_t), [{"table_id": self.table_id, **s} for s in self.seats])
        if db.lease is not None and self.row["status"] == "playing":  # its creator owns it from the start
            owner, seconds = db.lease
            conn.execute(
                text(
                    "INSERT INTO parlor_leases (table_id, owner, expires_at)"
                    " VALUES (:table_id, :owner, now() + make_interval(secs => :seconds))"
                ),
                {"table_id": self.table_id, "owner": owner, "seconds": seconds},
            )
        if self.link_from is not None:
            done = conn.execute(
                update(tables_t)
                .where(tables_t.c.id == self.link_from, tables_t.c.next_table.is_(None))
                .values(next_table=self.table_id, updated_at=stamp)
            )
            if done.rowcount != 1:
                raise VersionConflict(f"table {self.link_from} has a next table already")


def check_creation_limits(conn: Any, db: Database, limits: CreationLimits, stamp: datetime) -> None:
    """Count the address's (and the signed-in account's) unfinished and recent tables under a lock on
    each; raise :class:`CreationRefused` past a cap. The locks are held to the end of the transaction,
    which also inserts the table: a second creation from the address (or by the account) waits and then
    counts the first."""
    checks = [(tables_t.c.creator_hash, limits.creator_hash, limits.per_minute, limits.max_unfinished, "address")]
    if limits.account is not None:
        account_id, per_minute, most = limits.account
        checks.append((tables_t.c.creator_account, account_id, per_minute, most, "account"))
    for column, key, per_minute, most, whose in checks:
        if not db.is_sqlite:  # (always in this order: address, then account; no two creations deadlock)
            conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": f"parlor-creator:{key}"})
        unfinished = conn.execute(
            select(func.count()).select_from(tables_t).where(column == key, tables_t.c.status == "playing")
        ).scalar_one()
        if unfinished >= most:
            mine = "from your address" if whose == "address" else "by your account"
            raise CreationRefused(
                "too_many_tables",
                f"{unfinished} unfinished tables were created {mine} already (at most {most}); finish or leave "
                "some first",
            )
        recent = conn.execute(
            select(func.count())
            .select_from(tables_t)
            .where(column == key, tables_t.c.created_at >= stamp - timedelta(minutes=1))
        ).scalar_one()
        if recent >= per_minute:
            one = "one address" if whose == "address" else "one account"
            raise CreationRefused("rate_limited", f"at most {per_minute:g} new tables a minute from {one}")


@dataclass(frozen=True)
class StoreReplay(Write):
    """A finished table's replay steps for a seat (None: spectators), built once and kept.

    Not fenced: a finished table has no owner, the steps are derived from its stored record (any
    process builds the same bytes), and a second writer of the same replay changes nothing."""

    seat: int | None
    steps: str

    fenced: ClassVar[bool] = False

    def run(self, conn: Any, db: Database, stamp: datetime) -> None:
        key = -1 if self.seat is None else self.seat
        found = conn.execute(
            select(replays_t.c.seat).where(replays_t.c.table_id == self.table_id, replays_t.c.seat == key)
        ).first()
        if found is None:
            conn.execute(insert(replays_t).values(table_id=self.table_id, seat=key, steps=self.steps, created_at=stamp))


@dataclass(frozen=True)
class StoreSnapshot(Write):
    """A turn-based table's state as it leaves memory (``version``: decisions in its record then),
    replacing the one stored before. Fenced like a decision: only the table's owner knows its state."""

    version: int
    data: str

    def run(self, conn: Any, db: Database, stamp: datetime) -> None:
        conn.execute(delete(snapshots_t).where(snapshots_t.c.table_id == self.table_id))
        conn.execute(insert(snapshots_t).values(table_id=self.table_id, version=self.version, data=self.data))


@dataclass(frozen=True)
class StoreReview(Write):
    """A finished table's review of a seat as it stands (``decisions`` judged so far): inserted, or
    replacing a shorter one.

    Not fenced, for StoreReplay's reasons: a finished table has no owner, and the review is derived
    from its stored record alone (the judge is deterministic for the record, the seat and its
    settings), so two processes reviewing the same seat store the same bytes; a shorter review never
    replaces a longer one."""

    seat: int
    review: str  # JSON
    decisions: int
    complete: bool

    fenced: ClassVar[bool] = False

    def run(self, conn: Any, db: Database, stamp: datetime) -> None:
        key = (reviews_t.c.table_id == self.table_id) & (reviews_t.c.seat == self.seat)
        found = conn.execute(select(reviews_t.c.decisions).where(key)).first()
        values = {"review": self.review, "decisions": self.decisions, "complete": self.complete, "updated_at": stamp}
        if found is None:
            conn.execute(insert(reviews_t).values(table_id=self.table_id, seat=self.seat, **values))
        elif found.decisions < self.decisions:
            conn.execute(update(reviews_t).where(key).values(**values))


@dataclass(frozen=True)
class AddHint(Write):
    """A hint a seat was given at decision ``version`` (kept for its replay). Fenced: the table is in
    play. The hint for one seat and decision is stored once (asked again, it is the same)."""

    version: int
    seat: int
    hint: str  # JSON

    def run(self, conn: Any, db: Database, stamp: datetime) -> None:
        found = conn.execute(
            select(hints_t.c.seat).where(
                hints_t.c.table_id == self.table_id, hints_t.c.version == self.version, hints_t.c.seat == self.seat
            )
        ).first()
        if found is None:
            conn.execute(
                insert(hints_t).values(
                    table_id=self.table_id, version=self.version, seat=self.seat, hint=self.hint, created_at=stamp
                )
            )


# ---- moderation (server/moderation) -------------------------------------------------------------
@dataclass(frozen=True)
class HideChat(Write):
    """A moderator deleted chat line ``idx`` for everyone: its text is cleared, its place kept (the
    lines after it keep their numbers). Returns whether there was such a line."""

    idx: int

    def run(self, conn: Any, db: Database, stamp: datetime) -> bool:
        done = conn.execute(
            update(chat_t)
            .where(chat_t.c.table_id == self.table_id, chat_t.c.idx == self.idx)
            .values(text="", deleted=True)
        ).rowcount
        return bool(done)


@dataclass(frozen=True)
class LogModeration(Write):
    """A moderator's action at a table, logged in the transaction that stores it (so none goes
    unlogged). Not fenced: the log is no table's row (the action's own writes are)."""

    admin_id: str | None
    admin_name: str | None
    action: str
    reason: str

    fenced: ClassVar[bool] = False

    def run(self, conn: Any, db: Database, stamp: datetime) -> None:
        conn.execute(
            insert(admin_log_t).values(
                admin_id=self.admin_id,
                admin_name=self.admin_name,
                action=self.action,
                target=f"table {self.table_id}",
                reason=self.reason,
                at=stamp,
            )
        )
