""" "Play again": the next table, made from this one, and its links told to each seat.
(``LiveTable.change`` applies them; the three steps of a change: ``changes/__init__.py``)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from parlor.core import ENGINE_VERSION, State
from parlor.core.options import options_to_json
from parlor.server.storage import CreateTable, Write, now
from parlor.server.wire import ServerError, dumps

from ..seats import claim_path, hash_token, new_token
from .base import Change

if TYPE_CHECKING:
    from ..connection import Connection
    from ..frames import Ack
    from ..live import LiveTable


# ---- play again -----------------------------------------------------------------------------------
@dataclass
class PlayAgain(Change):
    """A new table with the same game, options, seats, bots and host; each human seat gets a new join
    link (a fresh claim code: no token carries over), handed to that seat's own connections only. A
    seat of an account is that account's at the new table too (its player opens it by signing in):
    "rematch" invites the same players."""

    seat: int | None
    address: str | None = None
    ack: Ack = None
    _new: Any = None
    _claims: dict[int, str] = field(default_factory=dict)

    what: ClassVar[str] = "the new table"

    def prepare(self, table: LiveTable) -> list[Write]:
        if self.seat is None:
            raise ServerError("spectator", "spectators cannot start a new game", 403)
        if table.next_table is not None:
            return []
        if table.status != "over":
            raise ServerError("not_over", "the game is not over yet", 409)
        hub = table.hub
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
            "hints": table.hints_on,
            "host_hash": table.host_hash,
            "creator_hash": hash_token(self.address) if self.address is not None else None,
            "rated": table.rated,  # (a rematch is private: it is for the same players, not the lobby's)
            "days_per_move": table.days_per_move,  # a turn-based game's rematch is turn-based too
        }
        if table.rated:  # the site's clock and substitute as they are now, as at any rated table's creation
            row.update(hub.rated_settings())
            if table.days_per_move is not None:  # (turn-based: the days per move are its clock)
                row.update(seat_timeout=None, turn_time=None)
        self._claims = {s.seat: new_token() for s in table.seats if s.kind == "human"}
        seats = [
            {
                "seat": s.seat,
                "kind": s.kind,
                "level": s.level,
                "name": s.name,
                "token_hash": None,
                "claim_hash": hash_token(self._claims[s.seat]) if s.seat in self._claims else None,
                "joined": s.kind == "bot",
                # A rematch: an account's seat stays the account's, opened by signing in (or its new link).
                "account_id": s.account_id if s.kind == "human" else None,
            }
            for s in table.seats
        ]
        row, state = new_table_row(table.game, row)
        self._new = (row, seats, state)
        return [CreateTable(row["id"], row, seats, hub.creation_limits(self.address), link_from=table.id)]

    def apply(self, table: LiveTable, results: list[Any]) -> str:
        if self._new is None:
            return str(table.next_table)
        row, seats, state = self._new
        new = table.hub.register(row, seats, state)
        new.creator = self.address
        table.next_claims = self._claims
        table.next_table = new.id
        return new.id

    def announce(self, table: LiveTable) -> None:
        if self.ack is not None:  # the asker's ack first, with its own seat's new link
            conn, ref = self.ack
            ack = {"type": "ack", "ref": ref, "version": table.version, "table_id": table.next_table}
            if self.seat in table.next_claims:
                ack["join_path"] = claim_path(str(table.next_table), table.next_claims[self.seat])
            conn.push(dumps(ack))
        announce_next(table)


def new_table_row(game: Any, row: dict[str, Any]) -> tuple[dict[str, Any], State]:
    """A new table's row (its id, seed, status) and its first state."""
    seed = secrets.randbelow(1 << 62)
    state = game.new_game(row["players"], seed, game.options_from_json(row["options"]))
    row = {
        **row,
        "id": secrets.token_urlsafe(9),
        "seed": seed,
        "engine_version": ENGINE_VERSION,
        "status": "playing" if not state.is_over else "over",
        "version": 0,
        "created_at": now(),  # the same stamp in memory and in the database
    }
    return row, state


def announce_next(table: LiveTable, only: Connection | None = None) -> None:
    """Tell the table's connections (or one) about the "play again" table; a seat's own frame carries
    that seat's new join link, and nobody else's."""
    for conn in [only] if only is not None else list(table.connections):
        frame: dict[str, Any] = {"type": "next_table", "table_id": table.next_table}
        code = table.next_claims.get(conn.seat) if conn.seat is not None else None
        if code is not None:
            frame["join_path"] = claim_path(str(table.next_table), code)
        conn.push(dumps(frame))
