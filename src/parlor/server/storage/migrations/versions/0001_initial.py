"""The first schema: tables, seats, actions (the record) and events (the log).

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "parlor_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("engine_version", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("seat_timeout", sa.Float, nullable=True),
        sa.Column("substitute_level", sa.String(16), nullable=False),
        sa.Column("spectator_hash", sa.String(64), nullable=False),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("error", sa.Text, nullable=True),
        sa.Column("previous_table", sa.String(32), nullable=True),
        sa.Column("next_table", sa.String(32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_parlor_tables_status", "parlor_tables", ["status"])
    op.create_table(
        "parlor_seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("level", sa.String(16), nullable=True),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("joined", sa.Boolean, nullable=False),
    )
    op.create_table(
        "parlor_actions",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("by", sa.String(12), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "parlor_events",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("action_idx", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(64), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("visible_to", sa.Text, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("parlor_events")
    op.drop_table("parlor_actions")
    op.drop_table("parlor_seats")
    op.drop_index("ix_parlor_tables_status", table_name="parlor_tables")
    op.drop_table("parlor_tables")
