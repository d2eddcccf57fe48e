"""Turn clocks survive a restart of the server.

* ``parlor_seats.clock_ends_at``: when the seat's running turn clock runs out (UTC);
* ``parlor_seats.clock_version``: the table's version (decisions taken) when that clock started.
  A restarted server resumes a clock only if the seat is still asked the same decision.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("parlor_seats", sa.Column("clock_ends_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("parlor_seats", sa.Column("clock_version", sa.Integer, nullable=True))


def downgrade() -> None:
    op.drop_column("parlor_seats", "clock_version")
    op.drop_column("parlor_seats", "clock_ends_at")
