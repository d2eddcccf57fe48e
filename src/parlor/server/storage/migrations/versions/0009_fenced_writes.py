"""Fenced writes: an undo never gives clock time back, and a seat's player learns the host replaced its link.

* ``parlor_actions.clock_ends_at``: when the mover's turn clock was to run out as it decided; an undo
  of that decision resumes the clock from there (after a restart too).
* ``parlor_seats.replaced_hash``: the token a host's new link replaced, so that its holder is told
  "the host gave your seat a new link" rather than "bad token".

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("parlor_actions", sa.Column("clock_ends_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("parlor_seats", sa.Column("replaced_hash", sa.String(64), nullable=True))


def downgrade() -> None:
    op.drop_column("parlor_seats", "replaced_hash")
    op.drop_column("parlor_actions", "clock_ends_at")
