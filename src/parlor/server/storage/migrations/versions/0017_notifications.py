"""Notifications: what players were told, their e-mail and push settings, and the site's secrets.

* ``parlor_notifications``: one row per notification (in-app list, unread until marked read).
* ``parlor_notify_settings``: an account's e-mail address, the kinds it switched off, its language.
* ``parlor_push_subscriptions``: a browser's Web Push subscription.
* ``parlor_site_secrets``: the VAPID key pair and the key that signs unsubscribe links.

Revision ID: 0017_notifications
Revises: 0016_moderation
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0017_notifications"
down_revision = "0016_moderation"
branch_labels = None
depends_on = None

ACCOUNT = "parlor_accounts.id"


def _account(primary_key: bool = False) -> sa.Column:
    return sa.Column(
        "account_id", sa.String(32), sa.ForeignKey(ACCOUNT, ondelete="CASCADE"), primary_key=primary_key,
        nullable=False,
    )  # fmt: skip


def upgrade() -> None:
    op.create_table(
        "parlor_notifications",
        sa.Column("id", sa.String(32), primary_key=True),
        _account(),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("text_key", sa.String(64), nullable=False),
        sa.Column("params", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("read_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_parlor_notifications_account", "parlor_notifications", ["account_id", "created_at"])
    op.create_table(
        "parlor_notify_settings",
        _account(True),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("email_verified", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("kinds_off", sa.Text(), nullable=False, server_default="[]"),
        sa.Column("language", sa.String(16), nullable=True),
        sa.Column("page_language", sa.String(16), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "parlor_push_subscriptions",
        sa.Column("endpoint_hash", sa.String(64), primary_key=True),
        _account(),
        sa.Column("endpoint", sa.Text(), nullable=False),
        sa.Column("p256dh", sa.String(128), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_parlor_push_subscriptions_account", "parlor_push_subscriptions", ["account_id"])
    op.create_table(
        "parlor_site_secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.Text(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("parlor_site_secrets")
    op.drop_index("ix_parlor_push_subscriptions_account", table_name="parlor_push_subscriptions")
    op.drop_table("parlor_push_subscriptions")
    op.drop_table("parlor_notify_settings")
    op.drop_index("ix_parlor_notifications_account", table_name="parlor_notifications")
    op.drop_table("parlor_notifications")
