"""The study commands beyond ``simulate`` and ``tournament``: merge, compare, analyze, dataset.

Registered on the main ``parlor`` app by ``register``; the work itself lives in
``parlor.analysis``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from parlor.core import ParlorError

from .common import clean_errors, console


def merge(
    out: Annotated[Path, typer.Argument(help="The merged file (.parquet, .csv or .jsonl).")],
    shards: Annotated[list[Path], typer.Argument(help="Shard files from `parlor simulate --shard i/n` (Parquet).")],
) -> None:
    """Join the shards of one simulation run (every game exactly once) into one file."""
    from parlor.analysis.results import merge as merge_files

    with clean_errors():
        if out.exists():
            raise ParlorError(f"{out} exists; choose another name or remove it")
        count = merge_files(shards, out)
    console().print(f"{count} games from {len(shards)} shard(s) -> {out}")


def compare(
    a: Annotated[Path, typer.Argument(help="Rows of run A (e.g. --option ruleset=cs1999).")],
    b: Annotated[Path, typer.Argument(help="Rows of run B (e.g. the defaults).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Two runs of one game side by side: each difference A - B with its 95% interval."""
    from rich.table import Table

    from parlor.analysis.results import read_rows
    from parlor.analysis.summary import compare as compare_runs

    with clean_errors():
        result = compare_runs(read_rows(a), read_rows(b))
    if as_json:
        sys.stdout.write(json.dumps(result, indent=1, sort_keys=True) + "\n")
        return
    out = console()
    table = Table(title=f"{result['game']}, {result['players']} players: A - B", header_style="bold")
    for col in ("measure", "A", "B", "A - B [95% CI]", ""):
        table.add_column(col, justify="left" if col == "measure" else "right")

    def add(name: str, d: dict, pct: bool = True) -> None:
        low, high = d["ci95"]
        fmt = (lambda x: f"{x:+.1%}") if pct else (lambda x: f"{x:+.2f}")
        plain = (lambda x: f"{x:.1%}") if pct else (lambda x: f"{x:.2f}")
        av = d["a"]["rate"] if pct else d["a_mean"]
        bv = d["b"]["rate"] if pct else d["b_mean"]
        verdict = "differs" if low > 0 or high < 0 else ""
        table.add_row(name, plain(av), plain(bv), f"{fmt(d['difference'])} [{fmt(low)}, {fmt(high)}]", verdict)

    for s, d in enumerate(result["by_seat"]):
        add(f"win rate, seat {s}", d)
    for p, d in enumerate(result["by_turn_position"]):
        add(f"win rate, turn position {p}", d)
    add("shared wins", result["ties"])
    for e, d in result["end_conditions"].items():
        add(f"ends by {e}", d)
    add("mean score", result["score"], pct=False)
    add("decisions per game", result["decisions"], pct=False)
    out.print(table)
    out.print(f"A: {a} ({result['games'][0]} games) · B: {b} ({result['games'][1]} games)")


def register(app: typer.Typer) -> None:
    app.command()(merge)
    app.command()(compare)
