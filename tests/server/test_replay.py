"""The replay of a finished table (``GET /api/tables/{id}/replay``): only after the end, one step per
decision plus the start, each exactly the spectator's view of ``replay_iter(record)``, and nothing a
spectator could not see (no seed, no private event, no hand)."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from parlor.core import replay_iter
from parlor.server.storage import Database

from .conftest import BACKENDS, ServerThread, create_table, make_url


def wait_over(base: str, table_id: str, timeout: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        summary = httpx.get(f"{base}/api/tables/{table_id}", timeout=60).json()
        if summary["status"] == "over":
            return summary
        assert time.monotonic() < deadline, f"table {table_id} did not finish (version {summary['version']})"
        time.sleep(0.05)


def stored_record(database_url: str, table_id: str) -> dict[str, Any]:
    db = Database(database_url)
    try:
        row = db.load(table_id)
        events = db.events(table_id)
    finally:
        db.close()
    assert row is not None
    record = {
        "game": row["game"],
        "engine_version": row["engine_version"],
        "options": row["options"],
        "players": row["players"],
        "seed": row["seed"],
        "actions": [[a["seat"], a["action"]] for a in row["actions"]],
    }
    return {"record": record, "events": events}


def keys_of(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_of(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_of(v)}
    return set()


def test_replay_refused_before_the_end(server: ServerThread) -> None:
    created = create_table(server.base, players=3)  # seat 0 human: the game waits for it
    table_id = created["table"]["id"]
    r = httpx.get(f"{server.base}/api/tables/{table_id}/replay", timeout=60)
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "not_over"
    r = httpx.get(f"{server.base}/api/tables/nosuchtable/replay", timeout=60)
    assert r.status_code == 404 and r.json()["error"]["code"] == "table_not_found"


@pytest.mark.parametrize("game,players", [("mamma-mia", 3), ("sweet-nose", 3)])
def test_replay_of_a_bot_game(server: ServerThread, game: str, players: int) -> None:
    seats = [{"kind": "bot", "level": "random"} for _ in range(players)]
    created = create_table(server.base, game=game, players=players, seats=seats)
    table_id = created["table"]["id"]
    summary = wait_over(server.base, table_id)

    r = httpx.get(f"{server.base}/api/tables/{table_id}/replay", timeout=60)
    assert r.status_code == 200, r.text
    payload = r.json()
    stored = stored_record(server.database_url, table_id)
    record = stored["record"]

    steps = payload["steps"]
    assert len(steps) == len(record["actions"]) + 1 == summary["version"] + 1
    assert [s["step"] for s in steps] == list(range(len(steps)))
    assert steps[0]["events"] == []
    expected = [state.view(None) for state in replay_iter(record)]
    assert [s["view"] for s in steps] == json.loads(json.dumps(expected))
    assert payload["result"] == summary["result"] and payload["result"]["winners"]
    assert steps[-1]["to_move"] == [] and all(s["to_move"] for s in steps[:-1])
    assert payload["table"]["id"] == table_id and payload["table"]["status"] == "over"

    # The public events of each step are exactly the stored public events of that decision.
    for i, step in enumerate(steps[1:]):
        public = [
            {"event": e["kind"], "data": e["data"]}
            for e in stored["events"]
            if e["action_idx"] == i and e["visible_to"] is None
        ]
        assert step["events"] == public, i

    # Nothing a spectator could not see: no seed, no private event, no hand.
    text = r.text
    assert "seed" not in keys_of(payload)
    assert "visible_to" not in keys_of(payload)
    assert str(record["seed"]) not in text or len(str(record["seed"])) < 6
    private = [e for e in stored["events"] if e["visible_to"] is not None]
    assert private, "the game had no private event: the check below would be vacuous"
    sent = [(e["event"], e["data"]) for s in steps for e in s["events"]]
    for e in private:
        assert (e["kind"], e["data"]) not in sent, e
    for step in steps:
        view = step["view"]
        assert view["you"] is None
        for p in view["players_info"]:
            assert "hand" not in p, f"step {step['step']}: seat {p['seat']}'s hand"
            if game == "sweet-nose" and not view["revealed"]:
                assert p["sweetness"] is None, f"step {step['step']}: seat {p['seat']}'s sweetness before the reveal"
    # ... while the seats' own views of the same states hold more (the checks above are not vacuous).
    states = list(replay_iter(record))
    hidden = [
        seat
        for state in states
        for seat in range(players)
        if state.view(seat)["players_info"] != state.view(None)["players_info"]
    ]
    assert hidden


@pytest.mark.parametrize("backend", BACKENDS)
def test_finished_tables_are_read_without_replaying_them(backend, request, tmp_path) -> None:
    """A finished table's summary and replay are lookups. Once its replay has been asked
    for, the record itself is no longer needed: with every decision deleted from the database, a new
    server still answers both, unchanged (a read that replayed the record would now fail)."""
    url = make_url(backend, request, tmp_path)
    bots = [{"kind": "bot", "level": "random"}] * 3
    with ServerThread(url, seat_timeout=None, rate_per_second=1000, burst=1000) as server:
        created = create_table(server.base, game="sweet-nose", players=3, seats=bots)
        tid = created["table"]["id"]
        summary = wait_over(server.base, tid)
        time.sleep(0.3)  # the table is let go once finished and unwatched
        first = httpx.get(f"{server.base}/api/tables/{tid}/replay", timeout=60).json()
        assert httpx.get(f"{server.base}/api/tables/{tid}/replay", timeout=60).json() == first
    db = Database(url)
    try:
        with db.engine.begin() as conn:
            conn.execute(text("DELETE FROM parlor_events WHERE table_id = :t"), {"t": tid})
            conn.execute(text("DELETE FROM parlor_actions WHERE table_id = :t"), {"t": tid})
    finally:
        db.close()
    with ServerThread(url, seat_timeout=None, rate_per_second=1000, burst=1000) as server:
        again = httpx.get(f"{server.base}/api/tables/{tid}", timeout=60)
        assert again.status_code == 200, again.text
        assert again.json() == summary
        replay = httpx.get(f"{server.base}/api/tables/{tid}/replay", timeout=60)
        assert replay.status_code == 200, replay.text
        assert replay.json() == first
        assert len(first["steps"]) == summary["version"] + 1 and first["result"] == summary["result"]
