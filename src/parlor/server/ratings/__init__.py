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
* The classes: 2 players, 3-4, 5 or more. What a person reads is the **display** number,
  ``1500 + 42 (mu - 25)`` rounded (``display``): a new player reads 1500 and their uncertainty
  ``42 sigma`` reads 350, Glicko's familiar starting figures. It follows ``mu`` alone, so it never
  falls after a win nor rises after a loss (the model moves a sole winner's mu up and a sole last's
  down; a place shared at the top or bottom is held to the same rule here, ``_new_ratings``). A
  rating is **provisional** until its player has ``PROVISIONAL_GAMES`` rated games in that game and
  class. The leaderboard is still ordered by openskill's conservative ``mu - 3 sigma`` (the
  "ordinal"), so a lucky newcomer does not top it after one game.

The table layer tells this service when a game ends through the hub's ``finished_hooks`` (called
after the deciding change is committed); the ratings are stored once per table (``RatingStore``).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from typing import Any

from openskill.models import PlackettLuce

from parlor.games import names as game_names
from parlor.server.storage import RatingStore
from parlor.server.table import Hub, LiveTable
from parlor.server.wire import ServerError

log = logging.getLogger("parlor.server")


# The display scale: 1500 + 42 (mu - 25). 42 = 350 / (25/3): a new player's sigma (openskill's 25/3)
# reads as Glicko's starting deviation 350, and their mu 25 as 1500.
DISPLAY_BASE, DISPLAY_SCALE = 1500, 42.0
PROVISIONAL_GAMES = 5  # a rating with fewer rated games (in its game and class) is marked provisional
PLAYERS_CLASSES = ("2", "3-4", "5+")


