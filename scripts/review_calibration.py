"""Measure the judge (parlor.review): calibration tables and plots, and the blunder check.

    python scripts/review_calibration.py [--game mamma-mia] [--games 60] [--positions 16]
        [--players 4] [--levels medium,easy] [--rollouts 16] [--workers 2] [--out docs/review] [--resume]

For each game: ``--games`` bot games (the ``--levels`` round the table, turned one seat per
game), ``--positions`` decisions judged per game at the default budget (``--budget`` to
change it), then

* the calibration table (judge's p of the move played -> share of those positions won, with
  95% Wilson intervals), its expected calibration error and Brier score, the bias (share won
  minus mean p) and the ECE with ranges from resampling whole games, and a plot
  (``<out>/calibration-<game>.png``);
* for every decision judged a mistake or a blunder: ``--rollouts`` pairs of games played on
  from the real position by the table's bots, one with the judge's best move and one with the
  move played; the mean difference of the seat's win share, per label, with 95% intervals.
  The same again from worlds dealt from what the seat knew (one per pair), which averages
  over the cards the seat could not see instead of the one real deal.

Every row is kept in ``<out>/calibration-<game>.json``, written again after each game, so a
run stopped part way keeps the games it finished (rerun the tables with ``--tables`` without
playing again, only the rollouts with ``--recheck``, or carry on from the next game with
``--resume``). Seeds are fixed (``--seed``),
so a rerun gives the same figures; ``--workers`` changes only the speed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from parlor.analysis.processes import exit_with_parent
from parlor.core.rng import derive_seed
from parlor.review import LABELS
from parlor.review.calibration import (
    bot_game,
    brier,
    calibration_error,
    calibration_table,
    judge_sample,
    lineup_for,
    mean_interval,
    replay_pair,
)

GAMES = ["mamma-mia", "sweet-nose", "mottainai"]


def one_game(task: tuple[str, int, list[str], int, int, int | None, int]) -> list[dict[str, Any]]:
    name, players, lineup, seed, positions, budget, rollouts = task
    record = bot_game(name, players, lineup, seed)
    rows = judge_sample(record, positions, budget=budget)
    for row in rows:
        play_on(record, row, rollouts)
    return rows


def play_on(record: dict[str, Any], row: dict[str, Any], rollouts: int) -> None:
    """The blunder check of one judged decision (mistakes and blunders only), both ways."""
    if row["label"] not in ("mistake", "blunder"):
        return
    for key, worlds in (("rollouts", False), ("rollouts_worlds", True)):
        pairs = replay_pair(record, row["step"], row["best"], row["played"], rollouts, worlds=worlds)
        row[key] = {"best": [a for a, _ in pairs], "played": [b for _, b in pairs]}


def recheck(task: tuple[dict[str, Any], int]) -> dict[str, Any]:
    row, rollouts = task
    play_on(bot_game(row["game"], row["players"], row["bots"], row["seed"]), row, rollouts)
    return row


def measure(args: argparse.Namespace, name: str, path: Path) -> dict[str, Any]:
    """Play and judge ``--games`` games; after each, everything so far is written to ``path``
    (games in seed order, so a run stopped after k games holds exactly the rows of ``--games k``)."""
    levels = args.levels.split(",")
    tasks = [
        (name, args.players, lineup_for(levels, args.players, i), derive_seed(args.seed, i), args.positions,
         args.budget, args.rollouts)
        for i in range(args.games)
    ]  # fmt: skip
    start = time.perf_counter()
    data: dict[str, Any] = {
        "game": name,
        "players": args.players,
        "levels": levels,
        "games": 0,
        "positions_per_game": args.positions,
        "budget": args.budget,
        "rollouts": args.rollouts,
        "seed": args.seed,
        "seconds": 0.0,
        "rows": [],
    }
    done = 0
    if args.resume and path.exists():
        data = resumed(path, data)
        done = data["games"]
    earlier = data["seconds"]
    path.parent.mkdir(parents=True, exist_ok=True)
    with ProcessPoolExecutor(max_workers=args.workers, initializer=exit_with_parent, initargs=(os.getpid(),)) as pool:
        for i, game_rows in enumerate(pool.map(one_game, tasks[done:]), start=done):
            data["rows"].extend(game_rows)
            data["games"], data["seconds"] = i + 1, earlier + time.perf_counter() - start
            write(path, data)
            print(f"  {name}: game {i + 1}/{args.games}, {len(data['rows'])} positions", file=sys.stderr, flush=True)
    return data


def resumed(path: Path, fresh: dict[str, Any]) -> dict[str, Any]:
    """The kept run at ``path``, to be carried on: the games are played in seed order, so the
    first ``games`` of the series are in it and the next one is where to start. A file made
    with other settings is refused (its rows would not be the same series)."""
    kept = json.loads(path.read_text())
    settings = [key for key in fresh if key not in ("games", "seconds", "rows")]
    differ = [key for key in settings if kept.get(key) != fresh[key]]
    if differ:
        sys.exit(f"{path}: made with other settings ({', '.join(differ)}); give those or another --out")
    return kept


def write(path: Path, data: dict[str, Any]) -> None:
    """Replace ``path`` whole (a stop mid-write leaves the previous version, not half a file)."""
    partial = path.with_suffix(".json.part")
    partial.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")
    partial.replace(path)


def blunder_check(rows: list[dict[str, Any]], label: str, key: str = "rollouts") -> dict[str, Any]:
    """Per position, the mean win share with the best move minus with the move played."""
    flagged = [r for r in rows if r["label"] == label and key in r]
    best = [sum(r[key]["best"]) / len(r[key]["best"]) for r in flagged]
    played = [sum(r[key]["played"]) / len(r[key]["played"]) for r in flagged]
    gains = [b - p for b, p in zip(best, played)]
    judged = [r["loss"] for r in flagged]
    return {
        "label": label,
        "from": "the real cards" if key == "rollouts" else "worlds dealt from what the seat knew",
        "positions": len(flagged),
        "gain": mean_interval(gains),
        "best": mean_interval(best),
        "played": mean_interval(played),
        "judged_loss": mean_interval(judged),
        "better": sum(g > 0 for g in gains),
        "worse": sum(g < 0 for g in gains),
    }


def by_level(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Calibration by the bot at the judged seat: the judge assumes the seat plays on well, so a
    seat whose own later moves are poorer (easy: 30% random) wins less than it says."""
    out = []
    for level in sorted({r["bots"][r["seat"]] for r in rows}):
        group = [r for r in rows if r["bots"][r["seat"]] == level]
        out.append(
            {
                "level": level,
                "positions": len(group),
                "mean_p": sum(r["p_played"] for r in group) / len(group),
                "won": sum(r["outcome"] for r in group) / len(group),
                "ece": calibration_error(calibration_table(group)),
            }
        )
    return out


