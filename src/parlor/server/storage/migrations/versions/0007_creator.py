"""Creation limits count from the database (they hold across restarts and server processes).

* ``parlor_tables.creator_hash``: SHA-256 of the client address that created the table (or asked
  to play again), so the per-address caps count what is stored rather than one process's memory.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("parlor_tables", sa.Column("creator_hash", sa.String(64), nullable=True))
    op.create_index("ix_parlor_tables_creator", "parlor_tables", ["creator_hash", "status"])


def downgrade() -> None:
    op.drop_index("ix_parlor_tables_creator", table_name="parlor_tables")
    op.drop_column("parlor_tables", "creator_hash")
