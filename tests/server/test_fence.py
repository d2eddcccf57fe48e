"""Every write to a table's rows is fenced by the table's lease.

The split-brain sequence, on a real PostgreSQL with real server processes: process A owns some tables;
A is stopped (SIGSTOP) past its lease; B takes the tables over; requests that make A write wait for A
(frames on its sockets, HTTP requests to it); A wakes. For each kind of write (a decision, an undo, a
chat line, a clock's decision, a seat's name, a stand-in, a new link, a claim, sitting down at a public
table, "play again", a moderator's deleted chat line and closed table), A must
store nothing: the database still holds what B holds, and B plays on without a conflict."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import time
from typing import Any

import httpx
from sqlalchemy import create_engine, text
from websockets.sync.client import connect as ws_connect

from parlor.server.storage import Database, ModerationStore

from ..frames import apply_state
from .conftest import Client, ServerProcess, create_table, start_together, token_of
from .test_cluster import lease_owner

LEASE = "2"
HUMANS2 = [{"kind": "human"}, {"kind": "human"}]


def lease_held(url: str, table_id: str) -> bool:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return bool(
                conn.execute(
                    text("SELECT count(*) FROM parlor_leases WHERE table_id = :t AND expires_at > now()"),
                    {"t": table_id},
                ).scalar_one()
            )
    finally:
        engine.dispose()


def rows(url: str, table_id: str) -> dict[str, Any]:
    """What the database holds of a table: its version, record, chat, seats and next table."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            t = conn.execute(
                text("SELECT version, status, next_table FROM parlor_tables WHERE id = :t"), {"t": table_id}
            ).one()
            return {
                "version": t.version,
                "status": t.status,
                "next_table": t.next_table,
                "actions": conn.execute(
                    text("SELECT idx, seat, action, by FROM parlor_actions WHERE table_id = :t ORDER BY idx"),
                    {"t": table_id},
                ).all(),
                "chat": conn.execute(
                    text("SELECT idx, text FROM parlor_chat WHERE table_id = :t ORDER BY idx"), {"t": table_id}
                ).all(),
                "seats": conn.execute(
                    text(
                        "SELECT seat, name, joined, stand_in, token_hash, claim_hash FROM parlor_seats"
                        " WHERE table_id = :t ORDER BY seat"
                    ),
                    {"t": table_id},
                ).all(),
            }
    finally:
        engine.dispose()


class Raw:
    """A WebSocket to one process that only sends (and collects what comes back in a thread)."""

    def __init__(self, base: str, table_id: str, token: str) -> None:
        self.ws = ws_connect(base.replace("http://", "ws://") + f"/ws/tables/{table_id}?token={token}", open_timeout=60)
        self.frames: list[dict[str, Any]] = []
        self.closed_with: int | None = None
        self.state: dict[str, Any] | None = None
        self.whole: dict[str, Any] | None = None
        while self.state is None or not any(f["type"] == "chat" for f in self.frames):
            self._take(json.loads(self.ws.recv(timeout=15)))
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _take(self, frame: dict[str, Any]) -> None:
        if frame["type"] == "state":
            frame = self.whole = apply_state(self.whole, frame)
            if self.state is None:
                self.state = frame
        self.frames.append(frame)

    def _read(self) -> None:
        try:
            while True:
                self._take(json.loads(self.ws.recv()))
        except Exception:
            rcvd = getattr(self.ws.protocol, "close_rcvd", None)
            self.closed_with = rcvd.code if rcvd is not None else -1

    def send(self, frame: dict[str, Any]) -> None:
        self.ws.send(json.dumps(frame))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()


def background(fn: Any) -> list[Any]:
    """Run ``fn`` in a thread (it waits for the stopped process); its result lands in the list."""
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(fn()), daemon=True)
    thread.start()
    out.append(thread)
    return out


