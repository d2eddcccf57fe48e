"""The server's metrics in Prometheus's text format (docs/deploy.md, "Metrics and logs"), through the
maintained client library, ``prometheus-client``.

Off by default: ``--metrics-address HOST:PORT`` serves them at ``http://HOST:PORT/metrics``, an address
of their own (a private one, never the site's public address). Each app keeps its metrics in a
registry of its own (:class:`SiteMetrics`); with ``--workers N`` the processes use prometheus-client's
*multiprocess mode*: each worker writes its values to files in one folder (``PROMETHEUS_MULTIPROC_DIR``,
made by the parent for the run) and the parent process serves the sum over the workers on the metrics
address (:func:`serve_site_metrics`). Gauges are summed over the live workers only ("livesum"); a
worker that dies is marked dead, its counters stay in the totals.

What the gauges count (live tables, connections, the review queue) is sampled once a second
(:func:`sample_forever`): cheaper than touching the hub on every connection, and the multiprocess
mode cannot call back into a worker at scrape time anyway.
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server

MULTIPROCESS_ENV = "PROMETHEUS_MULTIPROC_DIR"  # prometheus-client's own name for the folder
SAMPLE_EVERY = 1.0  # seconds between samples of the gauges
# Seconds from a decision's frame arriving to its answer queued for sending: from a quick SQLite commit
# (a few ms) to a PostgreSQL under strain.
DECISION_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class SiteMetrics:
    """The metrics of one app (one server process)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.live_tables = Gauge(
            "parlor_live_tables", "Tables loaded in the server (being played or watched)", registry=r,
            multiprocess_mode="livesum",
        )  # fmt: skip
        self.connections = Gauge(
            "parlor_connections", "Open WebSocket connections, by role (player or spectator)", ["role"],
            registry=r, multiprocess_mode="livesum",
        )  # fmt: skip
        self.decisions = Counter("parlor_decisions", "Decisions players sent that the server accepted", registry=r)
        self.decision_seconds = Histogram(
            "parlor_decision_seconds", "Seconds from a decision received to its answer sent", registry=r,
            buckets=DECISION_BUCKETS,
        )  # fmt: skip
        self.review_queue = Gauge(
            "parlor_review_queue", "Game reviews waiting for a review worker", registry=r, multiprocess_mode="livesum"
        )
        self.sign_in_failures = Counter(
            "parlor_sign_in_failures", "Sign-ins refused, by reason (the error code)", ["reason"], registry=r
        )
        self.http_errors = Counter(
            "parlor_http_errors", "HTTP answers of 400 and above, by route and status class", ["route", "status_class"],
            registry=r,
        )  # fmt: skip
        for role in ("player", "spectator"):  # (shown as 0 before the first connection)
            self.connections.labels(role=role)

    def decided(self, seconds: float) -> None:
        self.decisions.inc()
        self.decision_seconds.observe(seconds)

    def sample(self, hub: Any, reviews: Any) -> None:
        """The gauges, from what the hub and the review service hold now."""
        players = spectators = 0
        for table in list(hub.tables.values()):
            for conn in list(table.connections):
                if conn.seat is None:
                    spectators += 1
                else:
                    players += 1
        self.live_tables.set(len(hub.tables))
        self.connections.labels(role="player").set(players)
        self.connections.labels(role="spectator").set(spectators)
        self.review_queue.set(len(reviews.waiting))


async def sample_forever(metrics: SiteMetrics, hub: Any, reviews: Any, every: float = SAMPLE_EVERY) -> None:
    while True:
        metrics.sample(hub, reviews)
        await asyncio.sleep(every)


def route_of(scope: dict[str, Any]) -> str:
    """The route's template (``/api/tables/{table_id}``) as the router left it in the scope, never the
    path itself: a path may hold a token, and one label value per path would grow without end."""
    path = getattr(scope.get("route"), "path", None)
    return path if isinstance(path, str) and path else "other"


class HttpErrorsMiddleware:
    """Counts every HTTP answer of 400 and above by route and status class (4xx, 5xx); an exception
    that escapes counts as a 5xx. Innermost of the app's middleware: a request relayed to the process
    that holds its table is counted there, once; a request refused before routing (the CSRF check) is
    not counted."""

    def __init__(self, app: Any, metrics: SiteMetrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        status = [500]

        async def watched_send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                status[0] = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, watched_send)
        finally:
            if status[0] >= 400:
                self.metrics.http_errors.labels(route=route_of(scope), status_class=f"{status[0] // 100}xx").inc()


def serve_metrics(host: str, port: int, registry: CollectorRegistry) -> Any:
    """``/metrics`` (any path, as prometheus-client serves it) on ``host:port`` in a thread; an OSError
    if the address cannot be bound."""
    server, _thread = start_http_server(port, addr=host, registry=registry)
    return server


def serve_site_metrics(host: str, port: int, folder: str) -> Any:
    """The parent of ``--workers N``: the sum over its workers' metrics files in ``folder``."""
    from prometheus_client import multiprocess

    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=folder)
    return serve_metrics(host, port, registry)


def worker_ended(folder: str, pid: int) -> None:
    """A worker is gone: its gauges leave the sums (its counters stay in the totals)."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(pid, path=folder)


def multiprocess_folder() -> str | None:
    return os.environ.get(MULTIPROCESS_ENV) or None


def now() -> float:
    return time.perf_counter()
