"""Simulation throughput: games/s in 1 process, 2 processes and Ray with 2 workers, in one run.

    python benchmarks/simulate.py [--games 2000] [--bots random] [--players 4] [--game mamma-mia]
    python benchmarks/simulate.py --report-games 100000   # + the big Mamma Mia! 4p report, timed

For each game the same run (same seed, so the same games) is played by the serial backend,
by 2 local processes and by Ray with 2 workers; it prints games/s, the speed-up of 2 processes
over one and Ray's overhead against 2 processes (ratios from the same process and moment,
since this machine is shared and noisy). Process start-up (spawn) is inside the timing; Ray's
own start (``ray.init``) is timed apart and not in its games/s, since a cluster is started once
for many runs. Each backend's rows are checked to be identical.

On a shared machine the wall-clock rates follow the load; the last two columns are games per CPU
second (this process, and for 2 processes its workers too, by getrusage): the cost of a game,
which the load hardly changes, and which is what "games/s per core" means.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

from parlor import games
from parlor.analysis.results import execute
from parlor.analysis.simulation import RunSpec


def cpu_seconds() -> float:
    """CPU time of this process and of its finished child processes (the local workers)."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def timed(spec: RunSpec, backend: str, workers: int) -> tuple[float, float, list]:
    """(wall seconds, CPU seconds of this process and its workers, rows)."""
    start, cpu = time.perf_counter(), cpu_seconds()
    rows = execute(spec, backend=backend, workers=workers)
    return time.perf_counter() - start, cpu_seconds() - cpu, rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="random")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--report-games", type=int, default=0, help="also time `parlor analyze` of Mamma Mia! 4p")
    args = parser.parse_args()
    import ray

    t0 = time.perf_counter()
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
        print(f"ray.init with 2 CPUs: {time.perf_counter() - t0:.1f} s (not counted below)")
    except Exception as exc:  # e.g. a start-up time-out on an overloaded machine: measure the rest
        print(f"Ray did not start ({exc}); Ray columns left out")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; bots {args.bots}")
    print(
        f"{'game':12} {'games':>6} {'1 proc g/s':>11} {'2 proc g/s':>11} {'Ray 2 g/s':>10} {'2p/1p':>6} {'Ray/2p':>7}"
        f" {'1p g/CPU-s':>11} {'2p g/CPU-s':>11}"
    )
    try:
        for name in args.game or games.names():
            game = games.get(name)
            players = min(max(args.players, game.min_players), game.max_players)
            spec = RunSpec(
                game=name,
                players=players,
                games=args.games,
                seed=1,
                bots=(args.bots,) * players,
                chunk_size=max(1, args.games // 32),
            )
            one, cpu1, rows1 = timed(spec, "serial", 1)
            two, cpu2, rows2 = timed(spec, "processes", 2)
            on_ray, _, rows3 = timed(spec, "ray", 2) if ray.is_initialized() else (float("nan"), 0.0, rows1)
            assert rows1 == rows2 == rows3, "backends disagree"
            g1, g2, g3 = args.games / one, args.games / two, args.games / on_ray
            print(
                f"{name:12} {args.games:6d} {g1:11.1f} {g2:11.1f} {g3:10.1f} {g2 / g1:6.2f} {two / on_ray:7.2f}"
                f" {args.games / cpu1:11.1f} {args.games / cpu2:11.1f}"
            )
            sys.stdout.flush()
    finally:
        ray.shutdown()
    if args.report_games:
        from parlor.analysis.report import analyze

        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            analyze(
                "mamma-mia",
                players=[4],
                bots=["random"],
                games=args.report_games,
                seed=1,
                options={},
                against=None,
                report=Path(tmp) / "report",
                workers=2,
                backend="processes",
            )
            seconds = time.perf_counter() - start
        print(
            f"parlor analyze mamma-mia -p 4 --bots random -n {args.report_games} -w 2: {seconds:.0f} s "
            f"({args.report_games / seconds:.0f} games/s, goal: 100,000 games in 600 s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
