"""Reads for the lobby: the public tables (waiting for players, or playing), quick play's candidates,
and a signed-in player's own unfinished tables. Read from the database, so every process of a site
lists the same tables whichever owns them. Nothing here writes.

A public table *waits for players* while one of its human seats is open (nobody holds it: no token,
no account); its bots may have begun, but the game stops when an open seat's turn comes. Whether a
seat's player is connected now is known only to the process that plays the table, so listings do not
say it.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import and_, exists, or_, select

from .database import Database, _utc, now, seat_name
from .schema import blocks_t, seats_t, tables_t

LISTED = 100  # tables per list, newest first


def _open_seat(table: Any = tables_t) -> Any:
    """SQL: the table has a human seat nobody holds."""
    return exists().where(
        seats_t.c.table_id == table.c.id,
        seats_t.c.kind == "human",
        seats_t.c.token_hash.is_(None),
        seats_t.c.account_id.is_(None),
    )


def _entries(conn: Any, rows: list[Any]) -> list[dict[str, Any]]:
    ids = [r.id for r in rows]
    seats: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
    if ids:
        for s in conn.execute(
            select(seats_t.c.table_id, seats_t.c.seat, seats_t.c.kind, seats_t.c.level, seat_name(),
                   seats_t.c.token_hash, seats_t.c.account_id)
            .where(seats_t.c.table_id.in_(ids))
            .order_by(seats_t.c.table_id, seats_t.c.seat)
        ):  # fmt: skip
            held = s.token_hash is not None or s.account_id is not None
            seats[s.table_id].append(
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "level": s.level,
                    "name": s.name,
                    "account": s.account_id is not None,
                    "open": s.kind == "human" and not held,
                }
            )
    out = []
    for r in rows:
        entry = {
            "id": r.id,
            "game": r.game,
            "players": r.players,
            "options": json.loads(r.options),
            "status": r.status,
            "version": r.version,
            "turn_time": r.turn_time,
            "days_per_move": r.days_per_move,
            "rated": bool(r.rated),
            "quick": bool(r.quick),
            "public": r.visibility == "public",
            "created_at": _utc(r.created_at),
            "fill_bots_at": _utc(r.fill_bots_at) if r.fill_bots_at is not None else None,
            "seats": seats[r.id],
        }
        entry["waiting"] = any(s["open"] for s in entry["seats"]) and entry["public"]
        # The seconds until the waiting table's empty seats become bots (as clocks.fill_bots_left says
        # them): counted here, so a wrong clock on the reader's computer does not matter. A wait that
        # ran out while nobody sat there is none (the next to sit down starts it again).
        left = (_utc(r.fill_bots_at) - now()).total_seconds() if r.fill_bots_at is not None else None
        held = any(s["kind"] == "human" and not s["open"] for s in entry["seats"])
        waits = left is not None and entry["waiting"] and (left > 0 or held)
        entry["fill_bots_in"] = round(max(0.0, left), 2) if waits and left is not None else None
        out.append(entry)
    return out


_COLUMNS = (
    tables_t.c.id,
    tables_t.c.game,
    tables_t.c.players,
    tables_t.c.options,
    tables_t.c.status,
    tables_t.c.version,
    tables_t.c.turn_time,
    tables_t.c.rated,
    tables_t.c.quick,
    tables_t.c.visibility,
    tables_t.c.created_at,
    tables_t.c.fill_bots_at,
    tables_t.c.days_per_move,
)


class Listings:
    def __init__(self, db: Database) -> None:
        self.db = db

    def public_tables(self, game: str | None = None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """(tables waiting for players, tables playing), the newest first, ``LISTED`` of each at most."""
        public = and_(tables_t.c.visibility == "public", tables_t.c.status == "playing")
        if game is not None:
            public = and_(public, tables_t.c.game == game)
        waiting = and_(public, _open_seat())
        with self.db.engine.connect() as conn:
            first = conn.execute(
                select(*_COLUMNS).where(waiting).order_by(tables_t.c.created_at.desc()).limit(LISTED)
            ).all()
            second = conn.execute(
                select(*_COLUMNS).where(public, ~waiting).order_by(tables_t.c.updated_at.desc()).limit(LISTED)
            ).all()
            return _entries(conn, first), _entries(conn, second)

    def quick_candidates(
        self, game: str, players: int, rated: bool, account_id: str | None, days_per_move: int | None = None
    ) -> list[str]:
        """Quick play's tables for this game and player count that wait for players, oldest first, where
        the account (if signed in) holds no seat yet and nobody sits whom it blocks or who blocks it."""
        where = [
            tables_t.c.visibility == "public",
            tables_t.c.quick.is_(True),
            tables_t.c.status == "playing",
            tables_t.c.game == game,
            tables_t.c.players == players,
            tables_t.c.rated == rated,
            # a turn-based player is matched with one who chose the same days per move (live with live)
            tables_t.c.days_per_move.is_(None) if days_per_move is None else tables_t.c.days_per_move == days_per_move,
            _open_seat(),
        ]
        if account_id is not None:
            where.append(~exists().where(seats_t.c.table_id == tables_t.c.id, seats_t.c.account_id == account_id))
            # Quick play never pairs two players when either blocks the other.
            apart = or_(
                exists().where(blocks_t.c.blocker_id == account_id, blocks_t.c.blocked_id == seats_t.c.account_id),
                exists().where(blocks_t.c.blocked_id == account_id, blocks_t.c.blocker_id == seats_t.c.account_id),
            )
            where.append(~exists().where(seats_t.c.table_id == tables_t.c.id, apart))
        with self.db.engine.connect() as conn:
            rows = conn.execute(select(tables_t.c.id).where(*where).order_by(tables_t.c.created_at).limit(20))
            return [r[0] for r in rows]

    def tables_of(self, account_id: str) -> list[dict[str, Any]]:
        """The account's unfinished tables (a seat of its own), the newest first."""
        mine = exists().where(seats_t.c.table_id == tables_t.c.id, seats_t.c.account_id == account_id)
        with self.db.engine.connect() as conn:
            rows = conn.execute(
                select(*_COLUMNS)
                .where(tables_t.c.status == "playing", mine)
                .order_by(tables_t.c.created_at.desc())
                .limit(LISTED)
            ).all()
            entries = _entries(conn, rows)
            for entry in entries:
                owned = conn.execute(
                    select(seats_t.c.seat).where(seats_t.c.table_id == entry["id"], seats_t.c.account_id == account_id)
                ).first()
                entry["your_seat"] = owned[0] if owned is not None else None
            return entries
