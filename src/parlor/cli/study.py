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

from .common import check_output, clean_errors, console


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
    console().print(f"{count} games from {len(shards)} shard(s) -> {out}", markup=False)


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
        add(f"win rate, seat {s + 1}", d)
    for p, d in enumerate(result["by_turn_position"]):
        add(f"win rate, turn position {p + 1}", d)
    add("shared wins", result["ties"])
    for e, d in result["end_conditions"].items():
        add(f"ends by {e}", d)
    add("mean score", result["score"], pct=False)
    add("decisions per game", result["decisions"], pct=False)
    out.print(table)
    out.print(f"A: {a} ({result['games'][0]} games) · B: {b} ({result['games'][1]} games)", markup=False)


def analyze(
    game: Annotated[str, typer.Argument(help="The game, e.g. mottainai (see `parlor games`).")],
    report: Annotated[Path, typer.Option("--report", help="A new folder for the report (index.html, plots, data).")],
    players: Annotated[str, typer.Option("--players", "-p", help="Player counts: 2..5, 2,4 or 3.")] = "",
    bots: Annotated[
        str, typer.Option("--bots", help="Bot per seat, comma-separated; the last repeats (rotated across seats).")
    ] = "medium",
    games: Annotated[int, typer.Option("--games", "-n", help="Games per player count.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Base seed: the same seed gives the same report.")] = 1,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="A rule option as name=value (repeatable).")
    ] = None,
    against: Annotated[
        list[str] | None,
        typer.Option("--against", help="Also run with these options changed (name=value, repeatable) and compare."),
    ] = None,
    workers: Annotated[int, typer.Option("--workers", "-w", help="Processes or Ray workers; at least 1.")] = 1,
    backend: Annotated[str | None, typer.Option("--backend", help="serial, processes or ray.")] = None,
    address: Annotated[str | None, typer.Option("--address", help="With --backend ray: the cluster.")] = None,
    sweep: Annotated[
        list[str] | None,
        typer.Option(
            "--sweep",
            metavar="OPTION=V1,V2,...",
            help="Run every combination of these option values (repeatable: a grid) and compare each with the rest.",
        ),
    ] = None,
    metrics: Annotated[
        str | None, typer.Option("--metrics", metavar="FILE.py", help="Your own metrics module (docs/analysis.md).")
    ] = None,
) -> None:
    """Simulate a game at each player count and write an HTML balance report with plots and data."""
    from parlor.analysis.report import analyze as run_analyze
    from parlor.analysis.report import parse_players
    from parlor.bots.spec import check_bot_spec
    from parlor.core.options import options_to_json

    from .common import bot_list, get_game, parse_options
    from .main import _progress_bar

    with clean_errors():
        g = get_game(game)
        opts = parse_options(g, option)
        if players:
            counts = parse_players(players, g.min_players, g.max_players)
            for n in counts:
                g.check_players(n, opts)  # e.g. 6 Mottainai players need ruleset=v0.84
        else:  # every count these options allow
            counts = [n for n in range(g.min_players, g.max_players + 1) if _seats(g, n, opts)]
        named = {t.split("=", 1)[0].strip() for t in option or ()}
        given = {k: v for k, v in options_to_json(opts).items() if k in named}
        changed = None
        if against:
            b = parse_options(g, [*(option or []), *against])
            changed = {k: v for k, v in options_to_json(b).items() if options_to_json(opts)[k] != v}
        variants = _sweep_variants(g, option or [], sweep or [], options_to_json(opts))
        metrics_path = ""
        if metrics:
            from parlor.analysis.metrics import user_metrics_class

            metrics_path = str(Path(metrics).resolve()) if metrics.endswith(".py") else metrics
            user_metrics_class(metrics_path)  # a clear error now, before any game is played
        kinds = bot_list(bots, max(counts))[: len([k for k in bots.split(",") if k.strip()])]
        for kind in dict.fromkeys(kinds):
            check_bot_spec(kind, g)  # a bot that cannot start is named now, before the report folder is made
        if workers < 1:
            raise ParlorError(f"--workers must be at least 1, got {workers}")
        if games < 1:
            raise ParlorError(f"--games must be at least 1, got {games}")
        check_output(report, "--report", folder=True)
        # The command as it was understood (every default spelled out), to run it again.
        command = ["parlor", "analyze", g.name, "--players", players or f"{counts[0]}..{counts[-1]}"]
        command += ["--bots", bots, "--games", str(games), "--seed", str(seed)]
        command += [x for text in option or () for x in ("--option", text)]
        command += [x for text in against or () for x in ("--against", text)]
        command += [x for text in sweep or () for x in ("--sweep", text)]
        command += ["--metrics", metrics] if metrics else []
        command += ["--workers", str(workers)] + (["--backend", backend] if backend else [])
        command += ["--report", str(report)]
        bar_state: dict[str, object] = {}

        def progress(what: str, done: int) -> None:
            if bar_state.get("what") != what:
                if bar_state.get("bar") is not None:
                    bar_state["bar"].stop()  # type: ignore[attr-defined]
                bar_state["tick"], bar_state["bar"] = _progress_bar(games, what)
                bar_state["what"] = what
            if bar_state["tick"] is not None:
                bar_state["tick"](done)  # type: ignore[operator]

        try:
            index = run_analyze(
                g.name,
                players=counts,
                bots=kinds,
                games=games,
                seed=seed,
                options=given,
                against=changed,
                report=report,
                workers=workers,
                backend=backend or ("processes" if workers > 1 else "serial"),
                address=address,
                command=command,
                progress=progress,
                sweep=variants,
                metrics=metrics_path,
            )
        finally:
            if bar_state.get("bar") is not None:
                bar_state["bar"].stop()  # type: ignore[attr-defined]
    console().print(f"Report: {index}", markup=False)


