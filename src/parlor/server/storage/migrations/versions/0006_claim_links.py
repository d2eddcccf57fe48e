"""Join links claim a seat once.

* ``parlor_seats.claim_hash``: SHA-256 of the seat's one-time claim code (the secret of its join
  link), NULL once claimed. Claiming gives the claimant a fresh seat token (``token_hash``) that
  nobody else ever held, the table's creator included.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("parlor_seats", sa.Column("claim_hash", sa.String(64), nullable=True))


def downgrade() -> None:
    op.drop_column("parlor_seats", "claim_hash")
