"""Load test of the multiplayer server over real WebSockets on loopback.

For each N (default 10, 100, 500): start ``python -m parlor.server`` on a free 127.0.0.1 port with a
fresh SQLite database (or ``--database-url``), create N bot-filled tables (one human seat each), and
let N simulated clients play random legal moves over WebSockets, concurrently, until their games end
or ``--max-seconds`` pass. Reports the decisions committed per second (clients' and bots'), the
clients' actions per second, and p50/p99 action-to-view latency: from sending an action to receiving
the ``state`` frame that shows it (so including validation, the database commit and the broadcast).

    .venv/bin/python benchmarks/server.py [--tables 10,100,500] [--players 3] [--bot medium]
                                          [--max-seconds 60] [--database-url URL] [--json]
                                          [--postgres] [--workers N] [--abuse KIND,...]

``--postgres`` starts a throw-away PostgreSQL (Debian's, as the tests do, with fsync on) and uses a
fresh database per N; ``--workers N`` runs the server as N processes of one site (PostgreSQL).
Server CPU is the CPU time of the server's whole process tree (bot workers, site processes) over the
run, in cores. ``--abuse`` measures 10 ordinary tables' p99 alone, then again while an abusive
client runs beside them, and prints the ratio: ``sync`` (4 clients sending 16 syncs/s each on a
long finished table and never reading), ``slow`` (20 spectators of 2 busy tables that never read),
``idle`` (1,000 connections that never send a request), ``expert`` (12 all-expert tables), ``chat``
(60 spectator sockets from one address flooding 3 tables' chat), ``accounts`` (16 clients from 4
addresses sending sign-ins with wrong passwords and sign-ups with taken and new names, each as fast
as it is answered: every password check they may cause is an argon2 hash).

``--turn-based N`` (20,000 at full size) measures turn-based tables (``days_per_move``): N tables of one
claimed human seat and a bot, stored in bulk through the server's storage writes before it starts,
then each opened, played one move over a WebSocket and left through the real server (which loads it
and, nobody connected and its deadline days away, evicts it with a snapshot); the server's resident
memory per idle table (its RSS growth over the second half, over the tables of that half) and, over a
sample of those evicted tables one at a time, the latency of a move on an evicted table: from opening
its WebSocket (which loads it from storage) to the state frame that shows the move (p50/p99), beside
the same-process baselines (the same on a table held in memory, a plain GET) and the load average.

Decisions per server CPU-second (decisions/s over the server's cores) is the figure that survives a
shared machine; compare a change against a baseline measured in the same session.

Bounded (every game ends, a time cap per N) and loopback only. The server process and the client
process share this machine's cores, so the figures are for both on one box.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
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


def start_server(database_url: str, port: int, workers: int = 1) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "parlor.server", "--host", "127.0.0.1", "--port", str(port)]
    if workers > 1:
        cmd += ["--workers", str(workers)]
    cmd += ["--database-url", database_url, "--bot-delay", "0", "--rate", "1000", "--burst", "1000"]
    cmd += ["--log-level", "warning"]
    # One client address creates every table: lift the per-address creation limits (docs/protocol.md).
    cmd += ["--tables-per-minute", "1000000", "--max-unfinished-tables", "1000000"]
    # ... and its connections (all its clients share 127.0.0.1; the abusers use 127.0.0.2).
    cmd += ["--max-http-connections-per-address", "100000", "--max-websockets-per-address", "100000"]
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


# ---------------------------------------------------------------------------- server CPU
def process_tree(root: int) -> list[int]:
    """``root`` and every process below it (bot workers, a site's server processes)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def cpu_seconds(root: int) -> float:
    """CPU time (user + system) used so far by the process tree under ``root``."""
    total = 0
    for pid in process_tree(root):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (clock ticks)
    return total / os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------------------- PostgreSQL
def start_postgres() -> Any:
    """A throw-away PostgreSQL cluster, as the server tests start one, but with fsync on (the site's
    real cost of a commit)."""
    sys.path.insert(0, str(ROOT))
    from tests.server.conftest import Postgres  # type: ignore[import-not-found]

    pg = Postgres()
    initdb = str(pg.bin / "initdb")
    pg._run(initdb, "-D", str(pg.data), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync")
    opts = f"-p {pg.port} -k {pg.root} -c listen_addresses=127.0.0.1 -c max_connections=300"
    pg._run(str(pg.bin / "pg_ctl"), "-D", str(pg.data), "-l", str(pg.root / "log"), "-w", "-o", opts, "start")
    return pg


# ---------------------------------------------------------------------------- abusive clients
async def abuse(kind: str, base: str, stop: asyncio.Event) -> None:
    """One abusive client of the kind named, until ``stop`` is set."""
    port = int(base.rsplit(":", 1)[1])
    held: list[Any] = []
    try:
        if kind == "idle":  # connections that never send a request (the guard closes them after 10 s)
            for _ in range(1000):
                try:
                    # From another loopback address: the abuser is not the measured clients' address.
                    held.append(await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.2", 0)))
                except OSError:
                    break
            await stop.wait()
        elif kind == "expert":
            seats = [{"kind": "bot", "level": "expert"}] * 3
            async with httpx.AsyncClient(base_url=base, timeout=60) as client:
                for _ in range(12):
                    body = {"game": "mottainai", "players": 3, "seats": seats, "bots_before_join": True}
                    (await client.post("/api/tables", json=body)).raise_for_status()
            await stop.wait()
        elif kind == "chat":
            # 60 spectator sockets from another address on 3 tables, each saying a line as fast as it
            # may (the per-connection, per-address and per-table limits answer the rest). The tables
            # wait for players who never come: the load is the chat alone.
            body = {"game": "mamma-mia", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
            async with httpx.AsyncClient(base_url=base, timeout=60) as client:
                made = [(await client.post("/api/tables", json=body)).json() for _ in range(3)]
            ws_base = base.replace("http://", "ws://")
            sockets = [
                await connect(
                    f"{ws_base}/ws/tables/{m['table']['id']}?token={m['spectator_token']}",
                    max_size=1 << 24,
                    local_addr=("127.0.0.2", 0),
                )
                for m in made
                for _ in range(20)
            ]
            held.extend(sockets)

            async def drain(ws: Any) -> None:
                with contextlib.suppress(Exception):
                    async for _ in ws:
                        pass

            readers = [asyncio.get_running_loop().create_task(drain(ws)) for ws in sockets]
            n = 0
            while not stop.is_set():
                for ws in sockets:
                    n += 1
                    with contextlib.suppress(Exception):
                        await ws.send(json.dumps({"type": "chat", "text": f"flood {n}"}))
                await asyncio.sleep(0.05)
            for r in readers:
                r.cancel()
        elif kind in ("sync", "slow"):
            # A long table to watch: bots play it out (sync) or keep playing (slow reader).
            seats = [{"kind": "bot", "level": "random"}] * 4
            body = {"game": "mottainai", "players": 4, "seats": seats, "bots_before_join": True}
            async with httpx.AsyncClient(base_url=base, timeout=60) as client:
                made = [(await client.post("/api/tables", json=body)).json() for _ in range(4 if kind == "sync" else 2)]
            ws_base = base.replace("http://", "ws://")
            watchers = 1 if kind == "sync" else 10  # slow: 10 spectators that never read, on each of 2 tables
            sockets = [
                await connect(
                    f"{ws_base}/ws/tables/{m['table']['id']}?token={m['spectator_token']}",
                    max_size=1 << 24,
                    ping_interval=None,
                )
                for m in made
                for _ in range(watchers)
            ]
            held.extend(sockets)
            if kind == "slow":
                await stop.wait()  # never read a frame
            else:
                while not stop.is_set():
                    for ws in sockets:
                        with contextlib.suppress(Exception):
                            await ws.send(json.dumps({"type": "sync"}))
                    await asyncio.sleep(1 / 16)
        elif kind == "accounts":
            # In a process of its own, so that its clients do not slow the measured ones' event loop.
            done = multiprocessing.Event()
            flood = multiprocessing.Process(target=account_flood, args=(base, done))
            flood.start()
            await stop.wait()
            done.set()
            await asyncio.get_running_loop().run_in_executor(None, flood.join, 60)
        else:
            raise SystemExit(f"unknown --abuse kind {kind!r}: sync, slow, idle, expert, chat, accounts")
    finally:
        for h in held:
            with contextlib.suppress(Exception):
                if isinstance(h, tuple):
                    h[1].close()
                else:
                    await h.close()


FLOOD_ADDRESSES = [f"127.0.0.{host}" for host in range(3, 7)]  # 4 addresses, none the measured clients'


def account_flood(base: str, done: Any) -> None:
    asyncio.run(account_flood_until(base, done))


async def account_flood_until(base: str, done: Any) -> None:
    """Sign-ins and sign-ups as fast as each client is answered, from 4 addresses (4 clients each):
    wrong passwords for one player's name and for unknown names, sign-ups of a taken name and of new
    names. Each address may have its limits' worth of passwords checked (docs/protocol.md,
    "Accounts"); the rest are refused."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as setup:
        csrf = (await setup.get("/api/account")).json()["csrf"]
        victim = {"name": "victim", "password": "the victim's password"}
        made = await setup.post("/api/account/sign-up", json=victim, headers={"X-CSRF-Token": csrf})
        assert made.status_code in (201, 409), made.text  # (409: a database given with --database-url has it)
    answers: dict[int, int] = {}

    async def looper(address: str, role: int) -> None:
        transport = httpx.AsyncHTTPTransport(local_address=address)
        async with httpx.AsyncClient(base_url=base, timeout=60, transport=transport) as client:
            headers = {"X-CSRF-Token": (await client.get("/api/account")).json()["csrf"]}
            n = 0
            while not done.is_set():
                n += 1
                if role == 0:  # guess the victim's password
                    path, body = "/api/account/sign-in", {"name": "victim", "password": f"guess {n}"}
                elif role == 1:  # guess names
                    path, body = "/api/account/sign-in", {"name": f"nobody{address}x{n}", "password": "guess"}
                elif role == 2:  # the taken name
                    path, body = "/api/account/sign-up", {"name": "victim", "password": f"password {n}"}
                else:  # new names
                    name = f"n{address.replace('.', '')}x{n}"
                    path, body = "/api/account/sign-up", {"name": name, "password": "new password"}
                try:
                    status = (await client.post(path, json=body, headers=headers)).status_code
                    if status < 300:  # signed in: back to a signed-out form, as a new visitor
                        client.cookies.clear()
                        headers = {"X-CSRF-Token": (await client.get("/api/account")).json()["csrf"]}
                except httpx.HTTPError:
                    status = 0
                answers[status] = answers.get(status, 0) + 1

    await asyncio.gather(*(looper(a, role) for a in FLOOD_ADDRESSES for role in range(4)))
    print(f"{'':>12}  account flood answers: {dict(sorted(answers.items()))}", flush=True)


async def run_with_abuse(base: str, kind: str, players: int, bot: str, seconds: float, seed: int) -> dict[str, Any]:
    stop = asyncio.Event()
    abuser = asyncio.get_running_loop().create_task(abuse(kind, base, stop))
    await asyncio.sleep(3)  # the abuse is under way before the measured tables start
    try:
        return await run_n(base, 10, players, bot, seconds, seed)
    finally:
        stop.set()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(abuser, 30)


async def create_tables(base: str, n: int, players: int, bot: str) -> list[dict[str, Any]]:
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": bot}] * (players - 1)
    body = {"game": "mamma-mia", "players": players, "seats": seats, "seat_timeout": None}
    sem = asyncio.Semaphore(16)
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:

        async def one() -> dict[str, Any]:
            async with sem:
                r = await client.post("/api/tables", json=body)
                r.raise_for_status()
                created = r.json()
                # The seat's join link, claimed as a browser does (before the clock starts, on one
                # shared client: a client per table spent the measured seconds building TLS contexts).
                tid = created["table"]["id"]
                claimed = await client.post(f"/api/tables/{tid}/claim", json={"claim": created["seats"][0]["claim"]})
                claimed.raise_for_status()
                created["token"] = claimed.json()["token"]
                return created

        return await asyncio.gather(*(one() for _ in range(n)))


async def play_client(
    base: str, created: dict[str, Any], seed: int, stop_at: float, latencies: list[float]
) -> tuple[int, bool, int]:
    """Play one table's human seat; returns (actions sent, game over, final version)."""
    rng = random.Random(seed)
    table_id = created["table"]["id"]
    url = base.replace("http://", "ws://") + f"/ws/tables/{table_id}?token={created['token']}"
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
            frame = state = whole_state(state, frame)
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


def whole_state(previous: dict[str, Any], frame: dict[str, Any]) -> dict[str, Any]:
    """A state frame as the whole state: protocol 2 sends deltas after the first (docs/protocol.md);
    protocol 1 (an older server, the baseline) whole frames."""
    if "delta" not in frame:
        return frame
    if previous.get("seq") != frame["base"]:
        raise RuntimeError(f"a delta on state {frame['base']}, held {previous.get('seq')}")
    state = dict(previous)
    for key, value in frame["delta"].items():
        if key == "view":
            state["view"] = {**state["view"], **value}
        elif key == "view_removed":
            state["view"] = {k: v for k, v in state["view"].items() if k not in value}
        else:
            state[key] = value
    for key in ("seq", "version", "cause", "events", "clocks"):
        state[key] = frame[key]
    return state


SERVER_PID: int | None = None  # the server under measurement (its CPU is read around each run)


async def run_n(base: str, n: int, players: int, bot: str, max_seconds: float, seed: int) -> dict[str, Any]:
    tables = await create_tables(base, n, players, bot)
    latencies: list[float] = []
    cpu0 = cpu_seconds(SERVER_PID) if SERVER_PID else 0.0
    start = time.perf_counter()
    stop_at = time.monotonic() + max_seconds
    results = await asyncio.gather(
        *(play_client(base, t, seed * 100_003 + i, stop_at, latencies) for i, t in enumerate(tables)),
        return_exceptions=True,
    )
    elapsed = time.perf_counter() - start
    cores = (cpu_seconds(SERVER_PID) - cpu0) / elapsed if SERVER_PID else None
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
        "server_cores": round(cores, 2) if cores is not None else None,
        "decisions_per_server_cpu_second": round(decisions / (cores * elapsed), 1) if cores else None,
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


def rss_kb(root: int) -> int:
    """The resident memory of the server's process tree, in KiB."""
    total = 0
    for pid in process_tree(root):
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total


async def one_move(base: str, created: dict[str, Any], rng: random.Random) -> tuple[float, float]:
    """Open the table's seat (loading it if it was evicted), make one move, wait for the state that
    shows it and for the seat's next turn (the bot moved), then leave. Returns (seconds from opening
    to the move's state, seconds from sending the move to its state)."""
    tid = created["table"]["id"]
    url = base.replace("http://", "ws://") + f"/ws/tables/{tid}?token={created['token']}"
    opened = time.perf_counter()
    state: dict[str, Any] = {}
    sent_at = None
    target = -1
    async with connect(url, max_size=1 << 22, open_timeout=60, ping_interval=None) as ws:
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=60))
            if frame["type"] == "error":
                raise RuntimeError(f"server refused: {frame}")
            if frame["type"] != "state":
                continue
            state = whole_state(state, frame)
            if sent_at is None and state["over"]:  # (said at once, not after a minute's wait for a turn)
                raise RuntimeError(f"table {tid}: its game is over, there is no move to make")
            if sent_at is None and state["your_turn"]:
                target = state["version"] + 1
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "id": rng.choice(state["legal"])["id"]}))
            elif sent_at is not None and state["version"] >= target:
                done = time.perf_counter()
                if state["your_turn"] or state["over"]:
                    return done - opened, done - sent_at
                while not (state["your_turn"] or state["over"]):  # the bot's reply, then leave
                    frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=60))
                    if frame["type"] == "state":
                        state = whole_state(state, frame)
                return done - opened, done - sent_at


