"""Turn-based tables: a table's days per move, each seat's waiting decision (since, deadline, version)
read by the deadline scan, and accounts' vacations.

Revision ID: 0019_turn_based
Revises: 0018_tournaments
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0019_turn_based"
down_revision = "0018_tournaments"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("parlor_tables", sa.Column("days_per_move", sa.Integer, nullable=True))
    op.add_column("parlor_seats", sa.Column("turn_since", sa.DateTime(timezone=True), nullable=True))
    op.add_column("parlor_seats", sa.Column("turn_deadline", sa.DateTime(timezone=True), nullable=True))
    op.add_column("parlor_seats", sa.Column("turn_version", sa.Integer, nullable=True))
    op.create_index("ix_parlor_seats_turn_deadline", "parlor_seats", ["turn_deadline"])
    op.create_table(
        "parlor_vacations",
        sa.Column(
            "account_id",
            sa.String(32),
            sa.ForeignKey("parlor_accounts.id", ondelete="CASCADE"),
            primary_key=True,
            nullable=False,
        ),
        sa.Column("year", sa.Integer, nullable=False),
        sa.Column("days_used", sa.Integer, nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("parlor_vacations")
    op.drop_index("ix_parlor_seats_turn_deadline", table_name="parlor_seats")
    with op.batch_alter_table("parlor_seats") as batch:
        batch.drop_column("turn_version")
        batch.drop_column("turn_deadline")
        batch.drop_column("turn_since")
    with op.batch_alter_table("parlor_tables") as batch:
        batch.drop_column("days_per_move")
