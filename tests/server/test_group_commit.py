"""Changes are stored in group commits (Database.commit_groups, storage/writer.py): many tables'
moves in one transaction, each still acknowledged only once committed, and one table's failure
never costs another table its move. On SQLite and PostgreSQL."""

from __future__ import annotations

import time

import httpx

from parlor.server.storage import AppendDecision, CreateTable, Database, VersionConflict

from .conftest import ServerThread, create_table

BOTS3 = [{"kind": "bot", "level": "random"}] * 3


def new_table(db: Database, tid: str) -> None:
    row = {"id": tid, "game": "mamma-mia", "players": 3, "options": {}, "seed": 1, "engine_version": "x"}
    row |= {"status": "playing", "version": 0, "seat_timeout": None, "substitute_level": "medium"}
    row |= {"spectator_hash": "h"}
    seat = {"kind": "bot", "level": "random", "name": None, "token_hash": None, "joined": True}
    db.commit([CreateTable(tid, row, [seat | {"seat": i} for i in range(3)])])


def decision(tid: str, idx: int, events: int = 2, result: dict | None = None) -> list[AppendDecision]:
    stored = [("note", {"n": i}, None if i % 2 else [0]) for i in range(events)]
    status = "over" if result else "playing"
    return [AppendDecision(tid, idx, 0, {"id": idx}, "bot", idx * events, stored, status, result)]


def test_a_group_is_stored_in_one_transaction_and_a_conflict_costs_only_its_table(database_url):
    db = Database(database_url)
    db.migrate()
    for tid in ("a", "b", "c"):
        new_table(db, tid)
    assert (
        db.commit_groups([decision("a", 0), decision("b", 0), decision("c", 0, result={"winners": [0]})])
        == [[None]] * 3
    )
    # b is at version 1: a decision that claims to follow version 5 conflicts; a and c still go in.
    outcomes = db.commit_groups([decision("a", 1), decision("b", 5), decision("c", 1)])
    assert outcomes[0] == [None] and outcomes[2] == [None]
    assert isinstance(outcomes[1], VersionConflict)
    heads = {tid: db.load_head(tid) for tid in ("a", "b", "c")}
    assert [heads[t]["version"] for t in ("a", "b", "c")] == [2, 1, 2]
    assert heads["c"]["result"] == {"winners": [0]}
    loaded = db.load("a")
    assert [a["action"] for a in loaded["actions"]] == [{"id": 0}, {"id": 1}]
    assert [(e["kind"], e["visible_to"]) for e in db.events("a")] == [("note", [0]), ("note", None)] * 2
    assert len(db.events("b")) == 2  # the refused decision left nothing behind
    db.close()


def test_a_busy_server_groups_many_tables_decisions_per_transaction(database_url):
    """20 bot tables at once: fewer transactions than decisions, every game complete and replayable."""
    from parlor.server.limits import Limits

    with ServerThread(database_url, seat_timeout=None, limits=Limits(tables_per_address_per_minute=1e6)) as s:
        ids = [
            create_table(s.base, game="mamma-mia", players=3, seats=BOTS3, bots_before_join=True)["table"]["id"]
            for _ in range(20)
        ]
        deadline = time.monotonic() + 240
        while any(httpx.get(f"{s.base}/api/tables/{t}", timeout=60).json()["status"] == "playing" for t in ids):
            assert time.monotonic() < deadline, "the bot games did not finish"
            time.sleep(0.2)
        hub = s.app.state.hub
        assert hub.decisions_stored >= 20 * 10
        assert hub.decision_groups < hub.decisions_stored, (hub.decision_groups, hub.decisions_stored)
        versions = [httpx.get(f"{s.base}/api/tables/{t}", timeout=60).json()["version"] for t in ids]
    db = Database(database_url)
    for tid, version in zip(ids, versions, strict=True):
        stored = db.load(tid)
        assert len(stored["actions"]) == version and stored["status"] == "over"
    db.close()


def test_chat_lines_go_into_the_group_commit_with_the_moves(database_url):
    """Chat lines are stored in the writer's group commit, not a transaction each:
    ten tables' players chatting at once cost fewer transactions than lines."""
    from parlor.server.limits import Limits

    from .conftest import Client, token_of

    limits = Limits(tables_per_address_per_minute=1e6, chat_per_address_per_second=1e4, min_turn_time=0.1)
    with ServerThread(database_url, seat_timeout=None, rate_per_second=1000, burst=1000, limits=limits) as s:
        tables = [create_table(s.base, players=2, seats=[{"kind": "human"}, {"kind": "human"}]) for _ in range(10)]
        clients = [Client(s.base, t["table"]["id"], token_of(t, 0)) for t in tables]
        try:
            hub = s.app.state.hub
            before = hub.writer.transactions
            for i in range(5):  # every seat's whole burst, all tables at once
                for c in clients:
                    c.send({"type": "chat", "text": f"hello {i}", "ref": f"c{i}"})
            acks = [c.next(lambda f, i=i: f.get("ref") == f"c{i}") for c in clients for i in range(5)]
            assert all(a["type"] == "ack" for a in acks), acks
            used = hub.writer.transactions - before
            assert used < len(acks), (used, len(acks))
        finally:
            for c in clients:
                c.close()
        for t in tables:
            summary = httpx.get(f"{s.base}/api/tables/{t['table']['id']}", timeout=60).json()
            assert summary["chat_total"] == 5
