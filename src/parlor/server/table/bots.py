"""The bot runner: a table's bots (and the substitutes for absent players) take their turns.

A bot thinks on a snapshot of the table, outside its lock, and hands its move to the table as a
:class:`Decide` change for the version it thought about: if the table moved meanwhile (an undo, a
player back at the seat), the move is refused as stale and the bot looks again."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from parlor.bots import LEVELS, make_bot
from parlor.server.limits import Limits
from parlor.server.wire import ServerError

from .bot_workers import BotWorkers
from .changes import Decide

if TYPE_CHECKING:
    from .live import LiveTable

log = logging.getLogger("parlor.server")

# ``master`` comes last and is shown as "experimental": it does not yet beat ``expert``, so the
# lobby must not offer it as the step above it (docs/evaluator.md).
BOT_LEVELS = ("easy", "medium", "hard", "expert", "random", "master")
SEARCH_LEVELS = frozenset({"hard", "expert", "master"})  # the levels that search (seconds, not milliseconds)
INLINE_LIMIT = 0.05  # CPU seconds: a quick bot slower than this once moves in a thread from then on
_SLOW_QUICK_BOTS: set[tuple[str, str]] = set()  # (game, level) seen slower than INLINE_LIMIT


def bot_level_description(level: str) -> str:
    return LEVELS.get(level, "uniformly random legal moves")


class BotRunner:
    """Moves for the bots of every table of one process."""

    def __init__(self, limits: Limits, bot_delay: float, processes: int) -> None:
        self.limits = limits
        self.bot_delay = bot_delay
        self.closing = False
        # Two lanes: searching bots (hard, expert) think in worker processes (bot_workers.py), every
        # other bot (random, easy, medium: a heuristic's millisecond) here, so a crowd of expert tables
        # never makes another table's quick bots wait behind their searches.
        self.workers = BotWorkers(processes, limits.bot_move_budget)
        self.quick_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="bot-quick")

    def close(self) -> None:
        self.closing = True
        self.workers.close()
        self.quick_pool.shutdown(wait=False, cancel_futures=True)

    def schedule(self, table: LiveTable) -> None:
        """Start the table's bot loop if a bot (or a substitute) is to move."""
        if self.closing or table.status != "playing" or table.gone:
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        if any(table.bot_controls(s) for s in table.state.to_move):
            table.bot_task = asyncio.get_running_loop().create_task(self._bot_loop(table))

    @staticmethod
    def _bot_level(table: LiveTable, seat: int) -> str:
        s = table.seats[seat]
        return (s.level if s.kind == "bot" else table.substitute_level) or "medium"

    def _bot_for(self, table: LiveTable, seat: int) -> Any:
        s = table.seats[seat]
        level = self._bot_level(table, seat)
        if s.bot is None or s.bot_level != level:
            s.bot = make_bot(level, table.game, (table.seed * 31 + seat * 7919 + 17) % (1 << 62))
            s.bot_level = level
        return s.bot

    async def _quick_move(self, table: LiveTable, seat: int) -> Any:
        """A heuristic's or a random bot's move. They answer in about 0.01-0.3 ms (worst seen: a few ms),
        less than handing the work to a thread costs, so they move right here on the event loop. A
        kind of bot once seen to take longer than ``INLINE_LIMIT`` moves in a thread from then on,
        where its time budget can be kept."""
        bot = self._bot_for(table, seat)
        snapshot = table.state.clone()
        kind = (table.game.name, self._bot_level(table, seat))
        if kind not in _SLOW_QUICK_BOTS:
            # The bot's own CPU time, not the wall clock: on a busy machine a heuristic's millisecond can
            # take 50 ms of wall time, and one such pause must not send every later move to a thread.
            began = time.thread_time()
            try:
                return bot.choose(snapshot, seat)
            except Exception:
                log.exception("table %s: bot for seat %d failed; playing a random move", table.id, seat)
                return random.choice(table.state.legal_actions(seat))
            finally:
                if time.thread_time() - began > INLINE_LIMIT:
                    log.warning("%s %s bots are slow here; they move in a thread from now on", *kind)
                    _SLOW_QUICK_BOTS.add(kind)
        try:
            thinking = asyncio.get_running_loop().run_in_executor(self.quick_pool, bot.choose, snapshot, seat)
            return await asyncio.wait_for(thinking, self.limits.bot_move_budget)
        except TimeoutError:
            log.warning("table %s: bot for seat %d over its time budget; a random move", table.id, seat)
            table.seats[seat].bot = None  # still running in its thread: the next move gets a new one
        except Exception:
            log.exception("table %s: bot for seat %d failed; playing a random move", table.id, seat)
        return random.choice(snapshot.legal_actions(seat))

    async def _bot_loop(self, table: LiveTable) -> None:
        try:
            while not self.closing and table.status == "playing" and not table.gone:
                seat = next((s for s in table.state.to_move if table.bot_controls(s)), None)
                if seat is None:
                    return
                if self.bot_delay > 0:
                    await asyncio.sleep(self.bot_delay * random.uniform(0.6, 1.4))
                    seat = next((s for s in table.state.to_move if table.bot_controls(s)), None)
                    if seat is None or table.status != "playing":
                        continue
                version = table.version
                level = self._bot_level(table, seat)
                if level in SEARCH_LEVELS:
                    # In a worker process (bot_workers.py): the search neither holds the interpreter
                    # lock against the event loop nor makes another table's bots wait behind it.
                    seed = (table.seed * 31 + seat * 7919 + version * 104_729) % (1 << 62)
                    state = table.state
                    action = await self.workers.choose(level, seed, state, seat)
                    if action is None:  # over its budget (its worker was replaced) or failed: logged there
                        action = random.choice(state.legal_actions(seat))
                else:
                    action = await self._quick_move(table, seat)
                try:
                    await table.change(Decide(seat, action, None, version))
                except ServerError as exc:
                    if exc.code == "stale":  # the table moved while the bot thought: look again
                        continue
                    if exc.code in ("unavailable", "game_over"):
                        return
                    log.error("table %s: bot move refused: %s", table.id, exc.message)
                    await asyncio.sleep(0.5)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: bot loop crashed", table.id)
        finally:
            if table.bot_task is asyncio.current_task():
                table.bot_task = None
