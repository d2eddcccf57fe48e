"""Game review and hints: a judge that weighs a seat's decisions from what that seat knew.

    from parlor.review import review, hint
    result = review(record, seat=1)           # a Review: every decision of seat 1 (0-based)
    result.to_json()                          # plain JSON, read back with Review.from_json
    hint(state, seat=0).moves                 # the top three moves now, with win estimates

docs/review.md says what the judge knows, how it decides and how well it is calibrated.
"""

from .judge import Judge, Reviewing, Stopped, hint, record_digest, review, review_further
from .model import LABELS, REVIEW_FORMAT, DecisionReview, Hint, MoveEstimate, Review, ReviewError
from .settings import JUDGING, SIGNIFICANCE, GameJudging, judging_for, phase_words
from .summary import summarize

__all__ = [
    "JUDGING",
    "LABELS",
    "REVIEW_FORMAT",
    "SIGNIFICANCE",
    "DecisionReview",
    "GameJudging",
    "Hint",
    "Judge",
    "MoveEstimate",
    "Review",
    "ReviewError",
    "Reviewing",
    "Stopped",
    "hint",
    "judging_for",
    "phase_words",
    "record_digest",
    "review",
    "review_further",
    "summarize",
]
