"""Game review and hints.

* ``parlor_tables.hints``: the table was created with hints on (a seat may ask for its best moves).
* ``parlor_reviews``: a finished table's review of a seat, stored as it grows.
* ``parlor_hints``: every hint a seat was given, by the decision it was asked at (shown in its replay).

Revision ID: 0010_reviews
Revises: 0009
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0010_reviews"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("parlor_tables", sa.Column("hints", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "parlor_reviews",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("review", sa.Text(), nullable=False),
        sa.Column("decisions", sa.Integer(), nullable=False),
        sa.Column("complete", sa.Boolean(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "parlor_hints",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("version", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("hint", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("parlor_hints")
    op.drop_table("parlor_reviews")
    op.drop_column("parlor_tables", "hints")
