"""Tables and the lobby: a live table's state, creating one, restoring one, playing again."""

from __future__ import annotations

import asyncio
import logging
import secrets
from datetime import UTC
from typing import TYPE_CHECKING, Any

from parlor import games as registry
from parlor.core import ENGINE_VERSION, Event, ParlorError, State
from parlor.core.options import OptionError, options_to_json

from .bot_runner import BOT_LEVELS
from .clocks import BOT_FOR_HUMAN, MAX_TURN_TIME, with_bot_marks
from .protocol import ServerError
from .seats import Seat, claim_path, clean_name, hash_token, join_path, new_token

if TYPE_CHECKING:
    from .broadcast import Connection

log = logging.getLogger("parlor.server")


class StoredTable:
    """What a table's database row says, for a live table and a finished one alike."""

    def __init__(self, row: dict[str, Any]) -> None:
        self.id: str = row["id"]
        self.players: int = row["players"]
        self.status: str = row["status"]
        self.seat_timeout: float | None = row["seat_timeout"]
        self.substitute_level: str = row["substitute_level"]
        self.spectator_hash: str = row["spectator_hash"]
        self.previous_table: str | None = row.get("previous_table")
        self.next_table: str | None = row.get("next_table")
        self.created_at = row.get("created_at")
        self.turn_time: float | None = row.get("turn_time")
        self.bots_before_join: bool = bool(row.get("bots_before_join", False))
        self.result: dict[str, Any] | None = row.get("result")
        self.chat: list[dict[str, Any]] = list(row.get("chat") or [])
        self.connections: set[Connection] = set()
        self.seats: list[Seat] = []


class LiveTable(StoredTable):
    def __init__(self, row: dict[str, Any], state: State) -> None:
        super().__init__(row)
        self.game = state.game
        self.options = state.options
        self.seed: int = row["seed"]
        self.state = state
        self.events: list[tuple[int, Event]] = []  # (decision index, event): the table's log
        self.actions_by: list[str] = []  # who made each decision: player | bot | substitute
        self.action_seats: list[int] = []
        self.rng_before: list[int] = []  # the RNG state before each decision (for undo)
        self.lock = asyncio.Lock()
        self.bot_task: asyncio.Task[None] | None = None
        self.changes = 0  # counts every change (an action, an undo): the key of the cached frames
        self.seat_logs: dict[int | None, tuple[int, list[str]]] = {}  # seat -> (events covered, JSON items)
        self.full_frames: dict[tuple[int | None, str], tuple[int, str]] = {}  # (seat, cause) -> (changes, frame)
        self.reveals: list[bool | None] = []  # per decision: did it show the mover something hidden?
        self.before_last: State | None = None  # the state before the last decision, for that check
        self.creator: str | None = None  # the client address that created it (for the per-address caps)
        self.host_hash: str | None = row.get("host_hash")
        self.chat_lock = asyncio.Lock()
        self.chat_buckets: dict[int, Any] = {}  # seat -> its chat rate bucket
        self.next_claims: dict[int, str] = {}  # after "play again": each human seat's claim code there

    @property
    def version(self) -> int:
        return len(self.actions_by)

    def bot_controls(self, seat: int) -> bool:
        s = self.seats[seat]
        return s.kind == "bot" or s.substituted or s.stand_in or s.clock_out

    def summary(self) -> dict[str, Any]:
        return table_summary(self, options_to_json(self.options))

    def abandoned_result(self, reason: str, code: str, limit: float) -> dict[str, Any]:
        """The result of a game ended by the server (the decision cap, nobody joining): nobody wins.
        ``reason`` is in English for API readers; ``abandoned_code`` and ``abandoned_limit`` let a
        client say it in the reader's language."""
        n = self.players
        return {
            "scores": [0] * n,
            "tiebreaks": [0] * n,
            "places": [1] * n,
            "winners": [],
            "abandoned": reason,
            "abandoned_code": code,
            "abandoned_limit": limit,
            "seats": [{"seat": s.seat, "bot_moves": s.bot_moves, "substituted": s.bot_moves > 0} for s in self.seats],
        }

    def full_result(self) -> dict[str, Any]:
        out = self.state.result().to_json()
        out["seats"] = [{"seat": s.seat, "bot_moves": s.bot_moves, "substituted": s.bot_moves > 0} for s in self.seats]
        return out


class BrokenTable:
    """A table whose record does not replay: listed, never played."""

    def __init__(self, row: dict[str, Any]) -> None:
        self.id = row["id"]
        self.status = "broken"
        self.connections: set[Connection] = set()
        self.bot_task: asyncio.Task[None] | None = None


