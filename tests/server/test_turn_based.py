"""Turn-based tables (``days_per_move``): the "your turn" list, loading an evicted table on demand (from
the snapshot stored when it left memory, which rebuilds exactly what replaying its record does; a
damaged snapshot falls back to the replay), a decision timed out (played by the seat's substitute),
three in a row abandoning the seat, and vacations pausing an account's deadlines. The server's clock
for these deadlines (``Hub.clock``) is moved by the tests; the scan of stored deadlines runs every few
hundredths of a second."""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from parlor import games
from parlor.core.options import options_to_json
from parlor.server.limits import Limits
from parlor.server.storage import now
from parlor.server.table.snapshots import Rebuilt, SnapshotUnusable, from_snapshot, replay, snapshot_data
from parlor.server.wire import dumps

from .conftest import BACKENDS, Client, ServerThread, make_url
from .test_accounts import Browser, signed_up

DAY = timedelta(days=1)


class MovedClock:
    """The hub's clock for turn-based deadlines: the real time plus an offset the test moves on."""

    def __init__(self) -> None:
        self.offset = timedelta(0)

    def __call__(self) -> datetime:
        return now() + self.offset


@pytest.fixture(scope="module", params=BACKENDS)
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    url = make_url(request.param, request, tmp_path_factory.mktemp("db"))
    limits = Limits(min_turn_time=0.1, turn_scan_interval=0.05, turn_keep_loaded=3600.0)
    with ServerThread(url, seat_timeout=None, rate_per_second=1000, burst=1000, limits=limits) as s:
        s.clock = MovedClock()
        s.app.state.hub.clock = s.clock
        yield s


def hub(site: ServerThread) -> Any:
    return site.app.state.hub


def wait_for(condition: Callable[[], Any], what: str, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def new_table(b: Browser, seats: list[dict[str, Any]], days: int = 3) -> dict[str, Any]:
    r = b.post("/api/tables", {"game": "mamma-mia", "players": len(seats), "seats": seats, "days_per_move": days})
    assert r.status_code == 201, r.text
    return r.json()


def take_seat(b: Browser, created: dict[str, Any], seat: int) -> str:
    """The seat's link claimed by ``b``'s signed-in browser: the seat is its account's."""
    tid = created["table"]["id"]
    r = b.post(f"/api/tables/{tid}/claim", {"claim": created["seats"][seat]["claim"]})
    assert r.status_code == 200, r.text
    return r.json()["token"]


def turns(b: Browser) -> list[dict[str, Any]]:
    r = b.http.get("/api/account/turns")
    assert r.status_code == 200, r.text
    return r.json()["turns"]


def listed(b: Browser, tid: str) -> dict[str, Any] | None:
    return next((t for t in turns(b) if t["table_id"] == tid), None)


def summary(site: ServerThread, tid: str) -> dict[str, Any]:
    return httpx.get(f"{site.base}/api/tables/{tid}", timeout=60).json()


def parse(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def count_tables(site: ServerThread) -> int:
    engine = sa.create_engine(site.database_url)
    try:
        with engine.connect() as conn:
            return conn.execute(sa.text("SELECT count(*) FROM parlor_tables")).scalar_one()
    finally:
        engine.dispose()


def test_bad_days_per_move_is_refused_and_makes_nothing(site: ServerThread) -> None:
    before = count_tables(site)
    base = {"game": "mamma-mia", "players": 2}
    for bad in (0, 15, -1, 2.5, "3", True):
        r = httpx.post(f"{site.base}/api/tables", json={**base, "days_per_move": bad}, timeout=60)
        assert r.status_code == 400, (bad, r.text)
        assert r.json()["error"]["field"] == "days_per_move" and "1 to 14" in r.json()["error"]["message"]
    r = httpx.post(f"{site.base}/api/tables", json={**base, "days_per_move": 2, "turn_time": 60}, timeout=60)
    assert r.status_code == 400 and r.json()["error"]["field"] == "days_per_move"
    r = httpx.post(f"{site.base}/api/quick-play", json={**base, "days_per_move": 99}, timeout=60)
    assert r.status_code == 400, r.text
    assert count_tables(site) == before


def test_your_turn_list_and_a_move_on_an_evicted_table_reloads_it(site: ServerThread) -> None:
    ann, ann_name = signed_up(site.base)
    bob, bob_name = signed_up(site.base)
    created = new_table(ann, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}], days=3)
    tid = created["table"]["id"]
    assert created["table"]["days_per_move"] == 3 and created["table"]["turn_time"] is None
    ann_token, bob_token = take_seat(ann, created, 0), take_seat(bob, created, 1)
    with Client(site.base, tid, ann_token) as c:
        first = list(c.state["to_move"])
    mover, waiting = (ann, bob) if first == [0] else (bob, ann)
    mover_token = ann_token if mover is ann else bob_token
    entry = wait_for(lambda: listed(mover, tid), "the table in the mover's list")
    assert entry["game"] == "mamma-mia" and entry["days_per_move"] == 3
    assert len(entry["opponents"]) == 1
    left = parse(entry["deadline"]) - site.clock()
    assert 2 * DAY < left <= 3 * DAY
    assert listed(waiting, tid) is None
    # Nobody connected and no deadline near: the table leaves memory.
    wait_for(lambda: tid not in hub(site).tables, "the idle table evicted")
    wait_for(lambda: stored_snapshot(site, tid), "its snapshot stored")
    loads, snapshot_loads = hub(site).loads, hub(site).snapshot_loads
    with Client(site.base, tid, mover_token) as c:
        assert hub(site).loads == loads + 1  # loaded from storage for this connection
        assert hub(site).snapshot_loads == snapshot_loads + 1  # from its snapshot, not by a replay
        assert c.state["your_turn"] and c.frames[-1]["deadlines"]
        while c.state["your_turn"]:  # (a turn may hold several decisions)
            reply = c.act(c.state["legal"][0]["id"])
            assert reply["type"] == "ack", reply
    wait_for(lambda: listed(mover, tid) is None, "the table gone from the mover's list")
    wait_for(lambda: listed(waiting, tid), "the table in the other player's list")
    wait_for(lambda: tid not in hub(site).tables, "the table evicted again")
    assert [o["name"] for o in listed(waiting, tid)["opponents"]] == [ann_name if waiting is bob else bob_name]


