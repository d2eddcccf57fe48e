"""The judge: a seat's decisions in a finished game, weighed from what the seat knew then.

``review(record, seat)`` replays the record and, at each decision of ``seat`` with more
than one legal move, searches that seat's information set (``JudgeSearch``): every legal
move gets an expected win share, final score and place with standard errors; the best
move, the played move's loss and a label follow (``GameJudging.label``).

**Honest by construction.** At a decision the judge asks the position for three things
only: the seat's legal moves, sampled worlds ``determinize(seat, rng)`` (built from what the
seat knows: every game's determinization sorts its pool of unseen cards before shuffling
it, so the sample does not depend on where the hidden cards really are) and the public
view (for the phase's name). Its generator is seeded from the review's seed and the
decision's index in the record. Two games that look the same to the seat therefore get
the same review, whatever the hidden cards (tests/review/test_honesty.py).

**Deterministic, resumable, cancellable.** Decision ``k`` depends only on the record, the
seat, the settings and ``k``; a review stopped after any decision (``stop``, Ctrl-C) and
resumed with ``resume=`` is the same as one run straight through.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import parlor
from parlor.core import ParlorError, State, replay_iter
from parlor.core.game import Game
from parlor.core.rng import FastRng, derive_seed

from .explain import explain_decision
from .model import DecisionReview, Hint, MoveEstimate, Review, ReviewError, rounded
from .playouts import playout_policy
from .search import JudgeSearch, MoveStats
from .settings import CONFIRM_SIGNIFICANCE, SIGNIFICANCE, GameJudging, judging_for
from .summary import COUNT_SIGNIFICANCE

# The parts of a record that decide the game (not ``bots``, ``parlor_version``...).
_GAME_KEYS = ("game", "engine_version", "options", "players", "seed", "scenario", "actions")


class StaleReview(ReviewError):
    """The review to resume was made with other judge settings (another budget or seed, or a
    judge that has changed since): its decisions cannot be mixed with this judge's."""


class Stopped(Exception):
    """Raised inside a decision's search when ``stop`` asks for it; the decision is dropped."""


