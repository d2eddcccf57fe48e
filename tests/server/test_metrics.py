"""Watching a site: ``--metrics-address`` serves Prometheus metrics on an address of its own (never on
the public one), with what real clients did (tables, connections, decisions and their latency, sign-in
failures, HTTP errors by route); with ``--workers 2`` the counts of both processes add up on the one
metrics address. ``--log-format json``: every line a JSON object, and no secret in any of them."""

from __future__ import annotations

import json
import random
import socket
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine, text

from .conftest import Client, ServerProcess, create_table, free_port, token_of
from .test_accounts import Browser

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]
PASSWORD = "correct horse battery"


def scrape(address: str) -> Samples:
    r = httpx.get(f"http://{address}/metrics", timeout=60)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain"), r.text
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(r.text)
        for s in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def wait_for_metrics(address: str, ok: Callable[[Samples], bool]) -> Samples:
    """The metrics once ``ok`` holds (the gauges are sampled every second)."""
    deadline = time.monotonic() + 60
    while True:
        samples = scrape(address)
        if ok(samples):
            return samples
        assert time.monotonic() < deadline, {k: v for k, v in samples.items() if k[0].startswith("parlor_")}
        time.sleep(0.1)


def play_decisions(base: str, table: dict[str, Any], n: int, rng: random.Random) -> int:
    """``n`` decisions by seat 0 against a bot (fewer if the game ends first); returns how many."""
    made = 0
    with Client(base, table["table"]["id"], token_of(table, 0)) as me:
        while made < n:
            state = me.wait_turn_or_over()
            if state["over"]:
                break
            assert me.act(rng.choice(state["legal"])["id"])["type"] == "ack"
            made += 1
    return made


def against_a_bot(base: str, **more: Any) -> dict[str, Any]:
    return create_table(base, players=2, seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}], **more)


def test_metrics_count_what_clients_did_and_json_logs_hold_no_secret(tmp_path) -> None:
    metrics = f"127.0.0.1:{free_port()}"
    url = f"sqlite:///{tmp_path / 'site.db'}"
    args = ("--bot-delay", "0", "--metrics-address", metrics, "--log-format", "json", "--log-level", "info")
    srv = ServerProcess(url, None, *args)
    srv.start()
    try:
        # Not on the public address.
        assert httpx.get(srv.base + "/metrics", timeout=60).status_code == 404
        ann = Browser(srv.base)
        assert ann.sign_up("Ann", PASSWORD).status_code == 201
        session = ann.http.cookies.get("parlor_session")
        assert session
        assert Browser(srv.base).sign_in("Ann", "not her password").status_code == 401
        again = Browser(srv.base)
        assert again.sign_in("Ann", PASSWORD).status_code == 200
        second_session = again.http.cookies.get("parlor_session")
        assert second_session and again.http.get("/api/account").json()["account"]["name"] == "Ann"
        assert httpx.get(srv.base + "/api/tables/nosuchtable1", timeout=60).status_code == 404

        table = against_a_bot(srv.base, public=True)
        tid = table["table"]["id"]
        token = token_of(table, 0)
        made = play_decisions(srv.base, table, 6, random.Random(1))
        assert made >= 1
        # A seat token where a careless client puts it: in a query string and in a path.
        httpx.get(f"{srv.base}/api/tables/{tid}?token={token}", timeout=60)
        httpx.get(f"{srv.base}/api/tables/{token}", timeout=60)
        with (
            Client(srv.base, tid, token),
            Client(srv.base, tid, ""),  # a public table's spectator
        ):
            samples = wait_for_metrics(
                metrics,
                lambda s: (
                    value(s, "parlor_connections", role="player") == 1
                    and value(s, "parlor_connections", role="spectator") == 1
                ),
            )
        assert value(samples, "parlor_live_tables") == 1
        assert value(samples, "parlor_decisions_total") == made
        assert value(samples, "parlor_decision_seconds_count") == made
        assert value(samples, "parlor_decision_seconds_bucket", le="+Inf") == made
        assert value(samples, "parlor_review_queue") == 0
        assert value(samples, "parlor_sign_in_failures_total", reason="bad_credentials") == 1
        route = "/api/tables/{table_id}"
        assert value(samples, "parlor_http_errors_total", route=route, status_class="4xx") >= 2
        assert value(samples, "parlor_http_errors_total", route="other", status_class="4xx") == 1  # /metrics
        # The connections end: the gauges go back to 0.
        wait_for_metrics(metrics, lambda s: value(s, "parlor_connections", role="player") == 0)
    finally:
        srv.stop()

    lines = [line for line in srv.output().splitlines() if line.strip()]
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    for record in records:
        assert {"time", "level", "logger", "message"} <= record.keys(), record
    requests = [r for r in records if r["logger"] == "parlor.access"]
    assert any(r["method"] == "POST" and r["path"] == "/api/account/sign-in" and r["status"] == 401 for r in requests)
    assert any(r["method"] == "WEBSOCKET" and r["path"] == f"/ws/tables/{tid}" for r in requests)
    log = "\n".join(lines)
    for secret in (
        PASSWORD,
        "not her password",
        session,
        second_session,
        again.csrf,
        token,
        table["seats"][0]["claim"],
    ):
        assert secret not in log


