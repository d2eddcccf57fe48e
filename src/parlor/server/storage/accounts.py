"""The players' own rows: accounts, sessions, and the counts behind the sign-in and sign-up limits.

None of these is a table's row, so none goes through ``Database.commit`` and its fence: a table's
lease says which process may write that table, and an account belongs to no table. Every statement
here runs in one short transaction of its own, in the server's database threads, on the same engine.

The rate limits' counts are rows of ``parlor_auth_events``: each attempt is stored (reserved) before
the accounts service carries it out, in one transaction with the check of its limit (:meth:`reserve`),
so that attempts sent at once cannot all see room under the limit.

What is stored is never a secret a client could replay: a password as its argon2id hash (made by the
accounts service, ``server/accounts``), a session as the SHA-256 of its cookie's secret, an address
or a name in the rate-limit counts as their SHA-256.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, func, insert, or_, select, text, update
from sqlalchemy.exc import IntegrityError

from .database import Database, _utc, now
from .schema import (
    accounts_t,
    auth_events_t,
    notifications_t,
    notify_settings_t,
    push_subscriptions_t,
    seats_t,
    sessions_t,
    tables_t,
)
from .site import CHANNEL, FORGET


class NameTaken(Exception):
    """Sign-up with a name another account holds (names are unique, compared folded), or one that looks
    like it (``args[0]``: ``"name"`` or ``"look_alike"``)."""


@dataclass(frozen=True)
class Attempt:
    """One attempt to count against a limit: at most ``most`` of ``kind`` for ``key`` within ``window``."""

    kind: str  # signin_name | signin_address | signup
    key: str  # SHA-256 of the name or the address
    most: int
    window: timedelta


class LimitReached(Exception):
    """An attempt over its limit (nothing was stored): ``kind`` says which, ``wait`` until one expires."""

    def __init__(self, kind: str, wait: timedelta) -> None:
        super().__init__(kind)
        self.kind = kind
        self.wait = wait


def _lock_id(kind: str, key: str) -> int:
    """PostgreSQL's advisory lock (a signed 64-bit number) that serializes the attempts of one key."""
    digest = hashlib.sha256(f"parlor-limit\0{kind}\0{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


class AccountStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    # ---- accounts ------------------------------------------------------------------------------
    def create_account(
        self, account_id: str, name: str, name_key: str, password_hash: str, skeleton: str | None = None
    ) -> None:
        """A new account; :class:`NameTaken` if its folded name or its skeleton (what it looks like,
        ``accounts/names.py``) is held: the unique indexes decide, so two sign-ups racing for one name,
        or for two names that look alike, cannot both win."""
        try:
            with self.db.engine.begin() as conn:
                conn.execute(
                    insert(accounts_t).values(
                        id=account_id,
                        name=name,
                        name_key=name_key,
                        name_skeleton=skeleton,
                        password_hash=password_hash,
                        created_at=now(),
                    )
                )
        except IntegrityError:
            raise NameTaken(self.name_held(name_key, skeleton) or "name") from None

    def name_held(self, name_key: str, skeleton: str | None) -> str | None:
        """``"name"`` if an account holds this folded name, ``"look_alike"`` if one holds a name that looks
        like it (the same skeleton), else None."""
        same = accounts_t.c.name_key == name_key
        if skeleton is not None:
            same = or_(same, accounts_t.c.name_skeleton == skeleton)
        with self.db.engine.connect() as conn:
            found = conn.execute(select(accounts_t.c.name_key).where(same)).all()
        if not found:
            return None
        return "name" if any(row.name_key == name_key for row in found) else "look_alike"

    def account_by_name(self, name_key: str) -> dict[str, Any] | None:
        with self.db.engine.connect() as conn:
            row = conn.execute(select(accounts_t).where(accounts_t.c.name_key == name_key)).mappings().first()
        return dict(row) if row is not None else None

    def account(self, account_id: str) -> dict[str, Any] | None:
        with self.db.engine.connect() as conn:
            row = conn.execute(select(accounts_t).where(accounts_t.c.id == account_id)).mappings().first()
        return dict(row) if row is not None else None

    def set_password(
        self, account_id: str, password_hash: str, keep_session: str | None, end_sessions: bool = True
    ) -> None:
        """A new password hash; every session of the account but ``keep_session`` ends (unless
        ``end_sessions`` is False: the same password, hashed again with newer parameters)."""
        with self.db.engine.begin() as conn:
            conn.execute(
                update(accounts_t)
                .where(accounts_t.c.id == account_id, accounts_t.c.deleted_at.is_(None))
                .values(password_hash=password_hash)
            )
            if end_sessions:
                query = delete(sessions_t).where(sessions_t.c.account_id == account_id)
                if keep_session is not None:
                    query = query.where(sessions_t.c.id != keep_session)
                conn.execute(query)

    def delete_account(self, account_id: str) -> None:
        """The account is gone: its name, password hash and sessions are removed; its row stays, so that
        its games keep their seats ("deleted player"). The seats of its finished games lose the name at
        once. An unfinished table's seat is its owner's to write (the fence): on a site of several
        processes the same transaction tells every process (NOTIFY, ``table/site.py``), and each clears
        the name at the tables it holds; a table loaded later is loaded without it (``Database.load``)."""
        with self.db.engine.begin() as conn:
            conn.execute(
                update(accounts_t)
                .where(accounts_t.c.id == account_id)
                .values(name=None, name_key=None, name_skeleton=None, password_hash=None, deleted_at=now())
            )
            conn.execute(delete(sessions_t).where(sessions_t.c.account_id == account_id))
            # (its notifications, e-mail address and browsers' push subscriptions go with it)
            for owned in (notifications_t, notify_settings_t, push_subscriptions_t):
                conn.execute(delete(owned).where(owned.c.account_id == account_id))
            finished = select(tables_t.c.id).where(tables_t.c.status != "playing").scalar_subquery()
            conn.execute(
                update(seats_t)
                .where(seats_t.c.account_id == account_id, seats_t.c.table_id.in_(finished))
                .values(name=None)
            )
            if not self.db.is_sqlite:
                told = {"channel": CHANNEL, "payload": FORGET + account_id}
                conn.execute(text("SELECT pg_notify(:channel, :payload)"), told)

    # ---- sessions ------------------------------------------------------------------------------
    def create_session(self, session_hash: str, account_id: str, lifetime: timedelta) -> None:
        stamp = now()
        with self.db.engine.begin() as conn:
            conn.execute(
                insert(sessions_t).values(
                    id=session_hash, account_id=account_id, created_at=stamp, seen_at=stamp, expires_at=stamp + lifetime
                )
            )

    def session(self, session_hash: str, lifetime: timedelta) -> dict[str, Any] | None:
        """The signed-in account of a session (``id``, ``name``), or None (unknown, expired, or its
        account deleted). A session used more than an hour after it was last seen is extended
        (``lifetime`` from now): one write an hour at most, not one per request."""
        stamp = now()
        with self.db.engine.connect() as conn:
            row = conn.execute(
                select(sessions_t.c.seen_at, sessions_t.c.expires_at, accounts_t.c.id, accounts_t.c.name)
                .join(accounts_t, accounts_t.c.id == sessions_t.c.account_id)
                .where(sessions_t.c.id == session_hash, accounts_t.c.deleted_at.is_(None))
            ).first()
        if row is None or _utc(row.expires_at) <= stamp:
            return None
        if stamp - _utc(row.seen_at) > timedelta(hours=1):
            with self.db.engine.begin() as conn:
                conn.execute(
                    update(sessions_t)
                    .where(sessions_t.c.id == session_hash)
                    .values(seen_at=stamp, expires_at=stamp + lifetime)
                )
        return {"id": row.id, "name": row.name}

    def end_session(self, session_hash: str) -> None:
        with self.db.engine.begin() as conn:
            conn.execute(delete(sessions_t).where(sessions_t.c.id == session_hash))

    # ---- the rate limits' counts ----------------------------------------------------------------
    # Why the database and not a rate-limiting library: the counts must be shared by every process of a
    # site, and the maintained libraries (``limits`` and those built on it) keep them in memory or in
    # Redis, Memcached, MongoDB and the like, none of which a Parlor site has; its one shared store is
    # this database (SQLite or PostgreSQL), and a check that is atomic with the count needs it anyway.
    def reserve(self, attempts: Sequence[Attempt]) -> list[int]:
        """Count one attempt for each of ``attempts`` BEFORE it is carried out (before any password is
        hashed), atomically with the check of its limit; returns the stored rows' ids (see
        :meth:`release`). :class:`LimitReached` (and nothing stored) if any would go over its limit.

        Atomic because concurrent attempts are serialized per key: on PostgreSQL by an advisory lock
        per (kind, key) held to the commit, taken in one order (no deadlock), each statement after it
        seeing the rows the previous holder committed; on SQLite by the database's single writer, the
        transaction's first statement being a write (the insert takes the write lock before the count
        reads). So of N attempts sent at once, exactly the limit's worth pass, on every process."""
        stamp = now()
        with self.db.engine.begin() as conn:
            if not self.db.is_sqlite:
                # A count lost with PostgreSQL itself (its last moments before a crash) costs nothing
                # worth a disk flush per attempt: this transaction's commit does not wait for one.
                conn.execute(text("SET LOCAL synchronous_commit = off"))
                for lock in sorted({_lock_id(a.kind, a.key) for a in attempts}):
                    conn.execute(text("SELECT pg_advisory_xact_lock(:lock)"), {"lock": lock})
            ids = [
                int(
                    conn.execute(insert(auth_events_t).values(kind=a.kind, key=a.key, at=stamp)).inserted_primary_key[0]
                )
                for a in attempts
            ]
            for a in attempts:
                count, oldest = conn.execute(
                    select(func.count(), func.min(auth_events_t.c.at)).where(
                        auth_events_t.c.kind == a.kind,
                        auth_events_t.c.key == a.key,
                        auth_events_t.c.at >= stamp - a.window,
                    )
                ).one()
                if count > a.most:  # (this attempt included): refused; leaving the block rolls it back
                    raise LimitReached(a.kind, a.window - (stamp - _utc(oldest)))
            return ids

    def release(self, ids: Sequence[int]) -> None:
        """Attempts that do not count after all (a sign-in whose password was right)."""
        with self.db.engine.begin() as conn:
            conn.execute(delete(auth_events_t).where(auth_events_t.c.id.in_(list(ids))))

    def add_events(self, events: list[tuple[str, str]]) -> None:
        stamp = now()
        with self.db.engine.begin() as conn:
            conn.execute(insert(auth_events_t), [{"kind": k, "key": key, "at": stamp} for k, key in events])

    def sweep(self, keep: timedelta) -> None:
        """Forget expired sessions and counts older than ``keep``."""
        stamp = now()
        with self.db.engine.begin() as conn:
            conn.execute(delete(sessions_t).where(sessions_t.c.expires_at < stamp))
            conn.execute(delete(auth_events_t).where(auth_events_t.c.at < stamp - keep))
