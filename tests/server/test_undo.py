"""Undo: your own last decision, while nothing hidden was revealed and nobody else has acted."""

from __future__ import annotations

import random

from parlor import games
from parlor.server.storage import Database

from .conftest import Client, create_table, sync_state, token_of


def expected_undo(db: Database, table_id: str, seat: int) -> bool:
    """The rule of docs/protocol.md, computed independently from the stored record and event log."""
    row = db.load(table_id)
    actions = row["actions"]
    if not actions or actions[-1]["seat"] != seat or actions[-1]["by"] != "player":
        return False
    last = len(actions) - 1
    if any(e["visible_to"] is not None for e in db.events(table_id) if e["action_idx"] == last):
        return False
    game = games.get(row["game"])
    state = game.new_game(row["players"], row["seed"], row["options"])
    for a in actions[:-1]:
        state.apply(a["seat"], game.action_from_json(a["action"]))
    rng = state.rng.state
    state.apply(actions[-1]["seat"], game.action_from_json(actions[-1]["action"]))
    return not state.is_over and state.rng.state == rng


def test_undo_follows_the_rules_and_restores_the_position(server):
    created = create_table(server.base, players=2, seats=[{"kind": "human"}, {"kind": "human"}])
    tid = created["table"]["id"]
    db = Database(server.database_url)
    rng = random.Random(11)
    seen = {"undone": 0, "refused_hidden_or_chance": 0, "refused_not_mine": 0}
    with Client(server.base, tid, token_of(created, 0)) as a, Client(server.base, tid, token_of(created, 1)) as b:
        clients = [a, b]
        for _step in range(400):
            for c in clients:
                c.drain()
            if a.state["over"] or (seen["undone"] >= 3 and seen["refused_hidden_or_chance"] >= 2):
                break
            mover = a if a.state["your_turn"] else b
            other = b if mover is a else a
            if mover.state["version"] > 0 and not mover.state["can_undo"] and seen["refused_not_mine"] < 2:
                reply = mover.request({"type": "undo"})
                assert reply["type"] == "error" and reply["code"] == "undo_not_allowed"
                seen["refused_not_mine"] += 1
            before = mover.state
            choice = rng.choice(before["legal"])
            assert mover.act(choice["id"])["type"] == "ack"
            after = mover.state
            assert after["can_undo"] == expected_undo(db, tid, mover.welcome["seat"]), choice
            if after["can_undo"]:
                if rng.random() < 0.6:
                    reply = mover.request({"type": "undo"})
                    assert reply == {"type": "ack", "ref": reply["ref"], "version": before["version"]}
                    undone = mover.next(lambda f: f["type"] == "state" and f["cause"] == "undo")
                    assert undone["version"] == before["version"]
                    assert undone["view"] == before["view"] and undone["legal"] == before["legal"]
                    assert undone["events"] == [
                        {"event": "undone", "data": {"seat": mover.welcome["seat"], "version": before["version"]}}
                    ]
                    seen_by_other = other.next(lambda f: f["type"] == "state" and f["cause"] == "undo")
                    assert seen_by_other["version"] == before["version"]
                    assert db.load(tid)["version"] == before["version"]
                    assert all(e["action_idx"] < before["version"] for e in db.events(tid))
                    assert sync_state(mover)["view"] == before["view"]
                    seen["undone"] += 1
            else:
                reply = mover.request({"type": "undo"})
                assert reply["type"] == "error" and reply["code"] == "undo_not_allowed", reply
                assert sync_state(mover)["version"] == after["version"]
                seen["refused_hidden_or_chance"] += 1
    db.close()
    assert seen["undone"] >= 3 and seen["refused_hidden_or_chance"] >= 2 and seen["refused_not_mine"] >= 1, seen


def test_no_undo_of_a_decision_when_someone_else_acted_since(server):
    created = create_table(server.base, players=2, seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}])
    tid = created["table"]["id"]
    with Client(server.base, tid, token_of(created, 0)) as a:
        for _ in range(30):
            st = a.wait_turn_or_over()
            if st["over"]:
                break
            assert a.act(st["legal"][0]["id"])["type"] == "ack"
            a.drain()
            if not a.state["your_turn"]:
                # The bot moves at once: by the time it has, our decision is no longer the last one.
                after = st["version"] + 1
                frame = a.next(lambda f, after=after: f["type"] == "state" and f["version"] > after)
                assert not frame["can_undo"]
                reply = a.request({"type": "undo"})
                assert reply["type"] == "error" and reply["code"] == "undo_not_allowed"
                assert "not yours" in reply["message"] or "bot" in reply["message"] or "nothing" in reply["message"]
                return
        raise AssertionError("the bot never moved")
