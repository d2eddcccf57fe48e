"""A rating counts only what players played (real server, real WebSocket clients, SQLite and PostgreSQL).

* A seat whose player made fewer than half of its decisions is absent: ranked last (below everyone who
  played, whatever the bots made of the seat), its history says ``abandoned`` and its page ``absent``;
  so is a player who stays connected and never moves (the clock's bot makes every decision), and one
  who leaves after a few moves while no substitute took the seat by the end.
* A game whose accounts were all absent (both left; the substitutes played it out) moves no rating.
* Who made each decision survives a server restart mid-game.
* A rated table plays by the site's clock and substitute, whatever its creator asks (quick play too).

The site's clock for rated tables is a fraction of a second here (``Limits.rated_turn_time``), so that
a seat whose player never moves is played by the clock's bot quickly; the tests wait for states and
stored ratings, never for the clock.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from parlor.server.limits import Limits
from parlor.server.storage import Database
from parlor.server.storage.schema import rating_history_t, tables_t

from .conftest import BACKENDS, ROOT, Client, ServerProcess, ServerThread, free_port, make_url
from .test_accounts import GENEROUS, signed_up
from .test_ratings import profile, rated_game_of, table_for_two

RATED_CLOCK = 0.1  # seconds per decision at a rated table: long enough for a test client to answer in (it takes a few
# milliseconds); each game has about a hundred decisions the clock makes for the seat that does not play
CLOCKED = {"seat_timeout": None, "limits": Limits(min_turn_time=0.1, rated_turn_time=RATED_CLOCK)}


def serve(url: str, **options: Any) -> ServerThread:
    return ServerThread(url, account_limits=GENEROUS, rate_per_second=1000, burst=1000, **options)


@pytest.fixture(scope="module", params=BACKENDS)
def clocked(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """A site whose rated tables have a short clock and never substitute a player who is away."""
    with serve(make_url(request.param, request, tmp_path_factory.mktemp("db")), **CLOCKED) as s:
        yield s


@pytest.fixture(scope="module", params=BACKENDS)
def leaving(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """A site whose substitutes take a player's seat as soon as its last connection closes."""
    with serve(make_url(request.param, request, tmp_path_factory.mktemp("db")), seat_timeout=0) as s:
        yield s


def next_state_on(clients: tuple[Client, ...]) -> None:
    """Wait for the next state on whichever connection it comes first, reading every connection (an
    unread one stops answering the server's pings)."""
    for c in clients:
        with contextlib.suppress(TimeoutError):
            c.next_state(0.2)


def play_own_turns(me: Client, plays: int | None = None, idle: tuple[Client, ...] = ()) -> dict[str, Any]:
    """``me`` makes its own decisions (``plays`` of them, None: to the end of the game) and returns the
    newest state; ``idle`` connections stay open without ever acting (their frames are read)."""
    made = 0
    deadline = time.monotonic() + 300
    while True:
        assert time.monotonic() < deadline, "the game did not end"
        for c in (me, *idle):
            c.drain()
        state = me.state
        if state["over"] or (plays is not None and made >= plays):
            return state
        if not state["your_turn"]:
            next_state_on((me, *idle))
            continue
        if me.act(state["legal"][-1]["id"])["type"] == "ack":
            made += 1
        # (an error: the clock's bot decided first; the next state says whose turn it is)


def take_turns(ann_ws: Client, bob_ws: Client, bob_plays: int) -> None:
    """Ann answers her turns while Bob makes ``bob_plays`` decisions himself (the clock's bot may make
    some of his meanwhile, when it is quicker than this client)."""
    made = 0
    deadline = time.monotonic() + 300
    while made < bob_plays:
        assert time.monotonic() < deadline, "Bob never got his turns"
        for c in (ann_ws, bob_ws):
            c.drain()
        assert not ann_ws.state["over"], "the game ended before Bob made his decisions"
        mover = bob_ws if bob_ws.state["your_turn"] else ann_ws if ann_ws.state["your_turn"] else None
        if mover is None:
            next_state_on((ann_ws, bob_ws))
            continue
        if mover.act(mover.state["legal"][-1]["id"])["type"] == "ack" and mover is bob_ws:
            made += 1


def seat_entry(result: dict[str, Any], seat: int) -> dict[str, Any]:
    return next(e for e in result["seats"] if e["seat"] == seat)


def ratings_stored(site: ServerThread, table_id: str) -> Database:
    """The site's database once the table's ratings were applied (or found to move nothing)."""
    db = Database(site.database_url)
    deadline = time.monotonic() + 120
    query = sa.select(tables_t.c.ratings_done).where(tables_t.c.id == table_id)
    while True:
        with db.engine.connect() as conn:
            if conn.execute(query).scalar_one():
                return db
        assert time.monotonic() < deadline, f"table {table_id} was never rated"
        time.sleep(0.1)


