"""The storage layer: SQLAlchemy 2 (Core) on SQLite (WAL, the default) or PostgreSQL.

A table is stored as its record (game, players, options, seed and the decisions in order) plus the
event log of every decision, its seats and its chat (``schema.py``). The schema is created and
upgraded by the Alembic migrations shipped in ``migrations/`` (run at start-up by :meth:`Database.migrate`).

**Writes.** Every change to a table's rows is a value of ``writes.py`` and reaches the database
through one method, :meth:`Database.commit`: one transaction that first checks the fence of every
table it touches (:meth:`Database.fence`), then runs the writes in order. When this process is one of
several (``lease`` set), the fence renews the table's lease in that same transaction, and a process
that lost it stores nothing (:class:`LeaseLost`). Nothing else here writes a table's rows.

**Durability.** A write is committed before the server acknowledges what it stores. SQLite runs in
WAL mode with ``synchronous=NORMAL``: a commit is in the write-ahead log before it returns, so a
killed server process (even ``kill -9``) loses nothing committed; a power cut or an operating-system
crash may lose the transactions since the log was last synced (at a checkpoint), never corrupting the
file; ``PARLOR_SQLITE_SYNCHRONOUS=FULL`` syncs at every commit instead (``docs/deploy.md``).

All methods are synchronous; the server calls them from its database thread(s).
"""

from __future__ import annotations

import collections
import json
import os
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import and_, case, create_engine, event, func, null, select, text
from sqlalchemy.engine import Engine, make_url

from .schema import (
    accounts_t,
    actions_t,
    chat_t,
    events_t,
    hints_t,
    replays_t,
    reviews_t,
    seats_t,
    snapshots_t,
    tables_t,
)
from .writes import LeaseLost, Write

# (the leases of the tables a transaction writes, renewed in it: the fence of a site of several processes)
_RENEW_LEASES = text(
    "UPDATE parlor_leases SET expires_at = now() + make_interval(secs => :seconds)"
    " WHERE owner = :owner AND table_id = ANY(:tables) RETURNING table_id"
)
CHAT_PAGE = 100  # chat lines read with a table (the newest); older ones are paged (Database.chat_page)
BOT_BY = ("substitute", "stand_in", "clock")  # the stored ``by`` of a decision a bot made for a human seat


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


