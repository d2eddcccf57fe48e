"""Several server processes as one site on one PostgreSQL database (server/cluster.py).

Real processes on a real PostgreSQL: a table is owned by the process that created it, a client that
reaches the other process is relayed (REST and WebSocket), and when the owner is killed the other
process takes its tables over with every acknowledged action kept."""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time

import httpx
from sqlalchemy import create_engine, text

from ..helpers import run_coroutine
from .conftest import ROOT, Client, ServerProcess, create_table, start_together, token_of
from .test_play import catch_up, play

HUMANS2 = [{"kind": "human"}, {"kind": "human"}]
LEASE = "2"


def lease_owner(url: str, table_id: str) -> str | None:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return conn.execute(
                text("SELECT owner FROM parlor_leases WHERE table_id = :t"), {"t": table_id}
            ).scalar_one_or_none()
    finally:
        engine.dispose()


def connect(base: str, tid: str, token: str, timeout: float = 120.0) -> Client:
    """As the page does: a table whose process just died answers "try again" until it is taken over."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return Client(base, tid, token)
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def test_two_processes_relay_each_others_tables_and_take_over_when_one_is_killed(postgres):
    url = postgres.new_database()
    a, b = start_together(
        ServerProcess(url, None, "--cluster", "--lease-seconds", LEASE, "--bot-delay", "0"),
        ServerProcess(url, None, "--cluster", "--lease-seconds", LEASE, "--bot-delay", "0"),
    )
    clients: list[Client] = []
    try:
        created = create_table(a.base, players=2, seats=HUMANS2)
        tid = created["table"]["id"]
        owner_a = lease_owner(url, tid)
        assert owner_a is not None
        # Through B: the summary, the seat claims and a WebSocket all reach A's table.
        assert httpx.get(f"{b.base}/api/tables/{tid}", timeout=60).json()["status"] == "playing"
        created["_base"] = b.base
        p0 = Client(b.base, tid, token_of(created, 0))  # relayed by B
        p1 = Client(a.base, tid, token_of(created, 1))  # straight to A
        clients = [p0, p1]
        assert lease_owner(url, tid) == owner_a  # B relayed; it did not take the table
        # A wrong token through the relay is refused as it would be at the owner.
        with httpx.Client(timeout=60) as http:
            r = http.post(f"{b.base}/api/tables/{tid}/join", json={"token": "nope"})
        assert r.status_code == 403 and r.json()["error"]["code"] == "bad_token"
        rng = random.Random(3)
        play(clients, rng, until=lambda: max(c.state["version"] for c in clients) >= 12)
        catch_up(clients)
        # Kill A the moment it acknowledges one more decision.
        mover = p0 if p0.state["your_turn"] else p1
        mover.send({"type": "action", "id": mover.state["legal"][0]["id"], "ref": "last"})
        ack = mover.next(lambda f: f.get("ref") == "last")
        assert ack["type"] == "ack"
        acked = ack["version"]
        a.kill()
        for c in clients:
            c.close()
        # B takes the table over by itself (its sweep), within a few lease periods.
        deadline = time.monotonic() + 120
        while lease_owner(url, tid) in (owner_a, None):
            assert time.monotonic() < deadline, "B did not take the table over"
            time.sleep(0.2)
        p0 = Client(b.base, tid, token_of(created, 0))
        p1 = Client(b.base, tid, token_of(created, 1))
        clients = [p0, p1]
        assert p0.state["version"] == p1.state["version"] == acked
        play(clients, rng)
        assert p0.state["over"] and p0.state["result"] == p1.state["result"]
    finally:
        for c in clients:
            c.close()
        a.stop()
        b.stop()


def test_workers_serve_one_site_and_a_killed_worker_is_replaced(postgres):
    url = postgres.new_database()
    site = ServerProcess(url, None, "--workers", "2", "--lease-seconds", LEASE, "--bot-delay", "0").start()
    try:
        output = site.output()
        pids = [int(p) for p in re.search(r"2 processes: (\d+), (\d+)", output).groups()]
        tables = []
        for _ in range(6):  # connections land on either process: every table works through the one port
            created = create_table(site.base, players=2, seats=[{"kind": "human"}, {"kind": "bot", "level": "medium"}])
            tables.append(created)
        for created in tables:
            with Client(site.base, created["table"]["id"], token_of(created, 0)) as c:
                st = c.wait_turn_or_over()
                reply = c.act(st["legal"][0]["id"])
                assert reply["type"] == "ack", reply
        owners = {lease_owner(url, t["table"]["id"]) for t in tables}
        import os

        os.kill(pids[0], signal.SIGKILL)
        deadline = time.monotonic() + 120
        while "starting another" not in site.output():
            assert time.monotonic() < deadline, site.output()
            time.sleep(0.2)
        # Every table still plays through the port, whichever process held it.
        for created in tables:
            tid = created["table"]["id"]
            with connect(site.base, tid, token_of(created, 0)) as c:
                st = c.wait_turn_or_over(timeout=60)
                if not st["over"]:
                    assert c.act(st["legal"][0]["id"])["type"] == "ack"
        assert len(owners) >= 1
    finally:
        site.stop()


def test_several_processes_are_refused_on_sqlite(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "parlor.server", "--workers", "2", "--database-url", f"sqlite:///{tmp_path / 'x.db'}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "need PostgreSQL" in done.stderr
    assert not (tmp_path / "x.db").exists()  # refused before the database was touched


def test_the_relay_closes_its_http_client_at_shutdown():
    """The relay keeps one pooled HTTP client to the other processes; the lifespan's shutdown closes it."""
    import asyncio

    from parlor.server.edge.relay import RelayMiddleware

    async def app(scope, receive, send):  # a minimal ASGI lifespan, as the site's application runs one
        while True:
            message = await receive()
            await send({"type": message["type"] + ".complete"})
            if message["type"] == "lifespan.shutdown":
                return

    async def run() -> tuple[bool, bool, list[str]]:
        relay = RelayMiddleware(app)
        client = httpx.AsyncClient()
        relay._client = client
        inbox: asyncio.Queue = asyncio.Queue()
        sent: list[str] = []

        async def send(message):
            sent.append(message["type"])

        task = asyncio.create_task(relay({"type": "lifespan"}, inbox.get, send))
        await inbox.put({"type": "lifespan.startup"})
        await asyncio.sleep(0.01)
        open_after_startup = not client.is_closed
        await inbox.put({"type": "lifespan.shutdown"})
        await task
        return open_after_startup, client.is_closed and relay._client is None, sent

    open_after_startup, closed, sent = run_coroutine(run())
    assert open_after_startup and closed
    assert sent == ["lifespan.startup.complete", "lifespan.shutdown.complete"]


