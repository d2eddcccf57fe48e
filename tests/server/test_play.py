"""Whole games over real WebSockets: seats, bots, a spectator, hidden information, reconnecting."""

from __future__ import annotations

import json
import random
import time

import pytest

from parlor import games

from .conftest import Client, create_table, sync_state, token_of


def play(clients: list[Client], rng: random.Random, *, until=None, timeout: float = 60.0) -> None:
    """Every human client plays random legal moves on its turn until the game ends (or ``until()``)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for c in clients:
            c.drain()
        top = max(c.state["version"] for c in clients)
        current = [c for c in clients if c.state["version"] == top]
        if any(c.state["over"] for c in current) or (until is not None and until()):
            catch_up(clients)
            return
        mover = next((c for c in current if c.state["your_turn"]), None)
        if mover is None:
            time.sleep(0.002)
            continue
        choice = rng.choice(mover.state["legal"])
        reply = mover.act(choice["action"] if rng.random() < 0.5 else choice["id"])
        assert reply["type"] == "ack", reply
        assert reply["version"] >= top + 1  # more in a simultaneous phase, where bots act meanwhile
    raise AssertionError("the game did not end in time")


def catch_up(clients: list[Client]) -> int:
    """Wait until every client has the newest state; returns its version."""
    for c in clients:
        c.drain()
    top = max(c.state["version"] for c in clients)
    for c in clients:
        if c.state["version"] < top:
            c.next(lambda f: f["type"] == "state" and f["version"] >= top)
    return top


def hidden_orders(frame: dict) -> set[str]:
    me = frame["view"]["players_info"][0]
    return set(me["hand"]["orders"]) - set(me["known_orders_in_hand"])


def test_two_seats_a_bot_and_a_spectator_play_a_whole_game_without_leaks(server):
    created = create_table(
        server.base,
        players=3,
        seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}, {"kind": "bot", "level": "medium"}],
    )
    tid = created["table"]["id"]
    with (
        Client(server.base, tid, token_of(created, 0)) as ann,
        Client(server.base, tid, token_of(created, 1)) as bob,
        Client(server.base, tid, created["spectator_token"]) as spec,
    ):
        assert ann.welcome["role"] == "seat" and ann.welcome["seat"] == 0
        assert spec.welcome["role"] == "spectator" and spec.welcome["seat"] is None
        play([ann, bob], random.Random(7))
        for c in (ann, bob, spec):
            c.next(lambda f: f["type"] == "state" and f["over"], timeout=60) if not c.state["over"] else None
        results = [c.state["result"] for c in (ann, bob, spec)]
        assert results[0] == results[1] == results[2]
        assert len(results[0]["scores"]) == 3 and results[0]["winners"]
        assert [s["substituted"] for s in results[0]["seats"]] == [False, False, False]
        assert ann.state["legal"] == [] and not ann.state["your_turn"]
        # Every decision reached every connection, in order, with a version one higher each time.
        versions = [f["version"] for f in spec.frames if f["type"] == "state"]
        assert versions == sorted(versions) and versions[-1] == ann.state["version"] > 20
        # Seat 0's hidden orders, version by version, never appear in what the others received.
        secret_at = {f["version"]: hidden_orders(f) for f in ann.frames if f["type"] == "state"}
        assert any(secret_at.values())
        checked = 0
        for other in (bob, spec):
            for f in other.frames:
                if f["type"] != "state":
                    continue
                blob = json.dumps(f)
                assert "hand" not in f["view"]["players_info"][0]
                for name in secret_at.get(f["version"], ()):
                    assert f'"{name}"' not in blob, (name, f["version"])
                    checked += 1
                for e in f["events"]:
                    assert e.get("visible_to") in (None, [other.welcome["seat"]])
                assert "seed" not in f["view"]
        assert checked > 50
        assert all("visible_to" not in e for f in spec.frames if f["type"] == "state" for e in f["events"])
        # The events the seats got are their own private ones plus the public ones.
        assert any(e.get("visible_to") == [0] for f in ann.frames if f["type"] == "state" for e in f["events"])


def test_ack_comes_before_the_state_it_causes(server):
    created = create_table(server.base, players=2, seats=[{"kind": "human"}, {"kind": "human"}])
    tid = created["table"]["id"]
    with Client(server.base, tid, token_of(created, 0)) as a, Client(server.base, tid, token_of(created, 1)) as b:
        mover = a if a.state["your_turn"] else b
        v = mover.state["version"]
        mover.send({"type": "action", "id": mover.state["legal"][0]["id"], "ref": "x1"})
        first = mover.next(lambda f: f["type"] in ("ack", "state"))
        assert first == {"type": "ack", "ref": "x1", "version": v + 1}
        after = mover.next_state()
        assert after["version"] == v + 1 and after["cause"] == "action"
        assert after["events"], "the state frame carries the events of the decision"


def test_reconnect_with_the_same_token_resumes_where_the_game_stands(server):
    created = create_table(
        server.base, players=3, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}]
    )
    tid = created["table"]["id"]
    rng = random.Random(3)
    ann = Client(server.base, tid, token_of(created, 0))
    bob = Client(server.base, tid, token_of(created, 1))
    play([ann, bob], rng, until=lambda: ann.state["version"] >= 12)
    ann.drain()
    before = ann.state
    ann.close()
    # The game goes on without Ann while it is not her turn: the bot moves until a player is to move
    # (Bob sees that state; nothing changes after it until a player acts).
    bob.drain()
    while not (set(bob.state["to_move"]) & {0, 1} or bob.state["over"]):
        bob.next_state()
    again = Client(server.base, tid, token_of(created, 0))
    now = again.state
    assert again.welcome["seat"] == 0 and now["cause"] == "join"
    bob.drain()
    assert now["version"] == bob.state["version"] >= before["version"]
    if now["version"] == before["version"]:
        assert now["view"] == before["view"] and now["legal"] == before["legal"]
    # The join frame carries the whole log this seat may see.
    assert len(now["events"]) >= sum(len(f["events"]) for f in ann.frames if f["type"] == "state")
    assert sync_state(again)["view"] == now["view"]
    play([again, bob], rng)
    assert again.state["over"]
    again.close()
    bob.close()


def test_several_connections_of_one_seat_all_get_its_frames(server):
    created = create_table(server.base, players=2, seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}])
    tid = created["table"]["id"]
    with Client(server.base, tid, token_of(created, 0)) as one, Client(server.base, tid, token_of(created, 0)) as two:
        st = one.wait_turn_or_over()
        reply = one.act(st["legal"][0]["id"])
        assert reply["type"] == "ack"
        frame = two.next(lambda f: f["type"] == "state" and f["version"] >= reply["version"])
        assert frame["view"]["you"] == 0


@pytest.mark.parametrize("game", games.names())
def test_every_registered_game_plays_through_the_server(server, game):
    """Game-agnostic: any registered game is played, seen and finished through the same protocol."""
    g = games.get(game)
    players = max(g.min_players, 3) if g.max_players >= 3 else g.min_players
    seats = [{"kind": "human"}, {"kind": "human"}] + [{"kind": "bot", "level": "random"}] * (players - 2)
    created = create_table(server.base, game=game, players=players, seats=seats)
    tid = created["table"]["id"]
    with (
        Client(server.base, tid, token_of(created, 0)) as a,
        Client(server.base, tid, token_of(created, 1)) as b,
        Client(server.base, tid, created["spectator_token"]) as spec,
    ):
        play([a, b], random.Random(1), timeout=120)
        catch_up([a, b, spec])
        assert a.state["over"] and spec.state["result"] == a.state["result"]
        assert len(a.state["result"]["scores"]) == players
        for c, seat in ((a, 0), (b, 1), (spec, None)):
            for f in c.frames:
                if f["type"] == "state":
                    assert "seed" not in f["view"]
                    for e in f["events"]:
                        assert "visible_to" not in e or (seat is not None and seat in e["visible_to"])
