"""``parlor simulate``: bots against bots, many games, summary statistics.

Deterministic under the seed: game ``g`` is dealt with ``sub_seed(seed, g)`` and the bot at
seat ``s`` of game ``g`` gets ``sub_seed(seed, g, s)``. With rotation, game ``g`` shifts the
bot list by ``g`` seats, so over a multiple of ``players`` games every bot plays every seat
equally often. A shared win counts ``1/k`` for each of the ``k`` winners.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from parlor.core import Game
from parlor.core.options import options_to_json

from .common import new_bot, sub_seed


def seat_assignment(bots: list[str], game_index: int, rotate: bool) -> list[str]:
    n = len(bots)
    if not rotate:
        return list(bots)
    shift = game_index % n
    return [bots[(s + shift) % n] for s in range(n)]


def simulate(
    game: Game,
    *,
    players: int,
    games: int,
    bots: list[str],
    seed: int,
    options: Any,
    rotate: bool = True,
    progress: Callable[[int], None] | None = None,
    score_label: str = "score",
) -> dict[str, Any]:
    game.check_players(players)
    if games < 1:
        from parlor.core import ParlorError

        raise ParlorError(f"--games must be at least 1, got {games}")
    kinds = list(dict.fromkeys(bots))
    seat_wins = [0.0] * players
    seat_scores = [0] * players
    bot_wins = dict.fromkeys(kinds, 0.0)
    bot_seat_games = dict.fromkeys(kinds, 0)
    bot_scores = dict.fromkeys(kinds, 0)
    decisions = 0
    turns = 0
    turns_known = True
    shared = 0
    start = time.perf_counter()
    for g in range(games):
        assignment = seat_assignment(bots, g, rotate)
        state = game.new_game(players, sub_seed(seed, g), options)
        seat_bots = [new_bot(assignment[s], game, sub_seed(seed, g, s)) for s in range(players)]
        steps = 0
        while not state.is_over:
            seat = state.to_move[0]
            state.apply(seat, seat_bots[seat].choose(state, seat))
            steps += 1
        result = state.result()
        share = 1.0 / len(result.winners)
        if len(result.winners) > 1:
            shared += 1
        for w in result.winners:
            seat_wins[w] += share
            bot_wins[assignment[w]] += share
        for s in range(players):
            seat_scores[s] += result.scores[s]
            bot_seat_games[assignment[s]] += 1
            bot_scores[assignment[s]] += result.scores[s]
        decisions += steps
        t = getattr(state, "turns", None)
        if isinstance(t, int):
            turns += t
        else:
            turns_known = False
        if progress:
            progress(g + 1)
    seconds = time.perf_counter() - start
    return {
        "game": game.name,
        "players": players,
        "games": games,
        "seed": seed,
        "rotate": rotate,
        "bots": list(bots),
        "options": options_to_json(options),
        "score_label": score_label,
        "per_seat": [
            {
                "seat": s,
                "bot": None if rotate else bots[s],
                "wins": seat_wins[s],
                "win_rate": seat_wins[s] / games,
                "avg_score": seat_scores[s] / games,
            }
            for s in range(players)
        ],
        "per_bot": [
            {
                "bot": k,
                "seat_games": bot_seat_games[k],
                "wins": bot_wins[k],
                "win_share": bot_wins[k] / games,
                "win_rate": bot_wins[k] / bot_seat_games[k],
                "avg_score": bot_scores[k] / bot_seat_games[k],
            }
            for k in kinds
        ],
        "shared_wins": shared,
        "avg_decisions": decisions / games,
        "avg_turns": turns / games if turns_known else None,
        "timing": {"seconds": round(seconds, 3), "games_per_second": round(games / seconds, 2) if seconds else None},
    }
