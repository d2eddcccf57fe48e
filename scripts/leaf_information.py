"""What does the learned evaluator know that the game's own judgement does not?

    python scripts/leaf_information.py GAME PLAYERS GAMES --out runs/leaf_info.npz [--bot hard] [--seed 1]
    python scripts/leaf_information.py --report runs/leaf_info.npz

The search judges a sampled world by the game's hand-written ``evaluate``: a logistic of each
seat's lead in provisional score (``ismcts.margin_rewards``). ``master`` adds the value network.
That can only help where the network predicts the game's outcome better than the lead does.
This script measures it where the search actually asks: ``GAMES`` games of ``--bot`` against
itself, and at every position the game's ``evaluate`` judges (Mamma Mia! and Sweet Nose: the
start of each round; Mottainai judges anywhere, so every ``--every``-th decision), for each seat:

* the provisional scores ``evaluate`` reads (own first), and its reward;
* the shipped network's value of the seat's own observation (``LeafEvaluator``, as the blended
  leaf reads it);
* the seat's final reward (``ismcts.result_rewards``).

``--report`` prints per stage (the round; for Mottainai a block of ``--every * 4`` decisions), on
a quarter of the games held out whole, how much of the final reward's variance is explained
(R², least squares fitted on the other games) by the lead alone, by the network alone and by
both, and the mean squared error of ``evaluate`` as it is and with its logistic's scale refitted
(the best of a grid, on the other games). Only the real positions of the games are read, each
seat's network value from that seat's own observation.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from parlor import games
from parlor.bots import make_builtin_bot, search_settings
from parlor.bots.evaluator import LeafEvaluator
from parlor.bots.ismcts import margin_rewards, result_rewards
from parlor.core.errors import ParlorError

SCALES = (1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0)


def provisional_scores(name: str) -> Callable[[Any], list[float]]:
    """The per-seat scores the game's ``evaluate`` turns into rewards (its ``heuristic.py``)."""
    if name == "sweet-nose":
        from parlor.games.sweet_nose.playout import _NONE, _TILE_VALUE

        def sweet_nose(state: Any) -> list[float]:  # lower sweetness is better; a held tile helps
            held, scores = state.held, state.scores
            return [(_TILE_VALUE[held[p]] if held[p] != _NONE else 0.0) - scores[p] for p in range(state.players)]

        return sweet_nose
    if name == "mamma-mia":
        return lambda state: [float(len(c)) for c in state.completed]
    if name == "mottainai":
        from parlor.games.mottainai import cards

        return lambda state: [float(s) for s in cards.final_result(state).scores]
    raise SystemExit(f"no provisional scores for {name!r}")


def collect(name: str, players: int, n_games: int, bot: str, seed: int, every: int, out: str) -> None:
    game = games.get(name)
    judge = search_settings(game, "expert")["evaluate"]
    network = LeafEvaluator(game)
    scores_of = provisional_scores(name)
    by_round = name != "mottainai"
    rows: list[list[float]] = []
    started = time.process_time()
    for g in range(n_games):
        state = game.new_game(players, seed=seed * 1_000_003 + g)
        bots = [make_builtin_bot(bot, game, seed * 7919 + g * 10 + s) for s in range(players)]
        seen: list[tuple[int, list[float], list[float], list[float]]] = []
        decision = 0
        while not state.is_over:
            if by_round or decision % every == 0:
                judged = judge(state)
                if judged is not None:
                    stage = state.round if by_round else decision // (every * 4)
                    seen.append((stage, judged, network(state), scores_of(state)))
            mover = state.to_move[0]
            state.apply(mover, bots[mover].choose(state, mover))
            decision += 1
        final = result_rewards(state.result())
        for stage, judged, values, scores in seen:
            for s in range(players):
                rows.append([g, stage, s, judged[s], values[s], final[s], *scores[s:], *scores[:s]])
        cpu = time.process_time() - started
        print(f"game {g + 1}/{n_games}: {len(rows)} rows, CPU {cpu:.0f} s", flush=True)
        np.savez(out, rows=np.array(rows), players=players, game=name, bot=bot, cpu=cpu)


