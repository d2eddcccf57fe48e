"""Tournaments: bots against bots, seats rotated, ratings and confidence intervals.

Schedule: with K bots at an N-player table and K >= N, the lineups are every ordered choice
of N distinct bots (K!/(K-N)!), played in turn, so over a whole cycle every bot sits in every
seat equally often and meets every other bot equally often. With K < N some bot must sit twice
at one table: lineup r (r = 0..K-1) puts bot (s + r) mod K at seat s, so over K games every bot
sits in every seat exactly once (a Latin square). A number of games that is not a whole number
of cycles cannot be balanced, and :func:`balance_note` says so. Game ``g`` is dealt with a seed
derived from ``(seed, g)``, so a tournament is reproducible and can be split across processes
or Ray workers (``parlor.analysis.simulation``), and its games are rows like ``simulate``'s.

Duplicate deals (``duplicate=True``): each deal is played once per seat rotation of its lineup
(``parlor.analysis.simulation``), so the schedule keeps one lineup of each rotation class (the
rotations come from the deals) and a cycle is that many deals of ``players`` games each.
Head-to-head then averages each deal's games first and takes the interval over deals: the luck
of the deal, shared by both bots, drops out of the comparison.

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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parlor import games as registry
from parlor.bots import make_bot
from parlor.bots.spec import bot_labels
from parlor.core.errors import ParlorError
from parlor.core.rng import derive_seed as sub_seed

from .stats import Z95, effective_games, paired_rate, wilson

__all__ = ["Z95", "GameResult", "Tournament", "balance_note", "lineups", "play_one", "run_tournament", "wilson"]


def lineups(bots: list[str], players: int) -> list[tuple[str, ...]]:
    """One cycle of the schedule: every bot in every seat equally often (see the module doc)."""
    k = len(bots)
    if k >= players:
        return list(itertools.permutations(bots, players))
    return [tuple(bots[(s + r) % k] for s in range(players)) for r in range(k)]


def rotation_classes(schedule: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The first lineup of each class of seat rotations, in schedule order: a duplicate deal plays
    every rotation of its lineup, so the others would only repeat it."""
    seen: set[tuple[str, ...]] = set()
    kept = []
    for lineup in schedule:
        if lineup in seen:
            continue
        kept.append(lineup)
        seen.update(lineup[r:] + lineup[:r] for r in range(len(lineup)))
    return kept


def duplicate_lineups(bots: list[str], players: int) -> list[tuple[str, ...]]:
    """One cycle of base lineups for duplicate deals (each is played in all its seat rotations)."""
    return rotation_classes(lineups(bots, players))


def balance_note(bots: list[str], players: int, games: int, duplicate: bool = False) -> str | None:
    """Why ``games`` games cannot sit every bot in every seat equally often (None: they do)."""
    if duplicate:
        cycle = len(duplicate_lineups(bots, players)) * players
        if games % cycle == 0:
            return None
        return (
            f"{games} games are not a whole number of cycles of {cycle // players} deals of {players} rotations, "
            f"so the bots do not meet equally often; play a multiple of {cycle} games for exact balance"
        )
    cycle = len(lineups(bots, players))
    if games % cycle == 0:
        return None
    return (
        f"{games} games are not a whole number of cycles of {cycle} lineups, so the seats are not exactly "
        f"balanced (each bot's seat counts differ by at most {math.ceil(games / cycle) - games // cycle}); "
        f"play a multiple of {cycle} games for exact balance"
    )


