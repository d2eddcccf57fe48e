"""A review in a few numbers: how well the seat played, per phase, the costliest decisions, the graph.

Shared by the terminal (``parlor review``), the web's replay page and the measuring scripts, so all
say the same thing. Plain JSON out. docs/review.md, "The summary", says why these figures.

* **Counted loss.** A decision's loss is the win share it gave up against the judge's best move.
  The judge's losses carry its sampling noise, and a strong player's typical "loss" is that noise
  alone; so a loss counts only when it is at least ``COUNT_SIGNIFICANCE`` standard errors above
  zero, otherwise it is 0.
* **Total loss** is the sum of the counted losses: the win chance given away over the game.
* **Blended loss.** The win share runs out: once the game is decided (the best move's win chance
  ``p`` near 0 or 1) no move can lose any, and a weak player makes dozens of "perfect" moves in
  a lost game. The judge also measures each decision's loss in expected final score
  (``DecisionReview.score_loss``, paired like the win share's), which keeps showing points
  thrown away after the game is decided. A decision's blended loss, in percentage points of
  win chance, is ``u * W + (1 - u) * k * S``: ``W`` the counted win-share loss in points, ``S``
  the counted score loss in the game's points, ``k`` the game's ``SCORE_POINTS`` (what a point
  of its score is worth in points of win chance, measured) and ``u = 2 * sqrt(p * (1 - p))``
  what was at stake (1 at an even position, 0 in a decided one). Where the game is being won
  (``p`` above one half) it is ``W`` alone: a move that keeps the win is sound whatever it
  scores (the strong bots stop counting points there, as players do).
* **What a decision could cost** (``room``): the spread of its moves' values, each valued as the
  blended loss values a loss (win share where the game is open, points of score where it is
  decided). A decision that could cost at most ``INDIFFERENT_ROOM`` points of win chance (every
  move about as good) does not count in the blended summary: any move is "perfect" there, which
  gave a random player free perfect moves and a sound one a chance to be charged noise.
* **Share given away** (``share_given_away``): a decision's blended loss over what it could cost
  (at most 1), the mean over the decisions that count. Unlike a loss in points it does not shrink
  as the game is decided: a weak player gives away much of what little is left.
* **Accuracy** is the mean over the decisions that count of a curve of the share given away,
  ``a * exp(-b * share) - c`` (lichess maps drops of win percentage to accuracy with the same
  shape), with ``b`` = ``SHARE_ACCURACY_B``: 1 for none, 0.53 for a tenth, 0.20 for a quarter, 0
  from 0.58. The mean is weighted by ``max(u, BLENDED_FLOOR)``
  where the game is not being won (a lost position shows its losses through the score) and
  ``max(u, STAKE_FLOOR)`` where it is (nothing measurable can be lost there), times what the
  decision could cost to the power ``ROOM_WEIGHT_POWER`` (a decision between a sound move and a
  ruinous one tests play more than one between moves a point apart).
* **A review without score losses** (made before the judge measured them) is summarised from
  the win share alone, exactly as before: the gentler curve (``ACCURACY_B``: about 0.5 for 4
  points, near 0 for a blunder's 15) of ``W``, each decision weighted by ``u`` at least
  ``STAKE_FLOOR`` (a decided decision cannot lose anything measurable there). lichess weighs its
  moves by the volatility of the position for the same reason.
* **Mean loss** is the mean counted win-share loss per decision, **blended loss** the mean
  blended loss per decision that counts (as a share, like the win share; the win-share mean for an
  old review); **good share** the share of decisions labelled *best* or *good* (the old accuracy, kept for comparison).
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
# This curve is the one of reviews without score losses (the win-share-only summary, kept as it was).
ACCURACY_A = 1.0317
ACCURACY_B = 0.17
ACCURACY_C = 0.0317

# The blended accuracy of a decision is ``ACCURACY_A * exp(-SHARE_ACCURACY_B * share) - ACCURACY_C``
# of the share of what it could cost that the move gave away (``share_given_away``, 0..1): 1 for
# none, 0.53 for a tenth, 0.20 for a quarter, 0.02 for a half, 0 from 0.58. Tuned with
# ``ROOM_WEIGHT_POWER`` and ``INDIFFERENT_ROOM`` on the games of seed 43 only: among the settings
# whose smallest standardised gap between the random and the hard seats' accuracies (the gap over
# the pooled spread of the games) over the three games was within 5% of the best, the one with the
# largest smallest plain gap (docs/review.md, "The doubt measured again").
SHARE_ACCURACY_B = 6.0

# The least weight of a decision in the win-share-only accuracy of an old review (a decided
# position still counts a little).
STAKE_FLOOR = 0.05

# The least weight of a decision not being won in the blended accuracy: a lost position's score
# loss counts, at this weight against an even position's 1 (tuned on the games of seed 43 among
# 0.05, 0.25, 0.5 and 1; docs/review.md).
BLENDED_FLOOR = 1.0

# What one point of each game's own final score is worth in points of win chance, for the blend:
# the ratio of the counted win-share losses to the counted score losses over the decisions with
# something at stake, measured on the games of seed 43 (docs/review.md, "Telling weak play from
# strong"). Sweet Nose's points are sweetness, turned round (the lowest wins).
SCORE_POINTS: dict[str, float] = {"mamma-mia": 23.3, "mottainai": 4.94, "sweet-nose": 2.71}

# The games whose lowest final score wins (their score losses are already turned round by the judge,
# but a move's expected score is the game's own).
LOWER_SCORE_WINS = ("sweet-nose",)

# What a decision could cost (``room``: the blended difference between the best move and the
# worst-looking one, in points of win chance) below which it tells nothing: every move is about as
# good, so a random player gets a free "perfect" move there and a sound one a chance to be charged
# noise. Such a decision gets no weight in the blended summary; above it, the full weight.
# Tuned on the games of seed 43 only (docs/review.md, "Decisions that could cost something").
INDIFFERENT_ROOM = 1.0

# In the blended accuracy a decision weighs also by what it could cost (``room``, to this power):
# a choice between moves a point apart and one between a sound move and a ruinous one are not
# the same test of play. lichess weighs its moves by the position's volatility for the same reason.
# 0 weighs every counting decision alike; 1 in proportion (tuned with ``SHARE_ACCURACY_B``).
ROOM_WEIGHT_POWER = 1.0

# The blended accuracy of a game is, as lichess makes its game accuracy, the mean of two means of
# the decisions' accuracies (with the weights above): the plain weighted mean and the weighted
# harmonic mean, which a few ruinous decisions pull down far more than many small slips (a strong
# player's rare noisy charge costs little there, a weak player's many bad choices much).
# ``HARMONIC_SHARE`` is that mix (lichess's one half); a decision's accuracy enters the harmonic mean
# as at least ``HARMONIC_FLOOR`` (one accuracy of 0 would otherwise make the whole game 0). The floor
# was tuned on the games of seed 43 only, by the rule of ``SHARE_ACCURACY_B`` (docs/review.md,
# "The harmonic mean").
HARMONIC_SHARE = 0.5
HARMONIC_FLOOR = 0.05

# A "played like" needs this many decisions: fewer say little about a player.
PLAYED_LIKE_MIN_DECISIONS = 8

# The mean accuracy of each bot level's seat among hard seats, per game, on the games of seeds 44 and 45, measured by
# scripts/review_separation.py (docs/review.md, "Telling weak play from strong").
PLAYED_LIKE: dict[str, dict[str, float]] = {
    "mamma-mia": {"random": 0.402, "easy": 0.547, "medium": 0.555, "hard": 0.747, "expert": 0.82},
    "mottainai": {"random": 0.41, "easy": 0.49, "medium": 0.538, "hard": 0.687, "expert": 0.794},
    "sweet-nose": {"random": 0.307, "easy": 0.373, "medium": 0.389, "hard": 0.634, "expert": 0.827},
}


def counted_loss(decision: DecisionReview) -> float:
    """The decision's loss if it is significant (see the module's docstring), else 0."""
    loss, se = decision.loss, decision.loss_se
    if loss <= 0 or math.isinf(se) or loss < COUNT_SIGNIFICANCE * se:
        return 0.0
    return loss


def counted_score_loss(decision: DecisionReview) -> float:
    """The decision's score loss (game points) if it is significant, else 0 (also when unmeasured)."""
    loss, se = decision.score_loss, decision.score_loss_se
    if loss is None or se is None or loss <= 0 or math.isinf(se) or loss < COUNT_SIGNIFICANCE * se:
        return 0.0
    return loss