def stored_snapshot(site: ServerThread, tid: str) -> tuple[int, str] | None:
    engine = sa.create_engine(site.database_url)
    try:
        with engine.connect() as conn:
            row = conn.execute(
                sa.text("SELECT version, data FROM parlor_snapshots WHERE table_id = :t"), {"t": tid}
            ).first()
            return None if row is None else (row[0], row[1])
    finally:
        engine.dispose()


def test_a_damaged_snapshot_is_logged_and_the_record_replayed(
    site: ServerThread, caplog: pytest.LogCaptureFixture
) -> None:
    ann, _ = signed_up(site.base)
    created = new_table(ann, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}], days=3)
    tid = created["table"]["id"]
    token = take_seat(ann, created, 0)
    with Client(site.base, tid, token) as c:
        for _ in range(3):  # a few decisions (and the bot's): an event log to rebuild
            c.wait_turn_or_over()
            c.act(c.state["legal"][0]["id"])
        last = c.wait_turn_or_over()["version"]
    wait_for(lambda: tid not in hub(site).tables, "the idle table evicted")
    # (An earlier eviction, before the first move, may have stored a snapshot of the start: the one
    # wanted is of the table as it was left, stored in the background after this eviction.)
    version, _ = wait_for(
        lambda: (found := stored_snapshot(site, tid)) and found[0] == last and found, "its snapshot stored"
    )
    snapshot_loads = hub(site).snapshot_loads
    with Client(site.base, tid, token) as c:  # loaded from the snapshot
        from_snapshot_state = c.wait_turn_or_over()
    assert hub(site).snapshot_loads == snapshot_loads + 1 and from_snapshot_state["version"] == version
    wait_for(lambda: tid not in hub(site).tables, "evicted again")
    engine = sa.create_engine(site.database_url)
    try:
        with engine.begin() as conn:
            damaged = '{"format": 2, "sta'
            conn.execute(sa.text("UPDATE parlor_snapshots SET data = :d WHERE table_id = :t"), {"d": damaged, "t": tid})
    finally:
        engine.dispose()
    with caplog.at_level(logging.WARNING, logger="parlor.server"), Client(site.base, tid, token) as c:
        replayed_state = c.wait_turn_or_over()
    assert hub(site).snapshot_loads == snapshot_loads + 1  # the record was replayed
    assert any(tid in r.getMessage() and "snapshot not used" in r.getMessage() for r in caplog.records)
    for key in ("version", "view", "legal", "to_move", "your_turn", "events"):  # the same table either way
        assert dumps(replayed_state[key]) == dumps(from_snapshot_state[key]), key


