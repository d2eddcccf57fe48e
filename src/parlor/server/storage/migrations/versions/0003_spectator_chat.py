"""Spectators' chat: a second channel of the table's chat, read and written by spectators only.

* ``parlor_chat.channel``: ``table`` (the players' chat, read by everyone) or ``spectators``
  (spectators' messages, never sent to a seated player while the game runs; the replay has them).
  A spectator's message stores ``seat = -1``: spectators share one anonymous link.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN with a default (no batch copy of the table on SQLite).
    op.add_column("parlor_chat", sa.Column("channel", sa.String(16), nullable=False, server_default="table"))


def downgrade() -> None:
    op.execute("DELETE FROM parlor_chat WHERE channel <> 'table'")
    op.drop_column("parlor_chat", "channel")
