"""Game review: seconds to review one seat of a typical game, and the judge's calibration error.

    python benchmarks/review.py [--players 4] [--games 2] [--budget N] [--quick] [--json]
        [--calibration-games 6] [--calibration-positions 8]

For each registered game it plays ``--games`` typical games (the ``medium`` bot in every seat,
seeds fixed) and reviews one seat of each (seat 2) at the game's default budget, timing the
review on the process CPU clock and the wall clock. The engine's random-playout speed is
measured in the same process just before (the baseline of benchmarks/bots.py, wall clock), and
the review's wall time is also given in those playout decisions, a figure that survives a
loaded machine better than seconds do.

Then the calibration error (expected calibration error in 10 bins, and Brier score) of a small
sample: ``--calibration-games`` bot games (medium and easy), ``--calibration-positions``
decisions each. docs/review.md has the large measurement (scripts/review_calibration.py);
its figures are printed too when its files are there.

The goal: a seat of a typical game of each game reviewed in under 30 s on one core.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from parlor import games
from parlor.core.rng import derive_seed
from parlor.review import Judge, Reviewing
from parlor.review.calibration import bot_game, brier, calibration_error, calibration_table, judge_sample, lineup_for

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bots import playout_rate  # the baseline of benchmarks/bots.py: random-play decisions/s (wall clock)

DOCS = Path(__file__).resolve().parent.parent / "docs" / "review"
SEAT = 1  # seat 2, as people count


def time_review(name: str, players: int, seed: int, budget: int | None) -> dict[str, Any]:
    record = bot_game(name, players, ["medium"] * players, seed)
    reviewing = Reviewing(record, SEAT, budget=budget)
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in reviewing.decisions():
        pass
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    result = reviewing.review()
    return {
        "seed": seed,
        "decisions": result.decisions_total,
        "iterations": sum(d.iterations for d in result.decisions),
        "cpu_s": cpu,
        "wall_s": wall,
    }


def quick_calibration(name: str, players: int, count: int, positions: int, budget: int | None) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    for i in range(count):
        record = bot_game(name, players, lineup_for(["medium", "easy"], players, i), derive_seed(97, i))
        rows.extend(judge_sample(record, positions, budget=budget))
    table = calibration_table(rows)
    return {"positions": len(rows), "ece": calibration_error(table), "brier": brier(rows)}


def full_calibration(name: str) -> dict[str, Any] | None:
    path = DOCS / f"calibration-{name}.json"
    if not path.exists():
        return None
    data = json.loads(path.read_text())
    rows = data["rows"]
    return {"positions": len(rows), "ece": calibration_error(calibration_table(rows)), "brier": brier(rows)}


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=2, help="typical games reviewed per game")
    parser.add_argument("--budget", type=int, default=None, help="iterations per decision (default: the game's)")
    parser.add_argument("--calibration-games", type=int, default=6)
    parser.add_argument("--calibration-positions", type=int, default=8)
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: tiny budget, one game, small sample")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.budget, args.calibration_games, args.calibration_positions = 1, 8, 1, 2
    rows = []
    for name in args.game or games.names():
        baseline = playout_rate(name, args.players, 0.3 if args.quick else 2.0)
        runs = [time_review(name, args.players, derive_seed(31, i), args.budget) for i in range(args.games)]
        cpu = sum(r["cpu_s"] for r in runs) / len(runs)
        row = {
            "game": name,
            "players": args.players,
            "budget": args.budget or Judge(games.get(name)).budget,
            "decisions": sum(r["decisions"] for r in runs) / len(runs),
            "review_cpu_s": cpu,
            "review_wall_s": sum(r["wall_s"] for r in runs) / len(runs),
            "per_decision_s": cpu / max(1, sum(r["decisions"] for r in runs) / len(runs)),
            "playout_decisions_per_s": baseline,
            "review_in_playout_decisions": sum(r["wall_s"] for r in runs) / len(runs) * baseline,
            "runs": runs,
            "calibration_sample": quick_calibration(
                name, args.players, args.calibration_games, args.calibration_positions, args.budget
            ),
            "calibration_full": full_calibration(name),
        }
        rows.append(row)
        print_row(row, args.json)
    if args.json:
        print(json.dumps(rows, indent=1))
    return rows


def print_row(row: dict[str, Any], quiet: bool) -> None:
    if quiet:
        return
    sample, full = row["calibration_sample"], row["calibration_full"]
    line = (
        f"{row['game']:<11} {row['players']}p budget {row['budget']:>4}: one seat ({row['decisions']:.0f} decisions)"
        f" reviewed in {row['review_cpu_s']:.1f} s CPU ({row['review_wall_s']:.1f} s wall),"
        f" {row['per_decision_s']:.2f} s a decision; baseline {row['playout_decisions_per_s']:,.0f} playout dec/s"
        f" (the review = {row['review_in_playout_decisions'] / 1e6:.1f}M of them);"
        f" calibration error {sample['ece']:.3f} over {sample['positions']} positions (Brier {sample['brier']:.3f})"
    )
    if full is not None:
        line += f"; docs/review: {full['ece']:.3f} over {full['positions']}"
    print(line, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