def played_record(name: str, decisions: int, seed: int) -> dict[str, Any]:
    """A turn-based table's stored row as ``Database.load`` gives it, after ``decisions`` random ones."""
    game = games.get(name)
    players = game.player_range()[0]
    state = game.new_game(players, seed)
    rng = random.Random(seed)
    actions = []
    while not state.is_over and len(actions) < decisions:
        seat = state.to_move[0]
        action = rng.choice(state.legal_actions(seat))
        actions.append({"seat": seat, "action": action.to_json(), "by": "player", "clock_ends_at": None})
        state.apply(seat, action)
    row = {"id": "t", "game": name, "players": players, "seed": seed, "options": options_to_json(state.options)}
    return row | {"scenario": None, "actions": actions, "days_per_move": 3}


def as_stored(rebuilt: Rebuilt) -> list[dict[str, Any]]:
    """The event log as the storage keeps it (``AppendDecision``) and ``Database.events`` reads it."""
    return [
        {
            "action_idx": i,
            "kind": e.kind,
            "data": json.loads(dumps(e.data)),
            "visible_to": None if e.visible_to is None else sorted(e.visible_to),
        }
        for i, e in rebuilt.events
    ]


def everything_of(rebuilt: Rebuilt) -> str:
    """All a table is rebuilt with, as JSON text: the saved state, each seat's and a spectator's view,
    the legal actions asked for, the event log and undo's data."""
    state = rebuilt.state
    return dumps(
        {
            "state": state.to_json_text(),
            "views": [state.view(seat) for seat in [*range(state.players), None]],
            "legal": {seat: [a.to_json() for a in state.legal_actions(seat)] for seat in state.to_move},
            "events": [[i, e.to_json()] for i, e in rebuilt.events],
            "rng_before": rebuilt.rng_before,
            "private": rebuilt.private,
        }
    )


@pytest.mark.parametrize("name", ["mamma-mia", "sweet-nose", "mottainai"])
def test_a_snapshot_rebuilds_byte_for_byte_what_the_replay_does(name: str) -> None:
    game = games.get(name)
    for decisions in (0, 1, 25, 400):  # (400: the whole game)
        row = played_record(name, decisions, seed=decisions + 7)
        replayed = replay(game, row)
        row["snapshot"] = (len(row["actions"]), snapshot_data(replayed))
        row["events"] = as_stored(replayed)
        loaded = from_snapshot(game, row)
        assert loaded.from_snapshot and not replayed.from_snapshot
        assert everything_of(loaded) == everything_of(replayed), (name, decisions)
        if not replayed.state.is_over:  # and both play on alike
            seat = replayed.state.to_move[0]
            action = replayed.state.legal_actions(seat)[-1]
            assert [e.to_json() for e in loaded.state.apply(seat, action)] == [
                e.to_json() for e in replayed.state.apply(seat, action)
            ]
            assert loaded.state.to_json_text() == replayed.state.to_json_text()


def test_a_snapshot_that_does_not_fit_the_record_is_refused() -> None:
    game = games.get("mottainai")
    row = played_record("mottainai", 20, seed=3)
    replayed = replay(game, row)
    row["events"] = as_stored(replayed)
    good = snapshot_data(replayed)
    data = json.loads(good)
    other = played_record("mottainai", 20, seed=4)  # another game's decisions
    damaged_state = json.loads(good)
    del damaged_state["state"]["state"][next(iter(damaged_state["state"]["state"]))]
    for snapshot, events, why in (
        (None, row["events"], "no snapshot"),
        ((19, good), row["events"], "taken after 19"),
        ((20, good[:-40]), row["events"], "unreadable"),
        ((20, json.dumps(data | {"format": 99})), row["events"], "format 99"),
        ((20, json.dumps(data | {"rng_before": data["rng_before"][:-1]})), row["events"], "do not fit"),
        ((20, json.dumps(damaged_state)), row["events"], "unreadable"),
        ((20, good), [*row["events"], {**row["events"][0], "action_idx": 20}], "do not fit"),
        ((20, good), [{"action_idx": 0, "kind": "x", "data": None, "visible_to": None}], "do not fit"),
    ):
        with pytest.raises(SnapshotUnusable, match=why):
            from_snapshot(game, row | {"snapshot": snapshot, "events": events})
    with pytest.raises(SnapshotUnusable, match="not the record's"):
        from_snapshot(game, other | {"snapshot": (20, good), "events": row["events"]})