def table_summary(table: Any, options: dict[str, Any]) -> dict[str, Any]:
    """What ``GET /api/tables/{id}`` says of a table (live or finished), without any secret."""
    created = table.created_at
    if created is not None and created.tzinfo is None:  # SQLite hands back naive stamps; all are UTC
        created = created.replace(tzinfo=UTC)
    return {
        "id": table.id,
        "game": table.game.name,
        "title": table.game.title,
        "players": table.players,
        "options": options,
        "status": table.status,
        "version": table.version,
        "seat_timeout": table.seat_timeout,
        "substitute_level": table.substitute_level,
        "turn_time": table.turn_time,
        "bots_before_join": table.bots_before_join,
        "seats": [s.summary() for s in table.seats],
        "result": table.result,
        "previous_table": table.previous_table,
        "next_table": table.next_table,
        "created_at": created.isoformat().replace("+00:00", "Z") if created is not None else None,
    }


class FinishedTable(StoredTable):
    """A finished table read from the database without replaying its record: enough to describe
    it, authenticate a token and serve its stored replay (``TablesMixin.peek``)."""

    def __init__(self, row: dict[str, Any]) -> None:
        super().__init__(row)
        self.game = registry.get(row["game"])
        self.options_json: dict[str, Any] = row["options"]
        self.version: int = row["version"]
        for s in row["seats"]:
            seat = Seat(s["seat"], s["kind"], s["level"], s["name"], s["token_hash"], bool(s["joined"]))
            seat.stand_in = bool(s.get("stand_in", False))
            seat.bot_moves = row["bot_moves"].get(s["seat"], 0)
            self.seats.append(seat)

    def summary(self) -> dict[str, Any]:
        return table_summary(self, self.options_json)


