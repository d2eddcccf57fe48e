"""The judge's API: a review as a value (JSON round trip, versioned, validated), deterministic,
stoppable and resumable per decision, consistent verdicts; hints; bad input refused clearly."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import cache
from typing import Any

import pytest

from parlor import games
from parlor.core import ParlorError, RecordError, replay_iter
from parlor.review import (
    LABELS,
    SIGNIFICANCE,
    Hint,
    Judge,
    Review,
    ReviewError,
    Reviewing,
    hint,
    judging_for,
    review,
    review_further,
    summarize,
)
from parlor.review.calibration import bot_game

BUDGET = 24


@cache
def record_of(name: str) -> dict[str, Any]:
    return bot_game(name, 3, ["medium", "easy", "random"], 17)


@cache
def review_of(name: str, seat: int = 1) -> Review:
    return review(record_of(name), seat, budget=BUDGET, seed=5)


NAMES = ["mamma-mia", "sweet-nose", "mottainai"]


@pytest.mark.parametrize("name", NAMES)
def test_every_decision_of_the_seat_is_judged_and_the_verdicts_hold_together(name: str) -> None:
    record = record_of(name)
    result = review_of(name)
    states = list(replay_iter(record))
    asked = [i for i, (seat, _) in enumerate(record["actions"]) if seat == 1 and len(states[i].legal_actions(1)) > 1]
    assert [d.step for d in result.decisions] == asked and result.complete
    assert result.result == states[-1].result().to_json()
    settings = judging_for(games.get(name))
    for d in result.decisions:
        legal = [a.to_json() for a in states[d.step].legal_actions(1)]
        # every legal move once, the best first, the move played among them
        assert sorted(map(json.dumps, (m.action for m in d.moves))) == sorted(map(json.dumps, legal))
        assert d.moves[0].action == d.best and d.played == record["actions"][d.step][1]
        assert d.label in LABELS and d.loss >= 0 and d.phase
        if d.label == "best":
            assert d.best == d.played and d.loss == 0
        else:
            assert d.best != d.played
            # the verdict's two moves were measured on the same fresh samples, twice as many
            # where the first measurement could not tell them apart, four times where it was still
            # unsure after that
            measure = Judge(games.get(name), budget=BUDGET).measure
            assert d.best_estimate.samples == d.played_estimate.samples in (measure, 2 * measure, 4 * measure)
            assert d.loss == pytest.approx(d.best_estimate.win - d.played_estimate.win, abs=2e-4)
        if d.label in ("inaccuracy", "mistake", "blunder"):
            assert d.loss >= settings.inaccuracy and d.loss >= SIGNIFICANCE * d.loss_se
        for m in d.moves:
            assert 0 <= m.win <= 1 and 1 <= m.place <= 3 and m.samples >= 1


def test_a_review_round_trips_through_json_and_refuses_what_it_cannot_read() -> None:
    result = review_of("mottainai")
    data = json.loads(json.dumps(result.to_json()))
    assert data["format"] == 1 and data["complete"] is True and data["seat"] == 1
    assert Review.from_json(data) == result
    for broken, message in [
        ({**data, "format": 2}, "format"),
        ({k: v for k, v in data.items() if k != "judge"}, "damaged review"),
        ({**data, "decisions": [{**data["decisions"][0], "label": "brilliant"}]}, "unknown label"),
        ({**data, "decisions": [{**data["decisions"][0], "moves": data["decisions"][0]["moves"][::-1]}]}, "first"),
        ({**data, "decisions_total": 0}, "more decisions"),
        ([1, 2], "JSON object"),
    ]:
        with pytest.raises(ReviewError, match=message):
            Review.from_json(broken)
    assert issubclass(ReviewError, ParlorError)


def test_the_summary_counts_phases_costliest_and_the_line() -> None:
    result = review_of("mamma-mia")
    summary = summarize(result)
    assert summary["decisions"] == len(result.decisions) == sum(summary["labels"].values())
    assert sum(p["decisions"] for p in summary["phases"]) == summary["decisions"]
    assert {p["phase"] for p in summary["phases"]} == {d.phase for d in result.decisions}
    assert all(p["phase"] in ("round-1", "round-2", "round-3") for p in summary["phases"])
    losses = sorted((d.loss for d in result.decisions if d.loss > 0), reverse=True)[:3]
    assert [c["loss"] for c in summary["costliest"]] == losses
    assert [p["step"] for p in summary["graph"]] == [d.step for d in result.decisions]
    good = sum(d.label in ("best", "good") for d in result.decisions)
    assert summary["good_share"] == pytest.approx(good / len(result.decisions))
    assert 0 <= summary["accuracy"] <= 1
    assert summary["total_loss"] <= sum(d.loss for d in result.decisions) + 1e-9


def test_the_same_seed_gives_the_same_review_in_another_process() -> None:
    ours = review_of("sweet-nose")
    script = (
        "import json, sys\n"
        "from parlor.review import review\n"
        "record = json.loads(sys.stdin.read())\n"
        f"print(json.dumps(review(record, 1, budget={BUDGET}, seed=5).to_json()))\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    done = subprocess.run(
        [sys.executable, "-c", script], input=json.dumps(record_of("sweet-nose")), capture_output=True, text=True,
        env=env, check=True,
    )  # fmt: skip
    assert Review.from_json(json.loads(done.stdout)) == ours
    assert review(record_of("sweet-nose"), 1, budget=BUDGET, seed=6) != ours


def test_stopped_between_or_inside_decisions_then_resumed_is_the_same_review() -> None:
    record, full = record_of("mottainai"), review_of("mottainai")
    calls = {"n": 0}

    def stop_soon() -> bool:  # asked during the searches: stops inside the fourth decision or so
        calls["n"] += 1
        return calls["n"] > 3

    partial = review(record, 1, budget=BUDGET, seed=5, stop=stop_soon)
    assert not partial.complete and 0 < len(partial.decisions) < full.decisions_total
    assert partial.decisions == full.decisions[: len(partial.decisions)]
    assert partial.decisions_total == full.decisions_total
    resumed = review(record, 1, budget=BUDGET, seed=5, resume=json.loads(json.dumps(partial.to_json())))
    assert resumed == full
    # A partial review of other settings or another game cannot be resumed.
    with pytest.raises(ReviewError, match="other judge settings"):
        review(record, 1, budget=BUDGET + 1, seed=5, resume=partial)
    with pytest.raises(ReviewError, match="another game record"):
        review(record_of("sweet-nose"), 1, budget=BUDGET, seed=5, resume=partial)
    with pytest.raises(ReviewError, match="seat 1, not 2"):
        review(record, 2, budget=BUDGET, seed=5, resume=partial)


def test_progress_is_reported_after_each_decision() -> None:
    seen: list[tuple[int, int]] = []
    result = review(record_of("mamma-mia"), 0, budget=8, progress=lambda done, total: seen.append((done, total)))
    total = result.decisions_total
    assert seen == [(i, total) for i in range(total + 1)]


def test_bad_input_is_refused_clearly() -> None:
    record = record_of("mamma-mia")
    with pytest.raises(ParlorError, match="no seat 3"):
        review(record, 3)
    with pytest.raises(ParlorError, match="budget"):
        review(record, 0, budget=0)
    broken = {**record, "actions": [*record["actions"][:5], [0, {"type": "nonsense"}]]}
    with pytest.raises(RecordError, match="step 5"):
        review(broken, 0)
    with pytest.raises(RecordError):
        review({"game": "mamma-mia"}, 0)
    with pytest.raises(ParlorError, match="no settings"):
        judging_for(type("Other", (), {"name": "chess"})())
    with pytest.raises(ParlorError, match="playouts are one of random, game, heuristic"):
        review(record, 0, budget=2, playouts="clever")
    with pytest.raises(ParlorError, match="no playout policy of its own"):
        Judge(games.get("mamma-mia"), playouts="game")
    with pytest.raises(ParlorError, match="share of moves, 0 to 1"):
        Judge(games.get("mottainai"), playouts="heuristic", playout_noise=1.5)


def test_the_continuation_is_a_setting_the_review_records() -> None:
    record = record_of("mottainai")
    default = review(record, 1, budget=8, seed=5)
    assert default.judge["playouts"] == "random" and "playout_noise" not in default.judge
    assert Judge(games.get("sweet-nose")).describe()["playouts"] == "the game's playout policy"
    heuristic = review(record, 1, budget=8, seed=5, playouts="heuristic")
    assert heuristic.judge["playouts"] == "heuristic" and heuristic.judge["playout_noise"] == 0.1
    assert [d.step for d in heuristic.decisions] == [d.step for d in default.decisions]
    # Another continuation weighs the same moves differently.
    assert [d.moves for d in heuristic.decisions] != [d.moves for d in default.decisions]
    # A partial review is resumed only with the continuation it was made with.
    with pytest.raises(ReviewError, match="other judge settings"):
        review(record, 1, budget=8, seed=5, resume=heuristic)


def test_a_hint_gives_the_top_three_from_the_seat_s_information() -> None:
    game = games.get("sweet-nose")
    state = game.new_game(3, 2)
    while len(state.to_move) > 1 or len(state.legal_actions(state.to_move[0])) < 4:  # an exchange turn
        seat = state.to_move[0]
        state.apply(seat, state.legal_actions(seat)[0])
    seat = state.to_move[0]
    given = hint(state, seat, budget=60, seed=1)
    assert len(given.moves) == 3
    legal = [a.to_json() for a in state.legal_actions(seat)]
    assert all(m.action in legal for m in given.moves)
    assert [m.win for m in given.moves] == sorted((m.win for m in given.moves), reverse=True)
    # the same from the saved state, and as JSON
    assert hint(state.to_json(), seat, budget=60, seed=1) == given
    assert Hint.from_json(json.loads(json.dumps(given.to_json()))) == given
    # seeded by the decision's index in the game, as a review of it would be
    assert hint(state, seat, budget=60, seed=1, step=len(state.history())) == given
    with pytest.raises(ParlorError, match="not a view"):
        hint(state.view(seat), seat)
    other = next(p for p in range(3) if p not in state.to_move)
    with pytest.raises(ParlorError, match="no decision"):
        hint(state, other)


def test_a_reviewing_in_progress_can_be_read_at_any_time() -> None:
    record = record_of("mamma-mia")
    reviewing = Reviewing(record, 2, budget=8)
    assert reviewing.review().decisions == () and reviewing.total > 3
    steps = reviewing.decisions()
    first = next(steps)
    snapshot = reviewing.review()
    assert snapshot.decisions == (first,) and not snapshot.complete


def test_a_hint_and_the_review_of_the_same_decision_explore_alike() -> None:
    record, result = record_of("mottainai"), review_of("mottainai")
    states = list(replay_iter(record))
    checked = 0
    for d in result.decisions:
        if d.label == "best":
            continue  # the best is then the move played; the search's own choice is not recorded
        given = hint(states[d.step], 1, budget=BUDGET, seed=5, step=d.step)
        assert d.best in [m.action for m in given.moves]
        checked += 1
    assert checked >= 2


def test_only_a_verdict_the_first_measurement_cannot_settle_is_measured_again() -> None:
    from parlor.review.judge import _close

    assert not _close([1.0, 0.0, 1.0, 0.0], [1.0, 0.0, 1.0, 0.0])  # the same games: no more samples help
    assert not _close([1.0] * 20, [0.0] * 19 + [1.0])  # clearly apart
    assert _close([1.0, 0.0, 1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 1.0, 0.0, 1.0, 0.0])  # a difference within the noise


def test_a_loss_the_summary_would_count_but_not_clearly_is_measured_again(monkeypatch: pytest.MonkeyPatch) -> None:
    from parlor.review.judge import _unsure_loss
    from parlor.review.settings import CONFIRM_SIGNIFICANCE
    from parlor.review.summary import COUNT_SIGNIFICANCE

    assert _unsure_loss(COUNT_SIGNIFICANCE * 0.02, 0.02)  # just counted: measured again
    assert _unsure_loss(0.049, 0.02)  # 2.45 standard errors: still within the doubt
    assert not _unsure_loss(CONFIRM_SIGNIFICANCE * 0.02, 0.02)  # clear: settled
    assert not _unsure_loss(0.019, 0.02)  # under the summary's bar: it does not count anyway
    assert not _unsure_loss(-0.05, 0.02) and not _unsure_loss(0.03, 0.0)  # a gain; identical games
    # In a review, the decisions measured four times over are those still unsure after doubling: a
    # judge whose doubt ends at the summary's bar measures none of them so.
    result = review_of("mamma-mia")
    measure = Judge(games.get("mamma-mia"), budget=BUDGET).measure
    assert any(d.played_estimate.samples == 4 * measure for d in result.decisions)
    monkeypatch.setattr("parlor.review.judge.CONFIRM_SIGNIFICANCE", COUNT_SIGNIFICANCE)
    doubtless = review(record_of("mamma-mia"), 1, budget=BUDGET, seed=5)
    assert all(d.played_estimate.samples < 4 * measure for d in doubtless.decisions)
    assert [d.step for d in doubtless.decisions] == [d.step for d in result.decisions]


def test_a_long_review_spreads_the_budget_of_the_game_s_full_budget_decisions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import dataclasses

    from parlor.review import settings
    from parlor.review.jobs import review_step
    from parlor.review.judge import review_budget

    mottainai = games.get("mottainai")
    full = judging_for(mottainai).full_budget_decisions
    assert review_budget(mottainai, full) == judging_for(mottainai).budget  # up to the bar: the full budget
    assert review_budget(mottainai, 2 * full) == judging_for(mottainai).budget // 2
    assert review_budget(mottainai, 100 * full) == judging_for(mottainai).budget // 4  # never below a quarter
    assert review_budget(mottainai, 2 * full, 40) == 20  # an explicit budget is spread alike
    record = record_of("mottainai")
    short = review_of("mottainai")
    assert short.judge["budget"] == BUDGET
    # The same game reviewed when the game's bar is a third of its decisions: a third of the budget
    # (and of the measurement) each, recorded with the review; resumed alike.
    third = short.decisions_total // 3
    shorter = dataclasses.replace(judging_for(mottainai), full_budget_decisions=third)
    monkeypatch.setitem(settings.JUDGING, "mottainai", shorter)
    spread = review(record, 1, budget=BUDGET, seed=5)
    assert spread.judge["budget"] == max(BUDGET // 4, BUDGET * third // short.decisions_total) < BUDGET
    assert spread.judge["measure"] < short.judge["measure"]
    assert spread.decisions != short.decisions
    partial = review_further(record, 1, budget=BUDGET, seed=5, count=3)
    assert partial.decisions == spread.decisions[:3] and not partial.complete
    assert review(record, 1, budget=BUDGET, seed=5, resume=partial) == spread
    # A partial review of the judge before the change cannot be resumed by the library; the server's
    # job starts such a review again instead of failing on it at every request.
    stale = partial
    monkeypatch.setitem(settings.JUDGING, "mottainai", dataclasses.replace(shorter, full_budget_decisions=full))
    with pytest.raises(ReviewError, match="other judge settings"):
        review(record, 1, budget=BUDGET, seed=5, resume=stale)
    again = review_step(record, 1, BUDGET, stale.to_json(), count=2)
    assert [d["step"] for d in again["decisions"]] == [d.step for d in short.decisions[:2]]
    assert again["judge"]["budget"] == BUDGET
