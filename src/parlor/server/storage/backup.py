"""``parlor backup PATH`` and ``parlor restore PATH``: a copy of a Parlor database taken while the server
runs, and that copy put back into a new, empty database (docs/deploy.md, "Backups").

* **SQLite**: SQLite's online backup API (``sqlite3.Connection.backup``) copies the whole file in one
  step, as one read snapshot: a server writing meanwhile (WAL mode) is not stopped, and the copy holds
  every transaction committed before the backup began. The copy is an ordinary SQLite file; a table
  ``parlor_backup`` in it records its kind and schema version (dropped again by ``restore``).
* **PostgreSQL**: ``pg_dump --format=custom`` (one consistent snapshot of the database, taken by
  PostgreSQL itself) and ``pg_restore`` in one transaction. The archive's own header says it is a
  PostgreSQL dump; the schema version is the ``alembic_version`` row inside it.

A backup is written to a temporary file beside PATH and renamed into place once complete, so PATH is
never a half-written backup. ``restore`` checks everything it can before it changes anything: the file
is a Parlor backup of the database's kind, its schema version is this Parlor's or an older one (an older
one is upgraded after the restore), and the target database holds no tables or accounts yet. Every
refusal is a :class:`BackupError`: one line, and nothing changed.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import inspect, text
from sqlalchemy.engine import URL, make_url

from parlor.core.errors import ParlorError

from .database import Database

PG_MAGIC = b"PGDMP"  # the first bytes of every pg_dump archive in the custom format
SQLITE_MAGIC = b"SQLite format 3\x00"
META_TABLE = "parlor_backup"  # in an SQLite backup: its kind and schema version
PG_TOOLS_HINT = "install PostgreSQL's client tools (Debian/Ubuntu: apt install postgresql-client)"


class BackupError(ParlorError):
    """A backup or restore that cannot be done; the message is one line and nothing was changed."""


@dataclass(frozen=True)
class BackupInfo:
    kind: str  # "sqlite" or "postgresql"
    schema_version: str  # the Alembic revision of the database the backup was taken from
    path: Path


def schema_revisions() -> list[str]:
    """This Parlor's schema revisions, oldest first (the last is the one it runs on)."""
    from alembic.script import ScriptDirectory

    scripts = ScriptDirectory(str(Path(__file__).parent / "migrations"))
    return [s.revision for s in reversed(list(scripts.walk_revisions()))]


def _shown(url: str) -> str:
    with contextlib.suppress(Exception):
        return make_url(url).render_as_string(hide_password=True)
    return url


def _current_revision(db: Database) -> str | None:
    with db.engine.connect() as conn:
        if not inspect(conn).has_table("alembic_version"):
            return None
        return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


# ---------------------------------------------------------------------------- backup
def backup(database_url: str, path: Path) -> BackupInfo:
    """Copy the database at ``database_url`` to ``path`` (while the server runs, if it does)."""
    db = Database(database_url)
    try:
        if db.is_sqlite:  # (connecting would make an empty file where none was)
            file = make_url(db.url).database or ""
            if file in ("", ":memory:") or not Path(file).expanduser().is_file():
                raise BackupError(f"there is no SQLite database at {file or '(no file)'}: nothing to back up")
        version = _current_revision(db)
        if version is None:
            raise BackupError(f"{_shown(db.url)} holds no Parlor database (no schema): nothing to back up")
        path = path.expanduser().resolve()
        if db.is_sqlite and Path(make_url(db.url).database or "").expanduser().resolve() == path:
            raise BackupError(f"{path} is the database itself: give the backup another path")
        folder = path.parent
        if path.is_dir():
            raise BackupError(f"cannot write the backup to {path}: it is a folder")
        if not folder.is_dir():
            raise BackupError(f"cannot write the backup to {path}: the folder {folder} does not exist")
        try:  # a temporary file beside PATH, renamed into place once complete (never a half backup)
            handle, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=folder)
        except OSError as exc:
            raise BackupError(f"cannot write the backup to {path}: {exc.strerror or exc}") from None
        os.close(handle)
        temp = Path(temp_name)
        try:
            if db.is_sqlite:
                _sqlite_backup(db, temp, version)
            else:
                _pg_dump(db.url, temp)
            with open(temp, "rb") as written:
                os.fsync(written.fileno())
            os.replace(temp, path)
        except OSError as exc:
            raise BackupError(f"cannot write the backup to {path}: {exc.strerror or exc}") from None
        finally:
            temp.unlink(missing_ok=True)
        return BackupInfo("sqlite" if db.is_sqlite else "postgresql", version, path)
    finally:
        db.close()


