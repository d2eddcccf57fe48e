"""Finished tables are read without replaying them.

* ``parlor_replays``: a finished table's replay as one seat saw it (``seat = -1``: the spectators),
  stored the first time it is asked for; later reads are a lookup. A finished table's summary is
  built from ``parlor_tables`` and ``parlor_seats`` alone (its result is stored there already).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "parlor_replays",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("steps", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("parlor_replays")
