"""A seat sat down in must be opened in time, and one address or account holds a few such seats.

* ``parlor_seats.sat_from``: the SHA-256 of the client address that sat down in the seat (the lobby,
  quick play); the per-address limit on seats held counts it.
* ``parlor_seats.open_by``: when the seat's holder must have opened the table (a WebSocket) by; then
  the seat is freed (the table still waits for players) or a bot plays it (the game is on). Cleared
  once the seat is opened. Stored, so a restart or another process of the site acts on it too.

Revision ID: 0012_seat_squatting
Revises: 0011
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0012_seat_squatting"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("parlor_seats", sa.Column("sat_from", sa.String(64), nullable=True))
    op.add_column("parlor_seats", sa.Column("open_by", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_parlor_seats_sat_from", "parlor_seats", ["sat_from"])


def downgrade() -> None:
    op.drop_index("ix_parlor_seats_sat_from", table_name="parlor_seats")
    op.drop_column("parlor_seats", "open_by")
    op.drop_column("parlor_seats", "sat_from")
