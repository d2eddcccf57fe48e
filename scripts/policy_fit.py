"""Fit the root move prior (a policy) on a longer search's root visits.

    python scripts/root_moves.py sweet-nose 3 100 --policy-only --teacher 3200 --sample 0.5 --out runs/policy/sn3p.npz
    python scripts/policy_fit.py GAME runs/policy/sn3p.npz --out runs/policy/sn3p_policy.npz [--hidden 32] [--epochs 40]

The data: per root (a decision with more than one move), each move's after-move observation (the
seat's own information), the teacher's visits and mean value. The targets are the visit shares.
The last ``--held-out`` fraction of the games is held out whole (a game's roots are correlated).
Printed on the held-out roots: how often the most probable move is the teacher's most visited one
(top-1), the cross-entropy against the visit shares, and the same top-1 for the shipped value
network (its value of the after-move observation, as ``master``'s prior reads it) and for a
uniformly random move.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from parlor.bots.evaluator import shipped_net
from parlor.core.errors import ParlorError
from parlor.training.policy import fit_policy, group_softmax


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("data", nargs="+", help="npz files from scripts/root_moves.py --policy-only")
    parser.add_argument("--out", required=True)
    parser.add_argument("--hidden", default="", help="hidden layer sizes, e.g. 32 or 64,32 (none: linear)")
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--lr", type=float, default=0.003)
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument(
        "--sharpen", type=float, default=1.0, help="targets proportional to visits ** SHARPEN (1: the visit shares)"
    )
    parser.add_argument("--held-out", type=float, default=0.2)
    parser.add_argument("--players", type=int, default=None, help="the value network to compare with")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    parts = [dict(np.load(p)) for p in args.data]
    obs = np.concatenate([d["obs"] for d in parts]).astype(np.float32)
    n = np.concatenate([d["teacher_n"] for d in parts])
    # groups and games renumbered so that files do not collide
    group = np.concatenate([d["group"] + 1_000_000 * i for i, d in enumerate(parts)])
    game_id = np.concatenate([d["game"] + 1_000_000 * i for i, d in enumerate(parts)])
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    sizes = np.diff(np.append(starts, len(group)))
    # The teacher's visits are spread by its exploration (sibling values differ by about a hundredth),
    # so the shares are nearly flat; a power above 1 weighs the most visited moves more.
    n = n.astype(np.float64) ** args.sharpen
    target = n / np.repeat(np.add.reduceat(n, starts), sizes)
    games = np.unique(game_id)
    held_games = games[int(len(games) * (1 - args.held_out)) :]
    held_group = np.isin(game_id[starts], held_games)

    def subset(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        rows = np.concatenate([np.arange(s, s + k) for s, k in zip(starts[mask], sizes[mask])])
        local = np.concatenate([[0], np.cumsum(sizes[mask])[:-1]])
        return obs[rows], target[rows], local

    x_fit, t_fit, s_fit = subset(~held_group)
    x_held, t_held, s_held = subset(held_group)
    print(
        f"{len(starts)} roots ({held_group.sum()} held out, {len(held_games)} of {len(games)} games), "
        f"{len(obs)} moves, {len(obs) / len(starts):.1f} moves a root"
    )
    hidden = tuple(int(h) for h in args.hidden.split(",") if h)
    started = time.process_time()
    net = fit_policy(
        x_fit, t_fit, s_fit, game=args.game, hidden=hidden, epochs=args.epochs, lr=args.lr, l2=args.l2, seed=args.seed
    )
    cpu = time.process_time() - started

    def top1(scores: np.ndarray, t: np.ndarray, local: np.ndarray) -> float:
        ends = np.append(local[1:], len(t))
        return float(np.mean([np.argmax(scores[a:b]) == np.argmax(t[a:b]) for a, b in zip(local, ends)]))

    def cross_entropy(scores: np.ndarray, t: np.ndarray, local: np.ndarray) -> float:
        p = group_softmax(scores, local)
        return float(-(t * np.log(p + 1e-12)).sum() / len(local))

    value = shipped_net(args.game, args.players)
    uniform_top1 = float(np.mean(1.0 / np.diff(np.append(s_held, len(t_held)))))
    print(f"fit: {cpu:.0f} CPU s, hidden {hidden or 'none (linear)'}, {args.epochs} epochs")
    for label, x, t, local in (("fitted roots", x_fit, t_fit, s_fit), ("held-out roots", x_held, t_held, s_held)):
        scores = net.logits(x)
        flat = np.zeros(len(t))
        ce, ce_uniform = cross_entropy(scores, t, local), cross_entropy(flat, t, local)
        print(
            f"  {label}: policy top-1 {top1(scores, t, local):.3f}, cross-entropy {ce:.3f} "
            f"(uniform {ce_uniform:.3f}); value net top-1 {top1(value.logits(x), t, local):.3f}"
        )
    print(f"  held-out, uniformly random move: top-1 {uniform_top1:.3f}")
    net.meta.update(data=[str(p) for p in args.data], sharpen=args.sharpen, fit_cpu_seconds=round(cpu, 1))
    net.save(args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    try:
        main()
    except FileNotFoundError as exc:  # a wrong path typed: one line, not a traceback
        raise SystemExit(f"policy_fit.py: no such file: {exc.filename}") from None
    except ParlorError as exc:  # an unknown game, a player count it does not take
        raise SystemExit(f"policy_fit.py: {exc}") from None
