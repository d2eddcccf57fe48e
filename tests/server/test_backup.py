"""``parlor backup`` and ``parlor restore`` on SQLite and PostgreSQL: a backup taken while a real server
takes decisions from concurrent clients holds every decision acknowledged before it began, every
account and every rating; restored into a new database, a server starts on it and serves them. Every
refusal (a wrong kind, an unknown schema version, a database that is not empty, a path that cannot be
written, missing pg_dump) is one line and changes nothing."""

from __future__ import annotations

import contextlib
import random
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from parlor.cli.main import app as cli
from parlor.server.storage import Database
from parlor.server.storage.backup import schema_revisions

from .conftest import BACKENDS, ROOT, Client, ServerProcess, create_table, make_url, token_of
from .test_accounts import Browser
from .test_ratings import play_to_the_end, profile, rated_game_of, table_for_two

PASSWORD = "correct horse battery"


def parlor(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The ``parlor`` command, as an operator runs it."""
    cmd = [sys.executable, "-m", "parlor.cli.main", *args]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)


def parlor_here(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The same command run in this process (Typer's runner): the refusals cost no process start each."""
    result = CliRunner().invoke(cli, list(args), env=env)
    return subprocess.CompletedProcess(args, result.exit_code, result.stdout, result.stderr)


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 1, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), done.stderr
    return lines[0]


def counts(url: str) -> dict[str, int]:
    """Rows per Parlor table (a database a refused restore must leave as it was)."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            names = [n for n in conn.dialect.get_table_names(conn) if n.startswith("parlor_") or n == "alembic_version"]
            return {n: conn.execute(text(f"SELECT count(*) FROM {n}")).scalar() or 0 for n in names}
    finally:
        engine.dispose()


@pytest.fixture(params=BACKENDS)
def two_databases(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, str]:
    """A site's database and a new one of the same kind to restore into."""
    return make_url(request.param, request, tmp_path), make_url(request.param, request, tmp_path)


class Players:
    """Threads, each playing random legal moves at its own table (a new table when a game ends), and
    the newest acknowledged version of every table."""

    def __init__(self, base: str, threads: int) -> None:
        self.base = base
        self.acked: dict[str, int] = {}
        self.tokens: dict[str, str] = {}
        self.acks = 0
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.errors: list[BaseException] = []
        self.threads = [threading.Thread(target=self._run, args=(i,), daemon=True) for i in range(threads)]

    def __enter__(self) -> Players:
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(120)

    def _run(self, seed: int) -> None:
        rng = random.Random(seed)
        try:
            while not self.stop.is_set():
                created = create_table(
                    self.base, players=2, seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}]
                )
                table_id = created["table"]["id"]
                token = token_of(created, 0)
                with self.lock:
                    self.tokens[table_id] = token
                with Client(self.base, table_id, token) as me:
                    while not self.stop.is_set():
                        state = me.wait_turn_or_over()
                        if state["over"]:
                            break
                        reply = me.act(rng.choice(state["legal"])["id"])
                        assert reply["type"] == "ack", reply
                        with self.lock:
                            self.acked[table_id] = max(self.acked.get(table_id, 0), reply["version"])
                            self.acks += 1
        except BaseException as exc:  # reported by the test, not lost in a thread
            self.errors.append(exc)

    def snapshot(self) -> tuple[dict[str, int], int]:
        with self.lock:
            return dict(self.acked), self.acks

    def wait_for_acks(self, more_than: int) -> int:
        deadline = time.monotonic() + 120
        while self.snapshot()[1] <= more_than:
            assert not self.errors, self.errors
            assert time.monotonic() < deadline, "the players made no decisions"
            time.sleep(0.05)
        return self.snapshot()[1]


def alembic_upgrade(url: str, revision: str) -> None:
    """A database of an older Parlor: the migrations up to ``revision`` only."""
    from alembic import command
    from alembic.config import Config

    import parlor.server.storage as storage

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(storage.__file__).parent / "migrations"))
    cfg.set_main_option("sqlalchemy.url", url)
    command.upgrade(cfg, revision)


