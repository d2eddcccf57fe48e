"""Bots: every bot chooses an action for one seat from what that seat may know.

``make_bot("random", game, seed)`` / ``make_bot("heuristic", game, seed)``. A bot is
handed the real state (that is what the table holds) but reads it only through
``state.view(seat, recall=True)``, ``state.legal_actions(seat)`` and
``state.determinize(seat, rng)``: never the hidden parts.
"""

from __future__ import annotations

import importlib
from typing import Protocol

from parlor.core.actions import Action
from parlor.core.errors import ParlorError
from parlor.core.game import Game, State
from parlor.core.rng import Rng


class Bot(Protocol):
    name: str

    def choose(self, state: State, seat: int) -> Action: ...


class RandomBot:
    """Picks uniformly among the legal actions."""

    name = "random"

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, state: State, seat: int) -> Action:
        return self.rng.choice(state.legal_actions(seat))


BOT_KINDS = ("random", "heuristic")


def make_bot(kind: str, game: Game, seed: int = 0) -> Bot:
    if kind == "random":
        return RandomBot(game, seed)
    if kind == "heuristic":
        module = importlib.import_module(f"parlor.games.{game.name.replace('-', '_')}.heuristic")
        return module.HeuristicBot(game, seed)
    raise ParlorError(f"unknown bot {kind!r}; choose from {', '.join(BOT_KINDS)}")
