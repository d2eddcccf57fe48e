"""Snapshots of turn-based tables: a table's last state, stored when it leaves memory, so that loading it
again does not replay its whole record.

Revision ID: 0020_snapshots
Revises: 0019_turn_based
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0020_snapshots"
down_revision = "0019_turn_based"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "parlor_snapshots",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("parlor_tables.id", ondelete="CASCADE"),
            primary_key=True,
            nullable=False,
        ),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("parlor_snapshots")