# On SQLite only, as the next test: the clock's bot making every decision of a connected seat is the
# server's logic; an abandoned seat's stored rating history is checked on both databases by the restart
# test below, and a rated game's stored ratings by tests/server/test_ratings.py.
@pytest.mark.parametrize("clocked", ["sqlite"], indirect=True)
def test_a_connected_player_who_never_moves_is_ranked_last(clocked: ServerThread) -> None:
    (ann, ann_name), (bob, bob_name) = signed_up(clocked.base), signed_up(clocked.base)
    table_id, tokens = table_for_two(ann, bob, rated=True, turn_time=RATED_CLOCK)
    with Client(clocked.base, table_id, tokens[0]) as ann_ws, Client(clocked.base, table_id, tokens[1]) as bob_ws:
        # Bob opens the table and stays: the clock's bot makes every one of his decisions.
        final = play_own_turns(ann_ws, idle=(bob_ws,))
    ann_entry, bob_entry = rated_game_of(clocked, ann_name, table_id), rated_game_of(clocked, bob_name, table_id)
    # Whatever place the clock's bot earned for Bob, he played nothing: last, and his rating goes down.
    assert bob_entry["abandoned"] is True and ann_entry["abandoned"] is False
    assert bob_entry["rating_after"] < bob_entry["rating_before"]
    assert ann_entry["rating_after"] > ann_entry["rating_before"]
    assert bob_entry["absent"] is True and ann_entry["absent"] is False
    bob_seat = seat_entry(final["result"], 1)
    assert bob_seat["player_moves"] == 0 and bob_seat["bot_moves"] > 0
    assert bob_seat["absent"] is True and bob_seat["left"] is False  # connected to the end, and still absent
    assert seat_entry(final["result"], 0)["absent"] is False


# On SQLite only: the subject is how the decisions are counted (in the server, before anything is stored),
# and what is stored of an absent seat (its rating history marked abandoned) is stored the same way by the
# restart test below on both databases, and a rated game's ratings by tests/server/test_ratings.py.
@pytest.mark.parametrize("clocked", ["sqlite"], indirect=True)
def test_a_player_who_leaves_after_playing_less_than_half_is_ranked_last(clocked: ServerThread) -> None:
    """Bob makes two decisions and closes his tab; no substitute takes his seat before the end (the
    site's seat timeout is longer than the game), so only the clock's bot plays it: he had not
    "left" when the game ended, yet he played less than half of it."""
    (ann, ann_name), (bob, bob_name) = signed_up(clocked.base), signed_up(clocked.base)
    table_id, tokens = table_for_two(ann, bob, rated=True, turn_time=RATED_CLOCK)
    with Client(clocked.base, table_id, tokens[0]) as ann_ws:
        with Client(clocked.base, table_id, tokens[1]) as bob_ws:
            take_turns(ann_ws, bob_ws, 2)
        final = play_own_turns(ann_ws)  # Bob has closed his tab
    bob_entry, ann_entry = rated_game_of(clocked, bob_name, table_id), rated_game_of(clocked, ann_name, table_id)
    assert bob_entry["abandoned"] is True and ann_entry["abandoned"] is False
    assert bob_entry["rating_after"] < bob_entry["rating_before"]
    assert ann_entry["rating_after"] > ann_entry["rating_before"]
    bob_seat = seat_entry(final["result"], 1)
    assert bob_seat["player_moves"] == 2 and bob_seat["bot_moves"] > 2
    assert bob_seat["left"] is False and bob_seat["absent"] is True


