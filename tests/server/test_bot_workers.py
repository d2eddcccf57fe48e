"""Searching bots think in worker processes (server/bot_workers.py): real processes, a budget that
is kept by replacing a worker that overruns it, and tables served in turn."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

from parlor import games
from parlor.server.table.bot_workers import GRACE, BotWorkers

from ..helpers import run_coroutine

STUBBORN = f"{Path(__file__).parent / 'bots' / 'stubborn.py'}:StubbornBot"
SLOW = f"{Path(__file__).parent / 'bots' / 'stubborn.py'}:SlowBot"
# The budget of the tests that do not test it: a search told to stop early (at 80% of the budget) on
# a loaded machine would answer another move than the same search run in full.
AMPLE = 120.0


def mid_game(name: str = "mottainai", players: int = 3, seed: int = 4, steps: int = 12):
    state = games.get(name).new_game(players, seed)
    for _ in range(steps):
        seat = state.to_move[0]
        state.apply(seat, state.legal_actions(seat)[0])
    return state


def test_a_search_runs_in_another_process_and_answers_a_legal_move():
    async def run():
        workers = BotWorkers(1, budget=AMPLE)
        try:
            state = mid_game()
            seat = state.to_move[0]
            action = await workers.choose("hard", 7, state, seat)
            assert action in state.legal_actions(seat)
            pids = workers.worker_pids()
            assert pids and os.getpid() not in pids
            # Same seed, same position: the same move (the search is seeded, not timed, within budget).
            assert await workers.choose("hard", 7, state, seat) == action
        finally:
            workers.close()

    run_coroutine(run())


def test_a_bot_over_its_budget_is_stopped_and_its_worker_replaced():
    async def run():
        workers = BotWorkers(1, budget=0.3)
        try:
            state = mid_game()
            seat = state.to_move[0]
            await workers.choose("medium", 1, state, seat)  # the worker is up
            [first] = workers.worker_pids()
            began = time.monotonic()
            assert await workers.choose(STUBBORN, 1, state, seat) is None
            waited = time.monotonic() - began
            assert GRACE <= waited < 600, waited  # stopped after the budget and its grace (it sleeps an hour)
            assert workers.killed == 1
            # The stubborn search is not left running anywhere: its process is gone.
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and Path(f"/proc/{first}").exists():
                await asyncio.sleep(0.05)
            assert not Path(f"/proc/{first}").exists() or "Z" in Path(f"/proc/{first}/stat").read_text().split()[2]
            # A new worker answers the next move.
            action = await workers.choose("hard", 2, state, seat)
            assert action in state.legal_actions(seat)
            assert workers.worker_pids() and workers.worker_pids() != [first]
        finally:
            workers.close()

    run_coroutine(run())


def test_tables_are_served_in_turn():
    """One worker, a table that asks for move after move and another that asks once, later: the
    second is served after the first table's current move, not after all of its moves."""

    async def run():
        workers = BotWorkers(1, budget=AMPLE)
        order: list[str] = []
        try:
            state = mid_game()
            seat = state.to_move[0]
            await workers.choose("medium", 1, state, seat)  # the worker is up

            asked = asyncio.Event()

            async def busy_table():
                for i in range(4):
                    asked.set()
                    await workers.choose(SLOW, i, state, seat)
                    order.append("busy")

            async def other_table():
                await asked.wait()  # asks once the busy table's first move has been asked for
                await asyncio.sleep(0)
                await workers.choose(SLOW, 9, state, seat)
                order.append("other")

            await asyncio.gather(busy_table(), other_table())
        finally:
            workers.close()
        assert order.index("other") <= 1, order

    run_coroutine(run())
