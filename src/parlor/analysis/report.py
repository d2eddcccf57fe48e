"""``parlor analyze``: simulate a game at several player counts and write an HTML balance report.

The report folder holds ``index.html`` (tables with 95% intervals, the plots, the exact command
and the versions that made it), ``plots/*.png`` (matplotlib) and ``data/`` with one Parquet file
of per-game rows per player count and the summaries as JSON, so every number on the page can be
checked or studied further. Everything on the page comes from those files.
"""

from __future__ import annotations

import html
import json
import platform
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from parlor import games as registry
from parlor.bots.spec import bot_labels
from parlor.core.errors import ParlorError
from parlor.core.options import option_text

from .results import execute
from .simulation import RunSpec, package_version
from .summary import compare, summarize

PLOT_DPI = 80


def parse_players(text: str, lowest: int, highest: int) -> list[int]:
    """``"2..5"``, ``"2,4"`` or ``"3"`` -> player counts, each within the game's range."""
    try:
        if ".." in text:
            a, b = (int(x) for x in text.split("..", 1))
            counts = list(range(a, b + 1))
        else:
            counts = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ParlorError(f"--players must look like 2..5, 2,4 or 3; got {text!r}") from None
    if not counts:
        raise ParlorError(f"--players {text!r} names no player count")
    bad = [c for c in counts if not lowest <= c <= highest]
    if bad:
        raise ParlorError(f"this game is for {lowest}-{highest} players; --players asks for {bad}")
    return counts


def _bar(upper: float, lower: float) -> float:
    """An error bar's length, never below 0: matplotlib refuses a negative one, and an interval's
    end may sit a rounding error past its estimate (a rate of 0 over two games)."""
    return max(0.0, upper - lower)


def versions() -> dict[str, str]:
    out = {"parlor": package_version(), "python": platform.python_version()}
    for name in ("pyarrow", "matplotlib", "ray"):
        try:
            module = __import__(name)
            out[name] = getattr(module, "__version__", "?")
        except ModuleNotFoundError:
            out[name] = "not installed"
    return out


