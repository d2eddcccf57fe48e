"""The server's limits (every one documented in docs/protocol.md, "Limits") and the small tools that
enforce them: per-key token buckets and the open-files limit."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

log = logging.getLogger("parlor.server")


@dataclass(frozen=True)
class Limits:
    """Server-wide limits; ``create_app(limits=Limits(...))`` changes them."""

    max_body_bytes: int = 64 * 1024  # a REST request body, counted while it streams in
    body_timeout: float = 10.0  # seconds for a whole request body to arrive
    idle_timeout: float = 120.0  # seconds a WebSocket may stay silent (the browser pings every 25 s)
    max_queue_bytes: int = 8 * 1024 * 1024  # frames waiting for one slow reader before it is dropped
    max_connections_per_table: int = 64
    max_connections_per_address: int = 256
    syncs_per_table_per_second: float = 20.0  # burst: twice as many
    syncs_per_address_per_second: float = 20.0
    tables_per_address_per_minute: float = 30.0  # creations (and play-again) per client address; burst: as many
    max_unfinished_tables_per_address: int = 50
    tables_per_account_per_minute: float = 10.0  # creations by one signed-in account (beside its address's)
    max_unfinished_tables_per_account: int = 20
    max_decisions: int = 5000  # a game still going after this many decisions ends as abandoned
    max_option_int: int = 1000  # every integer rule option lies within ±this
    max_seat_timeout: float = 7 * 24 * 3600.0
    unjoined_table_ttl: float = 24 * 3600.0  # seconds before a table whose humans never came is closed
    bot_move_budget: float = 5.0  # seconds a bot may think before a random legal move is played instead
    min_turn_time: float = 5.0  # the shortest turn clock a table may have (seconds; tests use less)
    # A rated table's clock and substitute are the site's, whatever its creator asks: a rating must not
    # depend on a clock short enough to hand the game to a bot, or on how strong that bot is.
    rated_turn_time: float | None = 120.0  # seconds per decision at a rated table (None: no clock)
    rated_substitute_level: str = "medium"  # the bot that plays for a missing player at a rated table
    relink_after: float = 60.0  # seconds without a connection before the host may give a seat a new link
    chat_per_address_per_second: float = 2.0  # chat messages from one client address (bursts of ten times it)
    max_chat_lines: int = 2000  # messages a table's chat holds at most
    # A seat sat down in (the lobby, quick play) must be opened (a WebSocket) within this many seconds,
    # or it is freed (the table still waits for players) or played by a bot (the game is on): a seat
    # somebody took and never opened would otherwise hold a public table for ever.
    sit_open_within: float = 30.0
    # Seats sat down in at unfinished tables that one client address, or one account, may hold at once.
    max_held_seats_per_address: int = 20
    max_held_seats_per_account: int = 6
    # Turn-based tables: how often the stored deadlines are scanned (seconds), and how near a deadline
    # keeps an idle table in memory (seconds; farther, a table nobody has open is evicted).
    turn_scan_interval: float = 30.0
    turn_keep_loaded: float = 120.0
    vacation_days_per_year: int = 30  # days of vacation an account may take in a calendar year


class RateLimiter:
    """One token bucket per key (a table id, a client address): ``rate`` a second, ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = float(burst)
        self._buckets: dict[str, tuple[float, float]] = {}

    def take(self, key: str) -> bool:
        now = time.monotonic()
        tokens, stamp = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - stamp) * self.rate)
        if len(self._buckets) > 10_000:  # forget full buckets: they hold no information
            self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < self.burst / self.rate}
        if tokens < 1:
            self._buckets[key] = (tokens, now)
            return False
        self._buckets[key] = (tokens - 1, now)
        return True


def raise_open_files_limit() -> int | None:
    """Raise the soft open-files limit to the hard one (each connection holds a file descriptor)."""
    try:
        import resource
    except ImportError:  # not on this platform
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16)
    if soft == resource.RLIM_INFINITY or soft >= target:
        return soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ValueError, OSError):
        return soft
    log.info("open-files limit raised from %d to %d", soft, target)
    return target