def process_addresses(url: str) -> list[str]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return [r[0] for r in conn.execute(text("SELECT address FROM parlor_processes"))]
    finally:
        engine.dispose()


def test_the_relay_keeps_the_body_and_header_timeouts_and_wants_the_key(postgres):
    """A request relayed to the table's owner
    whose body never comes is answered 408 within the body timeout, as it is when served where it
    landed; the relay listener closes a connection that sends no request head; it serves relayed
    requests only (the right key, compared as bytes: a non-ASCII key is a clean 403); and on the public
    port the relay headers are ignored, never believed."""
    import socket

    url = postgres.new_database()
    args = ("--cluster", "--lease-seconds", LEASE, "--bot-delay", "0", "--body-timeout", "1", "--header-timeout", "1")
    a, b = start_together(ServerProcess(url, None, *args), ServerProcess(url, None, *args))
    try:
        created = create_table(a.base, players=2, seats=HUMANS2)
        tid = created["table"]["id"]
        # A body announced but never sent, to B: relayed to A only once whole, so B answers 408 itself.
        with socket.create_connection(("127.0.0.1", b.port), timeout=30) as s:
            head = f"POST /api/tables/{tid}/join HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            s.sendall((head + 'Content-Length: 200\r\n\r\n{"token"').encode())
            answer = s.recv(65536).decode(errors="replace")
        assert answer.startswith("HTTP/1.1 408"), answer[:200]
        # The relay listeners: a connection that sends nothing is closed after the header timeout.
        relays = process_addresses(url)
        assert len(relays) == 2
        host, port = relays[0].rsplit(":", 1)
        with socket.create_connection((host, int(port)), timeout=30) as s:
            assert s.recv(1024) == b""  # closed by the server, not by our timeout
        # Only relayed requests there; a wrong or non-ASCII key is a clean refusal.
        for key in (None, "wrong", "clé-é"):
            headers = {} if key is None else {"x-parlor-relay": key.encode("utf-8")}
            r = httpx.get(f"http://{relays[0]}/api/tables/{tid}", headers=headers, timeout=10)
            assert r.status_code == 403 and r.json()["error"]["code"] == "not_relayed", (key, r.text)
        # On the public port the relay headers change nothing (and never a 500).
        for key in ("wrong", "clé-é"):
            r = httpx.get(
                f"{b.base}/api/tables/{tid}",
                headers={"x-parlor-relay": key.encode("utf-8"), "x-parlor-client": b"10.0.0.9"},
                timeout=10,
            )
            assert r.status_code == 200 and r.json()["id"] == tid
    finally:
        a.stop()
        b.stop()


