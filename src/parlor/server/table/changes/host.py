"""The host's help for a table whose player is missing: a stand-in, a new link.
(``LiveTable.change`` applies them; the three steps of a change: ``changes/__init__.py``)."""

from __future__ import annotations

import hmac
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from parlor.server.storage import NewLink, SetSeat, Write
from parlor.server.wire import ServerError, dumps

from ..seats import SEAT_REPLACED, Seat, claim_path, hash_token, new_token
from .base import Change
from .seats import leave

if TYPE_CHECKING:
    from ..live import LiveTable

log = logging.getLogger("parlor.server")


# ---- the host -------------------------------------------------------------------------------------
def check_host(table: Any, host_token: Any) -> None:
    given = host_token if isinstance(host_token, str) and 0 < len(host_token) <= 200 else None
    if given is None or table.host_hash is None or not hmac.compare_digest(table.host_hash, hash_token(given)):
        raise ServerError("not_host", "only the table's host (the host token from its creation) may do this", 403)


def host_seat(table: LiveTable, seat: Any) -> Seat:
    if table.status != "playing":
        raise ServerError("game_over", "the game is over", 409)
    if type(seat) is not int or not 0 <= seat < len(table.seats):
        raise ServerError("bad_seat", f"no seat {seat!r} at this table (seats 0 to {len(table.seats) - 1})")
    s = table.seats[seat]
    if s.kind != "human":
        raise ServerError("bad_seat", f"seat {seat} is a bot's: only a human seat can be handed over")
    return s


@dataclass
class StandIn(Change):
    """The host lets a bot play ``seat`` until its player connects (``on``), or stops it."""

    host_token: Any
    seat: Any
    on: Any

    what: ClassVar[str] = "the stand-in"
    moves_play: ClassVar[bool] = True

    def prepare(self, table: LiveTable) -> list[Write]:
        check_host(table, self.host_token)
        if type(self.on) is not bool:
            raise ServerError("bad_request", "'on' must be true or false")
        s = host_seat(table, self.seat)
        if self.on and s.connections > 0:
            raise ServerError("bad_seat", f"seat {self.seat}'s player is at the table")
        if s.stand_in != self.on:
            return [SetSeat(table.id, s.seat, s.name, s.joined, self.on)]
        return []

    def apply(self, table: LiveTable, results: list[Any]) -> dict[str, Any]:
        s = table.seats[self.seat]
        if s.stand_in != self.on:
            s.stand_in = self.on
            log.info("table %s: the host %s a bot for seat %d", table.id, "asked" if self.on else "stopped", s.seat)
        return table.summary()

    def announce(self, table: LiveTable) -> None:
        table.frames.broadcast_seats()


@dataclass
class Relink(Change):
    """A new join link for a seat that is away (a fresh claim code): the old link, and the token of
    whoever claimed it, stop working; the seat waits for whoever claims the new link. The host holds the
    link, never the token its claimant will get. A seat whose player is there is refused: it belongs to
    its player. Whoever held the old token is told, when they come back, that the host relinked it."""

    host_token: Any
    seat: Any
    _code: str = ""

    what: ClassVar[str] = "the new link"
    moves_play: ClassVar[bool] = True

    def prepare(self, table: LiveTable) -> list[Write]:
        check_host(table, self.host_token)
        s = host_seat(table, self.seat)
        after = table.hub.limits.relink_after
        if not s.is_away(after):
            raise ServerError(
                "seat_taken",
                f"seat {s.seat}'s player is at the table, or left less than {after:g} seconds ago: a new link is "
                "only for a seat that is away (or was never claimed)",
                409,
            )
        self._code = new_token()
        return [NewLink(table.id, s.seat, hash_token(self._code), s.token_hash or s.replaced_hash)]

    def apply(self, table: LiveTable, results: list[Any]) -> dict[str, Any]:
        s = table.seats[self.seat]
        s.replaced_hash = s.token_hash or s.replaced_hash
        s.claim_hash, s.token_hash, s.name, s.joined, s.stand_in = hash_token(self._code), None, None, False, False
        s.account_id = s.open_by = None  # (the new link's claimant holds it now, signed in or not)
        if s.open_timer is not None:
            s.open_timer.cancel()
            s.open_timer = None
        for conn in [c for c in table.connections if c.seat == s.seat]:
            conn.push(dumps({"type": "error", "code": "seat_replaced", "message": SEAT_REPLACED}))
            conn.close_with(4403, "the host gave this seat a new link")
            leave(table, conn)
        code = self._code
        return {"table": table.summary(), "seat": s.seat, "claim": code, "join_path": claim_path(table.id, code)}

    def announce(self, table: LiveTable) -> None:
        table.frames.broadcast_seats()
        table.frames.send_all({"type": "notice", "code": "seat_relinked", "seat": self.seat})