def create_turn_based_tables(database_url: str, n: int) -> list[dict[str, Any]]:
    """Store ``n`` turn-based tables (days per move 3; a human seat, already claimed, and a ``random``
    bot) straight into the database, in transactions of 500, through the storage writes the server
    itself uses (``CreateTable``; the seat's token stored as a claimed link's is), before the server
    starts: the HTTP creation of 20,000 tables would take most of an hour on this machine and is not
    what is measured. Returns each table's id, seat token and spectator token."""
    sys.path.insert(0, str(ROOT / "src"))
    from parlor.server.limits import Limits
    from parlor.server.storage import CreateTable, Database
    from parlor.server.table.changes import new_table_row
    from parlor.server.table.hub import Hub
    from parlor.server.table.requests import parse_new_table
    from parlor.server.table.seats import hash_token, new_token

    body = {
        "game": "mamma-mia",
        "players": 2,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}],
        "days_per_move": 3,
    }
    request = parse_new_table(body, Limits(), None)
    db = Database(database_url)
    db.migrate()
    tables: list[dict[str, Any]] = []
    try:
        for at in range(0, n, 500):
            writes = []
            for _ in range(min(500, n - at)):
                # (the hub's own row builder; it reads the hub only for a rated table's settings)
                row, seats, _claims, spectator, _host = Hub._new_table_row(None, request)  # type: ignore[arg-type]
                row["creator_hash"], row["creator_account"], row["quick"] = None, None, False
                row, _state = new_table_row(request.game, row)
                token = new_token()
                seats[0] |= {"claim_hash": None, "token_hash": hash_token(token)}  # as ``ClaimSeat`` leaves it
                writes.append(CreateTable(row["id"], row, seats, None))
                tables.append({"table": {"id": row["id"]}, "token": token, "spectator": spectator})
            db.commit(writes)
    finally:
        db.close()
    return tables