def analyze(
    game_name: str,
    *,
    players: Sequence[int],
    bots: list[str],
    games: int,
    seed: int,
    options: dict[str, Any],
    against: dict[str, Any] | None,
    report: Path,
    workers: int = 1,
    backend: str = "serial",
    address: str | None = None,
    command: Sequence[str] | None = None,
    progress: Callable[[str, int], None] | None = None,
    sweep: Sequence[dict[str, Any]] = (),
    metrics: str = "",
) -> Path:
    """Run the simulations and write the report; returns the path of ``index.html``.

    ``against``: one variant B (options changed from A). ``sweep``: more variants (``V1``,
    ``V2``, ... each the options it changes from A, e.g. a grid from ``--sweep``), each
    compared with A in the report's sweep table. ``metrics``: a user metrics module
    (``parlor.analysis.metrics``)."""
    from parlor.extras import require

    from .simulation import check_backend

    game = registry.get(game_name)
    if report.exists() and any(report.iterdir()):
        raise ParlorError(f"{report} is not empty; choose a new --report folder")
    check_backend(backend)  # before the report folder is made
    require("matplotlib", "", "parlor analyze")  # a default dependency, missing from an older install
    require("pyarrow", "", "parlor analyze")
    data = report / "data"
    plots = report / "plots"
    data.mkdir(parents=True, exist_ok=True)
    plots.mkdir(exist_ok=True)
    sections = []
    started = time.perf_counter()
    for n in players:
        kinds = (bots + [bots[-1]] * n)[:n] if len(bots) <= n else None
        if kinds is None:
            raise ParlorError(f"{len(bots)} bots given for {n} seat(s)")
        runs = {"A": options}
        if against is not None:
            runs["B"] = {**options, **against}
        for v, changed in enumerate(sweep, 1):
            runs[f"V{v}"] = {**options, **changed}
        rows_of: dict[str, list[dict[str, Any]]] = {}
        for label, opts in runs.items():
            spec = RunSpec(
                game=game.name,
                players=n,
                games=games,
                seed=seed,
                bots=tuple(kinds),
                options=opts,
                chunk_size=max(1, min(500, -(-games // 16))),  # not by workers: the same files at any -w
                metrics=metrics,
            )
            path = data / f"{game.name}-{n}p{'' if label == 'A' else '-' + label}.parquet"

            def tell(done: int, n: int = n, label: str = label) -> None:
                if progress:
                    progress(f"{n} players{'' if label == 'A' else f' ({label})'}", done)

            rows_of[label] = execute(spec, out=path, backend=backend, workers=workers, address=address, progress=tell)
        summary = summarize(rows_of["A"])
        comparison = compare(rows_of["A"], rows_of["B"]) if "B" in rows_of else None
        swept = [
            {"label": f"V{v}", "changed": changed, "comparison": compare(rows_of[f"V{v}"], rows_of["A"])}
            for v, changed in enumerate(sweep, 1)
        ]
        (data / f"{game.name}-{n}p-summary.json").write_text(
            json.dumps({"summary": summary, "comparison": comparison, "sweep": swept}, indent=1, sort_keys=True) + "\n",
            encoding="utf-8",
        )
        images = _plots(game.name, n, summary, plots)
        sections.append(_section(game, n, summary, comparison, images) + _sweep_section(game, n, swept))
    seconds = time.perf_counter() - started
    files = sorted(p.relative_to(report).as_posix() for p in data.iterdir())
    page = _page(game, players, bots, games, seed, options, against, command, sections, seconds, files)
    index = report / "index.html"
    index.write_text(page, encoding="utf-8")
    return index


# ---------------------------------------------------------------------------------------- plots
def _plots(game: str, n: int, s: dict[str, Any], folder: Path) -> list[tuple[str, str]]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"font.size": 9, "svg.hashsalt": "parlor", "figure.max_open_warning": 0})
    out: list[tuple[str, str]] = []

    def save(fig: Any, name: str, alt: str) -> None:
        fig.tight_layout()
        path = folder / f"{game}-{n}p-{name}.png"
        fig.savefig(path, dpi=PLOT_DPI, metadata={"Software": None})
        plt.close(fig)
        out.append((f"plots/{path.name}", alt))

    def rate_bars(ax: Any, labels: list[str], rates: list[dict[str, Any]], baseline: float | None) -> None:
        values = [r["rate"] for r in rates]
        low = [_bar(r["rate"], r["ci95"][0]) for r in rates]
        high = [_bar(r["ci95"][1], r["rate"]) for r in rates]
        ax.bar(labels, values, yerr=[low, high], capsize=4, color="#4c78a8")
        if baseline is not None:
            ax.axhline(baseline, color="#e45756", linestyle="--", linewidth=1, label=f"1/{n}")
            ax.legend(loc="upper right")
        ax.set_ylim(0, min(1.0, max(r["ci95"][1] for r in rates) * 1.15 + 0.02))

    fig, axes = plt.subplots(1, 2, figsize=(8, 3))
    positions = s["by_turn_position"]  # counted from 1 on the page (the data's turn_position is from 0)
    rate_bars(axes[0], [str(p["position"] + 1) for p in positions], [p["wins"] for p in positions], 1 / n)
    axes[0].set_title("Win rate by turn position (1 = first)")
    rate_bars(axes[1], [str(p["seat"] + 1) for p in s["by_seat"]], [p["wins"] for p in s["by_seat"]], 1 / n)
    axes[1].set_title("Win rate by seat")
    save(fig, "wins", f"Win rate by turn position and by seat, {n} players, with 95% intervals")

    fig, axes = plt.subplots(1, 2, figsize=(8, 3))
    for ax, key, title in ((axes[0], "scores", "Scores (every seat)"), (axes[1], "winning_score", "Winning score")):
        hist = s[key].get("histogram")
        if hist:
            ax.bar([h[0] for h in hist], [h[1] for h in hist], color="#72b7b2", width=0.8)
        ax.set_title(title)
        ax.set_ylabel("count")
    save(fig, "scores", f"Score distributions, {n} players")

    fig, ax = plt.subplots(figsize=(8, 2.6))
    decisions = s["length"]["decisions"]
    hist = decisions.get("histogram")
    if hist:
        ax.bar([h[0] for h in hist], [h[1] for h in hist], color="#f58518")
    else:
        bins = decisions["bins"]
        ax.bar([b[0] for b in bins], [b[2] for b in bins], width=bins[0][1] - bins[0][0], align="edge", color="#f58518")
    ax.set_ylabel("games")
    ax.set_title("Game length (decisions)")
    save(fig, "length", f"Game length in decisions, {n} players")

    featured = _featured_metrics(s)
    if featured:
        labels = [name for name, _ in featured]
        fig, ax = plt.subplots(figsize=(8, 0.28 * len(labels) + 1.0))
        diffs = [f["difference"] for _, f in featured]
        err = [
            [_bar(d, f["ci95"][0]) for d, (_, f) in zip(diffs, featured)],
            [_bar(f["ci95"][1], d) for d, (_, f) in zip(diffs, featured)],
        ]
        ax.barh(labels, diffs, xerr=err, capsize=3, color="#54a24b")
        ax.axvline(0, color="black", linewidth=0.8)
        ax.invert_yaxis()
        ax.set_title("Win rate with the feature minus without (95% interval)")
        save(fig, "features", f"Features by their effect on win rate, {n} players")
    rates = s["metrics"]["rates"]
    if rates:
        # Every rate, in the order of the table below (keeping only the 20 with the
        # most trials would silently drop rows at 3+ players).
        top = list(rates.items())
        fig, ax = plt.subplots(figsize=(8, 0.22 * len(top) + 1.0))
        ax.barh(
            [k for k, _ in top],
            [r["rate"] for _, r in top],
            xerr=[[_bar(r["rate"], r["ci95"][0]) for _, r in top], [_bar(r["ci95"][1], r["rate"]) for _, r in top]],
            capsize=3,
            color="#b279a2",
        )
        ax.set_xlim(0, 1)
        ax.invert_yaxis()
        ax.set_title(f"Game rates, all {len(top)} (pooled over games, 95% interval)")
        save(fig, "rates", f"Every one of the game's {len(top)} rates, {n} players")
    return out


def _featured_metrics(s: dict[str, Any], limit: int = 20) -> list[tuple[str, dict[str, Any]]]:
    """The features seen often enough to say something, largest effect on win rate first."""
    features = s["metrics"]["features"]
    seen = [(k, f["win_rate"]) for k, f in features.items() if f["seat_games"] >= 20]
    seen.sort(key=lambda kv: -abs(kv[1]["difference"]))
    return seen[:limit]


# ----------------------------------------------------------------------------------------- HTML
def _pct(r: dict[str, Any]) -> str:
    low, high = r["ci95"]
    return f"{r['rate']:.1%} <span class=ci>[{low:.1%}, {high:.1%}]</span>"


def _signed(d: dict[str, Any], pct: bool = True) -> str:
    low, high = d["ci95"]
    f = (lambda x: f"{x:+.1%}") if pct else (lambda x: f"{x:+.2f}")
    cls = " class=sig" if low > 0 or high < 0 else ""
    return f"<span{cls}>{f(d['difference'])}</span> <span class=ci>[{f(low)}, {f(high)}]</span>"


def _table(headers: list[str], rows: list[list[str]], cls: str = "") -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table class='{cls}'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _dist(d: dict[str, Any]) -> str:
    q = d["quantiles"]
    return (
        f"{d['mean']:.2f} <span class=ci>[{d['mean_ci95'][0]:.2f}, {d['mean_ci95'][1]:.2f}]</span>"
        f" · sd {d['sd']:.2f} · median {q['0.5']:g} · 5-95% {q['0.05']:g} to {q['0.95']:g}"
    )


def _section(game: Any, n: int, s: dict[str, Any], comparison: dict[str, Any] | None, images: list) -> str:
    e = html.escape
    name = bot_labels(b["bot"] for b in s["by_bot"])  # a plug-in by its name, not its file path
    parts = [
        f"<section id='p{n}'><h2>{n} players</h2>",
        f"<p>{s['games']} games. Baseline win rate 1/{n} = {1 / n:.1%}.</p>",
    ]
    parts.append("<h3>Wins by turn position and by seat</h3>")
    parts.append(
        _table(
            ["turn position (1 = first)", "win rate [95% CI]", "mean score"],
            [[str(p["position"] + 1), _pct(p["wins"]), f"{p['score']['mean']:.2f}"] for p in s["by_turn_position"]],
            "positions",
        )
    )
    parts.append(
        _table(
            ["seat", "win rate [95% CI]", "mean score"],
            [[str(p["seat"] + 1), _pct(p["wins"]), f"{p['score']['mean']:.2f}"] for p in s["by_seat"]],
            "seats",
        )
    )
    parts.append(
        _table(
            ["bot", "seat-games", "win rate [95% CI]", "mean score"],
            [
                [e(name[b["bot"]]), str(b["seat_games"]), _pct(b["wins"]), f"{b['score']['mean']:.2f}"]
                for b in s["by_bot"]
            ],
            "bots",
        )
    )
    parts.append("<h3>Scores, length, ties, endings</h3>")
    rows = [
        ["score (every seat)", _dist(s["scores"])],
        ["winning score", _dist(s["winning_score"])],
        ["winner's margin", _dist(s["margin"])],
    ]
    rows += [[f"length: {k}", _dist(v)] for k, v in s["length"].items()]
    rows.append(["shared wins (ties)", _pct(s["ties"])])
    rows += [[f"ends by {e(k)}", _pct(v)] for k, v in s["end_conditions"].items()]
    parts.append(_table(["measure", "value [95% CI]"], rows, "distributions"))
    for src, alt in images:
        parts.append(f"<figure><img src='{e(src)}' alt='{e(alt)}'><figcaption>{e(alt)}</figcaption></figure>")
    metrics = s["metrics"]
    if metrics["rates"]:
        parts.append("<h3>The game's rates</h3>")
        parts.append(
            _table(
                ["rate", "successes / trials", "rate [95% CI]"],
                [[e(k), f"{r['count']:g} / {r['n']:g}", _pct(r)] for k, r in metrics["rates"].items()],
                "rates",
            )
        )
    if metrics["values"]:
        parts.append("<h3>The game's counts per game</h3>")
        parts.append(
            _table(["count", "mean [95% CI] · spread"], [[e(k), _dist(v)] for k, v in metrics["values"].items()])
        )
    if metrics["features"]:
        parts.append("<h3>Features: win rate of the seats that had it against those that did not</h3>")
        rows = []
        for k, f in metrics["features"].items():
            w = f["win_rate"]
            rows.append(
                [
                    e(k),
                    f"{f['presence']:.1%}",
                    _pct(w["a"]),
                    _pct(w["b"]),
                    _signed(w),
                    "" if f["mean_score_with"] is None else f"{f['mean_score_with']:.2f}",
                    "" if f["mean_score_without"] is None else f"{f['mean_score_without']:.2f}",
                ]
            )
        parts.append(
            _table(
                [
                    "feature",
                    "seat-games with it",
                    "win rate with",
                    "without",
                    "difference [95% CI]",
                    "score with",
                    "without",
                ],
                rows,
                "features",
            )
        )
    if comparison:
        parts.append("<h3>Options B against A</h3>")
        parts.append(f"<p>A: <code>{e(json.dumps(comparison['a_options']))}</code></p>")
        rows = [[f"win rate, turn position {p + 1}", _signed(d)] for p, d in enumerate(comparison["by_turn_position"])]
        rows += [["shared wins", _signed(comparison["ties"])]]
        rows += [[f"ends by {e(k)}", _signed(d)] for k, d in comparison["end_conditions"].items()]
        rows += [
            ["mean score", _signed(comparison["score"], False)],
            ["decisions", _signed(comparison["decisions"], False)],
        ]
        parts.append(_table(["measure", "A - B [95% CI]"], rows, "comparison"))
    parts.append("</section>")
    return "\n".join(parts)


def _sweep_section(game: Any, n: int, swept: list[dict[str, Any]]) -> str:
    """Every sweep variant against the baseline A: the same measures, with intervals."""
    if not swept:
        return ""
    e = html.escape
    rows = []
    for v in swept:
        c = v["comparison"]
        # as typed after --sweep (a seat option's seats from 1); the summary JSON keeps the values
        changed = ", ".join(f"{k}={option_text(game.Options, k, x)}" for k, x in sorted(v["changed"].items()))
        changed = changed or "(as A)"
        rows.append(
            [
                f"{e(v['label'])}: <code>{e(changed)}</code>",
                _signed(c["by_turn_position"][0]),
                _signed(c["ties"]),
                _signed(c["score"], False),
                _signed(c["decisions"], False),
            ]
        )
    head = ["variant (options changed from A)", "first player's win rate", "shared wins", "mean score", "decisions"]
    return (
        f"<section id='sweep-p{n}'><h3>Sweep, {n} players: each variant minus A [95% CI]</h3>"
        + _table(head, rows, "sweep")
        + "</section>"
    )


STYLE = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:60em;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.6em 0 1.2em}
th,td{border-bottom:1px solid #ddd;padding:.25em .6em;text-align:right}
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}.ci{color:#777;font-size:.9em}
.sig{font-weight:bold;color:#b00}figure{margin:1em 0}img{max-width:100%}code,pre{background:#f6f6f6;padding:.1em .3em}
pre{padding:.6em;white-space:pre-wrap}
"""


def _page(
    game: Any,
    players: Sequence[int],
    bots: list[str],
    games: int,
    seed: int,
    options: dict[str, Any],
    against: dict[str, Any] | None,
    command: Sequence[str] | None,
    sections: list[str],
    seconds: float,
    files: list[str],
) -> str:
    e = html.escape
    cmd = shlex.join(command) if command else "(called from Python)"
    nav = " · ".join(f"<a href='#p{n}'>{n} players</a>" for n in players)
    vers = ", ".join(f"{k} {v}" for k, v in versions().items())
    name = bot_labels(bots)  # a plug-in by its name, not its file path
    labels = ", ".join(name[b] for b in bots)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{e(game.title)} balance report</title>
<style>{STYLE}</style></head><body>
<h1>{e(game.title)}: balance report</h1>
<p>{games} games per player count · bots {e(labels)} (rotated across seats) · seed {seed} ·
options <code>{e(json.dumps(options, sort_keys=True)) if options else "defaults"}</code>
{f"· B: <code>{e(json.dumps(against, sort_keys=True))}</code>" if against else ""}</p>
<p>{nav}</p>
<p>Every rate is shown with its 95% Wilson interval; a difference with Newcombe's interval, in
<span class=sig>bold red</span> where the interval excludes zero. A shared win counts 1/k for each of
its k winners. Turn position 0 is the seat that played first.</p>
{"".join(sections)}
<h2>How this report was made</h2>
<pre id="command">{e(cmd)}</pre>
<p id="versions">{e(vers)} · {e(sys.platform)} · {seconds:.1f} s</p>
<p>Data: one Parquet file of per-game rows per player count (columns in <code>docs/analysis.md</code>)
and the summaries as JSON:</p>
<ul id="data">{"".join(f"<li><a href='{e(f)}'>{e(f)}</a></li>" for f in files)}</ul>
</body></html>
"""
