"""Swiss tournaments for the site's players (``server/tournaments``).

* ``parlor_tournaments``: one per tournament (game, seats a table, start, rounds, clock, rated, size).
* ``parlor_tournament_players``: who signed up, one row each (the primary key).
* ``parlor_tournament_tables``: each round's tables (seats, the site table playing it, points).

Revision ID: 0018_tournaments
Revises: 0017_notifications
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0018_tournaments"
down_revision = "0017_notifications"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "parlor_tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column(
            "creator_account", sa.String(32), sa.ForeignKey("parlor_accounts.id", ondelete="SET NULL"), nullable=True
        ),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("turn_time", sa.Float(), nullable=True),
        sa.Column("move_days", sa.Float(), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("max_players", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("current_round", sa.Integer(), nullable=False),
        sa.Column("round_started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_parlor_tournaments_status", "parlor_tournaments", ["status", "starts_at"])
    op.create_table(
        "parlor_tournament_players",
        sa.Column(
            "tournament_id",
            sa.String(32),
            sa.ForeignKey("parlor_tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "account_id", sa.String(32), sa.ForeignKey("parlor_accounts.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("withdrawn_round", sa.Integer(), nullable=True),
    )
    op.create_table(
        "parlor_tournament_tables",
        sa.Column(
            "tournament_id",
            sa.String(32),
            sa.ForeignKey("parlor_tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("board", sa.Integer(), primary_key=True),
        sa.Column("seats", sa.Text(), nullable=False),
        sa.Column("bye", sa.Boolean(), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("points", sa.Text(), nullable=True),
    )
    op.create_index("ix_parlor_tournament_tables_table", "parlor_tournament_tables", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_parlor_tournament_tables_table", table_name="parlor_tournament_tables")
    op.drop_table("parlor_tournament_tables")
    op.drop_table("parlor_tournament_players")
    op.drop_index("ix_parlor_tournaments_status", table_name="parlor_tournaments")
    op.drop_table("parlor_tournaments")
