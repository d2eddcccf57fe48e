"""The table's chat: seated players write, every connection reads; stored with the table.

Spectators have a channel of their own (``spectators``): they write there, and only spectators
read it while the game runs, so watchers never talk into the players' game (the replay has both).

A message is trimmed, its control characters become spaces, and it must then hold 1 to
``MAX_CHAT`` characters. Each seat has its own token bucket (all its connections together), each
spectator connection its own, and each client address one more over all its connections and tables
(``Limits.chat_per_address_per_second``), apart from the per-connection frame limit: chatting never
slows the game's own frames, and opening more tabs or sockets does not buy more messages. A table
holds at most ``Limits.max_chat_lines`` messages. Lines are stored in the writer's group commit with
every other table's changes. The text is sent exactly as stored: clients show it as text.

A table keeps its newest ``CHAT_PAGE`` messages in memory: they are what a connection gets on joining
and what a summary or replay carries, with the total; older ones are read a page at a time
(``GET /api/tables/{id}/chat?before=…``).
"""

from __future__ import annotations

import logging
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from parlor.server.storage import CHAT_PAGE
from parlor.server.wire import ServerError

if TYPE_CHECKING:
    from .connection import Connection

log = logging.getLogger("parlor.server")

MAX_CHAT = 300  # characters a message
CHAT_BURST = 5  # messages at once, per seat
CHAT_RATE = 0.5  # messages a second, sustained, per seat
HISTORY = CHAT_PAGE  # the newest messages a table keeps in memory and sends on joining


@dataclass
class ChatBucket:
    tokens: float = float(CHAT_BURST)
    stamp: float = field(default_factory=time.monotonic)

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(float(CHAT_BURST), self.tokens + (now - self.stamp) * CHAT_RATE)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def clean_chat(text: Any) -> str:
    """The text as stored, or a ``bad_chat`` refusal."""
    if not isinstance(text, str):
        raise ServerError("bad_chat", "'text' must be a string")
    # Control characters (tabs, new lines, bells, bidi overrides...) would let one line pose as several.
    text = "".join(" " if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") else c for c in text).strip()
    if not text:
        raise ServerError("bad_chat", "a chat message cannot be empty")
    if len(text) > MAX_CHAT:
        raise ServerError("bad_chat", f"a chat message has at most {MAX_CHAT} characters, this one {len(text)}")
    return text


TABLE, SPECTATORS = "table", "spectators"  # the two channels


def chat_json(message: dict[str, Any]) -> dict[str, Any]:
    stamp: datetime = message["created_at"]
    out = {
        "idx": message["idx"],
        "seat": message["seat"],
        "text": message["text"],
        "version": message["version"],
        "at": stamp.isoformat(timespec="seconds").replace("+00:00", "Z"),
        "channel": message.get("channel", TABLE),
    }
    if message.get("deleted"):  # a moderator deleted it for everyone (its text is empty)
        out["deleted"] = True
    return out


def reads(conn: Connection, message: dict[str, Any]) -> bool:
    """Whether this connection is shown the message: the spectators' channel is for spectators, and a
    seat's account is not sent the lines of the seats whose account it blocks (:func:`hidden_from`)."""
    if message.get("channel", TABLE) != TABLE and conn.seat is not None:
        return False
    return not hidden_from(conn.table, viewer_of(conn.table, conn), message)


def viewer_of(table: Any, conn: Connection) -> str | None:
    """The account a connection reads for: the one whose session opened it, else its seat's account."""
    if conn.account_id is not None:
        return conn.account_id
    if conn.seat is not None and 0 <= conn.seat < len(table.seats):
        return table.seats[conn.seat].account_id  # type: ignore[no-any-return]
    return None


def hidden_from(table: Any, viewer: str | None, message: dict[str, Any]) -> bool:
    """Whether ``viewer`` blocks the account of the seat that said ``message`` (server/friends): such a
    line is never sent to it. Spectators' lines have no account, so they are never hidden."""
    seat = message.get("seat")
    if viewer is None or seat is None or not 0 <= seat < len(table.seats):
        return False
    speaker = table.seats[seat].account_id
    return speaker is not None and speaker != viewer and bool(table.hub.chat_hidden(viewer, speaker))


class ChatLog:
    """A table's chat as the live table holds it: the newest messages and how many there are."""

    def __init__(self, recent: list[dict[str, Any]], total: int) -> None:
        self.recent = recent[-HISTORY:]
        self.total = total

    def add(self, message: dict[str, Any]) -> None:
        self.recent.append(message)
        if len(self.recent) > HISTORY:
            del self.recent[: len(self.recent) - HISTORY]
        self.total += 1

    def delete(self, idx: int) -> None:
        """A moderator deleted message ``idx``: the copy held here loses its text too."""
        for message in self.recent:
            if message["idx"] == idx:
                message["text"], message["deleted"] = "", True

    def page(self, seat_only: bool, hidden: Callable[[dict[str, Any]], bool] | None = None) -> dict[str, Any]:
        """The newest messages (a seat's: the players' channel only; none that ``hidden`` says) and
        whether older ones exist."""
        shown = [
            m
            for m in self.recent
            if (not seat_only or m.get("channel", TABLE) == TABLE) and (hidden is None or not hidden(m))
        ]
        oldest = self.recent[0]["idx"] if self.recent else self.total
        return {"messages": [chat_json(m) for m in shown], "total": self.total, "more": oldest > 0}
