"""How the judge works for each game: its default budget, its labels' thresholds, its phases.

The thresholds are in **win share** (a win counts 1, a win shared by k players 1/k): a move
whose estimated win share is ``inaccuracy`` or more below the best move's is an
inaccuracy, and so on up to a blunder. A move that is not the best but loses less than
``inaccuracy`` is *good*; so is any move whose loss is not clearly more than the judge's own
uncertainty (``SIGNIFICANCE`` standard errors): the judge does not call a move a mistake on
noise. docs/review.md shows how the thresholds were chosen.

Phases name a part of the game for the summary ("accuracy per phase"), as keys (``round-2``,
``auction``, ``opening``, ``middle``, ``end``; ``phase_words`` says them in English); they are
read from the public view only, so they tell nothing hidden.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from parlor.core.errors import ParlorError
from parlor.core.game import Game

# Playouts: Mamma Mia! and Mottainai are played on at random, Sweet Nose by its own greedy policy.
# The heuristic bots as continuation (``playouts="heuristic"``, with this share of random moves)
# were measured and did not separate a random seat from a sound one better in Mamma Mia!, and only
# a little in Mottainai, at 3 to 7 times the CPU (docs/review.md, "Telling weak play from strong").
PLAYOUT_NOISE = 0.1

# A loss smaller than this many standard errors is never worse than "good".
SIGNIFICANCE = 2.0

# A loss the summary would count (from its bar, ``summary.COUNT_SIGNIFICANCE`` standard errors) but
# below this many standard errors is not yet clear: the judge measures the two moves again, as many
# samples again as it has, before it settles the verdict. A strong player's typical charged loss is
# the judge's noise landing just above the summary's bar; a weak player's real losses stay when
# measured twice as sharply, a noise "loss" mostly falls back under the bar (docs/review.md).
CONFIRM_SIGNIFICANCE = 2.5

# (public view at the start of the game, public view now) -> the phase's name
PhaseOf = Callable[[Mapping[str, Any], Mapping[str, Any]], str]


def _by_round(start: Mapping[str, Any], now: Mapping[str, Any]) -> str:
    """Mamma Mia! and Sweet Nose play in rounds; Sweet Nose's Shopkeeper auction is round 0."""
    number = now.get("round", 0)
    return f"round-{number}" if number else "auction"


def _by_deck(start: Mapping[str, Any], now: Mapping[str, Any]) -> str:
    """Mottainai has no rounds: its clock is the deck, so the thirds of the deck name the phases."""
    full = max(1, int(start.get("deck_size", 0)))
    left = int(now.get("deck_size", 0)) / full
    return "opening" if left > 2 / 3 else ("middle" if left > 1 / 3 else "end")


def phase_words(phase: str) -> str:
    """A phase key in English words: ``round-2`` -> ``round 2``, ``middle`` -> ``middle game``.
    (Keys, not words, are stored, so that every interface can say them in its own language.)"""
    if phase.startswith("round-"):
        return "round " + phase.removeprefix("round-")
    return {"middle": "middle game", "end": "end game"}.get(phase, phase)


@dataclass(frozen=True, slots=True)
class GameJudging:
    """The judge's settings for one game (see the module docstring)."""

    budget: int  # the search's iterations per decision, by default
    measure: int  # fresh samples for each move the verdict rests on, by default
    min_visits: int  # iterations every legal move gets at least (within the budget)
    inaccuracy: float  # win-share loss from which a move is an inaccuracy
    mistake: float
    blunder: float
    phase_of: PhaseOf
    # The continuation that plays a sampled world to its end (``parlor.review.playouts``):
    # "random", "game" (the game's own playout policy) or "heuristic" (its heuristic bot, with
    # a ``playout_noise`` share of random moves).
    playouts: str = "random"
    playout_noise: float = PLAYOUT_NOISE  # used by the "heuristic" continuation only
    # The game is won by the lowest score (Sweet Nose's sweetness): the score loss is turned round.
    lower_score_wins: bool = False
    # A review of more decisions than this spreads this many decisions' budget over all of them
    # (each gets ``budget * full_budget_decisions / decisions``, at least a quarter of it), so the
    # longest games' reviews stay within the same CPU time as the rest (docs/review.md, "Budgets").
    full_budget_decisions: int = 1_000_000

    def thresholds(self) -> dict[str, float]:
        return {"inaccuracy": self.inaccuracy, "mistake": self.mistake, "blunder": self.blunder}

    def label(self, *, is_best: bool, loss: float, loss_se: float) -> str:
        if is_best:
            return "best"
        if loss < self.inaccuracy or loss < SIGNIFICANCE * loss_se:
            return "good"
        if loss < self.mistake:
            return "inaccuracy"
        if loss < self.blunder:
            return "mistake"
        return "blunder"


# Budgets: a 4-player game's seat reviewed in well under 30 s on one core of the development
# machine (docs/benchmarks.md, "Game review"). Mamma Mia! has few moves per decision (3 on
# average), so its budget goes to measuring; Sweet Nose has many (35 on average, up to 246),
# so to exploring. Thresholds: docs/review.md, "Labels".

JUDGING: dict[str, GameJudging] = {
    "mamma-mia": GameJudging(
        budget=400,
        measure=200,
        min_visits=8,
        inaccuracy=0.04,
        mistake=0.08,
        blunder=0.15,
        phase_of=_by_round,
        playouts="random",
        full_budget_decisions=140,
    ),
    "sweet-nose": GameJudging(
        budget=1400,
        measure=350,
        min_visits=4,
        inaccuracy=0.04,
        mistake=0.08,
        blunder=0.15,
        phase_of=_by_round,
        playouts="game",
        lower_score_wins=True,
        full_budget_decisions=60,
    ),
    "mottainai": GameJudging(
        budget=500,
        measure=250,
        min_visits=8,
        inaccuracy=0.04,
        mistake=0.08,
        blunder=0.15,
        phase_of=_by_deck,
        playouts="random",
        full_budget_decisions=75,
    ),
}


def judging_for(game: Game) -> GameJudging:
    try:
        return JUDGING[game.name]
    except KeyError:
        raise ParlorError(f"the judge has no settings for {game.name!r} yet") from None
