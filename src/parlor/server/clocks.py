"""Clocks and leavers: a seat whose player is gone longer than the table's timeout is played by a bot."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .seats import Seat
    from .tables import LiveTable

log = logging.getLogger("parlor.server")


class ClocksMixin:
    """The hub's part that watches absent players."""

    def _arm_timeout(self, table: LiveTable, s: Seat) -> None:
        if s.timer is not None:
            s.timer.cancel()
            s.timer = None
        if table.seat_timeout is None or s.connections > 0 or table.status != "playing" or self._closing:
            return
        s.gone_since = time.monotonic()
        s.timer = asyncio.get_running_loop().call_later(table.seat_timeout, self._timed_out, table, s)

    def _timed_out(self, table: LiveTable, s: Seat) -> None:
        s.timer = None
        if s.connections > 0 or table.status != "playing" or s.substituted:
            return
        log.info("table %s: seat %d gone for %.1fs, a bot plays it", table.id, s.seat, table.seat_timeout or 0)
        s.substituted = True
        self._broadcast_seats(table)
        self.schedule(table)

    def _stop_clocks(self, table: LiveTable) -> None:
        for s in table.seats:
            if s.timer is not None:
                s.timer.cancel()
                s.timer = None