def play_on(base: str, created: dict[str, Any], moves: int = 2) -> None:
    """Both seats of a table connect to ``base`` and make ``moves`` decisions between them: every one
    is acknowledged (no conflict with what the database holds)."""
    tid = created["table"]["id"]
    with Client(base, tid, token_of(created, 0)) as p0, Client(base, tid, token_of(created, 1)) as p1:
        for _ in range(moves):
            for c in (p0, p1):
                c.drain()
            if p0.state["over"]:
                return
            mover = p0 if p0.state["your_turn"] else p1
            if not mover.state["your_turn"]:
                mover.wait_turn_or_over()
            reply = mover.act(mover.state["legal"][0]["id"])
            assert reply["type"] == "ack", reply


def test_a_process_that_lost_its_lease_stores_nothing_for_any_kind_of_write(postgres):
    url = postgres.new_database()
    common = ("--cluster", "--lease-seconds", LEASE, "--bot-delay", "0", "--min-turn-time", "0.1")
    common += ("--relink-after", "0", "--max-decisions", "8")
    a, b = start_together(ServerProcess(url, None, *common), ServerProcess(url, None, *common))
    raws: list[Raw] = []
    stopped = False
    try:
        plans: dict[str, dict[str, Any]] = {}

        def table(kind: str, **body: Any) -> dict[str, Any]:
            created = create_table(a.base, players=2, seats=HUMANS2, seat_timeout=None, **body)
            plans[kind] = {"created": created, "tid": created["table"]["id"]}
            return created

        def seated(created: dict[str, Any], seat: int) -> Raw:
            raw = Raw(a.base, created["table"]["id"], token_of(created, seat))
            raws.append(raw)
            return raw

        def mover_of(created: dict[str, Any]) -> Raw:
            p0, p1 = seated(created, 0), seated(created, 1)
            return p0 if p0.state["your_turn"] else p1

        def move(raw: Raw) -> None:
            """The seat makes its first legal move; waits for the state it causes."""
            version = raw.state["version"]
            raw.send({"type": "action", "id": raw.state["legal"][0]["id"]})
            deadline = time.monotonic() + 120
            while not any(f["type"] == "state" and f["version"] > version for f in list(raw.frames)):
                assert time.monotonic() < deadline
                time.sleep(0.02)

        # ---- on A: one table per kind of write, each where that write comes next ----
        plans_raw: dict[str, Raw] = {}
        plans_raw["decision"] = mover_of(table("decision"))
        plans_raw["chat"] = mover_of(table("chat"))
        plans_raw["undo"] = mover = mover_of(table("undo"))
        move(mover)  # its own last decision, nothing since: undoable (Mamma Mia!'s first draw shows nothing)
        mover_of(table("clock", turn_time=4))  # its clock runs out while A sleeps: A's bot would decide
        created = table("name")
        plans["name"]["call"] = ("join", {"token": token_of(created, 0), "name": "Mallory"})
        created = table("stand_in")
        plans["stand_in"]["call"] = ("seats/1/stand-in", {"host_token": created["host_token"], "on": True})
        created = table("new_link")
        plans["new_link"]["call"] = ("seats/1/new-link", {"host_token": created["host_token"]})
        created = table("claim")
        plans["claim"]["call"] = ("claim", {"claim": created["seats"][1]["claim"]})
        table("sit", public=True)  # a public table waiting for players: somebody sits down
        plans["sit"]["call"] = ("sit", {"name": "Mallory"})
        created = table("play_again")  # finished by the decision cap (8), held live by A for its seats
        p0, p1 = seated(created, 0), seated(created, 1)
        while True:
            states = [next(f for f in reversed(list(r.frames)) if f["type"] == "state") for r in (p0, p1)]
            if states[0]["over"]:
                break
            for r, st in zip((p0, p1), states, strict=True):
                r.state = st
                if st["your_turn"]:
                    move(r)
        plans["play_again"]["call"] = ("play-again", {"token": token_of(created, 0)})
        # A moderator's actions at a table (signed in: the session cookie and its CSRF token).
        moderator = httpx.Client(base_url=a.base, timeout=60)
        csrf = moderator.get("/api/account").json()["csrf"]
        signed = moderator.post("/api/account/sign-up", json={"name": "Moderator", "password": "a long password"},
                                headers={"X-CSRF-Token": csrf})  # fmt: skip
        assert signed.status_code == 201, signed.text
        db = Database(url)
        ModerationStore(db).set_admin("moderator", True)
        db.close()
        as_moderator = {"cookies": dict(moderator.cookies), "headers": {"X-CSRF-Token": signed.json()["csrf"]}}
        moderator.close()
        created = table("mod_close")
        plans["mod_close"]["call"] = ("moderate/close", {"reason": "split brain"})
        plans["mod_close"]["as"] = as_moderator
        said = seated(created := table("mod_chat"), 0)
        said.send({"type": "chat", "text": "rude"})
        deadline = time.monotonic() + 60
        while not any(f["type"] == "ack" for f in list(said.frames)):
            assert time.monotonic() < deadline
            time.sleep(0.02)
        plans["mod_chat"]["call"] = ("moderate/delete-chat", {"idx": 0, "reason": "split brain"})
        plans["mod_chat"]["as"] = as_moderator

        owner_a = lease_owner(url, plans["decision"]["tid"])
        # ---- A stops past its lease; B takes the unfinished tables over, the finished one on demand ----
        os.kill(a.proc.pid, signal.SIGSTOP)
        stopped = True
        unfinished = [k for k in plans if k != "play_again"]
        deadline = time.monotonic() + 60
        while any(lease_owner(url, plans[k]["tid"]) in (owner_a, None) for k in unfinished):
            assert time.monotonic() < deadline, "B did not take the tables over"
            time.sleep(0.2)
        finished = plans["play_again"]
        while lease_held(url, finished["tid"]):  # A's lease of the finished table runs out
            time.sleep(0.2)
        with Client(b.base, finished["tid"], token_of(finished["created"], 1)) as watcher:
            assert watcher.state["over"]  # B holds the finished table now
            assert lease_owner(url, finished["tid"]) not in (owner_a, None)
            before = {k: rows(url, p["tid"]) for k, p in plans.items()}

            # ---- the writes that wait for A ----
            marks = {k: len(raw.frames) for k, raw in plans_raw.items()}
            decider = plans_raw["decision"]
            decider.send({"type": "action", "id": decider.state["legal"][0]["id"]})
            plans_raw["chat"].send({"type": "chat", "text": "split brain?"})
            plans_raw["undo"].send({"type": "undo"})
            for p in plans.values():
                p.setdefault("as", {})  # (the moderator's session, for the moderator's calls)
            answers = {
                k: background(
                    lambda path=p["call"][0], body=p["call"][1], tid=p["tid"], who=p["as"]: httpx.post(
                        f"{a.base}/api/tables/{tid}/{path}", json=body, timeout=60, **who
                    )
                )
                for k, p in plans.items()
                if "call" in p
            }
            os.kill(a.proc.pid, signal.SIGCONT)
            stopped = False
            for k, out in answers.items():
                out[0].join(60)
                assert len(out) == 2, f"{k}: A never answered"
                # Refused by A (it let the table go), or relayed by A to B, which owns the table now.
                assert out[1].status_code in (200, 503), (k, out[1].status_code, out[1].text)
            # A's sockets: each table was let go (closed, to reconnect to B) or the frame refused.
            deadline = time.monotonic() + 30
            for k, raw in plans_raw.items():
                while raw.closed_with is None and not any(
                    f["type"] == "error" and f["code"] == "unavailable" for f in list(raw.frames)
                ):
                    assert time.monotonic() < deadline, f"{k}: A neither refused nor let go"
                    time.sleep(0.05)
                assert not any(f["type"] == "ack" for f in list(raw.frames)[marks[k] :]), k
            # ---- A stored nothing: the database holds what B holds ----
            for k, p in plans.items():
                after = rows(url, p["tid"])
                if k == "clock":  # B's own clock may have run out and decided since: a prefix
                    assert after["actions"][: len(before[k]["actions"])] == before[k]["actions"], k
                elif "call" not in p or answers[k][1].status_code == 503:
                    assert after == before[k], (k, before[k], after)
            # ... and B plays on: every decision acknowledged, no conflict with the database.
            for k in ("decision", "chat", "undo", "clock"):
                play_on(b.base, plans[k]["created"])
    finally:
        if stopped:
            os.kill(a.proc.pid, signal.SIGCONT)
        for raw in raws:
            raw.close()
        a.stop()
        b.stop()
