"""Clocks and leavers: no bot plays a seat before its player first joined (unless the host says so),
the turn clock, the host's stand-in and new link, and the bot_played marks."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from parlor.server.limits import Limits

from .conftest import BACKENDS, Client, ServerThread, claim, create_table, make_url, sync_state, token_of
from .test_play import catch_up


@pytest.fixture(scope="module", params=BACKENDS)
def clock_server(request, tmp_path_factory):
    url = make_url(request.param, request, tmp_path_factory.mktemp("db"))
    limits = Limits(min_turn_time=0.1, relink_after=1.0)  # a seat is away a second after its player left
    with ServerThread(url, rate_per_second=1000, burst=1000, limits=limits) as s:
        yield s


def two_humans(base: str, **body: Any) -> dict[str, Any]:
    return create_table(
        base, players=2, seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}], **body
    )


def summary(base: str, tid: str) -> dict[str, Any]:
    return httpx.get(f"{base}/api/tables/{tid}", timeout=60).json()


def play_until_turn_of(ann: Client, seat: int, timeout: float = 30.0) -> dict[str, Any]:
    """Ann plays her first legal move until ``seat`` is to move."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ann.drain()
        st = ann.state
        if seat in st["to_move"] or st["over"]:
            return st
        if st["your_turn"]:
            reply = ann.act(st["legal"][0]["id"])
            # a turn clock may have run out just before (a bot moved for Ann): then look again
            assert reply["type"] == "ack" or reply["code"] in ("not_your_turn", "illegal_action"), reply
        else:
            ann.next_state(timeout=60)
    raise TimeoutError


def marks(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e["data"] for f in frames if f["type"] == "state" for e in f["events"] if e["event"] == "bot_played"]


def test_no_bot_plays_a_seat_whose_player_never_came(clock_server):
    created = two_humans(clock_server.base, seat_timeout=0.2, turn_time=1.0)
    tid = created["table"]["id"]
    with Client(clock_server.base, tid, token_of(created, 0)) as ann:
        st = play_until_turn_of(ann, 1)
        assert not st["over"] and st["to_move"] == [1]
        assert st["clocks"] == {}  # Bob never came: his clock does not run
        version = st["version"]
        time.sleep(1.6)  # far past both the seat timeout and the turn time
        ann.drain()
        assert ann.state["version"] == version
        seats = summary(clock_server.base, tid)["seats"]
        assert seats[1]["joined"] is False and seats[1]["substituted"] is False and seats[1]["bot_moves"] == 0
        assert not [f for f in ann.frames if f["type"] == "seats" and f["seats"][1]["substituted"]]
        assert not [m for m in marks(ann.frames) if m["seat"] == 1]
        # Bob opens his link once and leaves: from then on the timeout applies to him.
        Client(clock_server.base, tid, token_of(created, 1)).close()
        ann.next(lambda f: f["type"] == "seats" and f["seats"][1]["substituted"], timeout=60)
        ann.next(lambda f: f["type"] == "state" and f["version"] > version, timeout=60)
        # (on a slow machine Bob's own clock, started when he came, may run out first: both are bots
        # allowed once he came; the away path itself is the seats frame above)
        assert next(m for m in marks(ann.frames) if m["seat"] == 1)["reason"] in ("away", "clock")


def test_a_play_again_table_nobody_opened_is_not_played_by_bots(clock_server):
    created = create_table(
        clock_server.base,
        players=3,
        seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}],
        seat_timeout=0.2,
        turn_time=0.2,
    )
    tid = created["table"]["id"]
    with Client(clock_server.base, tid, token_of(created, 0)) as ann:
        while not (st := ann.wait_turn_or_over())["over"]:
            reply = ann.act(st["legal"][-1]["id"])  # Ann's own 0.2 s clock may beat her on a busy machine
            assert reply["type"] == "ack" or reply["code"] in ("not_your_turn", "illegal_action"), reply
        again = ann.request({"type": "play_again"})
        new_id, code = again["table_id"], again["join_path"].split("#claim=")[1]
    time.sleep(1.5)  # Ann never opens the new table
    new = summary(clock_server.base, new_id)
    assert new["status"] == "playing" and new["turn_time"] == 0.2
    assert new["seats"][0] == {**new["seats"][0], "joined": False, "substituted": False, "bot_moves": 0}
    token = claim(clock_server.base, new_id, code).json()["token"]
    with Client(clock_server.base, new_id, token) as ann:
        st = ann.wait_turn_or_over()
        assert st["your_turn"] and not marks(ann.frames)


