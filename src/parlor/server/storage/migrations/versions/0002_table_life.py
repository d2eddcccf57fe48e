"""Table life: turn clocks, the host, seats a bot may play before their player came, and chat.

* ``parlor_tables.turn_time``: seconds per decision (NULL: no clock);
  ``parlor_tables.bots_before_join``: bots may play seats whose players never opened their link;
  ``parlor_tables.host_hash``: SHA-256 of the host's token (NULL for tables made before it existed).
* ``parlor_seats.stand_in``: the host asked a bot to play this seat until its player connects.
* ``parlor_chat``: the table's chat, in order, with the number of decisions taken when it was said.

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
    # Plain ADD COLUMN (never a batch "copy and move" of the table: on SQLite dropping the old
    # parlor_tables would cascade to every seat, action and event).
    op.add_column("parlor_tables", sa.Column("turn_time", sa.Float, nullable=True))
    op.add_column("parlor_tables", sa.Column("bots_before_join", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("parlor_tables", sa.Column("host_hash", sa.String(64), nullable=True))
    op.add_column("parlor_seats", sa.Column("stand_in", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "parlor_chat",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("parlor_chat")
    op.drop_column("parlor_seats", "stand_in")
    op.drop_column("parlor_tables", "host_hash")
    op.drop_column("parlor_tables", "bots_before_join")
    op.drop_column("parlor_tables", "turn_time")