def test_processes_on_two_hosts_form_one_site_and_a_killed_host_loses_nothing(postgres):
    """Two "hosts" (loopback addresses 127.0.0.2 and 127.0.0.3), each with its own server process
    advertising an address the other reaches (--advertise-address): tables made on either are played
    through both, and when one host's process is killed the other takes its tables over with every
    acknowledged action kept."""
    url = postgres.new_database()
    site = ("--lease-seconds", LEASE, "--bot-delay", "0")
    hosts = [
        ServerProcess(url, None, "--advertise-address", f"{addr}:0", *site, host=addr)
        for addr in ("127.0.0.2", "127.0.0.3")
    ]
    a, b = hosts
    clients: list[Client] = []
    try:
        for server in hosts:
            server.start()
        assert sorted(addr.rsplit(":", 1)[0] for addr in process_addresses(url)) == ["127.0.0.2", "127.0.0.3"]
        tables = [create_table(a.base, players=2, seats=HUMANS2), create_table(b.base, players=2, seats=HUMANS2)]
        rng = random.Random(5)
        acked: dict[str, int] = {}
        for i, created in enumerate(tables):
            tid = created["table"]["id"]
            other = hosts[1 - i]  # each table played through the other host: relayed
            created["_base"] = other.base
            pair = [Client(other.base, tid, token_of(created, 0)), Client(other.base, tid, token_of(created, 1))]
            clients += pair
            play(pair, rng, until=lambda pair=pair: max(c.state["version"] for c in pair) >= 6)
            catch_up(pair)
            acked[tid] = pair[0].state["version"]
        owner_a = lease_owner(url, tables[0]["table"]["id"])
        a.kill()
        for c in clients:
            c.close()
        clients = []
        deadline = time.monotonic() + 30
        while lease_owner(url, tables[0]["table"]["id"]) in (owner_a, None):
            assert time.monotonic() < deadline, "the second host did not take the table over"
            time.sleep(0.2)
        for created in tables:
            tid = created["table"]["id"]
            created["_base"] = b.base
            pair = [connect(b.base, tid, token_of(created, 0)), connect(b.base, tid, token_of(created, 1))]
            clients += pair
            assert pair[0].state["version"] == acked[tid]
            play(pair, rng, until=lambda pair=pair, tid=tid: max(c.state["version"] for c in pair) >= acked[tid] + 2)
    finally:
        for c in clients:
            c.close()
        a.stop()
        b.stop()


def session_max_age(response: httpx.Response) -> int:
    """The Max-Age of the session cookie a sign-up or sign-in set."""
    from parlor.server.edge.accounts import SESSION_COOKIE

    [cookie] = [c for c in response.headers.get_list("set-cookie") if c.startswith(SESSION_COOKIE + "=")]
    return int(re.search(r"Max-Age=(\d+)", cookie, re.IGNORECASE).group(1))


def test_parlor_serve_hands_the_account_limits_to_every_worker(postgres):
    """``parlor serve --workers 2`` with account limits: each server process is started with them
    (and so is a replacement for a killed one), and the site keeps them whichever process answers:
    sessions last the days asked for, and the address's sign-ups stop at the number asked for."""
    from .test_accounts import Browser, fresh_name

    url = postgres.new_database()
    flags = ["--session-days", "7", "--sign-ups-per-address", "2"]
    site = ServerProcess(url, None, "--workers", "2", "--bot-delay", "0", *flags, cli=True).start()
    week = 7 * 24 * 3600
    try:

        def children() -> list[int]:
            found = re.findall(r"(\d+) processes: (\d+), (\d+)|server process (\d+) started", site.output())
            first = [int(p) for p in found[0][1:3]]
            return first + [int(m[3]) for m in found[1:] if m[3]]

        def started_with_the_flags(pid: int) -> bool:
            deadline = time.monotonic() + 120
            while True:  # until the child has exec'd (before that, /proc shows the parent's command line)
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    argv = [a.decode() for a in f.read().split(b"\0")]
                if "--cluster" in argv:
                    break
                assert time.monotonic() < deadline, argv
                time.sleep(0.05)
            if "--session-days" not in argv or "--sign-ups-per-address" not in argv:
                return False
            days = float(argv[argv.index("--session-days") + 1])
            return days == 7 and int(argv[argv.index("--sign-ups-per-address") + 1]) == 2

        assert all(started_with_the_flags(pid) for pid in children())
        # Each browser on its own connection: either process may answer each of them.
        answers = []
        for _ in range(6):
            b = Browser(site.base)
            answers.append(b.sign_up(fresh_name()))
            b.close()
        assert [r.status_code for r in answers] == [201, 201, 429, 429, 429, 429], [r.text for r in answers]
        assert all(r.json()["error"]["code"] == "rate_limited" for r in answers[2:])
        assert [session_max_age(r) for r in answers[:2]] == [week, week]
        # A killed worker's replacement is started with the same limits.
        os.kill(children()[0], signal.SIGKILL)
        deadline = time.monotonic() + 120
        while len(children()) < 3:
            assert time.monotonic() < deadline, site.output()
            time.sleep(0.2)
        assert started_with_the_flags(children()[2])
    finally:
        site.stop()
