"""Records: the save and replay format of every game.

A record is plain JSON: ``{game, engine_version, options, players, seed, actions}``
where ``actions`` is ``[[seat, action_json], ...]``, the decisions in order; a game set up
from a scenario also holds ``scenario`` (the replay starts from it). Other keys (``bots``,
``parlor_version``) are information and do not change the replay. Since
every game is deterministic under its seed, a record rebuilds every state exactly.

``engine_version`` is the format version (``parlor.core.ENGINE_VERSION``); a record of
another version is refused with a :class:`RecordError` (docs/engine.md, "Format versions").
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from .errors import ParlorError, RecordError
from .game import ENGINE_VERSION, State

REQUIRED = ("game", "players", "seed", "actions")


def _start(record: Any) -> tuple[State, list[Any]]:
    from parlor import games

    if not isinstance(record, Mapping):
        raise RecordError(f"a record must be a JSON object, got {type(record).__name__}")
    missing = [k for k in REQUIRED if k not in record]
    if missing:
        raise RecordError(f"record is missing {', '.join(missing)}")
    try:  # the game first: a record of an unknown game is that, whatever its version says
        game = games.get(record["game"])
    except ParlorError as exc:
        raise RecordError(f"record names {exc}") from None
    # A hand-written record without a version is read as the current format, and a version
    # written as a number (2 for "2") as the same version.
    version = record.get("engine_version", ENGINE_VERSION)
    if type(version) is int and str(version) == ENGINE_VERSION:
        version = ENGINE_VERSION
    if version != ENGINE_VERSION:
        raise RecordError(
            f"record was made by engine version {version!r}; this engine is {ENGINE_VERSION!r} and replays"
            f" only its own format (the rules of which decisions are asked changed, so an older action list"
            f" does not replay; docs/engine.md, 'Format versions')"
        )
    seed = record["seed"]
    if type(seed) is not int:
        raise RecordError(f"record seed must be an integer, got {seed!r}")
    actions = record["actions"]
    if not isinstance(actions, list):
        raise RecordError("record 'actions' must be a list of [seat, action] pairs")
    try:
        if record.get("scenario") is not None:
            state = game.scenario(record["scenario"])  # a game set up from a scenario starts there
        else:
            state = game.new_game(record["players"], seed, game.options_from_json(record.get("options")))
    except ParlorError as exc:
        raise RecordError(f"record cannot start the game: {exc}") from None
    return state, actions


def _step(state: State, index: int, entry: Any) -> None:
    if not isinstance(entry, (list, tuple)) or len(entry) != 2:
        raise RecordError(f"step {index}: expected [seat, action], got {entry!r}")
    seat, action_json = entry
    if type(seat) is not int:
        raise RecordError(f"step {index}: seat must be an integer, got {seat!r}")
    try:
        state.apply(seat, state.game.action_from_json(action_json))
    except ParlorError as exc:
        # ``step`` indexes the record's list of actions; the seat is named as people count it, from 1.
        raise RecordError(f"step {index} ({action_json!r} by Seat {seat + 1}) does not replay: {exc}") from None


def replay_iter(record: Any) -> Iterator[State]:
    """Yield the state before the first decision and after every step (fresh copies)."""
    state, actions = _start(record)
    yield state.clone()
    for index, entry in enumerate(actions):
        _step(state, index, entry)
        yield state.clone()


def replay(record: Any) -> State:
    """The state a record ends in; a corrupt record raises :class:`RecordError` naming the step."""
    state, actions = _start(record)
    for index, entry in enumerate(actions):
        _step(state, index, entry)
    return state


def load_record(path: str | Path) -> dict[str, Any]:
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise RecordError(f"cannot read record {path}: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8-sig")  # a byte-order mark (some Windows editors add one) is fine
    except UnicodeDecodeError as exc:
        raise RecordError(f"{path} is not a saved record: not UTF-8 text (byte {exc.start})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}") from None
    if not isinstance(data, dict):
        raise RecordError(f"{path}: a record must be a JSON object")
    return data


def save_record(state: State, path: str | Path) -> None:
    Path(path).write_text(json.dumps(state.record(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
