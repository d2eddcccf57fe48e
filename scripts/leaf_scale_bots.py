"""Two experimental Sweet Nose searches for docs/strength.md: `expert` with its leaf's
logistic scale changed per round. Used as bot specs, at 0.1 s a move like the other equal-time runs
(``:seconds=S:iterations=N`` after the class name changes the budget):

    parlor tournament sweet-nose --players 3 \\
        --bots scripts/leaf_scale_bots.py:FittedScale,expert:seconds=0.1:iterations=100000 \\
        --games 200 --seed 31 --workers 2 --json
    parlor tournament sweet-nose --players 3 \\
        --bots scripts/leaf_scale_bots.py:SteeperScale,expert:seconds=0.1:iterations=100000 \\
        --games 200 --seed 32 --workers 2 --json

`expert` judges a sampled world at the start of the next round by a logistic of each seat's lead,
with one scale (4 points) whatever the round. `scripts/leaf_information.py` shows that this is far
too sure of itself early on: after round 1 the lead explains a few percent of the final reward's
variance, and the scale that predicts the outcome best (least squares on 170 `hard` games) is
about 10 there and 6 after round 2. `FittedScale` uses those scales (a flatter, calibrated leaf);
`SteeperScale` uses 2 at both (a sharper one than `expert`'s), to see which way the search cares.
"""

from __future__ import annotations

from typing import Any

from parlor.bots import search_settings
from parlor.bots.ismcts import ISMCTSBot, margin_rewards
from parlor.games.sweet_nose.playout import _NONE, _TILE_VALUE


def rescaled_leaf(scales: dict[int, float]) -> Any:
    """An ``ISMCTSBot`` ``refine``: the round's scale instead of ``evaluate``'s 4 (``state.round``
    is the round about to start when ``evaluate`` judges)."""

    def refine(state: Any, judged: list[float]) -> list[float]:
        scale = scales.get(state.round)
        if scale is None:
            return judged
        held, scores = state.held, state.scores
        provisional = [(_TILE_VALUE[held[p]] if held[p] != _NONE else 0.0) - scores[p] for p in range(state.players)]
        return margin_rewards(provisional, scale)

    return refine


class _Rescaled(ISMCTSBot):
    SCALES: dict[int, float] = {}

    def __init__(self, game: Any, seed: int = 0, seconds: float = 0.1, iterations: int = 100000) -> None:
        settings = dict(search_settings(game, "expert"))
        settings.update(seconds=seconds, iterations=iterations, refine=rescaled_leaf(self.SCALES))
        settings["name"] = type(self).__name__
        super().__init__(game, seed, **settings)  # type: ignore[arg-type]


class FittedScale(_Rescaled):
    SCALES = {2: 10.0, 3: 6.0}


class SteeperScale(_Rescaled):
    SCALES = {2: 2.0, 3: 2.0}