def seat_name() -> Any:
    """SQL: a seat's name as shown, ``name``: none for a seat of a deleted account ("deleted player"),
    whether or not the process that held its table when the account went got to clear the stored one
    (``storage/accounts.py``)."""
    gone = select(accounts_t.c.id).where(accounts_t.c.deleted_at.is_not(None)).scalar_subquery()
    return case((seats_t.c.account_id.in_(gone), null()), else_=seats_t.c.name).label("name")


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
            # A process stopped inside a transaction (SIGSTOP, a frozen VM) would hold its row locks, and
            # with them the other processes' takeover of its tables, until it woke: PostgreSQL ends a
            # session left idle in a transaction for 30 s, and its locks with it.
            kwargs["connect_args"] = {"options": "-c idle_in_transaction_session_timeout=30000"}
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        # Plain SQL handed to the driver (the hottest writes, writes.py): its parameter marker.
        self.placeholder = "?" if self.is_sqlite else "%s"
        # Set when this process is one of several (table/site.py): (its id, lease seconds). Every
        # transaction that writes a table's rows then renews that table's lease, or stores nothing.
        self.lease: tuple[str, float] | None = None

    def stamp(self, when: datetime | None) -> Any:
        """A time as plain SQL stores it here: SQLite keeps UTC as text in SQLAlchemy's own form (so
        that its reads and comparisons see one format); PostgreSQL takes the time itself."""
        if when is None or not self.is_sqlite:
            return when
        return when.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")

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

    def schema_revisions(self) -> tuple[set[str], set[str]]:
        """(the Alembic revisions the database is at, the newest revisions this code knows): equal when
        the schema is at head. Connects afresh (the pool checks the connection first), so an unreachable
        database raises, as the readiness check needs (``edge/health.py``)."""
        from alembic.runtime.migration import MigrationContext

        with self.engine.connect() as connection:
            current = set(MigrationContext.configure(connection).get_current_heads())
        return current, set(_head_revisions())

    def close(self) -> None:
        self.engine.dispose()

    # ---- writes: one path, fenced -------------------------------------------------------------
    def fence(self, conn: Any, table_ids: Sequence[str]) -> None:
        """Inside a transaction: check (and renew) this process's lease on each table before writing
        it. The row lock the ``UPDATE`` takes is held to the commit, so a process taking a table over
        waits for it and then sees the renewed lease; a process that lost the lease raises
        :class:`LeaseLost` and stores nothing. One process alone (SQLite, or PostgreSQL without
        ``--workers``) has no lease: it is the only writer."""
        if self.lease is None or not table_ids:
            return
        owner, seconds = self.lease
        wanted = list(dict.fromkeys(table_ids))
        held = {r[0] for r in conn.execute(_RENEW_LEASES, {"seconds": seconds, "owner": owner, "tables": wanted})}
        for table_id in wanted:
            if table_id not in held:
                raise LeaseLost(table_id)

    def commit(self, writes: Sequence[Write]) -> list[Any]:
        """Run ``writes`` in one transaction, every table's fence first; returns each write's result.
        On any error nothing is stored and the error is raised."""
        stamp = now()
        with self.engine.begin() as conn:
            self.fence(conn, [t for w in writes for t in w.fenced_tables()])
            results: list[Any] = []
            at = 0
            while at < len(writes):  # in order; a run of writes of one batched kind goes together
                kind = type(writes[at])
                end = at + 1
                if kind.batched:
                    while end < len(writes) and type(writes[end]) is kind:
                        end += 1
                    results += kind.run_many(conn, self, stamp, list(writes[at:end]))
                else:
                    results.append(writes[at].run(conn, self, stamp))
                at = end
            return results

    def commit_groups(self, groups: Sequence[Sequence[Write]]) -> list[list[Any] | Exception]:
        """Several changes' writes in one transaction (a group commit: one disk sync for all of them).

        Returns, per group, its results once committed, or the error that kept it out. If the whole
        transaction fails, each group is tried again in a transaction of its own, so that one table's
        conflict (or lost lease) never costs another table its change."""
        if len(groups) > 1:
            try:
                flat = self.commit([w for g in groups for w in g])
            except Exception:
                pass
            else:
                out: list[list[Any] | Exception] = []
                at = 0
                for g in groups:
                    out.append(flat[at : at + len(g)])
                    at += len(g)
                return out
        outcomes: list[list[Any] | Exception] = []
        for g in groups:
            try:
                outcomes.append(self.commit(g))
            except Exception as exc:
                outcomes.append(exc)
        return outcomes

    # ---- reads -------------------------------------------------------------------------
    def unfinished_ids(self, live_only: bool = False) -> list[str]:
        """The unfinished tables, oldest first; ``live_only``: not the turn-based ones (loaded on demand)."""
        query = select(tables_t.c.id).where(tables_t.c.status == "playing")
        if live_only:
            query = query.where(tables_t.c.days_per_move.is_(None))
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(query.order_by(tables_t.c.created_at))]

    @staticmethod
    def _chat_rows(conn: Any, table_id: str, before: int | None, limit: int, seat_only: bool) -> list[dict[str, Any]]:
        """Up to ``limit`` chat lines older than ``before`` (None: the newest), oldest first;
        ``seat_only``: the players' channel only (what a seat reads while the game runs)."""
        query = select(chat_t).where(chat_t.c.table_id == table_id)
        if before is not None:
            query = query.where(chat_t.c.idx < before)
        if seat_only:
            query = query.where(chat_t.c.channel == "table")
        rows = conn.execute(query.order_by(chat_t.c.idx.desc()).limit(limit)).all()
        return [Database._chat_line(r) for r in reversed(rows)]

    @staticmethod
    def _chat_line(r: Any) -> dict[str, Any]:
        line = {
            "idx": r.idx,
            "seat": None if r.seat < 0 else r.seat,
            "text": r.text,
            "version": r.version,
            "created_at": _utc(r.created_at),
            "channel": r.channel,
        }
        if r.deleted:  # a moderator deleted it for everyone (its text is empty)
            line["deleted"] = True
        return line

    @classmethod
    def _chat(cls, conn: Any, table_id: str) -> tuple[list[dict[str, Any]], int]:
        """The newest ``CHAT_PAGE`` lines of a table's chat and how many it holds in all: one statement
        (the count is a window over every line, taken before the limit), since it is read with each
        table loaded and every statement is a round trip to PostgreSQL."""
        total = func.count().over().label("chat_total")
        rows = conn.execute(
            select(chat_t, total).where(chat_t.c.table_id == table_id).order_by(chat_t.c.idx.desc()).limit(CHAT_PAGE)
        ).all()
        return [cls._chat_line(r) for r in reversed(rows)], int(rows[0].chat_total) if rows else 0

    def chat_page(self, table_id: str, before: int | None, limit: int, seat_only: bool) -> list[dict[str, Any]]:
        """A page of a table's chat (``GET /api/tables/{id}/chat``)."""
        with self.engine.connect() as conn:
            return self._chat_rows(conn, table_id, before, limit, seat_only)

    @staticmethod
    def _table_and_seats(conn: Any, table_id: str, with_snapshot: bool = False) -> dict[str, Any] | None:
        """The table's row and its seats. ``with_snapshot``: an unfinished turn-based table's stored
        snapshot too (``table["snapshot"]``), joined to the row rather than read by a statement of its
        own (a round trip to PostgreSQL fewer when an evicted table is loaded)."""
        query = select(tables_t).where(tables_t.c.id == table_id)
        if with_snapshot:
            query = query.add_columns(
                snapshots_t.c.version.label("snapshot_version"), snapshots_t.c.data.label("snapshot_data")
            ).outerjoin(
                snapshots_t,
                and_(
                    snapshots_t.c.table_id == tables_t.c.id,
                    tables_t.c.status == "playing",
                    tables_t.c.days_per_move.is_not(None),  # (only turn-based tables leave memory and keep one)
                ),
            )
        row = conn.execute(query).mappings().first()
        if row is None:
            return None
        table = dict(row)
        if with_snapshot:
            version, data = table.pop("snapshot_version"), table.pop("snapshot_data")
            table["snapshot"] = None if version is None else (version, data)
        table["options"] = json.loads(table["options"])
        table["result"] = json.loads(table["result"]) if table["result"] else None
        table["seats"] = [
            dict(
                r,
                clock_ends_at=_utc(r["clock_ends_at"]) if r["clock_ends_at"] else None,
                open_by=_utc(r["open_by"]) if r["open_by"] else None,
            )
            for r in conn.execute(
                select(*[c for c in seats_t.c if c.name != "name"], seat_name())
                .where(seats_t.c.table_id == table_id)
                .order_by(seats_t.c.seat)
            ).mappings()
        ]
        return table

    def load_head(self, table_id: str, record_if_playing: bool = False) -> dict[str, Any] | None:
        """A table without its record: the row, its seats (with how many decisions a bot made for
        each human seat) and its newest chat. Enough to describe a finished table, and to check a
        token or a claim code, without replaying it. ``record_if_playing``: an unfinished table's
        record too (what :meth:`load` gives), read in the same visit, since it is loaded next."""
        with self.engine.connect() as conn:
            table = self._table_and_seats(conn, table_id, with_snapshot=record_if_playing)
            if table is None:
                return None
            if record_if_playing and table["status"] == "playing":
                self._add_record(conn, table)
                moves = collections.Counter(a["seat"] for a in table["actions"] if a["by"] in BOT_BY)
                table["bot_moves"] = dict(moves)  # (counted from the record just read: no statement)
            else:
                table.pop("snapshot", None)
                helped = conn.execute(
                    select(actions_t.c.seat, func.count())
                    .where(actions_t.c.table_id == table_id, actions_t.c.by.in_(BOT_BY))
                    .group_by(actions_t.c.seat)
                )
                table["bot_moves"] = {seat: n for seat, n in helped}
            table["chat"], table["chat_total"] = self._chat(conn, table_id)
        return table

    def stored_replay(self, table_id: str, seat: int | None) -> str | None:
        """The stored replay steps (JSON) of a finished table for a seat (None: spectators), if any."""
        with self.engine.connect() as conn:
            return conn.execute(
                select(replays_t.c.steps).where(
                    replays_t.c.table_id == table_id, replays_t.c.seat == (-1 if seat is None else seat)
                )
            ).scalar_one_or_none()

    def stored_review(self, table_id: str, seat: int) -> dict[str, Any] | None:
        """A seat's stored review of a finished table: its JSON text, how many decisions it holds and
        whether it is complete; None if nobody asked for it."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(reviews_t.c.review, reviews_t.c.decisions, reviews_t.c.complete).where(
                    reviews_t.c.table_id == table_id, reviews_t.c.seat == seat
                )
            ).first()
        return (
            None if row is None else {"review": row.review, "decisions": row.decisions, "complete": bool(row.complete)}
        )

    def hints(self, table_id: str, seat: int) -> list[dict[str, Any]]:
        """The hints a seat was given, in the order of the decisions they were asked at."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(hints_t.c.version, hints_t.c.hint)
                .where(hints_t.c.table_id == table_id, hints_t.c.seat == seat)
                .order_by(hints_t.c.version)
            ).all()
        return [{"version": r.version, "hint": json.loads(r.hint)} for r in rows]

    def load(self, table_id: str) -> dict[str, Any] | None:
        """A table with its seats, record and newest chat, or None."""
        with self.engine.connect() as conn:
            table = self._table_and_seats(conn, table_id)
            if table is None:
                return None
            self._add_record(conn, table)
            table["chat"], table["chat_total"] = self._chat(conn, table_id)
            return table

    @staticmethod
    def _add_record(conn: Any, table: dict[str, Any]) -> None:
        """The table's decisions (``actions``) and, for a turn-based table, its stored snapshot."""
        table_id = table["id"]
        table["actions"] = [
            {
                "seat": r.seat,
                "action": json.loads(r.action),
                "by": r.by,
                "clock_ends_at": _utc(r.clock_ends_at) if r.clock_ends_at is not None else None,
            }
            for r in conn.execute(
                select(actions_t.c.seat, actions_t.c.action, actions_t.c.by, actions_t.c.clock_ends_at)
                .where(actions_t.c.table_id == table_id)
                .order_by(actions_t.c.idx)
            )
        ]
        if "snapshot" not in table:  # (not read with the table's row already)
            snapshot = None
            if table["days_per_move"] is not None:  # (only turn-based tables leave memory and keep one)
                snapshot = conn.execute(
                    select(snapshots_t.c.version, snapshots_t.c.data).where(snapshots_t.c.table_id == table_id)
                ).first()
            table["snapshot"] = None if snapshot is None else (snapshot.version, snapshot.data)
        # With a snapshot the record is not replayed: the event log comes from the stored events.
        table["events"] = None if table["snapshot"] is None else Database._events(conn, table_id)

    def events(self, table_id: str) -> list[dict[str, Any]]:
        """The stored event log of a table, oldest first."""
        with self.engine.connect() as conn:
            return self._events(conn, table_id)

    @staticmethod
    def _events(conn: Any, table_id: str) -> list[dict[str, Any]]:
        return [
            {
                "action_idx": r.action_idx,
                "kind": r.kind,
                "data": json.loads(r.data),
                "visible_to": None if r.visible_to is None else json.loads(r.visible_to),
            }
            for r in conn.execute(select(events_t).where(events_t.c.table_id == table_id).order_by(events_t.c.idx))
        ]


