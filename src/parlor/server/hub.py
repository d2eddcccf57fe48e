"""Tables in play: seats and tokens, connections, bots, timeouts, undo, play again.

The :class:`Hub` owns every live table. All changes to a table happen on the event loop under
the table's lock, in this order: the engine validates the action on a copy of the state, the
database commits the decision and its events, then the live state is replaced and every
connection is sent what it may see. A failure anywhere before the swap leaves the table as it was.

Game-agnostic: only ``parlor.games.get`` and the State protocol are used.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import logging
import random
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from parlor import games as registry
from parlor.bots import LEVELS, make_bot
from parlor.core import ENGINE_VERSION, Event, IllegalAction, ParlorError, State, for_seat
from parlor.core.options import OptionError, options_to_json

from .db import Database

log = logging.getLogger("parlor.server")

BOT_LEVELS = ("easy", "medium", "hard", "expert", "random")
MAX_NAME = 40


Ack = tuple["Connection", Any] | None  # (the connection whose frame caused a change, its ref)


class ServerError(Exception):
    """A refusal with a protocol error code (see docs/protocol.md)."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)  # 32 characters


def bot_level_description(level: str) -> str:
    return LEVELS.get(level, "uniformly random legal moves")


@dataclass
class Seat:
    seat: int
    kind: str  # human | bot
    level: str | None
    name: str | None
    token_hash: str | None
    joined: bool
    connections: int = 0
    gone_since: float = field(default_factory=time.monotonic)
    substituted: bool = False
    bot_moves: int = 0  # decisions a substitute bot made for this human seat
    bot: Any = None
    timer: asyncio.TimerHandle | None = None

    def summary(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "level": self.level,
            "name": self.name,
            "joined": self.joined,
            "connected": self.connections > 0,
            "substituted": self.substituted,
            "bot_moves": self.bot_moves,
        }


class Connection:
    """One WebSocket: a seat (or ``None`` for a spectator) and its outgoing queue."""

    MAX_QUEUE = 1000

    def __init__(
        self,
        table: "LiveTable",
        seat: int | None,
        send: Callable[[str], Any],
        close: Callable[[int, str], Any] | None = None,
    ) -> None:
        self.table = table
        self.seat = seat
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.sent_events = 0  # how much of the table's event log this connection has been offered
        self.closed = False
        self.ready = False  # set once its join frame is queued: broadcasts skip it until then
        self.too_slow = False
        self._send = send
        self._close = close

    def push(self, text: str) -> None:
        if self.closed or not self.ready:
            return
        if self.queue.qsize() >= self.MAX_QUEUE:
            log.warning("dropping a connection that cannot keep up (table %s)", self.table.id)
            self.closed = True
            self.too_slow = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    async def writer(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                if self.too_slow and self._close is not None:
                    await self._close(4008, "too slow: more than 1000 frames waiting")
                return
            await self._send(text)


class LiveTable:
    def __init__(self, row: dict[str, Any], state: State) -> None:
        self.id: str = row["id"]
        self.game = state.game
        self.players: int = row["players"]
        self.options = state.options
        self.seed: int = row["seed"]
        self.status: str = row["status"]
        self.seat_timeout: float | None = row["seat_timeout"]
        self.substitute_level: str = row["substitute_level"]
        self.spectator_hash: str = row["spectator_hash"]
        self.previous_table: str | None = row.get("previous_table")
        self.next_table: str | None = row.get("next_table")
        self.created_at = row.get("created_at")
        self.state = state
        self.seats: list[Seat] = []
        self.events: list[tuple[int, Event]] = []  # (decision index, event): the table's log
        self.actions_by: list[str] = []  # who made each decision: player | bot | substitute
        self.action_seats: list[int] = []
        self.rng_before: list[int] = []  # the RNG state before each decision (for undo)
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.bot_task: asyncio.Task[None] | None = None
        self.result: dict[str, Any] | None = row.get("result")

    @property
    def version(self) -> int:
        return len(self.actions_by)

    def seat_of_token(self, token: str) -> int | bool | None:
        """The seat a token opens, ``None`` for the spectator token, ``False`` for no match."""
        digest = hash_token(token)
        found: int | bool | None = False
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                found = s.seat
        if hmac.compare_digest(self.spectator_hash, digest):
            found = None
        return found

    def bot_controls(self, seat: int) -> bool:
        s = self.seats[seat]
        return s.kind == "bot" or s.substituted

    def summary(self) -> dict[str, Any]:
        created = self.created_at
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "players": self.players,
            "options": options_to_json(self.options),
            "status": self.status,
            "version": self.version,
            "seat_timeout": self.seat_timeout,
            "substitute_level": self.substitute_level,
            "seats": [s.summary() for s in self.seats],
            "result": self.result,
            "previous_table": self.previous_table,
            "next_table": self.next_table,
            "created_at": created.isoformat().replace("+00:00", "Z") if created is not None else None,
        }

    def full_result(self) -> dict[str, Any]:
        out = self.state.result().to_json()
        out["seats"] = [{"seat": s.seat, "bot_moves": s.bot_moves, "substituted": s.bot_moves > 0} for s in self.seats]
        return out

    def undo_refusal(self, seat: int | None) -> str | None:
        """Why ``seat`` may not undo now, or None if it may (rules in docs/protocol.md)."""
        if seat is None:
            return "spectators cannot undo"
        if self.status != "playing":
            return "the game is over"
        if not self.actions_by:
            return "there is nothing to undo"
        last = self.version - 1
        if self.action_seats[last] != seat:
            return "the last decision was not yours"
        if self.actions_by[last] != "player":
            return "the last decision was made by a bot"
        if any(e.visible_to is not None for i, e in reversed(self.events) if i == last):
            return "something hidden was revealed since (a private event)"
        if self.rng_before[last] != self.state.rng.state:
            return "chance happened since (a shuffle or a random draw)"
        return None