def record_digest(record: Mapping[str, Any]) -> str:
    """A fingerprint of the game a record holds (its seed, options, start and actions)."""
    core = {k: record.get(k) for k in _GAME_KEYS}
    text = json.dumps(core, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def _estimate(stats: MoveStats) -> MoveEstimate:
    win, win_se = stats.win_estimate()
    score, score_se = stats.score_estimate()
    place, place_se = stats.place_estimate()
    return MoveEstimate(
        action=stats.action.to_json(),
        samples=stats.visits,
        win=rounded(win),
        win_se=rounded(win_se),
        score=rounded(score),
        score_se=rounded(score_se),
        place=rounded(place),
        place_se=rounded(place_se),
    )


def _by_search(estimates: list[MoveEstimate]) -> list[MoveEstimate]:
    """The search's order: the higher win share, then the better place, then more samples (the
    sort is stable, so equal moves keep the game's order of legal moves)."""
    return sorted(estimates, key=lambda m: (-m.win, m.place, -m.samples))


def _difference(first: list[float], second: list[float]) -> tuple[float, float]:
    """Mean and standard error of the paired differences ``first[i] - second[i]``."""
    n = len(first)
    diffs = [a - b for a, b in zip(first, second)]
    mean = sum(diffs) / n if n else 0.0
    if n < 2:
        return mean, math.inf
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(variance / n)


def _close(first: list[float], second: list[float]) -> bool:
    """True when the paired difference of two moves is not yet significant either way (within
    ``SIGNIFICANCE`` standard errors of zero) but not exactly zero (identical results say the two
    moves lead to the same games, and more samples would not separate them)."""
    mean, se = _difference(first, second)
    return se > 0 and abs(mean) < SIGNIFICANCE * se


def _unsure_loss(mean: float, se: float) -> bool:
    """True when a loss (``mean`` with standard error ``se``, positive when the move played did
    worse) would count in the summary (``COUNT_SIGNIFICANCE``) but is not yet clear
    (``CONFIRM_SIGNIFICANCE``): the judge measures such a pair of moves again."""
    return se > 0 and not math.isinf(se) and COUNT_SIGNIFICANCE * se <= mean < CONFIRM_SIGNIFICANCE * se


def _merged(first: MoveStats, second: MoveStats) -> MoveStats:
    """The statistics of one move over the samples of both."""
    return MoveStats(
        first.action,
        visits=first.visits + second.visits,
        win=first.win + second.win,
        win_sq=first.win_sq + second.win_sq,
        score=first.score + second.score,
        score_sq=first.score_sq + second.score_sq,
        place=first.place + second.place,
        place_sq=first.place_sq + second.place_sq,
    )


@dataclasses.dataclass(slots=True)
class _Weighed:
    """What ``Judge._weigh`` found: the explored moves (statistics and estimates), the measured
    moves' estimates, their paired per-sample win shares and scores, and the decision's generator
    and stop check (a further measurement goes on with them)."""

    explored: list[MoveStats]
    explored_estimates: list[MoveEstimate]
    measured: list[MoveEstimate]
    wins: list[list[float]]
    scores: list[list[float]]
    rng: FastRng
    ask: Callable[[], bool] | None


class Judge:
    """The judge for one game with one budget and seed; ``judge_decision`` and ``hint`` use it.

    A decision is judged in two steps. **Explore**: ``budget`` iterations of the search give
    every legal move an estimate and pick the search's choice (the most visited move, as a bot
    would). **Measure**: the moves the verdict rests on (the search's choice and the move
    played; for a hint, the top three) are played again on ``measure`` fresh sampled worlds
    each (the game's share of the budget by default), the same worlds for all of them. Their
    estimates come from this second step only: the exploration gives few samples to the moves
    it stops liking, after unlucky ones, so its numbers for them lean low; the measurement
    does not choose, and being paired it shows the difference between two moves sharply."""

    def __init__(
        self,
        game: Game,
        *,
        budget: int | None = None,
        seed: int = 0,
        min_visits: int | None = None,
        measure: int | None = None,
        playouts: str | None = None,
        playout_noise: float | None = None,
    ) -> None:
        self.game = game
        self.settings: GameJudging = judging_for(game)
        self.budget = self.settings.budget if budget is None else budget
        if type(self.budget) is not int or self.budget < 1:
            raise ParlorError(f"the budget is a number of iterations, at least 1; got {budget!r}")
        if type(seed) is not int:
            raise ParlorError(f"the judge's seed must be an integer, got {seed!r}")
        self.seed = seed
        self.min_visits = self.settings.min_visits if min_visits is None else min_visits
        if measure is None:  # the game's share of the budget
            measure = max(2, self.budget * self.settings.measure // self.settings.budget)
        if type(measure) is not int or measure < 2:
            raise ParlorError(f"measure is a number of samples, at least 2; got {measure!r}")
        self.measure = measure
        # The continuation (``parlor.review.playouts``): the game's setting unless told otherwise.
        self.playouts = self.settings.playouts if playouts is None else playouts
        if self.playouts != "heuristic":
            self.playout_noise = 0.0
        else:
            self.playout_noise = self.settings.playout_noise if playout_noise is None else playout_noise
        policy = playout_policy(game, self.playouts, self.playout_noise)
        self.search = JudgeSearch(game, min_visits=self.min_visits, policy=policy)

    def describe(self) -> dict[str, Any]:
        """The settings that make a review what it is (stored with it). The default continuations
        are named as before the setting existed, so reviews saved then still resume."""
        described: dict[str, Any] = {
            "budget": self.budget,
            "measure": self.measure,
            "seed": self.seed,
            "min_visits": self.min_visits,
            "playouts": "the game's playout policy" if self.playouts == "game" else self.playouts,
        }
        if self.playouts == "heuristic":
            described["playout_noise"] = self.playout_noise
        described.update(
            thresholds=self.settings.thresholds(),
            significance=SIGNIFICANCE,
            remeasure_close=True,
            confirm_below=CONFIRM_SIGNIFICANCE,
            parlor_version=parlor.__version__,
        )
        return described

    def _weigh(
        self,
        state: State,
        seat: int,
        step: int,
        measured: Callable[[list[MoveStats]], list[Any]],
        stop: Callable[[], bool] | None,
    ) -> "_Weighed":
        """Explore, then measure the moves ``measured(explored)`` names (see ``_Weighed``)."""
        rng = FastRng(derive_seed(self.seed, step))
        stopped = False

        def should_stop() -> bool:
            nonlocal stopped
            stopped = stopped or (stop is not None and stop())
            return stopped

        ask = should_stop if stop is not None else None
        explored = self.search.explore(state, seat, rng, self.budget, stop=ask)
        actions = measured(explored)
        stats, wins, scores = self.search.measure(state, seat, rng, actions, self.measure, stop=ask)
        if len(actions) == 2 and not stopped and _close(wins[0], wins[1]):
            # The two moves the verdict rests on are too close to tell apart: measure them again
            # as much, on further worlds from the same generator (so still deterministic and
            # still from the seat's information only). Budget goes where a verdict is unsure.
            more_stats, more_wins, more_scores = self.search.measure(state, seat, rng, actions, self.measure, stop=ask)
            stats = [_merged(a, b) for a, b in zip(stats, more_stats)]
            wins = [a + b for a, b in zip(wins, more_wins)]
            scores = [a + b for a, b in zip(scores, more_scores)]
        if len(actions) == 2 and not stopped and _unsure_loss(*_difference(wins[0], wins[1])):
            # The move played looks worse, by more than the summary's bar but not clearly: measure
            # both again, as many samples again, before the verdict (a noise "loss" mostly falls
            # back under the bar, a real one stays).
            samples = len(wins[0])
            more_stats, more_wins, more_scores = self.search.measure(state, seat, rng, actions, samples, stop=ask)
            stats = [_merged(a, b) for a, b in zip(stats, more_stats)]
            wins = [a + b for a, b in zip(wins, more_wins)]
            scores = [a + b for a, b in zip(scores, more_scores)]
        if stopped:
            raise Stopped()
        return _Weighed(
            explored, [_estimate(m) for m in explored], [_estimate(m) for m in stats], wins, scores, rng, ask
        )

    def _score_loss(
        self, state: State, seat: int, weighed: "_Weighed", actions: list[Any], played_json: dict[str, Any]
    ) -> tuple[float, float]:
        """The played move's paired loss in expected final score (the game's own points, positive
        when the move played scores worse) against the move the exploration expects to score
        best, and its standard error. Unlike the win share it does not run out when the game is
        decided: a lost game can still be lost by more or fewer points.

        The reference is chosen from the exploration's score estimates; if it is the win verdict's
        move, the verdict's paired samples are used; otherwise it and the move played are measured
        again on further worlds from the same generator (after the verdict's measurement, so the
        win estimates and labels are exactly those of a judge without this figure)."""
        sign = -1.0 if self.settings.lower_score_wins else 1.0
        reference = max(weighed.explored, key=lambda m: (sign * m.score_estimate()[0], m.visits))
        reference_json = reference.action.to_json()
        if reference_json == played_json:
            return 0.0, 0.0
        if len(actions) == 2 and actions[0].to_json() == reference_json:
            first, second = weighed.scores[0], weighed.scores[1]
        else:
            pair = [reference.action, actions[-1]]
            samples = max(2, self.measure // 2)
            _stats, _wins, scores = self.search.measure(state, seat, weighed.rng, pair, samples, stop=weighed.ask)
            if weighed.ask is not None and weighed.ask():
                raise Stopped()
            first, second = scores
        loss, se = _difference(first, second)
        if _unsure_loss(sign * loss, se):
            # Counted but not clear: both moves measured again, as many samples again (as the win
            # share's verdict is), on further worlds from the same generator.
            pair = [reference.action, actions[-1]]
            _stats, _wins, scores = self.search.measure(state, seat, weighed.rng, pair, len(first), stop=weighed.ask)
            if weighed.ask is not None and weighed.ask():
                raise Stopped()
            first, second = first + scores[0], second + scores[1]
            loss, se = _difference(first, second)
        loss *= sign
        return (rounded(loss), rounded(se)) if loss > 0 else (0.0, 0.0)

    def judge_decision(
        self,
        state: State,
        seat: int,
        played: Any,
        step: int,
        phase: str,
        *,
        stop: Callable[[], bool] | None = None,
    ) -> DecisionReview:
        """The verdict on ``seat`` playing ``played`` at ``state`` (decision ``step`` of the game)."""
        played_json = played.to_json()

        def choice_and_played(explored: list[MoveStats]) -> list[Any]:
            choice = self.search.most_visited(explored).action
            return [choice] if choice.to_json() == played_json else [choice, played]

        weighed = self._weigh(state, seat, step, choice_and_played, stop)
        explored, measured, wins = weighed.explored_estimates, weighed.measured, weighed.wins
        choice = measured[0]
        mine = measured[-1]
        if mine is choice or mine.win >= choice.win:
            best, loss, loss_se = mine, 0.0, 0.0
        else:
            best = choice
            loss, loss_se = _difference(wins[0], wins[1])
            loss, loss_se = rounded(loss), rounded(loss_se)
        score_loss, score_loss_se = self._score_loss(
            state, seat, weighed, choice_and_played(weighed.explored), played_json
        )
        # Every move, best first: the measured ones with their measured numbers.
        by_action = {json.dumps(m.action, sort_keys=True): m for m in explored}
        for m in measured:
            by_action[json.dumps(m.action, sort_keys=True)] = m
        others = [m for key, m in by_action.items() if m.action != best.action]
        moves = [best, *_by_search(others)]
        return DecisionReview(
            step=step,
            seat=seat,
            phase=phase,
            played=played_json,
            best=best.action,
            loss=loss,
            loss_se=loss_se,
            label=self.settings.label(is_best=best is mine, loss=loss, loss_se=loss_se),
            iterations=sum(m.samples for m in explored) + sum(m.samples for m in measured),
            moves=tuple(moves),
            score_loss=score_loss,
            score_loss_se=score_loss_se,
        )

    def top_moves(
        self, state: State, seat: int, step: int, count: int, *, stop: Callable[[], bool] | None = None
    ) -> list[MoveEstimate]:
        """The search's ``count`` most visited moves, measured, the highest win share first."""

        def most_visited(explored: list[MoveStats]) -> list[Any]:
            ranked = sorted(explored, key=lambda m: (-m.visits, -m.win))
            return [m.action for m in ranked[:count]]

        return _by_search(self._weigh(state, seat, step, most_visited, stop).measured)


def review_budget(game: Game, decisions: int, budget: int | None = None) -> int:
    """The search's iterations per decision in a review of ``decisions`` decisions: ``budget`` (the
    game's by default), spread thinner over a review longer than the game's
    ``full_budget_decisions`` so that the longest games cost what the others do, never below a
    quarter of it. The number of the seat's decisions is something the seat saw, so this tells
    nothing hidden, and it is settled before the first decision (a review resumes alike)."""
    settings = judging_for(game)
    full = settings.budget if budget is None else budget
    if type(full) is not int or full < 1:
        return full  # (the judge refuses it with its own message)
    if decisions <= settings.full_budget_decisions:
        return full
    return max(1, full // 4, full * settings.full_budget_decisions // decisions)


def _decision_steps(record: Mapping[str, Any], seat: int) -> list[int]:
    """The indices of ``seat``'s entries in the record (single-option ones are dropped later)."""
    return [i for i, entry in enumerate(record["actions"]) if isinstance(entry, list) and entry and entry[0] == seat]


class Reviewing:
    """A review being made, one decision at a time: iterate ``decisions()`` (each item is
    computed when asked for), and take ``review()`` whenever (complete or not).

    ``resume`` is an earlier, partial review of the same record, seat and settings: its
    decisions are kept and only the rest are computed."""

    def __init__(
        self,
        record: Mapping[str, Any],
        seat: int,
        *,
        budget: int | None = None,
        seed: int = 0,
        resume: Review | Mapping[str, Any] | None = None,
        playouts: str | None = None,
        playout_noise: float | None = None,
    ) -> None:
        start = next(replay_iter(record))  # a clear RecordError for a bad header
        self.record = record
        self.game = start.game
        if type(seat) is not int or not 0 <= seat < start.players:
            raise ParlorError(f"no seat {seat!r} in this {start.players}-player game (seats are 0-{start.players - 1})")
        self.seat = seat
        self.players = start.players
        self.digest = record_digest(record)
        self.start_view = start.view(None)
        # Which of the seat's entries are real choices is known only by replaying; the count
        # of decisions to judge is settled by a first pass (cheap next to any search).
        self.result: dict[str, Any] | None = None  # the game's result, public once it is over
        self.steps = self._judged_steps()
        budget = review_budget(self.game, len(self.steps), budget)
        self.judge = Judge(self.game, budget=budget, seed=seed, playouts=playouts, playout_noise=playout_noise)
        self.done: list[DecisionReview] = []
        if resume is not None:
            self._resume(resume if isinstance(resume, Review) else Review.from_json(resume))

    def _judged_steps(self) -> list[int]:
        mine = set(_decision_steps(self.record, self.seat))
        steps = []
        for index, state in enumerate(replay_iter(self.record)):
            if index in mine and len(state.legal_actions(self.seat)) > 1:
                steps.append(index)
            if state.is_over:
                self.result = state.result().to_json()
        return steps

    def _resume(self, earlier: Review) -> None:
        if earlier.record_digest != self.digest or earlier.game != self.game.name:
            raise ReviewError("the review to resume was made for another game record")
        if earlier.seat != self.seat:
            raise ReviewError(f"the review to resume is of seat {earlier.seat}, not {self.seat}")
        mine, theirs = self.judge.describe(), dict(earlier.judge)
        mine.pop("parlor_version"), theirs.pop("parlor_version", None)
        if mine != theirs:
            raise StaleReview("the review to resume was made with other judge settings (budget, seed or thresholds)")
        if [d.step for d in earlier.decisions] != self.steps[: len(earlier.decisions)]:
            raise ReviewError("the review to resume does not match this record's decisions")
        self.done = list(earlier.decisions)

    @property
    def total(self) -> int:
        return len(self.steps)

    def decisions(self, *, stop: Callable[[], bool] | None = None) -> Iterator[DecisionReview]:
        """Judge the decisions not done yet, in order, yielding each when it is done. With
        ``stop``, a decision under way when it says True is dropped and the iteration ends."""
        todo = set(self.steps[len(self.done) :])
        if not todo:
            return
        actions = self.record["actions"]
        for index, state in enumerate(replay_iter(self.record)):
            if index not in todo:
                continue
            played = self.game.action_from_json(actions[index][1])
            phase = self.judge.settings.phase_of(self.start_view, state.view(None))
            try:
                decision = self.judge.judge_decision(state, self.seat, played, index, phase, stop=stop)
            except Stopped:
                return
            # What the better move keeps, scores or denies (explain.py), from the seat's worlds.
            why = explain_decision(decision, state, seed=self.judge.seed)
            if why:
                decision = dataclasses.replace(decision, why=why)
            self.done.append(decision)
            yield decision
            if len(self.done) == self.total or (stop is not None and stop()):
                return

    def review(self) -> Review:
        """The review as it stands (``complete`` once every decision is judged)."""
        return Review(
            game=self.game.name,
            players=self.players,
            seat=self.seat,
            record_digest=self.digest,
            judge=self.judge.describe(),
            decisions_total=self.total,
            decisions=tuple(self.done),
            result=self.result,
        )


def review(
    record: Mapping[str, Any],
    seat: int,
    *,
    budget: int | None = None,
    seed: int = 0,
    resume: Review | Mapping[str, Any] | None = None,
    stop: Callable[[], bool] | None = None,
    progress: Callable[[int, int], None] | None = None,
    playouts: str | None = None,
    playout_noise: float | None = None,
) -> Review:
    """Judge every decision of ``seat`` (0-based) in the game of ``record``.

    ``budget``: search iterations per decision (default: the game's, ``parlor.review.settings``);
    ``seed``: the judge's own randomness (same record, seat, budget and seed: same review);
    ``resume``: a partial review to carry on; ``stop``: asked during the work, True stops it
    and returns the decisions done so far; ``progress(done, total)`` after each decision;
    ``playouts`` and ``playout_noise``: the continuation, if not the game's (``parlor.review.playouts``).
    """
    reviewing = Reviewing(
        record, seat, budget=budget, seed=seed, resume=resume, playouts=playouts, playout_noise=playout_noise
    )
    if progress is not None:
        progress(len(reviewing.done), reviewing.total)
    for _decision in reviewing.decisions(stop=stop):
        if progress is not None:
            progress(len(reviewing.done), reviewing.total)
    return reviewing.review()


def review_further(
    record: Mapping[str, Any],
    seat: int,
    *,
    budget: int | None = None,
    seed: int = 0,
    resume: Review | Mapping[str, Any] | None = None,
    count: int = 1,
) -> Review:
    """``resume`` (or nothing) carried on by at most ``count`` more decisions: a review made a
    piece at a time, as the server's workers make it (each piece is a short job, so a long
    review never holds a worker for long). The pieces together equal ``review(record, seat)``."""
    reviewing = Reviewing(record, seat, budget=budget, seed=seed, resume=resume)
    for judged, _decision in enumerate(reviewing.decisions(), start=1):
        if judged >= count:
            break
    return reviewing.review()


def _position(position: Any) -> State:
    if isinstance(position, State):
        return position
    if isinstance(position, (str, Mapping)):
        from parlor import games

        data = json.loads(position) if isinstance(position, str) else position
        if isinstance(data, Mapping) and "state" in data and "game" in data:
            return games.get(str(data["game"])).load_state(data)
        if isinstance(data, Mapping) and "you" in data:
            raise ParlorError(
                "a hint needs the position (a State or its saved JSON), not a view: a view shows what a seat"
                " sees, but the judge deals the unseen cards through the game's own determinize, which reads"
                " the state (and only what the seat may know of it)"
            )
    raise ParlorError(f"a hint needs a State or a saved state's JSON, got {type(position).__name__}")


def hint(
    position: Any,
    seat: int,
    *,
    budget: int | None = None,
    seed: int = 0,
    top: int = 3,
    step: int | None = None,
) -> Hint:
    """The judge's ``top`` moves for ``seat``'s decision now, with their estimated win shares.

    ``position`` is the table's ``State`` (or its ``to_json()``); only what ``seat`` may know
    of it is used, as for a review. ``step`` (default: the number of decisions so far) seeds
    the search, so a hint and a later review of the same decision (same budget and seed)
    explore alike: the move the review measures as the search's choice is among the hint's.
    """
    state = _position(position)
    if type(seat) is not int or not 0 <= seat < state.players:
        raise ParlorError(f"no seat {seat!r} at this table of {state.players}")
    if not state.legal_actions(seat):
        raise ParlorError(f"seat {seat} has no decision to make now")
    judge = Judge(state.game, budget=budget, seed=seed)
    index = len(state.history()) if step is None else step
    moves = judge.top_moves(state, seat, index, max(1, top))
    return Hint(game=state.game.name, seat=seat, judge=judge.describe(), moves=tuple(moves))
