"""Friends and blocking: who follows whom, who blocks whom, invitations to a table's seat, and when a
signed-in player was last seen in the lobby (their followers see them online).

* ``parlor_follows``: (follower, followed), one row each (the primary key: following twice is
  impossible).
* ``parlor_blocks``: (blocker, blocked), one row each.
* ``parlor_invitations``: an invitation to a table, unique per (table, invitee).
* ``parlor_presence``: an account's last moment with the lobby or account page open.

Revision ID: 0014_friends
Revises: 0013_name_skeletons
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0014_friends"
down_revision = "0013_name_skeletons"
branch_labels = None
depends_on = None

ACCOUNT = "parlor_accounts.id"


def _account(name: str, primary_key: bool = False) -> sa.Column:
    return sa.Column(
        name, sa.String(32), sa.ForeignKey(ACCOUNT, ondelete="CASCADE"), primary_key=primary_key, nullable=False
    )


def upgrade() -> None:
    op.create_table(
        "parlor_follows",
        _account("follower_id", True),
        _account("followed_id", True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_parlor_follows_followed", "parlor_follows", ["followed_id"])
    op.create_table(
        "parlor_blocks",
        _account("blocker_id", True),
        _account("blocked_id", True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_parlor_blocks_blocked", "parlor_blocks", ["blocked_id"])
    op.create_table(
        "parlor_invitations",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("parlor_tables.id", ondelete="CASCADE"), nullable=False),
        _account("inviter_id"),
        _account("invitee_id"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_parlor_invitations_once", "parlor_invitations", ["table_id", "invitee_id"], unique=True)
    op.create_index("ix_parlor_invitations_invitee", "parlor_invitations", ["invitee_id"])
    op.create_table(
        "parlor_presence",
        _account("account_id", True),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("parlor_presence")
    op.drop_index("ix_parlor_invitations_invitee", table_name="parlor_invitations")
    op.drop_index("ix_parlor_invitations_once", table_name="parlor_invitations")
    op.drop_table("parlor_invitations")
    op.drop_index("ix_parlor_blocks_blocked", table_name="parlor_blocks")
    op.drop_table("parlor_blocks")
    op.drop_index("ix_parlor_follows_followed", table_name="parlor_follows")
    op.drop_table("parlor_follows")
