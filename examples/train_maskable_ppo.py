"""Learn one Parlor game with MaskablePPO on the native vector env, then measure it.

    pip install torch==2.13.0             # torch's CPU build first (a plain `torch` pulls a CUDA build)
    pip install -e ".[rl,train]"
    python examples/train_maskable_ppo.py --game sweet-nose --players 3 --steps 120000 --seed 0

Trains one learning seat (drawn at random each episode) against ``--opponents`` bots on
``parlor.rl.vector.ParlorVectorEnv`` (``--envs`` games stepped together, observations and masks
written straight into one array) through its Stable-Baselines3 face. Then it plays ``--eval``
seeded games with the trained policy (deterministic, masked) and the same games with a
uniformly random masked policy, against each of ``--eval-against`` (default: random and
medium), and prints both win rates with Wilson 95% intervals (a shared win counts its share)
and whether the intervals are apart. ``--json`` prints the same as one JSON object.

Why this setup learns quickly on a CPU: many envs per batch (one forward pass picks the actions
of every env), torch on one thread (PPO's small networks gain nothing from more threads, and on
a shared machine extra threads only wait for each other), and the rollouts long enough
(``--envs`` x ``--n-steps``) that each update sees a few hundred finished games.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.logger import Logger

from parlor.rl.gym import ParlorSingleSeatEnv
from parlor.rl.vector import ParlorVectorEnv


def wilson(wins: float, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p, z = wins / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def win_rate(game: str, players: int, opponents: str, choose: Any, games: int, seed: int) -> dict[str, Any]:
    """``games`` seeded games of one seat (drawn per game) played by ``choose(obs, mask)``."""
    env = ParlorSingleSeatEnv(game, players=players, opponents=opponents, seat=None)
    wins = 0.0
    for g in range(games):
        obs, info = env.reset(seed=seed + g)
        done = False
        while not done:
            obs, _, done, _, info = env.step(choose(obs, info["action_mask"].astype(bool)))
        winners = env.state.result().winners
        if env.seat in winners:
            wins += 1.0 / len(winners)  # a shared win counts its share
    low, high = wilson(wins, games)
    return {"rate": round(wins / games, 3), "ci95": [round(low, 3), round(high, 3)]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="sweet-nose", choices=("mamma-mia", "sweet-nose", "mottainai"))
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--opponents", default="random", help="bot spec of the other seats while training")
    parser.add_argument("--steps", type=int, default=120_000, help="learner decisions, all envs together")
    parser.add_argument("--envs", type=int, default=32)
    parser.add_argument("--n-steps", type=int, default=64, help="steps per env per rollout")
    parser.add_argument("--eval", type=int, default=300, help="evaluation games per opponent")
    parser.add_argument("--eval-against", default="random,medium", help="comma-separated bot specs")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    torch.set_num_threads(1)

    env = ParlorVectorEnv(
        args.game, num_envs=args.envs, players=args.players, opponents=args.opponents, seed=args.seed
    ).sb3()
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=args.n_steps,
        batch_size=512,
        n_epochs=5,
        learning_rate=1e-3,
        ent_coef=0.01,
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    # A logger with no outputs: SB3's default one makes an empty folder in the system's temporary
    # directory at every run, even when it writes nothing.
    model.set_logger(Logger(folder=None, output_formats=[]))
    start, cpu = time.perf_counter(), time.process_time()
    model.learn(total_timesteps=args.steps)
    trained_seconds, trained_cpu = time.perf_counter() - start, time.process_time() - cpu

    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        return int(model.predict(obs, action_masks=mask, deterministic=True)[0])

    rng = np.random.default_rng(args.seed)

    def uniform(obs: np.ndarray, mask: np.ndarray) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    result: dict[str, Any] = {
        "game": args.game,
        "players": args.players,
        "opponents": args.opponents,
        "steps": args.steps,
        "seed": args.seed,
        "episodes": env.env.episodes,
        "train_seconds": round(trained_seconds),
        "train_cpu_seconds": round(trained_cpu),
        "eval_games": args.eval,
        "against": {},
    }
    for bot in (b.strip() for b in args.eval_against.split(",") if b.strip()):
        trained = win_rate(args.game, args.players, bot, policy, args.eval, 10_000)
        baseline = win_rate(args.game, args.players, bot, uniform, args.eval, 10_000)
        apart = trained["ci95"][0] > baseline["ci95"][1] or trained["ci95"][1] < baseline["ci95"][0]
        result["against"][bot] = {"trained": trained, "uniform_random": baseline, "intervals_apart": apart}
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"{args.game}, {args.players} players, seed {args.seed}: {args.steps} steps against {args.opponents}"
        f" ({result['episodes']} episodes) in {trained_seconds:.0f} s ({trained_cpu:.0f} CPU s)"
    )
    for bot, r in result["against"].items():
        t, b = r["trained"], r["uniform_random"]
        print(
            f"vs {bot}: trained {t['rate']:.3f} [{t['ci95'][0]:.3f}, {t['ci95'][1]:.3f}]"
            f"  random policy {b['rate']:.3f} [{b['ci95'][0]:.3f}, {b['ci95'][1]:.3f}]"
            f"  intervals {'apart' if r['intervals_apart'] else 'overlap'}"
        )


if __name__ == "__main__":
    main()
