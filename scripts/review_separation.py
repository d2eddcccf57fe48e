"""Does the review tell weak play from strong? Review one seat of each bot level among hard seats.

    python scripts/review_separation.py --game mamma-mia --players 2 --games 4 [--budget N]
        [--levels random,easy,medium,hard,expert] [--seed 41] [--out docs/review]
    python scripts/review_separation.py --tables [--out docs/review]
    python scripts/review_separation.py --derive docs/review/separation-mamma-mia-2p-seed43-tuning.json ...

For each level and each of ``--games`` seeded games: every seat is ``hard`` but one, which plays
the level (the seat turns round the table, one per game); the game is played to its end and that
seat's review is made (``parlor.review.review``, budget ``--budget`` or the game's default). Each
decision's loss and standard error, in win share and in expected score, is kept
(``<out>/separation-<game>-<players>p.json``, written after every game, so a stopped run keeps what
it finished), and the summary's figures (``parlor.review.summarize``: accuracy, blended loss, total
and mean win-share loss, best/good share) are computed from them, so a change of the summary's
formula needs no new games. ``--tables`` prints, per game and level, the mean of each figure over
games with a 95% interval (t-based; few games make it wide) and the reviews' CPU seconds.
``--derive FILES`` prints each game's ``SCORE_POINTS`` (``parlor.review.summary``) from kept runs:
the counted win-share losses over the counted score losses of the decisions with much at stake.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

from parlor.core.rng import derive_seed
from parlor.review import Review, review, summarize
from parlor.review.calibration import bot_game

LEVELS = ["random", "easy", "medium", "hard", "expert"]
FIGURES = ("accuracy", "blended_loss", "share_given_away", "total_loss", "mean_loss", "score_loss", "good_share")

# The decisions whose win chance is open enough for the win-share loss to measure them (what was at
# stake, ``2 sqrt(p (1 - p))``, at least this): where a point of score is priced in win chance.
OPEN_STAKE = 0.5

# Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom (then the normal's).
_T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
        2.045, 2.042]  # fmt: skip


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and a 95% t interval (the interval is the mean itself for one value)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, mean, mean
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = (_T95[n - 2] if n - 1 <= len(_T95) else 1.96) * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def one_review(
    game: str,
    players: int,
    level: str,
    index: int,
    seed: int,
    budget: int | None,
    playouts: str | None = None,
    noise: float | None = None,
) -> dict[str, Any]:
    seat = index % players
    lineup = ["hard"] * players
    lineup[seat] = level
    game_seed = derive_seed(seed, index)
    record = bot_game(game, players, lineup, game_seed)
    start, cpu = time.perf_counter(), time.process_time()
    result = review(record, seat, budget=budget, playouts=playouts, playout_noise=noise)
    return {
        "level": level,
        "index": index,
        "seed": game_seed,
        "seat": seat,
        "lineup": lineup,
        "seconds": round(time.perf_counter() - start, 1),
        # the review's CPU time (the machine is shared: wall-clock seconds say more about the load)
        "cpu_seconds": round(time.process_time() - cpu, 1),
        "review": compact(result.to_json()),
    }


def compact(data: dict[str, Any]) -> dict[str, Any]:
    """A review with only the two moves its verdicts rest on per decision (the best and the one
    played), and every legal move's expected win share and score in ``spread`` (``[win, score]``,
    the moves' order): what the summary reads of the others (``parlor.review.summary.room``, what
    a decision could cost). Every legal move in full would make Sweet Nose's files megabytes."""
    for decision in data["decisions"]:
        best, *others = decision["moves"]
        played = [m for m in others if m["action"] == decision["played"]]
        decision["spread"] = [[round(m["win"], 3), round(m["score"], 3)] for m in decision["moves"]]
        decision["moves"] = [best, *played]
    return data


def expand(data: dict[str, Any]) -> dict[str, Any]:
    """A kept review with its ``spread`` back among each decision's moves (as moves of no action the
    summary reads only the numbers of), so the summary sees every legal move as the full review did."""
    data = json.loads(json.dumps(data))
    for decision in data["decisions"]:
        for index, (win, score) in enumerate(decision.pop("spread", [])[1:], start=1):
            decision["moves"].append({"action": {"spread": index}, "samples": 0, "win": win, "win_se": None,
                                      "score": score, "score_se": None, "place": 0.0, "place_se": None})  # fmt: skip
    return data


def figures(row: dict[str, Any]) -> dict[str, float]:
    from parlor.review.summary import accuracy_of, counts

    made = Review.from_json(expand(row["review"]))
    summary = summarize(made)
    # The accuracy the win share alone gives (the summary's formula before the blend), for comparison.
    summary["win_share_accuracy"] = accuracy_of(list(made.decisions), made.game, blended=False)
    # The share of the decisions that count (what they could cost is above the bar).
    summary["counting"] = sum(counts(d, made.game, summary["blended"]) for d in made.decisions) / len(made.decisions)
    return {name: summary[name] for name in (*FIGURES, "win_share_accuracy", "counting")}