def test_a_timeout_is_played_by_the_substitute_and_three_in_a_row_abandon(site: ServerThread) -> None:
    ann, _ = signed_up(site.base)
    created = new_table(ann, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}], days=1)
    tid = created["table"]["id"]
    told: list[tuple[str, str]] = []  # the notification hook: (what, table) for every call
    hook = lambda account, what, table: told.append((what, table))  # noqa: E731
    hub(site).turn_hooks.append(hook)
    token = take_seat(ann, created, 0)
    entry = wait_for(lambda: listed(ann, tid), "Ann's turn")
    for timeouts in (1, 2):
        site.clock.offset += DAY + timedelta(minutes=1)  # her day ran out
        entry = wait_for(
            lambda e=entry: (n := listed(ann, tid)) is not None and n["waiting_since"] != e["waiting_since"] and n,
            "Ann asked again after the substitute played",
        )
        seat = summary(site, tid)["seats"][0]
        assert seat["bot_moves"] == timeouts and not seat["substituted"]
        assert parse(entry["deadline"]) - site.clock() > DAY - timedelta(minutes=1)  # a full day again
    site.clock.offset += DAY + timedelta(minutes=1)  # the third in a row: she abandoned the game
    final = wait_for(lambda: (s := summary(site, tid))["status"] == "over" and s, "the game played out by bots")
    assert final["result"]["seats"][0]["absent"] and final["result"]["seats"][0]["left"]
    assert listed(ann, tid) is None
    assert ("your_turn", tid) in told and ("game_over", tid) in told
    assert told.count(("game_over", tid)) == 1  # (one account seat: told once)
    hub(site).turn_hooks.remove(hook)
    again = httpx.post(f"{site.base}/api/tables/{tid}/play-again", json={"token": token}, timeout=60)
    assert again.status_code == 200, again.text
    assert summary(site, again.json()["table_id"])["days_per_move"] == 1  # a rematch is turn-based too


def test_vacation_pauses_deadlines_and_bad_input_changes_nothing(site: ServerThread) -> None:
    ann, _ = signed_up(site.base)
    created = new_table(ann, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}], days=2)
    tid = created["table"]["id"]
    take_seat(ann, created, 0)
    deadline = parse(wait_for(lambda: listed(ann, tid), "Ann's turn")["deadline"])
    for bad, code in (
        ({"action": "start", "days": 0}, "bad_request"),
        ({"action": "start", "days": 31}, "bad_request"),
        ({"action": "start", "days": "3"}, "bad_request"),
        ({"action": "pause", "days": 3}, "bad_request"),
        ({"action": "start", "days": 3, "why": "x"}, "bad_request"),
        ({"action": "stop"}, "not_on_vacation"),
    ):
        r = ann.post("/api/account/vacation", bad)
        assert r.status_code in (400, 409) and r.json()["error"]["code"] == code, (bad, r.text)
    assert ann.http.get("/api/account/vacation").json()["days_used"] == 0
    assert parse(listed(ann, tid)["deadline"]) == deadline
    assert httpx.post(f"{site.base}/api/account/vacation", json={"action": "stop"}, timeout=60).status_code == 401

    r = ann.post("/api/account/vacation", {"action": "start", "days": 5})
    assert r.status_code == 200, r.text
    assert r.json()["on_vacation"] and r.json()["days_left"] == 25
    assert parse(listed(ann, tid)["deadline"]) == deadline + 5 * DAY
    assert ann.post("/api/account/vacation", {"action": "start", "days": 1}).json()["error"]["code"] == "on_vacation"
    version = summary(site, tid)["version"]
    site.clock.offset += 3 * DAY  # past her own deadline, within the vacation
    scans = hub(site).scans
    wait_for(lambda: hub(site).scans >= scans + 2, "a whole scan after the clock moved")
    assert summary(site, tid)["version"] == version  # nothing timed out
    r = ann.post("/api/account/vacation", {"action": "stop"})
    assert r.status_code == 200 and not r.json()["on_vacation"]
    assert r.json()["days_used"] == 4  # a day begun counts: of the two days less a moment left, one comes back
    moved = parse(listed(ann, tid)["deadline"])
    assert abs(moved - (deadline + 3 * DAY)) < timedelta(minutes=1)  # paused for the three days it ran
    site.clock.offset += 2 * DAY + timedelta(minutes=2)  # past the deadline as paused: the substitute decides
    wait_for(lambda: summary(site, tid)["seats"][0]["bot_moves"] == 1, "the timeout after the vacation")


def test_concurrent_vacations_cannot_spend_the_same_days(site: ServerThread) -> None:
    ann, _ = signed_up(site.base)
    second = Browser(site.base)  # the same account in another browser
    second.http.cookies = ann.http.cookies
    second.who()
    answers: list[int] = []

    def start(b: Browser) -> None:
        answers.append(b.post("/api/account/vacation", {"action": "start", "days": 20}).status_code)

    threads = [threading.Thread(target=start, args=(b,)) for b in (ann, second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == [200, 409]
    state = ann.http.get("/api/account/vacation").json()
    assert state["days_used"] == 20 and state["on_vacation"]
