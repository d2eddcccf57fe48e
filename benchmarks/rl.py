"""RL adapters' speed next to the raw engine, interleaved in the same run.

    python benchmarks/rl.py [--rounds 5] [--games 4] [--num-envs 64] [--players N] [--json]

Per game (at its smallest table unless ``--players``), five ways to play random games:

- ``raw``: the engine alone, uniform random legal moves (``legal_actions`` + ``apply``);
- ``aec``: PettingZoo AEC, ``last()`` + a masked random ``step`` for every seat;
- ``par``: PettingZoo parallel env, one masked random action per seat to move;
- ``gym``: the Gymnasium env, one learning seat, the other seats ``random`` bots;
- ``vec``: ``parlor.rl.vector`` with ``--num-envs`` games, the same setup, masked random
  actions drawn for the whole batch at once.

Each row is decisions per second (every seat's moves; for ``vec`` the learner's steps times
the decisions per learner step that ``gym`` measured, the same setup) and the cost factor
``raw / mode`` (goals, issue 32: aec and gym at most 1.5, vec at least 0.5 of raw, i.e. a factor
of at most 2). The modes run in turns, ``--rounds`` times (each ``--games`` games, the vector
env the same number of decisions), and each figure is the total over the rounds, so a change
in the machine's load hits every mode alike. The per-call costs of the view, the view-based
encoder, the encoder in use and the mask are printed too (µs, on states sampled from ``raw``).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import numpy as np

from parlor import games
from parlor.rl import encoding
from parlor.rl.gym import ParlorSingleSeatEnv
from parlor.rl.pettingzoo import env as aec_env
from parlor.rl.pettingzoo import parallel_env
from parlor.rl.vector import ParlorVectorEnv


def raw_engine(name: str, players: int, seeds: range, samples: list[Any]) -> int:
    game = games.get(name)
    rnd = random.Random(seeds.start)
    decisions = 0
    for seed in seeds:
        state = game.new_game(players, seed)
        while state.to_move:
            seat = state.to_move[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rnd.randrange(len(legal))])
            decisions += 1
            if decisions % 37 == 0 and len(samples) < 200 and state.to_move:
                samples.append(state.clone())
    return decisions


def pick(rnd: random.Random, mask: np.ndarray) -> int:
    ids = np.flatnonzero(mask)
    return int(ids[rnd.randrange(len(ids))])


def aec_run(name: str, players: int, seeds: range) -> int:
    e = aec_env(name, players=players)
    rnd = random.Random(seeds.start)
    steps = 0
    for seed in seeds:
        e.reset(seed=seed)
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(pick(rnd, obs["action_mask"]))
            steps += 1
    return steps


def parallel_run(name: str, players: int, seeds: range) -> int:
    e = parallel_env(name, players=players)
    rnd = random.Random(seeds.start)
    decisions = 0
    for seed in seeds:
        obs, _ = e.reset(seed=seed)
        while e.agents:
            movers = list(e.state.to_move)
            actions = {a: (pick(rnd, o["action_mask"]) if o["action_mask"].any() else 0) for a, o in obs.items()}
            obs, *_ = e.step(actions)
            decisions += len(movers)
    return decisions


def gym_run(name: str, players: int, seeds: range) -> tuple[int, int]:
    """(learner steps, engine decisions: the learner's and the random bots')."""
    e = ParlorSingleSeatEnv(name, players=players, opponents="random", seat=None)
    rnd = random.Random(seeds.start)
    steps = decisions = 0
    for seed in seeds:
        _, info = e.reset(seed=seed)
        done = False
        while not done:
            _, _, done, _, info = e.step(pick(rnd, info["action_mask"]))
            steps += 1
        decisions += len(e.state.history())
    return steps, decisions


def vector_run(env: ParlorVectorEnv, info: dict[str, Any], rng: np.random.Generator, steps: int) -> tuple[int, Any]:
    """``steps`` learner decisions (rounded up to whole batches); masked random actions."""
    done = 0
    while done < steps:
        masks = info["action_mask"]
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        _, _, _, _, info = env.step(actions)
        done += env.num_envs
    return done, info


def per_call_us(samples: list[Any], fn: Any) -> float:
    start = time.perf_counter()
    for s in samples:
        fn(s)
    return (time.perf_counter() - start) / len(samples) * 1e6


def measure(name: str, players: int, rounds: int, n_games: int, num_envs: int) -> dict[str, Any]:
    game = games.get(name)
    enc = encoding(game)
    seconds = dict.fromkeys(("raw", "aec", "par", "gym", "vec"), 0.0)
    counts = dict.fromkeys(seconds, 0)
    gym_steps = 0
    samples: list[Any] = []
    venv = ParlorVectorEnv(name, num_envs=num_envs, players=players, opponents="random", seed=1)
    _, vinfo = venv.reset()
    vrng = np.random.default_rng(1)
    for r in range(rounds):
        seeds = range(r * n_games, (r + 1) * n_games)
        t = time.perf_counter()
        counts["raw"] += raw_engine(name, players, seeds, samples)
        seconds["raw"] += time.perf_counter() - t
        t = time.perf_counter()
        counts["aec"] += aec_run(name, players, seeds)
        seconds["aec"] += time.perf_counter() - t
        t = time.perf_counter()
        counts["par"] += parallel_run(name, players, seeds)
        seconds["par"] += time.perf_counter() - t
        t = time.perf_counter()
        steps, decisions = gym_run(name, players, seeds)
        seconds["gym"] += time.perf_counter() - t
        gym_steps += steps
        counts["gym"] += decisions
        t = time.perf_counter()
        done, vinfo = vector_run(venv, vinfo, vrng, steps)
        seconds["vec"] += time.perf_counter() - t
        counts["vec"] += done  # learner steps; converted below
    per_step = counts["gym"] / gym_steps  # engine decisions per learner step (random opponents)
    counts["vec"] = round(counts["vec"] * per_step)
    rate = {k: counts[k] / seconds[k] for k in seconds}
    buf = np.zeros(enc.LAYOUT.size, np.float32)
    mask = np.zeros(game.num_actions, np.int8)
    return {
        "game": name,
        "players": players,
        "num_envs": num_envs,
        "decisions_per_s": {k: round(v) for k, v in rate.items()},
        "cost_factor": {k: round(rate["raw"] / v, 2) for k, v in rate.items() if k != "raw"},
        "decisions_per_learner_step": round(per_step, 2),
        "us_per_call": {
            "view": round(per_call_us(samples, lambda s: s.view(s.to_move[0], recall=True)), 1),
            "encode_from_view": round(per_call_us(samples, lambda s: enc.encode_from_view(s, s.to_move[0], buf)), 1),
            "encode": round(per_call_us(samples, lambda s: enc.encode(s, s.to_move[0], buf)), 1),
            "action_mask": round(per_call_us(samples, lambda s: enc.action_mask(s, s.to_move[0], mask)), 1),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=4, help="games per mode and round")
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--players", type=int, default=0, help="0: each game's smallest table")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    import parlor

    rows = []
    for name in args.game or games.names():
        game = games.get(name)
        players = min(max(args.players, game.min_players), game.max_players)
        rows.append(measure(name, players, args.rounds, args.games, args.num_envs))
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"parlor build: {parlor.BUILD}; decisions/s (cost factor raw/mode)")
    head = f"{'game':11} {'p':>2} {'raw':>8} {'aec':>14} {'par':>14} {'gym':>14} {'vec':>14}"
    print(head + "   µs: view  enc(view)  enc  mask")
    for r in rows:
        d, f, us = r["decisions_per_s"], r["cost_factor"], r["us_per_call"]
        cells = "".join(f" {d[k]:>7} ({f[k]:>4}x)" for k in ("aec", "par", "gym", "vec"))
        print(
            f"{r['game']:11} {r['players']:>2} {d['raw']:>8}{cells}   {us['view']:>7} {us['encode_from_view']:>9}"
            f" {us['encode']:>5} {us['action_mask']:>5}"
        )


if __name__ == "__main__":
    main()