def _sqlite_backup(db: Database, temp: Path, version: str) -> None:
    source = sqlite3.connect(Path(make_url(db.url).database or "").expanduser(), timeout=30)
    target = sqlite3.connect(temp)
    try:
        # pages=-1: the whole file in one step, one read snapshot (a writer in WAL mode goes on).
        source.backup(target, pages=-1)
        target.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
        target.execute(f"CREATE TABLE {META_TABLE} (kind TEXT, schema_version TEXT, made_at TEXT)")
        made_at = datetime.now(UTC).isoformat(timespec="seconds")
        target.execute(f"INSERT INTO {META_TABLE} VALUES ('sqlite', ?, ?)", (version, made_at))
        target.commit()
    except sqlite3.Error as exc:
        raise BackupError(f"the SQLite backup failed: {exc}") from None
    finally:
        target.close()
        source.close()


def _pg_args(url: str) -> tuple[list[str], dict[str, str]]:
    """libpq's options for ``url`` and its environment: the password goes in ``PGPASSWORD``, never
    on a command line that ``ps`` shows."""
    parsed: URL = make_url(url)
    args = ["--dbname", parsed.database or ""]
    if parsed.host:
        args += ["--host", parsed.host]
    if parsed.port:
        args += ["--port", str(parsed.port)]
    if parsed.username:
        args += ["--username", parsed.username]
    env = dict(os.environ)
    if parsed.password is not None:
        env["PGPASSWORD"] = str(parsed.password)
    return args, env


def _pg_tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} is not installed, and PostgreSQL backups need it: {PG_TOOLS_HINT}")
    return found


def _run_pg(cmd: list[str], env: dict[str, str], what: str) -> subprocess.CompletedProcess[bytes]:
    done = subprocess.run(cmd, env=env, capture_output=True, check=False)
    if done.returncode != 0:
        lines = [ln for ln in done.stderr.decode(errors="replace").splitlines() if ln.strip()]
        raise BackupError(f"{what} failed: {lines[0] if lines else f'exit code {done.returncode}'}")
    return done


def _pg_dump(url: str, temp: Path) -> None:
    args, env = _pg_args(url)
    _run_pg([_pg_tool("pg_dump"), "--format=custom", "--no-owner", "--file", str(temp), *args], env, "pg_dump")


# ---------------------------------------------------------------------------- restore
def read_backup(path: Path) -> BackupInfo:
    """What ``path`` holds: a Parlor backup's kind and schema version, or a BackupError."""
    path = path.expanduser()
    try:
        with open(path, "rb") as f:
            head = f.read(16)
    except OSError as exc:
        raise BackupError(f"cannot read the backup {path}: {exc.strerror or exc}") from None
    if head.startswith(PG_MAGIC):
        return BackupInfo("postgresql", _pg_backup_version(path), path)
    if head == SQLITE_MAGIC:
        return BackupInfo("sqlite", _sqlite_backup_version(path), path)
    raise BackupError(f"{path} is not a Parlor backup (neither an SQLite backup nor a pg_dump archive)")


def _sqlite_backup_version(path: Path) -> str:
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        row = conn.execute(f"SELECT kind, schema_version FROM {META_TABLE}").fetchone()
    except sqlite3.Error:
        row = None
    finally:
        conn.close()
    if row is None or row[0] != "sqlite":
        raise BackupError(f"{path} is an SQLite file but not a Parlor backup (make one with parlor backup)")
    return str(row[1])


