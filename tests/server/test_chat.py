"""The table's chat: seated players write, everyone reads; limits; stored with the table (it survives
a restart of the server) and shown in the replay. Seat-view replays: a seat's own game, nothing more."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest

from parlor.core import for_seat, replay_iter
from parlor.server.limits import Limits
from parlor.server.storage import AddChat, Database
from parlor.server.table.chat import CHAT_BURST, CHAT_RATE

from .conftest import BACKENDS, Client, ServerThread, create_table, make_url, token_of
from .test_replay import stored_record, wait_over

NASTY = "<img src=x onerror=\"alert(1)\"> & <b>bold</b> 'quotes' 你好"


@pytest.fixture(params=BACKENDS)
def chat_url(request, tmp_path) -> str:
    return make_url(request.param, request, tmp_path)


def chat_frames(client: Client) -> list[dict[str, Any]]:
    return [f for f in client.frames if f["type"] == "chat"]


def test_chat_delivered_limited_and_kept_across_a_restart(chat_url):
    with ServerThread(chat_url, rate_per_second=1000, burst=1000) as server:
        created = create_table(
            server.base, players=3, seats=[{"kind": "human", "name": "Ann"}, {"kind": "human"}, {"kind": "bot"}]
        )
        tid = created["table"]["id"]
        with (
            Client(server.base, tid, token_of(created, 0)) as ann,
            Client(server.base, tid, token_of(created, 1)) as bob,
            Client(server.base, tid, created["spectator_token"]) as spec,
        ):
            for c in (ann, bob, spec):  # the history comes right after the join state
                first = c.next(lambda f: f["type"] == "chat")
                assert first == {"type": "chat", "history": True, "messages": [], "total": 0, "more": False}
            reply = ann.request({"type": "chat", "text": f"  {NASTY}  "})
            assert reply["type"] == "ack"
            for c in (ann, bob, spec):
                frame = c.next(lambda f: f["type"] == "chat" and not f["history"])
                (msg,) = frame["messages"]
                assert msg["text"] == NASTY and msg["seat"] == 0 and msg["idx"] == 0
                assert msg["version"] <= ann.state["version"] and msg["at"].endswith("Z")  # a bot may move meanwhile
            # Bad texts are refused and change nothing.
            for bad in ("", "   ", None, 5, ["x"], "x" * 301):
                reply = bob.request({"type": "chat", "text": bad})
                assert reply["type"] == "error" and reply["code"] == "bad_chat", bad
            assert bob.request({"type": "chat", "text": "x" * 300})["type"] == "ack"
            assert bob.request({"type": "chat", "text": "tab\there\x07bell\nline"})["type"] == "ack"
            # A burst: 5 at once per seat, then the chat is rate limited (the game frames are not).
            began = time.monotonic()
            acks = 0
            for i in range(40):
                reply = ann.request({"type": "chat", "text": f"spam {i}"})
                if reply["type"] == "error":
                    assert reply["code"] == "rate_limited"
                    break
                acks += 1
            else:
                pytest.fail("40 chat messages in a row were never rate limited")
            # Ann had said one message; the bucket refills one message every 2 seconds.
            assert 4 <= acks <= CHAT_BURST - 1 + (time.monotonic() - began) * CHAT_RATE + 1, acks
            assert ann.request({"type": "ping"})["type"] == "pong"
            want = 3 + acks  # Bob gets every message said, however slow the machine

            def heard() -> int:
                return sum(len(f["messages"]) for f in chat_frames(bob))

            while heard() < want:
                bob.next(lambda f: f["type"] == "chat", timeout=60)
            time.sleep(0.2)
            bob.drain()
        said = [m for f in chat_frames(bob) for m in f["messages"]]
        texts = [m["text"] for m in said]
        assert texts[:3] == [NASTY, "x" * 300, "tab here bell line"]
        assert [m["idx"] for m in said] == list(range(len(said)))
        assert len(said) == 3 + acks
    # A new server on the same database: the chat is still there, in order.
    with ServerThread(chat_url, rate_per_second=1000, burst=1000) as server:
        with Client(server.base, tid, created["spectator_token"]) as spec:
            history = spec.next(lambda f: f["type"] == "chat")
            assert history["history"] is True
            assert [m["text"] for m in history["messages"]] == texts
            assert [m["seat"] for m in history["messages"]][:3] == [0, 1, 1]
        with Client(server.base, tid, token_of(created, 1)) as bob:
            assert bob.request({"type": "chat", "text": "back"})["type"] == "ack"
            msg = bob.next(lambda f: f["type"] == "chat" and not f["history"])["messages"][0]
            assert msg["idx"] == len(texts) and msg["text"] == "back"


def test_spectators_talk_among_themselves(chat_url):
    """A spectator's message goes to the spectators' channel: every spectator reads it, no seated
    player does (not live, not in the history on joining); it is stored and in the replay."""
    with ServerThread(chat_url, rate_per_second=1000, burst=1000) as server:
        created = create_table(
            server.base, players=3, seats=[{"kind": "human", "name": "Ann"}, {"kind": "human"}, {"kind": "bot"}]
        )
        tid = created["table"]["id"]
        with (
            Client(server.base, tid, token_of(created, 0)) as ann,
            Client(server.base, tid, created["spectator_token"]) as watcher,
            Client(server.base, tid, created["spectator_token"]) as other_watcher,
        ):
            for c in (ann, watcher, other_watcher):
                c.next(lambda f: f["type"] == "chat" and f["history"])
            reply = watcher.request({"type": "chat", "text": "Ann should bake the salami"})
            assert reply["type"] == "ack", reply
            for c in (watcher, other_watcher):
                (msg,) = c.next(lambda f: f["type"] == "chat" and not f["history"])["messages"]
                assert msg["channel"] == "spectators" and msg["seat"] is None
                assert msg["text"] == "Ann should bake the salami"
            # The players' channel still reaches everyone, spectators included.
            assert ann.request({"type": "chat", "text": "hello all"})["type"] == "ack"
            for c in (ann, watcher):
                (msg,) = c.next(lambda f: f["type"] == "chat" and not f["history"])["messages"]
                assert msg["channel"] == "table" and msg["seat"] == 0
            # Spectators' chat is limited like a seat's: a burst, then refusals.
            replies = [watcher.request({"type": "chat", "text": f"spam {i}"}) for i in range(CHAT_BURST + 3)]
            assert any(r["type"] == "error" and r["code"] == "rate_limited" for r in replies)
            # Whatever the spam sent Ann was queued before the watcher's answers: a ping to Ann comes after it.
            ann.request({"type": "ping"})
            heard = [m for f in chat_frames(ann) for m in f["messages"]]
            assert [m["text"] for m in heard] == ["hello all"], heard
        # Joining later: a seat's history holds only the players' channel, a spectator's both.
        with Client(server.base, tid, token_of(created, 1)) as bob:
            history = bob.next(lambda f: f["type"] == "chat" and f["history"])["messages"]
            assert [m["text"] for m in history] == ["hello all"]
        with Client(server.base, tid, created["spectator_token"]) as late:
            history = late.next(lambda f: f["type"] == "chat" and f["history"])["messages"]
            assert [m["channel"] for m in history][:2] == ["spectators", "table"]
    # Stored: a restarted server still keeps the channels apart.
    with ServerThread(chat_url, rate_per_second=1000, burst=1000) as server:
        with Client(server.base, tid, token_of(created, 0)) as ann:
            history = ann.next(lambda f: f["type"] == "chat" and f["history"])["messages"]
            assert [m["text"] for m in history] == ["hello all"]
        with Client(server.base, tid, created["spectator_token"]) as late:
            history = late.next(lambda f: f["type"] == "chat" and f["history"])["messages"]
            assert history[0]["text"] == "Ann should bake the salami" and history[0]["seat"] is None


def finish_as(server: ServerThread, game: str, players: int) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """Seat 0 human (playing its last legal move), the rest random bots; returns what seat 0 saw at
    every version it was shown, and the table creation answer."""
    seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "level": "random"}] * (players - 1)
    created = create_table(server.base, game=game, players=players, seats=seats)
    tid = created["table"]["id"]
    seen: dict[int, dict[str, Any]] = {}
    with Client(server.base, tid, token_of(created, 0)) as ann:
        assert ann.request({"type": "chat", "text": "good luck"})["type"] == "ack"
        while True:
            st = ann.wait_turn_or_over(timeout=60)
            for f in ann.frames:
                if f["type"] == "state":
                    seen[f["version"]] = f["view"]
            if st["over"]:
                break
            assert ann.act(st["legal"][-1]["id"])["type"] == "ack"
        assert ann.request({"type": "chat", "text": "gg"})["type"] == "ack"
    wait_over(server.base, tid)
    return created, seen


@pytest.mark.parametrize("game,players", [("mamma-mia", 3), ("sweet-nose", 3)])
def test_a_seat_replays_its_own_game_and_nothing_more(server: ServerThread, game: str, players: int) -> None:
    created, seen = finish_as(server, game, players)
    tid = created["table"]["id"]
    url = f"{server.base}/api/tables/{tid}/replay"
    r = httpx.get(url, headers={"authorization": f"Bearer {token_of(created, 0)}"}, timeout=60)
    assert r.status_code == 200, r.text
    mine = r.json()
    assert mine["seat"] == 0
    # The same answer with ?token= ; the spectator token and no token give the spectators' replay.
    assert httpx.get(url, params={"token": token_of(created, 0)}, timeout=60).json() == mine
    public = httpx.get(url, timeout=60).json()
    assert public["seat"] is None
    assert httpx.get(url, params={"token": created["spectator_token"]}, timeout=60).json() == public
    for bad in ("x" * 32, "nope"):
        r = httpx.get(url, headers={"authorization": f"Bearer {bad}"}, timeout=60)
        assert r.status_code == 403 and r.json()["error"]["code"] == "bad_token"

    # Every step is exactly the seat's own view of that position, as the seat saw it live.
    record = stored_record(server.database_url, tid)["record"]
    states = list(replay_iter(record))
    steps = mine["steps"]
    assert len(steps) == len(states)
    assert [s["view"] for s in steps] == json.loads(json.dumps([st.view(0) for st in states]))
    live = [v for v in seen if v < len(steps)]
    assert len(live) > 3
    for version in live:
        assert steps[version]["view"] == seen[version], version
    # Its own private events are there, nobody else's; its hand is there, nobody else's.
    state = states[0].game.new_game(
        record["players"], record["seed"], states[0].game.options_from_json(record["options"])
    )
    for i, (seat, action) in enumerate(record["actions"], start=1):
        events = state.apply(seat, state.game.action_from_json(action))
        expected = [
            {"event": e.kind, "data": e.data, **({"visible_to": sorted(e.visible_to)} if e.visible_to else {})}
            for e in for_seat(events, 0)
        ]
        got = [e for e in steps[i]["events"] if e["event"] != "bot_played"]
        assert got == json.loads(json.dumps(expected)), i
        assert all(e.get("visible_to") in (None, [0]) for e in steps[i]["events"])
    assert any(e.get("visible_to") == [0] for s in steps for e in s["events"]), "no private event: vacuous"
    for step in steps:
        for p in step["view"]["players_info"]:
            if p["seat"] != 0:
                assert "hand" not in p, (step["step"], p["seat"])
    assert game != "mamma-mia" or all("hand" in s["view"]["players_info"][0] for s in steps)
    # The chat is in both replays, placed by version.
    for answer in (mine, public):
        assert [m["text"] for m in answer["chat"]] == ["good luck", "gg"]
        assert answer["chat"][0]["version"] <= answer["chat"][1]["version"] == len(steps) - 1


def test_the_stored_decisions_say_who_made_them(chat_url):
    with ServerThread(chat_url, rate_per_second=1000, burst=1000) as server:
        created = create_table(
            server.base, players=2, seats=[{"kind": "human"}, {"kind": "human"}], turn_time=0.3, seat_timeout=None
        )
        tid = created["table"]["id"]
        with Client(server.base, tid, token_of(created, 0)) as ann, Client(server.base, tid, token_of(created, 1)):
            ann.next(lambda f: f["type"] == "state" and f["version"] >= 2, timeout=60)
    db = Database(chat_url)
    try:
        row = db.load(tid)
    finally:
        db.close()
    assert row is not None
    assert [a["by"] for a in row["actions"]][:2] == ["clock", "clock"]


# ---------------------------------------------------------------- chat floods
def test_a_flood_from_one_address_is_limited_across_its_sockets_and_a_table_holds_at_most_its_cap(chat_url):
    """Many spectator sockets from one address (each with its own per-connection allowance) together
    get no more than the address's allowance, and a table's chat stops at its cap (``chat_full``)."""
    limits = Limits(min_turn_time=0.1, chat_per_address_per_second=2.0, max_chat_lines=40)
    with ServerThread(chat_url, rate_per_second=1000, burst=1000, limits=limits) as server:
        created = create_table(server.base, players=2, seats=[{"kind": "human"}, {"kind": "bot"}])
        tid = created["table"]["id"]
        token_of(created, 0)  # claimed now: the server is restarted below
        sockets = [Client(server.base, tid, created["spectator_token"]) for _ in range(12)]
        try:
            began = time.monotonic()
            for c in sockets:  # each socket sends its whole per-connection burst
                for i in range(CHAT_BURST):
                    c.send({"type": "chat", "text": f"flood {i}", "ref": f"f{i}"})
            replies = [c.next(lambda f, i=i: f.get("ref") == f"f{i}") for c in sockets for i in range(CHAT_BURST)]
            elapsed = time.monotonic() - began
            said = sum(r["type"] == "ack" for r in replies)
            # The address's bucket: ten times its rate at once, then its rate (12 sockets sent 5 each).
            assert said <= 2.0 * 10 + 2.0 * elapsed + 1, (said, elapsed)
            assert any(r["type"] == "error" and r["code"] == "rate_limited" for r in replies)
        finally:
            for c in sockets:
                c.close()
        total = httpx.get(f"{server.base}/api/tables/{tid}", timeout=60).json()["chat_total"]
        assert total == said
    # The cap: the table's chat is filled to two lines short of it (straight in the database) ...
    db = Database(chat_url)
    try:
        db.commit([AddChat(tid, i, None, f"old {i}", 0, "spectators") for i in range(said, 38)])
    finally:
        db.close()
    with ServerThread(chat_url, rate_per_second=1000, burst=1000, limits=limits) as server:
        with Client(server.base, tid, token_of(created, 0)) as ann:  # ... two more lines, then no more
            replies = [ann.request({"type": "chat", "text": f"line {i}"}) for i in range(3)]
            assert [r["type"] for r in replies] == ["ack", "ack", "error"], replies
            assert replies[2]["code"] == "chat_full"
        summary = httpx.get(f"{server.base}/api/tables/{tid}", timeout=60).json()
        assert summary["chat_total"] == 40


def test_a_long_chat_is_paged_in_the_join_summary_and_replay(chat_url):
    """A finished table with many chat lines: joining, its summary and its replay carry the newest page
    and the total; the older lines come a page at a time (GET …/chat?before=)."""
    with ServerThread(chat_url, rate_per_second=1000, burst=1000) as server:
        created = create_table(server.base, players=2, seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}])
        tid = created["table"]["id"]
        with Client(server.base, tid, token_of(created, 0)) as ann:
            while not ann.wait_turn_or_over()["over"]:
                ann.act(ann.state["legal"][0]["id"])
        wait_over(server.base, tid)
    db = Database(chat_url)
    try:  # 350 lines, as if said over the game (stored straight away: the server's limits would take long)
        db.commit(
            [
                AddChat(tid, i, i % 2 if i % 3 else None, f"line {i}", 0, "table" if i % 3 else "spectators")
                for i in range(350)
            ]
        )
    finally:
        db.close()
    with ServerThread(chat_url, rate_per_second=1000, burst=1000) as server:
        summary = httpx.get(f"{server.base}/api/tables/{tid}", timeout=60).json()
        assert summary["chat_total"] == 350
        replay = httpx.get(f"{server.base}/api/tables/{tid}/replay", timeout=30).json()
        assert replay["chat_total"] == 350 and replay["chat_more"] is True
        assert [m["idx"] for m in replay["chat"]] == list(range(250, 350))
        with Client(server.base, tid, token_of(created, 0)) as ann:
            history = ann.next(lambda f: f["type"] == "chat" and f["history"])
            assert history["more"] is True and history["total"] == 350 and len(history["messages"]) <= 100
        # The older lines, a page at a time, down to the first.
        seen = [m["idx"] for m in replay["chat"]]
        before = seen[0]
        while True:
            page = httpx.get(f"{server.base}/api/tables/{tid}/chat", params={"before": before, "limit": 120}).json()
            seen = [m["idx"] for m in page["messages"]] + seen
            if not page["more"]:
                break
            before = page["messages"][0]["idx"]
        assert seen == list(range(350))
        bad = httpx.get(f"{server.base}/api/tables/{tid}/chat", params={"before": "x"})
        assert bad.status_code == 400 and bad.json()["error"]["field"] == "before"


def test_a_connection_that_keeps_flooding_the_chat_is_closed(server):
    """Refusing a flood costs the server work other tables pay for, so a connection
    whose chat lines keep being refused for their rate (more than 30 within 10 s) is closed (4008); an
    ordinary chatter never comes near it, and the table plays on."""
    from websockets.exceptions import ConnectionClosed

    created = create_table(server.base, players=2, seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}])
    tid = created["table"]["id"]
    flooder = Client(server.base, tid, created["spectator_token"])
    try:
        with pytest.raises(ConnectionClosed) as closed:
            try:
                for i in range(60):
                    flooder.send({"type": "chat", "text": f"flood {i}"})
            except ConnectionClosed:
                pass  # closed before the last line went out: what it said before closing is still to read
            for _ in range(200):
                flooder.recv(timeout=60)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4008
        refused = [f for f in flooder.frames if f["type"] == "error" and f["code"] == "rate_limited"]
        assert 25 <= len(refused) <= 31, len(refused)
    finally:
        flooder.close()
    with Client(server.base, tid, token_of(created, 0)) as ann:
        assert ann.request({"type": "chat", "text": "still here"})["type"] == "ack"
