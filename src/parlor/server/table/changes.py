"""Every kind of change to a table in play, one value type each, applied by ``LiveTable.change``.

A change has three steps, called under the table's lock:

* ``prepare(table)``: check it against the table as it is (refuse with a ``ServerError``, changing
  nothing) and return the writes that store it (``storage.writes``; ``[]`` for a change kept in memory
  only, such as a connection arriving at a seat already joined);
* ``apply(table, results)``: once the writes are committed, swap it in (no ``await``), and return what
  the caller gets back;
* ``announce(table)``: tell the connections (frames are derived from the table, see ``frames.py``).

``moves_play``: the change may move whose turn it is or who plays a seat, so the table resets its
clocks and gives its bots their turn after it.

**Adding a kind of change**: a value type here with those three methods, and, if it stores something,
a write in ``storage/writes.py``. The lock, the fence and the order come from ``LiveTable.change``.

The host (whoever created the table holds its host token) may help a table whose player is missing:
a **stand-in** (a bot plays a human seat now, until its player connects) or a **new link** (for a seat
that is *away*: never claimed, or without a connection for ``Limits.relink_after`` seconds).
"""

from __future__ import annotations

import hmac
import logging
import secrets
import time
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Any, ClassVar

from parlor.core import ENGINE_VERSION, IllegalAction, ParlorError, State, replay
from parlor.core.options import options_to_json
from parlor.server.storage import (
    AddChat,
    AddHint,
    AppendDecision,
    ClaimSeat,
    CloseUnplayed,
    CreateTable,
    CreationLimits,
    FreeSeat,
    LeaveSeat,
    NewLink,
    RemoveDecision,
    SeatLimits,
    SeatsToBots,
    SetSeat,
    TakeSeat,
    Write,
    now,
)
from parlor.server.wire import ServerError, dumps

from .chat import CHAT_BURST, CHAT_RATE, SPECTATORS, TABLE, ChatBucket, chat_json, clean_chat, reads
from .clocks import (
    BOT_FOR_HUMAN,
    arm_away,
    arm_timeout,
    bot_mark,
    bot_move_kind,
    clock_runs,
    fill_moment,
    stop_clocks,
)
from .seats import SEAT_REPLACED, Seat, claim_path, clean_name, hash_token, new_token
from .undo import undo_refusal

if TYPE_CHECKING:
    from .connection import Connection
    from .frames import Ack
    from .live import LiveTable

log = logging.getLogger("parlor.server")


class Change:
    """The base of every change: by default nothing to store and nothing to tell."""

    what: ClassVar[str] = "the change"  # named in a refusal: "the action could not be stored"
    moves_play: ClassVar[bool] = False

    def prepare(self, table: LiveTable) -> list[Write]:
        return []

    def apply(self, table: LiveTable, results: list[Any]) -> Any:
        return None

    def announce(self, table: LiveTable) -> None:
        return None


def playing(table: LiveTable) -> None:
    if table.state.is_over or table.status != "playing":
        raise ServerError("game_over", "the game is over", 409)


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


# ---- connections and seats -------------------------------------------------------------------------
@dataclass
class Arrive(Change):
    """A connection opens: a seat's player is here (joined from now on: no stand-in any more), or a
    spectator. It gets its welcome, the whole state, the chat so far and, after "play again", where."""

    conn: Connection
    welcome: dict[str, Any]
    _changed: bool = False

    what: ClassVar[str] = "joining"
    moves_play: ClassVar[bool] = True

    def prepare(self, table: LiveTable) -> list[Write]:
        seat = self.conn.seat
        if seat is None:
            return []
        s = table.seats[seat]
        if not s.joined or s.stand_in or s.open_by is not None:
            return [SetSeat(table.id, seat, s.name, True, False, opened=True)]
        return []

    def apply(self, table: LiveTable, results: list[Any]) -> Connection:
        conn = self.conn
        table.connections.add(conn)
        if conn.seat is not None:
            s = table.seats[conn.seat]
            s.connections += 1
            for timer in (s.timer, s.away_timer, s.open_timer):
                if timer is not None:
                    timer.cancel()
            s.timer = s.away_timer = s.open_timer = None
            self._changed = s.substituted or s.stand_in or not s.joined or s.connections == 1 or s.open_by is not None
            s.open_by = None  # opened: the seat is its holder's
            s.substituted = False
            s.joined, s.stand_in = True, False
        return conn

    def announce(self, table: LiveTable) -> None:
        if self._changed:
            table.frames.broadcast_seats()  # (the new connection is not ready yet: it gets its own below)
        conn = self.conn
        conn.ready = True
        conn.push(dumps(self.welcome | {"table": table.summary()}))
        conn.push(table.frames.full_frame(conn, "join"))
        page = table.chat.page(seat_only=conn.seat is not None)
        conn.push(dumps({"type": "chat", "history": True, **page}))
        if table.next_table is not None:  # "play again" was asked: where (and this seat's new link)
            announce_next(table, only=conn)


