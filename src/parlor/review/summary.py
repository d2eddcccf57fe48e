"""A review in a few numbers: accuracy per phase, the costliest decisions, the evaluation line.

Shared by the terminal (``parlor review``) and, later, the web's replay page, so both say the
same thing. Plain JSON out.

* **Accuracy** is the share of decisions labelled *best* or *good*.
* **Loss** is the win share a decision gave up against the judge's best move (mean per phase).
* **The evaluation line** is, at each decision, the seat's win chance with the best move
  (what the position was worth) and with the move played.
"""

from __future__ import annotations

from typing import Any

from .model import LABELS, DecisionReview, Review

GOOD_LABELS = ("best", "good")


def _accuracy(decisions: list[DecisionReview]) -> float:
    return sum(d.label in GOOD_LABELS for d in decisions) / len(decisions) if decisions else 0.0


def summarize(review: Review, *, costliest: int = 3) -> dict[str, Any]:
    decisions = list(review.decisions)
    phases: dict[str, list[DecisionReview]] = {}
    for d in decisions:
        phases.setdefault(d.phase, []).append(d)
    worst = sorted((d for d in decisions if d.loss > 0), key=lambda d: (-d.loss, d.step))[:costliest]
    return {
        "decisions": len(decisions),
        "decisions_total": review.decisions_total,
        "complete": review.complete,
        "labels": {label: sum(d.label == label for d in decisions) for label in LABELS},
        "accuracy": _accuracy(decisions),
        "mean_loss": sum(d.loss for d in decisions) / len(decisions) if decisions else 0.0,
        "phases": [
            {
                "phase": name,
                "decisions": len(group),
                "accuracy": _accuracy(group),
                "mean_loss": sum(d.loss for d in group) / len(group),
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