def test_the_turn_clock_runs_out_and_a_bot_moves_marked_for_the_seat(clock_server):
    created = two_humans(clock_server.base, turn_time=0.6, seat_timeout=None)
    tid = created["table"]["id"]
    assert created["table"]["turn_time"] == 0.6
    spectator = created["spectator_token"]
    with (
        Client(clock_server.base, tid, token_of(created, 0)) as ann,
        Client(clock_server.base, tid, token_of(created, 1)) as bob,
        Client(clock_server.base, tid, spectator) as spec,
    ):
        # Both joined: nobody acts, so the clocks run out and a bot moves for whoever is to move.
        start = ann.state
        mover = start["to_move"][0]
        frames = ann.next(lambda f: f["type"] == "state" and f["version"] > start["version"], timeout=60)
        assert frames["events"][0] == {"event": "bot_played", "data": {"seat": mover, "reason": "clock"}}
        assert len(frames["events"]) > 1  # the decision's own events follow the mark
        catch_up([ann, bob, spec])
        for c in (ann, bob, spec):
            assert marks(c.frames)[:1] == [{"seat": mover, "reason": "clock"}]
            # ... and a seats frame counts it for the seat chips.
            if not any(f["type"] == "seats" and f["seats"][mover]["bot_moves"] >= 1 for f in c.frames):
                c.next(lambda f: f["type"] == "seats" and f["seats"][mover]["bot_moves"] >= 1, timeout=60)
        seats = summary(clock_server.base, tid)["seats"]
        assert seats[mover]["bot_moves"] >= 1 and not seats[mover]["substituted"]
        # The player keeps the seat: the next decision waits for them (their clock starts full).
        st = ann.state
        assert not st["over"]
        # Every connection got a clock for each seat to move, at most a full turn (how much of it was
        # left when the frame was made depends on the machine's speed, not on the seat).
        for c in (ann, bob, spec):
            for f in c.frames:
                if f["type"] == "state" and f["cause"] == "action" and not f["over"]:
                    assert set(f["clocks"]) == {str(s) for s in f["to_move"]}
                    assert all(0.0 <= left <= 0.6 for left in f["clocks"].values()), f["clocks"]
    # The summary and the stored decisions say who moved.
    with Client(clock_server.base, tid, spectator) as again:
        assert marks(again.frames)[0] == {"seat": mover, "reason": "clock"}  # the join state replays the marks


def test_the_clock_is_the_same_whatever_the_hand(clock_server):
    """Hidden information includes timing: the time given never depends on the seat's cards."""
    asked = time.monotonic()  # no clock of the first decision started before this
    created = two_humans(clock_server.base, turn_time=30, seat_timeout=None)
    tid = created["table"]["id"]
    seen: list[tuple[float, float]] = []  # (seconds left, at most this long since the decision began)
    with (
        Client(clock_server.base, tid, token_of(created, 0)) as ann,
        Client(clock_server.base, tid, token_of(created, 1)) as bob,
    ):
        for _ in range(12):
            catch_up([ann, bob])
            since = time.monotonic() - asked
            st = ann.state if ann.state["your_turn"] else bob.state
            if st["over"]:
                break
            seen.extend((left, since) for left in st["clocks"].values())
            mover = ann if ann.state["your_turn"] else bob
            asked = time.monotonic()
            assert mover.act(mover.state["legal"][-1]["id"])["type"] == "ack"
    assert len(seen) >= 10
    # Each a full turn, less only the time the decision and its frame took (however slow the machine):
    # never a clock that depends on what is in a hand. (0.01: the frame rounds to hundredths.)
    assert all(30.0 - since - 0.01 <= left <= 30.0 for left, since in seen), seen
    # Moves in time: no bot ever played for anyone.
    assert [s["bot_moves"] for s in summary(clock_server.base, tid)["seats"]] == [0, 0]
    assert not marks(ann.frames) and not marks(bob.frames)


def test_bad_clock_settings_are_refused(clock_server):
    for bad in (0, -1, "60", True, 86401, [5]):
        r = httpx.post(
            f"{clock_server.base}/api/tables", json={"game": "mamma-mia", "players": 2, "turn_time": bad}, timeout=60
        )
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request", (bad, r.text)
        assert "turn_time" in r.json()["error"]["message"]
    r = httpx.post(
        f"{clock_server.base}/api/tables",
        json={"game": "mamma-mia", "players": 2, "bots_before_join": "yes"},
        timeout=60,
    )
    assert r.status_code == 400 and "bots_before_join" in r.json()["error"]["message"]


