"""Records fit for datasets: who played, with which Parlor, and rows for learning.

:func:`annotate` adds to a record what a data set needs beyond the moves: the bot at each seat
(``bots``) and the package version that played it (``parlor_version``), and for a game of a
duplicate run its ``deal`` and seat ``rotation``. All are information only: replay ignores them,
and the record's ``engine_version`` (see docs/engine.md, "Record format version") decides whether
a record still replays.
"""

from __future__ import annotations

from typing import Any


def annotate(record: dict[str, Any], bots: list[str], deal: tuple[int, int] | None = None) -> dict[str, Any]:
    from parlor import __version__

    out = dict(record)
    out["bots"] = list(bots)
    if deal is not None:  # a duplicate run's game: which deal, in which seat rotation
        out["deal"], out["rotation"] = deal
    out["parlor_version"] = __version__
    return out


# ------------------------------------------------------------------------------- datasets
def encoder(game: Any) -> Any:
    """The game's observation encoder, if its package has one (``games/<game>/encoding.py`` with
    ``encode(state, seat)``), else None: rows then carry the seat's view as JSON."""
    import importlib

    package = type(game).__module__.rsplit(".", 1)[0]
    try:
        module = importlib.import_module(f"{package}.encoding")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.encoding":
            raise
        return None
    return getattr(module, "encode", None)


def decision_rows(record: dict[str, Any], record_index: int = 0) -> list[dict[str, Any]]:
    """One row per decision of a record: what the deciding seat saw, what it could do, what it
    did, and how the game ended for it.

    ``observation`` is the seat's view (JSON text; what that seat could know at the table, never
    more), or the game's encoding as a list of numbers in ``observation_vector`` where the game
    has an encoder; ``legal_actions`` are action ids (the mask: ``game.num_actions`` ids in all);
    ``action`` is the id taken; ``place``, ``score`` and ``win`` (1/k for a shared win) are the
    seat's outcome.
    """
    import json

    from parlor.core.record import replay_iter

    states = replay_iter(record)
    steps = record["actions"]
    first = next(states)
    game = first.game
    encode = encoder(game)
    rows: list[dict[str, Any]] = []
    state = first
    for step, (seat, action_json) in enumerate(steps):
        action = game.action_from_json(action_json)
        rows.append(
            {
                "game": game.name,
                "record": record_index,
                "step": step,
                "seat": seat,
                "players": state.players,
                "observation": json.dumps(state.view(seat), sort_keys=True, ensure_ascii=False),
                "observation_vector": [float(x) for x in encode(state, seat)] if encode else None,
                "legal_actions": sorted(game.action_id(a) for a in state.legal_actions(seat)),
                "num_actions": game.num_actions,
                "action": game.action_id(action),
            }
        )
        state = next(states)
    result = state.result()
    for row in rows:
        seat = row["seat"]
        row["place"] = result.places[seat]
        row["score"] = result.scores[seat]
        row["win"] = 1 / len(result.winners) if seat in result.winners else 0.0
    return rows


def read_records(path: Any) -> list[dict[str, Any]]:
    """Records from a saved game (``.json``), JSON Lines of records (``.jsonl`` — or of
    simulator rows with a ``record`` column) or a results file with records (``--records``)."""
    import json
    from pathlib import Path

    from parlor.core.errors import ParlorError
    from parlor.core.record import load_record

    path = Path(path)
    if path.suffix == ".json":
        return [load_record(path)]
    if path.suffix in (".parquet", ".csv") or path.suffix == ".jsonl":
        if path.suffix == ".jsonl":
            try:
                items = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
            except (OSError, ValueError) as exc:
                raise ParlorError(f"cannot read {path}: {exc}") from None
            if items and "actions" in items[0]:
                return items
        from .results import read_rows

        rows = read_rows(path)
        if rows and not rows[0].get("record"):
            raise ParlorError(f"{path} has no records: simulate with --records to keep them")
        return [json.loads(r["record"]) for r in rows]
    raise ParlorError(f"{path}: give records as .json, .jsonl, or simulator rows (.parquet, .csv, .jsonl)")


def write_dataset(rows: list[dict[str, Any]], path: Any) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from parlor.core.errors import ParlorError

    if not str(path).endswith(".parquet"):
        raise ParlorError("the dataset is written as Parquet: --out must end in .parquet")
    schema = pa.schema(
        [
            ("game", pa.string()),
            ("record", pa.int64()),
            ("step", pa.int64()),
            ("seat", pa.int64()),
            ("players", pa.int64()),
            ("observation", pa.string()),
            ("observation_vector", pa.list_(pa.float32())),
            ("legal_actions", pa.list_(pa.int64())),
            ("num_actions", pa.int64()),
            ("action", pa.int64()),
            ("place", pa.int64()),
            ("score", pa.int64()),
            ("win", pa.float64()),
        ]
    )
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), path)
