"""What a seat is paid at the end of a game, for every adapter (extra ``[rl]``).

Two kinds, chosen with ``reward=`` on the PettingZoo, Gymnasium, vector and OpenSpiel adapters:

- ``"rank"`` (the default): ``1 - 2 * (place - 1) / (players - 1)``, +1 first, -1 last,
  evenly spaced between, tied seats sharing their place (``return_of``). Bounded and
  comparable across games, but blind to how far ahead or behind a seat finished.
- ``"score_margin"``: ``(own score - best other score) / reward_scale``, with "best" and the
  sign in the game's own direction (Sweet Nose: the lowest total wins, so the margin is
  ``(best other total - own total) / scale``). Positive for the winner by the size of its
  lead, negative for everyone else by how far they are behind the leader, 0 for a shared
  first place. Tie-breaks do not enter it (a seat winning on a tie-break gets 0). The default
  scale (``MARGIN_SCALE``) keeps the margins of random play inside [-1, 1]; a strong seat can
  exceed it, the reward is not clipped.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from parlor.core.game import Game, State

REWARDS = ("rank", "score_margin")

# Points per unit of reward for "score_margin": about the widest spread of final scores in random
# games (Mamma Mia! 7 of 8 orders, Sweet Nose 33, Mottainai 30 points, at every table size).
MARGIN_SCALE = {"mamma-mia": 8.0, "sweet-nose": 40.0, "mottainai": 30.0}

# Games whose rulebook ranks the lowest score first.
LOWER_SCORE_WINS = frozenset({"sweet-nose"})

RewardFunction = Callable[[State], list[float]]


def return_of(state: State) -> list[float]:
    """Each seat's rank return at the end: +1 first, -1 last, linear in the place between."""
    places = state.result().places
    n = state.players
    return [1.0 - 2.0 * (p - 1) / (n - 1) for p in places]


def margin_of(state: State, scale: float) -> list[float]:
    """Each seat's score margin over the best other seat, in the game's direction, divided by ``scale``."""
    scores = state.result().scores
    sign = -1.0 if state.game.name in LOWER_SCORE_WINS else 1.0
    margins = []
    for seat, own in enumerate(scores):
        others = [sign * s for i, s in enumerate(scores) if i != seat]
        margins.append((sign * own - max(others)) / scale)
    return margins


def reward_function(game: Game, reward: str = "rank", reward_scale: float | None = None) -> RewardFunction:
    """The end-of-game payout ``state -> one float per seat`` for ``reward`` (checked here: a
    bad name or scale is a ``ValueError`` before any env is built)."""
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(map(repr, REWARDS))}, got {reward!r}")
    if reward == "rank":
        if reward_scale is not None:
            raise ValueError("reward_scale applies only to reward='score_margin'")
        return return_of
    scale = MARGIN_SCALE[game.name] if reward_scale is None else reward_scale
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not 0 < scale < math.inf:
        raise ValueError(f"reward_scale must be a positive finite number, got {reward_scale!r}")
    scale = float(scale)
    return lambda state: margin_of(state, scale)
