"""The schema comes from the Alembic migrations shipped in the package, and matches the code's tables."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

from parlor.server.storage import AddChat, Database, default_database_url, normalize_url
from parlor.server.storage.schema import metadata


def head_revision() -> str:
    """The newest migration shipped in the package (there is exactly one head)."""
    from pathlib import Path

    from alembic.config import Config
    from alembic.script import ScriptDirectory

    import parlor.server.storage

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(parlor.server.storage.__file__).parent / "migrations"))
    (head,) = ScriptDirectory.from_config(cfg).get_heads()
    return head


def test_migrations_create_the_schema_idempotently_and_match_the_models(database_url):
    db = Database(database_url)
    try:
        db.migrate()
        db.migrate()  # a second start-up changes nothing
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == head_revision()
            tables = set(inspect(conn).get_table_names())
            assert {"parlor_tables", "parlor_seats", "parlor_actions", "parlor_events", "parlor_chat"} <= tables
            diff = compare_metadata(MigrationContext.configure(conn), metadata)
            assert diff == [], diff
        if db.is_sqlite:
            with db.engine.connect() as conn:
                assert conn.execute(text("PRAGMA journal_mode")).scalar_one() == "wal"
    finally:
        db.close()


def test_database_urls(monkeypatch, tmp_path):
    monkeypatch.delenv("PARLOR_DATABASE_URL", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_database_url() == f"sqlite:///{tmp_path}/parlor/parlor.db"
    monkeypatch.setenv("PARLOR_DATABASE_URL", "postgresql://u@h/db")
    assert default_database_url() == "postgresql://u@h/db"
    assert normalize_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_url("sqlite:///x.db") == "sqlite:///x.db"


def test_upgrading_a_database_of_the_first_schema_keeps_its_tables(database_url):
    """A database made by revision 0001 (before clocks, hosts and chat) upgrades in place: its tables
    load with no clock, no host, bots only after a join, and an empty chat (whose lines then default
    to the players' channel)."""
    from alembic import command

    db = Database(database_url)
    try:
        cfg = alembic_config(db)
        with db.engine.begin() as connection:
            cfg.attributes["connection"] = connection
            command.upgrade(cfg, "0001")
        with db.engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO parlor_tables (id, game, players, options, seed, engine_version, status, version, "
                    "seat_timeout, substitute_level, spectator_hash, created_at, updated_at) VALUES "
                    "('old', 'mamma-mia', 2, '{}', 7, '1', 'playing', 0, 120, 'medium', 'x', "
                    "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
                )
            )
            conn.execute(
                text(
                    "INSERT INTO parlor_seats (table_id, seat, kind, level, name, token_hash, joined) VALUES "
                    "('old', 0, 'human', NULL, 'Ann', 'h', false), ('old', 1, 'bot', 'easy', NULL, NULL, true)"
                )
            )
        db.migrate()
        row = db.load("old")
        assert row is not None
        assert row["turn_time"] is None and row["host_hash"] is None and row["bots_before_join"] is False
        assert [s["stand_in"] for s in row["seats"]] == [False, False]
        assert [s["name"] for s in row["seats"]] == ["Ann", None]
        assert row["chat"] == []
        [stamp] = db.commit([AddChat("old", 0, 0, "hello <b>", 0)])
        said = {"idx": 0, "seat": 0, "text": "hello <b>", "version": 0, "created_at": stamp, "channel": "table"}
        assert db.load("old")["chat"] == [said]
    finally:
        db.close()


def alembic_config(db: Database):
    """Alembic's config for the migrations shipped in the package, on ``db``'s URL."""
    from pathlib import Path

    from alembic.config import Config

    import parlor.server.storage

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(parlor.server.storage.__file__).parent / "migrations"))
    cfg.set_main_option("sqlalchemy.url", db.url.replace("%", "%%"))
    return cfg


