"""Persistence: SQLAlchemy 2 (Core) on SQLite (WAL, the default) or PostgreSQL.

A table is stored as its record (game, players, options, seed and the decisions in order)
plus the event log of every decision, its seats and its chat. Every write is one transaction, committed before the
server acknowledges the action it stores. The schema is created and upgraded by the Alembic
migrations shipped in ``parlor/server/migrations`` (run at start-up by :meth:`Database.migrate`).

All methods are synchronous; the server calls them from a worker thread.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    false,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine, make_url

metadata = MetaData()

tables_t = Table(
    "parlor_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", Text, nullable=False),  # JSON
    Column("seed", BigInteger, nullable=False),
    Column("engine_version", String(16), nullable=False),
    Column("status", String(16), nullable=False),  # playing | over | broken
    Column("version", Integer, nullable=False),  # number of decisions in the record
    Column("seat_timeout", Float, nullable=True),
    Column("substitute_level", String(16), nullable=False),
    Column("spectator_hash", String(64), nullable=False),
    Column("result", Text, nullable=True),  # JSON, when over
    Column("error", Text, nullable=True),  # why a table is broken
    Column("previous_table", String(32), nullable=True),
    Column("next_table", String(32), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("turn_time", Float, nullable=True),  # seconds per decision; NULL = no clock
    Column("bots_before_join", Boolean, nullable=False, server_default=false()),
    Column("host_hash", String(64), nullable=True),  # sha256 of the host's token
    Column("creator_hash", String(64), nullable=True),  # sha256 of the creating client's address
    Index("ix_parlor_tables_status", "status"),
    Index("ix_parlor_tables_creator", "creator_hash", "status"),
)

seats_t = Table(
    "parlor_seats",
    metadata,
    Column("table_id", String(32), ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # human | bot
    Column("level", String(16), nullable=True),
    Column("name", String(40), nullable=True),
    Column("token_hash", String(64), nullable=True),  # sha256 of the seat's token (humans)
    Column("joined", Boolean, nullable=False),
    Column("stand_in", Boolean, nullable=False, server_default=false()),  # the host let a bot play it
    # The running turn clock: when it runs out, and for which decision (the table's version then),
    # so that a restarted server resumes it instead of giving a full turn again.
    Column("clock_ends_at", DateTime(timezone=True), nullable=True),
    Column("clock_version", Integer, nullable=True),
    Column("claim_hash", String(64), nullable=True),  # sha256 of the one-time code of its join link
)

actions_t = Table(
    "parlor_actions",
    metadata,
    Column("table_id", String(32), ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),  # position in the record
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),  # the action's JSON
    Column("by", String(12), nullable=False),  # player | bot | substitute
    Column("created_at", DateTime(timezone=True), nullable=False),
)

events_t = Table(
    "parlor_events",
    metadata,
    Column("table_id", String(32), ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),  # position in the table's event log
    Column("action_idx", Integer, nullable=False),  # the decision that caused it
    Column("kind", String(64), nullable=False),
    Column("data", Text, nullable=False),  # JSON
    Column("visible_to", Text, nullable=True),  # JSON list of seats; NULL = public
)


chat_t = Table(
    "parlor_chat",
    metadata,
    Column("table_id", String(32), ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),  # position in the table's chat
    Column("seat", Integer, nullable=False),  # -1: a spectator (they share one anonymous link)
    Column("text", Text, nullable=False),
    Column("version", Integer, nullable=False),  # decisions taken when it was said (for the replay)
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("channel", String(16), nullable=False, server_default="table"),  # "table" or "spectators"
)

replays_t = Table(
    "parlor_replays",
    metadata,
    Column("table_id", String(32), ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),  # -1: the spectators' replay
    Column("steps", Text, nullable=False),  # JSON: the replay's steps, as served
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# Several processes as one site (PostgreSQL; server/cluster.py).
processes_t = Table(
    "parlor_processes",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("address", String(64), nullable=False),  # host:port where the other processes reach it
    Column("heartbeat_at", DateTime(timezone=True), nullable=False),
)

leases_t = Table(
    "parlor_leases",
    metadata,
    Column("table_id", String(32), ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("owner", String(32), nullable=False),  # a parlor_processes.id
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Index("ix_parlor_leases_owner", "owner"),
)

settings_t = Table(
    "parlor_settings",
    metadata,
    Column("name", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)


# The statements that store a decision, built once: SQLAlchemy then finds their compiled form in its
# cache instead of building and compiling a new statement for every decision (the server's hottest
# write; building them per call cost ten times the database work).
_INSERT_ACTION = insert(actions_t)
_INSERT_EVENT = insert(events_t)
_ADVANCE_TABLE = (
    update(tables_t)
    .where(tables_t.c.id == bindparam("table_id"), tables_t.c.version == bindparam("idx"))
    .values(version=bindparam("new_version"), status=bindparam("new_status"), updated_at=bindparam("stamp"))
)
_FINISH_TABLE = _ADVANCE_TABLE.values(result=bindparam("new_result"))


@dataclass(frozen=True)
class Decision:
    """One decision to store: its record entry, its events, and the table's status after it."""

    table_id: str
    idx: int
    seat: int
    action: Any  # the action's JSON
    by: str
    first_event: int
    events: list[tuple[str, dict[str, Any], list[int] | None]]
    status: str
    result: dict[str, Any] | None