@dataclass
class GameResult:
    index: int
    lineup: tuple[str, ...]
    places: tuple[int, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    decisions: int
    # duplicate deals: the deal this game played and its seat rotation (None otherwise)
    deal: int | None = None
    rotation: int | None = None


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


def result_of_row(row: dict[str, Any]) -> GameResult:
    return GameResult(
        row["index"],
        tuple(row["bots"]),
        tuple(row["places"]),
        tuple(row["scores"]),
        tuple(row["winners"]),
        row["decisions"],
        row.get("deal"),
        row.get("rotation"),
    )


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
    games_planned: int = 0
    interrupted: bool = False
    balance: str | None = None
    duplicate: bool = False

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

        Duplicate deals: the games of one deal are not independent (the same cards), so each
        deal's games are averaged first and the interval is taken over deals, with the same
        effective-games rule on the deals' scores (``ci95``). ``ci95_unpaired`` is what the same
        games would give treated as independent, the interval a run without duplicate deals
        has: their ratio is what the pairing bought.
        """
        scores: list[float] = []
        deals: list[int | None] = []
        most_pairs = 1
        for r in self.results:
            pa = [r.places[s] for s, k in enumerate(r.lineup) if k == a]
            pb = [r.places[s] for s, k in enumerate(r.lineup) if k == b]
            if not pa or not pb:
                continue
            pairs = [1.0 if x < y else 0.5 if x == y else 0.0 for x in pa for y in pb]
            most_pairs = max(most_pairs, len(pairs))
            scores.append(sum(pairs) / len(pairs))
            deals.append(r.deal)
        n = len(scores)
        out: dict[str, Any] = {"a": a, "b": b, "games": n}
        if self.duplicate:
            by_deal: dict[int | None, list[float]] = {}
            for deal, score in zip(deals, scores):
                by_deal.setdefault(deal, []).append(score)
            paired = paired_rate(list(by_deal.values()), n * most_pairs)
            share, effective, (low, high) = paired["rate"], paired["effective_games"], paired["ci95"]
            out.update(deals=paired["deals"], ci95_unpaired=paired["ci95_unpaired"])
        else:
            share = sum(scores) / n if n else 0.0
            effective = effective_games(scores, share, n * most_pairs)
            low, high = wilson(share * effective, effective)
        out.update(score=share, effective_games=effective, ci95=[low, high], a_better=low > 0.5)
        return out

    def ladder(self) -> list[dict[str, Any]]:
        kinds = list(dict.fromkeys(self.bots))
        return [self.head_to_head(a, b) for a, b in itertools.pairwise(kinds)]

    def all_pairs(self) -> list[dict[str, Any]]:
        """Head-to-head for every ordered pair of different bots (the table's rows and columns)."""
        kinds = list(dict.fromkeys(self.bots))
        return [self.head_to_head(a, b) for a in kinds for b in kinds if a != b]

    def seat_counts(self) -> dict[str, list[int]]:
        """bot -> how many games it played at each seat."""
        counts = {k: [0] * self.players for k in dict.fromkeys(self.bots)}
        for r in self.results:
            for s, k in enumerate(r.lineup):
                counts[k][s] += 1
        return counts

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "bots": self.bots,
            "labels": bot_labels(self.bots),  # spec -> how tables name it (a plug-in by its name)
            "seed": self.seed,
            "options": self.options,
            "games": len(self.results),
            "standings": [s.to_json() for s in self.standings()],
            "ladder": self.ladder(),
            "head_to_head": self.all_pairs(),
            "seat_counts": self.seat_counts(),
            "balance": self.balance,
            "duplicate": self.duplicate,
            "games_planned": self.games_planned,
            "interrupted": self.interrupted,
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
    backend: str | None = None,
    address: str | None = None,
    out: Path | None = None,
    resume: bool = False,
    progress: Callable[[int], None] | None = None,
    chunk_size: int | None = None,
    duplicate: bool = False,
) -> Tournament:
    """Play the tournament; Ctrl-C stops it at once and returns the games finished so far
    (``interrupted=True``; with ``out`` they stay on disk for ``resume``)."""
    from .results import execute
    from .simulation import RunSpec, check_duplicate

    game = registry.get(game_name)
    game.check_players(players)
    if type(workers) is not int or workers < 1:
        raise ParlorError(f"--workers must be at least 1, got {workers!r}")
    if games < 1:
        raise ParlorError(f"--games must be at least 1, got {games}")
    if len(set(bots)) < 2:
        raise ParlorError("a tournament needs at least two different bots")
    if duplicate:
        check_duplicate(games, players)
    game.options_from_json(options or {})  # fail early on a bad option
    for kind in set(bots):
        make_bot(kind, game, 0)  # fail early on an unknown bot
    schedule = duplicate_lineups(bots, players) if duplicate else lineups(bots, players)
    if backend is None:
        backend = "processes" if workers > 1 else "serial"
    spec = RunSpec(
        game=game.name,
        players=players,
        games=games,
        seed=seed,
        bots=tuple(bots),
        options=dict(options or {}),
        seating="schedule",
        lineups=tuple(schedule),
        # small chunks: a slow bot's games are finished (and kept) a few at a time
        chunk_size=chunk_size or max(1, min(20, games // 16)),  # not by -w: the same file at any worker count
        bot_seed_offset=1,
        duplicate=duplicate,
    )
    result = Tournament(game.name, players, bots, seed, dict(options or {}), duplicate=duplicate)
    result.games_planned = games
    result.balance = balance_note(bots, players, games, duplicate)

    def keep(rows: list[dict[str, Any]]) -> None:
        result.results.extend(result_of_row(r) for r in rows)
        if progress:
            progress(len(result.results))

    start = time.perf_counter()
    try:
        execute(spec, out=out, backend=backend, workers=workers, address=address, resume=resume, on_rows=keep)
    except KeyboardInterrupt:
        result.interrupted = True
    result.results.sort(key=lambda r: r.index)
    result.seconds = time.perf_counter() - start
    return result


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
