"""Game review and hints on the server: computed in worker processes, stored, only for the
seat itself, refused clearly (and with nothing stored) otherwise, and honest: two tables that look the
same to a seat get byte-identical reviews and hints for it, whatever the cards hidden from it."""

from __future__ import annotations

import json
import os
import secrets
import time
import uuid
from typing import Any

import httpx
import pytest
from sqlalchemy import insert, select

from parlor import games
from parlor.core import replay
from parlor.review import review
from parlor.server.review.service import NICENESS
from parlor.server.storage import AddHint, Database, LeaseLost, now, record_of
from parlor.server.storage.schema import actions_t, hints_t, reviews_t, seats_t, tables_t
from parlor.server.table import hash_token

from ..review.test_honesty import twin_by_secret_choice
from .conftest import BACKENDS, Client, ServerThread, create_table, make_url, token_of
from .test_replay import stored_record, wait_over

BUDGET = 6  # the judge's iterations per decision: small, the machine is shared


@pytest.fixture(scope="module", params=BACKENDS)
def rserver(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    url = make_url(request.param, request, tmp_path_factory.mktemp("db"))
    with ServerThread(url, seat_timeout=None, rate_per_second=1000, burst=1000, review_budget=BUDGET) as s:
        yield s


def finished_game(base: str, game: str = "mamma-mia", players: int = 2) -> tuple[dict[str, Any], str]:
    """A finished table whose seat 0 is a human's (its token claimed) played by a stand-in bot."""
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * (players - 1)
    created = create_table(base, game=game, players=players, seats=seats)
    table_id = created["table"]["id"]
    token = token_of(created, 0)
    r = httpx.post(
        f"{base}/api/tables/{table_id}/seats/0/stand-in", json={"host_token": created["host_token"]}, timeout=10
    )
    assert r.status_code == 200, r.text
    wait_over(base, table_id, timeout=120)
    return created, token


def ask(base: str, table_id: str, token: str | None, method: str = "GET") -> httpx.Response:
    headers = {} if token is None else {"authorization": f"Bearer {token}"}
    return httpx.request(method, f"{base}/api/tables/{table_id}/review", headers=headers, timeout=30)


def wait_review(base: str, table_id: str, token: str, timeout: float = 240.0) -> dict[str, Any]:
    """Polls the review until it is done (the server works it out a decision at a time)."""
    deadline = time.monotonic() + timeout
    seen = -1
    while True:
        body = ask(base, table_id, token).json()
        assert body["status"] in ("queued", "working", "done"), body
        if body["status"] == "done":
            return body
        assert body["done"] >= seen  # it only grows
        seen = body["done"]
        assert time.monotonic() < deadline, f"the review stopped at {seen} decisions"
        time.sleep(0.2)


def stored_review_row(url: str, table_id: str) -> list[Any]:
    db = Database(url)
    try:
        with db.engine.connect() as conn:
            return conn.execute(
                select(reviews_t.c.seat, reviews_t.c.decisions).where(reviews_t.c.table_id == table_id)
            ).all()
    finally:
        db.close()


def test_a_seat_s_review_is_worked_out_in_worker_processes_stored_and_equal_to_the_library_s(rserver):
    created, token = finished_game(rserver.base)
    table_id = created["table"]["id"]
    service = rserver.app.state.reviews
    assert ask(rserver.base, table_id, token).json()["status"] == "none"
    started = ask(rserver.base, table_id, token, "POST")
    assert started.status_code == 200 and started.json()["status"] in ("queued", "working", "done")
    body = wait_review(rserver.base, table_id, token)
    got = body["review"]
    assert got["complete"] and got["seat"] == 0 and got["decisions_total"] == len(got["decisions"]) > 0
    # The same review as the library's from the stored record, byte for byte.
    record = stored_record(rserver.database_url, table_id)["record"]
    expected = review(record, 0, budget=BUDGET).to_json()
    assert json.dumps(got, sort_keys=True) == json.dumps(expected, sort_keys=True)
    # In worker processes (not the server's own), one job per decision.
    pids = service.workers.worker_pids()
    assert pids and os.getpid() not in pids
    # ... started below the server's priority, so that the tables' bots get the cores first.
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    assert all(os.getpriority(os.PRIO_PROCESS, pid) == min(19, ours + NICENESS) for pid in pids)
    # Stored: asked again, it is read back, not worked out again.
    jobs = service.jobs
    again = ask(rserver.base, table_id, token, "POST").json()
    assert again["status"] == "done" and again["review"] == got and service.jobs == jobs
    assert stored_review_row(rserver.database_url, table_id) == [(0, len(got["decisions"]))]


def test_a_review_is_refused_clearly_to_anyone_but_the_seat_and_before_the_end(rserver):
    base = rserver.base
    live = create_table(base, players=2, seats=[{"kind": "human"}, {"kind": "human"}])
    live_id = live["table"]["id"]
    r = ask(base, live_id, token_of(live, 0), "POST")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_over"
    created, token = finished_game(base)
    table_id = created["table"]["id"]
    cases = [
        (f"nope{uuid.uuid4().hex[:6]}", token, 404, "table_not_found"),
        (table_id, created["spectator_token"], 403, "spectator"),
        (table_id, "wrong-" + secrets.token_urlsafe(8), 403, "bad_token"),
        (table_id, None, 403, "bad_token"),
        (table_id, token_of(live, 0), 403, "bad_token"),  # another table's seat
    ]
    for tid, tok, status, code in cases:
        for method in ("POST", "GET"):
            r = ask(base, tid, tok, method)
            assert r.status_code == status and r.json()["error"]["code"] == code, (tid, method, r.text)
    assert stored_review_row(rserver.database_url, table_id) == []
    assert stored_review_row(rserver.database_url, live_id) == []


def hint_frame(client: Client) -> dict[str, Any]:
    ref = uuid.uuid4().hex[:8]
    client.send({"type": "hint", "ref": ref})
    return client.next(lambda f: f.get("ref") == ref and f["type"] in ("hint", "error"), timeout=120)


def stored_hints(url: str, table_id: str) -> list[Any]:
    db = Database(url)
    try:
        with db.engine.connect() as conn:
            return conn.execute(select(hints_t.c.version, hints_t.c.seat).where(hints_t.c.table_id == table_id)).all()
    finally:
        db.close()


def test_hints_for_the_seat_to_move_only_logged_and_shown_in_its_own_replay(rserver):
    base = rserver.base
    created = create_table(base, players=2, seats=[{"kind": "human"}, {"kind": "human"}], hints=True)
    assert created["table"]["hints"] is True
    table_id = created["table"]["id"]
    tokens = [token_of(created, 0), token_of(created, 1)]
    with (
        Client(base, table_id, tokens[0]) as a,
        Client(base, table_id, tokens[1]) as b,
        Client(base, table_id, created["spectator_token"]) as watcher,
    ):
        mover, other = (a, b) if a.state["your_turn"] else (b, a)
        refused = hint_frame(other)
        assert refused["type"] == "error" and refused["code"] == "not_your_turn"
        refused = hint_frame(watcher)
        assert refused["type"] == "error" and refused["code"] == "spectator"
        assert stored_hints(rserver.database_url, table_id) == []
        got = hint_frame(mover)
        assert got["type"] == "hint" and got["version"] == mover.state["version"]
        moves = got["hint"]["moves"]
        legal = [e["action"] for e in mover.state["legal"]]
        assert 1 <= len(moves) <= 3 and all(m["action"] in legal for m in moves)
        assert [m["win"] for m in moves] == sorted((m["win"] for m in moves), reverse=True)
        jobs = rserver.app.state.reviews.jobs
        assert hint_frame(mover)["hint"] == got["hint"] and rserver.app.state.reviews.jobs == jobs  # kept
        # Nobody else hears of it: the other seat and the spectator got no hint frame.
        other.drain(), watcher.drain()
        assert not [f for f in other.frames + watcher.frames if f["type"] == "hint"]
        mover_seat = mover.welcome["seat"]
        assert stored_hints(rserver.database_url, table_id) == [(got["version"], mover_seat)]
    for seat in (0, 1):  # the players gone, stand-ins play the game out
        httpx.post(
            f"{base}/api/tables/{table_id}/seats/{seat}/stand-in",
            json={"host_token": created["host_token"]},
            timeout=10,
        )
    wait_over(base, table_id, timeout=120)
    replays = {
        seat: httpx.get(
            f"{base}/api/tables/{table_id}/replay", headers={"authorization": f"Bearer {tokens[seat]}"}, timeout=30
        ).json()
        for seat in (0, 1)
    }
    assert replays[mover_seat]["hints"] == [{"version": got["version"], "hint": got["hint"]}]
    assert replays[1 - mover_seat]["hints"] == []
    spectators = httpx.get(f"{base}/api/tables/{table_id}/replay", timeout=30).json()
    assert "hints" not in spectators
    with Client(base, table_id, tokens[0]) as late:  # the game is over: no hint
        refused = hint_frame(late)
        assert refused["type"] == "error" and refused["code"] == "game_over"


def test_a_table_made_without_hints_refuses_them(rserver):
    created = create_table(rserver.base, players=2, seats=[{"kind": "human"}, {"kind": "human"}])
    assert created["table"]["hints"] is False
    table_id = created["table"]["id"]
    with (
        Client(rserver.base, table_id, token_of(created, 0)) as a,
        Client(rserver.base, table_id, token_of(created, 1)) as b,
    ):
        mover = a if a.state["your_turn"] else b
        refused = hint_frame(mover)
        assert refused["type"] == "error" and refused["code"] == "hints_off"
    assert stored_hints(rserver.database_url, table_id) == []
    bad = httpx.post(rserver.base + "/api/tables", json={"game": "mamma-mia", "hints": "yes"}, timeout=10)
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "hints"


# ---- honesty, through the server ------------------------------------------------------------------
def insert_table(url: str, record: dict[str, Any], status: str, tokens: list[str]) -> str:
    """A table with ``record`` stored straight into the database (every seat a human's, with ``tokens``),
    as a server would have stored it: for twin games that differ only in cards hidden from a seat."""
    state = replay(record)
    table_id = "t" + secrets.token_hex(6)
    stamp = now()
    db = Database(url)
    try:
        db.migrate()
        with db.engine.begin() as conn:
            conn.execute(
                insert(tables_t).values(
                    id=table_id,
                    game=record["game"],
                    players=record["players"],
                    options=json.dumps(record["options"]),
                    seed=record["seed"],
                    engine_version=record["engine_version"],
                    status=status,
                    version=len(record["actions"]),
                    seat_timeout=None,
                    substitute_level="medium",
                    spectator_hash=hash_token("spectators-" + table_id),
                    result=json.dumps(state.result().to_json()) if status == "over" else None,
                    created_at=stamp,
                    updated_at=stamp,
                    hints=True,
                )
            )
            conn.execute(
                insert(seats_t),
                [
                    {"table_id": table_id, "seat": s, "kind": "human", "level": None, "name": None,
                     "token_hash": hash_token(tokens[s]), "joined": True}
                    for s in range(record["players"])
                ],
            )  # fmt: skip
            rows = [
                    {"table_id": table_id, "idx": i, "seat": seat, "action": json.dumps(action), "by": "player",
                     "created_at": stamp}
                    for i, (seat, action) in enumerate(record["actions"])
            ]  # fmt: skip
            if rows:
                conn.execute(insert(actions_t), rows)
    finally:
        db.close()
    return table_id


def at_a_decision_after_the_difference(record: dict[str, Any], seat: int) -> dict[str, Any]:
    """The record cut where ``seat`` next has a real choice after the hidden difference."""
    actions = record["actions"]
    last = max(i for i, (s, a) in enumerate(actions) if s != seat and a["type"] == "assign_sweetness")
    for j in range(last + 1, len(actions)):
        cut = {**record, "actions": actions[:j]}
        state = replay(cut)
        if seat in state.to_move and len(state.legal_actions(seat)) > 1:
            return cut
    raise AssertionError("the seat has no decision after the difference")


@pytest.mark.parametrize("backend", ["sqlite"])
def test_two_tables_a_seat_cannot_tell_apart_get_byte_identical_reviews_and_hints(backend, request, tmp_path):
    seat = 1
    record_a, record_b, differing = twin_by_secret_choice(seat, 5)
    assert differing > 0 and record_a["actions"] != record_b["actions"]
    assert games.get("sweet-nose").name == record_a["game"]
    url = make_url(backend, request, tmp_path)
    tokens = [secrets.token_urlsafe(12) for _ in range(3)]
    over = [insert_table(url, r, "over", tokens) for r in (record_a, record_b)]
    cuts = [at_a_decision_after_the_difference(r, seat) for r in (record_a, record_b)]
    assert replay(cuts[0]).to_json() != replay(cuts[1]).to_json()  # the positions really differ
    live = [insert_table(url, cut, "playing", tokens) for cut in cuts]
    with ServerThread(url, seat_timeout=None, review_budget=BUDGET) as srv:
        reviews = []
        for table_id in over:
            assert ask(srv.base, table_id, tokens[seat], "POST").status_code == 200
            reviews.append(wait_review(srv.base, table_id, tokens[seat])["review"])
        assert reviews[0]["record_digest"] != reviews[1]["record_digest"]  # two different games
        same = [json.dumps({k: v for k, v in r.items() if k not in ("record_digest", "result")}) for r in reviews]
        assert same[0] == same[1] and reviews[0]["decisions"]
        hints = []
        for table_id in live:
            with Client(srv.base, table_id, tokens[seat]) as client:
                got = hint_frame(client)
                assert got["type"] == "hint", got
                hints.append(json.dumps(got["hint"]))
        assert hints[0] == hints[1]


def test_a_hint_s_write_is_fenced_by_the_table_s_lease(postgres):
    """A process that lost a table's lease stores no hint for it (the same fence as every write)."""
    created_url = postgres.new_database()
    db = Database(created_url)
    try:
        db.migrate()
        record = games.get("mamma-mia").new_game(2, 3).record()
        table_id = insert_table(created_url, record, "playing", ["a" * 12, "b" * 12])
        db.lease = ("someone-else", 10.0)  # this process holds no lease row for the table
        with pytest.raises(LeaseLost):
            db.commit([AddHint(table_id, 0, 0, "{}")])
        assert stored_hints(created_url, table_id) == []
    finally:
        db.close()


def practise(base: str, table_id: str, token: str | None, body: Any) -> httpx.Response:
    headers = {} if token is None else {"authorization": f"Bearer {token}"}
    return httpx.post(f"{base}/api/tables/{table_id}/practice", json=body, headers=headers, timeout=30)


def table_count(url: str) -> int:
    db = Database(url)
    try:
        with db.engine.connect() as conn:
            return len(conn.execute(select(tables_t.c.id)).all())
    finally:
        db.close()


def test_try_it_again_opens_a_practice_table_dealt_from_what_the_seat_knew(rserver):
    """The "Try it again" table: private, unrated, with hints, at one of the seat's decisions, bots in the
    other seats; its seat sees what it saw then, and the game plays on, is stored and replays from
    the dealt position. Bad requests are refused clearly and make no table."""
    base, url = rserver.base, rserver.database_url
    created, token = finished_game(base)
    table_id = created["table"]["id"]
    record = stored_record(url, table_id)["record"]
    mine = [i for i, (seat, _) in enumerate(record["actions"]) if seat == 0]
    theirs = next(i for i, (seat, _) in enumerate(record["actions"]) if seat == 1)
    live = create_table(base, players=2, seats=[{"kind": "human"}, {"kind": "human"}])
    before = table_count(url)
    cases = [
        (table_id, created["spectator_token"], {"step": mine[0]}, 403, "spectator"),
        (table_id, "wrong-" + secrets.token_urlsafe(8), {"step": mine[0]}, 403, "bad_token"),
        (table_id, token, {"step": theirs}, 400, "bad_step"),
        (table_id, token, {"step": len(record["actions"]) + 5}, 400, "bad_step"),
        (table_id, token, {"step": "3"}, 400, "bad_request"),
        (table_id, token, {}, 400, "bad_request"),
        (live["table"]["id"], token_of(live, 0), {"step": 0}, 409, "not_over"),
    ]
    for tid, tok, body, status, code in cases:
        r = practise(base, tid, tok, body)
        assert r.status_code == status and r.json()["error"]["code"] == code, (body, r.text)
    assert "Seat 1" in practise(base, table_id, token, {"step": theirs}).json()["error"]["message"]
    assert table_count(url) == before  # nothing made
    step = mine[len(mine) // 2]
    r = practise(base, table_id, token, {"step": step})
    assert r.status_code == 201, r.text
    made = r.json()
    practice_id = made["table"]["id"]
    summary = made["table"]
    assert (summary["rated"], summary["public"], summary["hints"], summary["status"]) == (False, False, True, "playing")
    assert summary["practice"] is True
    assert httpx.get(f"{base}/api/tables/{table_id}", timeout=30).json()["practice"] is False
    assert [s["kind"] for s in made["seats"]] == ["human", "bot"] and made["seats"][1]["level"] == "easy"
    # The seat sees the position it decided at: its view then, at the new table's start.
    with Client(base, practice_id, token_of({**made, "_base": base}, 0)) as client:
        first = client.state
    real = replay({**record, "actions": record["actions"][:step]})
    assert json.dumps(first["view"], sort_keys=True) == json.dumps(real.view(0), sort_keys=True)
    # Played on (a stand-in bot for the seat) to the end: stored with its start, and it replays.
    stood = httpx.post(
        f"{base}/api/tables/{practice_id}/seats/0/stand-in", json={"host_token": made["host_token"]}, timeout=10
    )
    assert stood.status_code == 200, stood.text
    wait_over(base, practice_id, timeout=120)
    db = Database(url)
    try:
        stored = record_of(db.load(practice_id))
    finally:
        db.close()
    assert set(stored["scenario"]) == {"saved_state"} and stored["actions"][0][0] == 0
    assert replay(stored).is_over
    steps = httpx.get(f"{base}/api/tables/{practice_id}/replay", timeout=60).json()["steps"]
    assert len(steps) == len(stored["actions"]) + 1
    assert json.dumps(steps[0]["view"], sort_keys=True) == json.dumps(real.view(None), sort_keys=True)
