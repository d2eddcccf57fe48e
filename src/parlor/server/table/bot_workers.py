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


def _call(target: str, args: tuple[Any, ...]) -> Any:
    """A named function of Parlor's own (``"package.module:function"``), for other work done in these
    processes (a game review, a hint): the name comes from the server's code, never from a client."""
    import importlib

    module, _, name = target.partition(":")
    if not module.startswith("parlor."):
        raise ValueError(f"not a Parlor function: {target!r}")
    return getattr(importlib.import_module(module), name)(*args)


def _worker_main(conn: Connection, niceness: int = 0) -> None:
    """A worker's life: receive a job, answer ("ok", value) or ("error", why). A job is a bot's move
    ("bot", level, seed, seconds, pickled state, seat) or a call ("call", "module:function", args)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle; it closes us
    if niceness:
        os.nice(niceness)  # work that may wait (a review) yields the cores to the tables' bots
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
        try:
            if job[0] == "call":
                reply: tuple[str, Any] = ("ok", _call(job[1], job[2]))
            else:
                _bot, level, seed, seconds, state_bytes, seat = job
                state = pickle.loads(state_bytes)
                bot = make_bot(level, state.game, seed)
                if seconds and hasattr(bot, "seconds"):  # a search stops at its clock with its best move so far
                    bot.seconds = seconds
                reply = ("ok", bot.choose(state, seat))
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
    message: tuple[Any, ...]
    timeout: float  # seconds to wait for the answer before the worker is killed
    answer: asyncio.Future[Any]


class BotWorkers:
    """A pool of ``processes`` worker processes, started on the first request."""

    def __init__(self, processes: int, budget: float, *, niceness: int = 0, name: str = "parlor-bot") -> None:
        if processes < 1:
            raise ValueError(f"bot worker processes must be 1 or more, got {processes}")
        self.processes = processes
        self.budget = budget
        self.soft = max(0.05, budget * 0.8)
        self.niceness = niceness
        self.name = name
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
        state_bytes = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
        return await self._submit(("bot", level, seed, self.soft, state_bytes, seat), self.budget + GRACE)  # type: ignore[no-any-return]

    async def call(self, target: str, args: tuple[Any, ...], timeout: float) -> Any:
        """``target(*args)`` (``"parlor.module:function"``) in a worker; ``None`` when it failed or took
        longer than ``timeout`` seconds (the worker is then replaced)."""
        return await self._submit(("call", target, args), timeout)

    async def _submit(self, message: tuple[Any, ...], timeout: float) -> Any:
        if self._closed:
            return None
        if self._queue is None:
            self._queue = asyncio.Queue()
            self._drivers = [asyncio.get_running_loop().create_task(self._drive(i)) for i in range(self.processes)]
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self._queue.put(_Job(message, timeout, answer))
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
        process = self._context.Process(target=_worker_main, args=(theirs, self.niceness), name=self.name, daemon=True)
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

    def _exchange(self, index: int, job: _Job) -> Any:
        """In an I/O thread: hand the job to worker ``index`` and wait for its answer or the budget."""
        worker = self._workers[index]
        if worker is None or not worker.process.is_alive():
            worker = self._workers[index] = self._start()
            if self._closed:  # closed while this worker was starting: close() could not stop it
                self._stop(index)
                return None
        try:
            worker.conn.send(job.message)
            if worker.conn.poll(job.timeout):
                status, value = worker.conn.recv()
                if status == "ok":
                    return value
                log.error("a %s job failed in its worker: %s", job.message[1], value)
                return None
        except (EOFError, OSError) as exc:  # the worker died (killed from outside, out of memory)
            log.error("bot worker %d died (%s); starting another", index, exc)
            self._stop(index)
            return None
        log.warning("a %s job did not answer within %.1f s; its worker is replaced", job.message[1], job.timeout)
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
