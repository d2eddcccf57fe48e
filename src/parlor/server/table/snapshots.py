"""Rebuilding a table's game from storage: by replaying its record, or from its snapshot.

A turn-based table leaves memory when it is idle (``Hub.evict``) and is loaded again on demand. At
eviction its last state is stored as a snapshot (``parlor_snapshots``: the engine's saved state,
``State.to_json``, and the RNG state before each decision, which undo needs); loading it reads that
row and the stored event log (``parlor_events``) instead of replaying every decision. The record stays the
truth: a snapshot is used only when it was taken at the record's current length and its history is
the record's decisions; otherwise (missing, stale, unreadable) the record is replayed and a line is
logged. Either way the table gets the same state, event log and undo data (tests/server/test_turn_based.py
checks that they serialize to the same bytes).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from parlor.core import Event, ParlorError

from .replays import start_state

SNAPSHOT_FORMAT = 2  # the layout of ``data`` below; another one is not read (the record is replayed)


@dataclass
class Rebuilt:
    """A table's game as the record leaves it: the state, the event log (decision index, event; the
    bot marks are not in it: ``with_bot_marks`` puts them back), the RNG state before each decision,
    and whether each decision made a private event (both for undo)."""

    state: Any
    events: list[tuple[int, Event]]
    rng_before: list[int]
    private: list[bool]
    from_snapshot: bool = False


class SnapshotUnusable(Exception):
    """The stored snapshot cannot stand for the record (the message says why): the record is replayed."""


def replay(game: Any, row: dict[str, Any]) -> Rebuilt:
    """Replay the table's record from its start; a decision that does not replay raises ParlorError."""
    state = start_state(game, row)
    rng_before: list[int] = []
    events: list[tuple[int, Event]] = []
    private: list[bool] = []
    for i, entry in enumerate(row["actions"]):
        rng_before.append(state.rng.state)
        try:
            new = state.apply(entry["seat"], game.action_from_json(entry["action"]))
        except ParlorError as exc:
            raise ParlorError(f"step {i} does not replay: {exc}") from None
        events.extend((i, e) for e in new)
        private.append(any(e.visible_to is not None for e in new))
    return Rebuilt(state, events, rng_before, private)


def snapshot_data(rebuilt: Rebuilt) -> str:
    """The snapshot of a table's game (JSON text). Its event log is not in it: every decision's events
    are stored with it (``parlor_events``) and read back with the snapshot (a whole game's events
    would make the snapshot several times larger)."""
    return json.dumps(
        {"format": SNAPSHOT_FORMAT, "state": rebuilt.state.to_json(), "rng_before": rebuilt.rng_before},
        separators=(",", ":"),
        ensure_ascii=False,
    )


def from_snapshot(game: Any, row: dict[str, Any]) -> Rebuilt:
    """The table's game from its stored snapshot (``row["snapshot"]``: (version, data) or None) and its
    stored events (``row["events"]``, as ``Database.events`` gives them), checked against the record;
    raises :class:`SnapshotUnusable` when they cannot stand for it."""
    stored = row.get("snapshot")
    if stored is None:
        raise SnapshotUnusable("no snapshot stored")
    version, text = stored
    actions = row["actions"]
    if version != len(actions):
        raise SnapshotUnusable(f"taken after {version} decisions, the record holds {len(actions)}")
    try:
        data = json.loads(text)
        if data.get("format") != SNAPSHOT_FORMAT:
            raise SnapshotUnusable(f"format {data.get('format')!r}, this server reads {SNAPSHOT_FORMAT}")
        saved = data["state"]
        history = saved["history"]
        # (a practice table's scenario may carry decisions made before its record started)
        if len(history) < len(actions) or history[len(history) - len(actions) :] != [
            [a["seat"], a["action"]] for a in actions
        ]:
            raise SnapshotUnusable("its decisions are not the record's")
        state = game.load_state(saved)
        scenario = row.get("scenario")
        if scenario:  # what ``start_state`` gives a replayed one (its record names where it started)
            state._scenario = json.loads(scenario) if isinstance(scenario, str) else scenario
        events = [
            (
                e["action_idx"],
                Event(e["kind"], e["data"], None if e["visible_to"] is None else frozenset(e["visible_to"])),
            )
            for e in row["events"]
        ]
        rng_before = [int(r) for r in data["rng_before"]]
        if len(rng_before) != len(actions) or any(
            type(i) is not int or not 0 <= i < len(actions) or not isinstance(e.data, dict) for i, e in events
        ):
            raise SnapshotUnusable("its RNG states or the stored events do not fit the record")
    except SnapshotUnusable:
        raise
    except Exception as exc:  # damaged JSON, a state the engine refuses (StateError), a wrong field
        raise SnapshotUnusable(f"unreadable ({type(exc).__name__}: {exc})") from None
    private = [False] * len(actions)
    for i, e in events:
        if e.visible_to is not None:
            private[i] = True
    return Rebuilt(state, events, rng_before, private, from_snapshot=True)
