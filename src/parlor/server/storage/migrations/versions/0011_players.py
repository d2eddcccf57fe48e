"""Players with accounts, open tables and quick play, ratings and a history.

* ``parlor_accounts``: a name (unique, folded) and an argon2id password hash; a deleted account keeps
  its row (its games keep their seats) with the name and hash cleared.
* ``parlor_sessions``: the SHA-256 of each session cookie's secret, its account and expiry.
* ``parlor_auth_events``: sign-in failures and sign-ups by hashed name or address (the rate limits,
  shared by the processes of a site).
* ``parlor_ratings`` and ``parlor_rating_history``: openskill ratings per account, game and player
  count class, and each rated game's change.
* ``parlor_tables``: ``visibility`` (private | public), ``rated``, ``quick`` (opened by quick play),
  ``fill_bots_at`` (a waiting table's empty seats become bots then; ``fill_bots_after``: the wait,
  started again when a seated player stands up), ``creator_account`` (the
  creation limits of signed-in players), ``ratings_done``.
* ``parlor_seats.account_id``: the account a seat belongs to.

Revision ID: 0011
Revises: 0010_reviews
Create Date: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010_reviews"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "parlor_accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("name_key", sa.String(40), nullable=True, unique=True),
        sa.Column("password_hash", sa.Text, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "parlor_sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("parlor_accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_parlor_sessions_account", "parlor_sessions", ["account_id"])
    op.create_table(
        "parlor_auth_events",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_parlor_auth_events_key", "parlor_auth_events", ["kind", "key", "at"])
    op.create_table(
        "parlor_ratings",
        sa.Column(
            "account_id", sa.String(32), sa.ForeignKey("parlor_accounts.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("players_class", sa.String(8), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_parlor_ratings_board", "parlor_ratings", ["game", "players_class"])
    op.create_table(
        "parlor_rating_history",
        sa.Column(
            "account_id", sa.String(32), sa.ForeignKey("parlor_accounts.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("players_class", sa.String(8), nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("abandoned", sa.Boolean, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.add_column("parlor_tables", sa.Column("visibility", sa.String(8), nullable=False, server_default="private"))
    op.add_column("parlor_tables", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("parlor_tables", sa.Column("quick", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("parlor_tables", sa.Column("fill_bots_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("parlor_tables", sa.Column("fill_bots_after", sa.Float, nullable=True))
    op.add_column("parlor_tables", sa.Column("creator_account", sa.String(32), nullable=True))
    op.add_column("parlor_tables", sa.Column("ratings_done", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_index("ix_parlor_tables_open", "parlor_tables", ["visibility", "status"])
    op.create_index("ix_parlor_tables_creator_account", "parlor_tables", ["creator_account", "status"])
    op.add_column("parlor_seats", sa.Column("account_id", sa.String(32), nullable=True))
    op.create_index("ix_parlor_seats_account", "parlor_seats", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_parlor_seats_account", table_name="parlor_seats")
    op.drop_column("parlor_seats", "account_id")
    op.drop_index("ix_parlor_tables_creator_account", table_name="parlor_tables")
    op.drop_index("ix_parlor_tables_open", table_name="parlor_tables")
    dropped = ("ratings_done", "creator_account", "fill_bots_after", "fill_bots_at", "quick", "rated", "visibility")
    for column in dropped:
        op.drop_column("parlor_tables", column)
    op.drop_table("parlor_rating_history")
    op.drop_index("ix_parlor_ratings_board", table_name="parlor_ratings")
    op.drop_table("parlor_ratings")
    op.drop_index("ix_parlor_auth_events_key", table_name="parlor_auth_events")
    op.drop_table("parlor_auth_events")
    op.drop_index("ix_parlor_sessions_account", table_name="parlor_sessions")
    op.drop_table("parlor_sessions")
    op.drop_table("parlor_accounts")
