"""A learned belief about the other players' secret sweetness: how ``master`` deals its worlds.

Sweet Nose's only secret is each player's placement of the sweetness cards, a permutation of the
values 1-5 over the five kinds. ``expert`` deals every other placement uniformly from the 120,
yet the table has watched everyone trade all round: a player pushes onto the others the kinds
that are sweet for them and keeps, or takes, the ones that are not.

The belief reads that from public facts only. For each player and kind (``FACTS``): what they
held at the round's start, what they hold now, how many they gave and took in trades, put into
and took from the market, received and lost, and the market's count. A placement ``v`` weighs
``exp(sum_k v_k * (f_k . a) + v_k^2 * (f_k . b))``: a conditional logit over the 120, with the
2 x 9 numbers ``theta = (a, b)`` fitted by maximum likelihood on games of ``hard`` against itself
(``scripts/sweet_nose_belief.py``, docs/strength.md). The weights ship as ``belief.json``, fitted
on 3-player games, and ``belief_4p.json``, fitted on 4-player games and used at 4 and 5 players:
how much a trade says about a placement depends on how many others there are to trade with.

Secrecy: ``facts`` reads the history's public actions (exchanges, by type; a placement's type
marks the round's start, its values are never read) and the open trays, bowls and market, so two
positions that differ only in hidden placements get the same belief (tests/bots/test_belief.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from parlor.core.errors import ParlorError

from . import actions as A

FACTS = ("start", "held", "gave", "took", "market_gave", "market_took", "received", "lost", "market")
FORMAT = 1
PERMUTATIONS = np.array(A.PERMUTATIONS, dtype=np.float64)  # (120, 5): each placement's value per kind
PERMUTATIONS_SQUARED = PERMUTATIONS**2
_RESOLUTION = 1 << 30  # a placement is drawn as an integer below this, against integer cumulative weights


def facts(state: Any) -> np.ndarray:
    """``(players, 5, len(FACTS))``: the public facts about each kind, per player, this round."""
    from .rules import KIND_OF

    n = state.players
    f = np.zeros((n, 5, len(FACTS)))
    gave, took, market_gave, market_took, received, lost = (f[:, :, i] for i in range(2, 8))
    history = state.history()
    start = 0
    for i in range(len(history) - 1, -1, -1):  # the round's trading began after its last placement
        if type(history[i][1]) is A.AssignSweetness:
            start = i + 1
            break
    for seat, action in history[start:]:
        kind = type(action)
        if kind is A.ExchangeWithPlayer or kind is A.UseTwinTrade:
            many = 2 if kind is A.UseTwinTrade else 1
            k_take, k_give = KIND_OF[action.take], KIND_OF[action.give]
            took[seat, k_take] += many
            gave[seat, k_give] += many
            lost[action.target, k_take] += many
            received[action.target, k_give] += many
        elif kind is A.ExchangeWithMarket or kind is A.UseMarketToBowl:
            market_gave[seat, KIND_OF[action.give]] += 1
            market_took[seat, KIND_OF[action.take]] += 1
    for p in range(n):
        held = np.add(state.tray(p), state.bowl(p))
        f[p, :, 1] = held
        # The shop tiles' moves are left out: a rare, small error in an estimate.
        f[p, :, 0] = held - took[p] - received[p] - market_took[p] + gave[p] + lost[p] + market_gave[p]
    f[:, :, 8] = state.market
    return f


def log_weights(theta: np.ndarray, f: np.ndarray) -> np.ndarray:
    """Each placement's log-weight for facts ``f`` of shape ``(..., 5, len(FACTS))``: ``(..., 120)``."""
    d = len(FACTS)
    return (f @ theta[:d]) @ PERMUTATIONS.T + (f @ theta[d:]) @ PERMUTATIONS_SQUARED.T


def read_weights(data: dict[str, Any], where: str) -> np.ndarray:
    """``theta`` from a belief file's contents, or a one-line ParlorError naming ``where``."""
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("game") != "sweet-nose":
        raise ParlorError(f"{where} is not a Sweet Nose belief file (format {FORMAT})")
    if data.get("facts") != list(FACTS):
        raise ParlorError(f"{where} was fitted on other facts than this version reads: {data.get('facts')!r}")
    theta = data.get("theta")
    if not isinstance(theta, list) or len(theta) != 2 * len(FACTS) or not all(type(t) in (int, float) for t in theta):
        raise ParlorError(f"{where} holds no {2 * len(FACTS)} numbers under 'theta'")
    return np.array(theta, dtype=np.float64)


def load_weights(path: str) -> np.ndarray:
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except OSError as exc:
        raise ParlorError(f"cannot read belief weights {path!r}: {exc.strerror or exc}") from None
    except ValueError:
        raise ParlorError(f"{path!r} is not JSON") from None
    return read_weights(data, repr(path))


def shipped_file(players: int) -> str:
    """The shipped belief for a table of ``players``: the one fitted at 4 players from 4 up."""
    return "belief_4p.json" if players >= 4 else "belief.json"


@cache
def shipped_weights(players: int = 3) -> np.ndarray:
    name = shipped_file(players)
    text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    return read_weights(json.loads(text), f"the shipped {name}")


class BeliefSampler:
    """An ``ISMCTSBot`` sampler: ``determinize``'s world, each other player's placement drawn
    from the belief (``theta``; by default the shipped weights for the table's player count).
    Called once per decision."""

    def __init__(self, theta: np.ndarray | None = None) -> None:
        self.theta = theta

    def __call__(self, state: Any, seat: int) -> Callable[[Any], Any]:
        if state.revealed:
            return lambda rng: state.determinize(seat, rng)
        theta = shipped_weights(state.players) if self.theta is None else self.theta
        w = log_weights(theta, facts(state))  # (players, 120)
        w -= w.max(axis=1, keepdims=True)
        cumulative = np.cumsum(np.exp(w), axis=1)
        tables = (cumulative / cumulative[:, -1:] * _RESOLUTION).astype(np.int64).tolist()
        # Only placements already made are hidden; one still to be made is the player's own choice.
        others = [p for p in range(state.players) if p != seat and state.sweetness[p]]
        placements = A.PERMUTATIONS

        def deal(rng: Any) -> Any:
            world = state.determinize(seat, rng)
            cards = list(world.sweetness)
            for p in others:
                r, table = rng.below(_RESOLUTION), tables[p]
                lo, hi = 0, len(table) - 1
                while lo < hi:  # the first placement whose cumulative weight exceeds r
                    mid = (lo + hi) // 2
                    if table[mid] > r:
                        hi = mid
                    else:
                        lo = mid + 1
                cards[p] = placements[lo]
            world.sweetness = tuple(cards)
            return world

        return deal
