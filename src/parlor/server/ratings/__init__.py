"""Ratings: openskill (Plackett-Luce, the model Parlor's tournaments use) per account, game and player
count class, moved by finished *rated* games.

* Who is rated: the seats that belong to accounts. Bots may sit at a rated table but are not rated and
  do not move anyone's rating: the accounts are ranked among themselves by their places, as if the
  bots' seats were not there. (Anchoring humans against fixed bot ratings would need bot ratings
  measured on the same scale; Parlor's tournaments rate bots only against bots.) A game with fewer
  than two accounts seated moves nothing.
* A leaver loses: a seat whose player had left when the game ended (a bot was playing it in their
  stead: the seat timeout's substitute, or the host's stand-in) counts last, below every player who
  stayed, and its history says ``abandoned``. A game that ended without a winner (the decision cap,
  nobody joined) moves nothing.
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


def ranked(table: LiveTable) -> list[dict[str, Any]] | None:
    """The rated seats of a finished table, with the place each counts (a leaver's: last), or None."""
    result = table.result or {}
    if not table.rated or result.get("abandoned") or not result.get("places"):
        return None
    places = result["places"]
    out = []
    for s in table.seats:
        if s.account_id is None or s.kind != "human":
            continue
        left = s.substituted or s.stand_in
        place = len(places) + 1 if left else places[s.seat]
        out.append({"account_id": s.account_id, "place": place, "abandoned": left})
    return out if len(out) >= 2 else None


class Ratings:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.store = RatingStore(hub.db)
        self.model = PlackettLuce()
        self._tasks: set[asyncio.Task[None]] = set()
        hub.finished_hooks.append(self.game_over)

    def game_over(self, table: LiveTable) -> None:
        seats = ranked(table)
        if seats is None:
            return
        task = asyncio.get_running_loop().create_task(self._rate(table.id, table.game.name, table.players, seats))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _rate(self, table_id: str, game: str, players: int, seats: list[dict[str, Any]]) -> None:
        cls = players_class(players)
        try:
            before = await self.hub.run_db(self.store.current, [s["account_id"] for s in seats], game, cls)
            teams = [[self.model.rating(*before[s["account_id"]])] for s in seats]
            after = self.model.rate(teams, ranks=[s["place"] for s in seats])
            changes = [
                {**s, "before": before[s["account_id"]], "after": (team[0].mu, team[0].sigma)}
                for s, team in zip(seats, after, strict=True)
            ]
            await self.hub.run_db(self.store.apply, table_id, game, cls, changes)
        except Exception:  # a rating that cannot be stored must not touch the table
            log.exception("table %s: its ratings could not be stored", table_id)

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