def event_json(event: Event) -> dict[str, Any]:
    out: dict[str, Any] = {"event": event.kind, "data": event.data}
    if event.visible_to is not None:
        out["visible_to"] = sorted(event.visible_to)
    return out


@functools.lru_cache(maxsize=8192)
def _plain(markup: str) -> str:
    try:
        from rich.text import Text

        return Text.from_markup(markup).plain
    except Exception:
        return markup


class Hub:
    def __init__(
        self,
        db: Database,
        *,
        bot_delay: float = 0.8,
        default_seat_timeout: float | None = 120.0,
        db_workers: int | None = None,
    ) -> None:
        self.db = db
        self.bot_delay = bot_delay
        self.default_seat_timeout = default_seat_timeout
        self.tables: dict[str, LiveTable] = {}
        self._db_pool = ThreadPoolExecutor(
            max_workers=db_workers or (1 if db.is_sqlite else 4), thread_name_prefix="db"
        )
        self._bot_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="bot")
        self._create_lock = asyncio.Lock()
        self._text_modules: dict[str, Any] = {}
        self._closing = False

    # ---- plumbing -------------------------------------------------------------------------
    async def run_db(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._db_pool, fn, *args)

    async def start(self) -> None:
        await self.run_db(self.db.migrate)
        ids = await self.run_db(self.db.unfinished_ids)
        for table_id in ids:
            await self.load(table_id)
        log.info("restored %d unfinished table(s)", len(ids))

    async def close(self) -> None:
        self._closing = True
        for table in self.tables.values():
            if table.bot_task is not None:
                table.bot_task.cancel()
            for s in table.seats:
                if s.timer is not None:
                    s.timer.cancel()
            for conn in list(table.connections):
                conn.closed = True
                conn.queue.put_nowait(None)
        self._bot_pool.shutdown(wait=False, cancel_futures=True)
        self._db_pool.shutdown(wait=True)
        self.db.close()

    def _text(self, game: Any) -> Any:
        if game.name not in self._text_modules:
            try:
                from parlor.cli.common import text_module

                self._text_modules[game.name] = text_module(game)
            except Exception:
                self._text_modules[game.name] = None
        return self._text_modules[game.name]

    # ---- loading and restoring --------------------------------------------------------------
    async def get(self, table_id: str) -> LiveTable:
        table = self.tables.get(table_id)
        if table is None:
            table = await self.load(table_id)
        if table is None:
            raise ServerError("table_not_found", f"no table {table_id!r}", 404)
        if table.status == "broken":
            raise ServerError("unavailable", f"table {table_id} is closed: its record no longer replays", 409)
        return table

    async def load(self, table_id: str) -> LiveTable | None:
        """Rebuild a table from the database by replaying its record."""
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 32:
            return None
        row = await self.run_db(self.db.load, table_id)
        if row is None:
            return None
        if table_id in self.tables:  # loaded meanwhile
            return self.tables[table_id]
        if row["status"] == "broken":
            broken = _BrokenTable(row)
            self.tables[table_id] = broken  # type: ignore[assignment]
            return broken  # type: ignore[return-value]
        try:
            game = registry.get(row["game"])
        except Exception as exc:  # a game missing or failing to import now: retried at the next start
            log.error("table %s cannot be restored now: %s", table_id, exc)
            unavailable = _BrokenTable(row)
            self.tables[table_id] = unavailable  # type: ignore[assignment]
            return unavailable  # type: ignore[return-value]
        try:
            if row["engine_version"] != ENGINE_VERSION:
                raise ParlorError(f"made by engine version {row['engine_version']}, this is {ENGINE_VERSION}")
            state = game.new_game(row["players"], row["seed"], game.options_from_json(row["options"]))
            rng_before, events = [], []
            for i, entry in enumerate(row["actions"]):
                rng_before.append(state.rng.state)
                try:
                    new = state.apply(entry["seat"], game.action_from_json(entry["action"]))
                except ParlorError as exc:
                    raise ParlorError(f"step {i} does not replay: {exc}") from None
                events.extend((i, e) for e in new)
        except Exception as exc:  # the record does not replay (or the game's code fails on it)
            log.error("table %s cannot be restored: %s", table_id, exc)
            if isinstance(exc, ParlorError):  # for good; a crash in a game's code is retried at the next start
                await self.run_db(self.db.mark_broken, table_id, str(exc))
            row["status"] = "broken"
            dummy = _BrokenTable(row)
            self.tables[table_id] = dummy  # type: ignore[assignment]
            return dummy  # type: ignore[return-value]
        table = LiveTable(row, state)
        table.events = events
        table.rng_before = rng_before
        table.actions_by = [a["by"] for a in row["actions"]]
        table.action_seats = [a["seat"] for a in row["actions"]]
        for s in row["seats"]:
            table.seats.append(Seat(s["seat"], s["kind"], s["level"], s["name"], s["token_hash"], bool(s["joined"])))
        for a in row["actions"]:
            if a["by"] == "substitute":
                table.seats[a["seat"]].bot_moves += 1
        if state.is_over and table.status == "playing":
            table.status = "over"
        if table.status == "over" and table.result is None:
            table.result = table.full_result()
        self.tables[table_id] = table
        if table.status == "playing":
            for s in table.seats:
                if s.kind == "human":
                    self._arm_timeout(table, s)
            self.schedule(table)
        return table

    # ---- creating -------------------------------------------------------------------------
    async def create(self, body: Any) -> dict[str, Any]:
        if not isinstance(body, dict):
            raise ServerError("bad_request", "the body must be a JSON object")
        try:
            game = registry.get(body.get("game", ""))
        except (ParlorError, ImportError) as exc:
            raise ServerError("unknown_game", str(exc)) from None
        players = body.get("players", game.min_players)
        given = body.get("options") or {}
        if not isinstance(given, dict):
            raise ServerError("bad_options", "'options' must be a JSON object")
        try:  # the one check of player counts under the options chosen (Game.player_range)
            options = game.options_for(players, given)
        except OptionError as exc:
            raise ServerError("bad_options", str(exc)) from None
        except ParlorError as exc:
            raise ServerError("bad_players", str(exc)) from None
        except (TypeError, ValueError) as exc:
            raise ServerError("bad_options", str(exc)) from None
        seats_in = body.get("seats")
        if seats_in is None:
            seats_in = [{"kind": "human"}] + [{"kind": "bot", "level": "medium"}] * (players - 1)
        if not isinstance(seats_in, list) or len(seats_in) != players:
            raise ServerError("bad_seats", f"'seats' must be a list of {players} seats")
        timeout = body.get("seat_timeout", self.default_seat_timeout)
        if timeout is not None and (type(timeout) not in (int, float) or timeout < 0):
            raise ServerError("bad_request", "'seat_timeout' must be a number of seconds >= 0 or null")
        substitute = body.get("substitute_level", "medium")
        if substitute not in BOT_LEVELS:
            raise ServerError("bad_request", f"'substitute_level' must be one of {', '.join(BOT_LEVELS)}")
        seats: list[dict[str, Any]] = []
        tokens: dict[int, str] = {}
        for i, spec in enumerate(seats_in):
            if not isinstance(spec, dict) or spec.get("kind") not in ("human", "bot"):
                raise ServerError("bad_seats", f"seat {i}: give {{'kind': 'human'}} or {{'kind': 'bot', 'level': …}}")
            name = _clean_name(spec.get("name"), i)
            if spec["kind"] == "bot":
                level = spec.get("level", "medium")
                if level not in BOT_LEVELS:
                    raise ServerError("bad_seats", f"seat {i}: bot level must be one of {', '.join(BOT_LEVELS)}")
                seats.append(
                    {"seat": i, "kind": "bot", "level": level, "name": name, "token_hash": None, "joined": True}
                )
            else:
                tokens[i] = new_token()
                seats.append(
                    {
                        "seat": i,
                        "kind": "human",
                        "level": None,
                        "name": name,
                        "token_hash": hash_token(tokens[i]),
                        "joined": False,
                    }
                )
        spectator = new_token()
        row = {
            "game": game.name,
            "players": players,
            "options": options_to_json(options),
            "seat_timeout": None if timeout is None else float(timeout),
            "substitute_level": substitute,
            "spectator_hash": hash_token(spectator),
            "previous_table": None,
            "next_table": None,
        }
        table = await self._start_table(row, seats)
        return {
            "table": table.summary(),
            "seats": [
                {
                    "seat": s["seat"],
                    "kind": "human",
                    "token": tokens[s["seat"]],
                    "join_path": _join(table.id, tokens[s["seat"]]),
                }
                if s["kind"] == "human"
                else {"seat": s["seat"], "kind": "bot", "level": s["level"]}
                for s in seats
            ],
            "spectator_token": spectator,
            "spectator_path": _join(table.id, spectator),
        }

    async def _start_table(
        self, row: dict[str, Any], seats: list[dict[str, Any]], link_from: str | None = None
    ) -> LiveTable:
        game = registry.get(row["game"])
        seed = secrets.randbelow(1 << 62)
        state = game.new_game(row["players"], seed, game.options_from_json(row["options"]))
        row = {
            **row,
            "id": secrets.token_urlsafe(9),
            "seed": seed,
            "engine_version": ENGINE_VERSION,
            "status": "playing" if not state.is_over else "over",
            "version": 0,
        }
        await self.run_db(self.db.create_table, row, seats, link_from)
        from .db import now

        row["created_at"] = now()
        table = LiveTable(row, state)
        table.seats = [Seat(s["seat"], s["kind"], s["level"], s["name"], s["token_hash"], s["joined"]) for s in seats]
        if table.status == "over":
            table.result = table.full_result()
        self.tables[table.id] = table
        for s in table.seats:
            if s.kind == "human":
                self._arm_timeout(table, s)
        self.schedule(table)
        return table

    async def play_again(self, table: LiveTable, seat: int | None) -> str:
        if seat is None:
            raise ServerError("spectator", "spectators cannot start a new game", 403)
        async with self._create_lock:
            if table.next_table is not None:
                return table.next_table
            if table.status != "over":
                raise ServerError("not_over", "the game is not over yet", 409)
            row = {
                "game": table.game.name,
                "players": table.players,
                "options": options_to_json(table.options),
                "seat_timeout": table.seat_timeout,
                "substitute_level": table.substitute_level,
                "spectator_hash": table.spectator_hash,
                "previous_table": table.id,
                "next_table": None,
            }
            seats = [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "level": s.level,
                    "name": s.name,
                    "token_hash": s.token_hash,
                    "joined": s.kind == "bot",
                }
                for s in table.seats
            ]
            new = await self._start_table(row, seats, link_from=table.id)
            table.next_table = new.id
        return new.id

    def announce_next(self, table: LiveTable) -> None:
        frame = _dumps({"type": "next_table", "table_id": table.next_table})
        for conn in list(table.connections):
            conn.push(frame)

    # ---- seats, connections and timeouts --------------------------------------------------------
    async def join(self, table: LiveTable, token: Any, name: Any) -> dict[str, Any]:
        seat = self.authenticate(table, token)
        if seat is not None:
            s = table.seats[seat]
            new_name = _clean_name(name, seat) if name is not None else s.name
            if new_name != s.name or not s.joined:
                await self.run_db(self.db.set_seat, table.id, seat, new_name, True)
                s.name, s.joined = new_name, True
                self._broadcast_seats(table)
        return {"role": "spectator" if seat is None else "seat", "seat": seat, "table": table.summary()}

    def authenticate(self, table: LiveTable, token: Any) -> int | None:
        if not isinstance(token, str) or not token or len(token) > 200:
            raise ServerError("bad_token", "a token is required (the secret from your join link)", 403)
        seat = table.seat_of_token(token)
        if seat is False:
            raise ServerError("bad_token", "this token does not open any seat at this table", 403)
        return seat  # type: ignore[return-value]

    async def connect(
        self,
        table: LiveTable,
        seat: int | None,
        send: Callable[[str], Any],
        close: Callable[[int, str], Any] | None = None,
    ) -> Connection:
        conn = Connection(table, seat, send, close)
        table.connections.add(conn)  # at once, so that the table counts as watched; frames wait for ready
        if seat is not None:
            s = table.seats[seat]
            s.connections += 1
            if s.timer is not None:
                s.timer.cancel()
                s.timer = None
            changed = s.substituted or not s.joined
            s.substituted = False
            if not s.joined:
                s.joined = True
                try:
                    await self.run_db(self.db.set_seat, table.id, seat, s.name, True)
                except Exception:  # only the "joined" mark: not worth refusing the player
                    log.exception("table %s: cannot mark seat %d joined", table.id, seat)
            if changed or s.connections == 1:
                self._broadcast_seats(table)
        # Only now (after the last await) may broadcasts reach it: the caller queues the join state at once.
        conn.ready = True
        return conn

    def disconnect(self, conn: Connection) -> None:
        table = conn.table
        conn.closed = True
        conn.queue.put_nowait(None)
        table.connections.discard(conn)
        if conn.seat is not None:
            s = table.seats[conn.seat]
            s.connections -= 1
            if s.connections == 0:
                s.gone_since = time.monotonic()
                self._arm_timeout(table, s)
                self._broadcast_seats(table)
        self.release(table)

    def release(self, table: LiveTable) -> None:
        """Forget a finished table nobody watches (it is loaded again on demand)."""
        if table.status != "playing" and not table.connections and self.tables.get(table.id) is table:
            del self.tables[table.id]

    def _arm_timeout(self, table: LiveTable, s: Seat) -> None:
        if s.timer is not None:
            s.timer.cancel()
            s.timer = None
        if table.seat_timeout is None or s.connections > 0 or table.status != "playing" or self._closing:
            return
        s.gone_since = time.monotonic()
        s.timer = asyncio.get_running_loop().call_later(table.seat_timeout, self._timed_out, table, s)

    def _timed_out(self, table: LiveTable, s: Seat) -> None:
        s.timer = None
        if s.connections > 0 or table.status != "playing" or s.substituted:
            return
        log.info("table %s: seat %d gone for %.1fs, a bot plays it", table.id, s.seat, table.seat_timeout or 0)
        s.substituted = True
        self._broadcast_seats(table)
        self.schedule(table)

    # ---- frames -----------------------------------------------------------------------------
    def state_frame(self, conn: Connection, cause: str, extra_events: list[dict[str, Any]] | None = None) -> str:
        table, seat, state = conn.table, conn.seat, conn.table.state
        if cause in ("join", "sync"):
            conn.sent_events = 0
        new_events = [e for _, e in table.events[conn.sent_events :]]
        conn.sent_events = len(table.events)
        events = [event_json(e) for e in for_seat(new_events, seat)]
        if extra_events:
            events.extend(extra_events)
        over = state.is_over
        legal: list[dict[str, Any]] = []
        view = state.view(seat)
        if seat is not None and not over and seat in state.to_move:
            text = self._text(table.game)
            for a in state.legal_actions(seat):
                entry = {"id": table.game.action_id(a), "action": a.to_json()}
                try:
                    entry["text"] = _plain(text.describe_action(a, view)) if text is not None else str(a)
                except Exception:
                    entry["text"] = str(a)
                legal.append(entry)
        frame = {
            "type": "state",
            "version": table.version,
            "cause": cause,
            "view": view,
            "to_move": list(state.to_move),
            "your_turn": seat is not None and seat in state.to_move,
            "legal": legal,
            "events": events,
            "over": over,
            "result": table.result if over else None,
            "can_undo": table.undo_refusal(seat) is None,
        }
        return _dumps(frame)

    def _broadcast_state(
        self, table: LiveTable, cause: str, extra: list[dict[str, Any]] | None = None, ack: Ack = None
    ) -> None:
        for conn in list(table.connections):
            if not conn.ready:
                continue
            if ack is not None and ack[0] is conn:  # the committed change is acknowledged before its state
                conn.push(_dumps({"type": "ack", "ref": ack[1], "version": table.version}))
            try:
                conn.push(self.state_frame(conn, cause, extra))
            except Exception:  # a view that fails (a game's bug) must not stop the others' frames
                log.exception("table %s: cannot build the state frame for seat %s", table.id, conn.seat)
                conn.push(_dumps({"type": "error", "code": "server_error", "message": "cannot show the table"}))

    def _broadcast_seats(self, table: LiveTable) -> None:
        frame = _dumps({"type": "seats", "seats": [s.summary() for s in table.seats]})
        for conn in list(table.connections):
            conn.push(frame)

    # ---- acting ------------------------------------------------------------------------------
    async def act(self, conn: Connection, msg: dict[str, Any], ref: Any = None) -> int:
        """A client's action; returns the new version once committed (raises ServerError)."""
        table, seat = conn.table, conn.seat
        if seat is None:
            raise ServerError("spectator", "spectators cannot act")
        if "seat" in msg and msg["seat"] != seat:
            raise ServerError("wrong_seat", f"this connection holds seat {seat}, not {msg['seat']!r}")
        version = msg.get("version")
        if version is not None and type(version) is not int:
            raise ServerError("bad_frame", "'version' must be an integer")
        async with table.lock:
            if table.status == "broken":
                raise ServerError("unavailable", "this table is closed")
            state = table.state
            if state.is_over:
                raise ServerError("game_over", "the game is over")
            if version is not None and version != table.version:
                raise ServerError("stale", f"the table is at version {table.version}, not {version}")
            if seat not in state.to_move:
                raise ServerError(
                    "not_your_turn", f"seat {seat} is not to move (waiting for seat(s) {list(state.to_move)})"
                )
            try:
                if "id" in msg:
                    if type(msg["id"]) is not int:
                        raise IllegalAction("'id' must be an integer action id")
                    action = table.game.action_from_id(msg["id"])
                elif "action" in msg:
                    action = table.game.action_from_json(msg["action"])
                else:
                    raise ServerError("bad_frame", "an action frame needs 'action' (the action's JSON) or 'id'")
            except ServerError:
                raise
            except (ParlorError, ValueError, TypeError, KeyError, IndexError) as exc:
                raise ServerError("illegal_action", f"not an action of {table.game.title}: {exc}") from None
            await self._commit(table, seat, action, "player", (conn, ref))
            return table.version

    async def _commit(self, table: LiveTable, seat: int, action: Any, by: str, ack: Ack = None) -> None:
        """Validate on a copy, store, then swap in; the caller holds ``table.lock``."""
        new = table.state.clone()
        try:
            events = new.apply(seat, action)
        except IllegalAction as exc:
            raise ServerError("illegal_action", str(exc)) from None
        except Exception as exc:  # a bug in a game's rules: refuse the move, keep the table as it was
            log.exception("table %s: the engine failed on %s by seat %d", table.id, action, seat)
            raise ServerError("server_error", f"the game engine failed on this action ({type(exc).__name__})") from None
        idx = table.version
        status = "over" if new.is_over else "playing"
        result = None
        stored = [(e.kind, e.data, None if e.visible_to is None else sorted(e.visible_to)) for e in events]
        if new.is_over:
            old_state = table.state
            table.state = new
            if by == "substitute":
                table.seats[seat].bot_moves += 1
            result = table.full_result()
            table.state = old_state
            if by == "substitute":
                table.seats[seat].bot_moves -= 1
        try:
            await self.run_db(
                self.db.append_action,
                table.id,
                idx,
                seat,
                action.to_json(),
                by,
                len(table.events),
                stored,
                status,
                result,
            )
        except Exception as exc:
            log.exception("table %s: cannot store decision %d", table.id, idx)
            raise ServerError(
                "server_error", f"the action could not be stored ({type(exc).__name__}); try again"
            ) from None
        table.rng_before.append(table.state.rng.state)
        table.state = new
        table.actions_by.append(by)
        table.action_seats.append(seat)
        table.events.extend((idx, e) for e in events)
        if by == "substitute":
            table.seats[seat].bot_moves += 1
        if new.is_over:
            table.status = "over"
            table.result = result
            for s in table.seats:
                if s.timer is not None:
                    s.timer.cancel()
                    s.timer = None
        self.after_change(table, "action", ack=ack)

    def after_change(
        self, table: LiveTable, cause: str, extra: list[dict[str, Any]] | None = None, ack: Ack = None
    ) -> None:
        self.schedule(table)
        self._broadcast_state(table, cause, extra, ack)

    async def undo(self, conn: Connection, ref: Any = None) -> int:
        table, seat = conn.table, conn.seat
        async with table.lock:
            why = table.undo_refusal(seat)
            if why is not None:
                raise ServerError("undo_not_allowed", f"cannot undo: {why}")
            last = table.version - 1
            record = table.state.record()
            record["actions"] = record["actions"][:-1]
            from parlor.core import replay

            state = replay(record)
            try:
                await self.run_db(self.db.remove_last_action, table.id, last)
            except Exception as exc:
                log.exception("table %s: cannot undo", table.id)
                raise ServerError("server_error", f"the undo could not be stored ({type(exc).__name__})") from None
            table.state = state
            table.actions_by.pop()
            table.action_seats.pop()
            table.rng_before.pop()
            while table.events and table.events[-1][0] == last:
                table.events.pop()
            for c in table.connections:
                c.sent_events = min(c.sent_events, len(table.events))
            self.after_change(
                table, "undo", [{"event": "undone", "data": {"seat": seat, "version": last}}], (conn, ref)
            )
            return table.version

    # ---- replay -----------------------------------------------------------------------------
    async def replay(self, table: LiveTable) -> dict[str, Any]:
        """A finished table's game as a spectator saw it (``GET /api/tables/{id}/replay``)."""
        if table.status != "over":
            raise ServerError("not_over", f"table {table.id} is not finished: the replay opens after the end", 409)
        record = table.state.record()  # holds the seed: used here only, never sent
        steps = await asyncio.get_running_loop().run_in_executor(None, spectator_steps, table.game, record)
        return {"table": table.summary(), "steps": steps, "result": table.result}

    # ---- bots -------------------------------------------------------------------------------
    def schedule(self, table: LiveTable) -> None:
        """Start the table's bot loop if a bot (or a substitute) is to move."""
        if self._closing or table.status != "playing":
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        if any(table.bot_controls(s) for s in table.state.to_move):
            table.bot_task = asyncio.get_running_loop().create_task(self._bot_loop(table))

    def _bot_for(self, table: LiveTable, seat: int) -> Any:
        s = table.seats[seat]
        level = s.level if s.kind == "bot" else table.substitute_level
        if s.bot is None or getattr(s, "_bot_level", None) != level:
            s.bot = make_bot(level or "medium", table.game, (table.seed * 31 + seat * 7919 + 17) % (1 << 62))
            s._bot_level = level  # type: ignore[attr-defined]
        return s.bot

    async def _bot_loop(self, table: LiveTable) -> None:
        loop = asyncio.get_running_loop()
        try:
            while not self._closing and table.status == "playing":
                seats = [s for s in table.state.to_move if table.bot_controls(s)]
                if not seats:
                    return
                if self.bot_delay > 0:
                    await asyncio.sleep(self.bot_delay * random.uniform(0.6, 1.4))
                async with table.lock:
                    seat = next((s for s in table.state.to_move if table.bot_controls(s)), None)
                    if seat is None or table.status != "playing":
                        continue
                    by = "bot" if table.seats[seat].kind == "bot" else "substitute"
                    bot = self._bot_for(table, seat)
                    snapshot = table.state.clone()
                    try:
                        # In a worker thread, on a copy: a search bot thinks for up to a second or so, and
                        # even a fast heuristic measured no slower this way (it overlaps the loop's I/O).
                        action = await loop.run_in_executor(self._bot_pool, bot.choose, snapshot, seat)
                    except Exception:
                        log.exception("table %s: bot for seat %d failed; playing a random move", table.id, seat)
                        action = random.choice(table.state.legal_actions(seat))
                    try:
                        await self._commit(table, seat, action, by)
                    except ServerError as exc:
                        log.error("table %s: bot move refused: %s", table.id, exc.message)
                        await asyncio.sleep(0.5)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: bot loop crashed", table.id)
        finally:
            if table.bot_task is asyncio.current_task():
                table.bot_task = None


