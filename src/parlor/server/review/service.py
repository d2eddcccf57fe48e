"""Reviews of finished games and hints during play, worked out by the judge (``parlor.review``) in
worker processes of their own.

**Where the work runs.** The judge searches for seconds per review; in the server's process it would
hold the interpreter from the tables. It runs in a pool of the bot workers' kind (``BotWorkers``),
started at a lower priority (``nice``): the tables' searching bots and the event loop get the cores
first, and a review waits. A review is made one decision per job, so a hint (one job) waits for at
most one decision of each running review.

**A fair queue.** As many reviews run at once as there are review workers (``processes``), and at most
one per requester: a signed-in account, or a guest's address. Further reviews wait in one queue
(``max_waiting`` in all, ``max_waiting_per_requester`` per requester; beyond either they are refused
with the reason). When a worker is free the next review is the oldest one of the requester whose last
review started longest ago (one who never had one first), so one player asking for many reviews
takes turns with the others instead of going before them. ``GET`` answers ``queued`` and the
review's place in that order. ``events`` keeps the latest queue events in order (``queued``,
``started``, ``finished``), for whoever looks into the queue (the tests do).

**Stored, not recomputed.** A review is stored after each decision (``StoreReview``): asked again, it is
read back; after a restart it carries on where it stopped. A hint is kept with its table (``GiveHint``,
``AddHint``) and shown in the seat's replay; asked again for the same decision it is the same hint.

**Honest.** The worker gets the record (a review) or the table's position (a hint), and the judge reads
only what the seat knew: its legal moves and worlds dealt from its information set. The judge's seed is
fixed (0) and a hint's search is seeded by the decision's index, so the answer depends on nothing the
seat could not know. Only the seat itself may ask for or read its review and hints (its token).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import pickle
from collections import deque
from dataclasses import dataclass
from typing import Any

from parlor.server.storage import StoreReview, record_of
from parlor.server.table import GiveHint, Hub, hint_refusal
from parlor.server.table.bot_workers import BotWorkers
from parlor.server.wire import ServerError, dumps

log = logging.getLogger("parlor.server")

NICENESS = 10  # the review workers' priority below the server and its bots
DECISION_TIMEOUT = 600.0  # seconds one decision of a review may take before its worker is replaced
HINT_TIMEOUT = 300.0
MAX_WAITING = 100  # reviews waiting for a worker, in all (``parlor serve --review-queue``)
MAX_WAITING_PER_REQUESTER = 10  # of them, one requester's (besides the one running)
EVENTS_KEPT = 1000


@dataclass
class _Waiting:
    """A review waiting for a worker."""

    key: tuple[str, int]  # (table id, seat)
    requester: str
    order: int  # when it was asked for (a counter): the oldest of a requester goes first
    stored: dict[str, Any] | None


class ReviewService:
    """Created by the app's lifespan beside the hub; reads the hub's tables and database."""

    def __init__(
        self,
        hub: Hub,
        *,
        budget: int | None = None,
        processes: int = 1,
        max_waiting: int = MAX_WAITING,
        max_waiting_per_requester: int = MAX_WAITING_PER_REQUESTER,
    ) -> None:
        if max_waiting < 0 or max_waiting_per_requester < 0:
            raise ValueError("the review queue's bounds must be 0 or more")
        self.hub = hub
        self.budget = budget  # iterations per decision; None: each game's default (parlor.review.settings)
        self.processes = processes  # reviews running at once: one per worker
        self.max_waiting = max_waiting
        self.max_waiting_per_requester = max_waiting_per_requester
        self.workers = BotWorkers(processes, 1.0, niceness=NICENESS, name="parlor-review")
        self.running: dict[tuple[str, int], asyncio.Task[None]] = {}
        self.running_for: dict[str, tuple[str, int]] = {}  # requester -> its running review
        self.waiting: list[_Waiting] = []  # in the order asked
        self.last_start: dict[str, int] = {}  # requester -> when its latest review started (a counter)
        self.failed: dict[tuple[str, int], str] = {}
        self.hints_pending: dict[tuple[str, int, int], asyncio.Task[Any]] = {}
        self.jobs = 0  # decisions and hints worked out (a stored review or hint is not worked out again)
        self.events: deque[tuple[str, tuple[str, int], str]] = deque(maxlen=EVENTS_KEPT)
        self._counter = itertools.count()
        self._tasks: set[asyncio.Task[Any]] = set()

    def close(self) -> None:
        self.waiting.clear()
        for task in [*self.running.values(), *self.hints_pending.values(), *self._tasks]:
            task.cancel()
        self.workers.close()

    # ---- reviews ----------------------------------------------------------------------------------
    @staticmethod
    def _check(table: Any, seat: int | None) -> int:
        if seat is None:
            raise ServerError("spectator", "a review is of one seat, for its player: ask with the seat's token", 403)
        if table.status != "over":
            raise ServerError("not_over", f"table {table.id} is not finished: a review opens after the end", 409)
        return seat

    async def request(self, table: Any, seat: int | None, requester: str) -> dict[str, Any]:
        """``POST /api/tables/{id}/review``: start (or carry on) the review of the asker's seat, or queue
        it. ``requester``: who asks (``account:<id>`` signed in, else ``address:<address>``)."""
        seat = self._check(table, seat)
        stored = await self.hub.run_db(self.hub.db.stored_review, table.id, seat)
        key = (table.id, seat)
        if not (stored and stored["complete"]) and key not in self.running and self._waiting_of(key) is None:
            self._enqueue(key, requester, stored)
        return self._status(key, stored)

    async def status(self, table: Any, seat: int | None, requester: str) -> dict[str, Any]:
        """``GET /api/tables/{id}/review``: the seat's review as it stands. One asked for but stopped by a
        restart carries on (queued like a new request)."""
        seat = self._check(table, seat)
        key = (table.id, seat)
        stored = await self.hub.run_db(self.hub.db.stored_review, table.id, seat)
        if (
            stored
            and not stored["complete"]
            and key not in self.running
            and key not in self.failed
            and self._waiting_of(key) is None
        ):
            return await self.request(table, seat, requester)
        return self._status(key, stored)

    def _waiting_of(self, key: tuple[str, int]) -> _Waiting | None:
        return next((w for w in self.waiting if w.key == key), None)

    def _enqueue(self, key: tuple[str, int], requester: str, stored: dict[str, Any] | None) -> None:
        """Queue a review (refused when the queue, or the requester's share of it, is full), then start
        what may start."""
        startable_now = len(self.running) < self.processes and requester not in self.running_for
        if not startable_now:
            if len(self.waiting) >= self.max_waiting:
                raise ServerError(
                    "review_queue_full",
                    f"the review queue is full ({len(self.waiting)} reviews wait for the judge): ask again later",
                    503,
                )
            mine = sum(1 for w in self.waiting if w.requester == requester)
            if mine >= self.max_waiting_per_requester:
                raise ServerError(
                    "too_many_reviews",
                    f"you already have {mine} reviews waiting besides the one being worked out: ask for this one "
                    "when they are done",
                    429,
                )
        self.failed.pop(key, None)
        self.waiting.append(_Waiting(key, requester, next(self._counter), stored))
        self.events.append(("queued", key, requester))
        self._start_next()

    def _fair_order(self) -> list[_Waiting]:
        """The waiting reviews in the order they would start: each turn, the oldest review of the
        requester whose latest review started longest ago (never: first)."""
        by_requester: dict[str, list[_Waiting]] = {}
        for waiting in self.waiting:  # (oldest first within each requester)
            by_requester.setdefault(waiting.requester, []).append(waiting)
        turn = dict(self.last_start)
        order: list[_Waiting] = []
        while by_requester:
            requester = min(by_requester, key=lambda r: (turn.get(r, -1), by_requester[r][0].order))
            order.append(by_requester[requester].pop(0))
            turn[requester] = max(turn.values(), default=0) + 1  # its next review: after everyone's
            if not by_requester[requester]:
                del by_requester[requester]
        return order

    def _start_next(self) -> None:
        """Start waiting reviews while a worker is free, fairly, never two of one requester at once."""
        while len(self.running) < self.processes:
            ready = [w for w in self._fair_order() if w.requester not in self.running_for]
            if not ready:
                return
            chosen = ready[0]
            self.waiting.remove(chosen)
            self.last_start[chosen.requester] = next(self._counter)
            self.running_for[chosen.requester] = chosen.key
            self.events.append(("started", chosen.key, chosen.requester))
            task = asyncio.get_running_loop().create_task(self._review(chosen.key, chosen.requester, chosen.stored))
            self.running[chosen.key] = task

    def _finished(self, key: tuple[str, int], requester: str) -> None:
        self.running.pop(key, None)
        if self.running_for.get(requester) == key:
            del self.running_for[requester]
        if not any(w.requester == requester for w in self.waiting):
            self.last_start.pop(requester, None)  # nothing more of theirs: forgotten (bounded memory)
        self.events.append(("finished", key, requester))
        self._start_next()

    def _status(self, key: tuple[str, int], stored: dict[str, Any] | None) -> dict[str, Any]:
        review = json.loads(stored["review"]) if stored else None
        position = None
        if stored and stored["complete"]:
            status = "done"
        elif key in self.failed:
            status = "failed"
        elif key in self.running:
            status = "working"
        elif self._waiting_of(key) is not None:
            status = "queued"
            position = 1 + next(i for i, w in enumerate(self._fair_order()) if w.key == key)
        else:
            status = "none"
        out: dict[str, Any] = {
            "table_id": key[0],
            "seat": key[1],
            "status": status,
            "done": len(review["decisions"]) if review else 0,
            "total": review["decisions_total"] if review else None,
            "review": review,
        }
        if position is not None:
            out["position"] = position  # 1: the next to start when a worker is free
        if status == "failed":
            out["error"] = self.failed[key]
        return out

    async def _review(self, key: tuple[str, int], requester: str, stored: dict[str, Any] | None) -> None:
        table_id, seat = key
        try:
            record = record_of(await self.hub.run_db(self.hub.db.load, table_id))  # for the worker only
            partial = json.loads(stored["review"]) if stored else None
            while partial is None or not partial["complete"]:
                done = await self.workers.call(
                    "parlor.review.jobs:review_step", (record, seat, self.budget, partial), DECISION_TIMEOUT
                )
                if done is None:
                    self.failed[key] = "the judge failed or ran out of time on a decision; ask again"
                    return
                self.jobs += 1
                partial = done
                decisions = len(done["decisions"])
                await self.hub.writer.write([StoreReview(table_id, seat, dumps(done), decisions, done["complete"])])
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("the review of table %s, seat %d failed", table_id, seat)
            self.failed[key] = f"the review failed ({type(exc).__name__})"
        finally:
            self._finished(key, requester)

    # ---- hints ------------------------------------------------------------------------------------
    def ask_hint(self, conn: Any, ref: Any) -> None:
        """A connection's ``hint`` frame: refused at once when it may not have one (a ``ServerError``);
        else worked out in a worker while the connection goes on, and sent as a ``hint`` frame to the
        seat's connections (docs/protocol.md, "hint")."""
        table = conn.table
        seat = conn.seat
        hint_refusal(table, seat)
        version = table.version
        task = asyncio.get_running_loop().create_task(self._hint(table, conn, ref, seat, version))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _hint(self, table: Any, conn: Any, ref: Any, seat: int, version: int) -> None:
        try:
            hint = table.hints_given.get((version, seat))
            if hint is None:
                key = (table.id, version, seat)
                work = self.hints_pending.get(key)
                if work is None:  # two tabs of one seat asking at once share one search
                    state = pickle.dumps(table.state, protocol=pickle.HIGHEST_PROTOCOL)
                    args = (state, seat, self.budget, version)
                    work = asyncio.ensure_future(self.workers.call("parlor.review.jobs:hint_json", args, HINT_TIMEOUT))
                    self.hints_pending[key] = work
                    work.add_done_callback(lambda _t: self.hints_pending.pop(key, None))
                    self.jobs += 1
                hint = await asyncio.shield(work)
                if hint is None:
                    raise ServerError("unavailable", "the hint could not be worked out; ask again", 503)
            await table.change(GiveHint(seat, version, hint, (conn, ref)))
        except ServerError as exc:
            conn.push(dumps({"type": "error", "code": exc.code, "message": exc.message, "ref": ref}))
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("a hint for table %s failed", table.id)
            conn.push(
                dumps(
                    {
                        "type": "error",
                        "code": "server_error",
                        "message": f"the hint failed ({type(exc).__name__})",
                        "ref": ref,
                    }
                )
            )
