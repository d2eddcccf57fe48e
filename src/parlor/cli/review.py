"""``parlor review``: the judge's verdict on one seat's decisions in a saved game.

Prints each decision of the seat (what was played, the judge's best move, the win chance given
up, the label and, where it can be said for sure, why the better move is better), then a
summary (accuracy per phase, the three costliest decisions) and a text graph of the seat's win
chance over the game. The work is the library's (``parlor.review``); this module only words it.
Ctrl-C stops the judge and prints the decisions done so far; with ``--out`` they are saved and
``--resume`` finishes them later.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from parlor.core import ParlorError, load_record, replay_iter
from parlor.review import LABELS, Review, Reviewing, summarize
from parlor.review.explain import reason_words, why_heading
from parlor.review.settings import phase_words
from parlor.review.summary import HARMONIC_SHARE, INDIFFERENT_ROOM, share_accuracy
from parlor.text import text_module

from .common import clean_errors, console, err_console, seat_from_user

LABEL_STYLE = {
    "best": "bold green",
    "good": "green",
    "inaccuracy": "yellow",
    "mistake": "dark_orange",
    "blunder": "bold red",
}
# One character per decision under the graph (best and good leave it blank).
LABEL_MARK = {"inaccuracy": "i", "mistake": "m", "blunder": "B"}
GRAPH_ROWS = 8
GRAPH_WIDTH = 60
BLOCKS = " ▁▂▃▄▅▆▇█"


def review(
    file: Annotated[
        Path, typer.Argument(metavar="FILE", help="A saved record (JSON), e.g. from `parlor play --save`.")
    ],
    seat: Annotated[int, typer.Option("--seat", metavar="N", help="The seat to review, 1 = first.")],
    budget: Annotated[
        int | None,
        typer.Option("--budget", metavar="N", help="Search iterations per decision.", show_default="the game's"),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", metavar="N", help="The judge's seed (same seed, same review).")] = 0,
    out: Annotated[
        Path | None,
        typer.Option("--out", metavar="FILE", help="Also write the review as JSON (kept if you stop with Ctrl-C)."),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option("--resume", metavar="FILE", help="Carry on a review saved with --out (same record and settings)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the review as JSON instead of tables.")] = False,
) -> None:
    """Review one seat's decisions in a saved game: the best move, the loss and a label for each.

    The judge searches each decision from what that seat knew then (sampled deals of the cards
    it could not see, never the real ones); docs/review.md says how. Exit code 130 when stopped
    with Ctrl-C (what was done is printed, and saved with --out).
    """
    with clean_errors():
        record = load_record(file)
        start = next(replay_iter(record))  # a clear error for a bad record, before any work
        index = seat_from_user(seat, start.players)
        earlier = _read_review(resume) if resume is not None else None
        if budget is not None and budget < 1:
            raise ParlorError(f"--budget must be at least 1, got {budget}")
        try:
            reviewing = Reviewing(record, index, budget=budget, seed=seed, resume=earlier)
        except KeyboardInterrupt:  # while the record was being read: nothing judged yet
            err_console().print("Interrupted before any decision was reviewed.")
            raise typer.Exit(130) from None
        interrupted = _run(reviewing, show=not as_json)
        result = reviewing.review()
        if out is not None:
            out.write_text(json.dumps(result.to_json(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    if interrupted:
        err_console().print(
            f"Interrupted: {len(result.decisions)} of {result.decisions_total} decisions reviewed"
            + (f"; saved in {out} (carry on with --resume {out})." if out else "."),
            soft_wrap=True,
            markup=False,  # a path, printed as it is
        )
    if as_json:
        sys.stdout.write(json.dumps(result.to_json(), ensure_ascii=False, indent=1) + "\n")
    else:
        print_review(console(), record, result)
    if interrupted:
        raise typer.Exit(130)


def _read_review(path: Path) -> Review:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ParlorError(f"cannot read {path}: {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ParlorError(f"{path} is not a saved review (not JSON: {exc})") from None
    return Review.from_json(data)


def _run(reviewing: Reviewing, *, show: bool) -> bool:
    """Judge the remaining decisions with a progress bar (on a terminal); True if Ctrl-C stopped it."""
    bar = None
    if show and sys.stderr.isatty():
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        bar = Progress(
            TextColumn("reviewing"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("decisions"),
            TimeRemainingColumn(),
            console=err_console(),
            transient=True,
        )
        task = bar.add_task("reviewing", total=reviewing.total, completed=len(reviewing.done))
        bar.start()
    try:
        for _decision in reviewing.decisions():
            if bar is not None:
                bar.update(task, completed=len(reviewing.done))
    except KeyboardInterrupt:
        return True
    finally:
        if bar is not None:
            bar.stop()
    return False


def _percent(value: float) -> str:
    return f"{100 * value:.0f}%"


def _plus_minus(value: float) -> str:
    return "" if value == float("inf") else f" ±{100 * value:.0f}"


def print_review(out: Console, record: dict[str, Any], result: Review) -> None:
    states = list(replay_iter(record))
    game = states[0].game
    text = text_module(game)
    seat = result.seat
    judge = result.judge

    def words(step: int, action_json: dict[str, Any]) -> str:
        return text.describe_action(game.action_from_json(action_json), states[step].view(seat))

    out.print(
        f"[bold]{game.title}[/] · {result.players} players · seed {record['seed']} · review of seat {seat + 1}"
        f" · {result.decisions_total} decisions with a choice · {judge['budget']} iterations each, judge seed"
        f" {judge['seed']}"
    )
    if not result.decisions:
        out.print("No decision reviewed yet." if result.decisions_total else "This seat had no real choice to make.")
        return
    for number, d in enumerate(result.decisions, 1):
        played, best = d.played_estimate, d.best_estimate
        loss = "" if d.loss == 0 else f" · loss {_percent(d.loss)}{_plus_minus(d.loss_se)}"
        out.print(
            f"[bold]{number:>3}.[/] step {d.step + 1} · {phase_words(d.phase)} · [{LABEL_STYLE[d.label]}]{d.label}[/]"
            + loss,
            soft_wrap=True,
        )
        out.print(f"     played {words(d.step, d.played)} · win {_percent(played.win)}{_plus_minus(played.win_se)}")
        if d.label != "best":
            out.print(f"     best   {words(d.step, d.best)} · win {_percent(best.win)}{_plus_minus(best.win_se)}")
            if d.why:  # what the better move keeps, scores or denies (parlor.review.explain)
                reasons = " ".join(reason_words(r) for r in d.why)
                out.print(f"     why    {escape(why_heading())} {escape(reasons)}", soft_wrap=True)
    summary = summarize(result)
    _print_summary(out, summary, words)
    out.print(render_graph(summary["graph"], result.decisions_total))
    thresholds = judge["thresholds"]
    out.print(
        "[dim]win: the seat's expected win share with that move (± one standard error); loss: the win share given"
        f" up against the best move. Inaccuracy from {_percent(thresholds['inaccuracy'])}, mistake from"
        f" {_percent(thresholds['mistake'])}, blunder from {_percent(thresholds['blunder'])}, and only when the loss"
        f" is more than {judge['significance']:g} standard errors. Accuracy: each decision's loss, counted from one"
        " standard error (the win chance while the game is open, the points of score given away, priced in win"
        " chance, once it is decided), as a share of what the decision could cost (its best move against its"
        f" worst): none given away {_percent(share_accuracy(0.0))}, a tenth {_percent(share_accuracy(0.1))}, a"
        f" quarter {_percent(share_accuracy(0.25))}; decisions weighted by what was at stake and what they could"
        f" cost, those that could cost {INDIFFERENT_ROOM:g} point or less not counted; the game's accuracy"
        f" {_percent(1 - HARMONIC_SHARE)} their weighted mean, {_percent(HARMONIC_SHARE)} their harmonic mean"
        " (so a few ruinous decisions weigh more than many small slips)"
        ' (docs/review.md, "The summary").[/]'
    )


def _print_summary(out: Console, summary: dict[str, Any], words: Any) -> None:
    counts = ", ".join(
        f"[{LABEL_STYLE[label]}]{summary['labels'][label]} {label}[/]" for label in LABELS if summary["labels"][label]
    )
    done = "" if summary["complete"] else f" (of {summary['decisions_total']}: the review was stopped)"
    accuracy = _percent(summary["accuracy"])
    like = f" Played like the {summary['played_like']} bot." if summary["played_like"] else ""
    out.print(
        f"\n[bold]Summary[/]: {summary['decisions']} decisions{done}: {counts}. Accuracy {accuracy};"
        f" win chance given away, added up over the decisions, {100 * summary['total_loss']:.1f} percentage"
        f" points (mean {100 * summary['mean_loss']:.1f} per decision); best or good"
        f" {_percent(summary['good_share'])}.{like}"
    )
    phases = Table(title="Accuracy per phase", header_style="bold")
    for column in ("phase", "decisions", "accuracy", "given away", "best or good"):
        phases.add_column(column, justify="left" if column == "phase" else "right")
    for row in summary["phases"]:
        phases.add_row(
            phase_words(row["phase"]),
            str(row["decisions"]),
            _percent(row["accuracy"]),
            f"{100 * row['total_loss']:.1f}",
            _percent(row["good_share"]),
        )
    out.print(phases)
    if not summary["costliest"]:
        out.print("No decision gave up any win chance.")
        return
    out.print(f"[bold]The {len(summary['costliest'])} costliest decisions[/]")
    for worst in summary["costliest"]:
        label = worst["label"]
        out.print(
            f"  step {worst['step'] + 1} ({phase_words(worst['phase'])}): [{LABEL_STYLE[label]}]{label}[/],"
            f" {_percent(worst['loss'])} of win chance: played {words(worst['step'], worst['played'])};"
            f" best {words(worst['step'], worst['best'])}",
            soft_wrap=True,
        )


def render_graph(points: list[dict[str, Any]], total: int) -> str:
    """The seat's win chance with the best move at each reviewed decision, as a bar chart of
    block characters, with a row of marks under it (i inaccuracy, m mistake, B blunder).
    More decisions than the width are grouped (the mean of the group; its worst mark)."""
    if not points:
        return ""
    groups = max(1, -(-len(points) // GRAPH_WIDTH))
    columns: list[tuple[float, str]] = []
    rank = {label: i for i, label in enumerate(LABELS)}
    for i in range(0, len(points), groups):
        chunk = points[i : i + groups]
        worst = max((p["label"] for p in chunk), key=rank.__getitem__)
        columns.append((sum(p["best"] for p in chunk) / len(chunk), LABEL_MARK.get(worst, " ")))
    each = "a decision" if groups == 1 else f"{groups} decisions"
    lines = [f"[bold]Win chance over the game[/] (each column {each}, the win chance with the best move)"]
    for row in range(GRAPH_ROWS, 0, -1):
        label = {GRAPH_ROWS: "100%", GRAPH_ROWS // 2: " 50%"}.get(row, "    ")
        cells = []
        for value, _ in columns:
            eighths = round(value * GRAPH_ROWS * 8) - (row - 1) * 8
            cells.append(BLOCKS[max(0, min(8, eighths))])
        lines.append(f"{label} │[cyan]{escape(''.join(cells))}[/]")
    lines.append("     └" + "─" * len(columns))
    lines.append("      " + "".join(mark for _, mark in columns) + "  [dim]i inaccuracy, m mistake, B blunder[/]")
    return "\n".join(lines)


def register(app: typer.Typer) -> None:
    app.command()(review)
