"""Tables that start from a position: ``parlor_tables.scenario``.

A practice table ("Try it again" on a review, docs/review.md) starts at a decision of a finished
game, with the cards its seat could not see dealt afresh: the position it starts from is stored
as a scenario (``{"saved_state": ...}``, ``parlor.review.practice``), and its record replays from
there. NULL for every other table (a new game from its seed).

Revision ID: 0015_practice_tables
Revises: 0014_friends
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0015_practice_tables"
down_revision = "0014_friends"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("parlor_tables", sa.Column("scenario", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("parlor_tables") as batch:  # (SQLite drops a column by a table copy)
        batch.drop_column("scenario")
