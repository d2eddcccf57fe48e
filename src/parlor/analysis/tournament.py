"""Tournaments: bots against bots, seats rotated, ratings and confidence intervals.

Schedule: with K bots at an N-player table, the lineups are every ordered choice of N
distinct bots (K!/(K-N)!), played in turn, so over a whole cycle every bot sits in every
seat equally often and meets every other bot equally often. (With K < N the list is
repeated to fill the table and rotated.) Game ``g`` is dealt with a seed derived from
``(seed, g)``, so a tournament is reproducible and can be split across processes.

Results: ratings with openskill's Plackett-Luce model (ranks = places); win rates (a
shared win counts 1/k) and head-to-head scores (per game, the share of A-seat/B-seat
pairs with A ahead; a tie = 1/2) with 95% Wilson score intervals. The ladder check asks, for each bot
in the order given, whether it beats the next one with the whole interval above 1/2.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from parlor import games as registry
from parlor.bots import make_bot
from parlor.core.errors import ParlorError
from parlor.core.rng import derive_seed as sub_seed

Z95 = 1.959963984540054


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (fractional successes allowed)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def lineups(bots: list[str], players: int) -> list[tuple[str, ...]]:
    if len(bots) >= players:
        return list(itertools.permutations(bots, players))
    base = [bots[s % len(bots)] for s in range(players)]
    return [tuple(base[(s + r) % players] for s in range(players)) for r in range(players)]


@dataclass
class GameResult:
    index: int
    lineup: tuple[str, ...]
    places: tuple[int, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    decisions: int


def play_one(game_name: str, players: int, options: Any, seed: int, index: int, lineup: tuple[str, ...]) -> GameResult:
    game = registry.get(game_name)
    state = game.new_game(players, sub_seed(seed, index), options)
    seats = [make_bot(kind, game, sub_seed(seed, index, s + 1)) for s, kind in enumerate(lineup)]
    decisions = 0
    while state.to_move:
        seat = state.to_move[0]
        state.apply(seat, seats[seat].choose(state, seat))
        decisions += 1
    result = state.result()
    return GameResult(index, lineup, result.places, result.scores, result.winners, decisions)


def _play_chunk(args: tuple[str, int, Any, int, list[tuple[int, tuple[str, ...]]]]) -> list[GameResult]:
    game_name, players, options, seed, jobs = args
    return [play_one(game_name, players, options, seed, i, lineup) for i, lineup in jobs]


@dataclass
class Standing:
    bot: str
    games: int = 0
    wins: float = 0.0
    place_sum: int = 0
    score_sum: int = 0
    mu: float = 0.0
    sigma: float = 0.0

    def to_json(self) -> dict[str, Any]:
        low, high = wilson(self.wins, self.games)
        return {
            "bot": self.bot,
            "games": self.games,
            "win_rate": self.wins / self.games if self.games else 0.0,
            "win_rate_ci95": [low, high],
            "mean_place": self.place_sum / self.games if self.games else 0.0,
            "mean_score": self.score_sum / self.games if self.games else 0.0,
            "mu": self.mu,
            "sigma": self.sigma,
            "ordinal": self.mu - 3 * self.sigma,
        }


@dataclass
class Tournament:
    game: str
    players: int
    bots: list[str]
    seed: int
    options: dict[str, Any]
    results: list[GameResult] = field(default_factory=list)
    seconds: float = 0.0

    def standings(self) -> list[Standing]:
        from openskill.models import PlackettLuce

        model = PlackettLuce()
        kinds = list(dict.fromkeys(self.bots))
        table = {k: Standing(k) for k in kinds}
        ratings = {k: model.rating(name=k) for k in kinds}
        for r in sorted(self.results, key=lambda r: r.index):
            # A bot in several seats of one game is rated once, by its best seat.
            best: dict[str, int] = {}
            for seat, kind in enumerate(r.lineup):
                s = table[kind]
                s.games += 1
                s.place_sum += r.places[seat]
                s.score_sum += r.scores[seat]
                if seat in r.winners:
                    s.wins += 1 / len(r.winners)
                best[kind] = min(best.get(kind, 99), r.places[seat])
            if len(best) > 1:
                names = list(best)
                rated = model.rate([[ratings[k]] for k in names], ranks=[best[k] for k in names])
                for k, team in zip(names, rated):
                    ratings[k] = team[0]
        for k in kinds:
            table[k].mu, table[k].sigma = ratings[k].mu, ratings[k].sigma
        return [table[k] for k in kinds]

    def head_to_head(self, a: str, b: str) -> dict[str, Any]:
        """How often ``a`` finished ahead of ``b`` in games where both played.

        Each game scores the share of (``a`` seat, ``b`` seat) pairs in which ``a`` placed
        ahead (a tie counts 1/2), so a four-player game with two seats each counts once but
        uses all four comparisons. The 95% interval is Wilson's with an effective number of
        games, ``n * p(1-p) / variance`` of the per-game scores (Kish's design effect): for
        one pair per game (a win/loss) that is exactly ``n``; when a game's several pairs
        agree less than a coin would, the interval narrows as the normal interval of the
        mean would. It never counts more than every pair as a game of its own.
        """
        scores: list[float] = []
        most_pairs = 1
        for r in self.results:
            pa = [r.places[s] for s, k in enumerate(r.lineup) if k == a]
            pb = [r.places[s] for s, k in enumerate(r.lineup) if k == b]
            if not pa or not pb:
                continue
            pairs = [1.0 if x < y else 0.5 if x == y else 0.0 for x in pa for y in pb]
            most_pairs = max(most_pairs, len(pairs))
            scores.append(sum(pairs) / len(pairs))
        n = len(scores)
        share = sum(scores) / n if n else 0.0
        variance = sum((x - share) ** 2 for x in scores) / n if n else 0.0
        effective = float(n)
        if n and variance > 0:
            effective = min(n * most_pairs, n * share * (1 - share) / variance)
        elif n and 0 < share < 1:
            effective = float(n * most_pairs)
        low, high = wilson(share * effective, effective)
        return {
            "a": a,
            "b": b,
            "games": n,
            "score": share,
            "effective_games": effective,
            "ci95": [low, high],
            "a_better": low > 0.5,
        }

    def ladder(self) -> list[dict[str, Any]]:
        kinds = list(dict.fromkeys(self.bots))
        return [self.head_to_head(a, b) for a, b in itertools.pairwise(kinds)]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "bots": self.bots,
            "seed": self.seed,
            "options": self.options,
            "games": len(self.results),
            "standings": [s.to_json() for s in self.standings()],
            "ladder": self.ladder(),
            "mean_decisions": sum(r.decisions for r in self.results) / max(1, len(self.results)),
        }


def run_tournament(
    game_name: str,
    *,
    players: int,
    bots: list[str],
    games: int,
    seed: int,
    options: dict[str, Any] | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Tournament:
    game = registry.get(game_name)
    game.check_players(players)
    if games < 1:
        raise ParlorError(f"--games must be at least 1, got {games}")
    if len(set(bots)) < 2:
        raise ParlorError("a tournament needs at least two different bots")
    game.options_from_json(options or {})  # fail early on a bad option
    for kind in set(bots):
        make_bot(kind, game, 0)  # fail early on an unknown bot
    schedule = lineups(bots, players)
    jobs = [(g, schedule[g % len(schedule)]) for g in range(games)]
    out = Tournament(game.name, players, bots, seed, dict(options or {}))
    start = time.perf_counter()
    if workers <= 1:
        for i, lineup in jobs:
            out.results.append(play_one(game.name, players, options, seed, i, lineup))
            if progress:
                progress(len(out.results))
    else:
        chunks = [jobs[i :: workers * 4] for i in range(workers * 4)]
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for chunk in pool.map(_play_chunk, [(game.name, players, options, seed, c) for c in chunks if c]):
                out.results.extend(chunk)
                if progress:
                    progress(len(out.results))
    out.results.sort(key=lambda r: r.index)
    out.seconds = time.perf_counter() - start
    return out


def standings_rows(t: Tournament) -> Iterable[list[str]]:
    for s in t.standings():
        j = s.to_json()
        low, high = j["win_rate_ci95"]
        yield [
            s.bot,
            str(s.games),
            f"{j['win_rate']:.3f} [{low:.3f}, {high:.3f}]",
            f"{j['mean_place']:.2f}",
            f"{j['mu']:.1f} ± {j['sigma']:.1f}",
            f"{j['ordinal']:.1f}",
        ]
