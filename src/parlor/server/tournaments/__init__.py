"""Swiss tournaments for the site's players (docs/protocol.md, "Tournaments").

A feature beside ``table/`` (docs/server.md): its routes are ``edge/tournaments.py``; it stores
through ``storage.TournamentStore`` (no table's rows: not fenced); each round's tables are ordinary
site tables the hub makes (rated ones are ordinary rated games), each seat claimed for its player's
account, so the player opens it signed in, from any device; and it hears of a game's end through
the hub's ``finished_hooks``, never by ``table/`` importing it.

Time: a scheduler (:meth:`Tournaments.scan_forever`) looks every ``scan_every`` seconds for the
tournaments whose start time has come (round 1 is made then) and for running ones whose round has
ended without anyone noticing (a process stopped between a game's end and its record). The service
reads the time from its :class:`TournamentClock`, which tests move forward.

Everything that must happen once happens by a compare-and-set in the database (the start, each
round, each table's points), so several processes of a site may all scan and hear games end.

Turn-based tournaments (``move_days``): a round's tables are turn-based tables (``days_per_move``),
each seat claimed for its account as the round is made, so every seat asked holds its stored deadline
(and its player is told it is their turn) from the round's start; a round nobody opens still ends,
each timed-out decision played by the seat's substitute (the turn-based tables' rule).

The "tournament round" notification goes through a hook:

* **a "tournament round" notification**: :meth:`Tournaments.notify_round`, called once a round's
  tables are made, which awaits each of :attr:`Tournaments.round_hooks` with
  ``(tournament, round_no, boards)`` (``boards``: each table's ``table_id``, its seats' account ids,
  None for a bot seat, and whether it is a bye); nothing is registered here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError

from parlor import games as registry
from parlor.core import ParlorError
from parlor.server.ratings import players_class
from parlor.server.storage import Refused, TournamentStore
from parlor.server.table import Claim, Hub, LiveTable, NewTableRequest, SeatRequest
from parlor.server.table.changes import CloseUnjoined
from parlor.server.table.clocks import MAX_TURN_TIME
from parlor.server.table.requests import MAX_DAYS_PER_MOVE
from parlor.server.wire import ServerError, loads

from .pairing import Entrant, max_rounds, pair_round, standings, table_points

log = logging.getLogger("parlor.server")

SCAN_EVERY = 5.0  # seconds between the scheduler's looks at the stored start times
MAX_NAME = 80
MAX_PLAYERS = 256  # signed-up players a tournament may take
MAX_ROUNDS = 20
MAX_AHEAD = timedelta(days=90)  # how far ahead a tournament may start
DEFAULT_RATING = 25.0  # openskill's starting mu: a player with no rating yet for the game
FIELDS = ("name", "game", "players", "starts_at", "rounds", "turn_time", "move_days", "rated", "max_players")

REFUSALS: dict[str, tuple[str, int]] = {
    "tournament_not_found": ("no such tournament", 404),
    "started": ("the tournament has started: sign-ups are closed", 409),
    "full": ("the tournament is full", 409),
    "already_signed_up": ("you are signed up for this tournament already", 409),
    "not_signed_up": ("you are not in this tournament", 409),
    "tournament_over": ("the tournament is over", 409),
}


def refused(exc: Refused) -> ServerError:
    message, status = REFUSALS[exc.code]
    return ServerError(exc.code, message, status)


class TournamentClock:
    """The tournaments' now: the real UTC time, moved forward by ``offset`` (tests move it; the
    server never does)."""

    def __init__(self) -> None:
        self.offset = timedelta(0)

    def now(self) -> datetime:
        return datetime.now(UTC) + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += timedelta(seconds=seconds)


def table_clock(tournament: dict[str, Any]) -> tuple[float | None, int | None]:
    """The clock of a round's tables: (seconds per move, None) for a live tournament, (None, days per
    move) for a turn-based one (``move_days``)."""
    if tournament.get("move_days") is not None:
        return None, int(tournament["move_days"])
    return tournament["turn_time"], None


def parse_start(raw: Any) -> datetime:
    if not isinstance(raw, str) or len(raw) > 40:
        raise ServerError("bad_request", "'starts_at' must be an ISO 8601 time with its zone", field="starts_at")
    try:
        at = datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError:
        raise ServerError(
            "bad_request", "'starts_at' must be an ISO 8601 time with its zone", field="starts_at"
        ) from None
    if at.tzinfo is None:
        raise ServerError("bad_request", "'starts_at' must say its time zone (e.g. 'Z')", field="starts_at")
    return at.astimezone(UTC)


class Tournaments:
    def __init__(self, hub: Hub, clock: TournamentClock | None = None, scan_every: float = SCAN_EVERY) -> None:
        self.hub = hub
        self.store = TournamentStore(hub.db)
        self.clock = clock or TournamentClock()
        self.scan_every = scan_every
        self._advancing: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        # The notifications feature's place: awaited with (tournament, round_no, boards) once a round's
        # tables are made (see the module's docstring).
        self.round_hooks: list[Callable[[dict[str, Any], int, list[dict[str, Any]]], Awaitable[None]]] = []
        hub.finished_hooks.append(self.game_ended)

    async def _do(self, fn: Any, *args: Any) -> Any:
        try:
            return await self.hub.run_db(fn, *args)
        except Refused as exc:
            raise refused(exc) from None

    # ---- making, listing, showing ----------------------------------------------------------------
    def _check_new(self, body: dict[str, Any]) -> dict[str, Any]:
        """A new tournament's fields checked one by one (the first fault answered, naming its field)."""
        unknown = sorted(k for k in body if k not in FIELDS)
        if unknown:
            raise ServerError(
                "bad_request", f"unknown field {unknown[0]!r}; known: {', '.join(FIELDS)}", field=unknown[0]
            )
        name = body.get("name")
        if not isinstance(name, str) or not 0 < len(" ".join(name.split())) <= MAX_NAME:
            raise ServerError(
                "bad_request",
                f"'name' must be 1 to {MAX_NAME} characters",
                field="name",
                extra={"min": 1, "max": MAX_NAME},
            )
        game_name = body.get("game")
        if not isinstance(game_name, str):
            raise ServerError("unknown_game", "'game' must be a game's name", field="game")
        try:
            game = registry.get(game_name)
        except (ParlorError, ImportError) as exc:
            raise ServerError("unknown_game", str(exc), field="game") from None
        players = body.get("players")
        low, high = game.player_range()
        if type(players) is not int or not low <= players <= min(high, 5):
            raise ServerError(
                "bad_players", f"'players' must be a count {game.title} is played by: {low} to {min(high, 5)}",
                field="players", extra={"min": low, "max": min(high, 5)},
            )  # fmt: skip
        starts_at = parse_start(body.get("starts_at"))
        stamp = self.clock.now()
        if starts_at <= stamp:
            raise ServerError("start_in_past", "'starts_at' has passed: give a time to come", field="starts_at")
        if starts_at > stamp + MAX_AHEAD:
            raise ServerError(
                "bad_request", f"'starts_at' must be within {MAX_AHEAD.days} days", field="starts_at",
                extra={"max_days": MAX_AHEAD.days},
            )  # fmt: skip
        max_players = body.get("max_players")
        if type(max_players) is not int or not players <= max_players <= MAX_PLAYERS:
            raise ServerError(
                "bad_request",
                f"'max_players' must be a whole number from {players} to {MAX_PLAYERS}",
                field="max_players",
                extra={"min": players, "max": MAX_PLAYERS},
            )
        rounds = body.get("rounds")
        if type(rounds) is not int or rounds < 1 or rounds > MAX_ROUNDS:
            raise ServerError(
                "bad_request",
                f"'rounds' must be from 1 to {MAX_ROUNDS}",
                field="rounds",
                extra={"min": 1, "max": MAX_ROUNDS},
            )
        allowed = max_rounds(max_players, players)
        if rounds > allowed:
            raise ServerError(
                "too_many_rounds",
                f"{max_players} players at tables of {players} allow {allowed} round(s) without meeting an opponent"
                " twice",
                field="rounds",
                extra={"min": 1, "max": allowed},
            )
        move_days = body.get("move_days")
        if move_days is not None:  # turn-based: the days per move are the clock, never seconds as well
            if type(move_days) is not int or not 1 <= move_days <= MAX_DAYS_PER_MOVE:
                raise ServerError(
                    "bad_request", f"'move_days' must be a whole number of days from 1 to {MAX_DAYS_PER_MOVE}, or null",
                    field="move_days", extra={"min": 1, "max": MAX_DAYS_PER_MOVE},
                )  # fmt: skip
            if body.get("turn_time") is not None:
                raise ServerError(
                    "bad_request", "a turn-based tournament ('move_days') has no 'turn_time'", field="move_days"
                )
        turn_time = None if move_days is not None else body.get("turn_time", 60)
        floor = self.hub.limits.min_turn_time
        if turn_time is not None and (type(turn_time) not in (int, float) or not floor <= turn_time <= MAX_TURN_TIME):
            raise ServerError(
                "bad_request", f"'turn_time' must be seconds per move from {floor:g} to {MAX_TURN_TIME:g}",
                field="turn_time", extra={"min": floor, "max": MAX_TURN_TIME},
            )  # fmt: skip
        rated = body.get("rated", False)
        if type(rated) is not bool:
            raise ServerError("bad_request", "'rated' must be true or false", field="rated")
        return {
            "name": " ".join(name.split()),
            "game": game.name,
            "players": players,
            "starts_at": starts_at,
            "rounds": rounds,
            "turn_time": None if turn_time is None else float(turn_time),
            "move_days": move_days,
            "rated": rated,
            "max_players": max_players,
        }

    async def create(self, me: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
        row = self._check_new(body)
        row |= {
            "id": secrets.token_urlsafe(9),
            "creator_account": me["id"],
            "status": "upcoming",
            "current_round": 0,
            "round_started_at": None,
            "created_at": self.clock.now(),
        }
        await self.hub.run_db(self.store.create, row)
        return await self.show(row["id"], me)

    async def listing(self) -> dict[str, Any]:
        """The upcoming tournaments (soonest first), the running and the finished ones (newest first)."""
        return {
            "upcoming": await self.hub.run_db(self.store.listing, ["upcoming"]),
            "running": await self.hub.run_db(self.store.listing, ["running"]),
            "finished": await self.hub.run_db(self.store.listing, ["finished", "cancelled"], 30),
        }

    async def _stored(self, tournament_id: Any) -> dict[str, Any]:
        if not isinstance(tournament_id, str) or not 0 < len(tournament_id) <= 32:
            raise refused(Refused("tournament_not_found"))
        found = await self.hub.run_db(self.store.tournament, tournament_id)
        if found is None:
            raise refused(Refused("tournament_not_found"))
        return found

    async def show(self, tournament_id: Any, me: dict[str, Any] | None) -> dict[str, Any]:
        """A tournament as its page shows it: its players, standings and rounds (the accounts by name:
        an account's id is never shown)."""
        t = await self._stored(tournament_id)
        names = {p["id"]: p["name"] for p in t["entrants"]}
        table = await self._standings(t)
        rounds: dict[int, list[dict[str, Any]]] = {}
        for board in t["tables"]:
            rounds.setdefault(board["round"], []).append(
                {
                    "board": board["board"],
                    "bye": board["bye"],
                    "table_id": board["table_id"],
                    "seats": [None if a is None else {"name": names.get(a)} for a in board["seats"]],
                    "points": board["points"],
                }
            )
        mine = next((p for p in t["entrants"] if me is not None and p["id"] == me["id"]), None)
        out = {k: v for k, v in t.items() if k not in ("entrants", "tables")}
        out["entrants"] = [{"name": p["name"], "withdrawn_round": p["withdrawn_round"]} for p in t["entrants"]]
        out["standings"] = [
            {"rank": i + 1, "name": names.get(s.account_id), "score": s.score, "buchholz": s.buchholz,
             "withdrawn": s.withdrawn}
            for i, s in enumerate(table)
        ]  # fmt: skip
        out["round_tables"] = [{"round": r, "tables": boards} for r, boards in sorted(rounds.items())]
        out["you"] = None if me is None else {
            "signed_up": mine is not None and mine["withdrawn_round"] is None,
            "withdrawn_round": None if mine is None else mine["withdrawn_round"],
        }  # fmt: skip
        return out

    async def _standings(self, t: dict[str, Any]) -> list[Any]:
        ids = [p["id"] for p in t["entrants"]]
        ratings = await self.hub.run_db(self.store.ratings, t["game"], players_class(t["players"]), ids)
        games = [(b["seats"], b["points"]) for b in t["tables"] if not b["bye"] and b["points"] is not None]
        rounds_of = [b["round"] for b in t["tables"] if not b["bye"] and b["points"] is not None]
        byes = [b["seats"][0] for b in t["tables"] if b["bye"]]
        gone = {p["id"]: p["withdrawn_round"] for p in t["entrants"] if p["withdrawn_round"] is not None}
        return standings({i: ratings.get(i, DEFAULT_RATING) for i in ids}, games, byes, gone, rounds_of)

    # ---- signing up -------------------------------------------------------------------------------
    async def sign_up(self, me: dict[str, Any], tournament_id: Any) -> dict[str, Any]:
        await self._stored(tournament_id)
        await self._do(self.store.sign_up, tournament_id, me["id"], self.clock.now())
        return {"signed_up": True}

    async def withdraw(self, me: dict[str, Any], tournament_id: Any) -> dict[str, Any]:
        """Before the start: the sign-up is gone. Once it runs: the player is not paired any more, and
        the game they are at and the rest count as losses."""
        await self._stored(tournament_id)
        left_in = await self._do(self.store.withdraw, tournament_id, me["id"], self.clock.now())
        return {"signed_up": False, "withdrawn_round": left_in}

    # ---- the scheduler -----------------------------------------------------------------------------
    async def scan_forever(self) -> None:
        while True:
            await asyncio.sleep(self.scan_every)
            try:
                await self.scan()
            except Exception:  # (the database away a moment: the next scan tries again)
                log.exception("the tournaments' scan failed")

    async def scan(self) -> None:
        """Start the tournaments whose time has come; move on the running ones whose round has ended."""
        stamp = self.clock.now()
        starting, running = await self.hub.run_db(self.store.due, stamp)
        for tournament_id in starting:
            if await self.hub.run_db(self.store.begin, tournament_id, stamp, max_rounds):
                log.info("tournament %s started", tournament_id)
                running.append(tournament_id)
        for tournament_id in running:
            await self.advance(tournament_id, catch_up=True)

    # ---- the rounds ---------------------------------------------------------------------------------
    def game_ended(self, table: LiveTable) -> None:
        """A hub hook (called on the event loop once the game's end is stored): a tournament's table
        records its points and, the round over, the next round is made."""
        result = dict(table.result or {})
        task = asyncio.get_running_loop().create_task(self._after_game(table.id, result))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _after_game(self, table_id: str, result: dict[str, Any]) -> None:
        try:
            board = await self.hub.run_db(self.store.board_of, table_id)
            if board is None or board["done"]:
                return
            if await self.hub.run_db(self.store.record, table_id, table_points(result, board["seats"])):
                await self.advance(board["tournament_id"])
        except Exception:  # (the scan records it later from the stored result)
            log.exception("tournament table %s: recording its points failed", table_id)

    async def advance(self, tournament_id: str, catch_up: bool = False) -> None:
        """Make the next round when every table of the current one has ended (or finish the tournament);
        ``catch_up``: record first the points of ended tables nobody recorded."""
        lock = self._advancing.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            t = await self.hub.run_db(self.store.tournament, tournament_id)
            if t is None or t["status"] != "running":
                return
            current = t["current_round"]
            boards = [b for b in t["tables"] if b["round"] == current]
            if current > 0 and not boards:  # the round was claimed by a process stopped before pairing it
                await self._pair(t, current)
                return
            if any(b["table_id"] is None and not b["bye"] for b in boards):
                await self._open_tables(t, current)
                return
            waiting = [b for b in boards if b["points"] is None]
            if waiting and catch_up:
                stored = await self.hub.run_db(self.store.table_results, [b["table_id"] for b in waiting])
                for b in waiting:
                    if stored.get(b["table_id"]):
                        points = table_points(loads(stored[b["table_id"]]), b["seats"])
                        if await self.hub.run_db(self.store.record, b["table_id"], points):
                            b["points"] = points
                waiting = [b for b in waiting if b["points"] is None]
            if waiting:
                return
            if current >= t["rounds"]:
                if await self.hub.run_db(self.store.finish, tournament_id, current):
                    log.info("tournament %s finished", tournament_id)
                return
            if await self.hub.run_db(self.store.claim_round, tournament_id, current + 1, self.clock.now()):
                # Read again after the claim: a withdrawal stored before it is not paired (one stored
                # after it leaves from the new round, whose game then counts as a loss).
                fresh = await self.hub.run_db(self.store.tournament, tournament_id)
                await self._pair(fresh, current + 1)

    async def _pair(self, t: dict[str, Any], round_no: int) -> None:
        """Pair the round from the standings so far, store it, then make its tables."""
        table = await self._standings(t)
        active = {p["id"] for p in t["entrants"] if p["withdrawn_round"] is None}
        seats_of: dict[str, list[int]] = {i: [0] * t["players"] for i in active}
        byes: dict[str, int] = dict.fromkeys(active, 0)
        for b in t["tables"]:
            for seat, account in enumerate(b["seats"]):
                if account in active:
                    if b["bye"]:
                        byes[account] += 1
                    else:
                        seats_of[account][seat] += 1
        entrants = [
            Entrant(s.account_id, s.score, s.rating, frozenset(s.opponents), tuple(seats_of[s.account_id]),
                    byes[s.account_id])
            for s in table
            if s.account_id in active
        ]  # fmt: skip
        made = pair_round(entrants, t["players"])
        if not made.tables and not made.byes:  # everyone withdrew: nothing left to play
            if await self.hub.run_db(self.store.finish, t["id"], round_no):
                log.info("tournament %s finished: every player withdrew", t["id"])
            return
        with contextlib.suppress(IntegrityError):  # (another process paired it first: its pairing stands)
            await self.hub.run_db(self.store.store_round, t["id"], round_no, made.tables, made.byes)
        fresh = await self.hub.run_db(self.store.tournament, t["id"])
        await self._open_tables(fresh, round_no)

    async def _open_tables(self, t: dict[str, Any], round_no: int) -> None:
        """Make the site table of every board of the round that has none yet, each seat claimed for its
        player's account; then tell the round's hooks."""
        game = registry.get(t["game"])
        substitute = self.hub.limits.rated_substitute_level
        turn_time, days_per_move = table_clock(t)
        for b in t["tables"]:
            if b["round"] != round_no or b["bye"] or b["table_id"] is not None:
                continue
            request = NewTableRequest(
                game=game,
                players=t["players"],
                options=game.options_for(t["players"], {}),
                seats=tuple(
                    SeatRequest("bot", substitute, None) if a is None else SeatRequest("human", None, None)
                    for a in b["seats"]
                ),
                # (turn-based: a player away for hours is normal; the deadlines play a seat left alone)
                seat_timeout=self.hub.default_seat_timeout if days_per_move is None else None,
                substitute_level=substitute,
                turn_time=turn_time,
                bots_before_join=True,  # a player who never comes is played by the bot: every round ends
                hints=False,
                public=True,  # (anyone may watch a tournament's games)
                rated=t["rated"],
                fill_bots_after=None,
                tournament=True,
                days_per_move=days_per_move,
            )
            created = await self.hub.create(request)
            table_id = created["table"]["id"]
            if not await self.hub.run_db(self.store.set_table, t["id"], round_no, b["board"], table_id):
                live = await self.hub.get(table_id)  # another process made this board's table first
                with contextlib.suppress(ServerError):
                    await live.change(CloseUnjoined(0.0))
                continue
            b["table_id"] = table_id
            claims = {s["seat"]: s["claim"] for s in created["seats"] if s["kind"] == "human"}
            for seat, account_id in enumerate(b["seats"]):
                if account_id is None:
                    continue
                account = await self.hub.run_db(self.store.account, account_id)
                if account is None:  # (deleted since signing up: the bot plays the seat)
                    continue
                live = await self.hub.get(table_id)
                try:
                    await live.change(Claim(claims[seat], account))
                finally:
                    self.hub.release(live)
        log.info("tournament %s: round %d made", t["id"], round_no)
        boards = [
            {"table_id": b["table_id"], "seats": b["seats"], "bye": b["bye"]}
            for b in t["tables"]
            if b["round"] == round_no
        ]
        await self.notify_round(t, round_no, boards)

    async def notify_round(self, tournament: dict[str, Any], round_no: int, boards: list[dict[str, Any]]) -> None:
        """The "tournament round" notification: called once each round's tables are made (``boards``:
        each table's ``table_id``, its seats' account ids in order, None for a bot seat, and ``bye``).
        The notifications feature fills this in by registering in :attr:`round_hooks`; none is here."""
        for hook in self.round_hooks:
            try:
                await hook(tournament, round_no, boards)
            except Exception:
                log.exception("a tournament round hook failed")
