"""The schema comes from the Alembic migrations shipped in the package, and matches the code's tables."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

from parlor.server.db import Database, default_database_url, metadata, normalize_url


def test_migrations_create_the_schema_idempotently_and_match_the_models(database_url):
    db = Database(database_url)
    try:
        db.migrate()
        db.migrate()  # a second start-up changes nothing
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == "0002"
            tables = set(inspect(conn).get_table_names())
            assert {"parlor_tables", "parlor_seats", "parlor_actions", "parlor_events", "parlor_finished"} <= tables
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
