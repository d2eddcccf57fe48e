"""How well does the value network rank the root's moves, against a long search?

    python scripts/root_moves.py GAME PLAYERS GAMES --out runs/root_moves.npz [--teacher 10000] [--sample 0.25]
    python scripts/root_moves.py --report runs/root_moves.npz

`master`'s prior judges each of the searching seat's moves at the root by the network's value of
the seat's own observation just after the move (``NetworkPrior``). That can only help if it
ranks sibling moves the way a stronger search would. This script measures it:

1. ``GAMES`` games of ``hard`` (``--bot``) against itself; at a ``--sample`` fraction of the decisions with
   more than one legal move, a long ``expert`` search (the teacher, ``--teacher`` iterations) and
   an ``expert``-budget one (``--short``, 1600) judge the root's moves. Each move the teacher
   visited is kept with its teacher value (mean backed-up reward), the short search's value and
   visits, the network prior's value, and the after-move observation (as the prior reads it).
   Written to ``--out`` after every game (so it can be stopped at any time).
2. ``--report``: per root (a group of sibling moves), how often the short search's and the
   network's best move is the teacher's, the teacher-value regret of their choices against a
   uniformly random move, the within-root correlation with the teacher's values, and a ridge
   regression on root-centred observations (a linear "distilled" ranker, fitted on three quarters
   of the roots, scored on the rest): does a model learn the teacher's ranking from this much
   data, and does adding it to the short search's values pick the teacher's move more often?

With ``--policy-only`` only the teacher searches (no short search, no network: ``net_v`` is NaN):
the data for the root move prior, ``scripts/policy_fit.py`` (the teacher's visit shares as targets;
each row also records its game, ``game``, so whole games can be held out).

Only the seat's own observation is read (the encoding of ``parlor.rl``); the teacher and the
short search are the ordinary search, which never reads the real hidden cards.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from parlor import games
from parlor.bots import make_builtin_bot, search_settings
from parlor.bots.evaluator import NetworkPrior
from parlor.bots.ismcts import ISMCTSBot
from parlor.core.errors import ParlorError
from parlor.core.rng import FastRng
from parlor.rl import encoding


class RootKeeper(ISMCTSBot):
    """The search, keeping its last decision's root to read the moves' visits and values."""

    def iterate(self, root, state, observer, rng):  # type: ignore[no-untyped-def]
        self.root = root
        super().iterate(root, state, observer, rng)


def collect(
    name: str,
    players: int,
    n_games: int,
    teacher: int,
    short: int,
    sample: float,
    seed: int,
    out: str,
    players_bot: str = "hard",
    policy_only: bool = False,
) -> None:
    game = games.get(name)
    enc = encoding(name)
    settings = search_settings(game, "expert")
    prior = NetworkPrior(game)
    rng = np.random.default_rng(seed)
    rows: dict[str, list[Any]] = {
        k: [] for k in ("obs", "group", "game", "teacher_q", "teacher_n", "short_q", "short_n", "net_v")
    }
    groups = 0
    started = time.process_time()
    for gi in range(n_games):
        state = game.new_game(players, seed=seed * 1000 + gi)
        bots = [make_builtin_bot(players_bot, game, seed * 1000 + gi * 10 + s) for s in range(players)]
        while state.to_move:
            seat = state.to_move[0]
            if len(state.legal_actions(seat)) > 1 and rng.random() < sample:
                long_search = RootKeeper(game, int(rng.integers(1 << 30)), iterations=teacher, **settings)  # type: ignore[arg-type]
                long_search.choose(state, seat)
                by_action = {}
                if not policy_only:  # policy targets need the teacher only
                    short_search = RootKeeper(game, int(rng.integers(1 << 30)), iterations=short, **settings)  # type: ignore[arg-type]
                    short_search.choose(state, seat)
                    by_action = {c.action: c for c in short_search.root.children.values()}
                moves = [c for c in long_search.root.children.values() if c.visits > 0]
                if len(moves) > 1:
                    worlds = FastRng(int(rng.integers(1 << 30)))
                    for c in moves:
                        world = state.determinize(seat, worlds)
                        world.apply(seat, c.action)
                        s = by_action.get(c.action)
                        rows["obs"].append(enc.encode(world, seat))
                        rows["group"].append(groups)
                        rows["game"].append(gi)
                        rows["teacher_q"].append(c.reward / c.visits)
                        rows["teacher_n"].append(c.visits)
                        rows["short_q"].append(s.reward / s.visits if s is not None and s.visits else np.nan)
                        rows["short_n"].append(s.visits if s is not None else 0)
                        rows["net_v"].append(np.nan if policy_only else prior(world, seat))
                    groups += 1
            state.apply(seat, bots[seat].choose(state, seat))
        cpu = time.process_time() - started
        print(f"game {gi}: roots {groups}, moves {len(rows['group'])}, CPU {cpu:.0f} s", flush=True)
        arrays = {k: np.array(v, np.float32 if k == "obs" else np.float64) for k, v in rows.items()}
        np.savez(out, **arrays, cpu=cpu)  # type: ignore[arg-type]


def ranking(pred: np.ndarray, data: Any, roots: np.ndarray) -> tuple[float, float, float]:
    """Over ``roots``: share whose best move by ``pred`` is the teacher's (most visits), mean
    within-root correlation of ``pred`` with the teacher's values, mean teacher-value regret."""
    agree, corr, regret = [], [], []
    for k in roots:
        m = data["group"] == k
        q, p = data["teacher_q"][m], pred[m]
        best = int(np.argmax(data["teacher_n"][m]))
        agree.append(float(np.argmax(p) == best))
        regret.append(q[best] - q[int(np.argmax(p))])
        if p.std() > 0 and q.std() > 0:
            corr.append(float(np.corrcoef(p, q)[0, 1]))
    return float(np.mean(agree)), float(np.mean(corr)), float(np.mean(regret))


