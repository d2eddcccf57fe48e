"""An example bot to plug into Parlor: ``--bots examples/bots/greedy_bot.py:GreedyBot``.

It follows the ``Bot`` protocol (docs/bots.md): built as ``GreedyBot(game, seed, **params)``,
asked ``choose(state, seat)``. It never reads the hidden cards of ``state``: it samples one
world that ``seat`` cannot tell apart from the real one (``state.determinize``), tries each
legal move there, and keeps the move after which ``seat``'s visible score is highest (ties:
at random). Parameters: ``samples`` (worlds averaged per decision, default 1).

    parlor tournament mamma-mia --bots examples/bots/greedy_bot.py:GreedyBot:samples=2,medium
"""

from __future__ import annotations

from typing import Any

from parlor.core.rng import Rng


class GreedyBot:
    name = "greedy"

    def __init__(self, game: Any, seed: int = 0, samples: int = 1) -> None:
        if samples < 1:
            raise ValueError("samples must be at least 1")
        self.game = game
        self.samples = samples
        self.rng = Rng(seed)

    def _score(self, state: Any, seat: int) -> float:
        info = state.view(seat)["players_info"][seat]
        return float(info.get("score") or 0)

    def choose(self, state: Any, seat: int) -> Any:
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        totals = [0.0] * len(legal)
        for _ in range(self.samples):
            world = state.determinize(seat, self.rng)  # only what seat knows; hidden cards resampled
            for i, action in enumerate(legal):
                trial = world.clone()
                trial.apply(seat, action)
                totals[i] += self._score(trial, seat)
        best = max(totals)
        return self.rng.choice([a for a, t in zip(legal, totals) if t == best])
