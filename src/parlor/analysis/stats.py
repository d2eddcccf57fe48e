"""Statistics that hold up: every rate with its 95% Wilson interval, differences with Newcombe's.

Plain Python (no numpy needed): the inputs are counts and short lists, and the results are
JSON so that a report, a test or a notebook reads the same numbers.

* :func:`wilson` — the score interval for a proportion; honest near 0 and 1 and for small n,
  where the textbook ``p ± 1.96·se`` interval is not.
* :func:`rate` — a count, a total, the proportion and its interval as one JSON object.
* :func:`rate_difference` — ``p1 - p2`` with Newcombe's hybrid score interval (method 10 of
  Newcombe 1998), built from the two Wilson intervals.
* :func:`effective_games` / :func:`paired_rate` — a rate whose games are not independent (several
  pairs in one game; the rotations of one duplicate deal): Wilson's interval on an effective
  number of games from the spread of the units that are independent.
* :func:`distribution` / :func:`mean_difference` — mean, spread, quantiles and a histogram of a
  numeric column; a difference of means with a normal (Welch) interval.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

Z95 = 1.959963984540054


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (fractional successes allowed: a shared
    win counts 1/k)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n))) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def rate(successes: float, n: float) -> dict[str, Any]:
    """``{"count", "n", "rate", "ci95"}``; a rate of nothing is 0 with the interval [0, 1]."""
    low, high = wilson(successes, n)
    return {"count": successes, "n": n, "rate": successes / n if n else 0.0, "ci95": [low, high]}


def rate_difference(s1: float, n1: float, s2: float, n2: float) -> dict[str, Any]:
    """``p1 - p2`` and Newcombe's hybrid score interval (the Wilson limits of each side combined)."""
    p1 = s1 / n1 if n1 else 0.0
    p2 = s2 / n2 if n2 else 0.0
    l1, u1 = wilson(s1, n1)
    l2, u2 = wilson(s2, n2)
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return {"a": rate(s1, n1), "b": rate(s2, n2), "difference": d, "ci95": [max(-1.0, low), min(1.0, high)]}


def _quantile(sorted_values: Sequence[float], q: float) -> float:
    """The q-quantile by linear interpolation between order statistics (numpy's default)."""
    if not sorted_values:
        return 0.0
    pos = (len(sorted_values) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def distribution(values: Iterable[float]) -> dict[str, Any]:
    """Mean (with a 95% normal interval), standard deviation, quantiles and a value histogram."""
    data = sorted(values)
    n = len(data)
    if n == 0:
        return {"n": 0, "mean": 0.0, "mean_ci95": [0.0, 0.0], "sd": 0.0, "min": 0, "max": 0, "quantiles": {}}
    mean = sum(data) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in data) / (n - 1)) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n)
    out: dict[str, Any] = {
        "n": n,
        "mean": mean,
        "mean_ci95": [mean - half, mean + half],
        "sd": sd,
        "min": data[0],
        "max": data[-1],
        "quantiles": {str(q): _quantile(data, q) for q in (0.05, 0.25, 0.5, 0.75, 0.95)},
    }
    counts = Counter(data)
    if len(counts) <= 60:  # a readable histogram of exact values (scores, rounds)
        out["histogram"] = [[value, count] for value, count in sorted(counts.items())]
    else:  # many values (game lengths): 30 equal bins, [low, high, count]
        low, width = data[0], (data[-1] - data[0]) / 30
        bins = [0] * 30
        for x in data:
            bins[min(29, int((x - low) / width))] += 1
        out["bins"] = [[low + i * width, low + (i + 1) * width, c] for i, c in enumerate(bins)]
    return out


def mean_difference(a: Sequence[float], b: Sequence[float]) -> dict[str, Any]:
    """``mean(a) - mean(b)`` with a 95% normal interval from Welch's standard error."""
    da, db = distribution(a), distribution(b)
    d = da["mean"] - db["mean"]
    se = math.sqrt((da["sd"] ** 2 / da["n"] if da["n"] else 0.0) + (db["sd"] ** 2 / db["n"] if db["n"] else 0.0))
    return {"a_mean": da["mean"], "b_mean": db["mean"], "difference": d, "ci95": [d - Z95 * se, d + Z95 * se]}


def separated(ci95: Sequence[float], value: float) -> bool:
    """Does the interval lie wholly on one side of ``value``?"""
    return ci95[0] > value or ci95[1] < value


def effective_games(scores: Sequence[float], share: float, most: float, *, sample: bool = False) -> float:
    """``n * p(1-p) / variance`` of ``scores`` (Kish's effective sample size), at most ``most`` unless
    the scores are deal averages (``sample``: the sample variance, and no cap, since a deal's
    rotations cancel luck that independent games cannot); ``most`` when every score is equal (a
    bot that won every game: no spread to measure, so as many games as there are comparisons)."""
    n = len(scores)
    if not n:
        return 0.0
    variance = sum((x - share) ** 2 for x in scores) / (n - 1 if sample and n > 1 else n)
    if variance > 0:
        found = n * share * (1 - share) / variance
        return found if sample else min(most, found)
    return float(most) if sample or 0 < share < 1 else float(n)


def paired_rate(deals: Sequence[Sequence[float]], most: float | None = None) -> dict[str, Any]:
    """A rate measured on duplicate deals: ``deals`` holds, per deal, one value in [0, 1] per game
    of that deal (a win share, a head-to-head score). Each deal is averaged first, so every deal
    weighs the same and the deal's luck, shared by its rotations, drops out; the interval is over
    deals (``ci95``). ``ci95_unpaired`` treats the same games as independent: the interval a run
    without duplicate deals would have, for comparison. ``most`` caps the unpaired effective games
    (default: the number of games)."""
    games = [x for deal in deals for x in deal]
    means = [sum(deal) / len(deal) for deal in deals if deal]
    n = len(games)
    if most is None:
        most = float(n)
    share = sum(means) / len(means) if means else 0.0
    flat_share = sum(games) / n if n else 0.0
    effective = effective_games(means, share, most, sample=True)
    unpaired = effective_games(games, flat_share, most)
    return {
        "rate": share,
        "deals": len(means),
        "games": n,
        "effective_games": effective,
        "ci95": list(wilson(share * effective, effective)),
        "ci95_unpaired": list(wilson(flat_share * unpaired, unpaired)),
    }
