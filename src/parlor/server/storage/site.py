"""The site's own rows (PostgreSQL, several server processes): who is alive, who owns which table.

These statements are the fence's machinery, not a table's rows: a process registers with the address
where the others reach it, claims the lease of a table nobody holds, renews what it holds, finds the
unfinished tables nobody holds (to take over), and leaves. ``Database.fence`` renews a table's lease in
every transaction that writes the table.
"""

from __future__ import annotations

import secrets

from sqlalchemy import text

from .database import Database

CHANNEL = "parlor_cluster"  # the site's LISTEN/NOTIFY channel (table/site.py)
FORGET = "forget:"  # a message on it: an account was deleted (payload ``forget:<account id>``)
BAN = "ban:"  # ... an account was banned (payload ``ban:<account id>``: server/moderation)

_CLAIM = text(
    "INSERT INTO parlor_leases (table_id, owner, expires_at)"
    " VALUES (:table_id, :owner, now() + make_interval(secs => :seconds))"
    " ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at"
    " WHERE parlor_leases.expires_at < now() OR parlor_leases.owner = EXCLUDED.owner"
    " RETURNING owner"
)
_OWNER = text(
    "SELECT l.owner, p.address FROM parlor_leases l JOIN parlor_processes p ON p.id = l.owner"
    " WHERE l.table_id = :table_id AND l.expires_at > now()"
)
_ORPHANS = text(
    "SELECT t.id FROM parlor_tables t LEFT JOIN parlor_leases l ON l.table_id = t.id"
    " WHERE t.status = 'playing' AND (l.table_id IS NULL OR l.expires_at < now())"
    " AND t.days_per_move IS NULL"  # (turn-based tables are loaded on demand, by a request or the deadline scan)
    " ORDER BY t.updated_at"
)
_RENEW_MINE = text(
    "UPDATE parlor_leases SET expires_at = now() + make_interval(secs => :seconds)"
    " WHERE owner = :owner AND table_id = ANY(:held) RETURNING table_id"
)


class SiteRows:
    """The site's statements, run in the server's database threads."""

    def __init__(self, db: Database, process_id: str, lease_seconds: float) -> None:
        self.db = db
        self.id = process_id
        self.lease_seconds = lease_seconds

    def register(self, address: str) -> str:
        """Note this process and the address where the others reach it; returns the site's relay key."""
        with self.db.engine.begin() as conn:
            conn.execute(
                text("INSERT INTO parlor_processes (id, address, heartbeat_at) VALUES (:id, :address, now())"),
                {"id": self.id, "address": address},
            )
            conn.execute(
                text("INSERT INTO parlor_settings (name, value) VALUES ('relay_key', :key) ON CONFLICT DO NOTHING"),
                {"key": secrets.token_urlsafe(32)},
            )
            return str(conn.execute(text("SELECT value FROM parlor_settings WHERE name = 'relay_key'")).scalar_one())

    def claim(self, table_id: str) -> bool:
        """Take (or keep) the lease of a table nobody else holds; True if this process owns it now."""
        with self.db.engine.begin() as conn:
            row = conn.execute(_CLAIM, {"table_id": table_id, "owner": self.id, "seconds": self.lease_seconds}).first()
        return row is not None

    def owner_elsewhere(self, table_id: str) -> str | None:
        """The address of the live process that owns the table, if that is not this one."""
        with self.db.engine.connect() as conn:
            row = conn.execute(_OWNER, {"table_id": table_id}).first()
        if row is None or row.owner == self.id:
            return None
        return str(row.address)

    def heartbeat(self, held: list[str]) -> tuple[set[str], list[str]]:
        """Renew this process's row and the leases of the tables it holds; return the renewed ones and
        the unfinished tables that nobody holds (to take over)."""
        with self.db.engine.begin() as conn:
            conn.execute(text("UPDATE parlor_processes SET heartbeat_at = now() WHERE id = :id"), {"id": self.id})
            renewed = {
                r[0] for r in conn.execute(_RENEW_MINE, {"seconds": self.lease_seconds, "owner": self.id, "held": held})
            }
            conn.execute(
                text("DELETE FROM parlor_processes WHERE heartbeat_at < now() - make_interval(secs => :s)"),
                {"s": self.lease_seconds * 6},
            )
            orphans = [r[0] for r in conn.execute(_ORPHANS)]
        return renewed, orphans

    def deleted_accounts(self, account_ids: list[str]) -> list[str]:
        """Which of these accounts were deleted (to catch up on ``forget:`` messages missed while this
        process's LISTEN connection was down)."""
        with self.db.engine.connect() as conn:
            rows = conn.execute(
                text("SELECT id FROM parlor_accounts WHERE id = ANY(:ids) AND deleted_at IS NOT NULL ORDER BY id"),
                {"ids": account_ids},
            )
            return [row[0] for row in rows]

    def leave(self, channel: str) -> None:
        """Give up every lease and say so on the site's channel (the others sweep at once)."""
        with self.db.engine.begin() as conn:
            conn.execute(text("DELETE FROM parlor_leases WHERE owner = :id"), {"id": self.id})
            conn.execute(text("DELETE FROM parlor_processes WHERE id = :id"), {"id": self.id})
            conn.execute(text("SELECT pg_notify(:channel, '*')"), {"channel": channel})
