"""From per-game rows to the numbers a balance question needs, each rate with its 95% interval.

:func:`summarize` reads rows of one player count (``results.py`` columns) and gives wins by
seat, by turn position (0 = the seat that played first) and by bot, ties, the score and length
distributions, end conditions and the game's own metrics. :func:`compare` sets two runs (two
option sets, say) side by side: each difference with its interval. A shared win counts 1/k for
each of its k winners, so win rates over the seats of a game add up to 1.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from parlor.core.errors import ParlorError

from .simulation import Row
from .stats import distribution, mean_difference, rate, rate_difference


def _players(rows: Sequence[Row]) -> int:
    counts = {r["players"] for r in rows}
    if len(counts) != 1:
        raise ParlorError(f"summarize one player count at a time (got {sorted(counts)})")
    return counts.pop()


def _win_share(row: Row, seat: int) -> float:
    winners = row["winners"]
    return 1.0 / len(winners) if seat in winners else 0.0


def summarize(rows: Sequence[Row]) -> dict[str, Any]:
    if not rows:
        raise ParlorError("no games to summarize")
    n = _players(rows)
    games = len(rows)
    seat_wins = [0.0] * n
    position_wins = [0.0] * n
    seat_scores: list[list[int]] = [[] for _ in range(n)]
    position_scores: list[list[int]] = [[] for _ in range(n)]
    bot_games: Counter[str] = Counter()
    bot_wins: defaultdict[str, float] = defaultdict(float)
    bot_scores: defaultdict[str, list[int]] = defaultdict(list)
    all_scores: list[int] = []
    winning_scores: list[int] = []
    margins: list[int] = []
    ties = 0
    ends: Counter[str] = Counter()
    values: defaultdict[str, list[float]] = defaultdict(list)
    pooled: defaultdict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    feature_seats: defaultdict[str, list[tuple[float, int]]] = defaultdict(list)  # (win share, score)
    for r in rows:
        scores = r["scores"]
        if len(r["winners"]) > 1:
            ties += 1
        ends[r["end_condition"]] += 1
        for s in range(n):
            share = _win_share(r, s)
            pos = r["turn_position"][s]
            seat_wins[s] += share
            position_wins[pos] += share
            seat_scores[s].append(scores[s])
            position_scores[pos].append(scores[s])
            bot = r["bots"][s]
            bot_games[bot] += 1
            bot_wins[bot] += share
            bot_scores[bot].append(scores[s])
            all_scores.append(scores[s])
        best = scores[r["winners"][0]]
        winning_scores.append(best)
        rest = sorted((scores[s] for s in range(n) if s not in r["winners"]), key=lambda x: abs(best - x))
        margins.append(abs(best - rest[0]) if rest else 0)
        metrics = json.loads(r["metrics"]) if r["metrics"] else {}
        for k, v in metrics.get("values", {}).items():
            values[k].append(v)
        for k, (hit, trials) in metrics.get("rates", {}).items():
            pooled[k][0] += hit
            pooled[k][1] += trials
        for k, seats in metrics.get("seats", {}).items():
            feature_seats[k].extend((_win_share(r, s), scores[s]) for s in seats)
    seat_games = games  # every seat plays every game
    features = {}
    total_wins = float(games)  # win shares over all seat-games add up to the number of games
    total_score = float(sum(all_scores))
    for k, had in sorted(feature_seats.items()):
        present = len(had)
        wins_with = sum(w for w, _ in had)
        absent = games * n - present
        score_with = sum(s for _, s in had)
        features[k] = {
            "seat_games": present,
            "presence": present / (games * n),
            "win_rate": rate_difference(wins_with, present, total_wins - wins_with, absent),
            "mean_score_with": score_with / present if present else None,
            "mean_score_without": (total_score - score_with) / absent if absent else None,
        }
    lengths: dict[str, Any] = {"decisions": distribution(r["decisions"] for r in rows)}
    for key in ("rounds", "turns"):
        known = [r[key] for r in rows if r[key] is not None]
        if known:
            lengths[key] = distribution(known)
    return {
        "game": rows[0]["game"],
        "players": n,
        "games": games,
        "options": json.loads(rows[0]["options"]),
        "baseline_win_rate": 1 / n,
        "by_seat": [
            {"seat": s, "wins": rate(seat_wins[s], seat_games), "score": distribution(seat_scores[s])} for s in range(n)
        ],
        "by_turn_position": [
            {"position": p, "wins": rate(position_wins[p], games), "score": distribution(position_scores[p])}
            for p in range(n)
        ],
        "by_bot": [
            {
                "bot": b,
                "seat_games": bot_games[b],
                "wins": rate(bot_wins[b], bot_games[b]),
                "score": distribution(bot_scores[b]),
            }
            for b in sorted(bot_games)
        ],
        "ties": rate(ties, games),
        "scores": distribution(all_scores),
        "winning_score": distribution(winning_scores),
        "margin": distribution(margins),
        "length": lengths,
        "end_conditions": {k: rate(v, games) for k, v in sorted(ends.items())},
        "metrics": {
            "values": {k: distribution(v) for k, v in sorted(values.items())},
            "rates": {k: rate(hit, trials) for k, (hit, trials) in sorted(pooled.items())},
            "features": features,
        },
    }


def compare(a: Sequence[Row], b: Sequence[Row]) -> dict[str, Any]:
    """Run ``a`` against run ``b`` (same game and player count): each difference a - b with its
    95% interval (Newcombe's for rates, Welch's normal interval for means)."""
    n = _players(a)
    if _players(b) != n or a[0]["game"] != b[0]["game"]:
        raise ParlorError("compare runs of the same game and player count")
    sa, sb = summarize(a), summarize(b)

    def wins(summary: dict[str, Any], key: str, i: int) -> tuple[float, float]:
        w = summary[key][i]["wins"]
        return w["count"], w["n"]

    ends = sorted(set(sa["end_conditions"]) | set(sb["end_conditions"]))
    return {
        "game": a[0]["game"],
        "players": n,
        "a_options": sa["options"],
        "b_options": sb["options"],
        "games": [len(a), len(b)],
        "by_seat": [rate_difference(*wins(sa, "by_seat", s), *wins(sb, "by_seat", s)) for s in range(n)],
        "by_turn_position": [
            rate_difference(*wins(sa, "by_turn_position", p), *wins(sb, "by_turn_position", p)) for p in range(n)
        ],
        "ties": rate_difference(sa["ties"]["count"], len(a), sb["ties"]["count"], len(b)),
        "score": mean_difference([x for r in a for x in r["scores"]], [x for r in b for x in r["scores"]]),
        "decisions": mean_difference([r["decisions"] for r in a], [r["decisions"] for r in b]),
        "end_conditions": {
            e: rate_difference(
                sa["end_conditions"].get(e, {"count": 0})["count"],
                len(a),
                sb["end_conditions"].get(e, {"count": 0})["count"],
                len(b),
            )
            for e in ends
        },
    }
