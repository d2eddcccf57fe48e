"""Per-game rows on disk: Parquet, CSV and JSON Lines through pyarrow; chunks, resume and shards.

A run with ``--out results.parquet`` keeps a work folder ``results.parquet.parts/`` beside it:
``spec.json`` (the run's :class:`RunSpec`) and one Parquet file per finished chunk, written to a
temporary name and renamed, so a file there is always whole. ``--resume`` plays only the chunks
that are missing; at the end the chunks are joined in game order into the output, and the work
folder is removed. The output is the same file, byte for byte, whichever backend and however
many workers played it, and however often it was interrupted.

Columns (one row per game): ``game, index, seed, players, options`` (JSON), ``bots`` (per seat),
``start_player``, ``turn_position`` (per seat: 0 = the first to play), ``scores, places,
winners``, ``decisions, rounds, turns, end_condition``, ``metrics`` (JSON, see
``parlor.analysis.metrics``) and ``record`` (JSON, with ``--records``); a ``--duplicate`` run adds
``deal`` and ``rotation`` (the seat rotation of that deal, 0 .. players-1). In CSV the list columns
are JSON text. The Parquet file's metadata holds the spec under ``parlor.spec``.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from parlor.core.errors import ParlorError

from .simulation import Row, RunSpec

FORMATS = {".parquet": "parquet", ".csv": "csv", ".jsonl": "jsonl"}
LIST_COLUMNS = ("bots", "turn_position", "scores", "places", "winners")


def _pa() -> Any:
    from parlor.extras import require

    # pyarrow is a default dependency; an install made before it was one still gets one line
    return require("pyarrow", "", "reading or writing per-game files")


def schema(duplicate: bool = False) -> Any:
    """The rows' columns; ``deal`` and ``rotation`` only for a duplicate run (other files keep their bytes)."""
    pa = _pa()
    ints = pa.list_(pa.int64())
    deal_columns = [("deal", pa.int64()), ("rotation", pa.int64())] if duplicate else []
    return pa.schema(
        [
            ("game", pa.string()),
            ("index", pa.int64()),
            ("seed", pa.int64()),
            ("players", pa.int64()),
            ("options", pa.string()),
            ("bots", pa.list_(pa.string())),
            ("start_player", pa.int64()),
            ("turn_position", ints),
            ("scores", ints),
            ("places", ints),
            ("winners", ints),
            ("decisions", pa.int64()),
            ("rounds", pa.int64()),
            ("turns", pa.int64()),
            ("end_condition", pa.string()),
            ("metrics", pa.string()),
            ("record", pa.string()),
            *deal_columns,
        ]
    )


def _duplicate(rows: Sequence[Row]) -> bool:
    return bool(rows) and rows[0].get("deal") is not None


def output_format(path: Path) -> str:
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise ParlorError(f"--out must end in {', '.join(FORMATS)}, got {path.name!r}")
    return fmt


def to_table(rows: Sequence[Row], spec: RunSpec | None = None) -> Any:
    pa = _pa()
    table = pa.Table.from_pylist(list(rows), schema=schema(_duplicate(rows)))
    if spec is not None:
        table = table.replace_schema_metadata({"parlor.spec": json.dumps(spec.to_json(), sort_keys=True)})
    return table