def at_stake(decision: DecisionReview) -> float:
    """What was at stake at the decision: ``2 * sqrt(p * (1 - p))`` of the best move's win chance."""
    p = min(1.0, max(0.0, decision.best_estimate.win))
    return 2.0 * math.sqrt(p * (1.0 - p))


def has_score_losses(decisions: list[DecisionReview]) -> bool:
    """True when every decision carries a score loss (reviews made before it was measured do not)."""
    return all(d.score_loss is not None for d in decisions)


def blended_loss(decision: DecisionReview, game: str, *, blended: bool = True) -> float:
    """The decision's loss as a share of win chance: the win share where the game is open, the
    score loss (times the game's ``SCORE_POINTS``) where it is decided (the module's docstring).
    With ``blended`` False (a review without score losses), the counted win-share loss."""
    win = counted_loss(decision)
    if not blended or _winning(decision):
        return win
    u = at_stake(decision)
    return u * win + (1.0 - u) * SCORE_POINTS.get(game, 0.0) * counted_score_loss(decision) / 100.0


def _winning(decision: DecisionReview) -> bool:
    """The best move's win chance is above one half: the game is (being) won, and a move that keeps
    the win is sound whatever it scores (the bots, like players, stop counting points there)."""
    return decision.best_estimate.win > 0.5


