"""What a review is, as plain values that round-trip through JSON.

A :class:`Review` is the judge's verdict on one seat of one finished game: a header saying
what was judged and how (the record's digest, the judge's settings) and one
:class:`DecisionReview` per decision of that seat that had more than one legal move, in
the order they were made. Each decision lists every legal move with its estimates
(:class:`MoveEstimate`). ``Review.to_json()`` is the stored and transmitted form;
``Review.from_json`` reads it back, refusing another format version or a damaged value
with a :class:`ReviewError`.

A review may be partial (``complete`` is False): the computation goes decision by decision
and can stop between two, and ``parlor.review.review(..., resume=partial)`` carries on from
where it stopped with the same results as one run from start to end.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from parlor.core.errors import ParlorError

# The format of ``Review.to_json``; bumped whenever a field changes meaning.
REVIEW_FORMAT = 1

# From the best to the worst; a decision's label is one of these.
LABELS = ("best", "good", "inaccuracy", "mistake", "blunder")


class ReviewError(ParlorError):
    """A review (or its JSON) that cannot be used: another format, damaged, or for another game."""


# Estimates are kept to this many decimals (they are noisy well above it): the JSON stays
# small, and a value read back is equal to the one written.
DECIMALS = 4


def rounded(value: float) -> float:
    return value if math.isinf(value) else round(value, DECIMALS)


def _number(value: float) -> float | None:
    """JSON has no infinity: an unknown uncertainty (one sample) is written as null."""
    return None if math.isinf(value) or math.isnan(value) else value


def _read_number(value: Any) -> float:
    if value is None:
        return math.inf
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ReviewError(f"expected a number, got {value!r}")
    return float(value)


def _reason(data: Any) -> dict[str, Any]:
    """A reason of ``DecisionReview.why``: a key and whole-number parameters."""
    if not isinstance(data, Mapping) or not isinstance(data.get("key"), str):
        raise ReviewError(f"a reason is {{'key': str, ...}}, got {data!r}")
    for name, value in data.items():
        if name != "key" and (isinstance(value, bool) or not isinstance(value, int)):
            raise ReviewError(f"a reason's {name!r} must be a whole number, got {value!r}")
    return dict(data)


@dataclass(frozen=True, slots=True)
class MoveEstimate:
    """One legal move, judged: the seat's expected outcome if it plays this move now.

    ``win`` is the expected win share (a shared win counts 1/k), ``score`` the expected final
    score (the game's own scoring: pizzas, sweetness total, points) and ``place`` the expected
    final place (1 = first). Each comes with its standard error (``*_se``), from the spread of
    the ``samples`` sampled games that began with this move."""

    action: dict[str, Any]
    samples: int
    win: float
    win_se: float
    score: float
    score_se: float
    place: float
    place_se: float

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "samples": self.samples,
            "win": _number(self.win),
            "win_se": _number(self.win_se),
            "score": _number(self.score),
            "score_se": _number(self.score_se),
            "place": _number(self.place),
            "place_se": _number(self.place_se),
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> "MoveEstimate":
        return MoveEstimate(
            action=dict(data["action"]),
            samples=int(data["samples"]),
            win=_read_number(data["win"]),
            win_se=_read_number(data["win_se"]),
            score=_read_number(data["score"]),
            score_se=_read_number(data["score_se"]),
            place=_read_number(data["place"]),
            place_se=_read_number(data["place_se"]),
        )


@dataclass(frozen=True, slots=True)
class DecisionReview:
    """The judge's verdict on one decision.

    ``step`` is the decision's index in the record's ``actions`` (0-based), so a replay can
    jump to it. ``moves`` holds every legal move, best first; ``best`` is the first one's
    action. ``loss`` is how much win share the played move gave up against the best one
    (0 when it was the best, or estimated at least as good), ``loss_se`` its standard error;
    ``label`` is the verdict from the game's thresholds (``parlor.review.settings``). ``why``
    holds, for a flagged decision, what the better move keeps, scores or denies, as
    language-neutral reasons (``{"key": ..., "n": ...}``, ``parlor.review.explain``); empty
    where nothing could be said for sure (and in reviews made before reasons were given).

    ``score_loss`` is how many points of the game's own final score (turned round where the
    lowest score wins) the played move gave up against the move the judge expects to score best,
    paired like ``loss`` (the same worlds and continuations for both), 0 when the played move was
    that move or scored at least as well; ``score_loss_se`` its standard error. Unlike the win
    share it still shows a weak move once the game is decided. None in reviews made before the
    judge measured it (the summary then uses the win share alone)."""

    step: int
    seat: int
    phase: str
    played: dict[str, Any]
    best: dict[str, Any]
    loss: float
    loss_se: float
    label: str
    iterations: int
    moves: tuple[MoveEstimate, ...]
    why: tuple[dict[str, Any], ...] = ()
    score_loss: float | None = None
    score_loss_se: float | None = None

    @property
    def played_estimate(self) -> MoveEstimate:
        for move in self.moves:
            if move.action == self.played:
                return move
        raise ReviewError(f"decision {self.step}: the played move is not among the judged moves")

    @property
    def best_estimate(self) -> MoveEstimate:
        return self.moves[0]

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "seat": self.seat,
            "phase": self.phase,
            "played": self.played,
            "best": self.best,
            "loss": _number(self.loss),
            "loss_se": _number(self.loss_se),
            "label": self.label,
            "iterations": self.iterations,
            "moves": [m.to_json() for m in self.moves],
            "why": [dict(r) for r in self.why],
            **(
                {"score_loss": _number(self.score_loss), "score_loss_se": _number(self.score_loss_se)}
                if self.score_loss is not None and self.score_loss_se is not None
                else {}
            ),
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> "DecisionReview":
        label = data["label"]
        if label not in LABELS:
            raise ReviewError(f"unknown label {label!r}; labels are {', '.join(LABELS)}")
        moves = tuple(MoveEstimate.from_json(m) for m in data["moves"])
        decision = DecisionReview(
            step=int(data["step"]),
            seat=int(data["seat"]),
            phase=str(data["phase"]),
            played=dict(data["played"]),
            best=dict(data["best"]),
            loss=_read_number(data["loss"]),
            loss_se=_read_number(data["loss_se"]),
            label=label,
            iterations=int(data["iterations"]),
            moves=moves,
            why=tuple(_reason(r) for r in data.get("why", ())),
            # Absent from reviews made before the judge measured it.
            score_loss=_read_number(data["score_loss"]) if "score_loss" in data else None,
            score_loss_se=_read_number(data["score_loss_se"]) if "score_loss" in data else None,
        )
        if not moves or moves[0].action != decision.best:
            raise ReviewError(f"decision {decision.step}: the best move must come first among the moves")
        decision.played_estimate  # noqa: B018  (raises if the played move is missing)
        return decision


@dataclass(frozen=True, slots=True)
class Review:
    """One seat of one game, judged decision by decision (see the module's docstring).

    ``record_digest`` identifies the game (``record_digest(record)``): a stored review is
    only shown with the record it was made for. ``judge`` holds the settings that produced
    it (budget, seed, thresholds, playouts); the same record, seat and settings always give
    the same review. ``decisions_total`` is how many decisions the finished review holds;
    ``result`` is the game's final result (public once the game is over), or None."""

    game: str
    players: int
    seat: int
    record_digest: str
    judge: dict[str, Any]
    decisions_total: int
    decisions: tuple[DecisionReview, ...] = ()
    result: dict[str, Any] | None = None
    format: int = field(default=REVIEW_FORMAT)

    @property
    def complete(self) -> bool:
        return len(self.decisions) == self.decisions_total

    def to_json(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "game": self.game,
            "players": self.players,
            "seat": self.seat,
            "record_digest": self.record_digest,
            "judge": self.judge,
            "decisions_total": self.decisions_total,
            "complete": self.complete,
            "result": self.result,
            "decisions": [d.to_json() for d in self.decisions],
        }

    @staticmethod
    def from_json(data: Any) -> "Review":
        if not isinstance(data, Mapping):
            raise ReviewError(f"a review must be a JSON object, got {type(data).__name__}")
        version = data.get("format")
        if version != REVIEW_FORMAT:
            raise ReviewError(f"this review has format {version!r}; this Parlor reads format {REVIEW_FORMAT} only")
        try:
            review = Review(
                game=str(data["game"]),
                players=int(data["players"]),
                seat=int(data["seat"]),
                record_digest=str(data["record_digest"]),
                judge=dict(data["judge"]),
                decisions_total=int(data["decisions_total"]),
                decisions=tuple(DecisionReview.from_json(d) for d in data["decisions"]),
                result=dict(data["result"]) if data.get("result") is not None else None,
            )
        except ReviewError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ReviewError(f"damaged review: {type(exc).__name__}: {exc}") from None
        if len(review.decisions) > review.decisions_total:
            raise ReviewError("damaged review: more decisions than decisions_total")
        return review


@dataclass(frozen=True, slots=True)
class Hint:
    """The judge's best moves for a decision being played now, from the seat's information only:
    ``moves`` holds the top few (best first) with their estimates."""

    game: str
    seat: int
    judge: dict[str, Any]
    moves: tuple[MoveEstimate, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": REVIEW_FORMAT,
            "game": self.game,
            "seat": self.seat,
            "judge": self.judge,
            "moves": [m.to_json() for m in self.moves],
        }

    @staticmethod
    def from_json(data: Any) -> "Hint":
        if not isinstance(data, Mapping) or data.get("format") != REVIEW_FORMAT:
            raise ReviewError(f"not a hint of format {REVIEW_FORMAT}")
        try:
            return Hint(
                game=str(data["game"]),
                seat=int(data["seat"]),
                judge=dict(data["judge"]),
                moves=tuple(MoveEstimate.from_json(m) for m in data["moves"]),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ReviewError(f"damaged hint: {type(exc).__name__}: {exc}") from None
