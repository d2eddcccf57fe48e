"""The players' ratings (``parlor_ratings``) and each rated game's change (``parlor_rating_history``).

Not a table's rows (an account belongs to no table), so not through ``Database.commit``'s fence; one
rated game's ratings are applied once, in one transaction that first sets its table's
``ratings_done`` from false to true (a compare-and-set: a second attempt, by a restarted or another
process, changes nothing).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import and_, func, or_, select, update

from .database import Database, _utc, now, seat_name
from .schema import accounts_t, rating_history_t, ratings_t, seats_t, tables_t

DEFAULT_MU, DEFAULT_SIGMA = 25.0, 25.0 / 3  # openskill's defaults: a new player


class RatingStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    def apply(
        self,
        table_id: str,
        game: str,
        players_class: str,
        seats: list[dict[str, Any]],
        rate: Callable[[list[tuple[float, float]], list[int]], list[tuple[float, float]]],
    ) -> bool:
        """Store one rated game's new ratings, once: ``seats`` (``account_id``, ``place``, ``abandoned``;
        empty: the game moves nothing) are rated by ``rate(before, places) -> after`` (each a list of
        (mu, sigma)) from their ratings as this transaction reads them, after it has taken the table's
        ``ratings_done`` (False if another path took it first). The ratings' rows are read locked
        (PostgreSQL), so two games of one player rated at once by two processes do not both start
        from the same rating; two that both insert a player's first rating collide on its key, and
        the loser's transaction (with its ``ratings_done``) is undone for the sweep to try again."""
        stamp = now()
        with self.db.engine.begin() as conn:
            done = conn.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id, tables_t.c.ratings_done.is_(False))
                .values(ratings_done=True)
            )
            if done.rowcount != 1:
                return False
            if not seats:
                return True
            ids = [s["account_id"] for s in seats]
            found = {
                r.account_id: r
                for r in conn.execute(
                    select(ratings_t.c.account_id, ratings_t.c.mu, ratings_t.c.sigma, ratings_t.c.games)
                    .where(
                        ratings_t.c.account_id.in_(ids),
                        ratings_t.c.game == game,
                        ratings_t.c.players_class == players_class,
                    )
                    .with_for_update()
                )
            }
            before = [(found[a].mu, found[a].sigma) if a in found else (DEFAULT_MU, DEFAULT_SIGMA) for a in ids]
            after = rate(before, [s["place"] for s in seats])
            for s, (mu0, sigma0), (mu, sigma) in zip(seats, before, after, strict=True):
                key = {"account_id": s["account_id"], "game": game, "players_class": players_class}
                row = found.get(s["account_id"])
                if row is None:
                    conn.execute(ratings_t.insert().values(**key, mu=mu, sigma=sigma, games=1, updated_at=stamp))
                else:
                    conn.execute(
                        update(ratings_t)
                        .filter_by(**key)
                        .values(mu=mu, sigma=sigma, games=row.games + 1, updated_at=stamp)
                    )
                conn.execute(
                    rating_history_t.insert().values(
                        account_id=s["account_id"],
                        table_id=table_id,
                        game=game,
                        players_class=players_class,
                        mu_before=mu0,
                        sigma_before=sigma0,
                        mu=mu,
                        sigma=sigma,
                        place=s["place"],
                        abandoned=s["abandoned"],
                        at=stamp,
                    )
                )
            return True

    def unrated(self, limit: int = 100) -> list[dict[str, Any]]:
        """Finished rated tables whose ratings were never stored: ``id``, ``game``, ``players``,
        ``result`` and ``seats`` (``seat``, ``kind``, ``account_id``)."""
        with self.db.engine.connect() as conn:
            rows = conn.execute(
                select(tables_t.c.id, tables_t.c.game, tables_t.c.players, tables_t.c.result)
                .where(tables_t.c.rated.is_(True), tables_t.c.status == "over", tables_t.c.ratings_done.is_(False))
                .order_by(tables_t.c.updated_at)
                .limit(limit)
            ).all()
            out = []
            for r in rows:
                seats = conn.execute(
                    select(seats_t.c.seat, seats_t.c.kind, seats_t.c.account_id)
                    .where(seats_t.c.table_id == r.id)
                    .order_by(seats_t.c.seat)
                ).mappings()
                result = json.loads(r.result) if isinstance(r.result, str) else r.result
                out.append({"id": r.id, "game": r.game, "players": r.players, "result": result,
                            "seats": [dict(s) for s in seats]})  # fmt: skip
            return out

    def _board(self, game: str, players_class: str | None) -> Any:
        """The rated, undeleted accounts of a game (and class), best first: by mu - 3 sigma (openskill's
        conservative "ordinal"), then by name."""
        query = (
            select(
                accounts_t.c.id,
                accounts_t.c.name,
                ratings_t.c.players_class,
                ratings_t.c.mu,
                ratings_t.c.sigma,
                ratings_t.c.games,
            )
            .join(accounts_t, accounts_t.c.id == ratings_t.c.account_id)
            # (a name a moderator hid is left out: its ratings and games stay, and its own page)
            .where(ratings_t.c.game == game, accounts_t.c.deleted_at.is_(None), accounts_t.c.board_hidden.is_(False))
            .order_by((ratings_t.c.mu - 3 * ratings_t.c.sigma).desc(), accounts_t.c.name)
        )
        if players_class is not None:
            query = query.where(ratings_t.c.players_class == players_class)
        return query

    def leaderboard(self, game: str, players_class: str | None, limit: int = 100) -> list[dict[str, Any]]:
        """The best rated accounts of a game, best first, each with its ``place`` (1-based)."""
        with self.db.engine.connect() as conn:
            rows = conn.execute(self._board(game, players_class).limit(limit)).all()
        return [_rating_row(r, place) for place, r in enumerate(rows, 1)]

    def standing(self, account_id: str, game: str, players_class: str) -> dict[str, Any] | None:
        """One account's place on a game and class's board (None: it has no rating there): one more
        than the accounts ordered before it (a higher ordinal, or the same and an earlier name)."""
        with self.db.engine.connect() as conn:
            mine = conn.execute(
                select(accounts_t.c.id, accounts_t.c.name, ratings_t.c.players_class, ratings_t.c.mu,
                       ratings_t.c.sigma, ratings_t.c.games)
                .join(accounts_t, accounts_t.c.id == ratings_t.c.account_id)
                .where(ratings_t.c.account_id == account_id, ratings_t.c.game == game,
                       ratings_t.c.players_class == players_class, accounts_t.c.deleted_at.is_(None))
            ).first()  # fmt: skip
            if mine is None:
                return None
            ordinal = ratings_t.c.mu - 3 * ratings_t.c.sigma
            mine_ordinal = mine.mu - 3 * mine.sigma
            ahead = conn.execute(
                select(func.count())
                .select_from(ratings_t.join(accounts_t, accounts_t.c.id == ratings_t.c.account_id))
                .where(
                    ratings_t.c.game == game,
                    ratings_t.c.players_class == players_class,
                    accounts_t.c.deleted_at.is_(None),
                    or_(ordinal > mine_ordinal, and_(ordinal == mine_ordinal, accounts_t.c.name < mine.name)),
                )
            ).scalar_one()
        return _rating_row(mine, ahead + 1)

    def quick_seated(self, table_ids: list[str], game: str, players_class: str) -> dict[str, dict[str, Any]]:
        """Rated quick play's pairing: for each of these tables, when it was opened (``created_at``) and
        the mu at that game and class of each account seated there (a player not rated yet: the
        model's default, 25)."""
        if not table_ids:
            return {}
        out: dict[str, dict[str, Any]] = {}
        with self.db.engine.connect() as conn:
            for r in conn.execute(select(tables_t.c.id, tables_t.c.created_at).where(tables_t.c.id.in_(table_ids))):
                out[r.id] = {"created_at": _utc(r.created_at), "mus": []}
            seated = conn.execute(
                select(seats_t.c.table_id, ratings_t.c.mu)
                .select_from(
                    seats_t.outerjoin(
                        ratings_t,
                        (ratings_t.c.account_id == seats_t.c.account_id)
                        & (ratings_t.c.game == game)
                        & (ratings_t.c.players_class == players_class),
                    )
                )
                .where(seats_t.c.table_id.in_(table_ids), seats_t.c.account_id.is_not(None))
            )
            for r in seated:
                out[r.table_id]["mus"].append(r.mu if r.mu is not None else DEFAULT_MU)
        return out

    def quick_table(self, table_id: str) -> dict[str, Any] | None:
        with self.db.engine.connect() as conn:
            row = conn.execute(
                select(tables_t.c.game, tables_t.c.players, tables_t.c.rated, tables_t.c.quick).where(
                    tables_t.c.id == table_id
                )
            ).first()
        return None if row is None else {"game": row.game, "players": row.players, "rated": bool(row.rated),
                                         "quick": bool(row.quick)}  # fmt: skip

    def mu_of(self, account_id: str, game: str, players_class: str) -> float:
        """An account's mu at a game and class (not rated yet: the model's default)."""
        with self.db.engine.connect() as conn:
            mu = conn.execute(
                select(ratings_t.c.mu).where(
                    ratings_t.c.account_id == account_id,
                    ratings_t.c.game == game,
                    ratings_t.c.players_class == players_class,
                )
            ).scalar()
        return mu if mu is not None else DEFAULT_MU

    def table_changes(self, table_id: str) -> dict[str, Any] | None:
        """A finished table's rating changes, one per rated seat (None: no such table). ``games``: the
        player's rated games at that game and class up to and including this one."""
        with self.db.engine.connect() as conn:
            table = conn.execute(
                select(tables_t.c.rated, tables_t.c.ratings_done, tables_t.c.status).where(tables_t.c.id == table_id)
            ).first()
            if table is None:
                return None
            earlier = rating_history_t.alias("earlier")
            games = (
                select(func.count())
                .where(
                    earlier.c.account_id == rating_history_t.c.account_id,
                    earlier.c.game == rating_history_t.c.game,
                    earlier.c.players_class == rating_history_t.c.players_class,
                    earlier.c.at <= rating_history_t.c.at,
                )
                .scalar_subquery()
            )
            rows = conn.execute(
                select(seats_t.c.seat, seat_name(), rating_history_t, games.label("games_then"))
                .join(seats_t, (seats_t.c.table_id == rating_history_t.c.table_id)
                      & (seats_t.c.account_id == rating_history_t.c.account_id))
                .where(rating_history_t.c.table_id == table_id)
                .order_by(seats_t.c.seat)
            ).all()  # fmt: skip
        return {
            "rated": bool(table.rated),
            "done": bool(table.ratings_done),
            "over": table.status == "over",
            "seats": [
                {"seat": r.seat, "name": r.name, "mu_before": r.mu_before, "sigma_before": r.sigma_before,
                 "mu": r.mu, "sigma": r.sigma, "place": r.place, "abandoned": bool(r.abandoned),
                 "games": r.games_then}
                for r in rows
            ],
        }  # fmt: skip

    def profile(self, name_key: str) -> dict[str, Any] | None:
        """A player's page: name, ratings, every rated game's rating after it (oldest first, for the
        plot), the win rate per game, and the last 50 finished games (with their opponents, and the
        rating change of the rated ones)."""
        with self.db.engine.connect() as conn:
            account = conn.execute(
                select(accounts_t.c.id, accounts_t.c.name, accounts_t.c.created_at).where(
                    accounts_t.c.name_key == name_key, accounts_t.c.deleted_at.is_(None)
                )
            ).first()
            if account is None:
                return None
            ratings = [
                {"game": r.game, "players_class": r.players_class, "mu": r.mu, "sigma": r.sigma,
                 "rating": r.mu - 3 * r.sigma, "games": r.games}
                for r in conn.execute(select(ratings_t).where(ratings_t.c.account_id == account.id))
            ]  # fmt: skip
            history = [
                {"game": r.game, "players_class": r.players_class, "mu": r.mu, "at": _utc(r.at), "table_id": r.table_id}
                for r in conn.execute(
                    select(rating_history_t.c.game, rating_history_t.c.players_class, rating_history_t.c.mu,
                           rating_history_t.c.at, rating_history_t.c.table_id)
                    .where(rating_history_t.c.account_id == account.id)
                    .order_by(rating_history_t.c.at)
                    .limit(2000)
                )
            ]  # fmt: skip
            finished = conn.execute(
                select(tables_t.c.game, seats_t.c.seat, tables_t.c.result)
                .join(seats_t, seats_t.c.table_id == tables_t.c.id)
                .where(seats_t.c.account_id == account.id, tables_t.c.status == "over")
            ).all()
            games = conn.execute(
                select(
                    tables_t.c.id,
                    tables_t.c.game,
                    tables_t.c.players,
                    tables_t.c.rated,
                    tables_t.c.result,
                    tables_t.c.updated_at,
                    seats_t.c.seat,
                    rating_history_t.c.players_class,
                    rating_history_t.c.mu_before,
                    rating_history_t.c.sigma_before,
                    rating_history_t.c.mu,
                    rating_history_t.c.sigma,
                    rating_history_t.c.abandoned,
                )
                .join(seats_t, seats_t.c.table_id == tables_t.c.id)
                .outerjoin(
                    rating_history_t,
                    (rating_history_t.c.table_id == tables_t.c.id) & (rating_history_t.c.account_id == account.id),
                )
                .where(seats_t.c.account_id == account.id, tables_t.c.status == "over")
                .order_by(tables_t.c.updated_at.desc())
                .limit(50)
            ).all()
            everyone: dict[str, list[Any]] = {}
            if games:
                for s in conn.execute(
                    select(seats_t.c.table_id, seats_t.c.seat, seats_t.c.kind, seats_t.c.level, seat_name(),
                           seats_t.c.account_id)
                    .where(seats_t.c.table_id.in_([g.id for g in games]))
                    .order_by(seats_t.c.seat)
                ):  # fmt: skip
                    everyone.setdefault(s.table_id, []).append(s)
        return {
            "name": account.name,
            "since": _utc(account.created_at),
            "ratings": ratings,
            "history": history,
            "stats": _stats(finished),
            "games": [_game(g, everyone.get(g.id, [])) for g in games],
        }


