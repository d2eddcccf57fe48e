"""Moves: a player's action validated, stored and applied; undo and the rules for it."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from parlor.core import Event, IllegalAction, ParlorError, State, replay
from parlor.core.rng import FastRng

from .broadcast import Ack, Connection
from .clocks import BOT_FOR_HUMAN, bot_mark
from .db import Decision, LeaseLost
from .protocol import ServerError

if TYPE_CHECKING:
    from .tables import LiveTable

log = logging.getLogger("parlor.server")

REVEAL_SAMPLES = 8  # hidden arrangements tried when checking whether a decision showed something hidden


def _public(events: list[Event]) -> list[tuple[str, Any]]:
    return [(e.kind, e.data) for e in events if e.visible_to is None]


def shows_hidden(before: State, seat: int, action: Any, events: list[Event], salt: int) -> bool:
    """Did ``seat``'s decision turn up something ``seat`` could not know (a card from the deck, …)?

    The general rule, from the events: redo the decision in positions that look the same to ``seat``
    but with everything hidden from it dealt afresh (``determinize``). If the public events of the
    decision differ in any of them, they depended on hidden cards: undoing it would give those cards
    back to the deck while everyone has seen them."""
    expected = _public(events)
    rng = FastRng(salt)  # the search's generator: its shuffles cost a fraction of the records' one
    for _ in range(REVEAL_SAMPLES):
        try:
            other = before.determinize(seat, rng)
            if _public(other.apply(seat, action)) != expected:
                return True
        except Exception:  # the decision does not even replay there: it depended on what was hidden
            return True
    return False


def undo_refusal(table: LiveTable, seat: int | None) -> str | None:
    """Why ``seat`` may not undo now, or None if it may (rules in docs/protocol.md)."""
    if seat is None:
        return "spectators cannot undo"
    if table.status != "playing":
        return "the game is over"
    if not table.actions_by:
        return "there is nothing to undo"
    last = table.version - 1
    if table.action_seats[last] != seat:
        return "the last decision was not yours"
    if table.actions_by[last] != "player":
        return "the last decision was made by a bot"
    if any(e.visible_to is not None for i, e in reversed(table.events) if i == last):
        return "something hidden was revealed since (a private event)"
    if table.rng_before[last] != table.state.rng.state:
        return "chance happened since (a shuffle or a random draw)"
    if table.reveals[last] is None:  # checked once, when an undo is first asked (it costs a few replays)
        before = table.before_last
        if before is None:  # restored from the database, or an undo since: rebuilt from the record
            record = table.state.record()
            record["actions"] = record["actions"][:-1]
            before = replay(record)
        action = table.state.history()[-1][1]
        events = [e for i, e in table.events if i == last]
        table.reveals[last] = shows_hidden(before, seat, action, events, table.seed ^ last)
    if table.reveals[last]:
        return "the decision turned up something hidden"
    return None


class MovesMixin:
    """The hub's part that changes a table: all under the table's lock, the database first."""

    async def store_decision(self, decision: Decision) -> None:
        """Store a decision; returns once the transaction holding it is committed.

        Group commit: decisions that arrive while a transaction is being written wait and then go
        together in the next one. A busy server thus pays one transaction (one sync to disk) for many
        tables' moves, while a quiet one writes each move at once. Every caller still returns only
        after its own decision is committed, so an ack never runs ahead of the database."""
        answer: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._decisions_waiting.append((decision, answer))
        if self._decision_writer is None or self._decision_writer.done():
            self._decision_writer = asyncio.get_running_loop().create_task(self._write_decisions())
        await answer

    async def _write_decisions(self) -> None:
        while self._decisions_waiting:
            group, self._decisions_waiting = self._decisions_waiting, []
            try:
                outcomes = await self.run_db(self.db.append_actions, [d for d, _ in group])
            except Exception as exc:  # the database thread itself failed: nothing of the group is stored
                outcomes = [exc] * len(group)
            self.decisions_stored += len(group)
            self.decision_groups += 1
            for (_, answer), error in zip(group, outcomes, strict=True):
                if answer.done():
                    continue
                if error is None:
                    answer.set_result(None)
                else:
                    answer.set_exception(error)

    async def act(self, conn: Connection, msg: dict[str, Any], ref: Any = None) -> int:
        """A client's action; returns the new version once committed (raises ServerError)."""
        table, seat = conn.table, conn.seat
        if seat is None:
            raise ServerError("spectator", "spectators cannot act")
        if "seat" in msg and msg["seat"] != seat:
            raise ServerError("wrong_seat", f"this connection holds seat {seat}, not {msg['seat']!r}")
        version = msg.get("version")
        if version is not None and type(version) is not int:
            raise ServerError("bad_frame", "'version' must be an integer")
        async with table.lock:
            if table.status == "broken":
                raise ServerError("unavailable", "this table is closed")
            state = table.state
            if state.is_over or table.status != "playing":
                raise ServerError("game_over", "the game is over")
            if version is not None and version != table.version:
                raise ServerError("stale", f"the table is at version {table.version}, not {version}")
            if seat not in state.to_move:
                raise ServerError(
                    "not_your_turn", f"seat {seat} is not to move (waiting for seat(s) {list(state.to_move)})"
                )
            try:
                if "id" in msg:
                    if type(msg["id"]) is not int:
                        raise IllegalAction("'id' must be an integer action id")
                    action = table.game.action_from_id(msg["id"])
                elif "action" in msg:
                    action = table.game.action_from_json(msg["action"])
                else:
                    raise ServerError("bad_frame", "an action frame needs 'action' (the action's JSON) or 'id'")
            except ServerError:
                raise
            except (ParlorError, ValueError, TypeError, KeyError, IndexError) as exc:
                raise ServerError("illegal_action", f"not an action of {table.game.title}: {exc}") from None
            await self._commit(table, seat, action, "player", (conn, ref))
            return table.version

    async def _commit(self, table: LiveTable, seat: int, action: Any, by: str, ack: Ack = None) -> None:
        """Validate on a copy, store, then swap in; the caller holds ``table.lock``."""
        new = table.state.clone()
        try:
            events = new.apply(seat, action)
        except IllegalAction as exc:
            raise ServerError("illegal_action", str(exc)) from None
        except Exception as exc:  # a bug in a game's rules: refuse the move, keep the table as it was
            log.exception("table %s: the engine failed on %s by seat %d", table.id, action, seat)
            raise ServerError("server_error", f"the game engine failed on this action ({type(exc).__name__})") from None
        idx = table.version
        abandoned = not new.is_over and idx + 1 >= self.limits.max_decisions
        status = "over" if new.is_over or abandoned else "playing"
        for_human = by in BOT_FOR_HUMAN  # a bot moved for a human seat: counted, and marked in the log
        result = None
        stored = [(e.kind, e.data, None if e.visible_to is None else sorted(e.visible_to)) for e in events]
        if abandoned:
            cap = self.limits.max_decisions
            result = table.abandoned_result(f"the game reached the limit of {cap} decisions", "decision_cap", cap)
        if new.is_over:
            old_state = table.state
            table.state = new
            if for_human:
                table.seats[seat].bot_moves += 1
            result = table.full_result()
            table.state = old_state
            if for_human:
                table.seats[seat].bot_moves -= 1
        decision = Decision(table.id, idx, seat, action.to_json(), by, len(table.events), stored, status, result)
        try:
            await self.store_decision(decision)
        except LeaseLost:
            log.warning("table %s: another server process took it over; letting it go", table.id)
            await self.let_go(table)
            raise ServerError("unavailable", "this table moved to another server process; reconnect", 503) from None
        except Exception as exc:
            log.error("table %s: cannot store decision %d: %s", table.id, idx, exc)
            raise ServerError(
                "server_error", f"the action could not be stored ({type(exc).__name__}); try again"
            ) from None
        table.rng_before.append(table.state.rng.state)
        old, table.state = table.state, new
        table.actions_by.append(by)
        table.action_seats.append(seat)
        mark = bot_mark(seat, by)
        if mark is not None:  # not stored as an event: derived from ``by`` when a table is restored
            table.events.append((idx, mark))
        table.events.extend((idx, e) for e in events)
        table.reveals.append(None)  # whether it showed something hidden: checked if an undo is asked
        table.before_last = old
        table.changes += 1
        if for_human:
            table.seats[seat].bot_moves += 1
        table.seats[seat].clock_out = False  # whoever made it, this decision's clock is done
        if abandoned:
            log.warning("table %s: abandoned after %d decisions", table.id, idx + 1)
            table.status = "over"
            table.result = result
            self._stop_clocks(table)
        if new.is_over:
            table.status = "over"
            table.result = result
            self._stop_clocks(table)
        self.after_change(table, "action", ack=ack)
        if for_human:  # the seat chips count the moves bots made for a player
            self._broadcast_seats(table)

    def after_change(
        self, table: LiveTable, cause: str, extra: list[dict[str, Any]] | None = None, ack: Ack = None
    ) -> None:
        self._reset_clocks(table, restart=cause == "undo")
        self.schedule(table)
        self._broadcast_state(table, cause, extra, ack)

    async def undo(self, conn: Connection, ref: Any = None) -> int:
        table, seat = conn.table, conn.seat
        async with table.lock:
            why = undo_refusal(table, seat)
            if why is not None:
                raise ServerError("undo_not_allowed", f"cannot undo: {why}")
            last = table.version - 1
            record = table.state.record()
            record["actions"] = record["actions"][:-1]
            state = replay(record)
            try:
                await self.run_db(self.db.remove_last_action, table.id, last)
            except Exception as exc:
                log.exception("table %s: cannot undo", table.id)
                raise ServerError("server_error", f"the undo could not be stored ({type(exc).__name__})") from None
            table.state = state
            table.actions_by.pop()
            table.action_seats.pop()
            table.rng_before.pop()
            table.reveals.pop()
            table.before_last = None
            table.changes += 1
            table.seat_logs.clear()
            while table.events and table.events[-1][0] == last:
                table.events.pop()
            for c in table.connections:
                c.sent_events = min(c.sent_events, len(table.events))
            self.after_change(
                table, "undo", [{"event": "undone", "data": {"seat": seat, "version": last}}], (conn, ref)
            )
            return table.version
