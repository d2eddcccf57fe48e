"""Moderation's rows: moderators, reports, mutes and bans, hidden names, and the log of every
moderator's action (``server/moderation``; docs/protocol.md, "Moderation").

None of these is a table's row, so none goes through ``Database.commit`` and its fence (as for
``accounts.py``): each method runs one short transaction of its own. A change a moderator makes and
its line in the log are stored in one transaction, so no action goes unlogged.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from .database import Database, _utc, now
from .schema import accounts_t, admin_log_t, chat_t, reports_t, sanctions_t, seats_t, sessions_t


class AlreadyReported(Exception):
    """The same reporter reported the same thing before (the unique index decided)."""


@dataclass(frozen=True)
class LogLine:
    """One line of the moderators' log: who (None: the command line), what, to what, why."""

    admin_id: str | None
    admin_name: str | None
    action: str
    target: str
    reason: str

    def row(self, stamp: datetime) -> dict[str, Any]:
        return {
            "admin_id": self.admin_id,
            "admin_name": self.admin_name,
            "action": self.action,
            "target": self.target[:120],
            "reason": self.reason,
            "at": stamp,
        }


def _stamp(value: datetime | None) -> str | None:
    return None if value is None else _utc(value).isoformat(timespec="seconds").replace("+00:00", "Z")


class ModerationStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    # ---- moderators -----------------------------------------------------------------------------
    def set_admin(self, name_key: str, on: bool) -> bool:
        """Make the (living) account of this folded name a moderator or not; False if there is none."""
        with self.db.engine.begin() as conn:
            found = conn.execute(
                select(accounts_t.c.id, accounts_t.c.name).where(
                    accounts_t.c.name_key == name_key, accounts_t.c.deleted_at.is_(None)
                )
            ).first()
            if found is None:
                return False
            conn.execute(update(accounts_t).where(accounts_t.c.id == found.id).values(admin=on))
            line = LogLine(None, None, "admin_add" if on else "admin_remove", found.name, "parlor admin")
            conn.execute(insert(admin_log_t).values(**line.row(now())))
        return True

    def admins(self) -> list[str]:
        with self.db.engine.connect() as conn:
            query = select(accounts_t.c.name).where(accounts_t.c.admin.is_(True), accounts_t.c.deleted_at.is_(None))
            return [r.name for r in conn.execute(query.order_by(accounts_t.c.name_key))]

    def is_admin(self, account_id: str) -> bool:
        with self.db.engine.connect() as conn:
            row = conn.execute(select(accounts_t.c.admin).where(accounts_t.c.id == account_id)).first()
        return bool(row is not None and row.admin)

    def account_by_name(self, name_key: str) -> dict[str, Any] | None:
        """A living account (``id``, ``name``, ``admin``) by its folded name, or None."""
        with self.db.engine.connect() as conn:
            row = conn.execute(
                select(accounts_t.c.id, accounts_t.c.name, accounts_t.c.admin).where(
                    accounts_t.c.name_key == name_key, accounts_t.c.deleted_at.is_(None)
                )
            ).first()
        return None if row is None else {"id": row.id, "name": row.name, "admin": bool(row.admin)}

    def account_of_id(self, account_id: str) -> dict[str, Any] | None:
        """A living account (``id``, ``name``, ``admin``) by its id, or None."""
        with self.db.engine.connect() as conn:
            row = conn.execute(
                select(accounts_t.c.id, accounts_t.c.name, accounts_t.c.admin).where(
                    accounts_t.c.id == account_id, accounts_t.c.deleted_at.is_(None)
                )
            ).first()
        return None if row is None else {"id": row.id, "name": row.name, "admin": bool(row.admin)}

    # ---- reports --------------------------------------------------------------------------------
    def chat_author(self, table_id: str, idx: int) -> tuple[str | None, str] | None:
        """Who said a table's message (the account of its seat, None for a guest or a spectator) and its
        text; None if there is no such message."""
        with self.db.engine.connect() as conn:
            row = conn.execute(
                select(chat_t.c.seat, chat_t.c.text, chat_t.c.channel).where(
                    chat_t.c.table_id == table_id, chat_t.c.idx == idx
                )
            ).first()
            if row is None:
                return None
            if row.channel != "table" or row.seat < 0:
                return None, row.text
            account = conn.execute(
                select(seats_t.c.account_id).where(seats_t.c.table_id == table_id, seats_t.c.seat == row.seat)
            ).scalar()
        return account, row.text

    def add_report(self, values: dict[str, Any]) -> int:
        """A new open report; :class:`AlreadyReported` if this reporter reported this subject before.
        The unique index decides, so reports sent at once cannot both be stored."""
        try:
            with self.db.engine.begin() as conn:
                result = conn.execute(insert(reports_t).values(**values, status="open", created_at=now()))
                return int(result.inserted_primary_key[0])
        except IntegrityError:
            raise AlreadyReported from None

    def reports(self, status: str, limit: int = 200) -> list[dict[str, Any]]:
        reporter, reported = accounts_t.alias("reporter"), accounts_t.alias("reported")
        query = (
            select(reports_t, reporter.c.name.label("reporter"), reported.c.name.label("reported"))
            .join(reporter, reporter.c.id == reports_t.c.reporter_id)
            .join(reported, reported.c.id == reports_t.c.reported_id)
            .where(reports_t.c.status == status)
            .order_by(reports_t.c.created_at.desc() if status == "resolved" else reports_t.c.created_at, reports_t.c.id)
            .limit(limit)
        )
        with self.db.engine.connect() as conn:
            rows = conn.execute(query).mappings().all()
        return [
            {
                "id": r["id"],
                "reporter": r["reporter"],
                "reported": r["reported"],
                "table_id": r["table_id"],
                "chat_idx": r["chat_idx"],
                "chat_text": r["chat_text"],
                "reason": r["reason"],
                "text": r["text"],
                "status": r["status"],
                "note": r["note"],
                "created_at": _stamp(r["created_at"]),
                "resolved_at": _stamp(r["resolved_at"]),
            }
            for r in rows
        ]

    def resolve_report(self, report_id: int, note: str, line: LogLine) -> bool:
        """Close an open report with the moderator's note (and its log line); False if no open report
        has this id (a report is resolved once: two moderators at once, one wins)."""
        stamp = now()
        with self.db.engine.begin() as conn:
            done = conn.execute(
                update(reports_t)
                .where(reports_t.c.id == report_id, reports_t.c.status == "open")
                .values(status="resolved", note=note, resolved_by=line.admin_id, resolved_at=stamp)
            ).rowcount
            if done != 1:
                return False
            conn.execute(insert(admin_log_t).values(**line.row(stamp)))
        return True

    # ---- mutes and bans -------------------------------------------------------------------------
    def sanction(self, account_id: str, kind: str, reason: str, until: datetime, line: LogLine) -> None:
        """A mute or a ban from now until ``until`` (replacing one of the same kind still running). A
        ban ends every session of the account in the same transaction."""
        stamp = now()
        with self.db.engine.begin() as conn:
            conn.execute(
                update(sanctions_t)
                .where(
                    sanctions_t.c.account_id == account_id,
                    sanctions_t.c.kind == kind,
                    sanctions_t.c.lifted_at.is_(None),
                    sanctions_t.c.until > stamp,
                )
                .values(lifted_at=stamp)
            )
            conn.execute(
                insert(sanctions_t).values(
                    account_id=account_id,
                    kind=kind,
                    reason=reason,
                    until=until,
                    by_account=line.admin_id or "",
                    created_at=stamp,
                )
            )
            if kind == "ban":
                conn.execute(delete(sessions_t).where(sessions_t.c.account_id == account_id))
            conn.execute(insert(admin_log_t).values(**line.row(stamp)))

    def lift(self, account_id: str, kind: str, line: LogLine) -> bool:
        """End the account's running mute or ban now; False if none runs."""
        stamp = now()
        with self.db.engine.begin() as conn:
            done = conn.execute(
                update(sanctions_t)
                .where(
                    sanctions_t.c.account_id == account_id,
                    sanctions_t.c.kind == kind,
                    sanctions_t.c.lifted_at.is_(None),
                    sanctions_t.c.until > stamp,
                )
                .values(lifted_at=stamp)
            ).rowcount
            if not done:
                return False
            conn.execute(insert(admin_log_t).values(**line.row(stamp)))
        return True

    def active(self, account_ids: list[str], kind: str) -> dict[str, Any] | None:
        """The running sanction of ``kind`` of any of these accounts (``reason``, ``until``: the latest
        end), or None."""
        if not account_ids:
            return None
        stamp = now()
        with self.db.engine.connect() as conn:
            row = conn.execute(
                select(sanctions_t.c.reason, sanctions_t.c.until)
                .where(
                    sanctions_t.c.account_id.in_(account_ids),
                    sanctions_t.c.kind == kind,
                    sanctions_t.c.lifted_at.is_(None),
                    sanctions_t.c.until > stamp,
                )
                .order_by(sanctions_t.c.until.desc())
                .limit(1)
            ).first()
        return None if row is None else {"reason": row.reason, "until": _stamp(row.until)}

    def sanctions(self) -> list[dict[str, Any]]:
        """Every running mute and ban, the soonest to end first."""
        stamp = now()
        query = (
            select(sanctions_t, accounts_t.c.name)
            .join(accounts_t, accounts_t.c.id == sanctions_t.c.account_id)
            .where(sanctions_t.c.lifted_at.is_(None), sanctions_t.c.until > stamp)
            .order_by(sanctions_t.c.until, sanctions_t.c.id)
        )
        with self.db.engine.connect() as conn:
            rows = conn.execute(query).mappings().all()
        return [
            {"name": r["name"], "kind": r["kind"], "reason": r["reason"], "until": _stamp(r["until"]),
             "since": _stamp(r["created_at"])}
            for r in rows
        ]  # fmt: skip

    # ---- the leaderboards -----------------------------------------------------------------------
    def hide_from_boards(self, account_id: str, hidden: bool, line: LogLine) -> None:
        with self.db.engine.begin() as conn:
            conn.execute(update(accounts_t).where(accounts_t.c.id == account_id).values(board_hidden=hidden))
            conn.execute(insert(admin_log_t).values(**line.row(now())))

    # ---- the log --------------------------------------------------------------------------------
    def log(self, line: LogLine) -> None:
        with self.db.engine.begin() as conn:
            conn.execute(insert(admin_log_t).values(**line.row(now())))

    def log_lines(self, limit: int = 200) -> list[dict[str, Any]]:
        query = select(admin_log_t).order_by(admin_log_t.c.at.desc(), admin_log_t.c.id.desc()).limit(limit)
        with self.db.engine.connect() as conn:
            rows = conn.execute(query).mappings().all()
        return [
            {"admin": r["admin_name"], "action": r["action"], "target": r["target"], "reason": r["reason"],
             "at": _stamp(r["at"])}
            for r in rows
        ]  # fmt: skip