def test_a_game_every_account_left_moves_no_rating(leaving: ServerThread) -> None:
    """Both players open the table and close their tabs: substitutes play the whole game. Nobody played
    it, so nobody's rating moves; both pages list it as a rated game they were absent from."""
    (ann, ann_name), (bob, bob_name) = signed_up(leaving.base), signed_up(leaving.base)
    table_id, tokens = table_for_two(ann, bob, rated=True, turn_time=RATED_CLOCK)
    for token in tokens:
        Client(leaving.base, table_id, token).close()
    db = ratings_stored(leaving, table_id)
    try:
        with db.engine.connect() as conn:
            rows = conn.execute(sa.select(rating_history_t).where(rating_history_t.c.table_id == table_id)).all()
        assert rows == []
        result = httpx.get(f"{leaving.base}/api/tables/{table_id}", timeout=60).json()["result"]
        assert [seat_entry(result, s)["absent"] for s in (0, 1)] == [True, True]
        assert all(seat_entry(result, s)["player_moves"] == 0 for s in (0, 1))
        for name in (ann_name, bob_name):
            page = profile(leaving, name)
            assert page["ratings"] == []
            game = next(g for g in page["games"] if g["table_id"] == table_id)
            assert game["rated"] is True and game["absent"] is True and "rating_after" not in game
    finally:
        db.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_who_made_each_decision_survives_a_restart_mid_game(
    backend: str, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> None:
    url = make_url(backend, request, tmp_path_factory.mktemp("db"))
    with serve(url, **CLOCKED) as site:
        (ann, ann_name), (bob, bob_name) = signed_up(site.base), signed_up(site.base)
        table_id, tokens = table_for_two(ann, bob, rated=True, turn_time=RATED_CLOCK)
        with Client(site.base, table_id, tokens[0]) as ann_ws, Client(site.base, table_id, tokens[1]) as bob_ws:
            take_turns(ann_ws, bob_ws, 3)  # then the server stops, mid-game
    with serve(url, **CLOCKED) as site:  # the same database: the table is restored from its record
        with Client(site.base, table_id, tokens[0]) as ann_ws:
            final = play_own_turns(ann_ws)  # Bob never comes back: the clock's bot plays his seat
        assert rated_game_of(site, bob_name, table_id)["abandoned"] is True
        assert rated_game_of(site, ann_name, table_id)["abandoned"] is False
        bob_seat = seat_entry(final["result"], 1)  # his three decisions, made before the restart, counted
        assert bob_seat["player_moves"] == 3 and bob_seat["absent"] is True


def test_a_rated_table_takes_the_sites_clock_and_substitute(clocked: ServerThread) -> None:
    ann, _ = signed_up(clocked.base)
    asked = {"turn_time": 300, "substitute_level": "expert", "seat_timeout": 0, "bots_before_join": True}
    body = {"game": "mamma-mia", "players": 2, "seats": [{"kind": "human"}] * 2, **asked}
    rated = ann.post("/api/tables", {**body, "rated": True})
    assert rated.status_code == 201, rated.text
    summary = rated.json()["table"]
    site = {"turn_time": RATED_CLOCK, "substitute_level": "medium", "seat_timeout": None, "bots_before_join": False}
    assert {k: summary[k] for k in site} == site
    stored = httpx.get(f"{clocked.base}/api/tables/{summary['id']}", timeout=60).json()
    assert {k: stored[k] for k in site} == site
    # An unrated table keeps what its creator chose.
    free = ann.post("/api/tables", {**body, "rated": False})
    assert free.status_code == 201 and {k: free.json()["table"][k] for k in asked} == asked
    # A value no table may have is still refused (and makes no table), rated or not.
    for bad in ({"turn_time": "soon"}, {"substitute_level": "grandmaster"}, {"seat_timeout": -1}):
        r = ann.post("/api/tables", {**body, "rated": True, **bad})
        assert r.status_code == 400 and r.json()["error"]["field"] == next(iter(bad)), r.text
    # Rated quick play opens its tables with the site's settings too.
    quick = ann.post("/api/quick-play", {"game": "mamma-mia", "players": 2, "rated": True})
    assert quick.status_code == 200, quick.text
    opened = httpx.get(f"{clocked.base}/api/tables/{quick.json()['table_id']}", timeout=60).json()
    assert opened["rated"] is True and {k: opened[k] for k in site} == site


def test_the_sites_rated_clock_is_a_server_flag(tmp_path) -> None:
    """``--rated-turn-time`` sets the clock of every rated table (checked at start: a bad value stops the
    server before it opens the database)."""
    url = f"sqlite:///{tmp_path / 'p.db'}"
    server = ServerProcess(url, None, "--rated-turn-time", "7").start()
    try:
        body = {"game": "mamma-mia", "players": 2, "seats": [{"kind": "human"}] * 2, "rated": True, "turn_time": 30}
        created = httpx.post(server.base + "/api/tables", json=body, timeout=60)
        assert created.status_code == 201 and created.json()["table"]["turn_time"] == 7, created.text
    finally:
        server.stop()
    bad = tmp_path / "bad.db"
    done = subprocess.run(
        [sys.executable, "-m", "parlor.server", "--port", str(free_port()), "--database-url", f"sqlite:///{bad}",
         "--rated-turn-time", "-1"],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 1
    message = "Error: --rated-turn-time must be from 0 (no clock) to 86400 seconds, got -1.0"
    assert done.stderr.strip().splitlines()[-1] == message
    assert not bad.exists()