@dataclass
class Leave(Change):
    """A connection closed: its seat may turn away (a bot after ``seat_timeout``; a new link later)."""

    conn: Connection

    what: ClassVar[str] = "leaving"

    def apply(self, table: LiveTable, results: list[Any]) -> None:
        leave(table, self.conn)


def leave(table: Any, conn: Connection) -> None:
    """A connection's bookkeeping when it goes (also for a table already let go)."""
    if conn not in table.connections:  # already gone (e.g. its seat was given a new link)
        return
    if not conn.closed:
        conn.closed = True
        conn.queue.put_nowait(None)
    table.connections.discard(conn)
    if conn.seat is not None and hasattr(table, "frames"):
        s = table.seats[conn.seat]
        s.connections -= 1
        if s.connections == 0:
            s.gone_since = time.monotonic()
            arm_timeout(table, s)
            arm_away(table, s, table.away_after)
            table.frames.broadcast_seats()


@dataclass
class Rename(Change):
    """``POST …/join``: a seat's player names itself (and counts as joined)."""

    seat: int
    name: Any

    what: ClassVar[str] = "the name"
    moves_play: ClassVar[bool] = True

    def prepare(self, table: LiveTable) -> list[Write]:
        s = table.seats[self.seat]
        self.name = clean_name(self.name, self.seat, "name") if self.name is not None else s.name
        if s.account_id is not None:  # a seat of an account bears the account's name
            self.name = s.name
        if self.name != s.name or not s.joined or s.stand_in:
            return [SetSeat(table.id, self.seat, self.name, True, False)]
        return []

    def apply(self, table: LiveTable, results: list[Any]) -> None:
        if results:
            s = table.seats[self.seat]
            s.name, s.joined, s.stand_in = self.name, True, False

    def announce(self, table: LiveTable) -> None:
        table.frames.broadcast_seats()


@dataclass
class Claim(Change):
    """A join link's claim code, exchanged once for the seat's own token (only the claimant ever holds
    it). A code used before, or replaced by the host's new link, is refused. Claimed while signed in
    (``account``: its ``id`` and ``name``), the seat belongs to the account and takes its name: its
    player opens it from any device by signing in. One account holds one seat of a table at most."""

    code: Any
    account: dict[str, Any] | None = None
    _seat: Seat | None = None
    _token: str = ""

    what: ClassVar[str] = "the claim"

    def prepare(self, table: LiveTable) -> list[Write]:
        s = seat_of_claim(table, self.code)
        account_id = self.account["id"] if self.account is not None else None
        if account_id is not None:
            held = seat_of_account(table, account_id)
            if held is not None and held != s.seat:  # (its own seat's link, as a rematch hands out: fine)
                raise ServerError(
                    "already_seated", f"your account holds seat {held} at this table already: one seat each", 409
                )
        self._seat, self._token = s, new_token()
        name = self.account["name"] if self.account is not None else None
        return [ClaimSeat(table.id, s.seat, s.claim_hash or "", hash_token(self._token), account_id, name)]

    def apply(self, table: LiveTable, results: list[Any]) -> dict[str, Any]:
        s = self._seat
        assert s is not None
        if not results[0]:  # claimed meanwhile by another server process
            raise link_used()
        s.claim_hash, s.token_hash = None, hash_token(self._token)
        if self.account is not None:
            s.account_id, s.name = self.account["id"], self.account["name"]
        log.info("table %s: seat %d claimed", table.id, s.seat)
        return {"table_id": table.id, "seat": s.seat, "token": self._token}

    def announce(self, table: LiveTable) -> None:
        if self.account is not None:  # the seat's name is the account's from now on
            table.frames.broadcast_seats()


def seat_of_account(table: Any, account_id: str) -> int | None:
    """The seat of ``table`` that belongs to the account, if any."""
    return next((s.seat for s in table.seats if s.account_id is not None and s.account_id == account_id), None)


