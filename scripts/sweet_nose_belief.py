"""Fit Sweet Nose's learned belief about the other players' secret sweetness.

    python scripts/sweet_nose_belief.py collect GAMES --out runs/belief.npz [--players 3] [--bot hard] [--seed 1]
    python scripts/sweet_nose_belief.py fit runs/belief.npz [more.npz ...] --out src/parlor/games/sweet_nose/belief.json
    python scripts/sweet_nose_belief.py report runs/belief.npz src/parlor/games/sweet_nose/belief.json

``master`` deals the others' placements from this belief (``parlor.games.sweet_nose.belief``,
which says what it reads and how it weighs a placement):

* ``collect`` plays ``--bot`` against itself and keeps, at every trading decision, each player's
  public facts about each kind with their real placement (a quarter of the games is later held
  out whole);
* ``fit`` fits the belief's 2 x 9 numbers by maximum likelihood (L-BFGS, a little L2; scipy, in
  the ``analysis`` extra) on the other three quarters and writes a belief file
  ``master:belief_weights=FILE`` reads;
* ``report`` prints the held-out log-loss against the uniform deal's (ln 120), how often the most
  likely placement is the real one, and how often its sweetest kind is.

The shipped ``belief.json`` is ``collect 270 --seed 1`` (``hard``, 3 players) then ``fit``;
``belief_4p.json`` (used at 4 and 5 players) is ``collect 130 --players 4 --seed 2`` and
``--seed 3``, then ``fit`` on both files.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from typing import Any

import numpy as np

from parlor import games
from parlor.bots import make_builtin_bot
from parlor.core.errors import ParlorError
from parlor.games.sweet_nose import belief
from parlor.games.sweet_nose.actions import PERMUTATIONS
from parlor.games.sweet_nose.rules import EXCHANGE

L2 = 1e-3


def collect(n_games: int, players: int, bot: str, seed: int, out: str) -> None:
    game = games.get("sweet-nose")
    index = {p: i for i, p in enumerate(PERMUTATIONS)}
    xs: list[np.ndarray] = []
    ys: list[int] = []
    gs: list[int] = []
    started = time.process_time()
    for g in range(n_games):
        state = game.new_game(players, seed=seed * 1_000_003 + g)
        bots = [make_builtin_bot(bot, game, seed * 7919 + g * 10 + s) for s in range(players)]
        while not state.is_over:
            if state.step == EXCHANGE and not state.revealed:
                facts = belief.facts(state)
                for p in range(players):
                    xs.append(facts[p])
                    ys.append(index[tuple(state.sweetness[p])])
                    gs.append(g)
            mover = state.to_move[0]
            state.apply(mover, bots[mover].choose(state, mover))
        cpu = time.process_time() - started
        print(f"game {g + 1}/{n_games}: {len(ys)} rows, CPU {cpu:.0f} s", flush=True)
        if (g + 1) % 10 == 0 or g + 1 == n_games:  # an interrupted run keeps what it played
            rows = {"x": np.array(xs), "y": np.array(ys), "game": np.array(gs)}
            np.savez(out, **rows, players=players, bot=bot, seed=seed, cpu=cpu)


def load_rows(paths: list[str]) -> Any:
    """The rows of one or more ``collect`` files, as one set (their games numbered one after another)."""
    parts = []
    for path in paths:
        try:
            data = np.load(path)
            parts.append({k: data[k] for k in ("x", "y", "game", "players", "bot", "seed")})
        except (OSError, ValueError, KeyError) as exc:
            raise ParlorError(f"{path!r} is not a file of this script's collect: {exc}") from None
    for key in ("players", "bot"):
        if len({str(part[key]) for part in parts}) > 1:
            raise ParlorError(f"these files were collected with different {key}: {', '.join(map(repr, paths))}")
    games, offset = [], 0
    for part in parts:
        games.append(part["game"] + offset)
        offset += int(part["game"].max()) + 1 if len(part["game"]) else 0
    return {
        "x": np.concatenate([part["x"] for part in parts]),
        "y": np.concatenate([part["y"] for part in parts]),
        "game": np.concatenate(games),
        "players": parts[0]["players"],
        "bot": parts[0]["bot"],
        "seeds": [int(part["seed"]) for part in parts],
    }


def held_out(data: Any, seed: int = 0) -> np.ndarray:
    """True for the rows of a quarter of the games, chosen whole."""
    played = np.unique(data["game"])
    chosen = np.random.default_rng(seed).choice(played, size=max(1, len(played) // 4), replace=False)
    return np.isin(data["game"], chosen)


def loss_and_gradient(theta: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[float, np.ndarray]:
    """Mean negative log-likelihood of the real placements and its gradient: E_model[phi] - phi(real),
    where phi = (sum_k v_k f_k, sum_k v_k^2 f_k)."""
    w = belief.log_weights(theta, x)
    w -= w.max(axis=1, keepdims=True)
    p = np.exp(w)
    p /= p.sum(axis=1, keepdims=True)
    n = len(y)
    loss = -float(np.log(p[np.arange(n), y] + 1e-300).mean())
    values, squares = belief.PERMUTATIONS, belief.PERMUTATIONS_SQUARED
    g_lin = np.einsum("nk,nkd->d", p @ values - values[y], x) / n
    g_sq = np.einsum("nk,nkd->d", p @ squares - squares[y], x) / n
    return loss, np.concatenate([g_lin, g_sq])


def fit(paths: list[str], out: str) -> None:
    try:
        from scipy.optimize import minimize
    except ImportError:
        raise ParlorError("fit needs scipy: pip install -e '.[analysis]'") from None

    data = load_rows(paths)
    train = ~held_out(data)
    x, y = data["x"][train], data["y"][train]

    def objective(theta: np.ndarray) -> tuple[float, np.ndarray]:
        loss, grad = loss_and_gradient(theta, x, y)
        return loss + L2 * float(theta @ theta), grad + 2 * L2 * theta

    theta = minimize(objective, np.zeros(2 * len(belief.FACTS)), jac=True, method="L-BFGS-B").x
    fitted_on = {
        "bot": str(data["bot"]),
        "players": int(data["players"]),
        "games": len(np.unique(data["game"])),
        "held_out_games": len(np.unique(data["game"][~train])),
        "rows": int(train.sum()),
        **({"seed": data["seeds"][0]} if len(data["seeds"]) == 1 else {"seeds": data["seeds"]}),
    }
    weights = {
        "format": belief.FORMAT,
        "game": "sweet-nose",
        "facts": list(belief.FACTS),
        "theta": [round(float(t), 6) for t in theta],
        "fitted_on": fitted_on,
    }
    with open(out, "w", encoding="utf-8") as fh:
        json.dump(weights, fh, indent=1)
        fh.write("\n")
    used = fitted_on["games"] - fitted_on["held_out_games"]
    print(f"fitted on {fitted_on['rows']} rows of {used} games ({fitted_on['held_out_games']} held out) -> {out}")


def report(paths: list[str], weights: str) -> None:
    data = load_rows(paths)
    theta = belief.load_weights(weights)
    test = held_out(data)
    x, y = data["x"][test], data["y"][test]
    loss, _ = loss_and_gradient(theta, x, y)
    best = belief.log_weights(theta, x).argmax(axis=1)
    values = belief.PERMUTATIONS
    exact = float((best == y).mean())
    sweetest = float((values[best].argmax(axis=1) == values[y].argmax(axis=1)).mean())
    print(f"held-out rows {len(y)}: log-loss {loss:.3f} against the uniform deal's {math.log(120):.3f}")
    print(f"the most likely placement is the real one {exact:.3f} of the time (uniform 0.008)")
    print(f"its sweetest kind is the real sweetest {sweetest:.3f} of the time (uniform 0.200)")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="play games and keep the facts with the real placements")
    c.add_argument("games", type=int)
    c.add_argument("--out", required=True)
    c.add_argument("--players", type=int, default=3)
    c.add_argument("--bot", default="hard")
    c.add_argument("--seed", type=int, default=1)
    f = sub.add_parser("fit", help="fit the belief on three quarters of the games")
    f.add_argument("data", nargs="+", help="one or more files of collect (the same players and bot)")
    f.add_argument("--out", required=True)
    r = sub.add_parser("report", help="the belief's quality on the held-out quarter")
    r.add_argument("data", nargs="+")
    r.add_argument("weights")
    args = parser.parse_args()
    if args.command == "collect":
        collect(args.games, args.players, args.bot, args.seed, args.out)
    elif args.command == "fit":
        fit(args.data, args.out)
    else:
        report(args.data, args.weights)


if __name__ == "__main__":
    try:
        main()
    except ParlorError as exc:
        sys.exit(f"sweet_nose_belief: {exc}")