class VersionConflict(RuntimeError):
    """The table in the database is not at the version the decision follows."""


class LeaseLost(RuntimeError):
    """This process no longer owns the table (another process of the site took it over)."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id} is now owned by another server process")
        self.table_id = table_id


_RENEW_LEASE = text(
    "UPDATE parlor_leases SET expires_at = now() + make_interval(secs => :seconds)"
    " WHERE table_id = :table_id AND owner = :owner"
)


def now() -> datetime:
    return datetime.now(UTC)


def default_database_url() -> str:
    """``$PARLOR_DATABASE_URL``, else SQLite in the user's data directory."""
    env = os.environ.get("PARLOR_DATABASE_URL")
    if env:
        return env
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return f"sqlite:///{Path(base) / 'parlor' / 'parlor.db'}"


def normalize_url(url: str) -> str:
    """``postgresql://`` means psycopg 3 (the driver Parlor ships with its ``postgres`` extra)."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def _utc(stamp: datetime) -> datetime:
    """SQLite hands back naive date-times: every stamp Parlor writes is UTC."""
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=UTC)


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class DamagedDatabase(Exception):
    """The database file fails its integrity check: the server refuses to start on it."""


class Database:
    def __init__(self, url: str | None = None) -> None:
        self.url = normalize_url(url or default_database_url())
        parsed = make_url(self.url)
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        kwargs: dict[str, Any] = {}
        if self.is_sqlite:
            if parsed.database and parsed.database != ":memory:":
                Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            kwargs["pool_pre_ping"] = True
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        # Set by cluster.py when this process is one of several: (its id, lease seconds). Every
        # transaction that stores a decision then renews the table's lease, and fails if it is gone.
        self.lease: tuple[str, float] | None = None

    # ---- schema -------------------------------------------------------------------------
    def check_integrity(self) -> str | None:
        """Before serving: on SQLite, ``PRAGMA quick_check`` (raises :class:`DamagedDatabase` on damage).

        Returns a notice to print when an empty or missing file is about to become a new database."""
        if not self.is_sqlite:
            return None
        path = make_url(self.url).database
        if not path or path == ":memory:":
            return None
        file = Path(path).expanduser()
        if not file.exists() or file.stat().st_size == 0:
            return f"{file} is {'empty' if file.exists() else 'missing'}: starting a new, empty Parlor database there"
        try:
            with self.engine.connect() as conn:
                rows = [r[0] for r in conn.exec_driver_sql("PRAGMA quick_check").fetchall()]
        except Exception as exc:  # not a database at all, or unreadable
            reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]  # the driver's words, one line
            raise DamagedDatabase(
                f"{file} cannot be read as an SQLite database ({reason}); refusing to start"
            ) from None
        if rows != ["ok"]:
            detail = "; ".join(str(r) for r in rows[:5])
            raise DamagedDatabase(
                f"{file} is damaged (PRAGMA quick_check: {detail}); refusing to start. Restore it from a backup, "
                f"or move it away to start with a new database"
            )
        return None

    def migrate(self) -> None:
        """Create or upgrade the schema to the newest Alembic revision."""
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
        cfg.set_main_option("sqlalchemy.url", self.url.replace("%", "%%"))
        with self.engine.begin() as connection:
            if not self.is_sqlite:  # several processes of one site may start at once: one migrates at a time
                connection.exec_driver_sql("SELECT pg_advisory_xact_lock(7405318)")
            cfg.attributes["connection"] = connection
            command.upgrade(cfg, "head")

    def close(self) -> None:
        self.engine.dispose()

    # ---- writes (each one transaction) -------------------------------------------------------
    def create_table(self, table: dict[str, Any], seats: list[dict[str, Any]], link_from: str | None = None) -> None:
        stamp = table.get("created_at") or now()
        values = {**table, "options": _dumps(table["options"]), "created_at": stamp, "updated_at": stamp}
        with self.engine.begin() as conn:
            conn.execute(insert(tables_t).values(**values))
            conn.execute(insert(seats_t), [{"table_id": table["id"], **s} for s in seats])
            if self.lease is not None and table["status"] == "playing":  # its creator owns it from the start
                owner, seconds = self.lease
                conn.execute(
                    text(
                        "INSERT INTO parlor_leases (table_id, owner, expires_at)"
                        " VALUES (:table_id, :owner, now() + make_interval(secs => :seconds))"
                    ),
                    {"table_id": table["id"], "owner": owner, "seconds": seconds},
                )
            if link_from is not None:
                conn.execute(
                    update(tables_t).where(tables_t.c.id == link_from).values(next_table=table["id"], updated_at=stamp)
                )

    def append_action(self, decision: Decision) -> None:
        """Store one decision in a transaction of its own."""
        with self.engine.begin() as conn:
            self._store(conn, [decision])

    def append_actions(self, decisions: list[Decision]) -> list[Exception | None]:
        """Store several tables' decisions in one transaction (a group commit: one disk sync for all).

        Returns, per decision, ``None`` once it is committed or the error that kept it out. If the
        group fails, each decision is tried again in a transaction of its own, so that one table's
        conflict never costs another table its move."""
        try:
            with self.engine.begin() as conn:
                self._store(conn, decisions)
            return [None] * len(decisions)
        except Exception as exc:
            if len(decisions) == 1:
                return [exc]
        outcomes: list[Exception | None] = []
        for decision in decisions:
            try:
                self.append_action(decision)
                outcomes.append(None)
            except Exception as exc:
                outcomes.append(exc)
        return outcomes

    def _store(self, conn: Any, decisions: list[Decision]) -> None:
        stamp = now()
        if self.lease is not None:
            # Fencing: the row lock this takes is held to the commit, so a process taking the table
            # over waits for it and then sees the renewed lease; a process that lost it stores nothing.
            owner, seconds = self.lease
            for table_id in dict.fromkeys(d.table_id for d in decisions):
                renewed = conn.execute(_RENEW_LEASE, {"seconds": seconds, "table_id": table_id, "owner": owner})
                if renewed.rowcount != 1:
                    raise LeaseLost(table_id)
        conn.execute(
            _INSERT_ACTION,
            [
                {"table_id": d.table_id, "idx": d.idx, "seat": d.seat, "action": _dumps(d.action), "by": d.by}
                | {"created_at": stamp}
                for d in decisions
            ],
        )
        events = [
            {
                "table_id": d.table_id,
                "idx": d.first_event + i,
                "action_idx": d.idx,
                "kind": kind,
                "data": _dumps(data),
                "visible_to": None if who is None else _dumps(who),
            }
            for d in decisions
            for i, (kind, data, who) in enumerate(d.events)
        ]
        if events:
            conn.execute(_INSERT_EVENT, events)
        for d in decisions:
            params = {"table_id": d.table_id, "idx": d.idx, "new_version": d.idx + 1, "new_status": d.status}
            params["stamp"] = stamp
            if d.result is not None:
                done = conn.execute(_FINISH_TABLE, params | {"new_result": _dumps(d.result)})
            else:
                done = conn.execute(_ADVANCE_TABLE, params)
            if done.rowcount != 1:
                raise VersionConflict(f"table {d.table_id} is not at version {d.idx} in the database")

    def remove_last_action(self, table_id: str, idx: int) -> None:
        """Undo: drop decision ``idx`` (the last one) and its events."""
        with self.engine.begin() as conn:
            conn.execute(delete(events_t).where(events_t.c.table_id == table_id, events_t.c.action_idx == idx))
            conn.execute(delete(actions_t).where(actions_t.c.table_id == table_id, actions_t.c.idx == idx))
            done = conn.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id, tables_t.c.version == idx + 1)
                .values(version=idx, updated_at=now())
            )
            if done.rowcount != 1:
                raise RuntimeError(f"table {table_id} is not at version {idx + 1} in the database")

    def set_seat(
        self,
        table_id: str,
        seat: int,
        name: str | None,
        joined: bool,
        stand_in: bool | None = None,
        token_hash: str | None = None,
    ) -> None:
        """Update a seat: its name and joined mark, and ``stand_in`` or ``token_hash`` unless None."""
        values: dict[str, Any] = {"name": name, "joined": joined}
        if stand_in is not None:
            values["stand_in"] = stand_in
        if token_hash is not None:
            values["token_hash"] = token_hash
        with self.engine.begin() as conn:
            conn.execute(update(seats_t).where(seats_t.c.table_id == table_id, seats_t.c.seat == seat).values(**values))

    def creations_by(self, creator_hash: str, since: datetime) -> tuple[int, int]:
        """(unfinished tables, tables created since ``since``) of one creating address."""
        with self.engine.connect() as conn:
            unfinished = conn.execute(
                select(func.count())
                .select_from(tables_t)
                .where(tables_t.c.creator_hash == creator_hash, tables_t.c.status == "playing")
            ).scalar_one()
            recent = conn.execute(
                select(func.count())
                .select_from(tables_t)
                .where(tables_t.c.creator_hash == creator_hash, tables_t.c.created_at >= since)
            ).scalar_one()
        return unfinished, recent

    def claim_seat(self, table_id: str, seat: int, claim_hash: str, token_hash: str) -> bool:
        """Exchange a seat's claim code for a token, once: False if the code no longer opens it."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(seats_t)
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat, seats_t.c.claim_hash == claim_hash)
                .values(claim_hash=None, token_hash=token_hash)
            )
            return done.rowcount == 1

    def new_claim(self, table_id: str, seat: int, claim_hash: str) -> None:
        """A new join link for a seat: its claim code changes and no token opens it until claimed."""
        with self.engine.begin() as conn:
            conn.execute(
                update(seats_t)
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                .values(claim_hash=claim_hash, token_hash=None, name=None, joined=False, stand_in=False)
            )

    def set_clock(self, table_id: str, seat: int, ends_at: datetime, version: int) -> None:
        """Note a seat's turn clock: it runs out at ``ends_at`` on the decision of ``version``. A
        note for an older decision never overwrites a newer one (writes may finish out of order)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(seats_t)
                .where(
                    seats_t.c.table_id == table_id,
                    seats_t.c.seat == seat,
                    or_(seats_t.c.clock_version.is_(None), seats_t.c.clock_version <= version),
                )
                .values(clock_ends_at=ends_at, clock_version=version)
            )

    def add_chat(
        self, table_id: str, idx: int, seat: int | None, text: str, version: int, channel: str = "table"
    ) -> datetime:
        """Store chat line ``idx`` of a table (``seat`` None: a spectator); returns its time stamp."""
        stamp = now()
        with self.engine.begin() as conn:
            conn.execute(
                insert(chat_t).values(
                    table_id=table_id,
                    idx=idx,
                    seat=-1 if seat is None else seat,
                    text=text,
                    version=version,
                    created_at=stamp,
                    channel=channel,
                )
            )
        return stamp

    def close_unplayed(self, table_id: str, result: dict[str, Any]) -> None:
        """End a table nobody joined (it no longer resumes at start)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id, tables_t.c.status == "playing")
                .values(status="over", result=_dumps(result), updated_at=now())
            )

    def mark_broken(self, table_id: str, error: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(tables_t).where(tables_t.c.id == table_id).values(status="broken", error=error, updated_at=now())
            )

    # ---- reads -------------------------------------------------------------------------
    def unfinished_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables_t.c.id).where(tables_t.c.status == "playing").order_by(tables_t.c.created_at)
            )
            return [r[0] for r in rows]

    @staticmethod
    def _chat(conn: Any, table_id: str) -> list[dict[str, Any]]:
        return [
            {
                "idx": r.idx,
                "seat": None if r.seat < 0 else r.seat,
                "text": r.text,
                "version": r.version,
                "created_at": _utc(r.created_at),
                "channel": r.channel,
            }
            for r in conn.execute(select(chat_t).where(chat_t.c.table_id == table_id).order_by(chat_t.c.idx))
        ]

    @staticmethod
    def _table_and_seats(conn: Any, table_id: str) -> dict[str, Any] | None:
        row = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).mappings().first()
        if row is None:
            return None
        table = dict(row)
        table["options"] = json.loads(table["options"])
        table["result"] = json.loads(table["result"]) if table["result"] else None
        table["seats"] = [
            dict(r, clock_ends_at=_utc(r["clock_ends_at"]) if r["clock_ends_at"] else None)
            for r in conn.execute(
                select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat)
            ).mappings()
        ]
        return table

    def load_head(self, table_id: str) -> dict[str, Any] | None:
        """A table without its record: the row, its seats (with how many decisions a bot made for
        each human seat) and its chat. Enough to describe a finished table without replaying it."""
        with self.engine.connect() as conn:
            table = self._table_and_seats(conn, table_id)
            if table is None:
                return None
            helped = conn.execute(
                select(actions_t.c.seat, func.count())
                .where(actions_t.c.table_id == table_id, actions_t.c.by.in_(("substitute", "stand_in", "clock")))
                .group_by(actions_t.c.seat)
            )
            table["bot_moves"] = {seat: n for seat, n in helped}
            table["chat"] = self._chat(conn, table_id)
        return table

    def stored_replay(self, table_id: str, seat: int | None) -> str | None:
        """The stored replay steps (JSON) of a finished table for a seat (None: spectators), if any."""
        with self.engine.connect() as conn:
            return conn.execute(
                select(replays_t.c.steps).where(
                    replays_t.c.table_id == table_id, replays_t.c.seat == (-1 if seat is None else seat)
                )
            ).scalar_one_or_none()

    def store_replay(self, table_id: str, seat: int | None, steps: str) -> None:
        """Keep a finished table's replay steps (a second writer of the same replay changes nothing)."""
        key = -1 if seat is None else seat
        with self.engine.begin() as conn:
            found = conn.execute(
                select(replays_t.c.seat).where(replays_t.c.table_id == table_id, replays_t.c.seat == key)
            ).first()
            if found is None:
                conn.execute(insert(replays_t).values(table_id=table_id, seat=key, steps=steps, created_at=now()))

    def load(self, table_id: str) -> dict[str, Any] | None:
        """A table with its seats and record, or None."""
        with self.engine.connect() as conn:
            table = self._table_and_seats(conn, table_id)
            if table is None:
                return None
            table["actions"] = [
                {"seat": r.seat, "action": json.loads(r.action), "by": r.by}
                for r in conn.execute(
                    select(actions_t.c.seat, actions_t.c.action, actions_t.c.by)
                    .where(actions_t.c.table_id == table_id)
                    .order_by(actions_t.c.idx)
                )
            ]
            table["chat"] = self._chat(conn, table_id)
            table["event_count"] = conn.execute(
                select(func.count()).select_from(events_t).where(events_t.c.table_id == table_id)
            ).scalar_one()
            return table

    def events(self, table_id: str) -> list[dict[str, Any]]:
        """The stored event log of a table, oldest first."""
        with self.engine.connect() as conn:
            return [
                {
                    "action_idx": r.action_idx,
                    "kind": r.kind,
                    "data": json.loads(r.data),
                    "visible_to": None if r.visible_to is None else json.loads(r.visible_to),
                }
                for r in conn.execute(select(events_t).where(events_t.c.table_id == table_id).order_by(events_t.c.idx))
            ]


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    # In WAL mode NORMAL keeps every committed transaction across a crash of the process
    # (the server's failure mode); only a power loss may cost the last transactions.
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()
