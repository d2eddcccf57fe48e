"""Moderation of a public site: players' reports, moderators (``parlor admin``), mutes and bans,
deleted chat lines, names hidden from the leaderboards, closed tables, and a log of every moderator's
action (docs/protocol.md, "Moderation").

A feature beside ``table/`` (docs/server.md): the edge's routes (``edge/moderation.py``) call this
service, which stores through ``storage.ModerationStore`` (no table's rows: not fenced) and changes a
table in play only through the table's own changes (``table/changes/moderation.py``).

The rules, decided here:

* Reports: a signed-in player reports another player (a living account), optionally at a table or
  for a chat line (whose author's account is then the one reported); once per reporter and subject
  (the database's unique index decides between requests sent at once). A guest's or a spectator's
  chat line names no account: it cannot be reported (a moderator can still delete it).
* A moderator cannot mute or ban another moderator (remove the flag first with ``parlor admin
  remove``: the command line is the site owner's), nor themselves.
* A sanction's end must be in the future, and at most ``MAX_SANCTION`` away; a new one of the same kind
  replaces the running one.
* A mute refuses the account's chat lines at every table (whether the seat was opened by a session or
  by its token, and as a signed-in spectator); a ban ends its sessions, refuses its sign-in, closes its
  connections and hands its seats in play to their substitute bots, and refuses the WebSocket of any
  seat that belongs to it. Both say why and until when.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from parlor.server.accounts import fold_name
from parlor.server.storage import AlreadyReported, LogLine, LogModeration, ModerationStore, now
from parlor.server.storage.site import BAN, CHANNEL
from parlor.server.table import Hub, valid_table_id
from parlor.server.wire import ServerError

log = logging.getLogger("parlor.server")

REPORT_REASONS = ("cheating", "abuse", "spam", "name", "other")
SANCTIONS = ("mute", "ban")
MAX_REPORT_TEXT = 1000
MAX_REASON = 500
MAX_SANCTION = timedelta(days=3650)


def _text(value: Any, field: str, most: int, required: bool) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise ServerError("bad_request", f"'{field}' must be a string", 400, field=field)
    value = " ".join(value.split())
    if required and not value:
        raise ServerError("bad_request", f"'{field}' is required", 400, field=field)
    if len(value) > most:
        raise ServerError("bad_request", f"'{field}' has at most {most} characters", 400, field=field)
    return value


def parse_until(value: Any) -> datetime:
    """A sanction's end: an ISO 8601 moment (with its offset; without one, UTC) in the future."""
    if not isinstance(value, str) or len(value) > 40:
        raise ServerError(
            "bad_until", "'until' must be a date and time (ISO 8601, e.g. 2030-01-31T12:00Z)", field="until"
        )
    try:
        until = datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise ServerError("bad_until", f"'until' is not a date and time: {value!r}", field="until") from None
    if until.tzinfo is None:
        until = until.replace(tzinfo=now().tzinfo)
    stamp = now()
    if until <= stamp:
        raise ServerError("bad_until", "'until' is in the past: a mute or a ban must end in the future", field="until")
    if until - stamp > MAX_SANCTION:
        raise ServerError("bad_until", f"'until' is more than {MAX_SANCTION.days} days away", field="until")
    return until


def sanction_message(kind: str, sanction: dict[str, Any]) -> str:
    """What a muted or banned player is told: why, and until when (UTC)."""
    what = "muted (you cannot chat)" if kind == "mute" else "banned"
    return f"this account is {what} until {sanction['until']}: {sanction['reason']}"


