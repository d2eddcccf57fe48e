"""Replays: a finished table's game as a spectator saw it, step by step."""

from __future__ import annotations

import json
from typing import Any

from parlor.core import Event, for_seat
from parlor.server.wire import dumps

from .clocks import bot_mark
from .frames import event_json


def start_state(game: Any, row: dict[str, Any]) -> Any:
    """The state a table's (or a record's) game starts from: its scenario's (a practice table's
    dealt position; stored as JSON text in a table's row), else a new game from the seed."""
    scenario = row.get("scenario")
    if scenario:
        return game.scenario(json.loads(scenario) if isinstance(scenario, str) else scenario)
    return game.new_game(row["players"], row["seed"], game.options_from_json(row.get("options")))


def spectator_steps(
    game: Any, record: dict[str, Any], seat: int | None = None, actions_by: list[str] | None = None
) -> list[dict[str, Any]]:
    """Rebuild a record step by step: the start, then after each decision, what ``seat`` saw then
    (``view(seat)``, whose turn it was, and the events of that step it was shown, the ``bot_played``
    marks from ``actions_by`` included). ``seat=None``: a spectator. No seed, no action, and no event
    private to anyone else."""
    state = start_state(game, record)

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
    return dumps(spectator_steps(game, record, seat, actions_by))
