"""The judge's work as plain values, for the server's worker processes (server/review/).

A worker receives a record or a pickled position and answers JSON: no object of the server
crosses the pipe. A review is made a decision at a time (``review_step``), so one long review
never holds a worker for long: a hint waits for one decision at most (the server's review queue,
``server/review/service.py``, decides which review goes next).
"""

from __future__ import annotations

import pickle
from collections.abc import Mapping
from typing import Any

from .judge import StaleReview, hint, review_further


def review_step(
    record: Mapping[str, Any], seat: int, budget: int | None, partial: Mapping[str, Any] | None, count: int = 1
) -> dict[str, Any]:
    """``partial`` (a review's JSON, or None) carried on by ``count`` decisions, as JSON. A partial
    review the judge of this version would not have made alike (stored before an upgrade changed
    its settings) is started again rather than failing for ever."""
    try:
        return review_further(record, seat, budget=budget, resume=partial, count=count).to_json()
    except StaleReview:
        return review_further(record, seat, budget=budget, resume=None, count=count).to_json()


def hint_json(state_bytes: bytes, seat: int, budget: int | None, step: int) -> dict[str, Any]:
    """The hint for ``seat`` at the pickled position (its decision ``step``), as JSON. The position
    is the table's own; the judge reads only what the seat may know of it (``parlor.review.hint``)."""
    return hint(pickle.loads(state_bytes), seat, budget=budget, step=step).to_json()