def derive(paths: list[Path]) -> dict[str, float]:
    """Each game's worth of a point of score in points of win chance (see the module's docstring)."""
    from parlor.review.summary import at_stake, counted_loss, counted_score_loss

    sums: dict[str, list[float]] = {}
    for path in paths:
        data = json.loads(path.read_text())
        for row in data["rows"]:
            for decision in Review.from_json(row["review"]).decisions:
                if decision.score_loss is None or at_stake(decision) < OPEN_STAKE:
                    continue
                pair = sums.setdefault(data["game"], [0.0, 0.0])
                pair[0] += 100.0 * counted_loss(decision)
                pair[1] += counted_score_loss(decision)
    return {game: round(win / score, 2) for game, (win, score) in sums.items() if score > 0}


def tables(out: Path) -> str:
    lines = []
    for path in sorted(out.glob("separation-*.json")):
        data = json.loads(path.read_text())
        judge = data["rows"][0]["review"]["judge"] if data["rows"] else {}
        playouts = str(judge.get("playouts", "?"))
        if "playout_noise" in judge:
            playouts += f" with {judge['playout_noise']:.0%} random moves"
        lines.append(
            f"\n{data['game']}, {data['players']} players, budget {data['budget'] or 'default'}, seed {data['seed']},"
            f" playouts {playouts}:\n"
        )
        lines.append(
            "| level | games | decisions (counting) | accuracy [95%] | win-share-only accuracy [95%]"
            " | blended loss per counting decision, points [95%] | share given away [95%]"
            " | win share given away, points [95%] | win-share loss per decision [95%]"
            " | score loss per decision [95%] | best/good share | CPU s per review (max) |"
        )
        lines.append("|---|---:|---:|---|---|---|---|---|---|---|---:|---|")
        for level in LEVELS:
            rows = [r for r in data["rows"] if r["level"] == level]
            if not rows:
                continue
            per = [figures(r) for r in rows]
            decisions = sum(len(r["review"]["decisions"]) for r in rows)
            counting = sum(p["counting"] * len(r["review"]["decisions"]) for p, r in zip(per, rows)) / decisions
            cells = []
            scaled = (("accuracy", 1.0), ("win_share_accuracy", 1.0), ("blended_loss", 100.0),
                      ("share_given_away", 1.0), ("total_loss", 100.0), ("mean_loss", 100.0),
                      ("score_loss", 1.0))  # fmt: skip
            for name, scale in scaled:
                if any(p[name] is None for p in per):  # (a review without score losses has no share given away)
                    cells.append("—")
                    continue
                m, lo, hi = mean_interval([p[name] * scale for p in per])
                # The interval within what the figure can be (accuracy 0..1, losses from 0).
                lo, hi = max(0.0, lo), min(hi, 1.0) if name.endswith("accuracy") else hi
                cells.append(f"{m:.2f} [{lo:.2f}, {hi:.2f}]")
            share = sum(p["good_share"] for p in per) / len(per)
            # The earliest runs kept no CPU time (only the wall clock, which the load makes meaningless).
            cpu = [float(r["cpu_seconds"]) for r in rows if "cpu_seconds" in r]
            cpu_cell = f"{sum(cpu) / len(cpu):.1f} ({max(cpu):.1f})" if cpu else "not kept"
            counted = f"{decisions} ({counting:.0%})"
            lines.append(f"| {level} | {len(rows)} | {counted} | {' | '.join(cells)} | {share:.2f} | {cpu_cell} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="mamma-mia")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=4, help="games per level")
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--budget", type=int, default=None)
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--playouts", default=None, help="the judge's continuation: random, game, heuristic")
    parser.add_argument("--noise", type=float, default=None, help="the heuristic playouts' share of random moves")
    parser.add_argument("--out", type=Path, default=Path("docs/review"))
    parser.add_argument("--tables", action="store_true", help="print the tables of the kept runs only")
    parser.add_argument("--derive", type=Path, nargs="+", help="print SCORE_POINTS from these kept runs")
    args = parser.parse_args()
    if args.derive:
        print(json.dumps(derive(args.derive), sort_keys=True))
        return
    if args.tables:
        print(tables(args.out))
        return
    path = args.out / f"separation-{args.game}-{args.players}p.json"
    data: dict[str, Any] = {"game": args.game, "players": args.players, "budget": args.budget, "seed": args.seed,
                            "playouts": args.playouts, "noise": args.noise, "rows": []}  # fmt: skip
    if path.exists():  # carry on a stopped run with the same settings
        kept = json.loads(path.read_text())
        if all(kept.get(k) == data[k] for k in ("game", "players", "budget", "seed", "playouts", "noise")):
            data = kept
    done = {(r["level"], r["index"]) for r in data["rows"]}
    args.out.mkdir(parents=True, exist_ok=True)
    # Games in rounds (every level's game 0, then every level's game 1...): a stopped run is balanced.
    for index in range(args.games):
        for level in args.levels.split(","):
            if (level, index) in done:
                continue
            row = one_review(args.game, args.players, level, index, args.seed, args.budget, args.playouts, args.noise)
            data["rows"].append(row)
            partial = path.with_suffix(".json.part")
            partial.write_text(json.dumps(data, sort_keys=True) + "\n")
            partial.replace(path)
            f = figures(row)
            print(f"{args.game} {level} game {index}: {row['seconds']} s ({row['cpu_seconds']} s CPU), accuracy"
                  f" {f['accuracy']:.2f}, total loss"
                  f" {f['total_loss']:.3f}", file=sys.stderr, flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
