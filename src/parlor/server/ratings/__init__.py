"""Ratings: openskill (Plackett-Luce, the model Parlor's tournaments use) per account, game and player
count class, moved by finished *rated* games.

* Who is rated: the seats that belong to accounts. Bots may sit at a rated table but are not rated and
  do not move anyone's rating: the accounts are ranked among themselves by their places, as if the
  bots' seats were not there. (Anchoring humans against fixed bot ratings would need bot ratings
  measured on the same scale; Parlor's tournaments rate bots only against bots.) A game with fewer
  than two accounts seated moves nothing.
* A rating counts only what players played. A seat is **absent** when its player had left when the
  game ended (a bot was playing it in their stead: the seat timeout's substitute, or the host's
  stand-in), or when its player made fewer than half of the seat's decisions (the turn clock's bot
  or a substitute made the rest), however that came about: never moving while connected, leaving
  and coming back near the end. An absent seat counts last, below every player who played, all
  absent seats tied (never ranked by what the bots made of them), and its history says
  ``abandoned``. A game whose accounts were all absent moves nothing (nobody played it), nor does a
  game that ended without a winner (the decision cap, nobody joined).
* The classes: 2 players, 3-4, 5 or more; a rating is shown as ``mu - 3 sigma`` (openskill's
  conservative "ordinal") with its uncertainty ``sigma``.

The table layer tells this service when a game ends through the hub's ``finished_hooks`` (called
after the deciding change is committed); the ratings are stored once per table (``RatingStore``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from openskill.models import PlackettLuce

from parlor.server.storage import RatingStore
from parlor.server.table import Hub, LiveTable
from parlor.server.wire import ServerError

log = logging.getLogger("parlor.server")


def players_class(players: int) -> str:
    return "2" if players <= 2 else "3-4" if players <= 4 else "5+"


def ranked(rated: bool, result: dict[str, Any] | None, seats: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """The rated seats of a finished table, with the place each counts (an absent seat's: last), or
    None. ``seats``: each seat's ``seat``, ``kind``, ``account_id`` and ``absent`` (the stored result
    says so, ``LiveTable.result_of``)."""
    result = result or {}
    if not rated or result.get("abandoned") or not result.get("places"):
        return None
    places = result["places"]
    out = []
    for s in seats:
        if s["account_id"] is None or s["kind"] != "human":
            continue
        absent = bool(s["absent"])
        place = len(places) + 1 if absent else places[s["seat"]]
        out.append({"account_id": s["account_id"], "place": place, "abandoned": absent})
    if len(out) < 2 or all(s["abandoned"] for s in out):  # a game nobody played moves nobody's rating
        return None
    return out


def absent_in(entry: dict[str, Any]) -> bool:
    """Whether a stored result's seat entry counts as absent (a result stored before ``absent`` was
    recorded says only who had left)."""
    return bool(entry.get("absent", entry.get("left")))


def stored_seats(result: dict[str, Any] | None, seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``ranked``'s seats from stored rows: who was absent is read from the stored result."""
    absent = {e["seat"]: absent_in(e) for e in (result or {}).get("seats") or []}
    return [{**s, "absent": absent.get(s["seat"], False)} for s in seats]


class Ratings:
    """Rates each finished rated table once: when its game ends here (the hub's finished hook), and by
    a sweep at start and every ``SWEEP_EVERY`` seconds for the finished rated tables whose ratings were
    not stored (a process stopped between the game's end and its rating). Every path ends in
    ``RatingStore.apply``, whose compare-and-set on ``ratings_done`` lets one of them through, however
    many processes race."""

    SWEEP_EVERY = 300.0

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.store = RatingStore(hub.db)
        self.model = PlackettLuce()
        self._tasks: set[asyncio.Task[None]] = set()
        hub.finished_hooks.append(self.game_over)

    def game_over(self, table: LiveTable) -> None:
        if not table.rated:
            return
        seats = stored_seats(
            table.result, [{"seat": s.seat, "kind": s.kind, "account_id": s.account_id} for s in table.seats]
        )
        task = asyncio.get_running_loop().create_task(
            self._rate(table.id, table.game.name, table.players, ranked(True, table.result, seats))
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _new_ratings(self, before: list[tuple[float, float]], places: list[int]) -> list[tuple[float, float]]:
        teams = [[self.model.rating(mu, sigma)] for mu, sigma in before]
        return [(team[0].mu, team[0].sigma) for team in self.model.rate(teams, ranks=places)]

    async def _rate(self, table_id: str, game: str, players: int, seats: list[dict[str, Any]] | None) -> bool:
        """Store the table's ratings (``seats`` None: it moves nothing, marked done all the same)."""
        try:
            return await self.hub.run_db(
                self.store.apply, table_id, game, players_class(players), seats or [], self._new_ratings
            )
        except Exception:  # a rating that cannot be stored must not touch the table (the sweep tries again)
            log.exception("table %s: its ratings could not be stored", table_id)
            return False

    async def sweep(self) -> int:
        """Rate the finished rated tables whose ratings were never stored; how many this process rated."""
        rated = 0
        for row in await self.hub.run_db(self.store.unrated):
            seats = ranked(True, row["result"], stored_seats(row["result"], row["seats"]))
            if await self._rate(row["id"], row["game"], row["players"], seats) and seats:
                log.info("table %s: its ratings were stored late, by the sweep", row["id"])
                rated += 1
        return rated

    async def sweep_forever(self) -> None:
        while True:
            try:
                await self.sweep()
            except Exception:  # (the next sweep tries again)
                log.exception("the ratings' sweep failed")
            await asyncio.sleep(self.SWEEP_EVERY)

    async def leaderboard(self, game: Any, players: Any) -> dict[str, Any]:
        if not isinstance(game, str) or len(game) > 64:
            raise ServerError("unknown_game", "'game' is required: a game's name", field="game")
        cls = None
        if players is not None:
            if players not in ("2", "3-4", "5+"):
                raise ServerError("bad_request", "'players' is one of 2, 3-4, 5+", field="players")
            cls = players
        return {"game": game, "players": cls, "ratings": await self.hub.run_db(self.store.leaderboard, game, cls)}

    async def profile(self, name_key: str) -> dict[str, Any]:
        found = await self.hub.run_db(self.store.profile, name_key)
        if found is None:
            raise ServerError("player_not_found", "no player has this name", 404)
        return found

    async def close(self) -> None:
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