@pytest.fixture
def pg_url(postgres: Any) -> str:
    return postgres.new_database()


def owners(url: str) -> dict[str, str]:
    """Which process of the site holds each table (its lease)."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return dict(conn.execute(text("SELECT table_id, owner FROM parlor_leases")).all())
    finally:
        engine.dispose()


def test_workers_counts_add_up_on_one_metrics_address(pg_url: str) -> None:
    metrics = f"127.0.0.1:{free_port()}"
    args = (
        "--bot-delay",
        "0",
        "--workers",
        "2",
        "--metrics-address",
        metrics,
        "--log-format",
        "json",
        "--log-level",
        "info",
    )
    srv = ServerProcess(pg_url, None, *args).start()
    try:
        # Tables until both processes hold some (each new HTTP connection goes to either).
        tables: list[dict[str, Any]] = []
        deadline = time.monotonic() + 120
        while len(set(owners(pg_url).values())) < 2 or len(tables) < 2:
            assert time.monotonic() < deadline, "every table went to one process"
            tables.append(against_a_bot(srv.base))
        held = owners(pg_url)
        rng = random.Random(3)
        made = sum(play_decisions(srv.base, t, 3, rng) for t in tables)
        samples = wait_for_metrics(metrics, lambda s: value(s, "parlor_live_tables") == len(held))
        assert value(samples, "parlor_decisions_total") == made
        assert value(samples, "parlor_decision_seconds_count") == made
        # And a gauge sums the processes' own values: one connection at a table of each.
        first, second = (next(t for t in tables if held[t["table"]["id"]] == o) for o in sorted(set(held.values())))
        with (
            Client(srv.base, first["table"]["id"], token_of(first, 0)),
            Client(srv.base, second["table"]["id"], token_of(second, 0)),
        ):
            wait_for_metrics(metrics, lambda s: value(s, "parlor_connections", role="player") == 2)
    finally:
        srv.stop()
    # The parent's lines and both workers' are JSON too.
    records = [json.loads(line) for line in srv.output().splitlines() if line.strip()]
    assert any("2 processes" in r["message"] for r in records)


def test_a_bad_metrics_address_is_one_line(tmp_path, capsys) -> None:
    from parlor.server.__main__ import main

    url = f"sqlite:///{tmp_path / 'site.db'}"
    port = free_port()
    for address, expected in (
        ("nonsense", "--metrics-address must be HOST:PORT"),
        (f"127.0.0.1:{port}", "must not be the site's own address"),
    ):
        assert main(["--port", str(port), "--database-url", url, "--metrics-address", address]) == 1
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and expected in err[0], err
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        address = f"127.0.0.1:{taken.getsockname()[1]}"
        assert main(["--port", str(port), "--database-url", url, "--metrics-address", address]) == 1
        err = capsys.readouterr().err.strip().splitlines()
        assert err == [f"Error: cannot serve metrics on {address}: it is already in use"]
