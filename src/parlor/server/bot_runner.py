"""The bot runner: a table's bots (and the substitutes for absent players) take their turns."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from typing import TYPE_CHECKING, Any

from parlor.bots import LEVELS, make_bot

from .protocol import ServerError

if TYPE_CHECKING:
    from .tables import LiveTable

log = logging.getLogger("parlor.server")

BOT_LEVELS = ("easy", "medium", "hard", "expert", "random")
SEARCH_LEVELS = frozenset({"hard", "expert"})  # the levels that search (seconds, not milliseconds)
INLINE_LIMIT = 0.05  # seconds: a quick bot slower than this once moves in a thread from then on
_SLOW_QUICK_BOTS: set[tuple[str, str]] = set()  # (game, level) seen slower than INLINE_LIMIT


def bot_move_kind(s: Any) -> str:
    """How a bot's decision for this seat is recorded (``by``): bot, clock, stand_in or substitute."""
    if s.kind == "bot":
        return "bot"
    if s.clock_out:
        return "clock"
    return "stand_in" if s.stand_in else "substitute"


def bot_level_description(level: str) -> str:
    return LEVELS.get(level, "uniformly random legal moves")


class BotRunnerMixin:
    """The hub's part that moves for bots."""

    def schedule(self, table: LiveTable) -> None:
        """Start the table's bot loop if a bot (or a substitute) is to move."""
        if self._closing or table.status != "playing":
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        if any(table.bot_controls(s) for s in table.state.to_move):
            table.bot_task = asyncio.get_running_loop().create_task(self._bot_loop(table))

    def _bot_level(self, table: LiveTable, seat: int) -> str:
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
            began = time.perf_counter()
            try:
                return bot.choose(snapshot, seat)
            except Exception:
                log.exception("table %s: bot for seat %d failed; playing a random move", table.id, seat)
                return random.choice(table.state.legal_actions(seat))
            finally:
                if time.perf_counter() - began > INLINE_LIMIT:
                    log.warning("%s %s bots are slow here; they move in a thread from now on", *kind)
                    _SLOW_QUICK_BOTS.add(kind)
        try:
            thinking = asyncio.get_running_loop().run_in_executor(self._quick_bot_pool, bot.choose, snapshot, seat)
            return await asyncio.wait_for(thinking, self.limits.bot_move_budget)
        except TimeoutError:
            log.warning("table %s: bot for seat %d over its time budget; a random move", table.id, seat)
            table.seats[seat].bot = None  # still running in its thread: the next move gets a new one
        except Exception:
            log.exception("table %s: bot for seat %d failed; playing a random move", table.id, seat)
        return random.choice(table.state.legal_actions(seat))

    async def _bot_loop(self, table: LiveTable) -> None:
        try:
            while not self._closing and table.status == "playing":
                seats = [s for s in table.state.to_move if table.bot_controls(s)]
                if not seats:
                    return
                if self.bot_delay > 0:
                    await asyncio.sleep(self.bot_delay * random.uniform(0.6, 1.4))
                async with table.lock:
                    seat = next((s for s in table.state.to_move if table.bot_controls(s)), None)
                    if seat is None or table.status != "playing":
                        continue
                    by = bot_move_kind(table.seats[seat])
                    level = self._bot_level(table, seat)
                    if level in SEARCH_LEVELS:
                        # In a worker process (bot_workers.py): the search neither holds the interpreter
                        # lock against the event loop nor makes another table's bots wait behind it.
                        seed = (table.seed * 31 + seat * 7919 + table.version * 104_729) % (1 << 62)
                        action = await self._bot_workers.choose(level, seed, table.state, seat)
                        if action is None:  # over its budget (its worker was replaced) or failed: logged there
                            action = random.choice(table.state.legal_actions(seat))
                    else:
                        action = await self._quick_move(table, seat)
                    try:
                        await self._commit(table, seat, action, by)
                    except ServerError as exc:
                        log.error("table %s: bot move refused: %s", table.id, exc.message)
                        await asyncio.sleep(0.5)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: bot loop crashed", table.id)
        finally:
            if table.bot_task is asyncio.current_task():
                table.bot_task = None
