"""A moderator's changes to a table (``server/moderation``): a chat line deleted for everyone, the
table closed, a banned account's seat handed to its substitute bot.
(``LiveTable.change`` applies them; the three steps of a change: ``changes/__init__.py``.)

Each stores its line of the moderators' log in the transaction that stores it (``LogModeration``),
so an action is never done unlogged."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from parlor.server.storage import CloseUnplayed, HideChat, LogModeration, Write
from parlor.server.wire import ServerError, dumps

from ..clocks import stop_clocks
from .base import Change
from .seats import seat_of_account

if TYPE_CHECKING:
    from ..live import LiveTable

log = logging.getLogger("parlor.server")

BANNED = 4403  # close code of a banned account's connections (as for a deleted account's)


@dataclass
class DeleteChat(Change):
    """Chat line ``idx`` deleted for everyone: stored without its text, and every connection that was
    shown it is told (a ``chat_deleted`` frame)."""

    idx: Any
    logged: LogModeration

    what: ClassVar[str] = "the deletion"

    def prepare(self, table: LiveTable) -> list[Write]:
        if type(self.idx) is not int or not 0 <= self.idx < table.chat.total:
            raise ServerError("bad_chat_idx", f"no chat message {self.idx!r} at this table", 404, field="idx")
        return [HideChat(table.id, self.idx), self.logged]

    def apply(self, table: LiveTable, results: list[Any]) -> dict[str, Any]:
        table.chat.delete(self.idx)
        log.info("table %s: a moderator deleted chat message %d", table.id, self.idx)
        return {"table_id": table.id, "idx": self.idx, "deleted": True}

    def announce(self, table: LiveTable) -> None:
        table.frames.send_all({"type": "chat_deleted", "idx": self.idx})


@dataclass
class CloseTable(Change):
    """A moderator ends a table in play: nobody wins (``abandoned_code`` ``closed_by_moderator``), no
    rating moves (an abandoned game is never rated), and every connection is shown the end."""

    logged: LogModeration
    _result: dict[str, Any] | None = field(default=None, repr=False)

    what: ClassVar[str] = "closing"

    def prepare(self, table: LiveTable) -> list[Write]:
        if table.status != "playing" or table.state.is_over:
            raise ServerError("game_over", "the game is over already", 409)
        self._result = table.abandoned_result("closed by a moderator", "closed_by_moderator", 0)
        return [CloseUnplayed(table.id, self._result), self.logged]

    def apply(self, table: LiveTable, results: list[Any]) -> dict[str, Any]:
        table.status, table.result = "over", self._result
        table.seq += 1
        stop_clocks(table)
        if table.bot_task is not None:
            table.bot_task.cancel()
        log.info("table %s: closed by a moderator", table.id)
        return table.summary()

    def announce(self, table: LiveTable) -> None:
        table.frames.broadcast_state("closed")
        table.frames.broadcast_seats()


@dataclass
class BanSeat(Change):
    """A banned account's seat: its connections (by session or by the seat's token) close with the ban's
    reason, and while the game runs its substitute bot plays it (the sign-in and the WebSocket refuse
    the account until the ban ends, so nobody takes it back meanwhile)."""

    account_id: str
    reason: str
    _seat: int | None = None

    what: ClassVar[str] = "the ban"
    moves_play: ClassVar[bool] = True

    def apply(self, table: LiveTable, results: list[Any]) -> None:
        self._seat = seat_of_account(table, self.account_id)
        if self._seat is None:
            return
        s = table.seats[self._seat]
        if table.status == "playing" and s.kind == "human":
            s.substituted = True  # (in memory: a restarted table refuses the account at the WebSocket)
            log.info("table %s: seat %d's account is banned; a bot plays it", table.id, s.seat)

    def announce(self, table: LiveTable) -> None:
        if self._seat is None:
            return
        for conn in list(table.connections):
            if conn.account_id == self.account_id or conn.seat == self._seat:
                conn.push(dumps({"type": "error", "code": "banned", "message": self.reason}))
                conn.close_with(BANNED, "banned")
        table.frames.broadcast_seats()
