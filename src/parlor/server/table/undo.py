"""The rules for taking back a decision (docs/protocol.md, "Undo").

Two steps, because the second costs a few replays of the decision: :func:`quick_refusal` (read off the
table: whose decision, by whom, private events, chance) decides ``can_undo`` in every state frame;
:func:`undo_refusal` adds :func:`reveals_hidden` and runs only when an undo is asked, its answer kept
per decision (``LiveTable.reveals``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from parlor.core import Event, State, replay
from parlor.core.rng import FastRng

if TYPE_CHECKING:
    from .live import LiveTable

REVEAL_SAMPLES = 8  # hidden arrangements tried per seat when checking what a decision showed
REVEAL_TRIES = 64  # arrangements drawn at most per other seat to find that many where the action is legal


def _public(events: list[Event]) -> list[tuple[str, Any]]:
    return [(e.kind, e.data) for e in events if e.visible_to is None]


def shows_hidden(before: State, seat: int, action: Any, events: list[Event], salt: int) -> bool:
    """Did ``seat``'s decision turn up something ``seat`` could not know (a card from the deck, …)?

    Redo the decision in positions that look the same to ``seat`` but with everything hidden from it
    dealt afresh (``determinize``). If the public events of the decision differ in any of them, they
    depended on hidden cards: undoing it would give those cards back to the deck while everyone has
    seen them."""
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


def shows_others_hidden(before: State, seat: int, action: Any, events: list[Event], salt: int) -> bool:
    """Did the decision show the *other* players something hidden from them that the mover knew (a card
    the mover had seen on the deck, flipped face up; a forced move that laid open a hand)?

    For each other seat, redo the decision in positions that look the same to that seat. Positions
    where the action is not even legal are passed over: an action that names a card in the mover's
    hand shows that card by itself, and taking it back returns the card to the hand it came from,
    which is an ordinary take-back. Where the action is legal but its public events differ, they
    depended on something that seat could not know, which everyone has now seen: an undo would hide it
    again (back into the deck) while they remember it."""
    expected = _public(events)
    rng = FastRng(salt ^ 0x5F3759DF)
    for other_seat in range(before.players):
        if other_seat == seat:
            continue
        legal = 0
        for _ in range(REVEAL_TRIES):
            if legal >= REVEAL_SAMPLES:
                break
            try:
                world = before.determinize(other_seat, rng)
                if action not in world.legal_actions(seat):
                    continue
                shown = _public(world.apply(seat, action))
            except Exception:  # the engine refuses the action in that arrangement: no evidence either way
                continue
            legal += 1
            if shown != expected:
                return True
    return False


def quick_refusal(table: LiveTable, seat: int | None) -> str | None:
    """Why ``seat`` may not undo now by the rules read off the table (cheap: every frame asks it), or
    None if those allow it."""
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
    deadline = table.clock_at[last]  # the turn clock of that decision (None: none ran)
    if deadline is not None and deadline <= datetime.now(UTC):
        # Taking it back would ask the decision again with no time left: an undo gives no time back,
        # so moving and undoing at the deadline must not keep a turn alive.
        return "the time for that decision ran out"
    if table.last_private[last]:
        return "something hidden was revealed since (a private event)"
    if table.rng_before[last] != table.state.rng.state:
        return "chance happened since (a shuffle or a random draw)"
    return None


def undo_refusal(table: LiveTable, seat: int | None) -> str | None:
    """Why ``seat`` may not undo now, or None if it may: the quick rules, then whether the decision
    showed something hidden, to its mover or to the others (checked once per decision, when an undo
    is first asked: it costs a few replays)."""
    why = quick_refusal(table, seat)
    if why is not None:
        return why
    assert seat is not None
    last = table.version - 1
    if table.reveals[last] is None:
        before = table.before_last
        if before is None:  # restored from the database, or an undo since: rebuilt from the record
            record = table.state.record()
            record["actions"] = record["actions"][:-1]
            before = replay(record)
        action = table.state.history()[-1][1]
        events = [e for i, e in table.events if i == last]
        salt = table.seed ^ last
        table.reveals[last] = shows_hidden(before, seat, action, events, salt) or shows_others_hidden(
            before, seat, action, events, salt
        )
    if table.reveals[last]:
        return "the decision turned up something hidden"
    return None