def host_post(base: str, tid: str, seat: Any, what: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(f"{base}/api/tables/{tid}/seats/{seat}/{what}", json=body, timeout=60)


def test_the_host_lets_a_bot_play_a_missing_seat_until_its_player_comes(clock_server):
    created = two_humans(clock_server.base, seat_timeout=None)
    tid, host = created["table"]["id"], created["host_token"]
    assert host and host not in {created["seats"][0]["claim"], created["seats"][1]["claim"]}
    with Client(clock_server.base, tid, token_of(created, 0)) as ann:
        st = play_until_turn_of(ann, 1)
        version = st["version"]
        # Wrong tokens, seats and bodies change nothing.
        for token in (None, "", "x" * 32, token_of(created, 0), created["spectator_token"]):
            r = host_post(clock_server.base, tid, 1, "stand-in", {"host_token": token, "on": True})
            assert r.status_code == 403 and r.json()["error"]["code"] == "not_host", token
        for seat in (0 - 1, 2, "x", 99):
            r = host_post(clock_server.base, tid, seat, "stand-in", {"host_token": host, "on": True})
            assert r.status_code in (400, 404, 422) and r.json()["error"]["code"] in (
                "bad_seat",
                "not_found",
                "bad_request",
            )
        r = host_post(clock_server.base, tid, 1, "stand-in", {"host_token": host, "on": "yes"})
        assert r.status_code == 400
        time.sleep(0.3)
        ann.drain()
        assert ann.state["version"] == version and summary(clock_server.base, tid)["seats"][1]["stand_in"] is False
        # The host says so: a bot plays Bob's seat now, marked as the host's stand-in.
        r = host_post(clock_server.base, tid, 1, "stand-in", {"host_token": host, "on": True})
        assert r.status_code == 200, r.text
        assert r.json()["seats"][1]["stand_in"] is True and r.json()["seats"][1]["substituted"] is True
        ann.next(lambda f: f["type"] == "state" and f["version"] > version, timeout=60)
        assert marks(ann.frames)[0] == {"seat": 1, "reason": "host"}
        # Bob arrives: the stand-in ends and the game waits for him.
        with Client(clock_server.base, tid, token_of(created, 1)) as bob:
            ann.next(lambda f: f["type"] == "seats" and not f["seats"][1]["substituted"], timeout=60)
            s1 = summary(clock_server.base, tid)["seats"][1]
            assert s1["stand_in"] is False and s1["joined"] and s1["bot_moves"] >= 1
            for _ in range(60):
                catch_up([ann, bob])
                if bob.state["your_turn"] or bob.state["over"]:
                    break
                if ann.state["your_turn"]:
                    assert ann.act(ann.state["legal"][0]["id"])["type"] == "ack"
                else:
                    ann.next_state(timeout=60)
            v = bob.state["version"]
            time.sleep(0.4)
            bob.drain()
            assert bob.state["version"] == v


def test_the_host_relinks_only_a_seat_that_is_away_and_its_player_is_told(clock_server):
    """A seat belongs to its player. The host's new link is refused while the
    player is connected (or left less than ``relink_after`` ago); once the seat is away it is given, the
    table is told, and the old token's holder learns what happened instead of a bare "bad token"."""
    created = two_humans(clock_server.base, seat_timeout=None)
    tid, host = created["table"]["id"], created["host_token"]
    old = token_of(created, 1)
    with Client(clock_server.base, tid, token_of(created, 0)) as ann:
        with Client(clock_server.base, tid, old) as bob:
            assert bob.welcome["seat"] == 1
            r = host_post(clock_server.base, tid, 1, "new-link", {"host_token": "nope"})
            assert r.status_code == 403 and r.json()["error"]["code"] == "not_host"
            r = host_post(clock_server.base, tid, 1, "new-link", {"host_token": host})
            assert r.status_code == 409 and r.json()["error"]["code"] == "seat_taken", r.text
            assert bob.request({"type": "ping"})["type"] == "pong"  # still seated, still served
            assert summary(clock_server.base, tid)["seats"][1]["away"] is False
        # Bob left: not yet away, then away (every connection is told by a seats frame).
        r = host_post(clock_server.base, tid, 1, "new-link", {"host_token": host})
        assert r.status_code == 409 and r.json()["error"]["code"] == "seat_taken", r.text
        ann.next(lambda f: f["type"] == "seats" and f["seats"][1]["away"] is True, timeout=30)
        r = host_post(clock_server.base, tid, 1, "new-link", {"host_token": host})
        assert r.status_code == 200, r.text
        answer = r.json()
        assert answer["seat"] == 1 and answer["join_path"] == f"/play/{tid}#claim={answer['claim']}"
        assert "token" not in answer  # the host holds the link, never the seat's token
        assert answer["table"]["seats"][1]["joined"] is False and answer["table"]["seats"][1]["name"] is None
        notice = ann.next(lambda f: f["type"] == "notice")
        assert notice == {"type": "notice", "code": "seat_relinked", "seat": 1}
    # The old token opens nothing, and says why.
    r = httpx.post(f"{clock_server.base}/api/tables/{tid}/join", json={"token": old}, timeout=60)
    assert r.status_code == 403 and r.json()["error"]["code"] == "seat_replaced"
    with pytest.raises(ConnectionClosed) as closed, Client(clock_server.base, tid, old):
        pass
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
    r = claim(clock_server.base, tid, answer["claim"])
    assert r.status_code == 200 and r.json()["seat"] == 1
    new = r.json()["token"]
    assert new != old
    with Client(clock_server.base, tid, new) as carol:
        assert carol.welcome["seat"] == 1 and carol.welcome["role"] == "seat"
        # Carol is here now: the seat is hers, and no new link takes it.
        r = host_post(clock_server.base, tid, 1, "new-link", {"host_token": host})
        assert r.status_code == 409 and r.json()["error"]["code"] == "seat_taken"
    # The new link claims once too.
    r = claim(clock_server.base, tid, answer["claim"])
    assert r.status_code == 403 and r.json()["error"]["code"] == "link_used"
    assert summary(clock_server.base, tid)["seats"][1]["joined"] is True
    # Ann's link still works; a seat nobody ever claimed is away from the start.
    with Client(clock_server.base, tid, token_of(created, 0)) as ann:
        assert ann.welcome["seat"] == 0
    fresh = two_humans(clock_server.base, seat_timeout=None)
    r = host_post(clock_server.base, fresh["table"]["id"], 1, "new-link", {"host_token": fresh["host_token"]})
    assert r.status_code == 200, r.text


def test_host_actions_on_bots_and_finished_tables_are_refused(clock_server):
    created = create_table(clock_server.base, players=2, seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}])
    tid, host = created["table"]["id"], created["host_token"]
    r = host_post(clock_server.base, tid, 1, "new-link", {"host_token": host})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_seat"
    r = host_post(clock_server.base, tid, 1, "stand-in", {"host_token": host, "on": True})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_seat"
    r = httpx.post(f"{clock_server.base}/api/tables/{tid}/seats/0/teleport", json={"host_token": host}, timeout=60)
    assert r.status_code == 404


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_running_clock_survives_a_restart(backend, request, tmp_path):
    """A restarted server resumes the clock of a decision still asked where it stood: it does not
    give the player a full turn again (nor less than a moment to reconnect)."""
    url = make_url(backend, request, tmp_path)
    turn = 40.0
    with ServerThread(url, rate_per_second=1000, burst=1000) as server:
        asked = time.monotonic()
        created = two_humans(server.base, turn_time=turn, seat_timeout=None)
        tid = created["table"]["id"]
        with (
            Client(server.base, tid, token_of(created, 0)) as ann,
            Client(server.base, tid, token_of(created, 1)) as bob,
        ):
            catch_up([ann, bob])
            mover = ann if ann.state["your_turn"] else bob
            seat = str(mover.state["to_move"][0])
            version = mover.state["version"]
            assert turn - (time.monotonic() - asked) - 0.01 <= mover.state["clocks"][seat] <= turn
            time.sleep(3.0)  # three seconds of the turn pass before the server stops
    with (
        ServerThread(url, rate_per_second=1000, burst=1000) as server,
        Client(server.base, tid, token_of(created, int(seat))) as back,
    ):
        st = back.state
        assert st["version"] == version and st["your_turn"]
        left = st["clocks"][seat]
        assert left <= turn - 2.5, f"the clock started afresh after the restart ({left}s of {turn}s left)"
        assert left >= 10.0, left  # what was left (about 37 s), at least the grace to reconnect


