"""Alembic migrations of the server's schema (run programmatically by ``Database.migrate``)."""