def _curve(loss: float) -> float:
    """The win-share-only accuracy of a loss (a share of win chance): the gentler curve."""
    return max(0.0, min(1.0, ACCURACY_A * math.exp(-ACCURACY_B * 100.0 * loss) - ACCURACY_C))


def share_accuracy(share: float) -> float:
    """The blended accuracy of a decision that gave away ``share`` of what it could cost."""
    return max(0.0, min(1.0, ACCURACY_A * math.exp(-SHARE_ACCURACY_B * share) - ACCURACY_C))


def decision_accuracy(decision: DecisionReview, game: str | None = None) -> float:
    """One decision's accuracy: the curve of the share of what it could cost that it gave away (the
    gentler curve of its counted win-share loss without a game, or when it carries no score loss)."""
    if game is not None and decision.score_loss is not None:
        return share_accuracy(share_given_away(decision, game))
    return _curve(counted_loss(decision))


def room(decision: DecisionReview, game: str) -> float:
    """What the decision could cost, as a share of win chance: the spread of its moves' values, the
    best move's value minus the worst's, each move valued as the blended loss values a loss (its win
    share where the game is open or being won; where it is decided, its expected score times
    ``SCORE_POINTS``, mixed by what is at stake). The moves the verdict rests on are measured; the
    others carry the exploration's estimates, which lean low for the moves it dropped: so a decision
    is called indifferent only when even its worst-looking move came out about as good as the best."""
    sign = -1.0 if game in LOWER_SCORE_WINS else 1.0
    if _winning(decision):
        values = [m.win for m in decision.moves]
    else:
        u, points = at_stake(decision), SCORE_POINTS.get(game, 0.0) / 100.0
        values = [u * m.win + (1.0 - u) * points * sign * m.score for m in decision.moves]
    return max(values) - min(values)


def counts(decision: DecisionReview, game: str, blended: bool) -> bool:
    """Whether the decision counts in the summary: always in a review without score losses (summarised
    as when it was made); in a blended one, when it could cost more than ``INDIFFERENT_ROOM``."""
    return not blended or room(decision, game) * 100.0 > INDIFFERENT_ROOM


def stake(decision: DecisionReview, *, blended: bool = False) -> float:
    """The decision's weight in the accuracy: what was at stake, at least ``BLENDED_FLOOR`` where the
    blended loss can show something (a position not won), else at least ``STAKE_FLOOR``."""
    floor = BLENDED_FLOOR if blended and not _winning(decision) else STAKE_FLOOR
    return max(floor, at_stake(decision))