def _r2(x_train: np.ndarray, y_train: np.ndarray, x_test: np.ndarray, y_test: np.ndarray) -> float:
    a = np.c_[np.ones(len(x_train)), x_train]
    coef, *_ = np.linalg.lstsq(a, y_train, rcond=None)
    pred = np.c_[np.ones(len(x_test)), x_test] @ coef
    return 1.0 - float(np.sum((y_test - pred) ** 2) / np.sum((y_test - y_test.mean()) ** 2))


def report(path: str, seed: int = 0) -> None:
    try:
        data = np.load(path)
        rows, players = data["rows"], int(data["players"])
    except FileNotFoundError:
        raise SystemExit(f"leaf_information.py: no such file: {path}") from None
    except (OSError, ValueError, KeyError):
        raise SystemExit(f"leaf_information.py: {path} is not a file written by this script") from None
    game_of, stage, judged, net, final = rows[:, 0], rows[:, 1].astype(int), rows[:, 3], rows[:, 4], rows[:, 5]
    scores = rows[:, 6 : 6 + players]
    lead = scores[:, 0] - scores[:, 1:].max(axis=1)
    ids = np.unique(game_of)
    held = np.isin(game_of, np.random.default_rng(seed).choice(ids, max(1, len(ids) // 4), replace=False))
    print(f"{data['game']}, {players} players, {len(ids)} games of {data['bot']} ({float(data['cpu']):.0f} CPU s)")
    print(
        "| stage | rows (positions, seats) | R² lead | R² network | R² lead + network "
        "| MSE constant | MSE evaluate | MSE network | best scale: MSE |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for k in np.unique(stage):
        m = stage == k
        train, test = m & ~held, m & held
        if train.sum() < 10 or test.sum() < 10 or np.var(final[test]) == 0 or np.var(lead[m]) == 0:
            continue  # the first round's start: every lead is 0, nothing to learn
        y_tr, y_te = final[train], final[test]
        r2_lead = _r2(lead[train], y_tr, lead[test], y_te)
        r2_net = _r2(net[train], y_tr, net[test], y_te)
        r2_both = _r2(np.c_[lead[train], net[train]], y_tr, np.c_[lead[test], net[test]], y_te)

        def mse(pred: np.ndarray, where: np.ndarray) -> float:
            return float(np.mean((pred - final[where]) ** 2))

        def rescaled(scale: float, where: np.ndarray) -> np.ndarray:
            return np.array([margin_rewards(list(scores[i]), scale)[0] for i in np.where(where)[0]])

        best = min(SCALES, key=lambda sc: mse(rescaled(sc, train), train))
        constant = mse(np.full(test.sum(), y_tr.mean()), test)
        print(
            f"| {k} | {m.sum()} | {r2_lead:.3f} | {r2_net:.3f} | {r2_both:.3f} | {constant:.4f} "
            f"| {mse(judged[test], test):.4f} | {mse(net[test], test):.4f} "
            f"| {best:g}: {mse(rescaled(best, test), test):.4f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", nargs="?")
    parser.add_argument("players", nargs="?", type=int)
    parser.add_argument("games", nargs="?", type=int)
    parser.add_argument("--out", help="where to write the rows (npz)")
    parser.add_argument("--bot", default="hard", help="the bot playing every seat")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=int, default=15, help="Mottainai: judge every N-th decision")
    parser.add_argument("--report", metavar="NPZ", help="print the table of a collected file")
    args = parser.parse_args()
    if args.report:
        report(args.report)
        return
    if not (args.game and args.players and args.games and args.out):
        parser.error("give GAME PLAYERS GAMES --out FILE, or --report FILE")
    if args.every < 1:
        parser.error("--every must be at least 1")
    collect(args.game, args.players, args.games, args.bot, args.seed, args.every, args.out)


if __name__ == "__main__":
    try:
        main()
    except ParlorError as exc:  # an unknown game, a player count it does not take: one line
        raise SystemExit(f"leaf_information.py: {exc}") from None
