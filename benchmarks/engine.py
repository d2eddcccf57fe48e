"""Engine speed: random playouts and the four hot-path operations bots depend on.

    python benchmarks/engine.py [--games N] [--rounds R] [--burst S] [--digest-games N] [--quick] [--json] [--game G]
                                [--both-builds]

For each game and player count it prints random-play games/s and decisions/s, and the
cost of ``clone``, ``legal_actions``, ``apply``, ``determinize`` and ``new_game`` in microseconds.
The baseline is OpenSpiel's C++ ``hearts`` (``pip install -e ".[bench]"``) driven by the
same loop in the same process; figures are reported as ratios to it, because absolute
numbers on a shared machine are noise.

The ratio ("vs hearts") comes from interleaved bursts on the process CPU clock
(``time.process_time``): hearts, game, hearts, game, ..., hearts; each game burst is divided
by the mean of the hearts bursts on either side, and the median over the rounds is printed.
The loop is the plain public one::

    s = game.new_game(players=p, seed=k)
    while not s.is_over:
        seat = s.to_move[0] if len(s.to_move) == 1 else rng.choice(list(s.to_move))
        s.apply(seat, rng.choice(s.legal_actions(seat)))

Last it prints a results digest: a sha256 over the results of a fixed set of seeded random
games per game (``results_digest``), so a faster implementation can show that it plays the
same games (``tests/test_benchmarks.py`` pins the digest of a small set).

It measures the installed build (``parlor.BUILD``: compiled with mypyc, or pure Python);
``PARLOR_PURE=1`` runs a compiled install from its Python sources, and ``--both-builds`` runs
that too (in a subprocess) and prints the compiled build's speed-up and whether both builds
give the same digest.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
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


def random_play(name: str, players: int, n_games: int) -> tuple[float, float, list[Any]]:
    """(games/s, decisions/s, sample mid-game states) for uniform random play."""
    game = games.get(name)
    rnd = random.Random(1)
    samples: list[Any] = []
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
    elapsed = time.perf_counter() - start
    samples = [s for s in samples if s.to_move]
    return n_games / elapsed, decisions / elapsed, samples


def per_call_us(samples: list[Any], op: Callable[[Any], Any], loops: int) -> float:
    start = time.perf_counter()
    for _ in range(loops):
        for s in samples:
            op(s)
    return (time.perf_counter() - start) / (loops * len(samples)) * 1e6


def new_game_us(name: str, players: int, loops: int) -> float:
    """The cost of ``new_game`` (options, shuffles, the deal), which every playout game pays once."""
    game = games.get(name)

    def run() -> float:
        start = time.perf_counter()
        for seed in range(loops):
            game.new_game(players, seed)
        return (time.perf_counter() - start) / loops * 1e6

    return best_of(3, run)


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


def plain_game(game: Any, players: int, seed: int, rng: random.Random) -> int:
    """One game through the plain public loop; returns the number of decisions."""
    s = game.new_game(players=players, seed=seed)
    decisions = 0
    while not s.is_over:
        seat = s.to_move[0] if len(s.to_move) == 1 else rng.choice(list(s.to_move))
        s.apply(seat, rng.choice(s.legal_actions(seat)))
        decisions += 1
    return decisions


def hearts_game(game: Any, rng: random.Random) -> int:
    """The same loop over OpenSpiel's hearts; chance nodes are sampled and not counted."""
    s = game.new_initial_state()
    decisions = 0
    while not s.is_terminal():
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            s.apply_action(rng.choice(outcomes)[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
            decisions += 1
    return decisions


def burst(play: Callable[[], int], seconds: float) -> float:
    """Decisions per CPU second of whole games played for at least ``seconds`` of process time."""
    decisions = 0
    start = time.process_time()
    while True:
        decisions += play()
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return decisions / elapsed


def interleaved(name: str, players: int, rounds: int, seconds: float) -> dict[str, Any]:
    """Median ratio to hearts over ``rounds`` of hearts, game, hearts bursts (CPU clock).

    Without OpenSpiel only the game's own bursts are run, and the ratio is None.
    """
    game = games.get(name)
    rng = random.Random(1)
    seeds = iter(range(1 << 62))

    def play() -> int:
        return plain_game(game, players, next(seeds), rng)

    try:
        import pyspiel
    except ImportError:
        rates = [burst(play, seconds) for _ in range(rounds)]
        return {"cpu_decisions_per_s": statistics.median(rates), "ratio_to_hearts": None, "ratios": []}
    hearts = pyspiel.load_game("hearts")
    hearts_rng = random.Random(2)

    def play_hearts() -> int:
        return hearts_game(hearts, hearts_rng)

    before = burst(play_hearts, seconds)
    ratios, rates, hearts_rates = [], [], [before]
    for _ in range(rounds):
        rate = burst(play, seconds)
        after = burst(play_hearts, seconds)
        ratios.append(rate / ((before + after) / 2))
        rates.append(rate)
        hearts_rates.append(after)
        before = after
    return {
        "cpu_decisions_per_s": statistics.median(rates),
        "cpu_hearts_decisions_per_s": statistics.median(hearts_rates),
        "ratio_to_hearts": statistics.median(ratios),
        "ratios": ratios,
    }


def results_digest(per_game: int = 75, with_events: bool = False) -> dict[str, str]:
    """sha256 (hex) per game over the results of ``per_game`` seeded random games, spread over the
    player counts of ``GAMES_AND_PLAYERS`` (seeds 0, 1, ... per count; ``random.Random(seed)``
    picks the moves through the plain loop). Each game contributes its player count, seed,
    number of decisions and ``result().to_json()``. ``with_events=True`` also hashes every event
    ``apply`` returns (``Event.to_json()``, private ones included), so a change to how events
    are made can show that they are the same."""
    out = {}
    for name, counts in GAMES_AND_PLAYERS.items():
        game = games.get(name)
        h = hashlib.sha256()
        for i in range(per_game):
            players, seed = counts[i % len(counts)], i // len(counts)
            rng = random.Random(seed)
            s = game.new_game(players=players, seed=seed)
            decisions = 0
            while not s.is_over:
                seat = s.to_move[0] if len(s.to_move) == 1 else rng.choice(list(s.to_move))
                events = s.apply(seat, rng.choice(s.legal_actions(seat)))
                decisions += 1
                if with_events:
                    h.update(json.dumps([e.to_json() for e in events], sort_keys=True).encode())
            row = [players, seed, decisions, s.result().to_json()]
            h.update(json.dumps(row, sort_keys=True, separators=(",", ":")).encode())
        out[name] = h.hexdigest()
    out["all"] = hashlib.sha256("".join(out[name] for name in GAMES_AND_PLAYERS).encode()).hexdigest()
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="random games per player count (operation costs)")
    parser.add_argument("--rounds", type=int, default=7, help="interleaved hearts/game rounds per row")
    parser.add_argument("--burst", type=float, default=0.3, help="CPU seconds per burst")
    parser.add_argument("--digest-games", type=int, default=75, help="seeded random games per game in the digest")
    parser.add_argument("--quick", action="store_true", help="a few games only (smoke test)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument(
        "--game", choices=sorted(GAMES_AND_PLAYERS), action="append", help="only this game (repeatable)"
    )
    parser.add_argument(
        "--both-builds", action="store_true", help="also run the pure-Python sources (PARLOR_PURE=1): the speed-up"
    )
    args = parser.parse_args(argv)
    n_games = 5 if args.quick else args.games
    loops = 2 if args.quick else 30
    rounds, seconds = (1, 0.02) if args.quick else (args.rounds, args.burst)

    baseline = hearts_baseline(5 if args.quick else 300)
    rows = []
    chosen = {name: counts for name, counts in GAMES_AND_PLAYERS.items() if not args.game or name in args.game}
    for name, counts in chosen.items():
        for players in counts:
            runs = [random_play(name, players, n_games) for _ in range(1 if args.quick else 3)]
            games_s = max(r[0] for r in runs)
            decisions_s = max(r[1] for r in runs)
            row: dict[str, Any] = {
                "game": name,
                "players": players,
                "games_per_s": games_s,
                "decisions_per_s": decisions_s,
                **operation_costs(runs[0][2], loops),
                "new_game_us": new_game_us(name, players, 10 * loops),
            }
            bursts = interleaved(name, players, rounds, seconds)
            row["cpu_decisions_per_s"] = bursts["cpu_decisions_per_s"]
            if bursts["ratio_to_hearts"] is not None:
                row["hearts_decisions_per_s"] = bursts["cpu_hearts_decisions_per_s"]
                row["ratio_to_hearts"] = bursts["ratio_to_hearts"]
                row["ratio_range"] = [min(bursts["ratios"]), max(bursts["ratios"])]
            rows.append(row)
    digest_games = 2 if args.quick else args.digest_games
    digest = results_digest(digest_games)
    report: dict[str, Any] = {"build": parlor.BUILD, "baseline": baseline, "rows": rows, "digest": digest}
    report["digest_games"] = digest_games
    if args.json:
        print(json.dumps(report, indent=1))
        return report
    if baseline:
        print(
            f"baseline OpenSpiel hearts (C++), same loop: {baseline['decisions_per_s']:,.0f} decisions/s, "
            f"clone {baseline['clone_us']:.2f} us"
        )
    else:
        print("baseline: open-spiel not installed (pip install -e '.[bench]'); no ratios")
    print(f"build: {parlor.BUILD}; vs hearts = median over {rounds} interleaved CPU-clock bursts of {seconds} s")
    header = f"{'game':<10} {'P':>2} {'games/s':>9} {'decisions/s':>12} {'cpu dec/s':>10} {'hearts/s':>9} "
    header += f"{'vs hearts':>9} {'(min-max)':>11} {'clone us':>9} {'legal us':>9} {'apply us':>9} {'determ. us':>10}"
    header += f" {'new_game us':>11}"
    print(header)
    for r in rows:
        ratio = f"{r['ratio_to_hearts']:.2f}x" if "ratio_to_hearts" in r else "-"
        spread = f"{r['ratio_range'][0]:.2f}-{r['ratio_range'][1]:.2f}" if "ratio_range" in r else "-"
        print(
            f"{r['game']:<10} {r['players']:>2} {r['games_per_s']:>9,.0f} {r['decisions_per_s']:>12,.0f} "
            f"{r['cpu_decisions_per_s']:>10,.0f} {r.get('hearts_decisions_per_s', 0):>9,.0f} {ratio:>9} {spread:>11} "
            f"{r['clone_us']:>9.2f} {r['legal_actions_us']:>9.2f} {r['apply_us']:>9.2f} {r['determinize_us']:>10.1f} "
            f"{r['new_game_us']:>11.1f}"
        )
    print(f"results digest ({report['digest_games']} seeded random games per game):")
    for name, value in digest.items():
        print(f"  {name:<10} {value}")
    if args.both_builds:
        report["pure"] = compare_with_pure(report, [a for a in (argv or []) if a != "--both-builds"])
    return report


def compare_with_pure(report: dict[str, Any], argv: list[str]) -> dict[str, Any]:
    """Run this benchmark on the pure-Python sources in a subprocess; print the speed-ups (on the
    ratio to hearts, each measured beside its own bursts, which cancels most of the machine's drift)."""
    env = {**os.environ, "PARLOR_PURE": "1"}
    out = subprocess.run(
        [sys.executable, __file__, *argv, "--json"], env=env, capture_output=True, text=True, check=True
    )
    pure = json.loads(out.stdout)
    print(f"\n{report['build']} build against pure Python (PARLOR_PURE=1):")
    print(f"{'game':<10} {'P':>2} {'cpu dec/s':>10} {'pure':>9} {'speed-up':>9} {'vs hearts':>15}")
    for mine, theirs in zip(report["rows"], pure["rows"], strict=True):
        speed = mine["cpu_decisions_per_s"] / theirs["cpu_decisions_per_s"]
        hearts = "-"
        if "ratio_to_hearts" in mine and "ratio_to_hearts" in theirs:
            hearts = f"{theirs['ratio_to_hearts']:.2f}x -> {mine['ratio_to_hearts']:.2f}x"
            speed = mine["ratio_to_hearts"] / theirs["ratio_to_hearts"]
        print(
            f"{mine['game']:<10} {mine['players']:>2} {mine['cpu_decisions_per_s']:>10,.0f} "
            f"{theirs['cpu_decisions_per_s']:>9,.0f} {speed:>8.2f}x {hearts:>15}"
        )
    same = "the same" if pure["digest"] == report["digest"] else "DIFFERENT"
    print(f"results digest: {same} in both builds")
    return pure


if __name__ == "__main__":
    main(sys.argv[1:])
