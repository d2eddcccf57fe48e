"""A learned move prior for the search's root: a policy over the searching seat's moves.

AlphaZero's second head, in the small: a scorer ``f`` reads the seat's own observation just after
each candidate move (the observation ``NetworkPrior`` reads, ``parlor.rl``'s encoding of what the
seat knows plus the move, in a world the search samples), and the moves' probabilities are the
softmax of their scores over the siblings. The targets are the root visit shares of a longer
search (``scripts/root_moves.py --policy-only``), so the prior says where the search would spend
its visits, not what a position is worth: siblings differ in value by about a hundredth, which a
value network cannot separate (``scripts/root_moves.py``'s report), but a ranking can be learned
from the differences directly.

The search uses it as a PUCT bonus on the root's children (``ISMCTSBot``'s ``root_policy`` and
``puct``). Files are ``ValueNet`` files (one output, the score) whose header says
``"kind": "policy"``; a value network's file is refused as a policy and the other way round.
This module is the inference only; the fitting is ``parlor.training.policy``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from parlor.bots.evaluator import WEIGHTS_DIR, ValueNet, WeightsError

POLICY_KIND = "policy"


def policy_path(game: str, players: int) -> Path:
    """Where the shipped move prior of ``game`` at ``players`` lives: ``<game>_<n>p_policy.npz``."""
    return WEIGHTS_DIR / f"{game.replace('-', '_')}_{players}p_policy.npz"


def shipped_policy_counts(game: str) -> list[int]:
    """The player counts at which a move prior of ``game`` ships."""
    stem = game.replace("-", "_")
    return sorted(int(p.name[len(stem) + 1 :].split("p_", 1)[0]) for p in WEIGHTS_DIR.glob(f"{stem}_*p_policy.npz"))


@cache
def shipped_policy(game: str, players: int) -> ValueNet:
    """The shipped move prior of ``game`` at ``players`` (read once per process)."""
    from parlor.rl import encoding

    path = policy_path(game, players)
    if not path.is_file():
        raise WeightsError(f"no move prior ships for {game} at {players} players ({path.name})")
    return load_policy(path, game=game, input_size=encoding(game).LAYOUT.size)


def load_policy(path: str | Path, *, game: str, input_size: int) -> ValueNet:
    """A policy scorer's weights, checked like the value network's plus its kind."""
    net = ValueNet.load(path, game=game, input_size=input_size)
    if net.meta.get("kind") != POLICY_KIND:
        raise WeightsError(f"{path}: not a move-prior (policy) weights file (kind {net.meta.get('kind')!r})")
    return net


class PolicyPrior:
    """``ISMCTSBot``'s ``root_policy``: probabilities for the searching seat's root moves.

    For each move one world is dealt from what the seat knows (``state.determinize`` with the
    search's own generator, so the search stays deterministic under its seed and never reads the
    real hidden cards), the move is applied there and the seat's observation encoded; all the
    moves' rows go through the scorer in one batch, and the softmax of the scores (at
    ``temperature``) is the prior.
    """

    def __init__(self, game: Any, net: ValueNet | None = None, *, temperature: float = 1.0) -> None:
        from parlor.rl import encoding

        self.game = game
        self.encoding = encoding(game)
        self.net = net  # None: the shipped one for the decision's player count
        self.temperature = temperature

    def __call__(self, state: Any, seat: int, moves: list[Any], rng: Any) -> list[float]:
        worlds = []
        for move in moves:
            world = state.determinize(seat, rng)
            world.apply(seat, move)
            worlds.append(world)
        rows = self.encoding.encode_batch(worlds, [seat] * len(worlds))
        net = self.net if self.net is not None else shipped_policy(self.game.name, state.players)
        return softmax(net.logits(rows) / self.temperature).tolist()


def softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max())
    return e / e.sum()
