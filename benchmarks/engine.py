"""Engine speed: random playouts and the four hot-path operations bots depend on.

    python benchmarks/engine.py [--games N] [--quick] [--json] [--both-builds]

For each game and player count it prints random-play games/s and decisions/s, and the
cost of ``clone``, ``legal_actions``, ``apply`` and ``determinize`` in microseconds.
The baseline is OpenSpiel's C++ ``hearts`` (``pip install -e ".[bench]"``) driven by the
same loop in the same process; figures are reported as ratios to it, because absolute
numbers on a shared machine are noise.

It measures the installed build (``parlor.BUILD``: compiled with mypyc, or pure Python);
``PARLOR_PURE=1`` runs a compiled install from its Python sources, and ``--both-builds`` runs
that too (in a subprocess) and prints the compiled build's speed-up. Each row carries a digest
of the random games' results, which must be the same in both builds.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import parlor
from parlor import games
from parlor.core import Rng

GAMES_AND_PLAYERS = {"mamma-mia": (2, 4, 5), "sweet-nose": (3, 4, 5), "mottainai": (2, 4, 5)}


def best_of(repeats: int, fn: Callable[[], float]) -> float:
    """The best of a few runs: the least disturbed by the rest of the machine."""
    return min(fn() for _ in range(repeats))


def random_play(name: str, players: int, n_games: int) -> tuple[float, float, list[Any], str]:
    """(games/s, decisions/s, sample mid-game states, results digest) for uniform random play."""
    game = games.get(name)
    rnd = random.Random(1)
    samples: list[Any] = []
    results: list[Any] = []
    decisions = 0
    start = time.perf_counter()
    for seed in range(n_games):
        state = game.new_game(players, seed)
        while state.to_move:
            seat = state.to_move[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rnd.randrange(len(legal))])
            decisions += 1
            if decisions % 97 == 0 and len(samples) < 400:
                samples.append(state.clone())
        results.append(state.result().scores)
    elapsed = time.perf_counter() - start
    samples = [s for s in samples if s.to_move]
    digest = hashlib.sha256(json.dumps(results).encode()).hexdigest()[:12]
    return n_games / elapsed, decisions / elapsed, samples, digest


def per_call_us(samples: list[Any], op: Callable[[Any], Any], loops: int) -> float:
    start = time.perf_counter()
    for _ in range(loops):
        for s in samples:
            op(s)
    return (time.perf_counter() - start) / (loops * len(samples)) * 1e6


def operation_costs(samples: list[Any], loops: int) -> dict[str, float]:
    rng = Rng(7)
    rnd = random.Random(3)
    # apply is destructive: time clone+apply and subtract the clone alone.
    picks = [(s, s.to_move[0], rnd.choice(s.legal_actions(s.to_move[0]))) for s in samples]

    def clone_apply() -> float:
        start = time.perf_counter()
        for _ in range(loops):
            for s, seat, action in picks:
                s.clone().apply(seat, action)
        return (time.perf_counter() - start) / (loops * len(picks)) * 1e6

    def legal(s: Any) -> Any:
        s._legal = None  # measure generation, not the cache
        return s.legal_actions(s.to_move[0])

    clone = best_of(3, lambda: per_call_us(samples, lambda s: s.clone(), loops))
    return {
        "clone_us": clone,
        "legal_actions_us": best_of(3, lambda: per_call_us(samples, legal, loops)),
        "apply_us": max(0.0, best_of(3, clone_apply) - clone),
        "determinize_us": best_of(
            3, lambda: per_call_us(samples, lambda s: s.determinize(s.to_move[0], rng), max(1, loops // 4))
        ),
    }


def hearts_baseline(n_games: int) -> dict[str, float] | None:
    """The same loop over OpenSpiel's C++ hearts: player decisions only (the deal is chance)."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    rnd = random.Random(1)

    def run() -> float:
        decisions = 0
        start = time.perf_counter()
        for _ in range(n_games):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rnd.randrange(len(outcomes))][0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[rnd.randrange(len(legal))])
                    decisions += 1
        return decisions / (time.perf_counter() - start)

    decisions_per_s = max(run() for _ in range(3))
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    clone_us = best_of(3, lambda: per_call_us([state], lambda s: s.clone(), 20000))
    return {"decisions_per_s": decisions_per_s, "clone_us": clone_us}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400, help="random games per player count")
    parser.add_argument("--quick", action="store_true", help="a few games only (smoke test)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument(
        "--both-builds", action="store_true", help="also run the pure-Python sources (PARLOR_PURE=1): the speed-up"
    )
    args = parser.parse_args(argv)
    n_games = 5 if args.quick else args.games
    loops = 2 if args.quick else 30

    baseline = hearts_baseline(5 if args.quick else 300)
    rows = []
    for name, counts in GAMES_AND_PLAYERS.items():
        for players in counts:
            runs = [random_play(name, players, n_games) for _ in range(1 if args.quick else 3)]
            games_s = max(r[0] for r in runs)
            decisions_s = max(r[1] for r in runs)
            row: dict[str, Any] = {
                "game": name,
                "players": players,
                "games_per_s": games_s,
                "decisions_per_s": decisions_s,
                "results_digest": runs[0][3],
                **operation_costs(runs[0][2], loops),
            }
            if baseline:
                # The baseline is measured again right beside each row: the machine's load drifts.
                beside = hearts_baseline(5 if args.quick else 150)
                row["hearts_decisions_per_s"] = beside["decisions_per_s"] if beside else baseline["decisions_per_s"]
                row["ratio_to_hearts"] = decisions_s / row["hearts_decisions_per_s"]
            rows.append(row)
    report: dict[str, Any] = {"build": parlor.BUILD, "baseline": baseline, "rows": rows}
    if args.json:
        print(json.dumps(report, indent=1))
        return report
    print(f"build: {parlor.BUILD}")
    if baseline:
        print(
            f"baseline OpenSpiel hearts (C++), same loop: {baseline['decisions_per_s']:,.0f} decisions/s, "
            f"clone {baseline['clone_us']:.2f} us"
        )
    else:
        print("baseline: open-spiel not installed (pip install -e '.[bench]'); no ratios")
    header = f"{'game':<10} {'P':>2} {'games/s':>9} {'decisions/s':>12} {'hearts/s':>9} {'vs hearts':>9} "
    header += f"{'clone us':>9} {'legal us':>9} {'apply us':>9} {'determ. us':>10}"
    print(header)
    for r in rows:
        ratio = f"{r['ratio_to_hearts']:.2f}x" if "ratio_to_hearts" in r else "-"
        print(
            f"{r['game']:<10} {r['players']:>2} {r['games_per_s']:>9,.0f} {r['decisions_per_s']:>12,.0f} "
            f"{r.get('hearts_decisions_per_s', 0):>9,.0f} {ratio:>9} "
            f"{r['clone_us']:>9.2f} {r['legal_actions_us']:>9.2f} {r['apply_us']:>9.2f} {r['determinize_us']:>10.1f}"
            f"  {r['results_digest']}"
        )
    if args.both_builds:
        report["pure"] = compare_with_pure(rows, [a for a in (argv or []) if a != "--both-builds"])
    return report