def report(path: str) -> None:
    data = dict(np.load(path))
    group, q = data["group"], data["teacher_q"]
    roots = np.unique(group)
    print(f"{len(roots)} roots, {len(group) / len(roots):.2f} moves each, {float(data['cpu']):.0f} CPU s to collect")

    def random_regret(among: np.ndarray) -> float:
        return float(
            np.mean([q[group == k][np.argmax(data["teacher_n"][group == k])] - q[group == k].mean() for k in among])
        )

    gaps = [np.diff(np.sort(q[group == k]))[-1] for k in roots]
    print(f"teacher value gap, best to second: median {np.median(gaps):.4f}, mean {np.mean(gaps):.4f}")
    short = np.where(data["short_n"] > 0, data["short_q"], -1.0)
    short_pick = np.where(data["short_n"] > 0, data["short_n"], -1.0)
    held = np.random.default_rng(0).permutation(roots)[: len(roots) // 4]
    test = np.isin(group, held)
    fit = np.unique(group[~test])
    x = data["obs"].astype(np.float64)
    y = q.copy()
    for k in roots:  # centre within each root: the ranker learns differences between siblings
        m = group == k
        x[m] -= x[m].mean(axis=0)
        y[m] -= y[m].mean()
    head = "all roots: best=teacher's  corr  regret | held-out quarter: best  corr  regret"
    print(f"{'':34}{head}")
    rows = [("short search (expert's budget)", short, short_pick), ("network prior (shipped)", data["net_v"], None)]
    for label, pred, pick in rows:
        a = ranking(pred if pick is None else pick, data, roots)
        c = ranking(pred, data, roots)
        h = ranking(pred if pick is None else pick, data, held)
        hc = ranking(pred, data, held)
        print(f"  {label:<31} {a[0]:.3f} {c[1]:6.3f} {a[2]:.4f} | {h[0]:.3f} {hc[1]:6.3f} {h[2]:.4f}")
    ranker = None
    for lam in (10.0, 100.0, 1000.0):
        a = x[~test]
        w = np.linalg.solve(a.T @ a + lam * np.eye(a.shape[1]), a.T @ y[~test])
        pred = x @ w
        ranker = pred if ranker is None else ranker
        f, h = ranking(pred, data, fit), ranking(pred, data, held)
        fit_text = f"{f[0]:.3f} {f[1]:6.3f} {f[2]:.4f}"
        print(f"  ridge ranker, lambda {lam:<6g} fit: {fit_text} | {h[0]:.3f} {h[1]:6.3f} {h[2]:.4f}")
    # The learning curve: the ranker (lambda 10) fitted on the first n fitting roots only, scored
    # on the same held-out quarter.
    for n in (100, 200, 350):
        if n < len(fit):
            use = np.isin(group, fit[:n])
            a = x[use]
            pred = x @ np.linalg.solve(a.T @ a + 10.0 * np.eye(a.shape[1]), a.T @ y[use])
            h = ranking(pred, data, held)
            print(f"  {f'ridge ranker, lambda 10, first {n} roots only':<53}| {h[0]:.3f} {h[1]:6.3f} {h[2]:.4f}")
    # Would the ranker (lambda 10) add to the search? Its centred values added to the short
    # search's values of the moves (weight alpha), the best move by the sum, on the held-out roots.
    for alpha in (0.25, 1.0):
        combined = np.where(data["short_n"] > 0, data["short_q"] + alpha * ranker, -1.0)  # type: ignore[operator]
        h = ranking(combined, data, held)
        label = f"short search + {alpha:g} x ranker (lambda 10)"
        print(f"  {label:<53}| {h[0]:.3f} {h[1]:6.3f} {h[2]:.4f}")
    print(f"  uniformly random move: regret {random_regret(roots):.4f} | held-out {random_regret(held):.4f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", nargs="?")
    parser.add_argument("players", nargs="?", type=int)
    parser.add_argument("games", nargs="?", type=int)
    parser.add_argument("--out", default="runs/root_moves.npz")
    parser.add_argument("--teacher", type=int, default=10000)
    parser.add_argument("--short", type=int, default=1600)
    parser.add_argument("--sample", type=float, default=0.25)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--bot", default="hard", help="the level that plays the games (default hard)")
    parser.add_argument("--report", metavar="NPZ")
    parser.add_argument(
        "--policy-only",
        action="store_true",
        help="only the teacher search (policy targets: its visits per root move); no short search or network",
    )
    args = parser.parse_args()
    if args.report:
        report(args.report)
        return
    if args.game is None or args.players is None or args.games is None:
        parser.error("GAME PLAYERS GAMES are needed to collect (or --report NPZ)")
    collect(
        args.game,
        args.players,
        args.games,
        args.teacher,
        args.short,
        args.sample,
        args.seed,
        args.out,
        args.bot,
        args.policy_only,
    )


if __name__ == "__main__":
    try:
        main()
    except FileNotFoundError as exc:  # a wrong path typed: one line, not a traceback
        raise SystemExit(f"root_moves.py: no such file: {exc.filename}") from None
    except ParlorError as exc:  # an unknown game, a player count it does not take
        raise SystemExit(f"root_moves.py: {exc}") from None