def game_bootstrap(rows: list[dict[str, Any]], draws: int = 2000) -> dict[str, list[float]]:
    """95% ranges of the bias (share won minus mean p) and of the ECE, resampling whole games: the
    positions of one game share its ending, so the per-bin Wilson intervals are too narrow."""
    by_game: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        by_game.setdefault(row["seed"], []).append(row)
    seeds = sorted(by_game)
    rng = random.Random(1)  # fixed: the same rows give the same ranges
    biases, eces = [], []
    for _ in range(draws):
        sample = [row for seed in (rng.choice(seeds) for _ in seeds) for row in by_game[seed]]
        biases.append(sum(r["outcome"] - r["p_played"] for r in sample) / len(sample))
        eces.append(calibration_error(calibration_table(sample)))
    biases.sort()
    eces.sort()
    low, high = int(0.025 * (draws - 1)), int(0.975 * (draws - 1))
    return {"bias": [biases[low], biases[high]], "ece": [eces[low], eces[high]]}


def report(data: dict[str, Any], out: Path | None) -> dict[str, Any]:
    rows = data["rows"]
    table = calibration_table(rows)
    labels = {label: sum(r["label"] == label for r in rows) for label in LABELS}
    summary = {
        "game": data["game"],
        "players": data["players"],
        "positions": len(rows),
        "games": data["games"],
        "ece": calibration_error(table),
        "brier": brier(rows),
        "brier_base": sum((1 / data["players"] - r["outcome"]) ** 2 for r in rows) / len(rows),
        "bias": sum(r["outcome"] - r["p_played"] for r in rows) / len(rows),
        "bootstrap": game_bootstrap(rows),
        "table": table,
        "by_level": by_level(rows),
        "labels": labels,
        "checks": [
            blunder_check(rows, label, key)
            for label in ("blunder", "mistake")
            for key in ("rollouts", "rollouts_worlds")
        ],
    }
    print(f"\n### {data['game']}, {data['players']} players: {len(rows)} positions from {data['games']} games "
          f"({', '.join(data['levels'])}), budget {data['budget'] or 'default'}\n")  # fmt: skip
    print("| judge's p (played move) | positions | mean p | share won | 95% interval |")
    print("|---|---:|---:|---:|---|")
    for row in table:
        low, high = row["ci95"]
        print(f"| {row['low']:.1f}-{row['high']:.1f} | {row['n']} | {row['predicted']:.3f} | {row['observed']:.3f} | "
              f"[{low:.3f}, {high:.3f}] |")  # fmt: skip
    print(f"\nExpected calibration error {summary['ece']:.3f}; Brier score {summary['brier']:.3f} "
          f"(a constant 1/{data['players']}: {summary['brier_base']:.3f}). Labels: "
          + ", ".join(f"{k} {v}" for k, v in labels.items()) + ".")  # fmt: skip
    boot = summary["bootstrap"]
    bias, ece = boot["bias"], boot["ece"]
    print(f"Share won minus mean p {summary['bias']:+.3f}, whole games resampled [{bias[0]:+.3f}, {bias[1]:+.3f}];"
          f" ECE, whole games resampled {ece[0]:.3f}-{ece[1]:.3f}.\n")  # fmt: skip
    print("| the seat's bot | positions | mean p | share won | calibration error |")
    print("|---|---:|---:|---:|---:|")
    for row in summary["by_level"]:
        print(f"| {row['level']} | {row['positions']} | {row['mean_p']:.3f} | {row['won']:.3f} | {row['ece']:.3f} |")
    print()
    for check in summary["checks"]:
        if not check["positions"]:
            continue
        gain = check["gain"]
        print(f"{check['label']}s, from {check['from']}: {check['positions']} positions, {data['rollouts']} pairs"
              f" each: best move "
              f"{check['best']['mean']:.3f}, move played {check['played']['mean']:.3f}; gain {gain['mean']:+.3f} "
              f"[{gain['ci95'][0]:+.3f}, {gain['ci95'][1]:+.3f}] (judged loss {check['judged_loss']['mean']:.3f}); "
              f"better at {check['better']}, worse at {check['worse']}.")  # fmt: skip
    if out is not None:
        plot(summary, out / f"calibration-{data['game']}.png")
    return summary


