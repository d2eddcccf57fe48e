"""The judge's continuation: how a sampled world is played on to its end after a move.

A move's estimated win share is what follows it under the judge's continuation, so the
continuation decides what the judge calls a loss. Under **random** playouts a random player's
moves are just what the continuation expects, and a sound plan (holding cards for a later
order, building before selling) looks bad because the continuation never carries it out; so a
random seat's review looked nearly as good as a strong seat's (docs/review.md, "Telling weak
play from strong"). A continuation closer to sound play makes a weak move's cost show.

Kinds (``GameJudging.playouts``, or ``Judge(playouts=...)``):

* ``"random"``: uniformly random legal moves (the bots' ``random_policy``).
* ``"game"``: the game's own cheap playout policy (``playout_policy`` in its heuristic module,
  as ``parlor.bots.search_settings`` names it; Sweet Nose's greedy player).
* ``"heuristic"``: the game's heuristic bot (the ``medium`` level) plays every seat, with a
  random legal move a ``noise`` share of the time (a player that slips now and then, so the
  continuation does not follow one line only). It reads each simulated seat's view of the
  *sampled* world, which the judge dealt from the reviewed seat's information set; nothing
  of the real hidden cards reaches it.

Every draw comes from the playout's generator (the heuristic's own tie-breaking generator is
reseeded from it at each move), so a decision's verdict stays a function of the record, the
seat, the settings and the decision's index, and the paired measurement of two moves meets
the same continuation's randomness.
"""

from __future__ import annotations

from typing import Any

from parlor.bots import heuristic_bot, search_settings
from parlor.bots.ismcts import Policy, random_policy
from parlor.core.actions import Action
from parlor.core.errors import ParlorError
from parlor.core.game import Game, State

PLAYOUT_KINDS = ("random", "game", "heuristic")


class HeuristicPlayout:
    """A playout policy: the game's heuristic bot for every seat, with a share of random moves."""

    def __init__(self, game: Game, noise: float) -> None:
        if not 0.0 <= noise <= 1.0:
            raise ParlorError(f"the playouts' noise is a share of moves, 0 to 1; got {noise!r}")
        self.bot: Any = heuristic_bot(game, 0)
        self.noise = noise

    def __call__(self, world: State, seat: int, rng: Any) -> Action:
        legal = world.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        if rng.random() < self.noise:
            return legal[rng.below(len(legal))]
        # The bot breaks ties with its own generator (a records-grade Rng): its state is set
        # from the playout's generator, so the continuation is seeded like the rest of it.
        self.bot.rng.state = rng.next64()
        return self.bot.choose(world, seat)  # type: ignore[no-any-return]


def playout_policy(game: Game, kind: str, noise: float = 0.0) -> Policy:
    """The continuation of ``kind`` (see the module docstring) for ``game``."""
    if kind == "random":
        return random_policy
    if kind == "game":
        policy = search_settings(game).get("policy")
        if policy is None:
            raise ParlorError(f"{game.name} has no playout policy of its own; use 'random' or 'heuristic'")
        return policy  # type: ignore[return-value]
    if kind == "heuristic":
        return HeuristicPlayout(game, noise)
    raise ParlorError(f"playouts are one of {', '.join(PLAYOUT_KINDS)}; got {kind!r}")
