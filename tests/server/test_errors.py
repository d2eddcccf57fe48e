"""Bad input over the WebSocket: each gets a clear error frame, changes nothing, and other tables go on."""

from __future__ import annotations

import json
import time

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from .conftest import BACKENDS, Client, ServerThread, create_table, make_url, sync_state, token_of


@pytest.fixture(scope="module", params=BACKENDS)
def strict_server(request, tmp_path_factory):
    """A server with the default limits (16 KiB frames, 20 frames/s, bursts of 40)."""
    url = make_url(request.param, request, tmp_path_factory.mktemp("db"))
    with ServerThread(url, seat_timeout=None) as s:
        yield s


def two_humans(server):
    created = create_table(server.base, players=2, seats=[{"kind": "human"}, {"kind": "human"}])
    tid = created["table"]["id"]
    a = Client(server.base, tid, token_of(created, 0))
    b = Client(server.base, tid, token_of(created, 1))
    mover, waiter = (a, b) if a.state["your_turn"] else (b, a)
    return created, mover, waiter


def refused(client, frame, code):
    reply = client.request(frame) if isinstance(frame, dict) else None
    if reply is None:
        client.send(frame)
        reply = client.next(lambda f: f["type"] == "error")
    assert reply["type"] == "error", reply
    assert reply["code"] == code, reply
    assert reply["message"]
    return reply


def raw_open(server, table_id, token):
    url = server.base.replace("http://", "ws://") + f"/ws/tables/{table_id}?token={token}"
    with connect(url, open_timeout=60) as ws:
        first = json.loads(ws.recv(timeout=60))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=60)
    return first, closed.value.rcvd.code if closed.value.rcvd else None


def test_wrong_or_foreign_tokens_and_unknown_tables_are_refused(strict_server):
    created = create_table(strict_server.base, players=2, seats=[{"kind": "human"}, {"kind": "human"}])
    other = create_table(strict_server.base, players=2, seats=[{"kind": "human"}, {"kind": "human"}])
    tid = created["table"]["id"]
    for token in ("not-a-token", "", token_of(other, 0), other["spectator_token"], "x" * 500):
        first, code = raw_open(strict_server, tid, token)
        assert first["type"] == "error" and first["code"] == "bad_token" and first["message"]
        assert code == 4403
    first, code = raw_open(strict_server, "no-such-table", token_of(created, 0))
    assert first["code"] == "table_not_found" and code == 4404
    # A token opens only its own seat.
    with Client(strict_server.base, tid, token_of(created, 1)) as bob:
        assert bob.welcome["seat"] == 1 and bob.state["view"]["you"] == 1
        assert "hand" not in bob.state["view"]["players_info"][0]
    assert not httpx.get(f"{strict_server.base}/api/tables/{tid}").json()["seats"][0]["joined"]