def open_seat(s: Seat) -> bool:
    """A human seat nobody holds: no token (nobody claimed its link) and no account."""
    return s.is_open


@dataclass
class SitDown(Change):
    """Someone sits down at a public table that waits for players (the lobby, quick play): an open seat
    (``seat``, or the first one) becomes theirs, with a token of its own, as a claimed link would; signed
    in, the seat is the account's. The table's other links keep working for their own seats. A table
    whose wait for bots ran out while nobody sat there (``FillWithBots`` seats no bots then) starts
    that wait again: the one who sits down gets the whole of it, as after a ``StandUp``."""

    seat: Any
    account: dict[str, Any] | None
    name: Any = None
    address: str | None = None  # the client's: the per-address limit on seats held counts it
    _seat: Seat | None = None
    _token: str = ""
    _fill_at: Any = None
    _open_by: Any = None

    what: ClassVar[str] = "the seat"

    def prepare(self, table: LiveTable) -> list[Write]:
        playing(table)
        if not table.public:  # (a seat nobody holds stops the game when its turn comes: it waits for a player)
            raise ServerError("not_open", "this table is private: its links open its seats", 409)
        if self.seat is not None and (type(self.seat) is not int or not 0 <= self.seat < len(table.seats)):
            raise ServerError("bad_seat", "'seat' must be a seat number of this table", field="seat")
        account_id = self.account["id"] if self.account is not None else None
        if account_id is not None and (held := seat_of_account(table, account_id)) is not None:
            raise ServerError("already_seated", f"your account holds seat {held} at this table already", 409)
        free = [s for s in table.seats if open_seat(s) and (self.seat is None or s.seat == self.seat)]
        if not free:
            raise ServerError("seat_taken", "that seat is taken" if self.seat is not None else "the table is full", 409)
        name = self.account["name"] if self.account is not None else clean_name(self.name, free[0].seat, "name")
        self._seat, self._token, self.name = free[0], new_token(), name
        ran_out = (at := fill_moment(table)) is not None and at <= now()
        if ran_out and table.fill_bots_after is not None:
            self._fill_at = now() + timedelta(seconds=table.fill_bots_after)
        caps = table.hub.limits
        self._open_by = now() + timedelta(seconds=caps.sit_open_within)
        limits = SeatLimits(
            hash_token(self.address) if self.address is not None else None,
            caps.max_held_seats_per_address,
            account_id,
            caps.max_held_seats_per_account,
        )
        token_hash = hash_token(self._token)
        return [TakeSeat(table.id, free[0].seat, token_hash, account_id, name, self._fill_at, self._open_by, limits)]

    def apply(self, table: LiveTable, results: list[Any]) -> dict[str, Any]:
        s = self._seat
        assert s is not None
        if not results[0]:
            raise ServerError("seat_taken", "somebody sat down there first", 409)
        s.token_hash, s.claim_hash, s.name = hash_token(self._token), None, self.name
        s.account_id = self.account["id"] if self.account is not None else None
        s.open_by = self._open_by
        table.hub.arm_open(table, s)
        if self._fill_at is not None:
            table.fill_bots_at = self._fill_at
            table.hub.arm_fill(table)
        log.info("table %s: somebody sat down at seat %d", table.id, s.seat)
        return {"table_id": table.id, "seat": s.seat, "token": self._token}

    def announce(self, table: LiveTable) -> None:
        table.frames.broadcast_seats()


