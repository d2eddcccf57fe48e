"""The learned evaluator's cost per leaf, as a ratio to one random playout decision, and the
search's iterations per second with it (``master``) and without it (``expert``).

    python benchmarks/evaluator.py [--players 2] [--positions 20] [--seconds 1.0] [--repeat 3] [--quick]
    python benchmarks/evaluator.py --move-time --players 4 [--positions 20]

For each registered game, at mid-game positions of random play, it times (in the same process,
so the machine's load cancels out of the ratio):

* one random playout decision (the baseline: ``legal_actions`` + ``apply``, playing the same
  positions' clones out at random, as a playout does),
* one leaf of ``master``'s evaluator (``LeafEvaluator``: encode every seat's observation into a
  batch, run the network once on it), split into the encoding and the network; at two players
  also the one-row leaf (``one_row=1``: seat 0's non-zero inputs only, a sparse first layer,
  seat 1 gets ``1 - v``),
* the game's hand-written ``evaluate`` on the same positions (what ``expert`` judges leaves by),
* the search's iterations per CPU second against ``expert``'s (both with a budget of 1000
  iterations from the same positions, interleaved, as a ratio): ``master`` with the network as a prior on the root's
  children or two moves deep (``prior_depth=1`` / ``2``, expert's own leaf: ``blend=0``), and
  with the network blended into every leaf (``prior_depth=0:blend=0.3``), also reading only the
  searching seat's row (``one_row=1``) and only every 3rd leaf (``every=3``).

and prints each as microseconds and as playout decisions' worth. ``master`` pays the network on
top of ``expert``'s playout and ``evaluate`` at each leaf (``docs/evaluator.md``); the ratio says
how many playout moves one leaf evaluation costs. ``--repeat N`` reports medians of N runs.
``--move-time`` prints only ``master``'s and ``expert``'s CPU seconds per move at their default
budgets instead (median, ``master``'s slowest, and the ratio of the medians).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import numpy as np

from parlor import games
from parlor.bots import _heuristic_module, make_bot
from parlor.bots.evaluator import LeafEvaluator
from parlor.rl import encoding


def positions(name: str, players: int, count: int) -> list[Any]:
    """Unfinished positions from random games, spread over the game (seeded)."""
    game = games.get(name)
    rnd = random.Random(7)
    out: list[Any] = []
    seed = 0
    while len(out) < count:
        state = game.new_game(players, seed)
        seed += 1
        target = rnd.randrange(5, 120)
        steps = 0
        while state.to_move and steps < target:
            seat = state.to_move[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rnd.randrange(len(legal))])
            steps += 1
        if state.to_move:
            out.append(state)
    return out


def playout_decision(states: list[Any], seconds: float) -> float:
    """Seconds per decision of random playouts from clones of ``states`` (clone time excluded)."""
    rnd = random.Random(1)
    decisions, spent = 0, 0.0
    while spent < seconds:
        for start in states:
            state = start.clone()
            t = time.perf_counter()
            while state.to_move:
                seat = state.to_move[0]
                legal = state.legal_actions(seat)
                state.apply(seat, legal[rnd.randrange(len(legal))])
                decisions += 1
            spent += time.perf_counter() - t
    return spent / decisions


def per_call(fn: Any, items: list[Any], seconds: float) -> float:
    """Seconds per call of ``fn`` over ``items``, looping for about ``seconds``."""
    calls, start = 0, time.perf_counter()
    while True:
        for item in items:
            fn(item)
        calls += len(items)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return elapsed / calls


def measure(name: str, players: int, count: int, seconds: float) -> dict[str, float]:
    game = games.get(name)
    states = positions(name, players, count)
    leaf = LeafEvaluator(game)
    enc = encoding(name)
    buf = np.zeros((players, leaf.net.input_size), np.float32)
    seats = list(range(players))
    batches = []
    for s in states:
        enc.encode_batch([s] * players, seats, out=buf)
        batches.append(buf.copy())
    hand_written = getattr(_heuristic_module(game), "evaluate", None)
    net = leaf.net_for(players)
    one_row = LeafEvaluator(game, one_row_for_two=True)
    leaf(states[0]), one_row(states[0])  # the weights are read at the first call, not timed
    playout = playout_decision(states, seconds)
    figures = {
        "playout decision": playout,
        "evaluator leaf": per_call(leaf, states, seconds),
        "  encode seats": per_call(lambda s: enc.encode_batch([s] * players, seats, out=buf), states, seconds),
        "  network": per_call(net, batches, seconds),
    }
    if players == 2:
        figures["one-row leaf (1 - v)"] = per_call(one_row, states, seconds)
    if hand_written is not None:
        figures["hand-written evaluate"] = per_call(hand_written, states, seconds)
    out = {k: v / playout if k != "playout decision" else v for k, v in figures.items()}
    out.update(search_speed(game, players, states))
    return out


# The searches timed against ``expert``: the network as a prior on the root's children, the
# prior two moves deep (both with expert's own leaf), and the network blended into the leaf
# (every seat's row; the searching seat's row only; that, on every 3rd leaf).
SEARCHES = {
    "prior depth 1": "master:prior_depth=1:blend=0",
    "prior depth 2": "master:prior_depth=2:blend=0",
    "blended leaf": "master:prior_depth=0:blend=0.3",
    "blended, one row": "master:prior_depth=0:blend=0.3:one_row=1",
    "blended, one row, every 3rd leaf": "master:prior_depth=0:blend=0.3:one_row=1:every=3",
}


def search_speed(game: Any, players: int, states: list[Any], iterations: int = 1000) -> dict[str, float]:
    """Iterations per second of ``expert`` and of each of ``SEARCHES`` from the same positions
    (fixed budgets, interleaved, in turn forwards and backwards), each as a share of expert's.
    Timed in this process's CPU seconds: on a loaded machine the wall clock of a 0.1 s search
    mostly measures the other processes."""
    spent = {"expert": 0.0, **{spec: 0.0 for spec in SEARCHES.values()}}
    done = dict.fromkeys(spent, 0)
    for i, state in enumerate(states):
        seat = state.to_move[0]
        for spec in list(spent)[:: 1 if i % 2 == 0 else -1]:
            bot = make_bot(f"{spec}:iterations={iterations}", game, i)
            start = time.process_time()
            bot.choose(state.clone(), seat)
            spent[spec] += time.process_time() - start
            done[spec] += bot.last_iterations  # type: ignore[attr-defined]
    rate = {spec: done[spec] / spent[spec] for spec in spent}
    out = {"expert iterations/s": rate["expert"]}
    for label, spec in SEARCHES.items():
        out[f"{label} / expert"] = rate[spec] / rate["expert"]
    return out


def move_time(game: Any, players: int, states: list[Any]) -> dict[str, float]:
    """CPU seconds per move of ``master`` and ``expert`` at their default budgets from the same
    positions (interleaved, in turn one first and the other): the bound set for ``master`` is a second a
    move at four players. The first ``master`` move, which reads the weights, is not timed."""
    make_bot("master", game, 0).choose(states[0].clone(), states[0].to_move[0])
    spent: dict[str, list[float]] = {"expert": [], "master": []}
    for i, state in enumerate(states):
        seat = state.to_move[0]
        for spec in ("expert", "master") if i % 2 == 0 else ("master", "expert"):
            bot = make_bot(spec, game, i)
            start = time.process_time()
            bot.choose(state.clone(), seat)
            spent[spec].append(time.process_time() - start)
    return {
        "expert move s": statistics.median(spent["expert"]),
        "master move s": statistics.median(spent["master"]),
        "master move s, slowest": max(spent["master"]),
        "master / expert move time": statistics.median(spent["master"]) / statistics.median(spent["expert"]),
    }


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--game", choices=games.names())
    parser.add_argument("--quick", action="store_true", help="a smoke run: 3 positions, 0.05 s per figure")
    parser.add_argument(
        "--move-time", action="store_true", help="only the CPU seconds per move of master and expert (try --players 4)"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.positions, args.seconds, args.repeat = 3, 0.05, 1
    rows = []
    for name in [args.game] if args.game else games.names():
        players = max(args.players, games.get(name).player_range()[0])
        if args.move_time:
            times = move_time(games.get(name), players, positions(name, players, args.positions))
            print(f"{name}, {players} players, {args.positions} positions, CPU seconds a move:")
            for key, value in times.items():
                print(f"  {key:<26} {value:6.3f}")
            rows.append({"game": name, "players": players, **times})
            continue
        runs = [measure(name, players, args.positions, args.seconds) for _ in range(args.repeat)]
        base = statistics.median(r["playout decision"] for r in runs)
        print(f"{name}, {players} players: one random playout decision {base * 1e6:.1f} µs")
        row: dict[str, Any] = {"game": name, "players": players, "playout_decision_s": base}
        for key in runs[0]:
            if key == "playout decision":
                continue
            if "iterations/s" in key or key.endswith("/ expert"):
                value = statistics.median(r[key] for r in runs)
                print(f"  {key:<22} {value:8.2f}" if key.endswith("/ expert") else f"  {key:<22} {value:8.0f}")
                row[key] = value
                continue
            ratio = statistics.median(r[key] for r in runs)
            print(f"  {key:<22} {ratio * base * 1e6:8.1f} µs = {ratio:6.1f} playout decisions")
            row[key.strip()] = ratio
        rows.append(row)
    return rows


if __name__ == "__main__":
    main()