def _pg_backup_version(path: Path) -> str:
    # The alembic_version row, as pg_restore prints the table's data (COPY ... FROM stdin; then its rows).
    cmd = [_pg_tool("pg_restore"), "--data-only", "--table=alembic_version", "--file=-", str(path)]
    done = _run_pg(cmd, dict(os.environ), f"reading {path}")
    lines = done.stdout.decode(errors="replace").splitlines()
    for at, line in enumerate(lines):
        if line.startswith("COPY ") and "alembic_version" in line and at + 1 < len(lines):
            value = lines[at + 1].strip()
            if value and value != "\\.":
                return value
    raise BackupError(f"{path} is a pg_dump archive but not of a Parlor database (no schema version in it)")


def restore(database_url: str, path: Path) -> BackupInfo:
    """Put the backup at ``path`` into the (new, empty) database at ``database_url``."""
    info = read_backup(path)
    db = Database(database_url)
    try:
        kind = "sqlite" if db.is_sqlite else "postgresql"
        if info.kind != kind:
            raise BackupError(
                f"{path} is a backup of a {kind_name(info.kind)} database; {_shown(db.url)} is {kind_name(kind)}: "
                "restore it into a database of its own kind"
            )
        revisions = schema_revisions()
        if info.schema_version not in revisions:
            raise BackupError(
                f"{path} has schema version {info.schema_version}, which this Parlor does not know (it runs "
                f"{revisions[-1]}): restore it with the Parlor version that made it"
            )
        _check_empty(db)
        if not db.is_sqlite and info.schema_version != revisions[-1] and _current_revision(db) is not None:
            # pg_restore replaces only the archive's own tables: a newer schema's other tables would stay
            # and the upgrade after the restore would trip over them. (SQLite's copy replaces the file.)
            raise BackupError(
                f"{path} has the older schema {info.schema_version}: restore it into a new PostgreSQL database "
                "with no schema yet (createdb), and it is upgraded to this Parlor's after the restore"
            )
        if db.is_sqlite:
            _sqlite_restore(db, info.path)
        else:
            _pg_restore(db, info.path)
        if info.schema_version != revisions[-1]:
            db.migrate()  # an older backup: upgraded to this Parlor's schema, as serve would
        return info
    finally:
        db.close()


def kind_name(kind: str) -> str:
    return "SQLite" if kind == "sqlite" else "PostgreSQL"


def _check_empty(db: Database) -> None:
    """A restore never mixes two sites' data: the target must hold no tables and no accounts (a new
    database, or one a server has only created)."""
    with db.engine.connect() as conn:
        names = set(inspect(conn).get_table_names())
        counts = {
            table: conn.execute(text(f"SELECT count(*) FROM {table}")).scalar() or 0
            for table in ("parlor_tables", "parlor_accounts")
            if table in names
        }
    if any(counts.values()):
        held = ", ".join(f"{n} {t.removeprefix('parlor_')}" for t, n in counts.items() if n)
        raise BackupError(
            f"{_shown(db.url)} already holds {held}: restore into a new, empty database (or move this one away)"
        )


def _sqlite_restore(db: Database, path: Path) -> None:
    """The backup copied into the target through the backup API (which handles a target file that
    exists, with its -wal), then the backup's own record dropped, in the target's normal WAL mode."""
    source = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    target = sqlite3.connect(Path(make_url(db.url).database or "").expanduser(), timeout=30)
    try:
        source.backup(target, pages=-1)
        target.execute(f"DROP TABLE {META_TABLE}")
        target.commit()
        target.execute("PRAGMA journal_mode=WAL")
    except sqlite3.Error as exc:
        raise BackupError(f"the SQLite restore failed: {exc}") from None
    finally:
        target.close()
        source.close()


def _pg_restore(db: Database, path: Path) -> None:
    args, env = _pg_args(db.url)
    # The schema a server created on the empty target goes first, so that the archive's own replaces
    # it; --single-transaction: a failure leaves the target as it was.
    cmd = [_pg_tool("pg_restore"), "--clean", "--if-exists", "--no-owner", "--no-privileges", "--single-transaction"]
    db.close()  # (no connection of ours holds a lock pg_restore waits for)
    _run_pg([*cmd, *args, str(path)], env, "pg_restore")