def dataset(
    records: Annotated[
        list[Path], typer.Argument(help="Records: saved games (.json), JSON Lines, or rows with --records.")
    ],
    out: Annotated[Path, typer.Option("--out", help="The dataset (.parquet): one row per decision.")],
) -> None:
    """Turn game records into (observation, legal-action mask, action, outcome) rows for learning."""
    from parlor.analysis.records import decision_rows, read_records, write_dataset

    with clean_errors():
        if not str(out).endswith(".parquet"):
            raise ParlorError("the dataset is written as Parquet: --out must end in .parquet")
        check_output(out, "--out")
        rows = []
        count = 0
        for path in records:
            for record in read_records(path):
                try:
                    rows.extend(decision_rows(record, count))
                except ParlorError as exc:
                    raise ParlorError(f"{path}, record {count}: {exc}") from None
                count += 1
        write_dataset(rows, out)
    console().print(f"{len(rows)} decisions from {count} record(s) -> {out}", markup=False)


def _sweep_variants(game, option: list[str], sweep: list[str], base: dict) -> list[dict]:  # type: ignore[no-untyped-def]
    """``--sweep ruleset=revised,cs1999 --sweep show_oven_history=true,false`` -> every combination,
    each as the options it changes from the baseline (checked like ``--option``)."""
    import itertools

    from parlor.core.options import options_to_json

    from .common import parse_options

    axes: list[list[str]] = []
    for text in sweep:
        name, eq, values = text.partition("=")
        items = [v.strip() for v in values.split(",") if v.strip()]
        if not eq or not name.strip() or not items:
            raise ParlorError(f"--sweep must look like OPTION=V1,V2,...; got {text!r}")
        axes.append([f"{name.strip()}={v}" for v in items])
    variants = []
    for combo in itertools.product(*axes) if axes else ():
        chosen = options_to_json(parse_options(game, [*option, *combo]))
        variants.append({k: v for k, v in chosen.items() if base.get(k) != v})
    return variants


def _seats(game, players: int, options) -> bool:  # type: ignore[no-untyped-def]
    try:
        game.check_players(players, options)
    except ParlorError:
        return False
    return True


def register(app: typer.Typer) -> None:
    app.command()(dataset)
    app.command()(merge)
    app.command()(compare)
    app.command()(analyze)