@contextlib.contextmanager
def pinned_wal(url: str) -> Iterator[None]:
    """On SQLite: a reader holding an old snapshot, so that no checkpoint moves the decisions made
    meanwhile from the write-ahead log into the database file. A backup that copied the file alone
    would miss them; SQLite's backup API must not."""
    if not url.startswith("sqlite"):
        yield
        return
    reader = sqlite3.connect(url.removeprefix("sqlite:///"))
    try:
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM parlor_tables").fetchone()
        yield
    finally:
        reader.close()


def sign_up(base: str, name: str) -> Browser:
    browser = Browser(base)
    r = browser.sign_up(name, PASSWORD)
    assert r.status_code == 201, r.text
    return browser


def test_backup_under_load_then_restore_into_a_new_database(two_databases: tuple[str, str], tmp_path: Path) -> None:
    site_url, new_url = two_databases
    backup_file = tmp_path / "site.backup"
    srv = ServerProcess(site_url, None, "--bot-delay", "0", "--seat-timeout", "0").start()
    try:
        ann, bob = sign_up(srv.base, "Ann"), sign_up(srv.base, "Bob")
        table_id, tokens = table_for_two(ann, bob, rated=True)
        play_to_the_end(srv, table_id, tokens)  # type: ignore[arg-type]  (it needs only .base)
        for name in ("Ann", "Bob"):  # (stored once the game is over)
            assert rated_game_of(srv, name, table_id)["rated"]  # type: ignore[arg-type]
        ratings = {name: profile(srv, name)["ratings"] for name in ("Ann", "Bob")}  # type: ignore[arg-type]
        assert all(r["games"] == 1 for rs in ratings.values() for r in rs)
        with pinned_wal(site_url), Players(srv.base, threads=2) as players:
            players.wait_for_acks(more_than=6)
            before, acks_at_start = players.snapshot()
            done = parlor("backup", str(backup_file), "--database-url", site_url)
            assert done.returncode == 0, done.stderr
            # Decisions went on while the backup ran.
            players.wait_for_acks(more_than=acks_at_start)
        assert not players.errors, players.errors
        assert "Backed up the" in done.stdout and "0013" not in done.stderr
    finally:
        srv.stop()

    done = parlor("restore", str(backup_file), "--database-url", new_url)
    assert done.returncode == 0, done.stderr
    restored = ServerProcess(new_url, None, "--bot-delay", "0").start()
    try:
        for tid, version in before.items():
            answer = httpx.get(f"{restored.base}/api/tables/{tid}", timeout=60)
            assert answer.status_code == 200, (tid, answer.text)  # every table acknowledged before the backup
            served = answer.json()
            assert served["version"] >= version, (tid, served["version"], version)
            with Client(restored.base, tid, players.tokens[tid]) as me:  # the seat's token still opens it
                # (at least as new: the restored table plays on, a bot may move between the two reads)
                assert me.state["version"] >= served["version"]
        for name in ("Ann", "Bob"):
            assert Browser(restored.base).sign_in(name, PASSWORD).status_code == 200
            assert profile(restored, name)["ratings"] == ratings[name]  # type: ignore[arg-type]
    finally:
        restored.stop()


