"""A review in a few numbers: how well the seat played, per phase, the costliest decisions, the graph.

Shared by the terminal (``parlor review``), the web's replay page and the measuring scripts, so all
say the same thing. Plain JSON out. docs/review.md, "The summary", says why these figures.

* **Counted loss.** A decision's loss is the win share it gave up against the judge's best move.
  The judge's losses carry its sampling noise, and a strong player's typical "loss" is that noise
  alone; so a loss counts only when it is at least ``COUNT_SIGNIFICANCE`` standard errors above
  zero, otherwise it is 0.
* **Total loss** is the sum of the counted losses: the win chance given away over the game.
* **Accuracy** is the mean over decisions of a steep curve of the counted loss ``L`` in
  percentage points: ``a * exp(-b * L) - c`` (lichess maps drops of win percentage to accuracy
  the same way, with a gentler ``b``), 1 for a loss of 0, about 0.5 for an inaccuracy's 4
  points, near 0 for a blunder. The mean is weighted by what was at stake: a decision whose best
  move's win chance ``p`` is near 0 or 1 (the game already decided, as far as the judge can
  see) cannot lose anything measurable, so it weighs ``2 * sqrt(p * (1 - p))`` (1 at an even
  position), at least ``STAKE_FLOOR``. lichess weighs its moves by the volatility of the
  position for the same reason.
* **Mean loss** is the mean counted loss per decision; **good share** the share of decisions
  labelled *best* or *good* (the old accuracy, kept for comparison).
* **Played like** names the bot level whose measured accuracy in this game is nearest the
  seat's (``PLAYED_LIKE``, measured by ``scripts/review_separation.py``), when there are enough
  decisions to say.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from .model import LABELS, DecisionReview, Review

GOOD_LABELS = ("best", "good")

# A loss counts in the summary from this many standard errors. Lower than the labels' bar
# (``settings.SIGNIFICANCE``, 2): a label is one verdict and must not be noise, while the summary
# averages many decisions, where a one-sided bar at one standard error (a move as good as the
# best counts with chance 16%, and then with a small loss) keeps most of the weak player's real
# small losses and still drops most of the strong player's noise (docs/review.md, measured).
COUNT_SIGNIFICANCE = 1.0

# accuracy of one decision = ACCURACY_A * exp(-ACCURACY_B * loss_in_points) - ACCURACY_C, with
# A - C = 1 (a loss of 0 is 1) and the curve reaching 0 at log(A / C) / B points (about 20 points:
# a move giving away a fifth of the win chance is worth nothing). lichess uses b = 0.04354 for
# its drops of win percentage; the judge's losses are smaller (two-player card games with luck),
# so the curve is steeper: 4 points (an inaccuracy) give about 0.5.
ACCURACY_A = 1.0317
ACCURACY_B = 0.17
ACCURACY_C = 0.0317

# The least weight of a decision in the accuracy (a decided position still counts a little).
STAKE_FLOOR = 0.05

# A "played like" needs this many decisions: fewer say little about a player.
PLAYED_LIKE_MIN_DECISIONS = 8

# The mean accuracy of each bot level's seat among hard seats, per game, measured by
# scripts/review_separation.py (docs/review.md, "Telling weak play from strong").
PLAYED_LIKE: dict[str, dict[str, float]] = {}


def counted_loss(decision: DecisionReview) -> float:
    """The decision's loss if it is significant (see the module's docstring), else 0."""
    loss, se = decision.loss, decision.loss_se
    if loss <= 0 or math.isinf(se) or loss < COUNT_SIGNIFICANCE * se:
        return 0.0
    return loss


def decision_accuracy(decision: DecisionReview) -> float:
    points = 100.0 * counted_loss(decision)
    return max(0.0, min(1.0, ACCURACY_A * math.exp(-ACCURACY_B * points) - ACCURACY_C))


def stake(decision: DecisionReview) -> float:
    """How much was at stake at the decision: ``2 * sqrt(p * (1 - p))`` of the best move's win chance."""
    p = min(1.0, max(0.0, decision.best_estimate.win))
    return max(STAKE_FLOOR, 2.0 * math.sqrt(p * (1.0 - p)))


def accuracy_of(decisions: list[DecisionReview]) -> float:
    """The stake-weighted mean of the decisions' accuracies (0 for no decision)."""
    weights = [stake(d) for d in decisions]
    total = sum(weights)
    return sum(w * decision_accuracy(d) for w, d in zip(weights, decisions)) / total if total else 0.0


def _mean(values: Iterable[float]) -> float:
    items = list(values)
    return sum(items) / len(items) if items else 0.0


def _good_share(decisions: list[DecisionReview]) -> float:
    return _mean(d.label in GOOD_LABELS for d in decisions)


def played_like(game: str, accuracy: float, decisions: int) -> str | None:
    """The bot level whose measured accuracy is nearest ``accuracy`` (None without a measure or
    with too few decisions)."""
    levels = PLAYED_LIKE.get(game)
    if not levels or decisions < PLAYED_LIKE_MIN_DECISIONS:
        return None
    return min(levels, key=lambda level: (abs(levels[level] - accuracy), level))


def summarize(review: Review, *, costliest: int = 3) -> dict[str, Any]:
    decisions = list(review.decisions)
    phases: dict[str, list[DecisionReview]] = {}
    for d in decisions:
        phases.setdefault(d.phase, []).append(d)
    worst = sorted((d for d in decisions if d.loss > 0), key=lambda d: (-d.loss, d.step))[:costliest]
    accuracy = accuracy_of(decisions)
    return {
        "decisions": len(decisions),
        "decisions_total": review.decisions_total,
        "complete": review.complete,
        "labels": {label: sum(d.label == label for d in decisions) for label in LABELS},
        "accuracy": accuracy,
        "total_loss": sum(counted_loss(d) for d in decisions),
        "mean_loss": _mean(counted_loss(d) for d in decisions),
        "good_share": _good_share(decisions),
        "played_like": played_like(review.game, accuracy, len(decisions)),
        "phases": [
            {
                "phase": name,
                "decisions": len(group),
                "accuracy": accuracy_of(group),
                "total_loss": sum(counted_loss(d) for d in group),
                "mean_loss": _mean(counted_loss(d) for d in group),
                "good_share": _good_share(group),
            }
            for name, group in phases.items()
        ],
        "costliest": [
            {"step": d.step, "phase": d.phase, "label": d.label, "loss": d.loss, "played": d.played, "best": d.best}
            for d in worst
        ],
        "graph": [
            {"step": d.step, "best": d.best_estimate.win, "played": d.played_estimate.win, "label": d.label}
            for d in decisions
        ],
    }
