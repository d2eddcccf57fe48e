"""Searching bots think in worker processes, one table's move at a time, first come first served.

Why processes and not threads: a search (``hard``, ``expert``) is pure Python for a second or more.
In a thread it holds the interpreter lock in turns with the event loop and every other bot, so one
crowd of expert tables slowed every table's replies and quick bots. In a process it only takes its
share of the machine's cores.

Fairness: each table's bot loop asks for one move and waits for it, so a table never has more than
one request in the queue. The queue is served in order of arrival, which is round-robin across the
tables that have a searching bot to move: a table with many expert seats cannot get ahead of one
with a single hard seat.

The time budget is kept in two steps. The search is told to stop after ``soft`` seconds (it then
answers with its best move so far). If a worker has still not answered after the whole budget plus a
little grace (a bot that ignores its clock, a machine that is swapping), the worker is killed, a new
one is started, and the caller gets ``None``: the server then plays a random legal move, as the table
may not wait any longer.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
import signal
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from parlor.core.actions import Action
from parlor.core.game import State

log = logging.getLogger("parlor.server")

GRACE = 2.0  # seconds past the budget before a worker that has not answered is killed
START_TIMEOUT = 120.0  # seconds a new worker may take to start (a new interpreter importing the games)


def default_processes() -> int:
    """One core for the event loop and the database, the rest for searching (at least one, at most 8)."""
    return max(1, min(8, (os.cpu_count() or 2) - 1))


def _worker_main(conn: Connection) -> None:
    """A worker's life: receive (level, seed, seconds, pickled state, seat), answer ("ok", action)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle; it closes us
    from parlor import games
    from parlor.bots import make_bot

    for name in games.names():  # imported now, so that no move's budget pays for it
        games.get(name)
    conn.send(("ready", os.getpid()))
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        level, seed, seconds, state_bytes, seat = job
        try:
            state = pickle.loads(state_bytes)
            bot = make_bot(level, state.game, seed)
            if seconds and hasattr(bot, "seconds"):  # a search stops at its clock with its best move so far
                bot.seconds = seconds
            reply: tuple[str, Any] = ("ok", bot.choose(state, seat))
        except Exception as exc:  # reported to the server, which plays a random move and logs why
            reply = ("error", f"{type(exc).__name__}: {exc}")
        try:
            conn.send(reply)
        except (BrokenPipeError, OSError):
            return


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection


@dataclass
class _Job:
    level: str
    seed: int
    state: bytes
    seat: int
    answer: asyncio.Future[Action | None]


class BotWorkers:
    """A pool of ``processes`` worker processes, started on the first request."""

    def __init__(self, processes: int, budget: float) -> None:
        if processes < 1:
            raise ValueError(f"bot worker processes must be 1 or more, got {processes}")
        self.processes = processes
        self.budget = budget
        self.soft = max(0.05, budget * 0.8)
        self._context = multiprocessing.get_context("spawn")  # no fork of a threaded server process
        self._queue: asyncio.Queue[_Job] | None = None
        self._drivers: list[asyncio.Task[None]] = []
        self._workers: list[_Worker | None] = [None] * processes
        # Each driver waits on its worker's pipe in a thread of its own (pipes block).
        self._io = ThreadPoolExecutor(max_workers=processes, thread_name_prefix="bot-worker-io")
        self._closed = False
        self.killed = 0  # workers killed for going over the budget (read by tests and the benchmark)

    async def choose(self, level: str, seed: int, state: State, seat: int) -> Action | None:
        """The bot's move, or ``None`` when it did not answer within the budget or failed."""
        if self._closed:
            return None
        if self._queue is None:
            self._queue = asyncio.Queue()
            self._drivers = [asyncio.get_running_loop().create_task(self._drive(i)) for i in range(self.processes)]
        answer: asyncio.Future[Action | None] = asyncio.get_running_loop().create_future()
        await self._queue.put(_Job(level, seed, pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL), seat, answer))
        return await answer

    def worker_pids(self) -> list[int]:
        return [w.process.pid for w in self._workers if w is not None and w.process.pid is not None]

    async def _drive(self, index: int) -> None:
        assert self._queue is not None
        loop = asyncio.get_running_loop()
        while True:
            job = await self._queue.get()
            if job.answer.done():  # its table stopped waiting (closed, cancelled)
                continue
            try:
                reply = await loop.run_in_executor(self._io, self._exchange, index, job)
            except Exception:
                log.exception("bot worker %d failed", index)
                reply = None
            if not job.answer.done():
                job.answer.set_result(reply)

    def _start(self) -> _Worker:
        """A new worker, once it has imported what it needs (its start is not charged to any move)."""
        ours, theirs = self._context.Pipe()
        process = self._context.Process(target=_worker_main, args=(theirs,), name="parlor-bot", daemon=True)
        process.start()
        theirs.close()
        worker = _Worker(process, ours)
        try:
            if ours.poll(START_TIMEOUT) and ours.recv()[0] == "ready":
                return worker
        except (EOFError, OSError):
            pass
        process.kill()
        ours.close()
        raise RuntimeError(f"a bot worker process did not start within {START_TIMEOUT:g} s")

    def _exchange(self, index: int, job: _Job) -> Action | None:
        """In an I/O thread: hand the job to worker ``index`` and wait for its answer or the budget."""
        worker = self._workers[index]
        if worker is None or not worker.process.is_alive():
            worker = self._workers[index] = self._start()
        try:
            worker.conn.send((job.level, job.seed, self.soft, job.state, job.seat))
            if worker.conn.poll(self.budget + GRACE):
                status, value = worker.conn.recv()
                if status == "ok":
                    return value  # type: ignore[no-any-return]
                log.error("a %s bot failed in its worker: %s", job.level, value)
                return None
        except (EOFError, OSError) as exc:  # the worker died (killed from outside, out of memory)
            log.error("bot worker %d died (%s); starting another", index, exc)
            self._stop(index)
            return None
        log.warning("a %s bot did not answer within %.1f s; its worker is replaced", job.level, self.budget + GRACE)
        self.killed += 1
        self._stop(index)
        return None

    def _stop(self, index: int) -> None:
        worker, self._workers[index] = self._workers[index], None
        if worker is None:
            return
        worker.process.kill()
        worker.process.join(5)
        worker.conn.close()

    def close(self) -> None:
        self._closed = True
        for task in self._drivers:
            task.cancel()
        for index in range(self.processes):  # they hold nothing worth a wait: a search is thrown away
            self._stop(index)
        self._io.shutdown(wait=False, cancel_futures=True)
