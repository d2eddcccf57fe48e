"""Learn one Parlor game against `random` bots with MaskablePPO, then measure it.

    pip install -e ".[rl,train]"          # torch: install the CPU build (pip install torch==2.13.0)
    python examples/train_maskable_ppo.py --game mamma-mia --players 2 --steps 30000 --eval 200

Trains one learning seat (drawn at random each episode) on ``parlor/<Game>-v0`` with the
action mask, then plays ``--eval`` seeded games with the trained policy (deterministic, masked)
and the same number with a uniformly random masked policy, against the same random bots, and
prints both win rates with Wilson 95% intervals and the training time.
"""

from __future__ import annotations

import argparse
import math
import time

import gymnasium
import numpy as np
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker

import parlor.rl.gym  # noqa: F401  (registers the ids)

IDS = {"mamma-mia": "parlor/MammaMia-v0", "sweet-nose": "parlor/SweetNose-v0", "mottainai": "parlor/Mottainai-v0"}


def wilson(wins: float, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p, z = wins / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def make_env(game: str, players: int) -> gymnasium.Env:
    env = gymnasium.make(IDS[game], players=players, opponents="random")
    return ActionMasker(env, lambda e: e.unwrapped.action_masks())


def win_rate(env: gymnasium.Env, choose, games: int, seed: int) -> tuple[float, tuple[float, float]]:
    wins = 0.0
    for g in range(games):
        obs, info = env.reset(seed=seed + g)
        done = False
        while not done:
            obs, _, done, _, info = env.step(choose(obs, info["action_mask"].astype(bool)))
        result = env.unwrapped.state.result()
        seat = env.unwrapped.seat
        if seat in result.winners:
            wins += 1.0 / len(result.winners)  # a shared win counts its share
    return wins / games, wilson(wins, games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="mamma-mia", choices=sorted(IDS))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--steps", type=int, default=30_000)
    parser.add_argument("--eval", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    env = make_env(args.game, args.players)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, n_steps=1024, batch_size=256, verbose=0, device="cpu")
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    trained_seconds = time.perf_counter() - start

    rng = np.random.default_rng(args.seed)
    eval_env = make_env(args.game, args.players)
    trained = win_rate(
        eval_env, lambda o, m: int(model.predict(o, action_masks=m, deterministic=True)[0]), args.eval, 10_000
    )
    baseline = win_rate(eval_env, lambda o, m: int(rng.choice(np.flatnonzero(m))), args.eval, 10_000)
    print(f"{args.game}, {args.players} players, {args.steps} steps in {trained_seconds:.0f} s")
    print(f"trained win rate vs random: {trained[0]:.3f}  95% [{trained[1][0]:.3f}, {trained[1][1]:.3f}]")
    print(f"random  win rate vs random: {baseline[0]:.3f}  95% [{baseline[1][0]:.3f}, {baseline[1][1]:.3f}]")


if __name__ == "__main__":
    main()