def undoable_move(mover: Client) -> dict[str, Any] | None:
    """The mover makes a move it can take back and takes it back; returns the undo's state (None if no
    move of this position could be taken back)."""
    for entry in mover.state["legal"]:
        reply = mover.act(entry["id"])
        if reply["type"] != "ack":
            return None
        undo = mover.request({"type": "undo"})
        if undo["type"] == "ack":
            return mover.next(lambda f: f["type"] == "state" and f["cause"] == "undo")
        if not mover.state["your_turn"]:
            return None
    return None


def test_an_undo_gives_no_clock_time_back(clock_server):
    """A move and its undo do not restart the mover's clock. After the undo the
    clock shows no more than it did before the move, and a player who keeps moving and taking back
    runs out of time like anyone else (a bot then decides for the seat)."""
    turn = 30.0
    created = two_humans(clock_server.base, turn_time=turn, seat_timeout=None)
    tid = created["table"]["id"]
    with (
        Client(clock_server.base, tid, token_of(created, 0)) as ann,
        Client(clock_server.base, tid, token_of(created, 1)) as bob,
    ):
        catch_up([ann, bob])
        mover = ann if ann.state["your_turn"] else bob
        seat = str(mover.state["to_move"][0])
        for _ in range(20):
            clocks = sync_state(mover)["clocks"]
            if clocks[seat] <= turn - 0.3:  # the clock has run a little
                break
            time.sleep(0.1)
        before = clocks[seat]
        undone = undoable_move(mover)
        assert undone is not None, "no move could be taken back"
        assert undone["your_turn"] and undone["clocks"][seat] <= before, (before, undone["clocks"])
    # A short clock: moving and taking back again and again does not keep it from running out.
    created = two_humans(clock_server.base, turn_time=1.0, seat_timeout=None)
    tid = created["table"]["id"]
    with (
        Client(clock_server.base, tid, token_of(created, 0)) as ann,
        Client(clock_server.base, tid, token_of(created, 1)) as bob,
    ):
        catch_up([ann, bob])
        mover = ann if ann.state["your_turn"] else bob
        seat = mover.state["to_move"][0]
        deadline = time.monotonic() + 120  # a 1 s clock: far longer than it can last
        while not any(m == {"seat": seat, "reason": "clock"} for m in marks(mover.frames)):
            assert time.monotonic() < deadline, "moving and undoing held the clock off"
            if mover.state["your_turn"]:
                undoable_move(mover)
            else:
                mover.next_state(timeout=60)