def test_bad_frames_get_clear_errors_and_change_nothing(strict_server):
    created, mover, waiter = two_humans(strict_server)
    tid = created["table"]["id"]
    before = sync_state(mover)
    legal = {json.dumps(entry["action"], sort_keys=True) for entry in before["legal"]}
    illegal = next(
        {"type": "play_toppings", "kind": k, "count": n}
        for k in ("salami", "pineapple", "mushroom", "pepper", "olive")
        for n in (1, 2, 3, 4, 5, 6, 7)
        if json.dumps({"count": n, "kind": k, "type": "play_toppings"}, sort_keys=True) not in legal
    )
    cases = [
        (mover, "{not json", "bad_json"),
        (mover, "[1, 2]", "bad_frame"),
        (mover, '"just a string"', "bad_frame"),
        (mover, {"no": "type"}, "bad_frame"),
        (mover, {"type": 5}, "bad_frame"),
        (mover, {"type": "dance"}, "unknown_type"),
        (mover, {"type": "action"}, "bad_frame"),
        (mover, {"type": "action", "action": {"type": "warp_drive"}}, "illegal_action"),
        (mover, {"type": "action", "action": "salami"}, "illegal_action"),
        (mover, {"type": "action", "id": 10**6}, "illegal_action"),
        (mover, {"type": "action", "id": "3"}, "illegal_action"),
        (mover, {"type": "action", "action": illegal}, "illegal_action"),
        (mover, {"type": "action", "id": before["legal"][0]["id"], "version": before["version"] + 3}, "stale"),
        (mover, {"type": "action", "id": before["legal"][0]["id"], "seat": 1 - mover.welcome["seat"]}, "wrong_seat"),
        (waiter, {"type": "action", "id": before["legal"][0]["id"]}, "not_your_turn"),
        (waiter, {"type": "action", "action": before["legal"][0]["action"]}, "not_your_turn"),
        (mover, {"type": "undo"}, "undo_not_allowed"),
        (mover, {"type": "play_again"}, "not_over"),
        (mover, json.dumps({"type": "ping", "pad": "x" * 70_000}), "too_large"),
        (mover, b"\xff\xfe not utf-8", "bad_json"),
    ]
    for client, frame, code in cases:
        if isinstance(frame, bytes):
            client.ws.send(frame)
            reply = client.next(lambda f: f["type"] == "error")
            assert reply["code"] == code
        else:
            refused(client, frame, code)
    with Client(strict_server.base, tid, created["spectator_token"]) as spec:
        refused(spec, {"type": "action", "id": before["legal"][0]["id"]}, "spectator")
        refused(spec, {"type": "undo"}, "undo_not_allowed")
        refused(spec, {"type": "play_again"}, "spectator")
    after = sync_state(mover)
    assert after["version"] == before["version"] and after["view"] == before["view"]
    assert after["legal"] == before["legal"]
    assert httpx.get(f"{strict_server.base}/api/tables/{tid}").json()["version"] == before["version"]
    # ... and the connection still works.
    assert mover.act(before["legal"][0]["id"])["type"] == "ack"


def test_a_flood_is_limited_and_other_tables_keep_working(strict_server):
    _, mover, _ = two_humans(strict_server)
    _, other_mover, _ = two_humans(strict_server)
    before = sync_state(mover)  # a new connection starts with a full bucket
    for i in range(150):
        mover.send({"type": "ping", "ref": i})
    replies = [mover.next(lambda f: f["type"] in ("pong", "error")) for _ in range(150)]
    limited = [r for r in replies if r["type"] == "error"]
    assert limited and all(r["code"] == "rate_limited" for r in limited)
    assert 30 <= sum(r["type"] == "pong" for r in replies) < 150  # the burst (less the sync), a few refills
    # Another table is served, and the flooded one did not change.
    assert other_mover.act(other_mover.state["legal"][0]["id"])["type"] == "ack"
    time.sleep(1.0)
    after = sync_state(mover)
    assert after["version"] == before["version"] and after["view"] == before["view"]
    assert mover.request({"type": "ping"})["type"] == "pong"


def test_bad_rest_requests_do_not_disturb_the_server(strict_server):
    created, mover, _ = two_humans(strict_server)
    tid = created["table"]["id"]
    json_type = {"content-type": "application/json"}
    r = httpx.post(f"{strict_server.base}/api/tables/{tid}/join", content=b"\x00" * 100_000, headers=json_type)
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"
    r = httpx.post(f"{strict_server.base}/api/tables/{tid}/play-again", json={"token": token_of(created, 0)})
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_over"
    r = httpx.post(f"{strict_server.base}/api/tables/{tid}/play-again", json={"token": "bad"})
    assert r.status_code == 403
    assert mover.act(mover.state["legal"][0]["id"])["type"] == "ack"


def test_a_wrong_address_opened_in_a_browser_gets_a_page_the_api_keeps_its_json(strict_server):
    """A mistyped link opened by a person gets a page (404) with a way back to the lobby; a script,
    or the page's own fetch of the API, still gets the JSON error it reads."""
    browser_accept = {"accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
    r = httpx.get(f"{strict_server.base}/plya/<b>typo</b>", headers=browser_accept)
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert 'data-code="not_found"' in r.text and 'href="/"' in r.text and "<b>" not in r.text
    r = httpx.get(f"{strict_server.base}/plya/typo", headers={"accept": "application/json"})
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    r = httpx.get(f"{strict_server.base}/api/no-such-thing", headers=browser_accept)
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    r = httpx.post(f"{strict_server.base}/plya/typo", headers=browser_accept)
    assert r.status_code in (404, 405) and r.json()["error"]["code"]