async def open_to_move(base: str, table: dict[str, Any], rng: random.Random) -> float:
    """Seconds from opening the seat's WebSocket to the state frame showing its move (``one_move``)."""
    return (await one_move(base, table, rng))[0]


async def run_turn_based(
    base: str, tables: list[dict[str, Any]], seed: int, concurrency: int, sample_size: int
) -> dict[str, Any]:
    """Every stored table is opened over a WebSocket, played one move and left (the server loads it,
    then evicts it: nobody connected, its deadline days away), ``concurrency`` at a time, in two halves
    with the server's resident memory read before, between and after; then ``sample_size`` of those
    evicted tables, one at a time, are opened and moved in again (loaded from their snapshot). Beside
    each, the same-process baselines: a plain ``GET /api/health`` and the same open-to-move on a table
    that stays in memory (a spectator holds it), so the figures separate the server from the machine."""
    rng = random.Random(seed)
    assert SERVER_PID is not None
    n = len(tables)
    before = rss_kb(SERVER_PID)
    sem = asyncio.Semaphore(concurrency)
    failures: list[str] = []

    async def first_move(table: dict[str, Any]) -> None:
        async with sem:
            try:
                await one_move(base, table, rng)
            except Exception as exc:  # counted and reported: a refusal must not pass unseen
                failures.append(f"{type(exc).__name__}: {exc}")

    # Two halves: the first warms the server up (its caches, the allocator's arenas, the database's
    # pages); the growth over the second half is what each further idle table costs.
    start = time.monotonic()
    await asyncio.gather(*(first_move(t) for t in tables[: n // 2]))
    await asyncio.sleep(2)  # (the last leavers' evictions and writes settle)
    middle = rss_kb(SERVER_PID)
    await asyncio.gather(*(first_move(t) for t in tables[n // 2 :]))
    moved_seconds = time.monotonic() - start
    await asyncio.sleep(2)
    after = rss_kb(SERVER_PID)
    # Tables held in memory by a spectator each, moved in in turn: at most five moves each, since a
    # game of Mamma Mia! against a random bot may end after some twenty of the seat's moves (a table
    # whose game ended has no move to make, and its baseline would wait for ever).
    held = max(10, sample_size // 5)
    resident, sample = tables[:held], rng.sample(tables[held:], min(n - held, sample_size))
    ws_base = base.replace("http://", "ws://")
    evicted_ms, resident_ms, health_ms = [], [], []
    load_before = os.getloadavg()
    async with contextlib.AsyncExitStack() as stack:
        client = await stack.enter_async_context(httpx.AsyncClient(base_url=base, timeout=60))
        for table in resident:
            url = f"{ws_base}/ws/tables/{table['table']['id']}?token={table['spectator']}"
            held = await stack.enter_async_context(connect(url, max_size=1 << 22, ping_interval=None))
            stack.callback(asyncio.get_running_loop().create_task(drain(held)).cancel)
        for i, table in enumerate(sample):  # one at a time: the latency of a lone move on an evicted table
            evicted_ms.append(await open_to_move(base, table, rng))
            resident_ms.append(await open_to_move(base, resident[i % len(resident)], rng))
            sent = time.perf_counter()
            (await client.get("/api/health")).raise_for_status()
            health_ms.append(time.perf_counter() - sent)
    load_after = os.getloadavg()

    def pct(xs: list[float], q: float) -> float:
        xs = sorted(xs)
        return round(1000 * xs[min(len(xs) - 1, int(q * len(xs)))], 2)

    figures = {
        "mode": "turn-based",
        "tables": n,
        "first_moves_seconds": round(moved_seconds, 1),
        "first_move_failures": len(failures),
        "first_failure": failures[0] if failures else None,
        "rss_kb_before": before,
        "rss_kb_after": after,
        "rss_kb_middle": middle,
        "bytes_per_idle_table": round((after - middle) * 1024 / max(1, n - n // 2)),
        "bytes_per_table_with_warm_up": round((after - before) * 1024 / max(1, n)),
        "sample": len(sample),
        "load_average_1min": [round(load_before[0], 2), round(load_after[0], 2)],
    }
    for name, xs in (("evicted_open_to_move", evicted_ms), ("resident_open_to_move", resident_ms)):
        figures[f"{name}_ms_p50"], figures[f"{name}_ms_p99"] = pct(xs, 0.5), pct(xs, 0.99)
    figures["health_get_ms_p50"], figures["health_get_ms_p99"] = pct(health_ms, 0.5), pct(health_ms, 0.99)
    return figures


async def drain(ws: Any) -> None:
    """Read and drop a held connection's frames (so the server never waits on it)."""
    async for _ in ws:
        pass


def report(row: dict[str, Any], label: str) -> None:
    print(
        f"{label:>12}  {row['decisions_per_second']:8.1f} decisions/s  "
        f"{row['client_actions_per_second']:7.1f} client actions/s  "
        f"p50 {row['latency_ms_p50']} ms  p99 {row['latency_ms_p99']} ms  "
        f"server CPU {row.get('server_cores', '?')} cores  "
        f"{row.get('decisions_per_server_cpu_second', '?')} decisions/server CPU-s  "
        f"games finished {row['games_finished']}/{row['tables']} in {row['seconds']} s"
        + (f"  FAILURES {row['client_failures']}: {row['first_failure']}" if row["client_failures"] else ""),
        flush=True,
    )


def measured(url: str, workers: int, job: Any) -> dict[str, Any]:
    """Start a server on ``url`` and run ``job(base)`` against it (its CPU measured around the play)."""
    global SERVER_PID
    port = free_port()
    proc = start_server(url, port, workers)
    SERVER_PID = proc.pid
    try:
        time.sleep(1 if workers == 1 else 3)  # a site's processes all up before the clock starts
        return asyncio.run(job(f"http://127.0.0.1:{port}"))
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="10,100,500", help="comma-separated N (tables = clients)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--bot", default="medium", help="bot level in the other seats (random is cheapest)")
    parser.add_argument("--max-seconds", type=float, default=60.0, help="time cap per N")
    parser.add_argument("--database-url", default=None, help="default: a fresh SQLite file per N")
    parser.add_argument("--postgres", action="store_true", help="a throw-away PostgreSQL, a fresh database per N")
    parser.add_argument("--workers", type=int, default=1, help="server processes (more than 1: PostgreSQL)")
    parser.add_argument("--abuse", default="", help="comma-separated: sync, slow, idle, expert, chat, accounts")
    parser.add_argument("--turn-based", type=int, default=0, help="N turn-based tables (memory per idle table)")
    parser.add_argument("--turn-based-concurrency", type=int, default=32, help="clients moving at once")
    parser.add_argument("--turn-based-sample", type=int, default=200, help="evicted tables moved in one at a time")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    sizes = [int(x) for x in args.tables.split(",") if x.strip()]
    rows = []
    pg = start_postgres() if args.postgres else None
    try:
        with tempfile.TemporaryDirectory(prefix="parlor-bench-") as tmp:
            runs = iter(range(1_000_000))

            def fresh(name: str) -> str:
                if pg is not None:
                    return pg.new_database()
                return args.database_url or f"sqlite:///{os.path.join(tmp, f'bench-{name}-{next(runs)}.db')}"

            if args.turn_based:
                url = fresh("turn-based")
                made = time.monotonic()
                tables = create_turn_based_tables(url, args.turn_based)
                made = time.monotonic() - made
                row = measured(
                    url,
                    args.workers,
                    lambda base: run_turn_based(
                        base, tables, args.seed, args.turn_based_concurrency, args.turn_based_sample
                    ),
                )
                row["bulk_create_seconds"] = round(made, 1)
                rows.append(row)
                if not args.json:
                    print(
                        f"turn-based N={row['tables']}: stored in {row['bulk_create_seconds']} s, each opened and "
                        f"moved in over WebSocket in {row['first_moves_seconds']} s "
                        f"({row['first_move_failures']} failures: {row['first_failure']}); "
                        f"{row['bytes_per_idle_table']} bytes RSS per idle table over the second half "
                        f"({row['bytes_per_table_with_warm_up']} with the warm-up; "
                        f"{row['rss_kb_before']} -> {row['rss_kb_middle']} -> {row['rss_kb_after']} KiB); "
                        f"over {row['sample']} tables, one at a time, open->move on an evicted table "
                        f"p50 {row['evicted_open_to_move_ms_p50']} ms p99 {row['evicted_open_to_move_ms_p99']} ms, "
                        f"on a table in memory p50 {row['resident_open_to_move_ms_p50']} ms "
                        f"p99 {row['resident_open_to_move_ms_p99']} ms, GET /api/health "
                        f"p50 {row['health_get_ms_p50']} ms p99 {row['health_get_ms_p99']} ms; "
                        f"load average {row['load_average_1min'][0]} -> {row['load_average_1min'][1]}",
                        flush=True,
                    )
                sizes = []
            for n in sizes if not args.abuse else []:
                row = measured(
                    fresh(str(n)),
                    args.workers,
                    lambda base, n=n: run_n(base, n, args.players, args.bot, args.max_seconds, args.seed),
                )
                rows.append(row)
                if not args.json:
                    report(row, f"N={n}")
            for kind in [k.strip() for k in args.abuse.split(",") if k.strip()]:
                quiet = measured(
                    fresh(kind + "-alone"),
                    args.workers,
                    lambda base: run_n(base, 10, args.players, args.bot, args.max_seconds, args.seed),
                )
                loud = measured(
                    fresh(kind),
                    args.workers,
                    lambda base, kind=kind: run_with_abuse(
                        base, kind, args.players, args.bot, args.max_seconds, args.seed
                    ),
                )
                ratio = (loud["latency_ms_p99"] or 0) / max(quiet["latency_ms_p99"] or 1e-9, 1e-9)
                row = {"abuse": kind, "alone": quiet, "beside": loud, "p99_ratio": round(ratio, 2)}
                rows.append(row)
                if not args.json:
                    report(quiet, "alone")
                    report(loud, f"+{kind}")
                    print(f"{'':>12}  p99 ratio beside '{kind}': {ratio:.2f}x", flush=True)
    finally:
        if pg is not None:
            pg.stop()
    if args.json:
        print(
            json.dumps({"players": args.players, "bot": args.bot, "workers": args.workers, "results": rows}, indent=2)
        )


if __name__ == "__main__":
    main()
