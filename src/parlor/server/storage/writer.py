"""Group commit: the writes of every table that arrive while a transaction is being written wait, and
then go together in the next one. A busy server thus pays one transaction (one sync to disk) per tick
for all its tables' decisions, chat lines and clocks, while a quiet one writes each change at once.
A caller still gets its answer only once the transaction holding its writes is committed, so an ack
never runs ahead of the database.

Each change hands its writes as one group (they commit together or not at all); one group's failure
(a version conflict, a lost lease) never costs another group its commit (``Database.commit_groups``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from .database import Database
from .writes import AppendDecision, Write

log = logging.getLogger("parlor.server")


class Writer:
    def __init__(self, db: Database, run_db: Callable[..., Awaitable[Any]]) -> None:
        self.db = db
        self._run_db = run_db
        self._waiting: list[tuple[Sequence[Write], asyncio.Future[list[Any]]]] = []
        self._task: asyncio.Task[None] | None = None
        self.decisions_stored = 0  # decisions committed, and in how many transactions (the benchmark reads them)
        self.decision_groups = 0
        self.transactions = 0

    def write(self, writes: Sequence[Write]) -> asyncio.Future[list[Any]]:
        """Queue one change's writes; the future gets their results once committed (or the error)."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[list[Any]] = loop.create_future()
        self._waiting.append((writes, answer))
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._drain())
        return answer

    def write_later(self, writes: Sequence[Write], on_error: Callable[[BaseException], None]) -> None:
        """Queue writes nobody waits for (a clock started); ``on_error`` hears of a failure."""

        def done(future: asyncio.Future[list[Any]]) -> None:
            if not future.cancelled() and future.exception() is not None:
                on_error(future.exception())  # type: ignore[arg-type]

        self.write(writes).add_done_callback(done)

    async def _drain(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting, []
            try:
                outcomes = await self._run_db(self.db.commit_groups, [w for w, _ in batch])
            except Exception as exc:  # the database thread itself failed: nothing of the batch is stored
                outcomes = [exc] * len(batch)
            self.transactions += 1
            decisions = sum(
                1
                for (writes, _), outcome in zip(batch, outcomes, strict=True)
                if not isinstance(outcome, Exception)
                for w in writes
                if isinstance(w, AppendDecision)
            )
            if decisions:
                self.decisions_stored += decisions
                self.decision_groups += 1
            for (_, answer), outcome in zip(batch, outcomes, strict=True):
                if answer.done():
                    continue
                if isinstance(outcome, Exception):
                    answer.set_exception(outcome)
                else:
                    answer.set_result(outcome)