def room_weight(decision: DecisionReview, game: str) -> float:
    """A decision's weight for what it could cost, in the blended accuracy: its ``room`` (at least
    ``INDIFFERENT_ROOM``, so a review of indifferent decisions only still weighs them alike) to the
    power ``ROOM_WEIGHT_POWER``."""
    return max(room(decision, game), INDIFFERENT_ROOM / 100.0) ** ROOM_WEIGHT_POWER


def _counting(decisions: list[DecisionReview], game: str, blended: bool) -> list[DecisionReview]:
    """The decisions that count (``counts``); all of them if none could cost anything."""
    kept = [d for d in decisions if counts(d, game, blended)]
    return kept or decisions


def accuracy_of(decisions: list[DecisionReview], game: str = "", blended: bool | None = None) -> float:
    """The accuracy of the decisions that count (0 for no decision). Blended (by default, when a game
    is named and every decision carries a score loss): the mix of the weighted mean and the weighted
    harmonic mean of their accuracies (``HARMONIC_SHARE``); from the win share alone (an old review):
    the stake-weighted mean."""
    if blended is None:
        blended = bool(game) and has_score_losses(decisions)
    decisions = _counting(decisions, game, blended)
    weights = [stake(d, blended=blended) * (room_weight(d, game) if blended else 1.0) for d in decisions]
    total = sum(weights)
    values = [share_accuracy(share_given_away(d, game)) if blended else _curve(counted_loss(d)) for d in decisions]
    if not total:
        return 0.0
    mean = sum(w * v for w, v in zip(weights, values)) / total
    if not blended:  # (a review without score losses is summarised as when it was made)
        return mean
    harmonic = total / sum(w / max(v, HARMONIC_FLOOR) for w, v in zip(weights, values))
    return (1.0 - HARMONIC_SHARE) * mean + HARMONIC_SHARE * harmonic


def share_given_away(decision: DecisionReview, game: str) -> float:
    """The share of what the decision could cost (``room``) that the move played gave away: its
    blended loss over the room, at most 1 (0 where nothing could be lost). Unlike a loss in points of
    win chance it does not shrink as the game is decided: a weak player's moves give away much of what
    little is left, a strong player's little of much."""
    could = room(decision, game)
    return min(1.0, blended_loss(decision, game) / could) if could > 0 else 0.0


def mean_share_given_away(decisions: list[DecisionReview], game: str) -> float:
    """The mean ``share_given_away`` over the decisions that count (of a blended review)."""
    return _mean(share_given_away(d, game) for d in _counting(decisions, game, True))


def mean_blended_loss(decisions: list[DecisionReview], game: str, blended: bool) -> float:
    """The mean blended loss per decision that counts."""
    return _mean(blended_loss(d, game, blended=blended) for d in _counting(decisions, game, blended))


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
    game = review.game
    # One rule for the whole review: a review resumed from one made before score losses were
    # measured is summarised from the win share alone, every phase alike.
    blended = bool(decisions) and has_score_losses(decisions)
    accuracy = accuracy_of(decisions, game, blended)
    return {
        "decisions": len(decisions),
        "decisions_total": review.decisions_total,
        "complete": review.complete,
        "labels": {label: sum(d.label == label for d in decisions) for label in LABELS},
        "accuracy": accuracy,
        "total_loss": sum(counted_loss(d) for d in decisions),
        "mean_loss": _mean(counted_loss(d) for d in decisions),
        "blended_loss": mean_blended_loss(decisions, game, blended),
        "score_loss": _mean(counted_score_loss(d) for d in decisions),
        # (None for a review without score losses: its decisions' rooms cannot be valued alike)
        "share_given_away": mean_share_given_away(decisions, game) if blended else None,
        "blended": blended,
        "good_share": _good_share(decisions),
        "played_like": played_like(review.game, accuracy, len(decisions)),
        "phases": [
            {
                "phase": name,
                "decisions": len(group),
                "accuracy": accuracy_of(group, game, blended),
                "total_loss": sum(counted_loss(d) for d in group),
                "mean_loss": _mean(counted_loss(d) for d in group),
                "blended_loss": mean_blended_loss(group, game, blended),
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
