"""Durability: SIGKILL the server mid-game, restart it on the same database, nothing acknowledged is lost;
every unfinished table is restored by replay at start-up (and its bots go on by themselves)."""

from __future__ import annotations

import contextlib
import random
import time

import httpx
from sqlalchemy import create_engine, text

from .conftest import Client, ServerProcess, create_table, token_of
from .test_play import catch_up, play


def test_sigkill_mid_game_loses_nothing_acknowledged(database_url):
    srv = ServerProcess(database_url, None, "--bot-delay", "0").start()
    try:
        created = create_table(srv.base, players=2, seats=[{"kind": "human"}, {"kind": "human"}])
        tid = created["table"]["id"]
        a = Client(srv.base, tid, token_of(created, 0))
        b = Client(srv.base, tid, token_of(created, 1))
        rng = random.Random(5)
        play([a, b], rng, until=lambda: max(a.state["version"], b.state["version"]) >= 25)
        # One more decision: kill the server the moment its ack arrives (before reading the state).
        catch_up([a, b])
        mover = a if a.state["your_turn"] else b
        mover.send({"type": "action", "id": mover.state["legal"][0]["id"], "ref": "last"})
        ack = mover.next(lambda f: f.get("ref") == "last")
        assert ack["type"] == "ack"
        srv.kill()
        acked = ack["version"]
        with contextlib.suppress(Exception):
            a.drain()
            b.drain()
        a.close()
        b.close()

        srv.start()  # the same port and database
        a = Client(srv.base, tid, token_of(created, 0))
        b = Client(srv.base, tid, token_of(created, 1))
        assert a.state["version"] == b.state["version"] == acked
        assert httpx.get(f"{srv.base}/api/tables/{tid}").json()["version"] == acked
        # The position is exactly the one the acknowledged decisions lead to: play on to the end.
        play([a, b], rng)
        assert a.state["over"] and b.state["result"] == a.state["result"]
        a.close()
        b.close()
    finally:
        srv.stop()


def test_restart_restores_every_unfinished_table_and_its_bots_go_on(database_url):
    # Bots wait 30 s here, so a bot's turn is pending when the server dies.
    srv = ServerProcess(database_url, None, "--bot-delay", "30", cli=True).start()  # `parlor serve`
    assert f"open http://127.0.0.1:{srv.port}/" in srv.output()
    try:
        bots = [{"kind": "human"}, {"kind": "bot", "level": "medium"}, {"kind": "bot", "level": "easy"}]
        waiting = create_table(srv.base, players=3, seats=bots)
        humans = create_table(srv.base, players=2, seats=[{"kind": "human"}, {"kind": "human"}])
        broken = create_table(srv.base, players=2, seats=[{"kind": "human"}, {"kind": "human"}])
        wid, hid, bid = (t["table"]["id"] for t in (waiting, humans, broken))
        with Client(srv.base, wid, token_of(waiting, 0)) as ann:
            while ann.state["your_turn"]:
                assert ann.act(ann.state["legal"][0]["id"])["type"] == "ack"
            ann.drain()
            stuck_at = ann.state["version"]
            assert not ann.state["over"] and not ann.state["your_turn"]
        with Client(srv.base, hid, token_of(humans, 0)) as h0, Client(srv.base, hid, token_of(humans, 1)) as h1:
            play([h0, h1], random.Random(2), until=lambda: max(h0.state["version"], h1.state["version"]) >= 6)
            humans_at = catch_up([h0, h1])
            views = {0: h0.state["view"], 1: h1.state["view"]}
        srv.kill()
        # Damage one table's record: it must be closed on restore without disturbing the others.
        engine = create_engine(database_url)
        with engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO parlor_actions (table_id, idx, seat, action, by, created_at) "
                    "VALUES (:t, 0, 0, '{\"type\": \"no_such_action\"}', 'player', CURRENT_TIMESTAMP)"
                ),
                {"t": bid},
            )
            conn.execute(text("UPDATE parlor_tables SET version = 1 WHERE id = :t"), {"t": bid})
        engine.dispose()

        srv.args = ("--bot-delay", "0")
        srv.start()
        # Nobody connects: the bots of the restored table move by themselves.
        deadline = time.monotonic() + 120
        while httpx.get(f"{srv.base}/api/tables/{wid}").json()["version"] <= stuck_at:
            assert time.monotonic() < deadline, "the restored table's bots did not move"
            time.sleep(0.05)
        with Client(srv.base, wid, token_of(waiting, 0)) as ann:
            st = ann.wait_turn_or_over()
            assert st["over"] or st["your_turn"]
        with Client(srv.base, hid, token_of(humans, 0)) as h0, Client(srv.base, hid, token_of(humans, 1)) as h1:
            assert h0.state["version"] == h1.state["version"] == humans_at
            assert h0.state["view"] == views[0] and h1.state["view"] == views[1]
        r = httpx.get(f"{srv.base}/api/tables/{bid}")
        assert r.status_code == 409 and r.json()["error"]["code"] == "unavailable"
        # The server keeps serving new tables.
        fresh = create_table(srv.base, players=2)
        with Client(srv.base, fresh["table"]["id"], token_of(fresh, 0)) as c:
            assert c.wait_turn_or_over()["your_turn"]
    finally:
        srv.stop()
