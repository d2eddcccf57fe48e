"""Measuring the judge: is it calibrated, and are its blunders really blunders?

Used by ``scripts/review_calibration.py`` (the tables and plots of docs/review.md) and
``benchmarks/review.py``; plain functions over bot games, so a notebook can use them too.

* **Calibration.** Bot games are played; at decisions drawn from them (any seat), the judge
  gives the played move's win share ``p``; the seat's real result of that game (a win share)
  is the outcome. Grouped by ``p``, positions the judge gives ``p`` should be won about ``p``
  of the time (:func:`calibration_table`, :func:`calibration_error`).
* **Blunders.** Where the judge marks a move a mistake or a blunder, the real position (the
  real cards, not a sample) is played on from there twice per rollout, once with the judge's
  best move and once with the move played, by the same bots that sat at the table (each pair
  with the same bot seeds). The best move should do better on average (:func:`replay_pair`).
  The real cards make each position one deal; the same check from worlds dealt from what the
  seat knew averages over the deals the judge itself weighed (``worlds=True``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from parlor import games
from parlor.analysis.stats import Z95, wilson
from parlor.bots import make_bot
from parlor.core import replay_iter
from parlor.core.rng import Rng, derive_seed

from .judge import Judge


def lineup_for(levels: Sequence[str], players: int, index: int) -> list[str]:
    """The bots of game ``index``: ``levels`` repeated round the table, turned one seat per game."""
    return [levels[(index + p) % len(levels)] for p in range(players)]


def bot_game(name: str, players: int, lineup: Sequence[str], seed: int) -> dict[str, Any]:
    """Play one game with the bots of ``lineup`` (one per seat); its record, with ``bots``."""
    game = games.get(name)
    state = game.new_game(players, seed)
    bots = [make_bot(kind, game, derive_seed(seed, p)) for p, kind in enumerate(lineup)]
    while state.to_move:
        seat = state.to_move[0]
        state.apply(seat, bots[seat].choose(state, seat))
    record = state.record()
    record["bots"] = list(lineup)
    return record


def win_share(result: Any, seat: int) -> float:
    return 1.0 / len(result.winners) if seat in result.winners else 0.0


def judge_sample(record: dict[str, Any], count: int, *, budget: int | None = None, seed: int = 0) -> list[dict]:
    """Judge ``count`` decisions drawn at random (seeded by the game's seed) among the
    decisions of the record with more than one legal move; one row per decision."""
    states = list(replay_iter(record))
    final = states[-1].result()
    actions = record["actions"]
    choices = [i for i, (seat, _) in enumerate(actions) if len(states[i].legal_actions(seat)) > 1]
    Rng(derive_seed(record["seed"], 7)).shuffle(choices)
    picked = sorted(choices[:count])
    game = states[0].game
    judge = Judge(game, budget=budget, seed=seed)
    start_view = states[0].view(None)
    rows = []
    for step in picked:
        seat, action_json = actions[step]
        state = states[step]
        phase = judge.settings.phase_of(start_view, state.view(None))
        decision = judge.judge_decision(state, seat, game.action_from_json(action_json), step, phase)
        played, best = decision.played_estimate, decision.best_estimate
        rows.append(
            {
                "game": record["game"],
                "players": record["players"],
                "seed": record["seed"],
                "bots": record.get("bots"),
                "step": step,
                "seat": seat,
                "phase": phase,
                "moves": len(decision.moves),
                "label": decision.label,
                "loss": decision.loss,
                "loss_se": decision.loss_se,
                "p_played": played.win,
                "n_played": played.samples,
                "p_best": best.win,
                "n_best": best.samples,
                "place_played": played.place,
                "played": decision.played,
                "best": decision.best,
                "outcome": win_share(final, seat),
                "place": final.places[seat],
            }
        )
    return rows


def replay_pair(
    record: dict[str, Any],
    step: int,
    first: dict[str, Any],
    second: dict[str, Any],
    rollouts: int,
    *,
    worlds: bool = False,
) -> list[tuple[float, float]]:
    """From the real position before decision ``step`` of ``record``: ``rollouts`` pairs of
    games played on by the record's own bots (``record["bots"]``), one after ``first`` and
    one after ``second``; each pair shares its bots' seeds. The acting seat's win shares.

    With ``worlds``, each pair starts instead from a world dealt from what the seat knew
    (``determinize``, seeded per pair): the cards it could not see vary from pair to pair, as
    they do for the judge, while the bots that play on are the table's."""
    states = replay_iter(record)
    for _ in range(step):
        next(states)
    position = next(states)
    game = position.game
    seat = record["actions"][step][0]
    lineup = record["bots"]
    out = []
    for r in range(rollouts):
        start = position.determinize(seat, Rng(derive_seed(record["seed"], step, r, 99))) if worlds else position
        pair = []
        for action_json in (first, second):
            state = start.clone()
            bots = [make_bot(kind, game, derive_seed(record["seed"], step, r, p)) for p, kind in enumerate(lineup)]
            state.apply(seat, game.action_from_json(action_json))
            while state.to_move:
                mover = state.to_move[0]
                state.apply(mover, bots[mover].choose(state, mover))
            pair.append(win_share(state.result(), seat))
        out.append((pair[0], pair[1]))
    return out


def calibration_table(rows: Sequence[dict[str, Any]], bins: int = 10, key: str = "p_played") -> list[dict[str, Any]]:
    """Rows grouped by the judge's ``p`` in ``bins`` equal bins: for each, the count, the mean
    ``p`` and the share of those positions won (with its 95% Wilson interval)."""
    table = []
    for b in range(bins):
        low, high = b / bins, (b + 1) / bins
        group = [r for r in rows if low <= r[key] < high or (b == bins - 1 and r[key] == 1.0)]
        if not group:
            continue
        won = sum(r["outcome"] for r in group)
        table.append(
            {
                "low": low,
                "high": high,
                "n": len(group),
                "predicted": sum(r[key] for r in group) / len(group),
                "observed": won / len(group),
                "ci95": list(wilson(won, len(group))),
            }
        )
    return table


def calibration_error(table: Sequence[dict[str, Any]]) -> float:
    """The expected calibration error: the bins' |predicted - observed|, weighted by their counts."""
    total = sum(row["n"] for row in table)
    return sum(row["n"] * abs(row["predicted"] - row["observed"]) for row in table) / total if total else 0.0


def brier(rows: Sequence[dict[str, Any]], key: str = "p_played") -> float:
    return sum((r[key] - r["outcome"]) ** 2 for r in rows) / len(rows) if rows else 0.0


def mean_interval(values: Sequence[float]) -> dict[str, Any]:
    """The mean with a 95% normal interval (values: one per position)."""
    n = len(values)
    if n == 0:
        return {"n": 0, "mean": 0.0, "ci95": [0.0, 0.0]}
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n)
    return {"n": n, "mean": mean, "ci95": [mean - half, mean + half]}