@pytest.mark.parametrize("backend", BACKENDS)
def test_moving_and_undoing_at_the_deadline_does_not_keep_a_turn(backend, request, tmp_path):
    """The deadline belongs to the decision: a move and its undo made right as the clock runs out
    (while the clock's bot waits its usual delay) give no fresh turn. A seat that keeps trying holds
    its turn one turn time at most: either the undo is refused (its time ran out, so the move stands)
    or the clock's bot decides for it. Waits for one of those events; before, the seat held the
    turn for ever."""
    url = make_url(backend, request, tmp_path)
    # The clock's bot waits 0.6 to 1.4 s after the clock runs out, and the turn is longer than that: a
    # seat that moves in that wait and takes it back must not be given the turn afresh.
    turn = 2.0
    with ServerThread(url, rate_per_second=1000, burst=1000, bot_delay=1.0) as server:
        created = two_humans(server.base, turn_time=turn, seat_timeout=None)
        tid = created["table"]["id"]
        with (
            Client(server.base, tid, token_of(created, 0)) as ann,
            Client(server.base, tid, token_of(created, 1)) as bob,
        ):
            catch_up([ann, bob])
            mover = ann if ann.state["your_turn"] else bob
            seat = mover.welcome["seat"]
            ended = None
            deadline = time.monotonic() + 20 * turn  # twenty turn times: far more than one
            while ended is None:
                assert time.monotonic() < deadline, "moving and undoing at the deadline kept the turn alive"
                if any(m == {"seat": seat, "reason": "clock"} for m in marks(mover.frames)):
                    ended = "the clock's bot decided"
                    break
                st = sync_state(mover)
                if not st["your_turn"]:  # (a move that could not be taken back: the next turn)
                    mover.next_state(timeout=60)
                    continue
                # The attack: wait for the clock to run out, then move and take it back at once.
                time.sleep(st["clocks"].get(str(seat), 0.0) + 0.02)
                for entry in st["legal"]:
                    if mover.act(entry["id"])["type"] != "ack":
                        break
                    undo = mover.request({"type": "undo"})
                    if undo["type"] == "ack":
                        mover.next(lambda f: f["type"] == "state" and f["cause"] == "undo")
                        break
                    if "ran out" in undo["message"]:
                        ended = "the undo was refused: the decision's time had run out"
                    break  # the move stands
            # The turn is over: the seat's decision stands (or the bot's), and the game moved on.
            assert sync_state(mover)["version"] > 0, ended
