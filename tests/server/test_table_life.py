"""Table life: a bot takes the seat of a player gone too long (and the result says so), never before
that player first joined unless the host allowed it; play again."""

from __future__ import annotations

import time

import httpx
import pytest

from .conftest import (
    BACKENDS,
    Client,
    Race,
    ServerThread,
    against_a_short_timer,
    claim,
    create_table,
    make_url,
    token_of,
)
from .test_play import catch_up


@pytest.fixture(scope="module", params=BACKENDS)
def life_server(request, tmp_path_factory):
    url = make_url(request.param, request, tmp_path_factory.mktemp("db"))
    with ServerThread(url, rate_per_second=1000, burst=1000) as s:
        yield s


def test_a_bot_plays_for_a_seat_gone_too_long_until_the_player_is_back(life_server):
    # The test waits out the seat timeout three times (Bob never came, Bob connected, Bob gone again):
    # a short one, and a longer one only if Ann could not connect within it (see below).
    against_a_short_timer(lambda timeout, race: bot_for_a_seat_gone(life_server, timeout, race), (1.0, 4.0, 12.0))


def bot_for_a_seat_gone(life_server: ServerThread, timeout: float, race: Race) -> None:
    asked = time.time()
    created = create_table(
        life_server.base,
        players=2,
        seats=[{"kind": "human"}, {"kind": "human"}],
        seat_timeout=timeout,
        bots_before_join=True,  # the host allowed bots for players who never came
    )
    tid = created["table"]["id"]
    with Client(life_server.base, tid, token_of(created, 0)) as ann:
        # Ann must connect within the timeout, or a bot rightly takes her seat too (bots_before_join). Her
        # seat's timer started after the table was asked for: a welcome read before that plus the timeout
        # came in time, and from then on any failure is the server's.
        race.due = asked + timeout
        race.won = time.time() < race.due
        # Bob never came: after the timeout a bot plays his seat, and Ann sees it in a seats frame.
        seats = ann.next(lambda f: f["type"] == "seats" and f["seats"][1]["substituted"], timeout=60)["seats"]
        assert seats[1]["kind"] == "human" and not seats[1]["connected"]
        for _ in range(6):
            st = ann.wait_turn_or_over()
            if st["over"]:
                break
            assert ann.act(st["legal"][0]["id"])["type"] == "ack"
        ann.drain()
        summary = httpx.get(f"{life_server.base}/api/tables/{tid}").json()
        assert summary["seats"][1]["bot_moves"] > 0 and summary["seats"][0]["bot_moves"] == 0
        # Bob comes back: the bot stops at once and the game waits for him.
        with Client(life_server.base, tid, token_of(created, 1)) as bob:
            back = ann.next(lambda f: f["type"] == "seats" and not f["seats"][1]["substituted"], timeout=60)
            assert back["seats"][1]["connected"]
            for _ in range(60):
                catch_up([ann, bob])
                if bob.state["your_turn"]:
                    break
                if ann.state["your_turn"]:
                    assert ann.act(ann.state["legal"][0]["id"])["type"] == "ack"
                else:  # a substitute's move that was already under way when Bob came back
                    ann.next_state(timeout=60)
            assert bob.state["your_turn"]
            version = bob.state["version"]
            time.sleep(timeout + 0.5)  # longer than the timeout: Bob is connected, so nobody plays for him
            bob.drain()
            assert bob.state["version"] == version and bob.state["your_turn"]
        # Bob leaves again; Ann plays the game out against his substitute.
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            st = ann.wait_turn_or_over()
            if st["over"]:
                break
            assert ann.act(st["legal"][0]["id"])["type"] == "ack"
        assert ann.state["over"]
        result = ann.state["result"]
        assert result["seats"][1]["substituted"] and result["seats"][1]["bot_moves"] > 0
        assert not result["seats"][0]["substituted"] and result["seats"][0]["bot_moves"] == 0
    assert httpx.get(f"{life_server.base}/api/tables/{tid}").json()["result"] == result


def test_play_again_makes_a_new_table_with_the_same_seats_and_new_links(life_server):
    created = create_table(
        life_server.base,
        players=3,
        seats=[{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "random"}],
        options={"refill_mode": "up_to"},
    )
    tid = created["table"]["id"]
    with (
        Client(life_server.base, tid, token_of(created, 0)) as ann,
        Client(life_server.base, tid, created["spectator_token"]) as spec,
    ):
        while True:
            st = ann.wait_turn_or_over()
            if st["over"]:
                break
            assert ann.act(st["legal"][-1]["id"])["type"] == "ack"
        reply = spec.request({"type": "play_again"})
        assert reply["type"] == "error" and reply["code"] == "spectator"
        reply = ann.request({"type": "play_again"})
        assert reply["type"] == "ack" and reply["table_id"] != tid
        new_id = reply["table_id"]
        # Each seat gets its own new link (a fresh claim code); the spectators get the table only.
        mine = ann.next(lambda f: f["type"] == "next_table")
        assert mine["table_id"] == new_id and mine["join_path"] == reply["join_path"]
        theirs = spec.next(lambda f: f["type"] == "next_table")
        assert theirs == {"type": "next_table", "table_id": new_id}
        code = reply["join_path"].split("#claim=")[1]
        assert code not in {token_of(created, 0), created["spectator_token"]}
    # Asking again (here over REST) gives the same new table.
    r = httpx.post(f"{life_server.base}/api/tables/{tid}/play-again", json={"token": token_of(created, 0)})
    assert r.status_code == 200 and r.json()["table_id"] == new_id
    old = httpx.get(f"{life_server.base}/api/tables/{tid}").json()
    new = httpx.get(f"{life_server.base}/api/tables/{new_id}").json()
    assert old["next_table"] == new_id and new["previous_table"] == tid
    assert new["status"] == "playing" and new["options"] == old["options"]
    assert [(s["kind"], s["level"], s["name"]) for s in new["seats"]] == [
        (s["kind"], s["level"], s["name"]) for s in old["seats"]
    ]
    # The old token opens nothing at the new table; the new link, claimed, opens the same seat.
    r = httpx.post(f"{life_server.base}/api/tables/{new_id}/join", json={"token": token_of(created, 0)}, timeout=60)
    assert r.status_code == 403
    new_token = claim(life_server.base, new_id, code).json()["token"]
    with (
        Client(life_server.base, new_id, new_token) as ann2,
        Client(life_server.base, new_id, created["spectator_token"]) as spec2,
    ):
        assert ann2.welcome["seat"] == 0 and spec2.welcome["role"] == "spectator"
        st = ann2.wait_turn_or_over()
        assert not st["over"] and st["version"] >= 0
        assert ann2.act(st["legal"][0]["id"])["type"] == "ack"
