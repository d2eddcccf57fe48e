"""Turn-based Swiss tournaments (``move_days``) on a real server (SQLite and PostgreSQL): a round's
tables get their stored deadlines, and their players their "your turn" notifications, when the round
is made, so a round nobody opens still ends by the timeout rule; a round whose players move ends as
any game does. The test moves one clock for both the tournaments' start and the turn-based deadlines
(``Hub.clock`` reads the tournaments' clock); the scans of start times and of deadlines run every few
hundredths of a second."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from parlor.server.limits import Limits
from parlor.server.tournaments import TournamentClock

from .conftest import BACKENDS, Client, ServerThread, make_url
from .test_accounts import GENEROUS, Browser, signed_up
from .test_tournaments import new_tournament, players, refused, show, starts_in, wait_for

DAY = timedelta(days=1)
LIMITS = Limits(min_turn_time=0.1, rated_substitute_level="random", turn_scan_interval=0.05)


@pytest.fixture(scope="module", params=BACKENDS)
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    url = make_url(request.param, request, tmp_path_factory.mktemp("db"))
    clock = TournamentClock()
    with ServerThread(
        url, seat_timeout=0.0, account_limits=GENEROUS, limits=LIMITS, tournament_clock=clock, tournament_scan=0.05
    ) as s:
        s.clock = clock  # type: ignore[attr-defined]
        s.app.state.hub.clock = clock.now  # one moved clock for the start times and the deadlines
        yield s


def until(condition: Callable[[], Any], what: str, timeout: float = 120.0) -> Any:
    """Poll ``condition`` until it holds (a generous deadline; never a fixed sleep)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def parse(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def turns(b: Browser) -> list[dict[str, Any]]:
    r = b.http.get("/api/account/turns")
    assert r.status_code == 200, r.text
    return r.json()["turns"]


def told(b: Browser, kind: str, table_id: str) -> bool:
    listed = b.http.get("/api/account/notifications").json()["notifications"]
    return any(n["kind"] == kind and n["table_id"] == table_id for n in listed)


def round_one(site: ServerThread, t: dict[str, Any]) -> list[dict[str, Any]]:
    """Round 1's tables, once every one is made."""

    def made() -> list[dict[str, Any]] | None:
        rounds = show(site, t["id"])["round_tables"]
        return rounds[0]["tables"] if rounds and all(tb["table_id"] for tb in rounds[0]["tables"]) else None

    return until(made, "round 1's tables")


def started_round(site: ServerThread, days: int) -> tuple[dict[str, Any], dict[str, Browser], list[dict[str, Any]]]:
    """A 4-player turn-based Swiss of Mamma Mia! at two a table, one round, started: (the tournament,
    each player's browser by name, round 1's tables)."""
    host, _ = signed_up(site.base)
    t = new_tournament(host, site, game="mamma-mia", rounds=1, turn_time=None, move_days=days, max_players=4)
    assert t["move_days"] == days and t["turn_time"] is None
    browsers = {name: b for b, name in players(site, 4, t)}
    site.clock.advance(7200)  # type: ignore[attr-defined]
    return t, browsers, round_one(site, t)


def check_round_started(
    site: ServerThread, browsers: dict[str, Browser], tables: list[dict[str, Any]], days: int
) -> None:
    """Before anyone opened a table: each table is turn-based; its player to move has a stored deadline
    (in their "your turn" list) ``days`` from now, and was told it is their turn; everyone was told the
    round began."""
    for tb in tables:
        summary = httpx.get(f"{site.base}/api/tables/{tb['table_id']}", timeout=60).json()
        assert summary["days_per_move"] == days and summary["turn_time"] is None
        names, tid = [s["name"] for s in tb["seats"]], tb["table_id"]
        for name in names:
            until(lambda n=name, i=tid: told(browsers[n], "tournament_round", i), f"{name} told of the round")
        movers = until(
            lambda ns=names, i=tid: [n for n in ns if any(e["table_id"] == i for e in turns(browsers[n]))],
            "the mover's stored deadline",
        )
        assert len(movers) == 1  # (Mamma Mia!: one player decides at a time)
        entry = next(e for e in turns(browsers[movers[0]]) if e["table_id"] == tid)
        left = parse(entry["deadline"]) - site.clock.now()  # type: ignore[attr-defined]
        assert (days - 1) * DAY < left <= days * DAY
        until(lambda m=movers[0], i=tid: told(browsers[m], "your_turn", i), "the mover told it is their turn")


def test_bad_move_days_is_refused_and_changes_nothing(site: ServerThread) -> None:
    b, _ = signed_up(site.base)
    before = httpx.get(f"{site.base}/api/tournaments", timeout=60).json()
    good = {"name": "Slow Cup", "game": "mamma-mia", "players": 2, "starts_at": starts_in(site, 600), "rounds": 1,
            "rated": False, "max_players": 4}  # fmt: skip
    for bad in (0, 15, -1, 2.5, "3", True):
        refused(b.post("/api/tournaments", good | {"move_days": bad}), 400, "bad_request", "move_days")
    refused(b.post("/api/tournaments", good | {"move_days": 2, "turn_time": 60}), 400, "bad_request", "move_days")
    assert httpx.get(f"{site.base}/api/tournaments", timeout=60).json() == before
    made = new_tournament(b, site, **good | {"move_days": 14, "turn_time": None})
    assert made["move_days"] == 14 and type(made["move_days"]) is int and made["turn_time"] is None


def sweep_unjoined_now(site: ServerThread, table_ids: list[str]) -> list[str]:
    """The hub's sweep of tables nobody joined, run once on the server's loop as if the unjoined-table
    time had passed (the tables loaded first: the sweep looks at the tables in memory); returns what
    it closed."""
    hub = site.app.state.hub

    async def sweep() -> list[str]:
        for table_id in table_ids:
            await hub.get(table_id)
        kept = hub.limits
        hub.limits = dataclasses.replace(kept, unjoined_table_ttl=0.001)
        try:
            return await hub.expire_unjoined()
        finally:
            hub.limits = kept

    return asyncio.run_coroutine_threadsafe(sweep(), hub._sweeper.get_loop()).result(timeout=60)


def test_a_turn_based_round_nobody_opens_ends_by_timeouts(site: ServerThread) -> None:
    t, browsers, tables = started_round(site, days=1)
    check_round_started(site, browsers, tables, days=1)
    hub = site.app.state.hub
    # Nobody opened a table for longer than the unjoined-table time: the tables are not closed as
    # "nobody came" (their seats are the players' accounts, and their deadlines run).
    ids = [tb["table_id"] for tb in tables]
    assert sweep_unjoined_now(site, ids) == []
    # Nobody ever opens a table: each day that runs out, the waiting decisions are played by the seats'
    # substitutes; three in a row and a seat is abandoned, a bot plays it out, and the games end.
    for _ in range(40):
        if show(site, t["id"])["status"] == "finished":
            break
        scans = hub.scans
        site.clock.advance((DAY + timedelta(minutes=1)).total_seconds())  # type: ignore[attr-defined]
        until(lambda s=scans: hub.scans >= s + 2, "a whole scan of the deadlines after the clock moved")
    done = wait_for(site, t["id"], "finished", deadline=120)
    (rnd,) = done["round_tables"]
    for tb in rnd["tables"]:
        summary = httpx.get(f"{site.base}/api/tables/{tb['table_id']}", timeout=60).json()
        assert summary["status"] == "over" and not summary["result"].get("abandoned")
        assert all(s["absent"] for s in summary["result"]["seats"])  # nobody played: the bots did
        # Every seat absent: the game's own places stand (bots can tie, half a point each).
        places = summary["result"]["places"]
        other = places[::-1]
        assert tb["points"] == [1.0 if other[i] > places[i] else 0.5 if other[i] == places[i] else 0.0 for i in (0, 1)]
    assert sum(s["score"] for s in done["standings"]) == 2.0


class SessionClient(Client):
    """A WebSocket client that opens the account's seat by its session cookie (no token), as the table
    page of a signed-in player does."""

    def __init__(self, base: str, table_id: str, browser: Browser) -> None:
        url = base.replace("http://", "ws://") + f"/ws/tables/{table_id}"
        cookie = f"parlor_session={browser.http.cookies.get('parlor_session')}"
        self._cm = connect(url, max_size=1 << 22, open_timeout=60, additional_headers={"Cookie": cookie})
        self.ws = self._cm.__enter__()
        self.frames = []
        self.state = None
        self.deltas = 0
        self.welcome = self.next(lambda f: f["type"] == "welcome")
        self.next_state()


def test_a_turn_based_round_whose_players_move_ends_in_standings(site: ServerThread) -> None:
    t, browsers, tables = started_round(site, days=2)
    check_round_started(site, browsers, tables, days=2)
    for tb in tables:
        names = [s["name"] for s in tb["seats"]]
        clients = [SessionClient(site.base, tb["table_id"], browsers[n]) for n in names]
        try:
            assert [c.welcome["seat"] for c in clients] == [0, 1]
            for _ in range(2000):  # (each decision: both players see the state it made before the next)
                if clients[0].state["over"]:
                    break
                mover = next(c for c in clients if c.state["your_turn"])
                reply = mover.act(mover.state["legal"][0]["id"])
                assert reply["type"] == "ack", reply
                for c in clients:
                    if c.state["version"] < reply["version"]:
                        c.next(lambda f, v=reply["version"]: f["type"] == "state" and f["version"] >= v)
            assert clients[0].state["over"]
        finally:
            for c in clients:
                c.close()
    done = wait_for(site, t["id"], "finished", deadline=120)
    (rnd,) = done["round_tables"]
    for tb in rnd["tables"]:
        summary = httpx.get(f"{site.base}/api/tables/{tb['table_id']}", timeout=60).json()
        assert not any(s["absent"] for s in summary["result"]["seats"])  # the players played it
        assert sum(tb["points"]) == 1.0
    assert sum(s["score"] for s in done["standings"]) == 2.0
    assert sorted(s["name"] for s in done["standings"]) == sorted(browsers)
