"""The host: whoever created a table holds its host token and may help a table whose player is missing.

* a **stand-in**: a bot plays a human seat now — joined or not — until its player connects;
* a **new link**: a human seat gets a new token; the old one stops working at once (its connections
  are closed as a bad token) and the seat waits for its new player.
"""

from __future__ import annotations

import hmac
import logging
from typing import TYPE_CHECKING, Any

from .protocol import ServerError, dumps
from .seats import claim_path, hash_token, new_token

if TYPE_CHECKING:
    from .seats import Seat
    from .tables import LiveTable

log = logging.getLogger("parlor.server")


class HostMixin:
    """The hub's part that carries out what the host asks."""

    def check_host(self, table: LiveTable, host_token: Any) -> None:
        given = host_token if isinstance(host_token, str) and 0 < len(host_token) <= 200 else None
        if given is None or table.host_hash is None or not hmac.compare_digest(table.host_hash, hash_token(given)):
            raise ServerError("not_host", "only the table's host (the host token from its creation) may do this", 403)

    def host_seat(self, table: LiveTable, seat: Any) -> Seat:
        if table.status != "playing":
            raise ServerError("game_over", "the game is over", 409)
        if type(seat) is not int or not 0 <= seat < len(table.seats):
            raise ServerError("bad_seat", f"no seat {seat!r} at this table (seats 0 to {len(table.seats) - 1})")
        s = table.seats[seat]
        if s.kind != "human":
            raise ServerError("bad_seat", f"seat {seat} is a bot's: only a human seat can be handed over")
        return s

    async def set_stand_in(self, table: LiveTable, host_token: Any, seat: Any, on: Any) -> dict[str, Any]:
        """The host lets a bot play ``seat`` until its player connects (``on``), or stops it."""
        self.check_host(table, host_token)
        if type(on) is not bool:
            raise ServerError("bad_request", "'on' must be true or false")
        async with table.lock:
            s = self.host_seat(table, seat)
            if on and s.connections > 0:
                raise ServerError("bad_seat", f"seat {seat}'s player is at the table")
            if s.stand_in != on:
                await self.run_db(self.db.set_seat, table.id, s.seat, s.name, s.joined, on)
                s.stand_in = on
                log.info("table %s: the host %s a bot for seat %d", table.id, "asked" if on else "stopped", s.seat)
            self._seat_control_changed(table, s)
        return table.summary()

    async def new_link(self, table: LiveTable, host_token: Any, seat: Any) -> dict[str, Any]:
        """A new join link for ``seat`` (a fresh claim code): the old link, and the token of whoever
        claimed it, stop working; the seat waits for whoever claims the new link. The host holds
        the link, never the token its claimant will get."""
        self.check_host(table, host_token)
        async with table.lock:
            s = self.host_seat(table, seat)
            code = new_token()
            digest = hash_token(code)
            await self.run_db(self.db.new_claim, table.id, s.seat, digest)
            s.claim_hash, s.token_hash, s.name, s.joined, s.stand_in = digest, None, None, False, False
            refusal = dumps({"type": "error", "code": "bad_token", "message": "this seat was given a new link"})
            for conn in [c for c in table.connections if c.seat == s.seat]:
                conn.push(refusal)
                conn.close_code = 4403
                self.disconnect(conn)
            self._seat_control_changed(table, s)
        return {"table": table.summary(), "seat": s.seat, "claim": code, "join_path": claim_path(table.id, code)}