def spectator_steps(game: Any, record: dict[str, Any]) -> list[dict[str, Any]]:
    """Rebuild a record step by step: the start, then after each decision, what a spectator saw then
    (``view(None)``, whose turn it was, and that step's public events). No seed, action or private event."""
    state = game.new_game(record["players"], record["seed"], game.options_from_json(record.get("options")))

    def step(index: int, events: list[Event]) -> dict[str, Any]:
        return {
            "step": index,
            "view": state.view(None),
            "to_move": list(state.to_move),
            "events": [event_json(e) for e in for_seat(events, None)],
        }

    steps = [step(0, [])]
    for i, (seat, action_json) in enumerate(record["actions"], start=1):
        steps.append(step(i, state.apply(seat, game.action_from_json(action_json))))
    return steps


class _BrokenTable:
    """A table whose record does not replay: listed, never played."""

    def __init__(self, row: dict[str, Any]) -> None:
        self.id = row["id"]
        self.status = "broken"
        self.connections: set[Connection] = set()


def _clean_name(name: Any, seat: int) -> str | None:
    if name is None:
        return None
    if not isinstance(name, str):
        raise ServerError("bad_request", f"seat {seat}: a name must be a string")
    name = " ".join(name.split())[:MAX_NAME]
    return name or None


def _join(table_id: str, token: str) -> str:
    return f"/play/{table_id}#token={token}"


def _dumps(value: Any) -> str:
    import json

    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