def plot(summary: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    table = summary["table"]
    fig, ax = plt.subplots(figsize=(4.2, 4.2), dpi=110)
    ax.plot([0, 1], [0, 1], color="#999999", linewidth=1, linestyle="--", label="perfectly calibrated")
    xs = [r["predicted"] for r in table]
    ys = [r["observed"] for r in table]
    below = [max(0.0, r["observed"] - r["ci95"][0]) for r in table]
    above = [max(0.0, r["ci95"][1] - r["observed"]) for r in table]
    err = [below, above]
    ax.errorbar(xs, ys, yerr=err, fmt="o", color="#1f5fa8", ecolor="#8fb0d8", capsize=3, label="positions (95% CI)")
    for x, y, r in zip(xs, ys, table):
        ax.annotate(str(r["n"]), (x, y), textcoords="offset points", xytext=(5, -10), fontsize=7, color="#555555")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("judge's win chance of the move played")
    ax.set_ylabel("share of those positions won")
    ax.set_title(f"{summary['game']}, {summary['players']} players (ECE {summary['ece']:.3f})", fontsize=10)
    ax.legend(loc="upper left", fontsize=7)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", choices=GAMES, help="a game (repeatable; default: all three)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=60, help="bot games per game")
    parser.add_argument("--positions", type=int, default=16, help="decisions judged per bot game")
    parser.add_argument("--levels", default="medium,easy", help="the bots round the table (comma-separated)")
    parser.add_argument("--budget", type=int, default=None, help="judge iterations per decision (default: the game's)")
    parser.add_argument("--rollouts", type=int, default=16, help="rollout pairs per mistake or blunder")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("docs/review"), help="where the JSON and plots go")
    parser.add_argument("--tables", action="store_true", help="only print the tables and plots from --out's JSON")
    parser.add_argument(
        "--resume", action="store_true", help="carry on the run kept in --out (the same settings) from its next game"
    )
    parser.add_argument(
        "--recheck", action="store_true", help="play the blunder checks again (--rollouts pairs) on --out's JSON"
    )
    args = parser.parse_args()
    for name in args.game or GAMES:
        path = args.out / f"calibration-{name}.json"
        if args.recheck:
            data = json.loads(path.read_text())
            with ProcessPoolExecutor(
                max_workers=args.workers, initializer=exit_with_parent, initargs=(os.getpid(),)
            ) as pool:
                data["rows"] = list(pool.map(recheck, [(row, args.rollouts) for row in data["rows"]]))
            data["rollouts"] = args.rollouts
            write(path, data)
        elif args.tables:
            data = json.loads(path.read_text())
        else:
            data = measure(args, name, path)
        report(data, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
