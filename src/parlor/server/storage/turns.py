"""Turn-based tables' storage beside the tables' own writes: the deadline scan, an account's "your turn"
list, and vacations.

The scan reads the stored deadlines (``parlor_seats.turn_deadline``, indexed) instead of keeping a
timer per table, so a table nobody has open need not be in memory for its time to run out. A
vacation is an account's row in ``parlor_vacations``; starting or stopping one moves the deadlines of
that account's waiting decisions in the same transaction (unfenced, like accounts' writes: it touches
no record and no clock of a game, only when the next timeout is due).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, insert, select, update
from sqlalchemy.exc import IntegrityError

from .database import Database, _utc
from .schema import seats_t, tables_t, vacations_t

_TURN_BASED = and_(tables_t.c.status == "playing", tables_t.c.days_per_move.is_not(None))


class VacationRefused(Exception):
    """A vacation request that changes nothing: ``code`` says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class TurnStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    def due(self, moment: datetime, limit: int = 500) -> list[tuple[str, int, int]]:
        """The waiting decisions whose deadline is at or before ``moment``: (table, seat, version),
        the most overdue first."""
        query = (
            select(seats_t.c.table_id, seats_t.c.seat, seats_t.c.turn_version)
            .select_from(seats_t.join(tables_t, seats_t.c.table_id == tables_t.c.id))
            .where(_TURN_BASED, seats_t.c.turn_deadline.is_not(None), seats_t.c.turn_deadline <= moment)
            .order_by(seats_t.c.turn_deadline)
            .limit(limit)
        )
        with self.db.engine.connect() as conn:
            return [(r.table_id, r.seat, r.turn_version) for r in conn.execute(query)]

    def turns_of(self, account_id: str) -> list[dict[str, Any]]:
        """The turn-based tables where ``account_id``'s seat must decide, the longest waiting first."""
        mine = (
            select(
                seats_t.c.table_id,
                seats_t.c.seat,
                seats_t.c.turn_since,
                seats_t.c.turn_deadline,
                tables_t.c.game,
                tables_t.c.days_per_move,
                tables_t.c.rated,
            )
            .select_from(seats_t.join(tables_t, seats_t.c.table_id == tables_t.c.id))
            .where(_TURN_BASED, seats_t.c.account_id == account_id, seats_t.c.turn_deadline.is_not(None))
            .order_by(seats_t.c.turn_since, seats_t.c.table_id)
            .limit(200)
        )
        with self.db.engine.connect() as conn:
            rows = list(conn.execute(mine))
            others: dict[str, list[dict[str, Any]]] = {r.table_id: [] for r in rows}
            if others:
                from .database import seat_name  # (the shown name: none for a deleted account)

                for o in conn.execute(
                    select(seats_t.c.table_id, seats_t.c.seat, seats_t.c.kind, seats_t.c.level, seat_name())
                    .where(seats_t.c.table_id.in_(list(others)))
                    .order_by(seats_t.c.table_id, seats_t.c.seat)
                ):
                    others[o.table_id].append({"seat": o.seat, "kind": o.kind, "level": o.level, "name": o.name})
        return [
            {
                "table_id": r.table_id,
                "seat": r.seat,
                "game": r.game,
                "rated": bool(r.rated),
                "days_per_move": r.days_per_move,
                "waiting_since": _iso(r.turn_since),
                "deadline": _iso(r.turn_deadline),
                "opponents": [o for o in others[r.table_id] if o["seat"] != r.seat],
            }
            for r in rows
        ]

    # ---- vacations ------------------------------------------------------------------------------
    def vacation(self, account_id: str, moment: datetime) -> dict[str, Any]:
        """The account's vacation: the days used this calendar year and, while one runs, its end."""
        with self.db.engine.connect() as conn:
            row = conn.execute(select(vacations_t).where(vacations_t.c.account_id == account_id)).first()
        used = row.days_used if row is not None and row.year == moment.year else 0
        until = _utc(row.until) if row is not None and row.until is not None else None
        return {
            "year": moment.year,
            "days_used": used,
            "until": until if until is not None and until > moment else None,
        }

    def on_vacation(self, moment: datetime) -> dict[str, datetime]:
        """Every account on vacation now, with its end (kept in memory by the hub: new deadlines)."""
        with self.db.engine.connect() as conn:
            rows = conn.execute(
                select(vacations_t.c.account_id, vacations_t.c.until).where(vacations_t.c.until > moment)
            )
            return {r.account_id: _utc(r.until) for r in rows}

    def start_vacation(
        self, account_id: str, days: int, moment: datetime, allowance: int
    ) -> tuple[datetime, list[tuple[str, int, datetime]]]:
        """Start a vacation of ``days`` whole days: (its end, the moved deadlines as (table, seat, new
        deadline)). Refused when one runs already or the year's ``allowance`` would be passed. A
        compare-and-set on the row read, so two requests racing cannot both spend the same days."""
        with self.db.engine.begin() as conn:
            try:
                with conn.begin_nested():
                    conn.execute(insert(vacations_t).values(account_id=account_id, year=moment.year, days_used=0))
            except IntegrityError:
                pass  # (the row is there already)
            row = conn.execute(select(vacations_t).where(vacations_t.c.account_id == account_id)).one()
            if row.until is not None and _utc(row.until) > moment:
                raise VacationRefused("on_vacation", f"a vacation runs already, until {_iso(row.until)}")
            used = row.days_used if row.year == moment.year else 0
            if used + days > allowance:
                left = allowance - used
                raise VacationRefused(
                    "no_vacation_left", f"{left} of this year's {allowance} vacation days are left; asked for {days}"
                )
            until = moment + timedelta(days=days)
            done = conn.execute(
                update(vacations_t)
                .where(
                    vacations_t.c.account_id == account_id,
                    vacations_t.c.year == row.year,
                    vacations_t.c.days_used == row.days_used,
                    vacations_t.c.until.is_(None) if row.until is None else vacations_t.c.until == row.until,
                )
                .values(year=moment.year, days_used=used + days, until=until)
            )
            if done.rowcount != 1:
                raise VacationRefused("on_vacation", "another request changed this vacation meanwhile; try again")
            moved = self._shift(conn, account_id, timedelta(days=days))
        return until, moved

    def stop_vacation(self, account_id: str, moment: datetime) -> tuple[int, list[tuple[str, int, datetime]]]:
        """End the running vacation now: (whole days given back, the moved deadlines). The deadlines
        move back by the time the vacation had left, so the vacation counted only while it ran."""
        with self.db.engine.begin() as conn:
            row = conn.execute(select(vacations_t).where(vacations_t.c.account_id == account_id)).first()
            if row is None or row.until is None or _utc(row.until) <= moment:
                raise VacationRefused("not_on_vacation", "no vacation runs now")
            left = _utc(row.until) - moment
            back = int(left / timedelta(days=1))  # whole days unused are given back
            done = conn.execute(
                update(vacations_t)
                .where(vacations_t.c.account_id == account_id, vacations_t.c.until == row.until)
                .values(until=None, days_used=max(0, row.days_used - back))
            )
            if done.rowcount != 1:
                raise VacationRefused("not_on_vacation", "another request changed this vacation meanwhile; try again")
            moved = self._shift(conn, account_id, -left)
        return back, moved

    @staticmethod
    def _shift(conn: Any, account_id: str, by: timedelta) -> list[tuple[str, int, datetime]]:
        """Move the account's waiting deadlines at turn-based tables by ``by``."""
        rows = conn.execute(
            select(seats_t.c.table_id, seats_t.c.seat, seats_t.c.turn_deadline)
            .select_from(seats_t.join(tables_t, seats_t.c.table_id == tables_t.c.id))
            .where(_TURN_BASED, seats_t.c.account_id == account_id, seats_t.c.turn_deadline.is_not(None))
        ).all()
        moved = []
        for r in rows:
            deadline = _utc(r.turn_deadline) + by
            conn.execute(
                update(seats_t)
                .where(seats_t.c.table_id == r.table_id, seats_t.c.seat == r.seat)
                .values(turn_deadline=deadline)
            )
            moved.append((r.table_id, r.seat, deadline))
        return moved


def _iso(stamp: datetime | None) -> str | None:
    return None if stamp is None else _utc(stamp).isoformat().replace("+00:00", "Z")
