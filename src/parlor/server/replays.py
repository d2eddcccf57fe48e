"""Replays: a finished table's game as a spectator saw it, step by step."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from parlor import games as registry
from parlor.core import Event, for_seat

from .broadcast import event_json
from .protocol import ServerError, dumps

log = logging.getLogger("parlor.server")

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


def finished_summary(row: dict[str, Any]) -> dict[str, Any]:
    """A finished table's summary from its stored row alone (the same as ``LiveTable.summary``)."""
    result = row["result"] or {}
    bot_moves = {s["seat"]: s.get("bot_moves", 0) for s in result.get("seats", [])}
    created = row.get("created_at")
    return {
        "id": row["id"],
        "game": row["game"],
        "title": registry.get(row["game"]).title,
        "players": row["players"],
        "options": row["options"],
        "status": row["status"],
        "version": row["version"],
        "seat_timeout": row["seat_timeout"],
        "substitute_level": row["substitute_level"],
        "seats": [
            {
                "seat": s["seat"],
                "kind": s["kind"],
                "level": s["level"],
                "name": s["name"],
                "joined": bool(s["joined"]),
                "connected": False,
                "substituted": False,
                "bot_moves": bot_moves.get(s["seat"], 0),
            }
            for s in row["seats"]
        ],
        "result": row["result"],
        "previous_table": row.get("previous_table"),
        "next_table": row.get("next_table"),
        "created_at": created.isoformat().replace("+00:00", "Z") if created is not None else None,
    }


class ReplaysMixin:
    """The hub's part that serves finished tables: their summary and replay are stored at the end, so
    that reading them is a lookup (``GET /api/tables/{id}``, ``GET /api/tables/{id}/replay``)."""

    async def summary_of(self, table_id: str) -> dict[str, Any]:
        table = self.tables.get(table_id)
        if table is None and isinstance(table_id, str) and 0 < len(table_id) <= 32:
            row = await self.run_db(self.db.load_finished, table_id)
            if row is not None:
                return finished_summary(row)
        table = await self.get(table_id)
        try:
            return table.summary()
        finally:
            self.release(table)

    async def replay_text(self, table_id: str) -> str:
        """The replay as JSON text: the stored steps when there are, else built once and stored."""
        table = self.tables.get(table_id)
        if table is None and isinstance(table_id, str) and 0 < len(table_id) <= 32:
            row = await self.run_db(self.db.load_finished, table_id)
            if row is not None and row["steps"] is not None:
                summary = finished_summary(row)
                return f'{{"table":{dumps(summary)},"steps":{row["steps"]},"result":{dumps(row["result"])}}}'
        table = await self.get(table_id)
        try:
            return dumps(await self.replay(table))
        finally:
            self.release(table)

    async def replay(self, table: LiveTable) -> dict[str, Any]:
        if table.status != "over":
            raise ServerError("not_over", f"table {table.id} is not finished: the replay opens after the end", 409)
        steps = await self._steps(table)
        return {"table": table.summary(), "steps": steps, "result": table.result}

    async def _steps(self, table: LiveTable) -> list[dict[str, Any]]:
        record = table.state.record()  # holds the seed: used here only, never sent
        steps = await asyncio.get_running_loop().run_in_executor(None, spectator_steps, table.game, record)
        try:
            await self.run_db(self.db.store_replay, table.id, dumps(steps))
        except Exception:  # only a cache: the next read builds it again
            log.exception("table %s: cannot store its replay", table.id)
        return steps

    def store_replay_soon(self, table: LiveTable) -> None:
        """At the end of a game: build and store its replay in the background."""
        if self._closing:
            return
        task = asyncio.get_running_loop().create_task(self._steps(table))
        self._background.add(task)
        task.add_done_callback(self._background.discard)
