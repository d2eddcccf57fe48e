"""Notifications: what players were told, their e-mail and push settings, their browsers' push
subscriptions, and the site's own secrets (``server/notify``).

None of these is a table's row, so none goes through ``Database.commit`` and its fence (as with
accounts: ``storage/accounts.py``). Each call is one short transaction in the server's database
threads.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError

from .database import Database, _utc, now
from .schema import (
    accounts_t,
    notifications_t,
    notify_settings_t,
    push_subscriptions_t,
    site_secrets_t,
)

LIST_LIMIT = 50  # the newest notifications one asks for at most at once


def endpoint_hash(endpoint: str) -> str:
    return hashlib.sha256(endpoint.encode()).hexdigest()


class NotificationStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    # ---- the in-app list -------------------------------------------------------------------------
    def add(self, account_id: str, kind: str, table_id: str | None, text_key: str, params: dict[str, Any]) -> str:
        """Store one notification; its id."""
        nid = secrets.token_urlsafe(12)
        with self.db.engine.begin() as conn:
            conn.execute(
                insert(notifications_t).values(
                    id=nid, account_id=account_id, kind=kind, table_id=table_id, text_key=text_key,
                    params=json.dumps(params), created_at=now(),
                )
            )  # fmt: skip
        return nid

    def listing(self, account_id: str, limit: int = LIST_LIMIT) -> dict[str, Any]:
        """The newest ``limit`` notifications of an account (newest first) and how many are unread."""
        n = notifications_t
        with self.db.engine.connect() as conn:
            rows = conn.execute(
                select(n).where(n.c.account_id == account_id).order_by(n.c.created_at.desc(), n.c.id).limit(limit)
            ).all()
            unread = conn.execute(
                select(func.count()).where(n.c.account_id == account_id, n.c.read_at.is_(None))
            ).scalar_one()
        items = [
            {
                "id": r.id, "kind": r.kind, "table_id": r.table_id, "text_key": r.text_key,
                "params": json.loads(r.params), "created_at": _utc(r.created_at), "read": r.read_at is not None,
            }
            for r in rows
        ]  # fmt: skip
        return {"notifications": items, "unread": int(unread)}

    def mark_read(self, account_id: str, ids: list[str] | None) -> int:
        """Mark the account's notifications ``ids`` read (None: all of them); how many were unread."""
        n = notifications_t
        where = [n.c.account_id == account_id, n.c.read_at.is_(None)]
        if ids is not None:
            where.append(n.c.id.in_(ids))
        with self.db.engine.begin() as conn:
            return int(conn.execute(update(n).where(*where).values(read_at=now())).rowcount)

    # ---- settings --------------------------------------------------------------------------------
    def settings(self, account_id: str) -> dict[str, Any]:
        """An account's settings (the defaults when it chose nothing) with its name."""
        s = notify_settings_t
        with self.db.engine.connect() as conn:
            row = conn.execute(select(s).where(s.c.account_id == account_id)).first()
            name = conn.execute(select(accounts_t.c.name).where(accounts_t.c.id == account_id)).scalar()
        if row is None:
            return {"email": None, "email_verified": False, "kinds_off": [], "language": None,
                    "page_language": None, "name": name}  # fmt: skip
        return {
            "email": row.email, "email_verified": bool(row.email_verified), "kinds_off": json.loads(row.kinds_off),
            "language": row.language, "page_language": row.page_language, "name": name,
        }  # fmt: skip

    def update_settings(self, account_id: str, **values: Any) -> None:
        """Set some of an account's settings (``kinds_off`` a list), making its row if it has none."""
        if "kinds_off" in values:
            values["kinds_off"] = json.dumps(sorted(set(values["kinds_off"])))
        values["updated_at"] = now()
        s = notify_settings_t
        with self.db.engine.begin() as conn:
            if conn.execute(update(s).where(s.c.account_id == account_id).values(**values)).rowcount:
                return
        try:
            with self.db.engine.begin() as conn:
                conn.execute(insert(s).values(account_id=account_id, **values))
        except IntegrityError:  # another request made the row meanwhile: set it there
            with self.db.engine.begin() as conn:
                conn.execute(update(s).where(s.c.account_id == account_id).values(**values))

    def set_email(self, account_id: str, email: str | None) -> bool:
        """Store a new, unconfirmed address unless it is the account's already; whether it changed.
        One conditional update, so of two requests at once with the same new address (a double
        click on Save) exactly one changes it, and only that one mails a verification link."""
        s = notify_settings_t
        values = {"email": email, "email_verified": False, "updated_at": now()}
        with self.db.engine.begin() as conn:
            changed = update(s).where(s.c.account_id == account_id, s.c.email.is_distinct_from(email))
            if conn.execute(changed.values(**values)).rowcount:
                return True
            stored = conn.execute(select(s.c.email).where(s.c.account_id == account_id)).first()
        if stored is not None:
            if stored.email == email:
                return False
            # Another address, so the row was made (or changed) by a request at the same moment after
            # the update above looked (PostgreSQL: each statement sees what was committed before it):
            # this address goes in after it, as if sent a moment later.
            return self.set_email(account_id, email)
        try:
            with self.db.engine.begin() as conn:
                conn.execute(insert(s).values(account_id=account_id, **values))
            return True
        except IntegrityError:  # another request made the account's row meanwhile: decide there
            return self.set_email(account_id, email)

    def switch_kind(self, account_id: str, kind: str, on: bool) -> list[str]:
        """Switch one kind on or off (in one transaction, the row locked where the database can, so
        that two switched at once both hold); the kinds now off."""
        try:
            return self._switch_kind(account_id, kind, on)
        except IntegrityError:  # another request made the account's row meanwhile: switch it there
            return self._switch_kind(account_id, kind, on)

    def _switch_kind(self, account_id: str, kind: str, on: bool) -> list[str]:
        s = notify_settings_t
        with self.db.engine.begin() as conn:
            row = conn.execute(select(s.c.kinds_off).where(s.c.account_id == account_id).with_for_update()).first()
            if row is None:
                off: set[str] = set() if on else {kind}
                conn.execute(insert(s).values(account_id=account_id, kinds_off=json.dumps(sorted(off)),
                                              updated_at=now()))  # fmt: skip
                return sorted(off)
            off = set(json.loads(row.kinds_off))
            off = off - {kind} if on else off | {kind}
            conn.execute(update(s).where(s.c.account_id == account_id).values(kinds_off=json.dumps(sorted(off)),
                                                                             updated_at=now()))  # fmt: skip
            return sorted(off)

    def verify_email(self, account_id: str, email: str) -> bool:
        """Mark the address verified if it is still the account's; whether it was."""
        s = notify_settings_t
        with self.db.engine.begin() as conn:
            done = conn.execute(
                update(s).where(s.c.account_id == account_id, s.c.email == email).values(email_verified=True)
            ).rowcount
        return bool(done)

    # ---- push subscriptions ----------------------------------------------------------------------
    def subscribe(self, account_id: str, endpoint: str, p256dh: str, auth: str) -> None:
        """Keep a browser's subscription for the account (a browser that subscribes again, or passes to
        another account, keeps one row: the endpoint's)."""
        p = push_subscriptions_t
        key = endpoint_hash(endpoint)
        values = {"account_id": account_id, "endpoint": endpoint, "p256dh": p256dh, "auth": auth, "created_at": now()}
        with self.db.engine.begin() as conn:
            if conn.execute(update(p).where(p.c.endpoint_hash == key).values(**values)).rowcount:
                return
        try:
            with self.db.engine.begin() as conn:
                conn.execute(insert(p).values(endpoint_hash=key, **values))
        except IntegrityError:  # the same browser subscribed twice at once: one row is enough
            pass

    def unsubscribe(self, account_id: str | None, endpoint: str) -> bool:
        """Forget a subscription (of this account; None: whoever's, when its endpoint says it is gone)."""
        p = push_subscriptions_t
        where = [p.c.endpoint_hash == endpoint_hash(endpoint)]
        if account_id is not None:
            where.append(p.c.account_id == account_id)
        with self.db.engine.begin() as conn:
            return bool(conn.execute(p.delete().where(*where)).rowcount)

    def subscriptions(self, account_id: str) -> list[dict[str, Any]]:
        p = push_subscriptions_t
        with self.db.engine.connect() as conn:
            rows = conn.execute(select(p).where(p.c.account_id == account_id)).all()
        return [{"endpoint": r.endpoint, "keys": {"p256dh": r.p256dh, "auth": r.auth}} for r in rows]

    # ---- the site's secrets ----------------------------------------------------------------------
    def secret(self, name: str, make: Any) -> str:
        """The site's secret ``name``, made with ``make()`` and stored the first time; every process of
        a site gets the same one (the first stored wins a race)."""
        t = site_secrets_t
        with self.db.engine.connect() as conn:
            value = conn.execute(select(t.c.value).where(t.c.name == name)).scalar()
        if value is not None:
            return str(value)
        try:
            with self.db.engine.begin() as conn:
                conn.execute(insert(t).values(name=name, value=make()))
        except IntegrityError:  # another process stored it first: theirs is the site's
            pass
        with self.db.engine.connect() as conn:
            return str(conn.execute(select(t.c.value).where(t.c.name == name)).scalar_one())