@cache
def _head_revisions() -> tuple[str, ...]:
    """The newest Alembic revisions of the migrations shipped with this code (read once)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    return tuple(ScriptDirectory.from_config(cfg).get_heads())


def record_of(row: dict[str, Any]) -> dict[str, Any]:
    """The game record (``parlor.core`` records) of a table loaded by :meth:`Database.load`. It holds
    the seed: for the server's own use (a replay built, a review worked out), never sent."""
    return {
        "game": row["game"],
        "engine_version": row["engine_version"],
        "options": row["options"],
        "players": row["players"],
        "seed": row["seed"],
        "actions": [[a["seat"], a["action"]] for a in row["actions"]],
        **({"scenario": json.loads(row["scenario"])} if row.get("scenario") else {}),  # a practice table's start
    }


def sqlite_synchronous() -> str:
    """SQLite's durability level: ``NORMAL`` (the default), or ``FULL`` from ``$PARLOR_SQLITE_SYNCHRONOUS``
    (docs/deploy.md, "Durability")."""
    level = os.environ.get("PARLOR_SQLITE_SYNCHRONOUS", "NORMAL").strip().upper()
    if level not in ("NORMAL", "FULL"):
        raise ValueError(f"PARLOR_SQLITE_SYNCHRONOUS must be NORMAL or FULL, got {level!r}")
    return level


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    # In WAL mode NORMAL keeps every committed transaction across a crash of the process (the
    # server's failure mode, kill -9 included): a commit is in the log file before it returns. Only
    # a power cut or a crash of the operating system may cost the transactions since the log was
    # last synced (at a checkpoint). FULL syncs the log at every commit and loses none of them.
    cursor.execute(f"PRAGMA synchronous={sqlite_synchronous()}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()
