"""What each account's name looks like: ``parlor_accounts.name_skeleton``, under a unique index.

The SHA-256 of the name's confusable skeleton (Unicode UTS #39; ``server/accounts/names.py``), so that
no two accounts hold names that look alike (``Grace``, and ``Grace`` with a Cyrillic a): the
database decides, as it does for equal names. Existing accounts get theirs here; if two already look
alike, the older keeps the skeleton and the newer keeps its name without one (the older one's
skeleton refuses every later look-alike of both). Deleted accounts have none.

Revision ID: 0013_name_skeletons
Revises: 0012_seat_squatting
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

from parlor.server.accounts.names import skeleton_key

revision = "0013_name_skeletons"
down_revision = "0012_seat_squatting"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("parlor_accounts", sa.Column("name_skeleton", sa.String(64), nullable=True))
    conn = op.get_bind()
    living = "SELECT id, name FROM parlor_accounts WHERE name IS NOT NULL AND deleted_at IS NULL"
    rows = conn.execute(sa.text(living + " ORDER BY created_at, id")).all()
    taken: set[str] = set()
    for account_id, name in rows:
        key = skeleton_key(name)
        if key in taken:
            continue
        taken.add(key)
        conn.execute(
            sa.text("UPDATE parlor_accounts SET name_skeleton = :key WHERE id = :id"), {"key": key, "id": account_id}
        )
    op.create_index("ix_parlor_accounts_name_skeleton", "parlor_accounts", ["name_skeleton"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_parlor_accounts_name_skeleton", table_name="parlor_accounts")
    op.drop_column("parlor_accounts", "name_skeleton")