@dataclass
class StandUp(Change):
    """A seated player leaves a public table that still waits for players (``POST …/stand-up``): the
    seat is open again for anyone, the connections it had are closed, and the table's wait for bots
    (``fill_bots_after``) starts again from now, so the players who stay get the whole wait for someone
    to take the seat. Once every seat is held the game is on: leaving then is leaving the game (the
    seat timeout's substitute, counted last in a rated game), not standing up."""

    seat: int
    _fill_at: Any = None

    what: ClassVar[str] = "the seat"
    moves_play: ClassVar[bool] = True

    def prepare(self, table: LiveTable) -> list[Write]:
        playing(table)
        s = table.seats[self.seat]
        if not table.public or not any(open_seat(o) for o in table.seats) or self.seat in table.action_seats:
            raise ServerError("not_waiting", "the game is on: this table no longer waits for players", 409)
        if s.token_hash is None:
            raise ServerError("bad_token", "this seat is nobody's to leave", 403)
        if table.fill_bots_after is not None:
            self._fill_at = now() + timedelta(seconds=table.fill_bots_after)
        return [LeaveSeat(table.id, self.seat, s.token_hash, self._fill_at)]

    def apply(self, table: LiveTable, results: list[Any]) -> dict[str, Any]:
        if not results[0]:
            raise ServerError("bad_token", "this seat is nobody's to leave", 403)
        s = table.seats[self.seat]
        s.token_hash = s.account_id = s.name = s.claim_hash = s.open_by = None
        s.joined = s.stand_in = s.substituted = False
        for timer in (s.timer, s.away_timer, s.open_timer):
            if timer is not None:
                timer.cancel()
        s.timer = s.away_timer = s.open_timer = None
        for conn in list(table.connections):
            if conn.seat == self.seat:
                conn.close_with(4403, "you left this table")
        if self._fill_at is not None:
            table.fill_bots_at = self._fill_at
            table.hub.arm_fill(table)  # the new moment; the timer armed for the old one is cancelled
        log.info("table %s: seat %d stood up; the table waits for a player again", table.id, self.seat)
        return {"table_id": table.id, "seat": self.seat, "fill_bots_at": table.fill_bots_at}

    def announce(self, table: LiveTable) -> None:
        table.frames.broadcast_seats()


@dataclass
class FillWithBots(Change):
    """A public table's wait is over (``fill_bots_at``): its open seats become bots of ``level`` (unless
    nobody holds a seat any more: a table of bots alone is nobody's game; it waits on)."""

    level: str

    what: ClassVar[str] = "the seats"
    moves_play: ClassVar[bool] = True

    def prepare(self, table: LiveTable) -> list[Write]:
        playing(table)
        if not any(s.kind == "human" and not open_seat(s) for s in table.seats):
            raise ServerError("not_waiting", "nobody is seated: the table waits for players")
        seats = tuple(s.seat for s in table.seats if open_seat(s))
        return [SeatsToBots(table.id, seats, self.level)]

    def apply(self, table: LiveTable, results: list[Any]) -> None:
        table.fill_bots_at = None
        for s in table.seats:
            if open_seat(s):
                s.kind, s.level, s.joined, s.claim_hash, s.name = "bot", self.level, True, None, None
                for timer in (s.timer, s.away_timer):
                    if timer is not None:
                        timer.cancel()
                s.timer = s.away_timer = None
        log.info("table %s: open seats filled with %s bots", table.id, self.level)

    def announce(self, table: LiveTable) -> None:
        table.frames.broadcast_seats()


@dataclass
class ForgetAccount(Change):
    """An account was deleted: its seat at this table keeps its place and its games, but loses the name
    ("deleted player"); the connections its sessions opened are closed (a seat token's stay)."""

    account_id: str

    what: ClassVar[str] = "the name"

    def prepare(self, table: LiveTable) -> list[Write]:
        seat = seat_of_account(table, self.account_id)
        if seat is None or table.seats[seat].name is None:
            return []
        s = table.seats[seat]
        return [SetSeat(table.id, seat, None, s.joined, s.stand_in)]

    def apply(self, table: LiveTable, results: list[Any]) -> None:
        seat = seat_of_account(table, self.account_id)
        if results and seat is not None:
            table.seats[seat].name = None

    def announce(self, table: LiveTable) -> None:
        table.frames.broadcast_seats()
        for conn in list(table.connections):
            if conn.account_id == self.account_id:
                conn.close_with(4403, "the account was deleted")


def link_used() -> ServerError:
    return ServerError(
        "link_used",
        "this join link was already used to take its seat (or the host replaced it): open the table "
        "in the browser that took the seat, or ask the host for a new link",
        403,
    )


def seat_of_claim(table: Any, code: Any) -> Seat:
    """The seat whose join link ``code`` is (checked on a finished table's stored row too)."""
    if not isinstance(code, str) or not code or len(code) > 200:
        raise ServerError("bad_claim", "a claim code is required (the secret of your join link)", 403)
    digest = hash_token(code)
    for s in table.seats:
        if s.claim_hash is not None and hmac.compare_digest(s.claim_hash, digest):
            return s
    raise link_used()


