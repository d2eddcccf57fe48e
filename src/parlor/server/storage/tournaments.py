"""Tournaments' storage (``server/tournaments``): the tournaments, who signed up, each round's tables.

None of these is a table in play's row, so none goes through ``Database.commit`` and its fence (as
with accounts and friends). The site tables a round plays are ordinary tables, made by the hub.

What must not happen twice is a compare-and-set or a key: one sign-up per player (the primary key),
the start and each round moved once (``status``, ``current_round`` compared as they are set), a
table's points recorded once (``points IS NULL``). A sign-up and the start are serialized on the
tournament's row: the transaction's first statement writes it (PostgreSQL locks the row to the
commit, and each later statement sees what the previous holder committed; SQLite's single writer
takes its lock there), so of many sign-ups racing for the last place exactly one wins, and none
lands after the start.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import and_, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from .database import Database, _utc
from .friends import Refused
from .schema import accounts_t, ratings_t, tables_t, tournament_players_t, tournament_tables_t, tournaments_t

TOURNAMENT_COLUMNS = (
    tournaments_t.c.id,
    tournaments_t.c.name,
    tournaments_t.c.game,
    tournaments_t.c.players,
    tournaments_t.c.starts_at,
    tournaments_t.c.rounds,
    tournaments_t.c.turn_time,
    tournaments_t.c.move_days,
    tournaments_t.c.rated,
    tournaments_t.c.max_players,
    tournaments_t.c.status,
    tournaments_t.c.current_round,
    tournaments_t.c.round_started_at,
    tournaments_t.c.created_at,
)


def _entry(row: Any, signed_up: int, creator: str | None) -> dict[str, Any]:
    return {
        "id": row.id,
        "name": row.name,
        "game": row.game,
        "players": row.players,
        "starts_at": _utc(row.starts_at),
        "rounds": row.rounds,
        "turn_time": row.turn_time,
        "move_days": None if row.move_days is None else int(row.move_days),  # (stored as a float column)
        "rated": bool(row.rated),
        "max_players": row.max_players,
        "status": row.status,
        "current_round": row.current_round,
        "round_started_at": None if row.round_started_at is None else _utc(row.round_started_at),
        "signed_up": signed_up,
        "creator": creator,
    }


class TournamentStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    # ---- making and listing -------------------------------------------------------------------
    def create(self, row: dict[str, Any]) -> None:
        with self.db.engine.begin() as conn:
            conn.execute(insert(tournaments_t).values(**row))

    def listing(self, statuses: Sequence[str], limit: int = 100) -> list[dict[str, Any]]:
        """Tournaments in ``statuses``: the upcoming soonest first, the others newest first."""
        counted = (
            select(func.count())
            .where(
                tournament_players_t.c.tournament_id == tournaments_t.c.id,
                tournament_players_t.c.withdrawn_round.is_(None),
            )
            .scalar_subquery()
        )
        order = tournaments_t.c.starts_at.asc() if list(statuses) == ["upcoming"] else tournaments_t.c.starts_at.desc()
        with self.db.engine.connect() as conn:
            rows = conn.execute(
                select(*TOURNAMENT_COLUMNS, counted.label("signed"), accounts_t.c.name.label("creator"))
                .outerjoin(accounts_t, accounts_t.c.id == tournaments_t.c.creator_account)
                .where(tournaments_t.c.status.in_(list(statuses)))
                .order_by(order)
                .limit(limit)
            ).all()
        return [_entry(r, r.signed, r.creator) for r in rows]

    def tournament(self, tournament_id: str) -> dict[str, Any] | None:
        """A tournament with its players (``id``, ``name``, ``withdrawn_round``) and every round's tables."""
        with self.db.engine.connect() as conn:
            row = conn.execute(
                select(*TOURNAMENT_COLUMNS, accounts_t.c.name.label("creator"))
                .outerjoin(accounts_t, accounts_t.c.id == tournaments_t.c.creator_account)
                .where(tournaments_t.c.id == tournament_id)
            ).first()
            if row is None:
                return None
            players = conn.execute(
                select(tournament_players_t.c.account_id, tournament_players_t.c.withdrawn_round, accounts_t.c.name)
                .join(accounts_t, accounts_t.c.id == tournament_players_t.c.account_id)
                .where(tournament_players_t.c.tournament_id == tournament_id)
                .order_by(tournament_players_t.c.joined_at, tournament_players_t.c.account_id)
            ).all()
            tables = conn.execute(
                select(tournament_tables_t)
                .where(tournament_tables_t.c.tournament_id == tournament_id)
                .order_by(tournament_tables_t.c.round, tournament_tables_t.c.board)
            ).all()
        active = sum(1 for p in players if p.withdrawn_round is None)
        out = _entry(row, active, row.creator)
        out["entrants"] = [{"id": p.account_id, "name": p.name, "withdrawn_round": p.withdrawn_round} for p in players]
        out["tables"] = [
            {
                "round": t.round,
                "board": t.board,
                "seats": json.loads(t.seats),
                "bye": bool(t.bye),
                "table_id": t.table_id,
                "points": None if t.points is None else json.loads(t.points),
            }
            for t in tables
        ]
        return out

    # ---- signing up ---------------------------------------------------------------------------
    def _hold(self, conn: Any, tournament_id: str) -> Any:
        """Lock the tournament's row for this transaction (its first statement writes it), and read it."""
        conn.execute(
            update(tournaments_t)
            .where(tournaments_t.c.id == tournament_id)
            .values(current_round=tournaments_t.c.current_round)
        )
        row = conn.execute(select(*TOURNAMENT_COLUMNS).where(tournaments_t.c.id == tournament_id)).first()
        if row is None:
            raise Refused("tournament_not_found")
        return row

    def sign_up(self, tournament_id: str, account_id: str, stamp: datetime) -> None:
        """:class:`Refused`: ``tournament_not_found``, ``started`` (the start time has come), ``full``,
        ``already_signed_up``."""
        try:
            with self.db.engine.begin() as conn:
                row = self._hold(conn, tournament_id)
                if row.status != "upcoming" or _utc(row.starts_at) <= stamp:
                    raise Refused("started")
                mine = conn.execute(
                    select(tournament_players_t.c.account_id).where(
                        tournament_players_t.c.tournament_id == tournament_id,
                        tournament_players_t.c.account_id == account_id,
                    )
                ).first()
                if mine is not None:
                    raise Refused("already_signed_up")
                count = conn.execute(
                    select(func.count()).where(tournament_players_t.c.tournament_id == tournament_id)
                ).scalar_one()
                if count >= row.max_players:
                    raise Refused("full")
                conn.execute(
                    insert(tournament_players_t).values(
                        tournament_id=tournament_id, account_id=account_id, joined_at=stamp
                    )
                )
        except IntegrityError:  # (the key: a twin request that got past the lock some other way)
            raise Refused("already_signed_up") from None

    def withdraw(self, tournament_id: str, account_id: str, stamp: datetime) -> int | None:
        """Before the start the sign-up is gone; while it runs the player leaves from the current round
        (returned). :class:`Refused`: ``tournament_not_found``, ``not_signed_up``, ``tournament_over``."""
        with self.db.engine.begin() as conn:
            row = self._hold(conn, tournament_id)
            where = and_(
                tournament_players_t.c.tournament_id == tournament_id,
                tournament_players_t.c.account_id == account_id,
                tournament_players_t.c.withdrawn_round.is_(None),
            )
            if row.status in ("finished", "cancelled"):
                raise Refused("tournament_over")
            if row.status == "upcoming" and _utc(row.starts_at) > stamp:
                gone = conn.execute(tournament_players_t.delete().where(where)).rowcount
                if not gone:
                    raise Refused("not_signed_up")
                return None
            left_in = max(1, row.current_round)
            boards = conn.execute(
                select(tournament_tables_t.c.seats, tournament_tables_t.c.points).where(
                    tournament_tables_t.c.tournament_id == tournament_id, tournament_tables_t.c.round == left_in
                )
            ).all()
            if any(b.points is not None and account_id in json.loads(b.seats) for b in boards):
                left_in += 1  # (their game of this round has ended: its points are theirs)
            moved = conn.execute(update(tournament_players_t).where(where).values(withdrawn_round=left_in)).rowcount
            if not moved:
                raise Refused("not_signed_up")
            return left_in

    # ---- the start and the rounds ---------------------------------------------------------------
    def due(self, stamp: datetime) -> tuple[list[str], list[str]]:
        """(the upcoming tournaments whose start has come, the running ones)."""
        with self.db.engine.connect() as conn:
            starting = conn.execute(
                select(tournaments_t.c.id).where(
                    tournaments_t.c.status == "upcoming", tournaments_t.c.starts_at <= stamp
                )
            ).scalars()
            starting_ids = list(starting)
            running = list(
                conn.execute(select(tournaments_t.c.id).where(tournaments_t.c.status == "running")).scalars()
            )
        return starting_ids, running

    def begin(self, tournament_id: str, stamp: datetime, rounds_for: Any) -> bool:
        """Start the tournament (once, whichever process asks first): running with the rounds the field
        allows (``rounds_for(players, seats a table)``), or cancelled when it allows none; True if this
        call started it."""
        with self.db.engine.begin() as conn:
            row = self._hold(conn, tournament_id)
            if row.status != "upcoming" or _utc(row.starts_at) > stamp:
                return False
            count = conn.execute(
                select(func.count()).where(tournament_players_t.c.tournament_id == tournament_id)
            ).scalar_one()
            rounds = min(row.rounds, rounds_for(count, row.players))
            # (too few players for one round: cancelled, its rounds left as announced)
            values = {"status": "running", "rounds": rounds} if rounds > 0 else {"status": "cancelled"}
            conn.execute(update(tournaments_t).where(tournaments_t.c.id == tournament_id).values(**values))
            return True

    def claim_round(self, tournament_id: str, round_no: int, stamp: datetime) -> bool:
        """Move the current round to ``round_no`` (from the one before): True for the one caller that did."""
        with self.db.engine.begin() as conn:
            return bool(
                conn.execute(
                    update(tournaments_t)
                    .where(
                        tournaments_t.c.id == tournament_id,
                        tournaments_t.c.status == "running",
                        tournaments_t.c.current_round == round_no - 1,
                    )
                    .values(current_round=round_no, round_started_at=stamp)
                ).rowcount
            )

    def finish(self, tournament_id: str, round_no: int) -> bool:
        with self.db.engine.begin() as conn:
            return bool(
                conn.execute(
                    update(tournaments_t)
                    .where(
                        tournaments_t.c.id == tournament_id,
                        tournaments_t.c.status == "running",
                        tournaments_t.c.current_round == round_no,
                    )
                    .values(status="finished")
                ).rowcount
            )

    def store_round(
        self, tournament_id: str, round_no: int, tables: Sequence[Sequence[str | None]], byes: Sequence[str]
    ) -> None:
        """A round's pairing, before its site tables are made (a process stopped midway leaves the rest
        to be made by the next scan: ``table_id`` still NULL). A bye is a board with its point already."""
        with self.db.engine.begin() as conn:
            board = 0
            for seats in tables:
                conn.execute(
                    insert(tournament_tables_t).values(
                        tournament_id=tournament_id,
                        round=round_no,
                        board=board,
                        seats=json.dumps(list(seats)),
                        bye=False,
                        table_id=None,
                        points=None,
                    )
                )
                board += 1
            for account in byes:
                conn.execute(
                    insert(tournament_tables_t).values(
                        tournament_id=tournament_id,
                        round=round_no,
                        board=board,
                        seats=json.dumps([account]),
                        bye=True,
                        table_id=None,
                        points=json.dumps([1.0]),
                    )
                )
                board += 1

    def set_table(self, tournament_id: str, round_no: int, board: int, table_id: str) -> bool:
        with self.db.engine.begin() as conn:
            return bool(
                conn.execute(
                    update(tournament_tables_t)
                    .where(
                        tournament_tables_t.c.tournament_id == tournament_id,
                        tournament_tables_t.c.round == round_no,
                        tournament_tables_t.c.board == board,
                        tournament_tables_t.c.table_id.is_(None),
                    )
                    .values(table_id=table_id)
                ).rowcount
            )

    def board_of(self, table_id: str) -> dict[str, Any] | None:
        """The tournament board a site table plays (``tournament_id``, ``round``, ``board``, ``seats``,
        ``done``), or None: not a tournament's table."""
        with self.db.engine.connect() as conn:
            row = conn.execute(select(tournament_tables_t).where(tournament_tables_t.c.table_id == table_id)).first()
        if row is None:
            return None
        return {
            "tournament_id": row.tournament_id,
            "round": row.round,
            "board": row.board,
            "seats": json.loads(row.seats),
            "done": row.points is not None,
        }

    def record(self, table_id: str, points: Sequence[float]) -> bool:
        """A board's points, once (True for the call that stored them)."""
        with self.db.engine.begin() as conn:
            return bool(
                conn.execute(
                    update(tournament_tables_t)
                    .where(tournament_tables_t.c.table_id == table_id, tournament_tables_t.c.points.is_(None))
                    .values(points=json.dumps(list(points)))
                ).rowcount
            )

    def ratings(self, game: str, players_class: str, accounts: Sequence[str]) -> dict[str, float]:
        """Each account's rating (``mu``) for the game and player count; absent: none yet."""
        if not accounts:
            return {}
        with self.db.engine.connect() as conn:
            rows = conn.execute(
                select(ratings_t.c.account_id, ratings_t.c.mu).where(
                    ratings_t.c.game == game,
                    ratings_t.c.players_class == players_class,
                    ratings_t.c.account_id.in_(list(accounts)),
                )
            ).all()
        return {r.account_id: float(r.mu) for r in rows}

    def account(self, account_id: str) -> dict[str, Any] | None:
        with self.db.engine.connect() as conn:
            row = conn.execute(
                select(accounts_t.c.id, accounts_t.c.name).where(
                    accounts_t.c.id == account_id, accounts_t.c.deleted_at.is_(None)
                )
            ).first()
        return None if row is None else {"id": row.id, "name": row.name}

    def table_results(self, table_ids: Sequence[str]) -> dict[str, str | None]:
        """The stored result (JSON) of each finished site table among ``table_ids`` (for a scan that
        records what a finished hook missed: a process stopped between a game's end and its record)."""
        if not table_ids:
            return {}
        with self.db.engine.connect() as conn:
            rows = conn.execute(
                select(tables_t.c.id, tables_t.c.result).where(
                    tables_t.c.id.in_(list(table_ids)), tables_t.c.status == "over"
                )
            ).all()
        return {r.id: r.result for r in rows}
