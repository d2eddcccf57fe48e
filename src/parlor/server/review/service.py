"""Reviews of finished games and hints during play, worked out by the judge (``parlor.review``) in
worker processes of their own.

**Where the work runs.** The judge searches for seconds per review; in the server's process it would
hold the interpreter from the tables. It runs in a pool of the bot workers' kind (``BotWorkers``),
started at a lower priority (``nice``): the tables' searching bots and the event loop get the cores
first, and a review waits. A review is made one decision per job and each review has one job queued at
a time, so the pool's queue (first come, first served) takes the reviews in turns: a long review never
holds a worker for long nor makes a short one wait for all of it.

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
import json
import logging
import pickle
from typing import Any

from parlor.server.storage import StoreReview, record_of
from parlor.server.table import GiveHint, Hub, hint_refusal
from parlor.server.table.bot_workers import BotWorkers
from parlor.server.wire import ServerError, dumps

log = logging.getLogger("parlor.server")

NICENESS = 10  # the review workers' priority below the server and its bots
DECISION_TIMEOUT = 600.0  # seconds one decision of a review may take before its worker is replaced
HINT_TIMEOUT = 300.0


class ReviewService:
    """Created by the app's lifespan beside the hub; reads the hub's tables and database."""

    def __init__(self, hub: Hub, *, budget: int | None = None, processes: int = 1) -> None:
        self.hub = hub
        self.budget = budget  # iterations per decision; None: each game's default (parlor.review.settings)
        self.workers = BotWorkers(processes, 1.0, niceness=NICENESS, name="parlor-review")
        self.running: dict[tuple[str, int], asyncio.Task[None]] = {}
        self.failed: dict[tuple[str, int], str] = {}
        self.hints_pending: dict[tuple[str, int, int], asyncio.Task[Any]] = {}
        self.jobs = 0  # decisions and hints worked out (a stored review or hint is not worked out again)
        self._tasks: set[asyncio.Task[Any]] = set()

    def close(self) -> None:
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

    async def request(self, table: Any, seat: int | None) -> dict[str, Any]:
        """``POST /api/tables/{id}/review``: start (or carry on) the review of the asker's seat."""
        seat = self._check(table, seat)
        stored = await self.hub.run_db(self.hub.db.stored_review, table.id, seat)
        key = (table.id, seat)
        if not (stored and stored["complete"]) and key not in self.running:
            self.failed.pop(key, None)
            self.running[key] = asyncio.get_running_loop().create_task(self._review(table.id, seat, stored))
        return self._status(key, stored)

    async def status(self, table: Any, seat: int | None) -> dict[str, Any]:
        """``GET /api/tables/{id}/review``: the seat's review as it stands. One asked for but stopped by a
        restart carries on."""
        seat = self._check(table, seat)
        key = (table.id, seat)
        stored = await self.hub.run_db(self.hub.db.stored_review, table.id, seat)
        if stored and not stored["complete"] and key not in self.running and key not in self.failed:
            return await self.request(table, seat)
        return self._status(key, stored)

    def _status(self, key: tuple[str, int], stored: dict[str, Any] | None) -> dict[str, Any]:
        review = json.loads(stored["review"]) if stored else None
        if stored and stored["complete"]:
            status = "done"
        elif key in self.failed:
            status = "failed"
        elif key in self.running:
            status = "working"
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
        if status == "failed":
            out["error"] = self.failed[key]
        return out

    async def _review(self, table_id: str, seat: int, stored: dict[str, Any] | None) -> None:
        key = (table_id, seat)
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
            self.running.pop(key, None)

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
