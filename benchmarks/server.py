"""Load test of the multiplayer server over real WebSockets on loopback.

For each N (default 10, 100, 500): start ``python -m parlor.server`` on a free 127.0.0.1 port with a
fresh SQLite database (or ``--database-url``), create N bot-filled tables (one human seat each), and
let N simulated clients play random legal moves over WebSockets, concurrently, until their games end
or ``--max-seconds`` pass. Reports the decisions committed per second (clients' and bots'), the
clients' actions per second, and p50/p99 action-to-view latency: from sending an action to receiving
the ``state`` frame that shows it (so including validation, the database commit and the broadcast).

    .venv/bin/python benchmarks/server.py [--tables 10,100,500] [--players 3] [--bot medium]
                                          [--max-seconds 60] [--database-url URL] [--json]

Bounded (every game ends, a time cap per N) and loopback only. The server process and the client
process share this machine's cores, so the figures are for both on one box.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(database_url: str, port: int) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "parlor.server", "--host", "127.0.0.1", "--port", str(port)]
    cmd += ["--database-url", database_url, "--bot-delay", "0", "--rate", "1000", "--burst", "1000"]
    cmd += ["--log-level", "warning"]
    # One client address creates every table: lift the per-address creation limits (docs/protocol.md).
    cmd += ["--tables-per-minute", "1000000", "--max-unfinished-tables", "1000000"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited: {proc.stderr.read().decode(errors='replace') if proc.stderr else ''}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise RuntimeError("server did not start")


async def create_tables(base: str, n: int, players: int, bot: str) -> list[dict[str, Any]]:
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": bot}] * (players - 1)
    body = {"game": "mamma-mia", "players": players, "seats": seats, "seat_timeout": None}
    sem = asyncio.Semaphore(16)
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:

        async def one() -> dict[str, Any]:
            async with sem:
                r = await client.post("/api/tables", json=body)
                r.raise_for_status()
                return r.json()

        return await asyncio.gather(*(one() for _ in range(n)))


async def play_client(
    base: str, created: dict[str, Any], seed: int, stop_at: float, latencies: list[float]
) -> tuple[int, bool, int]:
    """Play one table's human seat; returns (actions sent, game over, final version)."""
    rng = random.Random(seed)
    table_id = created["table"]["id"]
    async with httpx.AsyncClient(timeout=60) as http:  # the seat's join link, claimed as a browser does
        claimed = await http.post(f"{base}/api/tables/{table_id}/claim", json={"claim": created["seats"][0]["claim"]})
    url = base.replace("http://", "ws://") + f"/ws/tables/{table_id}?token={claimed.json()['token']}"
    sent = 0
    state: dict[str, Any] = {}
    async with connect(url, max_size=1 << 22, open_timeout=60, ping_interval=None) as ws:
        pending: tuple[int, float] | None = None  # (version we wait for, when the action was sent)
        while time.monotonic() < stop_at:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop_at - time.monotonic()))
            except TimeoutError:
                break
            frame = json.loads(raw)
            kind = frame["type"]
            if kind == "ack":
                pending = (frame["version"], pending[1]) if pending else None
                continue
            if kind == "error":
                raise RuntimeError(f"server refused an action: {frame}")
            if kind != "state":
                continue
            state = frame
            if pending is not None and frame["version"] >= pending[0] >= 0:
                latencies.append(time.perf_counter() - pending[1])
                pending = None
            if frame["over"]:
                break
            if frame["your_turn"] and pending is None:
                choice = rng.choice(frame["legal"])
                pending = (-1, time.perf_counter())
                await ws.send(json.dumps({"type": "action", "id": choice["id"]}))
                sent += 1
    return sent, bool(state.get("over")), int(state.get("version", 0))


async def run_n(base: str, n: int, players: int, bot: str, max_seconds: float, seed: int) -> dict[str, Any]:
    tables = await create_tables(base, n, players, bot)
    latencies: list[float] = []
    start = time.perf_counter()
    stop_at = time.monotonic() + max_seconds
    results = await asyncio.gather(
        *(play_client(base, t, seed * 100_003 + i, stop_at, latencies) for i, t in enumerate(tables)),
        return_exceptions=True,
    )
    elapsed = time.perf_counter() - start
    failures = [r for r in results if isinstance(r, BaseException)]
    ok = [r for r in results if not isinstance(r, BaseException)]
    sent = sum(r[0] for r in ok)
    decisions = sum(r[2] for r in ok)
    lat = sorted(latencies)

    def pct(p: float) -> float | None:
        if not lat:
            return None
        return 1000 * lat[min(len(lat) - 1, int(p * len(lat)))]

    return {
        "tables": n,
        "seconds": round(elapsed, 2),
        "games_finished": sum(1 for r in ok if r[1]),
        "client_failures": len(failures),
        "first_failure": repr(failures[0])[:200] if failures else None,
        "client_actions": sent,
        "decisions": decisions,
        "decisions_per_second": round(decisions / elapsed, 1),
        "client_actions_per_second": round(sent / elapsed, 1),
        "latency_ms_p50": round(pct(0.50), 2) if lat else None,
        "latency_ms_p99": round(pct(0.99), 2) if lat else None,
        "latency_ms_mean": round(1000 * statistics.fmean(lat), 2) if lat else None,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="10,100,500", help="comma-separated N (tables = clients)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--bot", default="medium", help="bot level in the other seats (random is cheapest)")
    parser.add_argument("--max-seconds", type=float, default=60.0, help="time cap per N")
    parser.add_argument("--database-url", default=None, help="default: a fresh SQLite file per N")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    sizes = [int(x) for x in args.tables.split(",") if x.strip()]
    rows = []
    with tempfile.TemporaryDirectory(prefix="parlor-bench-") as tmp:
        for n in sizes:
            url = args.database_url or f"sqlite:///{os.path.join(tmp, f'bench-{n}.db')}"
            port = free_port()
            proc = start_server(url, port)
            try:
                row = asyncio.run(
                    run_n(f"http://127.0.0.1:{port}", n, args.players, args.bot, args.max_seconds, args.seed)
                )
            finally:
                proc.terminate()
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()
            rows.append(row)
            if not args.json:
                print(
                    f"N={n:4d}  {row['decisions_per_second']:8.1f} decisions/s  "
                    f"{row['client_actions_per_second']:7.1f} client actions/s  "
                    f"p50 {row['latency_ms_p50']} ms  p99 {row['latency_ms_p99']} ms  "
                    f"games finished {row['games_finished']}/{n} in {row['seconds']} s"
                    + (
                        f"  FAILURES {row['client_failures']}: {row['first_failure']}" if row["client_failures"] else ""
                    ),
                    flush=True,
                )
    if args.json:
        print(json.dumps({"players": args.players, "bot": args.bot, "results": rows}, indent=2))


if __name__ == "__main__":
    main()