# ---- the host -------------------------------------------------------------------------------------
def check_host(table: Any, host_token: Any) -> None:
    given = host_token if isinstance(host_token, str) and 0 < len(host_token) <= 200 else None
    if given is None or table.host_hash is None or not hmac.compare_digest(table.host_hash, hash_token(given)):
        raise ServerError("not_host", "only the table's host (the host token from its creation) may do this", 403)


def host_seat(table: LiveTable, seat: Any) -> Seat:
    if table.status != "playing":
        raise ServerError("game_over", "the game is over", 409)
    if type(seat) is not int or not 0 <= seat < len(table.seats):
        raise ServerError("bad_seat", f"no seat {seat!r} at this table (seats 0 to {len(table.seats) - 1})")
    s = table.seats[seat]
    if s.kind != "human":
        raise ServerError("bad_seat", f"seat {seat} is a bot's: only a human seat can be handed over")
    return s


@dataclass
class StandIn(Change):
    """The host lets a bot play ``seat`` until its player connects (``on``), or stops it."""

    host_token: Any
    seat: Any
    on: Any

    what: ClassVar[str] = "the stand-in"
    moves_play: ClassVar[bool] = True

    def prepare(self, table: LiveTable) -> list[Write]:
        check_host(table, self.host_token)
        if type(self.on) is not bool:
            raise ServerError("bad_request", "'on' must be true or false")
        s = host_seat(table, self.seat)
        if self.on and s.connections > 0:
            raise ServerError("bad_seat", f"seat {self.seat}'s player is at the table")
        if s.stand_in != self.on:
            return [SetSeat(table.id, s.seat, s.name, s.joined, self.on)]
        return []

    def apply(self, table: LiveTable, results: list[Any]) -> dict[str, Any]:
        s = table.seats[self.seat]
        if s.stand_in != self.on:
            s.stand_in = self.on
            log.info("table %s: the host %s a bot for seat %d", table.id, "asked" if self.on else "stopped", s.seat)
        return table.summary()

    def announce(self, table: LiveTable) -> None:
        table.frames.broadcast_seats()


@dataclass
class Relink(Change):
    """A new join link for a seat that is away (a fresh claim code): the old link, and the token of
    whoever claimed it, stop working; the seat waits for whoever claims the new link. The host holds the
    link, never the token its claimant will get. A seat whose player is there is refused: it belongs to
    its player. Whoever held the old token is told, when they come back, that the host relinked it."""

    host_token: Any
    seat: Any
    _code: str = ""

    what: ClassVar[str] = "the new link"
    moves_play: ClassVar[bool] = True

    def prepare(self, table: LiveTable) -> list[Write]:
        check_host(table, self.host_token)
        s = host_seat(table, self.seat)
        after = table.hub.limits.relink_after
        if not s.is_away(after):
            raise ServerError(
                "seat_taken",
                f"seat {s.seat}'s player is at the table, or left less than {after:g} seconds ago: a new link is "
                "only for a seat that is away (or was never claimed)",
                409,
            )
        self._code = new_token()
        return [NewLink(table.id, s.seat, hash_token(self._code), s.token_hash or s.replaced_hash)]

    def apply(self, table: LiveTable, results: list[Any]) -> dict[str, Any]:
        s = table.seats[self.seat]
        s.replaced_hash = s.token_hash or s.replaced_hash
        s.claim_hash, s.token_hash, s.name, s.joined, s.stand_in = hash_token(self._code), None, None, False, False
        s.account_id = s.open_by = None  # (the new link's claimant holds it now, signed in or not)
        if s.open_timer is not None:
            s.open_timer.cancel()
            s.open_timer = None
        for conn in [c for c in table.connections if c.seat == s.seat]:
            conn.push(dumps({"type": "error", "code": "seat_replaced", "message": SEAT_REPLACED}))
            conn.close_with(4403, "the host gave this seat a new link")
            leave(table, conn)
        code = self._code
        return {"table": table.summary(), "seat": s.seat, "claim": code, "join_path": claim_path(table.id, code)}

    def announce(self, table: LiveTable) -> None:
        table.frames.broadcast_seats()
        table.frames.send_all({"type": "notice", "code": "seat_relinked", "seat": self.seat})


# ---- timers ---------------------------------------------------------------------------------------
@dataclass
class ClockRanOut(Change):
    """A seat's turn clock ran out: a bot makes this one decision (recorded as by ``clock``)."""

    seat: int

    what: ClassVar[str] = "the clock"
    moves_play: ClassVar[bool] = True

    def apply(self, table: LiveTable, results: list[Any]) -> None:
        s = table.seats[self.seat]
        if s.clock is not None:  # a clock started since this one ran out (a new decision): it runs on
            return
        s.clock_deadline = None
        if clock_runs(table, s):
            log.info("table %s: seat %d's time ran out (version %d): a bot decides", table.id, s.seat, table.version)
            s.clock_out = True  # the bot runner makes the decision; Decide clears it


