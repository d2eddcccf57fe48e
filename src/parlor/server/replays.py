"""Replays: a finished table's game as a spectator saw it, step by step."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from parlor.core import Event, for_seat

from .broadcast import event_json
from .protocol import ServerError

if TYPE_CHECKING:
    from .tables import LiveTable


def spectator_steps(game: Any, record: dict[str, Any]) -> list[dict[str, Any]]:
    """Rebuild a record step by step: the start, then after each decision, what a spectator saw then
    (``view(None)``, whose turn it was, and that step's public events). No seed, action or private event."""
    state = game.new_game(record["players"], record["seed"], game.options_from_json(record.get("options")))

    def step(index: int, events: list[Event]) -> dict[str, Any]:
        return {
            "step": index,
            "view": state.view(None),
            "to_move": list(state.to_move),
            "events": [event_json(e) for e in for_seat(events, None)],
        }

    steps = [step(0, [])]
    for i, (seat, action_json) in enumerate(record["actions"], start=1):
        steps.append(step(i, state.apply(seat, game.action_from_json(action_json))))
    return steps


class ReplaysMixin:
    """The hub's part that serves replays (``GET /api/tables/{id}/replay``)."""

    async def replay(self, table: LiveTable) -> dict[str, Any]:
        if table.status != "over":
            raise ServerError("not_over", f"table {table.id} is not finished: the replay opens after the end", 409)
        record = table.state.record()  # holds the seed: used here only, never sent
        steps = await asyncio.get_running_loop().run_in_executor(None, spectator_steps, table.game, record)
        return {"table": table.summary(), "steps": steps, "result": table.result}