def test_upgrading_a_database_of_the_reviews_schema_adds_the_players(database_url):
    """A database at 0010_reviews (hints, before accounts) upgrades to the head in place: its
    table keeps its hints and becomes a private, unrated table whose seats belong to no account; the
    players' tables are there and empty; going back down to 0010_reviews removes them again."""
    from alembic import command

    db = Database(database_url)
    try:
        cfg = alembic_config(db)
        with db.engine.begin() as connection:
            cfg.attributes["connection"] = connection
            command.upgrade(cfg, "0010_reviews")
        with db.engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO parlor_tables (id, game, players, options, seed, engine_version, status, version, "
                    "seat_timeout, substitute_level, spectator_hash, created_at, updated_at, hints) VALUES "
                    "('hinted', 'mottainai', 2, '{}', 7, '1', 'playing', 0, 120, 'medium', 'x', "
                    "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, true)"
                )
            )
            conn.execute(
                text(
                    "INSERT INTO parlor_seats (table_id, seat, kind, level, name, token_hash, joined) VALUES "
                    "('hinted', 0, 'human', NULL, 'Ann', 'h', true), ('hinted', 1, 'bot', 'easy', NULL, NULL, true)"
                )
            )
            assert "parlor_accounts" not in inspect(conn).get_table_names()
        db.migrate()
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == head_revision()
            assert conn.execute(text("SELECT count(*) FROM parlor_accounts")).scalar_one() == 0
            assert conn.execute(text("SELECT count(*) FROM parlor_ratings")).scalar_one() == 0
        row = db.load("hinted")
        assert row is not None
        assert row["hints"] is True
        assert (row["visibility"], row["rated"], row["quick"], row["ratings_done"]) == ("private", False, False, False)
        assert row["fill_bots_at"] is None and row["creator_account"] is None
        assert [s["name"] for s in row["seats"]] == ["Ann", None]
        assert [s["account_id"] for s in row["seats"]] == [None, None]
        with db.engine.begin() as connection:
            cfg.attributes["connection"] = connection
            command.downgrade(cfg, "0010_reviews")
        with db.engine.connect() as conn:
            names = set(inspect(conn).get_table_names())
            assert "parlor_accounts" not in names and "parlor_ratings" not in names
            assert "rated" not in {c["name"] for c in inspect(conn).get_columns("parlor_tables")}
            hinted = conn.execute(text("SELECT hints FROM parlor_tables WHERE id = 'hinted'")).scalar_one()
            assert bool(hinted) is True
    finally:
        db.close()


def test_sqlite_durability_is_normal_unless_full_is_asked(monkeypatch, tmp_path):
    """WAL with synchronous=NORMAL (a killed process loses no commit); PARLOR_SQLITE_SYNCHRONOUS=FULL
    syncs every commit (docs/deploy.md, "Durability"); anything else is refused."""
    from sqlalchemy import text

    for level, expected in ((None, 1), ("full", 2)):
        if level is None:
            monkeypatch.delenv("PARLOR_SQLITE_SYNCHRONOUS", raising=False)
        else:
            monkeypatch.setenv("PARLOR_SQLITE_SYNCHRONOUS", level)
        db = Database(f"sqlite:///{tmp_path / f'd-{expected}.db'}")
        try:
            with db.engine.connect() as conn:
                assert conn.execute(text("PRAGMA journal_mode")).scalar_one() == "wal"
                assert conn.execute(text("PRAGMA synchronous")).scalar_one() == expected
        finally:
            db.close()
    monkeypatch.setenv("PARLOR_SQLITE_SYNCHRONOUS", "off")
    db = Database(f"sqlite:///{tmp_path / 'off.db'}")
    try:
        with pytest.raises(ValueError, match="NORMAL or FULL"):
            db.engine.connect()
    finally:
        db.close()


def test_a_deleted_accounts_seat_is_read_without_its_name_wherever_it_is_stored(database_url):
    """A seat of a deleted account at an unfinished table whose stored name nobody cleared (the process
    that held it died before it was told) is loaded, and listed in the lobby, without the name."""
    from parlor.server.storage import AccountStore, Listings

    db = Database(database_url)
    try:
        db.migrate()
        accounts = AccountStore(db)
        accounts.create_account("acc-ann", "Ann", "ann", "not a real hash")
        with db.engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO parlor_tables (id, game, players, options, seed, engine_version, status, version, "
                    "seat_timeout, substitute_level, spectator_hash, created_at, updated_at, visibility) VALUES "
                    "('open', 'mamma-mia', 2, '{}', 7, '1', 'playing', 0, 120, 'medium', 'x', "
                    "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 'public')"
                )
            )
            conn.execute(
                text(
                    "INSERT INTO parlor_seats (table_id, seat, kind, level, name, token_hash, joined, account_id) "
                    "VALUES ('open', 0, 'human', NULL, 'Ann', NULL, true, 'acc-ann'), "
                    "('open', 1, 'human', NULL, NULL, NULL, false, NULL)"
                )
            )
        listed = lambda: [s["name"] for s in Listings(db).public_tables("mamma-mia")[0][0]["seats"]]  # noqa: E731
        assert [s["name"] for s in db.load("open")["seats"]] == ["Ann", None]
        assert listed() == ["Ann", None]
        accounts.delete_account("acc-ann")
        with db.engine.connect() as conn:  # (the unfinished table's row is its owner's to write)
            assert conn.execute(text("SELECT name FROM parlor_seats WHERE seat = 0")).scalar_one() == "Ann"
        seats = db.load("open")["seats"]
        assert [(s["name"], s["account_id"]) for s in seats] == [(None, "acc-ann"), (None, None)]
        assert db.load_head("open")["seats"][0]["name"] is None
        assert listed() == [None, None]
    finally:
        db.close()
