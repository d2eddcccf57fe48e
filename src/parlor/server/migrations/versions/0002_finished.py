"""Finished tables keep their replay, so that reading one is a lookup rather than a replay.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "parlor_finished",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("steps", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("parlor_finished")