@dataclass
class SeatTimedOut(Change):
    """A joined seat's player has been away longer than the table's ``seat_timeout``: a bot plays it."""

    seat: int
    _now: bool = False

    what: ClassVar[str] = "the substitution"
    moves_play: ClassVar[bool] = True

    def apply(self, table: LiveTable, results: list[Any]) -> None:
        s = table.seats[self.seat]
        if s.connections > 0 or table.status != "playing" or s.substituted:
            return
        log.info("table %s: seat %d gone for %.1fs, a bot plays it", table.id, s.seat, table.seat_timeout or 0)
        s.substituted = self._now = True

    def announce(self, table: LiveTable) -> None:
        if self._now:
            table.frames.broadcast_seats()


def waits_for_players(table: LiveTable, s: Seat) -> bool:
    """Whether a public table still waits for players as far as seat ``s`` goes: a seat is open and
    ``s`` has made no decision (as for ``StandUp``); otherwise the game is on."""
    return table.public and any(open_seat(o) for o in table.seats) and s.seat not in table.action_seats


@dataclass
class SeatNotOpened(Change):
    """A seat sat down in was not opened by ``open_by`` (its holder never came): at a table still waiting
    for players it is open again for anyone (the wait for bots goes on as it was); once the game is on
    a bot plays it, as for a player away, until its holder opens it."""

    seat: int
    _outcome: str = ""  # decided once, in ``prepare``: "free", "bot", "later" (not due yet) or "" (nothing)

    what: ClassVar[str] = "the unopened seat"
    moves_play: ClassVar[bool] = True

    def prepare(self, table: LiveTable) -> list[Write]:
        s = table.seats[self.seat]
        if table.status != "playing" or s.kind != "human" or s.open_by is None or s.connections > 0:
            return []
        if s.open_by > now():  # (its timer fired a moment early)
            self._outcome = "later"
            return []
        if s.token_hash is not None and waits_for_players(table, s):
            self._outcome = "free"
            return [FreeSeat(table.id, s.seat, s.token_hash)]
        self._outcome = "bot" if not s.substituted else ""
        return []

    def apply(self, table: LiveTable, results: list[Any]) -> None:
        s = table.seats[self.seat]
        if self._outcome == "later":
            table.hub.arm_open(table, s)
        elif self._outcome == "free":
            if not results[0]:  # (opened, or changed, meanwhile by another process: nothing to free)
                self._outcome = ""
                return
            s.token_hash = s.account_id = s.name = s.claim_hash = s.open_by = None
            s.joined = s.stand_in = s.substituted = False
            log.info("table %s: seat %d was not opened in time; it is open again", table.id, s.seat)
        elif self._outcome == "bot":
            s.substituted = True  # (kept in memory: a restart acts on ``open_by`` again)
            log.info("table %s: seat %d was never opened; a bot plays it", table.id, s.seat)

    def announce(self, table: LiveTable) -> None:
        if self._outcome in ("free", "bot"):
            table.frames.broadcast_seats()


@dataclass
class CloseUnjoined(Change):
    """Nobody took the table's human seats within ``Limits.unjoined_table_ttl``: it ends, unplayed."""

    ttl: float
    _result: dict[str, Any] | None = None

    what: ClassVar[str] = "closing"

    def prepare(self, table: LiveTable) -> list[Write]:
        if table.status != "playing" or table.connections or any(s.joined for s in table.seats if s.kind == "human"):
            raise ServerError("stale", "the table is in use")
        self._result = table.abandoned_result(f"nobody joined within {self.ttl:g} seconds", "nobody_joined", self.ttl)
        return [CloseUnplayed(table.id, self._result)]

    def apply(self, table: LiveTable, results: list[Any]) -> None:
        table.status, table.result = "over", self._result
        table.seq += 1
        stop_clocks(table)
        if table.bot_task is not None:
            table.bot_task.cancel()


