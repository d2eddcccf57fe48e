"""Accounts, the lobby and ratings on a site of two server processes over one PostgreSQL: a session
made on one process opens the other, sign-in failures are counted site-wide, the lobby of either
lists a table the other plays, and sitting down there (relayed to its owner) makes the seat the
account's, which opens from the other process by the session alone."""

from __future__ import annotations

import json

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from .conftest import ServerProcess
from .test_account_seats import first_frame
from .test_accounts import Browser, fresh_name

LEASE = "4"


class Site:
    """What ``first_frame`` needs of a server: its base URL."""

    def __init__(self, base: str) -> None:
        self.base = base


def test_accounts_and_the_lobby_across_two_processes(postgres) -> None:
    url = postgres.new_database()
    common = ("--cluster", "--lease-seconds", LEASE, "--bot-delay", "0")
    a = ServerProcess(url, None, *common).start()
    b = ServerProcess(url, None, *common).start()
    try:
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
        for br in (on_a, on_b, guesser_a, guesser_b):
            br.close()
    finally:
        a.stop()
        b.stop()


def test_a_deleted_account_is_forgotten_by_the_process_that_holds_its_table(postgres) -> None:
    """The account is deleted through process B while process A plays its table: A's table shows the
    seat as a deleted player's (no name) at once, to both processes' lobbies and summaries; the
    WebSocket the account's session opened there (through B, relayed to A) is closed; the session opens
    nothing on either process any more."""
    url = postgres.new_database()
    common = ("--cluster", "--lease-seconds", LEASE, "--bot-delay", "0")
    a = ServerProcess(url, None, *common).start()
    b = ServerProcess(url, None, *common).start()
    try:
        host = Browser(a.base)
        host.who()
        body = {"game": "mamma-mia", "players": 3, "public": True, "seats": [{"kind": "human"}] * 3}
        table_id = host.post("/api/tables", body).json()["table"]["id"]  # A plays it
        leaving = Browser(b.base)
        name = fresh_name()
        assert leaving.sign_up(name).status_code == 201
        sat = leaving.post(f"/api/tables/{table_id}/sit", {})
        assert sat.status_code == 200, sat.text
        seat = sat.json()["seat"]
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
    finally:
        a.stop()
        b.stop()


def named(base: str, table_id: str, seat: int) -> tuple[bool, str | None]:
    """Whether a seat belongs to an account, and its name, as the table's summary says."""
    s = httpx.get(f"{base}/api/tables/{table_id}", timeout=60).json()["seats"][seat]
    return s["account"], s["name"]
