"""The players' ratings (``parlor_ratings``) and each rated game's change (``parlor_rating_history``).

Not a table's rows (an account belongs to no table), so not through ``Database.commit``'s fence; one
rated game's ratings are applied once, in one transaction that first sets its table's
``ratings_done`` from false to true (a compare-and-set: a second attempt, by a restarted or another
process, changes nothing).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy import select, update

from .database import Database, _utc, now
from .schema import accounts_t, rating_history_t, ratings_t, seats_t, tables_t

DEFAULT_MU, DEFAULT_SIGMA = 25.0, 25.0 / 3  # openskill's defaults: a new player


class RatingStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    def current(self, account_ids: list[str], game: str, players_class: str) -> dict[str, tuple[float, float]]:
        with self.db.engine.connect() as conn:
            rows = conn.execute(
                select(ratings_t.c.account_id, ratings_t.c.mu, ratings_t.c.sigma).where(
                    ratings_t.c.account_id.in_(account_ids),
                    ratings_t.c.game == game,
                    ratings_t.c.players_class == players_class,
                )
            )
            found = {r.account_id: (r.mu, r.sigma) for r in rows}
        return {a: found.get(a, (DEFAULT_MU, DEFAULT_SIGMA)) for a in account_ids}

    def apply(self, table_id: str, game: str, players_class: str, changes: list[dict[str, Any]]) -> bool:
        """Store one rated game's new ratings (each change: ``account_id``, ``before`` and ``after``
        as (mu, sigma), ``place``, ``abandoned``); False if they were stored before."""
        stamp = now()
        with self.db.engine.begin() as conn:
            done = conn.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id, tables_t.c.ratings_done.is_(False))
                .values(ratings_done=True)
            )
            if done.rowcount != 1:
                return False
            for c in changes:
                (mu0, sigma0), (mu, sigma) = c["before"], c["after"]
                key = {"account_id": c["account_id"], "game": game, "players_class": players_class}
                row = conn.execute(select(ratings_t.c.games).filter_by(**key)).first()
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
                        account_id=c["account_id"],
                        table_id=table_id,
                        game=game,
                        players_class=players_class,
                        mu_before=mu0,
                        sigma_before=sigma0,
                        mu=mu,
                        sigma=sigma,
                        place=c["place"],
                        abandoned=c["abandoned"],
                        at=stamp,
                    )
                )
            return True

    def leaderboard(self, game: str, players_class: str | None, limit: int = 100) -> list[dict[str, Any]]:
        """The best rated accounts of a game (by mu - 3 sigma, openskill's conservative "ordinal")."""
        query = (
            select(
                accounts_t.c.name,
                ratings_t.c.players_class,
                ratings_t.c.mu,
                ratings_t.c.sigma,
                ratings_t.c.games,
            )
            .join(accounts_t, accounts_t.c.id == ratings_t.c.account_id)
            .where(ratings_t.c.game == game, accounts_t.c.deleted_at.is_(None))
            .order_by((ratings_t.c.mu - 3 * ratings_t.c.sigma).desc(), accounts_t.c.name)
            .limit(limit)
        )
        if players_class is not None:
            query = query.where(ratings_t.c.players_class == players_class)
        with self.db.engine.connect() as conn:
            return [
                {
                    "name": r.name,
                    "players_class": r.players_class,
                    "mu": r.mu,
                    "sigma": r.sigma,
                    "rating": r.mu - 3 * r.sigma,
                    "games": r.games,
                }
                for r in conn.execute(query)
            ]

    def profile(self, name_key: str) -> dict[str, Any] | None:
        """A player's page: name, ratings, and the last 50 finished games (with the rating change of the
        rated ones)."""
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
            games = conn.execute(
                select(
                    tables_t.c.id,
                    tables_t.c.game,
                    tables_t.c.players,
                    tables_t.c.rated,
                    tables_t.c.result,
                    tables_t.c.updated_at,
                    seats_t.c.seat,
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
        return {
            "name": account.name,
            "since": _utc(account.created_at),
            "ratings": ratings,
            "games": [_game(g) for g in games],
        }


def _game(g: Any) -> dict[str, Any]:
    result = json.loads(g.result) if isinstance(g.result, str) else (g.result or {})
    places = result.get("places") or []
    entry: dict[str, Any] = {
        "table_id": g.id,
        "game": g.game,
        "players": g.players,
        "rated": bool(g.rated),
        "seat": g.seat,
        "place": places[g.seat] if g.seat < len(places) else None,
        "won": g.seat in (result.get("winners") or []),
        "finished_at": _utc(g.updated_at) if isinstance(g.updated_at, datetime) else g.updated_at,
        "replay": f"/replay/{g.id}",
    }
    if g.mu is not None:
        entry["rating_before"] = g.mu_before - 3 * g.sigma_before
        entry["rating_after"] = g.mu - 3 * g.sigma
        entry["abandoned"] = bool(g.abandoned)
    return entry
