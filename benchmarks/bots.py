"""Bot speed: ISMCTS iterations per second and the time of one ``hard`` decision.

    python benchmarks/bots.py [--players 4] [--positions 6] [--quick] [--game sweet-nose] [--repeat 5]

For each registered game, at mid-game positions of random play, it measures the random
playout speed of the engine (decisions/s, the baseline, in the same process), ISMCTS
iterations per second (with the game's truncated playouts, as the levels search, and with
playouts to the end), and the wall time of one ``hard`` and one ``expert`` decision; and
reports the iterations as a ratio to playout decisions, since machines are noisy. On a shared
machine even the ratio moves from run to run: ``--repeat N`` measures every game N times, in
turn, and reports the medians (the ratio is the median of the runs' ratios).

With OpenSpiel installed (``pip install -e ".[bench]"``) it also plays OpenSpiel's C++ hearts
through the same loop just before and after each search, and reports the iterations at a
machine where hearts runs 300k decisions/s ("at hearts 300k"): the speed goal's scale. The
"it per 1k dec" column scales by this engine's own playout speed instead, so it falls when the
engine gets faster than the search around it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from parlor import games
from parlor.bots import make_bot, search_settings
from parlor.bots.ismcts import ISMCTSBot


class WholeBudgetBot(ISMCTSBot):
    """ISMCTS without the early stop: every iteration of the budget is searched.

    A subclass rather than a patched instance: the compiled build's bot takes no new attributes."""

    def decided(self, root: Any, remaining: int) -> bool:
        return False


def positions(name: str, players: int, count: int) -> list[Any]:
    game = games.get(name)
    rnd = random.Random(5)
    out: list[Any] = []
    seed = 0
    while len(out) < count:
        state = game.new_game(players, seed)
        seed += 1
        steps = 0
        while state.to_move:
            seat = state.to_move[0]
            legal = state.legal_actions(seat)
            if len(legal) > 1 and steps > 20 and rnd.random() < 0.05:
                out.append(state.clone())
                break
            state.apply(seat, rnd.choice(legal))
            steps += 1
    return out


def playout_rate(name: str, players: int, seconds: float) -> float:
    game = games.get(name)
    rnd = random.Random(1)
    decisions, start, seed = 0, time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        state = game.new_game(players, seed)
        seed += 1
        while state.to_move:
            seat = state.to_move[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rnd.randrange(len(legal))])
            decisions += 1
    return decisions / (time.perf_counter() - start)


def hearts_rate(seconds: float) -> float | None:
    """OpenSpiel hearts' random-play decisions per second through engine.py's loop, on the same wall
    clock as the searches (None without OpenSpiel)."""
    try:
        import pyspiel
    except ImportError:
        return None
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from engine import hearts_game

    hearts, rng = pyspiel.load_game("hearts"), random.Random(2)
    decisions, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        decisions += hearts_game(hearts, rng)
    return decisions / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--quick", action="store_true", help="one position, tiny budgets (smoke test)")
    parser.add_argument("--game", action="append", choices=games.names(), help="only this game (repeatable)")
    parser.add_argument("--repeat", type=int, default=1, help="measure each game N times, in turn; report medians")
    args = parser.parse_args(argv)
    names = args.game or list(games.names())
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in names}
    for _ in range(max(1, args.repeat)):
        for name in names:
            runs[name].append(measure(name, args))
    rows = [runs[name][0] if len(runs[name]) == 1 else median_row(runs[name]) for name in names]
    header = f"{'game':<11} {'P':>2} {'playout dec/s':>14} {'ISMCTS it/s':>12} {'(full)':>7} {'it per 1k dec':>14}"
    print(f"{header} {'at hearts 300k':>15} {'hard (median, max)':>20} {'expert (median, max)':>22}")
    for r in rows:
        print(
            f"{r['game']:<11} {r['players']:>2} {r['playout_decisions_per_s']:>14,.0f} "
            f"{r['ismcts_iterations_per_s']:>12,.0f} {r['ismcts_full_playout_iterations_per_s']:>7,.0f} "
            f"{r['iterations_per_1000_decisions']:>14.2f} "
            f"{r.get('iterations_per_s_at_hearts_300k', float('nan')):>15,.0f} "
            f"{r['hard_decision_s']:>10.2f} s, {r['hard_decision_max_s']:.2f} s "
            f"{r['expert_decision_s']:>10.2f} s, {r['expert_decision_max_s']:.2f} s"
        )
    return rows


def median_row(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Each figure's median over the runs of one game (the maxima stay maxima)."""
    row = dict(runs[0])
    for key, value in runs[0].items():
        if isinstance(value, float):
            values = [r[key] for r in runs]
            row[key] = max(values) if key.endswith("_max_s") else statistics.median(values)
    row["runs"] = len(runs)
    return row


def measure(name: str, args: argparse.Namespace) -> dict[str, Any]:
    """One measurement of one game: the baseline, then the searches, in this process."""
    game = games.get(name)
    players = min(max(args.players, game.min_players), game.max_players)
    sample = positions(name, players, 1 if args.quick else args.positions)
    baseline = playout_rate(name, players, 0.2 if args.quick else 2.0)
    hearts_before = hearts_rate(0.3 if args.quick else 1.0)
    rates, full_rates, hard_times, expert_times = [], [], [], []
    for i, state in enumerate(sample):
        seat = state.to_move[0]
        # Iterations/s as the levels search (the game's truncated playouts), and with
        # playouts to the end of the game for comparison.
        for settings, out in ((search_settings(game), rates), ({}, full_rates)):
            bot = WholeBudgetBot(game, seed=i, iterations=20 if args.quick else 300, **settings)  # type: ignore[arg-type]
            start = time.perf_counter()
            bot.choose(state, seat)
            out.append(bot.last_iterations / (time.perf_counter() - start))
        for level, times in (("hard", hard_times), ("expert", expert_times)):
            bot = make_bot(level, game, i)
            if args.quick:
                bot.iterations = 20  # type: ignore[attr-defined]
            start = time.perf_counter()
            bot.choose(state, seat)
            times.append(time.perf_counter() - start)
    hearts_after = hearts_rate(0.3 if args.quick else 1.0)
    row = {
        "game": name,
        "players": players,
        "playout_decisions_per_s": baseline,
        "ismcts_iterations_per_s": statistics.median(rates),
        "ismcts_full_playout_iterations_per_s": statistics.median(full_rates),
        "hard_decision_s": statistics.median(hard_times),
        "hard_decision_max_s": max(hard_times),
        "expert_decision_s": statistics.median(expert_times),
        "expert_decision_max_s": max(expert_times),
    }
    row["iterations_per_1000_decisions"] = 1000 * row["ismcts_iterations_per_s"] / baseline
    if hearts_before is not None and hearts_after is not None:
        hearts = row["hearts_decisions_per_s"] = (hearts_before + hearts_after) / 2
        row["iterations_per_s_at_hearts_300k"] = row["ismcts_iterations_per_s"] * 300_000 / hearts
    return row


if __name__ == "__main__":
    main(sys.argv[1:])
