"""Replays: a finished table's game as a spectator saw it, step by step."""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from starlette.responses import Response

from parlor.core import Event, for_seat

from .broadcast import event_json
from .chat import chat_json
from .clocks import bot_mark
from .protocol import ServerError
from .tables import LiveTable

if TYPE_CHECKING:
    from .tables import FinishedTable


def spectator_steps(
    game: Any, record: dict[str, Any], seat: int | None = None, actions_by: list[str] | None = None
) -> list[dict[str, Any]]:
    """Rebuild a record step by step: the start, then after each decision, what ``seat`` saw then
    (``view(seat)``, whose turn it was, and the events of that step it was shown, the ``bot_played``
    marks from ``actions_by`` included). ``seat=None``: a spectator. No seed, no action, and no event
    private to anyone else."""
    state = game.new_game(record["players"], record["seed"], game.options_from_json(record.get("options")))

    def step(index: int, events: list[Event]) -> dict[str, Any]:
        return {
            "step": index,
            "view": state.view(seat),
            "to_move": list(state.to_move),
            "events": [event_json(e) for e in for_seat(events, seat)],
        }

    steps = [step(0, [])]
    for i, (who, action_json) in enumerate(record["actions"], start=1):
        events = state.apply(who, game.action_from_json(action_json))
        mark = bot_mark(who, actions_by[i - 1]) if actions_by is not None else None
        steps.append(step(i, events if mark is None else [mark, *events]))
    return steps


def replay_steps_json(game: Any, record: dict[str, Any], seat: int | None, actions_by: list[str]) -> str:
    return json.dumps(spectator_steps(game, record, seat, actions_by), separators=(",", ":"), ensure_ascii=False)


class ReplaysMixin:
    """The hub's part that serves replays (``GET /api/tables/{id}/replay``).

    A finished game never changes, so each seat's replay (and the spectators') is built once, the
    first time it is asked for, and stored (``parlor_replays``); later reads are a lookup.
    """

    async def replay(self, table: LiveTable | FinishedTable, seat: int | None = None) -> Response:
        """The game as ``seat`` saw it (``None``: the spectators), with the table's chat."""
        if table.status != "over":
            raise ServerError("not_over", f"table {table.id} is not finished: the replay opens after the end", 409)
        steps = await self.run_db(self.db.stored_replay, table.id, seat)
        if steps is None:
            live = table if isinstance(table, LiveTable) else await self.load_to_replay(table.id)
            record = live.state.record()  # holds the seed: used here only, never sent
            steps = await asyncio.get_running_loop().run_in_executor(
                None, replay_steps_json, live.game, record, seat, list(live.actions_by)
            )
            await self.run_db(self.db.store_replay, table.id, seat, steps)
        chat = [chat_json(m) for m in table.chat]
        # The stored steps go out as they are: only the small parts around them are encoded here.
        head = json.dumps({"table": table.summary(), "result": table.result, "seat": seat, "chat": chat})
        body = head[:-1] + ',"steps":' + steps + "}"
        return Response(body, media_type="application/json")

    async def load_to_replay(self, table_id: str) -> LiveTable:
        """A finished table's record, replayed once to build a replay that is not stored yet."""
        table = await self.load(table_id)
        if table is None or table.status == "broken":
            raise ServerError("unavailable", f"table {table_id} cannot be replayed", 409)
        self.release(table)
        return table