def compare_with_pure(rows: list[dict[str, Any]], argv: list[str]) -> dict[str, Any]:
    """Run this benchmark on the pure-Python sources in a subprocess; print the speed-ups.

    The speed-up is taken on the ratio to hearts (each measured beside its own row), which
    cancels most of the machine's drift between the two runs; decisions/s alone is shown too.
    """
    env = {**os.environ, "PARLOR_PURE": "1"}
    out = subprocess.run(
        [sys.executable, __file__, *argv, "--json"], env=env, capture_output=True, text=True, check=True
    )
    pure = json.loads(out.stdout)
    print(f"\ncompiled ({parlor.BUILD}) against pure Python (PARLOR_PURE=1), same games:")
    header = f"{'game':<10} {'P':>2} {'compiled/s':>11} {'pure/s':>9} {'speed-up':>9} {'vs hearts':>15}"
    print(f"{header} {'same results':>12}")
    for mine, theirs in zip(rows, pure["rows"]):
        speed = mine["decisions_per_s"] / theirs["decisions_per_s"]
        if "ratio_to_hearts" in mine and "ratio_to_hearts" in theirs:
            hearts = f"{theirs['ratio_to_hearts']:.2f}x -> {mine['ratio_to_hearts']:.2f}x"
            speed = mine["ratio_to_hearts"] / theirs["ratio_to_hearts"]
        else:
            hearts = "-"
        same = "yes" if mine["results_digest"] == theirs["results_digest"] else "NO"
        print(
            f"{mine['game']:<10} {mine['players']:>2} {mine['decisions_per_s']:>11,.0f} "
            f"{theirs['decisions_per_s']:>9,.0f} {speed:>8.2f}x {hearts:>15} {same:>12}"
        )
    return pure


if __name__ == "__main__":
    main(sys.argv[1:])
