"""The game's own changes: a decision, an undo, a hint, a chat line.
(``LiveTable.change`` applies them; the three steps of a change: ``changes/__init__.py``)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from parlor.core import IllegalAction, ParlorError, State, replay
from parlor.server.storage import AddChat, AddHint, AppendDecision, RemoveDecision, Write
from parlor.server.wire import ServerError, dumps

from ..chat import CHAT_BURST, CHAT_RATE, SPECTATORS, TABLE, ChatBucket, chat_json, clean_chat, reads
from ..clocks import BOT_FOR_HUMAN, bot_mark, bot_move_kind, stop_clocks
from ..undo import undo_refusal
from .base import Change, playing

if TYPE_CHECKING:
    from ..connection import Connection
    from ..frames import Ack
    from ..live import LiveTable

log = logging.getLogger("parlor.server")


# ---- the game -------------------------------------------------------------------------------------
@dataclass
class Decide(Change):
    """A decision: a player's action (``by="player"``), or a bot's (``by=None``: a bot, a substitute, a
    stand-in or a clock's bot, worked out when it is applied from who plays the seat then)."""

    seat: int
    action: Any
    by: str | None = None
    version: int | None = None  # refuse (stale) unless the table is at this version
    ack: Ack = None
    _plan: Any = field(default=None, repr=False)

    what: ClassVar[str] = "the action"
    moves_play: ClassVar[bool] = True

    @classmethod
    def from_frame(cls, table: LiveTable, conn: Connection, msg: dict[str, Any], ref: Any) -> Decide:
        """A client's ``action`` frame (docs/protocol.md), read for its seat; malformed ones are refused."""
        seat = conn.seat
        if seat is None:
            raise ServerError("spectator", "spectators cannot act")
        if "seat" in msg and msg["seat"] != seat:
            raise ServerError("wrong_seat", f"this connection holds seat {seat}, not {msg['seat']!r}")
        version = msg.get("version")
        if version is not None and type(version) is not int:
            raise ServerError("bad_frame", "'version' must be an integer")
        if "id" not in msg and "action" not in msg:
            raise ServerError("bad_frame", "an action frame needs 'action' (the action's JSON) or 'id'")
        return cls(seat, msg, "player", version, (conn, ref))

    def _action(self, table: LiveTable) -> Any:
        if self.by != "player":
            return self.action
        msg = self.action
        try:
            if "id" in msg:
                if type(msg["id"]) is not int:
                    raise IllegalAction("'id' must be an integer action id")
                return table.game.action_from_id(msg["id"])
            return table.game.action_from_json(msg["action"])
        except (ParlorError, ValueError, TypeError, KeyError, IndexError) as exc:
            raise ServerError("illegal_action", f"not an action of {table.game.title}: {exc}") from None

    def prepare(self, table: LiveTable) -> list[Write]:
        seat, state = self.seat, table.state
        playing(table)
        if self.version is not None and self.version != table.version:
            raise ServerError("stale", f"the table is at version {table.version}, not {self.version}")
        if seat not in state.to_move:
            raise ServerError(
                "not_your_turn", f"seat {seat} is not to move (waiting for seat(s) {list(state.to_move)})"
            )
        action = self._action(table)
        by = self.by
        if by is None:
            if not table.bot_controls(seat):
                raise ServerError("stale", f"seat {seat} is played by its player again")
            by = bot_move_kind(table.seats[seat])
        new = state.clone()
        try:
            events = new.apply(seat, action)
        except IllegalAction as exc:
            raise ServerError("illegal_action", str(exc)) from None
        except Exception as exc:  # a bug in a game's rules: refuse the move, keep the table as it was
            log.exception("table %s: the engine failed on %s by seat %d", table.id, action, seat)
            raise ServerError("server_error", f"the game engine failed on this action ({type(exc).__name__})") from None
        idx = table.version
        cap = table.hub.limits.max_decisions
        abandoned = not new.is_over and idx + 1 >= cap
        result = None
        if abandoned:
            result = table.abandoned_result(f"the game reached the limit of {cap} decisions", "decision_cap", cap)
        elif new.is_over:
            result = table.result_of(new, (seat, by))  # (who made each decision counts in a rating)
        stored = [(e.kind, e.data, None if e.visible_to is None else sorted(e.visible_to)) for e in events]
        status = "over" if result is not None else "playing"
        clock_at = table.seats[seat].turn_ends_at  # this decision's deadline, even once it has passed
        self._plan = (action, by, new, events, result, clock_at, abandoned)
        return [
            AppendDecision(
                table.id, idx, seat, action.to_json(), by, len(table.events), stored, status, result, clock_at
            )
        ]

    def apply(self, table: LiveTable, results: list[Any]) -> int:
        _action, by, new, events, result, clock_at, abandoned = self._plan
        seat, idx = self.seat, table.version
        table.rng_before.append(table.state.rng.state)
        old, table.state = table.state, new
        table.actions_by.append(by)
        table.action_seats.append(seat)
        mark = bot_mark(seat, by)
        if mark is not None:  # not stored as an event: derived from ``by`` when a table is restored
            table.events.append((idx, mark))
        table.events.extend((idx, e) for e in events)
        table.reveals.append(None)  # whether it showed something hidden: checked if an undo is asked
        table.last_private.append(any(e.visible_to is not None for e in events))
        table.clock_at.append(clock_at)
        table.before_last = old
        table.seq += 1
        s = table.seats[seat]
        if by in BOT_FOR_HUMAN:
            s.bot_moves += 1
        s.clock_out = False  # whoever made it, this decision's clock is done
        if result is not None:
            if abandoned:
                log.warning("table %s: abandoned after %d decisions", table.id, idx + 1)
            table.status = "over"
            table.result = result
            stop_clocks(table)
        self.by = by
        return table.version

    def announce(self, table: LiveTable) -> None:
        table.frames.broadcast_state("action", ack=self.ack)
        if self.by in BOT_FOR_HUMAN:  # the seat chips count the moves bots made for a player
            table.frames.broadcast_seats()


@dataclass
class Undo(Change):
    """A seat takes back its own last decision (docs/protocol.md, "Undo")."""

    seat: int | None
    ack: Ack = None
    undone: tuple[int, Any] | None = None  # (seat, its clock as it decided): the clock resumes from there
    _state: State | None = field(default=None, repr=False)

    what: ClassVar[str] = "the undo"
    moves_play: ClassVar[bool] = True

    def prepare(self, table: LiveTable) -> list[Write]:
        why = undo_refusal(table, self.seat)
        if why is not None:
            raise ServerError("undo_not_allowed", f"cannot undo: {why}")
        record = table.state.record()
        record["actions"] = record["actions"][:-1]
        self._state = replay(record)
        return [RemoveDecision(table.id, table.version - 1)]

    def apply(self, table: LiveTable, results: list[Any]) -> int:
        assert self._state is not None and self.seat is not None
        last = table.version - 1
        table.state = self._state
        table.actions_by.pop()
        table.action_seats.pop()
        table.rng_before.pop()
        table.reveals.pop()
        table.last_private.pop()
        self.undone = (self.seat, table.clock_at.pop())
        table.before_last = None
        table.seq += 1
        table.frames.forget_logs()
        while table.events and table.events[-1][0] == last:
            table.events.pop()
        for c in table.connections:
            c.sent_events = min(c.sent_events, len(table.events))
        return table.version

    def announce(self, table: LiveTable) -> None:
        undone = {"event": "undone", "data": {"seat": self.seat, "version": table.version}}
        table.frames.broadcast_state("undo", [undone], self.ack)


# ---- hints ----------------------------------------------------------------------------------------
def hint_refusal(table: LiveTable, seat: int | None) -> None:
    """Refuse a hint a connection may not have now (a ``ServerError``): a spectator, a table made
    without hints, a finished game, a seat that is not to move."""
    if seat is None:
        raise ServerError("spectator", "spectators cannot ask for hints: a hint is for the seat to move", 403)
    if not table.hints_on:
        raise ServerError("hints_off", "this table was created without hints", 409)
    playing(table)
    if seat not in table.state.to_move:
        raise ServerError("not_your_turn", f"seat {seat} is not to move: a hint is for a decision you are making")


@dataclass
class GiveHint(Change):
    """The judge's hint for ``seat`` at decision ``version`` (worked out in a worker process from the
    seat's information only, server/review/): kept with the table for the seat's replay, and sent to
    that seat's own connections, nobody else's."""

    seat: int
    version: int
    hint: dict[str, Any]
    ack: Ack = None

    what: ClassVar[str] = "the hint"

    def prepare(self, table: LiveTable) -> list[Write]:
        hint_refusal(table, self.seat)
        if self.version != table.version:
            raise ServerError("stale", f"the table moved on (version {table.version}) before the hint was ready")
        if (self.version, self.seat) in table.hints_given:
            return []
        return [AddHint(table.id, self.version, self.seat, dumps(self.hint))]

    def apply(self, table: LiveTable, results: list[Any]) -> dict[str, Any]:
        return table.hints_given.setdefault((self.version, self.seat), self.hint)

    def announce(self, table: LiveTable) -> None:
        hint = table.hints_given[(self.version, self.seat)]
        ref = self.ack[1] if self.ack is not None else None
        asker = self.ack[0] if self.ack is not None else None
        for conn in list(table.connections):
            if conn.seat == self.seat:
                frame = {"type": "hint", "version": self.version, "seat": self.seat, "hint": hint}
                conn.push(dumps({**frame, "ref": ref} if conn is asker else frame))


# ---- chat -----------------------------------------------------------------------------------------
@dataclass
class Say(Change):
    """A chat message: a seat's to the table, a spectator's to the spectators (chat.py)."""

    conn: Connection
    text: Any
    ref: Any = None
    _message: dict[str, Any] | None = field(default=None, repr=False)

    what: ClassVar[str] = "the message"

    @classmethod
    def from_frame(cls, table: LiveTable, conn: Connection, text: Any, ref: Any) -> Say:
        """A client's ``chat`` frame, its text cleaned and its allowances taken before the table's lock
        is asked for: a flood is refused at the cost of a parse and three buckets."""
        seat = conn.seat
        text = clean_chat(text)
        # A seat's bucket holds for all its tabs; spectators share one link, so each connection has its
        # own; and one more per client address, over all its connections and tables.
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
        if not table.hub.chat_by_address.take(conn.address):
            per_second = table.hub.limits.chat_per_address_per_second
            raise ServerError("rate_limited", f"at most {per_second:g} chat messages a second from one address", 429)
        return cls(conn, text, ref)

    def prepare(self, table: LiveTable) -> list[Write]:
        seat = self.conn.seat
        channel = TABLE if seat is not None else SPECTATORS
        text = clean_chat(self.text)
        cap = table.hub.limits.max_chat_lines
        if table.chat.total >= cap:
            raise ServerError("chat_full", f"this table's chat holds its most messages ({cap})", 409)
        idx = table.chat.total
        self._message = {"idx": idx, "seat": seat, "text": text, "version": table.version, "channel": channel}
        return [AddChat(table.id, idx, seat, text, table.version, channel)]

    def apply(self, table: LiveTable, results: list[Any]) -> int:
        assert self._message is not None
        self._message["created_at"] = results[0]
        table.chat.add(self._message)
        return int(self._message["idx"])

    def announce(self, table: LiveTable) -> None:
        message = self._message
        assert message is not None
        self.conn.push(dumps({"type": "ack", "ref": self.ref, "version": table.version, "chat_idx": message["idx"]}))
        frame = dumps({"type": "chat", "history": False, "messages": [chat_json(message)]})
        for other in list(table.connections):
            if reads(other, message):
                other.push(frame)
