"""Several server processes as one site on PostgreSQL (``parlor serve --workers N``).

* ``parlor_processes``: each running server process, the loopback address where the others reach it,
  and when it last said it was alive.
* ``parlor_leases``: which process owns an unfinished table now, and until when. Only the owner plays
  the table; it renews the lease while alive and in every transaction that stores a decision.
* ``parlor_settings``: the site's settings shared by its processes (the key that marks a request
  one process relays to another).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "parlor_processes",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "parlor_leases",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("owner", sa.String(32), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_parlor_leases_owner", "parlor_leases", ["owner"])
    op.create_table(
        "parlor_settings",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("parlor_settings")
    op.drop_index("ix_parlor_leases_owner", table_name="parlor_leases")
    op.drop_table("parlor_leases")
    op.drop_table("parlor_processes")
