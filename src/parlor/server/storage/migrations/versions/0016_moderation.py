"""Moderation: moderators, players' reports, mutes and bans, a log of every moderator's action.

* ``parlor_accounts.admin``: a moderator (``parlor admin add NAME``); ``board_hidden``: a name a
  moderator hid from the leaderboards.
* ``parlor_chat.deleted``: a message a moderator deleted for everyone (its text cleared).
* ``parlor_reports``: a player's report of another, once per reporter and subject (a unique index).
* ``parlor_sanctions``: mutes and bans, each with its reason and end.
* ``parlor_admin_log``: who did what, to what, why and when.

Revision ID: 0016_moderation
Revises: 0015_practice_tables
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0016_moderation"
down_revision = "0015_practice_tables"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("parlor_accounts", sa.Column("admin", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("parlor_accounts", sa.Column("board_hidden", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("parlor_chat", sa.Column("deleted", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "parlor_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "reporter_id", sa.String(32), sa.ForeignKey("parlor_accounts.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column(
            "reported_id", sa.String(32), sa.ForeignKey("parlor_accounts.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("subject", sa.String(80), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("chat_idx", sa.Integer, nullable=True),
        sa.Column("chat_text", sa.Text, nullable=True),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("note", sa.Text, nullable=True),
        sa.Column("resolved_by", sa.String(32), nullable=True),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_parlor_reports_once", "parlor_reports", ["reporter_id", "reported_id", "subject"], unique=True)
    op.create_index("ix_parlor_reports_status", "parlor_reports", ["status", "created_at"])
    op.create_table(
        "parlor_sanctions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("parlor_accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("by_account", sa.String(32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lifted_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_parlor_sanctions_account", "parlor_sanctions", ["account_id", "kind"])
    op.create_table(
        "parlor_admin_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("admin_id", sa.String(32), nullable=True),
        sa.Column("admin_name", sa.String(40), nullable=True),
        sa.Column("action", sa.String(24), nullable=False),
        sa.Column("target", sa.String(120), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_parlor_admin_log_at", "parlor_admin_log", ["at"])


def downgrade() -> None:
    op.drop_index("ix_parlor_admin_log_at", table_name="parlor_admin_log")
    op.drop_table("parlor_admin_log")
    op.drop_index("ix_parlor_sanctions_account", table_name="parlor_sanctions")
    op.drop_table("parlor_sanctions")
    op.drop_index("ix_parlor_reports_status", table_name="parlor_reports")
    op.drop_index("ix_parlor_reports_once", table_name="parlor_reports")
    op.drop_table("parlor_reports")
    op.drop_column("parlor_chat", "deleted")
    op.drop_column("parlor_accounts", "board_hidden")
    op.drop_column("parlor_accounts", "admin")