class TablesMixin:
    """The hub's part that creates, restores and forgets tables."""

    async def get(self, table_id: str) -> LiveTable:
        table = self.tables.get(table_id)
        if table is None:
            table = await self.load(table_id)
        if table is None:
            raise ServerError("table_not_found", f"no table {table_id!r}", 404)
        if table.status == "broken":
            raise ServerError("unavailable", f"table {table_id} is closed: its record no longer replays", 409)
        return table

    async def load(self, table_id: str, claimed: bool = False) -> LiveTable | None:
        """Rebuild a table from the database by replaying its record. One of several processes
        (cluster.py) first takes the table's lease, unless ``claimed`` already."""
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 32:
            return None
        row = await self.run_db(self.db.load, table_id)
        if row is None:
            return None
        if table_id in self.tables:  # loaded meanwhile
            return self.tables[table_id]
        if self.cluster is not None and row["status"] == "playing" and not claimed:
            if not await self.run_db(self.cluster.claim, table_id):
                raise ServerError("unavailable", "another server process plays this table now; try again", 503)
            if table_id in self.tables:
                return self.tables[table_id]
        if row["status"] == "broken":
            broken = BrokenTable(row)
            self.tables[table_id] = broken  # type: ignore[assignment]
            return broken  # type: ignore[return-value]
        try:
            game = registry.get(row["game"])
        except Exception as exc:  # a game missing or failing to import now: retried at the next start
            log.error("table %s cannot be restored now: %s", table_id, exc)
            unavailable = BrokenTable(row)
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
            dummy = BrokenTable(row)
            self.tables[table_id] = dummy  # type: ignore[assignment]
            return dummy  # type: ignore[return-value]
        table = LiveTable(row, state)
        table.events = with_bot_marks(events, row["actions"])
        table.rng_before = rng_before
        table.actions_by = [a["by"] for a in row["actions"]]
        table.action_seats = [a["seat"] for a in row["actions"]]
        table.reveals = [None] * len(row["actions"])
        for s in row["seats"]:
            seat = Seat(s["seat"], s["kind"], s["level"], s["name"], s["token_hash"], bool(s["joined"]))
            seat.stand_in = bool(s.get("stand_in", False))
            seat.claim_hash = s.get("claim_hash")
            if s.get("clock_ends_at") is not None and s.get("clock_version") is not None:
                seat.saved_clock = (s["clock_ends_at"], s["clock_version"])
            table.seats.append(seat)
        for a in row["actions"]:
            if a["by"] in BOT_FOR_HUMAN:
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
            self._reset_clocks(table)
            self.schedule(table)
        return table

    async def peek(self, table_id: str) -> LiveTable | FinishedTable:
        """A table to read: the live one if it is loaded, a finished one straight from the database
        (no replay of its record), else the table loaded to play."""
        table = self.tables.get(table_id)
        if table is not None and table.status != "broken":
            return table
        if table is None and isinstance(table_id, str) and 0 < len(table_id) <= 32:
            row = await self.run_db(self.db.load_head, table_id)
            if row is not None and row["status"] == "over":
                try:
                    return FinishedTable(row)
                except Exception:  # its game cannot be loaded now: the full path says why
                    pass
        return await self.get(table_id)

    def release(self, table: LiveTable | FinishedTable) -> None:
        """Forget a finished table nobody watches (it is loaded again on demand)."""
        if table.status != "playing" and not table.connections and self.tables.get(table.id) is table:
            del self.tables[table.id]

    async def check_creation_allowed(self, address: str | None) -> None:
        """The per-address creation rate and cap on unfinished tables (docs/protocol.md, "Limits"),
        counted from the database: they hold across restarts (and server processes)."""
        if address is None:
            return
        from datetime import timedelta

        from .db import now

        since = now() - timedelta(minutes=1)
        unfinished, recent = await self.run_db(self.db.creations_by, hash_token(address), since)
        if unfinished >= self.limits.max_unfinished_tables_per_address:
            raise ServerError(
                "too_many_tables",
                f"{unfinished} unfinished tables were created from your address already "
                f"(at most {self.limits.max_unfinished_tables_per_address}); finish or leave some first",
                429,
            )
        if recent >= self.limits.tables_per_address_per_minute:
            raise ServerError(
                "rate_limited",
                f"at most {self.limits.tables_per_address_per_minute:g} new tables a minute from one address",
                429,
            )

    async def create(self, body: Any, address: str | None = None) -> dict[str, Any]:
        if not isinstance(body, dict):
            raise ServerError("bad_request", "the body must be a JSON object")
        known = {
            "game",
            "players",
            "options",
            "seats",
            "seat_timeout",
            "substitute_level",
            "turn_time",
            "bots_before_join",
        }
        unknown = sorted(k for k in body if k not in known)
        if unknown:
            raise ServerError(
                "bad_request", f"unknown field {unknown[0]!r}; known: {', '.join(sorted(known))}", field=unknown[0]
            )
        name = body.get("game", "")
        if not isinstance(name, str):
            raise ServerError("unknown_game", "'game' must be a game's name", field="game")
        try:
            game = registry.get(name)
        except (ParlorError, ImportError) as exc:
            raise ServerError("unknown_game", str(exc), field="game") from None
        players = body.get("players", game.min_players)
        raw_options = body.get("options")
        if raw_options is not None and not isinstance(raw_options, dict):
            raise ServerError("bad_options", "'options' must be a JSON object", field="options")
        for name, value in (raw_options or {}).items():
            if type(value) is int and abs(value) > self.limits.max_option_int:
                raise ServerError(
                    "bad_options",
                    f"option {name!r} must lie within ±{self.limits.max_option_int}, got {value}",
                    field=f"options.{name}",
                )
        try:  # the one check of player counts under the options chosen (Game.player_range)
            options = game.options_for(players, raw_options or {})
        except OptionError as exc:
            bad = next((n for n in (raw_options or {}) if repr(n) in str(exc) or str(n) in str(exc)), None)
            raise ServerError("bad_options", str(exc), field=f"options.{bad}" if bad else "options") from None
        except ParlorError as exc:
            raise ServerError("bad_players", str(exc), field="players") from None
        except (TypeError, ValueError) as exc:
            raise ServerError("bad_options", str(exc), field="options") from None
        try:  # the options together with the player count (a seat number in range, teams at 4, …)
            game.new_game(players, 0, options)
        except (ParlorError, TypeError, ValueError) as exc:
            raise ServerError(
                "bad_options", f"these options do not work at {players} players: {exc}", field="options"
            ) from None
        seats_in = body.get("seats")
        if seats_in is None:
            seats_in = [{"kind": "human"}] + [{"kind": "bot", "level": "medium"}] * (players - 1)
        if not isinstance(seats_in, list) or len(seats_in) != players:
            raise ServerError("bad_seats", f"'seats' must be a list of {players} seats", field="seats")
        timeout = body.get("seat_timeout", self.default_seat_timeout)
        if timeout is not None and (
            type(timeout) not in (int, float) or not 0 <= timeout <= self.limits.max_seat_timeout
        ):
            raise ServerError(
                "bad_request",
                f"'seat_timeout' must be a number of seconds from 0 to {self.limits.max_seat_timeout:g}, or null",
                field="seat_timeout",
            )
        substitute = body.get("substitute_level", "medium")
        if substitute not in BOT_LEVELS:
            raise ServerError(
                "bad_request", f"'substitute_level' must be one of {', '.join(BOT_LEVELS)}", field="substitute_level"
            )
        turn_time = body.get("turn_time")
        if turn_time is not None and (
            type(turn_time) not in (int, float) or not 0 < turn_time <= MAX_TURN_TIME or turn_time != turn_time
        ):
            raise ServerError(
                "bad_request",
                f"'turn_time' must be a number of seconds > 0 and <= {MAX_TURN_TIME:g}, or null",
                field="turn_time",
            )
        bots_before_join = body.get("bots_before_join", False)
        if type(bots_before_join) is not bool:
            raise ServerError("bad_request", "'bots_before_join' must be true or false", field="bots_before_join")
        seats: list[dict[str, Any]] = []
        claims: dict[int, str] = {}  # seat -> the one-time code of its join link
        for i, spec in enumerate(seats_in):
            if not isinstance(spec, dict) or spec.get("kind") not in ("human", "bot"):
                raise ServerError(
                    "bad_seats",
                    f"seat {i}: give {{'kind': 'human'}} or {{'kind': 'bot', 'level': …}}",
                    field=f"seats[{i}]",
                )
            name = clean_name(spec.get("name"), i)
            if spec["kind"] == "bot":
                level = spec.get("level", "medium")
                if level not in BOT_LEVELS:
                    raise ServerError(
                        "bad_seats",
                        f"seat {i}: bot level must be one of {', '.join(BOT_LEVELS)}",
                        field=f"seats[{i}].level",
                    )
                seats.append(
                    {
                        "seat": i,
                        "kind": "bot",
                        "level": level,
                        "name": name,
                        "token_hash": None,
                        "claim_hash": None,
                        "joined": True,
                    }
                )
            else:
                claims[i] = new_token()
                seats.append(
                    {
                        "seat": i,
                        "kind": "human",
                        "level": None,
                        "name": name,
                        "token_hash": None,  # set when the link is claimed: only the claimant holds it
                        "claim_hash": hash_token(claims[i]),
                        "joined": False,
                    }
                )
        spectator = new_token()
        host = new_token()
        row = {
            "game": game.name,
            "players": players,
            "options": options_to_json(options),
            "seat_timeout": None if timeout is None else float(timeout),
            "substitute_level": substitute,
            "spectator_hash": hash_token(spectator),
            "previous_table": None,
            "next_table": None,
            "turn_time": None if turn_time is None else float(turn_time),
            "bots_before_join": bots_before_join,
            "host_hash": hash_token(host),
        }
        await self.check_creation_allowed(address)
        row["creator_hash"] = hash_token(address) if address is not None else None
        table = await self._start_table(row, seats)
        table.creator = address
        return {
            "table": table.summary(),
            "seats": [
                {
                    "seat": s["seat"],
                    "kind": "human",
                    "claim": claims[s["seat"]],
                    "join_path": claim_path(table.id, claims[s["seat"]]),
                }
                if s["kind"] == "human"
                else {"seat": s["seat"], "kind": "bot", "level": s["level"]}
                for s in seats
            ],
            "spectator_token": spectator,
            "spectator_path": join_path(table.id, spectator),
            "host_token": host,
        }

    async def _start_table(
        self, row: dict[str, Any], seats: list[dict[str, Any]], link_from: str | None = None
    ) -> LiveTable:
        from .db import now

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
        row["created_at"] = now()  # the same stamp in memory and in the database
        await self.run_db(self.db.create_table, row, seats, link_from)
        table = LiveTable(row, state)
        table.seats = [Seat(s["seat"], s["kind"], s["level"], s["name"], s["token_hash"], s["joined"]) for s in seats]
        for s, spec in zip(table.seats, seats, strict=True):
            s.claim_hash = spec.get("claim_hash")
        if table.status == "over":
            table.result = table.full_result()
        self.tables[table.id] = table
        for s in table.seats:
            if s.kind == "human":
                self._arm_timeout(table, s)
        self._reset_clocks(table)
        self.schedule(table)
        return table

    async def play_again(self, table: LiveTable, seat: int | None, address: str | None = None) -> str:
        """A new table with the same game, options, seats, bots and host; each human seat gets a new
        join link (a fresh claim code: no token carries over), handed to that seat's own connections
        by ``announce_next`` (``table.next_claims``)."""
        if seat is None:
            raise ServerError("spectator", "spectators cannot start a new game", 403)
        async with self._create_lock:
            if table.next_table is not None:
                return table.next_table
            if table.status != "over":
                raise ServerError("not_over", "the game is not over yet", 409)
            await self.check_creation_allowed(address)
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
                "host_hash": table.host_hash,
                "creator_hash": hash_token(address) if address is not None else None,
            }
            claims = {s.seat: new_token() for s in table.seats if s.kind == "human"}
            seats = [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "level": s.level,
                    "name": s.name,
                    "token_hash": None,
                    "claim_hash": hash_token(claims[s.seat]) if s.seat in claims else None,
                    "joined": s.kind == "bot",
                }
                for s in table.seats
            ]
            new = await self._start_table(row, seats, link_from=table.id)
            table.next_claims = claims
            new.creator = address
            table.next_table = new.id
        return new.id
