"""OpenSpiel's C++ outcome-sampling MCCFR on the Parlor games, many seeds: does it run through?

    python benchmarks/mccfr.py [--games mottainai,mamma-mia,sweet-nose] [--iterations 10000]
                               [--seeds 20] [--first-seed 0] [--progress 1000] [--json]

For each game at its smallest table (Sweet Nose 3, the others 2) and each seed, a
``pyspiel.OutcomeSamplingMCCFRSolver(game, seed=seed)`` runs ``--iterations`` iterations
(each one samples one game, a new deal every time). The C++ solver reuses the legal actions
it stored under an information state: where a seat's information state did not change while
its choices did, it read past the end of that list ("action id out of range", or an illegal
action). Any exception ends that seed's run and is reported with the iteration it happened
at; a crash of the process itself (a segfault) shows as the last seed started. Prints, per
game, the seeds run, iterations done and CPU seconds per 1,000 iterations; ``--json`` prints
one JSON object per seed instead. ``--progress N`` writes a line to stderr every N iterations
(iterations done and CPU seconds so far), for long runs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import pyspiel

from parlor.rl.openspiel import SHORT_NAMES, register

MIN_PLAYERS = {"mamma-mia": 2, "sweet-nose": 3, "mottainai": 2}


def run_seed(name: str, seed: int, iterations: int, progress: int = 0) -> dict[str, object]:
    game = pyspiel.load_game(SHORT_NAMES[name], {"players": MIN_PLAYERS[name], "seed": seed})
    solver = pyspiel.OutcomeSamplingMCCFRSolver(game, seed=seed)
    started = time.process_time()
    done = 0
    error = None
    try:
        while done < iterations:
            solver.run_iteration()
            done += 1
            if progress and done % progress == 0:
                cpu = time.process_time() - started
                print(f"# {name} seed {seed}: {done} iterations, {cpu:.1f} CPU s", file=sys.stderr, flush=True)
    except Exception as exc:  # the figure to report is which seed failed and how
        error = f"{type(exc).__name__}: {exc}"
    cpu = time.process_time() - started
    return {"game": name, "seed": seed, "iterations": done, "error": error, "cpu_s": round(cpu, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default="mottainai,mamma-mia,sweet-nose")
    parser.add_argument("--iterations", type=int, default=10_000)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--progress", type=int, default=0, help="a stderr line every N iterations (0: none)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    register()
    for name in args.games.split(","):
        rows = []
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            print(f"# {name} seed {seed} started", file=sys.stderr, flush=True)
            row = run_seed(name, seed, args.iterations, args.progress)
            rows.append(row)
            if args.json:
                print(json.dumps(row), flush=True)
            else:
                failure = f"FAILED at iteration {row['iterations'] + 1}: {row['error']}"
                status = "ok" if row["error"] is None else failure
                print(f"{name} seed {seed}: {row['iterations']} iterations, {row['cpu_s']} CPU s: {status}", flush=True)
        if not args.json:
            failed = [r for r in rows if r["error"] is not None]
            total = sum(int(r["iterations"]) for r in rows)  # type: ignore[call-overload]
            cpu = sum(float(r["cpu_s"]) for r in rows)  # type: ignore[arg-type]
            print(f"{name}: {len(rows)} seeds, {total} iterations, {len(failed)} failed,"
                  f" {1000 * cpu / max(total, 1):.1f} CPU s per 1,000 iterations", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
