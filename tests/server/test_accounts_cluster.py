"""Accounts, the lobby and ratings on a site of two server processes over one PostgreSQL: a session
made on one process opens the other, sign-in failures are counted site-wide, the lobby of either
lists a table the other plays, and sitting down there (relayed to its owner) makes the seat the
account's, which opens from the other process by the session alone; a moderator's ban on one process
closes the account's connection on the other, saying why."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from sqlalchemy import create_engine, text
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from parlor.server.storage import Database, ModerationStore

from .conftest import ServerProcess, start_together
from .test_account_seats import first_frame
from .test_accounts import Browser, fresh_name

LEASE = "4"


@dataclass
class Pair:
    """Two server processes of one site over one PostgreSQL database."""

    url: str
    a: ServerProcess
    b: ServerProcess


@pytest.fixture(scope="module")
def pair(postgres) -> Iterator[Pair]:
    """One pair for the file's tests (a server process costs about 1.3 s of CPU to start): every test
    makes its own accounts (fresh names) and tables, and the test that cuts the processes' LISTEN
    connections waits until both listen again."""
    url = postgres.new_database()
    common = ("--cluster", "--lease-seconds", LEASE, "--bot-delay", "0")
    a, b = start_together(ServerProcess(url, None, *common), ServerProcess(url, None, *common))
    try:
        yield Pair(url, a, b)
    finally:
        b.stop()
        a.stop()


class Site:
    """What ``first_frame`` needs of a server: its base URL."""

    def __init__(self, base: str) -> None:
        self.base = base


def test_accounts_and_the_lobby_across_two_processes(pair: Pair) -> None:
    url, a, b = pair.url, pair.a, pair.b
    # Signed up on A; the same cookie is a session on B.
    on_a = Browser(a.base)
    name = fresh_name()
    assert on_a.sign_up(name).status_code == 201
    on_b = Browser(b.base)
    on_b.http.cookies.set("parlor_session", on_a.http.cookies.get("parlor_session"))
    assert on_b.who() == {"name": name}
    # Failures for one name count on both processes together (5 allowed).
    guesser_a, guesser_b = Browser(a.base), Browser(b.base)
    for i in range(5):
        assert (guesser_a if i % 2 else guesser_b).sign_in(name, "guessing....").status_code == 401
    assert guesser_a.sign_in(name).status_code == 429
    assert guesser_b.sign_in(name).status_code == 429
    # A public table that A plays, listed by B's lobby; a player on B sits down (relayed to A).
    body = {"game": "mamma-mia", "players": 2, "public": True, "seats": [{"kind": "human"}, {"kind": "human"}]}
    table_id = on_a.post("/api/tables", body).json()["table"]["id"]
    waiting = on_b.http.get("/api/lobby", params={"game": "mamma-mia"}).json()["waiting"]
    assert table_id in [e["id"] for e in waiting]
    sat = on_b.post(f"/api/tables/{table_id}/sit", {})
    assert sat.status_code == 200, sat.text
    seat = sat.json()["seat"]
    # The seat is the account's: B's WebSocket (relayed to A) opens it with the session alone.
    welcome, closed = first_frame(Site(b.base), table_id, on_b.http.cookies.get("parlor_session"))
    assert welcome["type"] == "welcome" and welcome["seat"] == seat and closed == 0
    # ... and never for a page of another origin: that one only watches (the table is public).
    evil, _ = first_frame(Site(b.base), table_id, on_b.http.cookies.get("parlor_session"), "http://evil.example")
    assert evil["type"] == "welcome" and evil["role"] == "spectator"
    # Banned by a moderator on B while its seat is open on A: A is told, and says why.
    moderator = Browser(b.base)
    moderator_name = fresh_name()
    assert moderator.sign_up(moderator_name).status_code == 201
    db = Database(url)
    assert ModerationStore(db).set_admin(moderator_name, True)
    db.close()
    cookie = on_b.http.cookies.get("parlor_session")
    ws_url = a.base.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    with connect(ws_url, additional_headers={"Cookie": f"parlor_session={cookie}"}, open_timeout=30) as ws:
        assert json.loads(ws.recv(timeout=60))["seat"] == seat
        until = (datetime.now(UTC) + timedelta(days=1)).isoformat(timespec="seconds")
        ban = {"name": name, "kind": "ban", "reason": "cheating", "until": until}
        assert moderator.post("/api/admin/sanctions", ban).status_code == 201
        frames = []
        with pytest.raises(ConnectionClosed):
            while True:
                frames.append(json.loads(ws.recv(timeout=120)))
        assert ws.close_code == 4403
        told = [f for f in frames if f["type"] == "error"]
        assert told and told[-1]["code"] == "banned" and "cheating" in told[-1]["message"]
    moderator.close()
    for br in (on_a, on_b, guesser_a, guesser_b):
        br.close()


def account_seated_at_a_table_of_a(a: ServerProcess, b: ServerProcess) -> tuple[Browser, Browser, str, int, str]:
    """A public table process A plays (made by a guest, ``host``) and a new account signed up on B
    that sat down there (relayed to A): (host, the account's browser, table id, its seat, its name)."""
    host = Browser(a.base)
    host.who()
    body = {"game": "mamma-mia", "players": 3, "public": True, "seats": [{"kind": "human"}] * 3}
    table_id = host.post("/api/tables", body).json()["table"]["id"]
    leaving = Browser(b.base)
    name = fresh_name()
    assert leaving.sign_up(name).status_code == 201
    sat = leaving.post(f"/api/tables/{table_id}/sit", {})
    assert sat.status_code == 200, sat.text
    return host, leaving, table_id, sat.json()["seat"], name


def test_a_deleted_account_is_forgotten_by_the_process_that_holds_its_table(pair: Pair) -> None:
    """The account is deleted through process B while process A plays its table: A's table shows the
    seat as a deleted player's (no name) at once, to both processes' lobbies and summaries; the
    WebSocket the account's session opened there (through B, relayed to A) is closed; the session opens
    nothing on either process any more."""
    a, b = pair.a, pair.b
    host, leaving, table_id, seat, name = account_seated_at_a_table_of_a(a, b)
    cookie = leaving.http.cookies.get("parlor_session")
    ws_url = b.base.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    with connect(ws_url, additional_headers={"Cookie": f"parlor_session={cookie}"}, open_timeout=30) as ws:
        welcome = json.loads(ws.recv(timeout=60))
        assert welcome["type"] == "welcome" and welcome["seat"] == seat
        for base in (a.base, b.base):
            assert named(base, table_id, seat) == (True, name)
        assert leaving.post("/api/account/delete", {"password": "correct horse"}).status_code == 200
        with pytest.raises(ConnectionClosed):  # A closes the session's connection when told
            while True:
                ws.recv(timeout=120)
        assert ws.close_code == 4403
    for base in (a.base, b.base):
        assert named(base, table_id, seat) == (True, None)  # the page says "deleted player"
        waiting = httpx.get(f"{base}/api/lobby", params={"game": "mamma-mia"}, timeout=60).json()["waiting"]
        [entry] = [e for e in waiting if e["id"] == table_id]
        assert name not in json.dumps(entry)
        frame, closed = first_frame(Site(base), table_id, cookie)
        assert frame["type"] == "welcome" and frame["role"] == "spectator" and closed == 0
        on = Browser(base)
        on.http.cookies.set("parlor_session", cookie)
        assert on.who() is None
        on.close()
    host.close()
    leaving.close()


def test_a_deletion_said_while_a_process_was_not_listening_is_caught_up(pair: Pair) -> None:
    """Process A's LISTEN connection is cut (as a database restart or a network cut would cut it) and
    the account is deleted through B before A listens again: the deletion's message reaches nobody at
    A, yet once A listens again it catches up: the seat at the table it plays loses its name and the
    connection the account's session opened there is closed."""
    url, a, b = pair.url, pair.a, pair.b
    engine = create_engine(url)
    try:
        host, leaving, table_id, seat, name = account_seated_at_a_table_of_a(a, b)
        cookie = leaving.http.cookies.get("parlor_session")
        ws_url = b.base.replace("http://", "ws://") + f"/ws/tables/{table_id}"
        with connect(ws_url, additional_headers={"Cookie": f"parlor_session={cookie}"}, open_timeout=30) as ws:
            assert json.loads(ws.recv(timeout=60))["type"] == "welcome"
            assert named(a.base, table_id, seat) == (True, name)
            # Cut both processes' LISTEN connections, waiting until their server processes are gone.
            with engine.begin() as conn:
                cut = conn.execute(
                    text(
                        "SELECT pg_terminate_backend(pid, 60000) FROM pg_stat_activity WHERE datname ="
                        " current_database() AND query = 'LISTEN parlor_cluster' AND pid <> pg_backend_pid()"
                    )
                ).all()
            assert [row[0] for row in cut] == [True, True]
            assert leaving.post("/api/account/delete", {"password": "correct horse"}).status_code == 200
            with pytest.raises(ConnectionClosed):  # A closes the session's connection once caught up
                while True:
                    ws.recv(timeout=120)
            assert ws.close_code == 4403
        for base in (a.base, b.base):
            assert named(base, table_id, seat) == (True, None)
        # Both listen again (each at its own next heartbeat).
        count = text(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND query = 'LISTEN parlor_cluster'"
        )
        deadline = time.monotonic() + 120
        while True:
            with engine.connect() as conn:
                if conn.execute(count).scalar() == 2:
                    break
            assert time.monotonic() < deadline, "a process did not listen again"
            time.sleep(0.2)
        host.close()
        leaving.close()
    finally:
        engine.dispose()


def named(base: str, table_id: str, seat: int) -> tuple[bool, str | None]:
    """Whether a seat belongs to an account, and its name, as the table's summary says."""
    s = httpx.get(f"{base}/api/tables/{table_id}", timeout=60).json()["seats"][seat]
    return s["account"], s["name"]