# ---- play again -----------------------------------------------------------------------------------
@dataclass
class PlayAgain(Change):
    """A new table with the same game, options, seats, bots and host; each human seat gets a new join
    link (a fresh claim code: no token carries over), handed to that seat's own connections only. A
    seat of an account is that account's at the new table too (its player opens it by signing in):
    "rematch" invites the same players."""

    seat: int | None
    address: str | None = None
    ack: Ack = None
    _new: Any = None
    _claims: dict[int, str] = field(default_factory=dict)

    what: ClassVar[str] = "the new table"

    def prepare(self, table: LiveTable) -> list[Write]:
        if self.seat is None:
            raise ServerError("spectator", "spectators cannot start a new game", 403)
        if table.next_table is not None:
            return []
        if table.status != "over":
            raise ServerError("not_over", "the game is not over yet", 409)
        hub = table.hub
        row = {
            "game": table.game.name,
            "players": table.players,
            "options": options_to_json(table.options),
            "seat_timeout": table.seat_timeout,
            "substitute_level": table.substitute_level,
            "spectator_hash": table.spectator_hash,
            "previous_table": table.id,
            "next_table": None,
            "turn_time": table.turn_time,
            "bots_before_join": table.bots_before_join,
            "hints": table.hints_on,
            "host_hash": table.host_hash,
            "creator_hash": hash_token(self.address) if self.address is not None else None,
            "rated": table.rated,  # (a rematch is private: it is for the same players, not the lobby's)
        }
        if table.rated:  # the site's clock and substitute as they are now, as at any rated table's creation
            row.update(hub.rated_settings())
        self._claims = {s.seat: new_token() for s in table.seats if s.kind == "human"}
        seats = [
            {
                "seat": s.seat,
                "kind": s.kind,
                "level": s.level,
                "name": s.name,
                "token_hash": None,
                "claim_hash": hash_token(self._claims[s.seat]) if s.seat in self._claims else None,
                "joined": s.kind == "bot",
                # A rematch: an account's seat stays the account's, opened by signing in (or its new link).
                "account_id": s.account_id if s.kind == "human" else None,
            }
            for s in table.seats
        ]
        row, state = new_table_row(table.game, row)
        self._new = (row, seats, state)
        return [CreateTable(row["id"], row, seats, hub.creation_limits(self.address), link_from=table.id)]

    def apply(self, table: LiveTable, results: list[Any]) -> str:
        if self._new is None:
            return str(table.next_table)
        row, seats, state = self._new
        new = table.hub.register(row, seats, state)
        new.creator = self.address
        table.next_claims = self._claims
        table.next_table = new.id
        return new.id

    def announce(self, table: LiveTable) -> None:
        if self.ack is not None:  # the asker's ack first, with its own seat's new link
            conn, ref = self.ack
            ack = {"type": "ack", "ref": ref, "version": table.version, "table_id": table.next_table}
            if self.seat in table.next_claims:
                ack["join_path"] = claim_path(str(table.next_table), table.next_claims[self.seat])
            conn.push(dumps(ack))
        announce_next(table)


def new_table_row(game: Any, row: dict[str, Any]) -> tuple[dict[str, Any], State]:
    """A new table's row (its id, seed, status) and its first state."""
    seed = secrets.randbelow(1 << 62)
    state = game.new_game(row["players"], seed, game.options_from_json(row["options"]))
    row = {
        **row,
        "id": secrets.token_urlsafe(9),
        "seed": seed,
        "engine_version": ENGINE_VERSION,
        "status": "playing" if not state.is_over else "over",
        "version": 0,
        "created_at": now(),  # the same stamp in memory and in the database
    }
    return row, state


def announce_next(table: LiveTable, only: Connection | None = None) -> None:
    """Tell the table's connections (or one) about the "play again" table; a seat's own frame carries
    that seat's new join link, and nobody else's."""
    for conn in [only] if only is not None else list(table.connections):
        frame: dict[str, Any] = {"type": "next_table", "table_id": table.next_table}
        code = table.next_claims.get(conn.seat) if conn.seat is not None else None
        if code is not None:
            frame["join_path"] = claim_path(str(table.next_table), code)
        conn.push(dumps(frame))


__all__ = [
    "Arrive",
    "Change",
    "Claim",
    "ClockRanOut",
    "CloseUnjoined",
    "CreationLimits",
    "Decide",
    "GiveHint",
    "Leave",
    "PlayAgain",
    "Relink",
    "Rename",
    "Say",
    "SeatNotOpened",
    "SeatTimedOut",
    "StandIn",
    "Undo",
]
