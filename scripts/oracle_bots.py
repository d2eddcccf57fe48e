"""An upper bound for docs/strength.md (issue 33): `expert`'s search given every hidden card.

    parlor tournament sweet-nose --players 3 \\
        --bots scripts/oracle_bots.py:OracleExpert,expert:seconds=0.1:iterations=100000 \\
        --games 100 --seed 41 --workers 2 --json

`OracleExpert` is `expert` (0.1 s a move unless ``:seconds=S:iterations=N`` follow the class name)
whose every sampled world is the real state: it sees the other seats' hands and the decks'
order. It cheats by design, so it is never offered as a bot to play against; it measures how
much better the search plays when it knows what it is searching, which bounds what any better
belief about the hidden cards (a learned one included) could add to `expert`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from parlor.bots import search_settings
from parlor.bots.ismcts import ISMCTSBot


def real_state(state: Any, seat: int) -> Callable[[Any], Any]:
    """An ``ISMCTSBot`` sampler that deals the real state every time (the oracle)."""
    return lambda rng: state.clone()


class OracleExpert(ISMCTSBot):
    def __init__(self, game: Any, seed: int = 0, seconds: float = 0.1, iterations: int = 100000) -> None:
        settings = dict(search_settings(game, "expert"))
        settings.update(seconds=seconds, iterations=iterations, sampler=real_state)
        settings["name"] = "oracle"
        super().__init__(game, seed, **settings)  # type: ignore[arg-type]
