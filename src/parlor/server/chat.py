"""The table's chat: seated players write, every connection reads; stored with the table.

Spectators have a channel of their own (``spectators``): they write there, and only spectators
read it while the game runs, so watchers never talk into the players' game (the replay has both).

A message is trimmed, its control characters become spaces, and it must then hold 1 to
``MAX_CHAT`` characters. Each seat has its own token bucket (all its connections together), apart
from the per-connection frame limit: chatting never slows the game's own frames, and opening more
tabs does not buy more messages. The text is sent exactly as stored: clients show it as text.
"""

from __future__ import annotations

import logging
import time
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from .protocol import ServerError, dumps

if TYPE_CHECKING:
    from .broadcast import Connection
    from .tables import LiveTable

log = logging.getLogger("parlor.server")

MAX_CHAT = 300  # characters a message
CHAT_BURST = 5  # messages at once, per seat
CHAT_RATE = 0.5  # messages a second, sustained, per seat
HISTORY = 500  # the newest messages sent on joining (the replay has them all)


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
    return {
        "idx": message["idx"],
        "seat": message["seat"],
        "text": message["text"],
        "version": message["version"],
        "at": stamp.isoformat(timespec="seconds").replace("+00:00", "Z"),
        "channel": message.get("channel", TABLE),
    }


def reads(conn: Connection, message: dict[str, Any]) -> bool:
    """Whether this connection is shown the message: the spectators' channel is for spectators."""
    return message.get("channel", TABLE) == TABLE or conn.seat is None


class ChatMixin:
    """The hub's part that carries the table's chat."""

    def chat_history_frame(self, table: LiveTable, conn: Connection | None = None) -> str:
        """The newest messages this connection may read (a seat: the players' channel only)."""
        shown = [m for m in table.chat if conn is None or reads(conn, m)]
        messages = [chat_json(m) for m in shown[-HISTORY:]]
        return dumps({"type": "chat", "history": True, "messages": messages})

    async def say(self, conn: Connection, text: Any, ref: Any = None) -> int:
        """A chat message: a seat's to the table, a spectator's to the spectators. Stored,
        acknowledged, then sent to every connection that reads its channel (in the order of the
        chat); returns its idx."""
        table, seat = conn.table, conn.seat
        channel = TABLE if seat is not None else SPECTATORS
        text = clean_chat(text)
        if table.status == "broken":
            raise ServerError("unavailable", "this table is closed", 409)
        # A seat's bucket holds for all its tabs; spectators share one link, so each connection
        # has its own (and the per-address connection caps bound how many there are).
        if seat is not None:
            bucket = table.chat_buckets.setdefault(seat, ChatBucket())
        else:
            if conn.chat_bucket is None:
                conn.chat_bucket = ChatBucket()
            bucket = conn.chat_bucket
        if not bucket.take():
            raise ServerError(
                "rate_limited",
                f"at most {CHAT_BURST} chat messages at once, then one every {1 / CHAT_RATE:g} seconds",
                429,
            )
        async with table.chat_lock:  # one writer at a time keeps idx dense and in order
            idx = len(table.chat)
            version = table.version
            try:
                stamp = await self.run_db(self.db.add_chat, table.id, idx, seat, text, version, channel)
            except Exception as exc:
                log.exception("table %s: cannot store chat message %d", table.id, idx)
                raise ServerError("server_error", f"the message could not be stored ({type(exc).__name__})") from None
            message = {"idx": idx, "seat": seat, "text": text, "version": version, "created_at": stamp}
            message["channel"] = channel
            table.chat.append(message)
            conn.push(dumps({"type": "ack", "ref": ref, "version": table.version, "chat_idx": idx}))
            frame = dumps({"type": "chat", "history": False, "messages": [chat_json(message)]})
            for other in list(table.connections):
                if reads(other, message):
                    other.push(frame)
        return idx