def _rating_row(r: Any, place: int) -> dict[str, Any]:
    return {
        "place": place,
        "name": r.name,
        "players_class": r.players_class,
        "mu": r.mu,
        "sigma": r.sigma,
        "rating": r.mu - 3 * r.sigma,
        "games": r.games,
    }


def _stats(finished: list[Any]) -> list[dict[str, Any]]:
    """Games played and won per game (a shared first place is a win), over every finished game."""
    out: dict[str, dict[str, Any]] = {}
    for game, seat, raw in finished:
        result = json.loads(raw) if isinstance(raw, str) else (raw or {})
        entry = out.setdefault(game, {"game": game, "played": 0, "won": 0})
        entry["played"] += 1
        entry["won"] += seat in (result.get("winners") or [])
    for entry in out.values():
        entry["win_rate"] = entry["won"] / entry["played"]
    return sorted(out.values(), key=lambda e: (-e["played"], e["game"]))


def _game(g: Any, seats: list[Any]) -> dict[str, Any]:
    result = json.loads(g.result) if isinstance(g.result, str) else (g.result or {})
    places = result.get("places") or []
    scores = result.get("scores") or []
    entry: dict[str, Any] = {
        "table_id": g.id,
        "game": g.game,
        "players": g.players,
        "rated": bool(g.rated),
        "seat": g.seat,
        "place": places[g.seat] if g.seat < len(places) else None,
        "won": g.seat in (result.get("winners") or []),
        "score": scores[g.seat] if g.seat < len(scores) else None,
        # Everyone else at the table: a person (``account``: a player's page to link to) or a bot
        # (its level), with their place.
        "opponents": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "level": s.level if s.kind == "bot" else None,
                "name": s.name,
                "account": s.account_id is not None,
                "place": places[s.seat] if s.seat < len(places) else None,
            }
            for s in seats
            if s.seat != g.seat
        ],
        "finished_at": _utc(g.updated_at) if isinstance(g.updated_at, datetime) else g.updated_at,
        "replay": f"/replay/{g.id}",
    }
    if g.rated:  # its player made fewer than half of its decisions, or had left at the end (ratings/)
        seat_entry = next((e for e in result.get("seats") or [] if e.get("seat") == g.seat), {})
        entry["absent"] = bool(seat_entry.get("absent", seat_entry.get("left", False)))
    if g.mu is not None:
        entry["players_class"] = g.players_class  # the rating it moved: this game's at this class
        entry["rating_before"] = g.mu_before - 3 * g.sigma_before
        entry["rating_after"] = g.mu - 3 * g.sigma
        entry["mu_before"], entry["mu_after"] = g.mu_before, g.mu  # (read on the display scale: ratings/)
        entry["abandoned"] = bool(g.abandoned)
    return entry
