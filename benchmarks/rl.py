"""RL adapters' speed next to the raw engine, in the same run.

    python benchmarks/rl.py [--games N] [--json]

Per game (at its smallest table): the raw engine's decisions/s (uniform random legal moves,
``legal_actions`` + ``apply``), the cost of one observation encoding and of one action mask
(µs), PettingZoo AEC steps/s (``last()`` + masked random ``step``) and Gymnasium steps/s
(one seat; the other seats are ``random`` bots, so an env step includes their moves). The
ratios ``raw / env`` are the env's cost factor over the engine (goal: at most 3). Absolute
figures on a shared machine are noise; the ratios are what to compare.
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


def raw_engine(name: str, players: int, n_games: int) -> tuple[float, list[Any]]:
    game = games.get(name)
    rnd = random.Random(1)
    decisions, samples = 0, []
    start = time.perf_counter()
    for seed in range(n_games):
        state = game.new_game(players, seed)
        while state.to_move:
            seat = state.to_move[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rnd.randrange(len(legal))])
            decisions += 1
            if decisions % 37 == 0 and len(samples) < 200:
                samples.append(state.clone())
    return decisions / (time.perf_counter() - start), [s for s in samples if s.to_move]


def per_call_us(samples: list[Any], fn: Any) -> float:
    start = time.perf_counter()
    for s in samples:
        fn(s)
    return (time.perf_counter() - start) / len(samples) * 1e6


def pettingzoo_steps(name: str, players: int, n_games: int) -> float:
    e = aec_env(name, players=players)
    rng = np.random.default_rng(1)
    steps = 0
    start = time.perf_counter()
    for seed in range(n_games):
        e.reset(seed=seed)
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps / (time.perf_counter() - start)


def gym_steps(name: str, players: int, n_games: int) -> tuple[float, float]:
    """(env steps/s, engine decisions/s inside them: your moves and the random bots')."""
    e = ParlorSingleSeatEnv(name, players=players, opponents="random", seat=0)
    rng = np.random.default_rng(1)
    steps = 0
    decisions = 0
    start = time.perf_counter()
    for seed in range(n_games):
        _, info = e.reset(seed=seed)
        done = False
        while not done:
            _, _, done, _, info = e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            steps += 1
        decisions += len(e.state.history())
    elapsed = time.perf_counter() - start
    return steps / elapsed, decisions / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for game in games.all_games():
        name, players = game.name, game.min_players
        enc = encoding(game)
        raw, samples = raw_engine(name, players, args.games)
        buf = np.zeros(enc.LAYOUT.size, np.float32)
        mask = np.zeros(game.num_actions, np.int8)
        view_us = per_call_us(samples, lambda s: s.view(s.to_move[0], recall=True))
        encode_us = per_call_us(samples, lambda s, b=buf, e=enc: e.encode(s, s.to_move[0], b))
        mask_us = per_call_us(samples, lambda s, m=mask, e=enc: e.action_mask(s, s.to_move[0], m))
        pz = pettingzoo_steps(name, players, args.games)
        gym, gym_decisions = gym_steps(name, players, args.games)
        rows.append(
            {
                "game": name,
                "players": players,
                "raw_decisions_per_s": round(raw),
                "view_us": round(view_us, 1),
                "encode_us": round(encode_us, 1),
                "mask_us": round(mask_us, 1),
                "pettingzoo_steps_per_s": round(pz),
                "pettingzoo_cost_factor": round(raw / pz, 2),
                "gym_steps_per_s": round(gym),
                "gym_decisions_per_s": round(gym_decisions),
                "gym_cost_factor": round(raw / gym_decisions, 2),
            }
        )
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    head = "game        p  raw dec/s  view µs  encode µs  mask µs  PZ steps/s  PZ x  gym steps/s  gym dec/s  gym x"
    print(head)
    for r in rows:
        print(
            f"{r['game']:<11} {r['players']}  {r['raw_decisions_per_s']:>9}  {r['view_us']:>7}  {r['encode_us']:>9}"
            f"  {r['mask_us']:>7}  {r['pettingzoo_steps_per_s']:>10}  {r['pettingzoo_cost_factor']:>4}"
            f"  {r['gym_steps_per_s']:>11}  {r['gym_decisions_per_s']:>9}  {r['gym_cost_factor']:>5}"
        )


if __name__ == "__main__":
    main()