@pytest.fixture
def sqlite_backup(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A site's SQLite database with one account, and a backup of it."""
    url = f"sqlite:///{tmp_path / 'site.db'}"
    srv = ServerProcess(url, None).start()
    try:
        assert sign_up(srv.base, "Ann").who()["name"] == "Ann"
        backup_file = tmp_path / "site.backup"
        assert parlor_here("backup", str(backup_file), "--database-url", url).returncode == 0
        yield url, backup_file
    finally:
        srv.stop()


def test_refusals_are_one_line_and_change_nothing(sqlite_backup: tuple[str, Path], postgres: Any, tmp_path: Path):
    site_url, backup_file = sqlite_backup
    # A path that cannot be written: one line, no file.
    line = one_line_error(parlor_here("backup", str(tmp_path / "no" / "such" / "x.backup"), "--database-url", site_url))
    assert "cannot write the backup" in line and not (tmp_path / "no").exists()
    # No database to back up: refused, and none made.
    missing = tmp_path / "missing.db"
    line = one_line_error(parlor_here("backup", str(tmp_path / "m.backup"), "--database-url", f"sqlite:///{missing}"))
    assert "no SQLite database" in line and not missing.exists() and not (tmp_path / "m.backup").exists()
    # Onto the database itself: refused.
    assert "the database itself" in one_line_error(
        parlor_here("backup", str(tmp_path / "site.db"), "--database-url", site_url)
    )

    # A backup of the wrong kind: an SQLite backup into PostgreSQL, nothing changed there.
    pg_url = postgres.new_database()
    Database(pg_url).migrate()  # (a site's database, as a server leaves it)
    before = counts(pg_url)
    line = one_line_error(parlor_here("restore", str(backup_file), "--database-url", pg_url))
    assert "SQLite" in line and "PostgreSQL" in line
    assert counts(pg_url) == before

    # A newer (unknown) schema version: refused, the new database not even made.
    future = tmp_path / "future.backup"
    future.write_bytes(backup_file.read_bytes())
    with sqlite3.connect(future) as conn:
        conn.execute("UPDATE parlor_backup SET schema_version = '0099_from_the_future'")
    target = tmp_path / "new.db"
    line = one_line_error(parlor_here("restore", str(future), "--database-url", f"sqlite:///{target}"))
    assert "0099_from_the_future" in line and not target.exists()

    # Not a backup at all.
    junk = tmp_path / "notes.txt"
    junk.write_text("hello")
    assert "not a Parlor backup" in one_line_error(
        parlor_here("restore", str(junk), "--database-url", f"sqlite:///{target}")
    )
    assert "not a Parlor backup" in one_line_error(
        parlor_here("restore", str(tmp_path / "site.db"), "--database-url", f"sqlite:///{target}")
    )

    # A database that already holds a site: refused, unchanged.
    before = counts(site_url)
    line = one_line_error(parlor_here("restore", str(backup_file), "--database-url", site_url))
    assert "already holds" in line and "1 accounts" in line
    assert counts(site_url) == before

    # A database a server has only started on (its schema, no rows) is empty enough, of either kind.
    served_sqlite = f"sqlite:///{tmp_path / 'served.db'}"
    Database(served_sqlite).migrate()
    assert parlor_here("restore", str(backup_file), "--database-url", served_sqlite).returncode == 0
    assert counts(served_sqlite)["parlor_accounts"] == 1 and "parlor_backup" not in counts(served_sqlite)
    pg_backup, served_pg = tmp_path / "pg.backup", postgres.new_database()
    Database(served_pg).migrate()
    assert parlor_here("backup", str(pg_backup), "--database-url", pg_url).returncode == 0
    done = parlor_here("restore", str(pg_backup), "--database-url", served_pg)
    assert done.returncode == 0, done.stderr
    assert counts(served_pg) == counts(pg_url)

    # A backup of an older schema is restored, then upgraded to this Parlor's.
    older_url, older_backup = f"sqlite:///{tmp_path / 'older.db'}", tmp_path / "older.backup"
    older = schema_revisions()[-2]
    alembic_upgrade(older_url, older)
    assert parlor_here("backup", str(older_backup), "--database-url", older_url).returncode == 0
    upgraded = f"sqlite:///{tmp_path / 'upgraded.db'}"
    done = parlor_here("restore", str(older_backup), "--database-url", upgraded)
    assert done.returncode == 0 and older in done.stdout, done.stderr
    engine = create_engine(upgraded)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == schema_revisions()[-1]
    engine.dispose()

    # PostgreSQL without its client tools: one line naming pg_dump.
    no_tools = {"PATH": str(Path(sys.executable).parent)}
    line = one_line_error(parlor_here("backup", str(tmp_path / "pg2.backup"), "--database-url", pg_url, env=no_tools))
    assert "pg_dump is not installed" in line and not (tmp_path / "pg2.backup").exists()