def write_rows(rows: Sequence[Row], path: Path, spec: RunSpec | None = None) -> None:
    """Write rows (already in game order) as Parquet, CSV or JSON Lines, by the file's suffix."""
    fmt = output_format(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    if fmt == "parquet":
        import pyarrow.parquet as pq

        pq.write_table(to_table(rows, spec), tmp, row_group_size=50_000)
    elif fmt == "csv":
        import pyarrow.csv as pcsv

        flat = [{k: (json.dumps(v) if k in LIST_COLUMNS else v) for k, v in r.items()} for r in rows]
        pa = _pa()
        fields = [pa.field(f.name, pa.string()) if f.name in LIST_COLUMNS else f for f in schema(_duplicate(rows))]
        pcsv.write_csv(pa.Table.from_pylist(flat, schema=pa.schema(fields)), tmp)
    else:
        with tmp.open("w", encoding="utf-8") as fh:
            for r in rows:
                fh.write(json.dumps(r, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n")
    os.replace(tmp, path)


def read_rows(path: str | Path) -> list[Row]:
    """Rows from a file written by :func:`write_rows` (any of the three formats), in game order."""
    path = Path(path)
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:  # not output_format: that one speaks of --out, which a reader did not give
        raise ParlorError(
            f"{path} is not a results file: give the rows of a run as parlor simulate --out writes them "
            "(.parquet, .csv or .jsonl)"
        )
    if not path.exists():
        raise ParlorError(f"no such file: {path}")
    try:
        if fmt == "parquet":
            import pyarrow.parquet as pq

            rows = pq.read_table(path).to_pylist()
        elif fmt == "csv":
            import pyarrow.csv as pcsv

            pa = _pa()
            types = {f.name: (pa.string() if f.name in LIST_COLUMNS else f.type) for f in schema(duplicate=True)}
            rows = pcsv.read_csv(path, convert_options=pcsv.ConvertOptions(column_types=types)).to_pylist()
            for r in rows:
                for k in LIST_COLUMNS:
                    r[k] = json.loads(r[k])
        else:
            with path.open(encoding="utf-8") as fh:
                rows = [json.loads(line) for line in fh if line.strip()]
    except (ValueError, OSError, KeyError) as exc:
        raise ParlorError(f"{path} is not a Parlor results file: {exc}") from None
    return sorted(rows, key=lambda r: r["index"])


def read_spec(path: str | Path) -> RunSpec | None:
    """The spec stored in a Parquet results file (None for CSV / JSON Lines)."""
    path = Path(path)
    if output_format(path) != "parquet":
        return None
    import pyarrow.parquet as pq

    meta = pq.read_schema(path).metadata or {}
    raw = meta.get(b"parlor.spec")
    return RunSpec.from_json(json.loads(raw)) if raw else None


class ChunkStore:
    """The work folder of one run: its spec and its finished chunks."""

    def __init__(self, out: Path, spec: RunSpec, *, resume: bool, shard: tuple[int, int] | None = None) -> None:
        self.out = out
        self.spec = spec
        self.folder = out.with_name(out.name + ".parts")
        spec_file = self.folder / "spec.json"
        identity = {**spec.to_json(), "shard": list(shard) if shard else None}
        if self.folder.exists():
            if not resume:
                raise ParlorError(
                    f"{self.folder} holds an unfinished run: add --resume to finish it, or remove the folder"
                )
            try:
                saved = json.loads(spec_file.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                raise ParlorError(f"{spec_file} is missing or damaged; remove {self.folder} to start again") from None
            if saved != identity:
                raise ParlorError(
                    f"--resume: {self.folder} holds a run with other settings: "
                    f"{differences(saved, identity, has='the unfinished run has')}; "
                    "use the same ones, or remove the folder to start again"
                )
        else:
            self.folder.mkdir(parents=True)
            spec_file.write_text(json.dumps(identity, sort_keys=True, indent=1) + "\n", encoding="utf-8")

    def chunk_path(self, number: int) -> Path:
        return self.folder / f"chunk-{number:06d}.parquet"

    def done(self) -> set[int]:
        return {int(p.stem.split("-")[1]) for p in self.folder.glob("chunk-*.parquet")}

    def write_chunk(self, number: int, rows: list[Row]) -> None:
        import pyarrow.parquet as pq

        tmp = self.folder / f".chunk-{number:06d}.tmp"
        pq.write_table(to_table(rows), tmp)
        os.replace(tmp, self.chunk_path(number))  # a chunk file is whole or absent

    def rows(self, numbers: Iterable[int]) -> list[Row]:
        import pyarrow.parquet as pq

        out: list[Row] = []
        for number in sorted(numbers):
            out.extend(pq.read_table(self.chunk_path(number)).to_pylist())
        return sorted(out, key=lambda r: r["index"])

    def finish(self, rows: Sequence[Row]) -> None:
        write_rows(rows, self.out, self.spec)
        shutil.rmtree(self.folder)


# The order in which differing settings are named: the ones a person types first; ``lineups``
# and ``bot_seed_offset`` follow from the bots and the command, so they are named only alone.
_SETTING_ORDER = (
    "game",
    "players",
    "bots",
    "games",
    "seed",
    "options",
    "seating",
    "duplicate",
    "records",
    "chunk_size",
    "metrics",
    "shard",
)
_DERIVED = ("lineups", "bot_seed_offset")


def _words(value: Any) -> str:
    """A setting's value as a person types it: ``random,random``, ``ruleset=v0.84``, ``none``."""
    if value is None or value == "" or value == [] or value == {}:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ",".join(f"{k}={json.dumps(v) if not isinstance(v, str) else v}" for k, v in sorted(value.items()))
    if isinstance(value, list | tuple):
        return ",".join(_words(v) if isinstance(v, list | tuple) else str(v) for v in value)
    return str(value)


def differences(saved: dict[str, Any], asked: dict[str, Any], *, has: str = "file has") -> str:
    """The settings that differ, each as ``bots differ: file has random,random; asked medium,random``,
    joined by `` / ``."""
    present = {*saved, *asked}
    keys = [k for k in (*_SETTING_ORDER, *sorted(present - {*_SETTING_ORDER, *_DERIVED})) if k in present]
    changed = [k for k in keys if saved.get(k) != asked.get(k)]
    if not changed:
        changed = [k for k in _DERIVED if saved.get(k) != asked.get(k)]
    parts = [
        f"{k} {'differ' if k.endswith('s') else 'differs'}: {has} {_words(saved.get(k))}; asked {_words(asked.get(k))}"
        for k in changed
    ]
    return " / ".join(parts) or "the saved settings differ"


def finished_run_differences(rows: Sequence[Row], path: Path, spec: RunSpec, shard: tuple[int, int] | None) -> str:
    """What differs between a finished results file (its stored spec, else what its rows show: a CSV
    or JSON Lines file keeps no spec) and the run asked for; "" when it is that run."""
    asked = spec.to_json()
    saved_spec = read_spec(path)
    if saved_spec is not None:
        found = differences(saved_spec.to_json(), asked)
        if saved_spec.to_json() != asked:
            return found
    else:
        first = rows[0] if rows else {}
        seen = {
            "game": first.get("game"),
            "players": first.get("players"),
            "options": json.loads(first["options"]) if first.get("options") else {},
            "records": first.get("record") not in (None, ""),  # CSV reads a missing record as ""
            "duplicate": first.get("deal") is not None,
        }
        wanted = {
            "game": spec.game,
            "players": spec.players,
            "options": dict(spec.options),
            "records": spec.records,
            "duplicate": spec.duplicate,
        }
        if rows and seen != wanted:
            return differences(seen, wanted)
        for row in rows:
            if list(row["bots"]) != list(spec.lineup(row["index"])):
                # the seats of one game: the bots by seat, as --bots lists them
                return differences({"bots": list(row["bots"])}, {"bots": list(spec.lineup(row["index"]))})
            if row["seed"] != spec.deal_seed(row["index"]):
                return f"seed differs: the file's games were dealt from another seed than {spec.seed}"
    indexes = sorted(r["index"] for r in rows)
    expected = [i for _, start, end in shard_chunks(spec, shard) for i in range(start, end)]
    if indexes != expected:
        if shard is not None:
            return f"shard differs: the file holds other games than shard {shard[0]}/{shard[1]} of this run"
        return differences({"games": len(indexes)}, {"games": len(expected)})
    return ""


def parse_shard(text: str | None) -> tuple[int, int] | None:
    """``"1/4"`` -> (1, 4): the second of four shards (numbered from 0)."""
    if text is None:
        return None
    try:
        i, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise ParlorError(f"--shard must look like i/n (e.g. 0/4), got {text!r}") from None
    if n < 1 or not 0 <= i < n:
        raise ParlorError(f"--shard {text}: need 0 <= i < n")
    return i, n


def shard_chunks(spec: RunSpec, shard: tuple[int, int] | None) -> list[tuple[int, int, int]]:
    chunks = spec.chunks()
    if shard is None:
        return chunks
    i, n = shard
    return [c for c in chunks if c[0] % n == i]


def merge(paths: Sequence[Path], out: Path) -> int:
    """Join shard files of one run into ``out``; every game exactly once, the same spec."""
    if not paths:
        raise ParlorError("merge needs at least one shard file")
    specs = {json.dumps(s.to_json(), sort_keys=True) if (s := read_spec(p)) else None for p in paths}
    if len(specs) != 1 or None in specs:
        raise ParlorError("the shards come from different runs (or carry no spec): they cannot be merged")
    spec = read_spec(paths[0])
    assert spec is not None
    rows: list[Row] = []
    for p in paths:
        rows.extend(read_rows(p))
    rows.sort(key=lambda r: r["index"])
    indexes = [r["index"] for r in rows]
    if len(set(indexes)) != len(indexes):
        raise ParlorError("a game appears in more than one shard")
    missing = spec.games - len(indexes)
    if missing:
        raise ParlorError(f"{missing} game(s) of the run are in none of the shards given")
    write_rows(rows, out, spec)
    return len(rows)


def execute(
    spec: RunSpec,
    *,
    out: Path | None = None,
    backend: str = "serial",
    workers: int = 1,
    address: str | None = None,
    resume: bool = False,
    shard: tuple[int, int] | None = None,
    progress: Callable[[int], None] | None = None,
    on_rows: Callable[[list[Row]], None] | None = None,
) -> list[Row]:
    """Play a run (or one shard of it) and return its rows in game order.

    With ``out`` every finished chunk is on disk the moment it completes; ``resume`` plays only
    the missing ones. ``progress`` is told the number of games finished so far and ``on_rows``
    gets each finished chunk's rows (those of kept chunks first, on resume), so a caller
    interrupted by Ctrl-C still holds every finished game.
    """
    from .simulation import check_backend, run

    check_backend(backend)
    spec.validate()
    chunks = shard_chunks(spec, shard)
    finished = 0
    if out is None:
        if resume:
            raise ParlorError("--resume needs --out (the file whose unfinished run to finish)")
        collected: list[Row] = []

        def keep(number: int, rows: list[Row]) -> None:
            nonlocal finished
            collected.extend(rows)
            finished += len(rows)
            if on_rows:
                on_rows(rows)
            if progress:
                progress(finished)

        run(spec, chunks, keep, backend=backend, workers=workers, address=address)
        return sorted(collected, key=lambda r: r["index"])
    output_format(out)
    _pa()  # before the work folder is made: an install without pyarrow is told so in one line
    parts = out.with_name(out.name + ".parts")
    if out.exists() and not parts.exists():
        if not resume:
            raise ParlorError(f"{out} exists; choose another --out or remove it")
        rows = read_rows(out)  # a finished run: nothing left to play, if it is this run
        found = finished_run_differences(rows, out, spec, shard)
        if found:
            raise ParlorError(
                f"--resume: {out} holds a finished run with other settings: {found}; "
                "use the same ones, or choose another --out"
            )
        if on_rows:
            on_rows(rows)
        if progress:
            progress(len(rows))
        return rows
    store = ChunkStore(out, spec, resume=resume, shard=shard)
    done = store.done()
    todo = [c for c in chunks if c[0] not in done]
    finished = sum(end - start for number, start, end in chunks if number in done)
    if on_rows and done:
        on_rows(store.rows(c[0] for c in chunks if c[0] in done))
    if progress:
        progress(finished)

    def write(number: int, rows: list[Row]) -> None:
        nonlocal finished
        store.write_chunk(number, rows)
        finished += len(rows)
        if on_rows:
            on_rows(rows)
        if progress:
            progress(finished)

    run(spec, todo, write, backend=backend, workers=workers, address=address)
    rows = store.rows(c[0] for c in chunks)
    store.finish(rows)
    return rows