def display(mu: float) -> int:
    """The rating people read: a function of mu alone, so its direction is the game's result's."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 25.0))


def shown(mu: float, sigma: float, games: int) -> dict[str, Any]:
    """The fields every answer gives for one rating: the display number, its uncertainty, and
    whether it is still provisional (beside the model's own mu, sigma and ordinal)."""
    return {
        "display": display(mu),
        "uncertainty": round(DISPLAY_SCALE * sigma),
        "provisional": games < PROVISIONAL_GAMES,
    }


# Rated quick play pairs players of near ratings: a table waiting for players takes an asker whose
# display rating lies within QUICK_RANGE of the mean of the accounts seated there, a range that widens by
# QUICK_WIDENS for every second the table has waited, so nobody waits for ever for an exact match.
QUICK_RANGE, QUICK_WIDENS = 200, 10


def quick_range(waited: float) -> int:
    """How far (display points) from a waiting table's rating an asker may be, after ``waited`` seconds."""
    return QUICK_RANGE + int(QUICK_WIDENS * max(0.0, waited))


def quick_window(mus: list[float], waited: float) -> dict[str, int]:
    """A rated quick-play table's window: the display ratings it takes now (``low``..``high``), its
    centre (the mean of its seated accounts' mu, on the display scale) and the range."""
    centre = display(sum(mus) / len(mus)) if mus else DISPLAY_BASE
    reach = quick_range(waited)
    return {"centre": centre, "range": reach, "low": centre - reach, "high": centre + reach, "waited": int(waited)}


def known_game(game: Any) -> str:
    """A game's name from a request, or a clear refusal (400 ``unknown_game``, naming the games)."""
    if not isinstance(game, str) or game not in game_names():
        raise ServerError("unknown_game", f"'game' must be one of: {', '.join(game_names())}", field="game")
    return game


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


def new_ratings(model: PlackettLuce, before: list[tuple[float, float]], places: list[int]) -> list[tuple[float, float]]:
    """The ratings after one game (``before``: each seat's (mu, sigma); ``places``: 1 is best, ties
    allowed). Plackett-Luce moves a sole winner's mu up and a sole last's down, but a place shared at
    the top can move a strong player down (a draw with weaker players) and one shared at the bottom
    can move a weak one up: the number a player reads must not fall after they placed first nor rise
    after they placed last, so mu is held there (sigma moves as the model says). A game everyone
    tied is a draw for all: the model's update as it is."""
    teams = [[model.rating(mu, sigma)] for mu, sigma in before]
    after = [(team[0].mu, team[0].sigma) for team in model.rate(teams, ranks=places)]
    best, worst = min(places), max(places)
    if best == worst:
        return after
    held = []
    for (mu0, _), (mu, sigma), place in zip(before, after, places, strict=True):
        if place == best:
            mu = max(mu, mu0)
        elif place == worst:
            mu = min(mu, mu0)
        held.append((mu, sigma))
    return held


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
        return new_ratings(self.model, before, places)

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

    async def leaderboard(self, game: Any, players: Any, account: dict[str, Any] | None = None) -> dict[str, Any]:
        """A game's board (one player-count class, or all), best first, and the signed-in player's own
        place on it (``you``; None: not signed in, no class asked, or not rated there)."""
        game = known_game(game)
        cls = None
        if players is not None:
            if players not in PLAYERS_CLASSES:
                raise ServerError("bad_players_class", "'players' is one of 2, 3-4, 5+", field="players")
            cls = players
        rows = await self.hub.run_db(self.store.leaderboard, game, cls)
        you = None
        if account is not None and cls is not None:
            you = await self.hub.run_db(self.store.standing, account["id"], game, cls)
        return {
            "game": game,
            "players": cls,
            "provisional_games": PROVISIONAL_GAMES,
            "ratings": [{**r, **shown(r["mu"], r["sigma"], r["games"])} for r in rows],
            "you": {**you, **shown(you["mu"], you["sigma"], you["games"])} if you is not None else None,
        }

    async def table_changes(self, table_id: str) -> dict[str, Any]:
        """``GET /api/tables/{id}/ratings``: each rated seat's rating before a finished game and its signed
        change on the display scale (``done`` false: the table is not rated yet, or not over)."""
        found = await self.hub.run_db(self.store.table_changes, table_id)
        if found is None:
            raise ServerError("table_not_found", "no table has this id", 404)
        seats = []
        for s in found.pop("seats"):
            before, after = display(s.pop("mu_before")), display(s["mu"])
            seats.append({
                "seat": s["seat"], "name": s["name"], "place": s["place"], "abandoned": s["abandoned"],
                "before": before, "after": after, "change": after - before,
                "provisional": s["games"] < PROVISIONAL_GAMES,
            })  # fmt: skip
        return {**found, "seats": seats}

    async def profile(self, name_key: str) -> dict[str, Any]:
        found = await self.hub.run_db(self.store.profile, name_key)
        if found is None:
            raise ServerError("player_not_found", "no player has this name", 404)
        found["ratings"] = [{**r, **shown(r["mu"], r["sigma"], r["games"])} for r in found["ratings"]]
        for point in found["history"]:
            point["display"] = display(point.pop("mu"))
        for g in found["games"]:
            mu_before, mu_after = g.pop("mu_before", None), g.pop("mu_after", None)
            if mu_before is not None and mu_after is not None:
                g["display_before"], g["display_after"] = display(mu_before), display(mu_after)
                g["change"] = g["display_after"] - g["display_before"]
        return found

    async def quick_fits(self, table_ids: list[str], game: str, players: int, account_id: str) -> list[str]:
        """The rated quick-play tables (in the order given) whose window takes this account now."""
        cls = players_class(players)
        mine = display(await self.hub.run_db(self.store.mu_of, account_id, game, cls))
        seated = await self.hub.run_db(self.store.quick_seated, table_ids, game, cls)
        now = datetime.now(UTC)
        fits = []
        for table_id in table_ids:
            found = seated.get(table_id)
            if found is None:
                continue
            window = quick_window(found["mus"], (now - found["created_at"]).total_seconds())
            if window["low"] <= mine <= window["high"]:
                fits.append(table_id)
        return fits

    async def quick_window_of(self, table_id: str) -> dict[str, Any]:
        """``GET /api/tables/{id}/quick-range``: a rated quick-play table's window as it is now (the
        waiting screen shows it widen)."""
        summary = await self.hub.run_db(self.store.quick_table, table_id)
        if summary is None:
            raise ServerError("table_not_found", "no table has this id", 404)
        if not (summary["rated"] and summary["quick"]):
            raise ServerError("not_rated_quick", "only a rated quick-play table pairs by rating", 409)
        seated = await self.hub.run_db(
            self.store.quick_seated, [table_id], summary["game"], players_class(summary["players"])
        )
        found = seated[table_id]
        return quick_window(found["mus"], (datetime.now(UTC) - found["created_at"]).total_seconds())

    async def close(self) -> None:
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