class Moderation:
    """The moderation service, one per process (created by the app's lifespan beside the hub)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.store = ModerationStore(hub.db)

    # ---- who may ---------------------------------------------------------------------------------
    async def require_admin(self, account: dict[str, Any] | None) -> dict[str, Any]:
        """The signed-in moderator; else 401 (signed out) or 403 (a player)."""
        if account is None:
            raise ServerError("not_signed_in", "sign in first", 401)
        if not await self.hub.run_db(self.store.is_admin, account["id"]):
            raise ServerError("not_admin", "only the site's moderators may do this", 403)
        return account

    async def is_admin(self, account: dict[str, Any] | None) -> bool:
        return account is not None and bool(await self.hub.run_db(self.store.is_admin, account["id"]))

    async def _account(self, name: Any) -> dict[str, Any]:
        if not isinstance(name, str) or not name.strip() or len(name) > 100:
            raise ServerError("unknown_player", "a player's name is required", 404, field="name")
        found = await self.hub.run_db(self.store.account_by_name, fold_name(" ".join(name.split())))
        if found is None:
            raise ServerError("unknown_player", f"no player is called {name[:40]!r}", 404, field="name")
        return found

    @staticmethod
    def _line(admin: dict[str, Any], action: str, target: str, reason: str) -> LogLine:
        return LogLine(admin["id"], admin["name"], action, target, reason)

    # ---- reports ---------------------------------------------------------------------------------
    async def report(self, reporter: dict[str, Any] | None, body: dict[str, Any]) -> dict[str, Any]:
        if reporter is None:
            raise ServerError("not_signed_in", "sign in to report a player", 401)
        reason = body.get("reason")
        if reason not in REPORT_REASONS:
            raise ServerError("bad_reason", f"'reason' must be one of: {', '.join(REPORT_REASONS)}", field="reason")
        text = _text(body.get("text"), "text", MAX_REPORT_TEXT, False)
        table_id, chat_idx = body.get("table_id"), body.get("chat_idx")
        if table_id is not None and (not isinstance(table_id, str) or not valid_table_id(table_id)):
            raise ServerError("table_not_found", f"no table {str(table_id)[:40]!r}", 404, field="table_id")
        if chat_idx is not None and (table_id is None or type(chat_idx) is not int or chat_idx < 0):
            raise ServerError(
                "bad_chat_idx", "'chat_idx' is a message's idx (a whole number) at 'table_id'", field="chat_idx"
            )
        chat_text = None
        if chat_idx is not None:
            said = await self.hub.run_db(self.store.chat_author, table_id, chat_idx)
            if said is None:
                raise ServerError(
                    "bad_chat_idx", f"no chat message {chat_idx} at table {table_id}", 404, field="chat_idx"
                )
            author, chat_text = said
            if author is None:
                raise ServerError("not_reportable", "this message was not written by a player with an account", 400)
            reported = await self.hub.run_db(self.store.account_of_id, author)
            if reported is None:
                raise ServerError("unknown_player", "the message's author has no account any more", 404)
            if body.get("player") is not None and (await self._account(body.get("player")))["id"] != author:
                raise ServerError("bad_chat_idx", "this message was written by another player", field="chat_idx")
            subject = f"chat:{table_id}:{chat_idx}"
        else:
            reported = await self._account(body.get("player"))
            # (the stored row only: a report never loads, nor takes over, a table another process plays)
            if table_id is not None and await self.hub.run_db(self.hub.db.load_head, table_id) is None:
                raise ServerError("table_not_found", f"no table {table_id!r}", 404, field="table_id")
            subject = f"table:{table_id}" if table_id is not None else "player"
        if reported["id"] == reporter["id"]:
            raise ServerError("bad_request", "you cannot report yourself", field="player")
        values = {
            "reporter_id": reporter["id"],
            "reported_id": reported["id"],
            "subject": subject,
            "table_id": table_id,
            "chat_idx": chat_idx,
            "chat_text": chat_text,
            "reason": reason,
            "text": text,
        }
        try:
            report_id = await self.hub.run_db(self.store.add_report, values)
        except AlreadyReported:
            raise ServerError(
                "already_reported", "you have reported this already; the moderators have it", 409
            ) from None
        log.info("a player reported another")
        return {"report": {"id": report_id, "player": reported["name"], "reason": reason, "status": "open"}}

    async def reports(self, status: Any) -> dict[str, Any]:
        status = status or "open"
        if status not in ("open", "resolved"):
            raise ServerError("bad_request", "'status' is open or resolved", field="status")
        return {"status": status, "reports": await self.hub.run_db(self.store.reports, status)}

    async def resolve(self, admin: dict[str, Any], report_id: int, body: dict[str, Any]) -> dict[str, Any]:
        note = _text(body.get("note"), "note", MAX_REASON, True)
        line = self._line(admin, "resolve_report", f"report {report_id}", note)
        if not await self.hub.run_db(self.store.resolve_report, report_id, note, line):
            raise ServerError("report_not_found", f"no open report {report_id}", 404)
        return {"report": {"id": report_id, "status": "resolved", "note": note}}

    # ---- mutes and bans --------------------------------------------------------------------------
    async def sanction(self, admin: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
        kind = body.get("kind")
        if kind not in SANCTIONS:
            raise ServerError("bad_request", "'kind' is mute or ban", field="kind")
        target = await self._account(body.get("name"))
        reason = _text(body.get("reason"), "reason", MAX_REASON, True)
        until = parse_until(body.get("until"))
        if target["id"] == admin["id"]:
            raise ServerError("bad_target", f"you cannot {kind} yourself", field="name")
        if target["admin"]:
            raise ServerError(
                "bad_target", f"a moderator cannot be given a {kind}: the site's owner removes the moderator first "
                "(parlor admin remove NAME)", field="name",
            )  # fmt: skip
        line = self._line(admin, kind, target["name"], reason)
        await self.hub.run_db(self.store.sanction, target["id"], kind, reason, until, line)
        stamp = until.isoformat(timespec="seconds").replace("+00:00", "Z")
        if kind == "ban":
            message = sanction_message("ban", {"until": stamp, "reason": reason})
            await self.hub.ban_account(target["id"], message)
            await self.hub.run_db(self._tell_site, target["id"])
        log.info("a moderator gave a %s", kind)
        return {"sanction": {"name": target["name"], "kind": kind, "reason": reason, "until": stamp}}

    def _tell_site(self, account_id: str) -> None:
        """The site's other processes hand the banned account's seats over at the tables they hold."""
        if self.hub.db.is_sqlite or self.hub.site is None:
            return
        from sqlalchemy import text

        with self.hub.db.engine.begin() as conn:
            conn.execute(
                text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": BAN + account_id}
            )

    async def lift(self, admin: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
        kind = body.get("kind")
        if kind not in SANCTIONS:
            raise ServerError("bad_request", "'kind' is mute or ban", field="kind")
        target = await self._account(body.get("name"))
        reason = _text(body.get("reason"), "reason", MAX_REASON, True)
        line = self._line(admin, "lift_" + kind, target["name"], reason)
        if not await self.hub.run_db(self.store.lift, target["id"], kind, line):
            raise ServerError("no_sanction", f"{target['name']} has no running {kind}", 404)
        return {"lifted": {"name": target["name"], "kind": kind}}

    async def sanctions(self) -> dict[str, Any]:
        return {"sanctions": await self.hub.run_db(self.store.sanctions)}

    async def refusal(self, account_ids: list[str], kind: str) -> ServerError | None:
        """The refusal a muted (``kind`` "mute") or banned player gets, or None."""
        ids = [a for a in account_ids if a]
        if not ids:
            return None
        running = await self.hub.run_db(self.store.active, ids, kind)
        if running is None:
            return None
        code = "muted" if kind == "mute" else "banned"
        return ServerError(code, sanction_message(kind, running), 403, extra=running)

    # ---- leaderboards, tables, the log ---------------------------------------------------------------
    async def hide(self, admin: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
        target = await self._account(body.get("name"))
        hidden = body.get("hidden", True)
        if type(hidden) is not bool:
            raise ServerError("bad_request", "'hidden' must be true or false", field="hidden")
        reason = _text(body.get("reason"), "reason", MAX_REASON, True)
        line = self._line(admin, "hide_name" if hidden else "show_name", target["name"], reason)
        await self.hub.run_db(self.store.hide_from_boards, target["id"], hidden, line)
        return {"name": target["name"], "hidden": hidden}

    def table_log(self, admin: dict[str, Any], table_id: str, action: str, body: dict[str, Any]) -> LogModeration:
        """The log line of an action at a table (stored with the action: ``table/changes/moderation.py``)."""
        reason = _text(body.get("reason"), "reason", MAX_REASON, True)
        return LogModeration(table_id, admin["id"], admin["name"], action, reason)

    async def log_lines(self) -> dict[str, Any]:
        return {"log": await self.hub.run_db(self.store.log_lines)}
