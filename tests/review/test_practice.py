"""Practice from a mistake: a decision set up again from what the seat knew, never the real cards.

* Secrecy: two games that a seat cannot tell apart (the twins of test_honesty.py: an opponent's
  hidden cards set otherwise) give byte-identical practice deals at every decision of the seat
  where the hidden parts really differ, for the same seed; the setup takes the seat's information
  set only (``InformationSet`` answers its moves, its view and worlds dealt from them).
* Over many practice deals from one position, every deal looks to the seat exactly like the real
  position (its view with perfect recall, its moves), the deals differ from one another, and they
  are not always the real hidden cards.
* A practice game plays on to its end, and its record replays from the dealt position.
* ``parlor practice``: a game played on from a step with piped input; a bad seat, step or file
  is one line and exit code 1.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from parlor import games
from parlor.bots import make_bot
from parlor.core import ParlorError, replay
from parlor.review.practice import InformationSet, decision_steps, information_set, practice_deal

from .test_honesty import TWINS, canon, start_of

SEATS = {"mamma-mia": 0, "mottainai": 0, "sweet-nose": 1}  # the seat each twin pair is alike for


def hidden_state(state: Any) -> str:
    return canon(state.to_json()["state"])


def positions(record: dict[str, Any], steps: list[int]) -> dict[int, Any]:
    state, out = start_of(record), {}
    for index, (seat, action) in enumerate(record["actions"]):
        if index in steps:
            out[index] = state.clone()
        state.apply(seat, state.game.action_from_json(action))
    return out


@pytest.mark.parametrize("name", sorted(TWINS))
def test_two_games_the_seat_cannot_tell_apart_give_the_same_practice_deals(name: str) -> None:
    record_a, record_b, _ = TWINS[name]()
    seat = SEATS[name]
    last = max(decision_steps(record_a, seat))
    # (the twins are alike for the seat up to its last decision: after it, the two games may part)
    steps = [s for s in decision_steps(record_a, seat) if s < last]
    real_a, real_b = positions(record_a, steps), positions(record_b, steps)
    differing = [s for s in steps if hidden_state(real_a[s]) != hidden_state(real_b[s])]
    assert len(differing) >= 5, differing  # the hidden cards really differ at these decisions
    for step in differing[:: max(1, len(differing) // 6)]:
        known_a, known_b = information_set(record_a, seat, step), information_set(record_b, seat, step)
        for seed in range(4):
            deal_a, deal_b = practice_deal(known_a, seed), practice_deal(known_b, seed)
            assert deal_a.to_json_text() == deal_b.to_json_text(), (step, seed)
            # ... and the deal is a position of the seat's own: its moves, its view (with recall)
            assert deal_a.legal_actions(seat) == real_a[step].legal_actions(seat)
            assert canon(deal_a.view(seat, True)) == canon(real_a[step].view(seat, True))


def test_the_practice_setup_takes_the_seat_s_information_set_only() -> None:
    # What it is given answers the seat's moves, its view and dealt worlds; the position stays private.
    record, _, _ = TWINS["sweet-nose"]()
    step = decision_steps(record, 1)[3]
    known = information_set(record, 1, step)
    assert isinstance(known, InformationSet)
    public = {name for name in dir(known) if not name.startswith("_")}
    assert public == {"deal", "game", "legal_actions", "players", "seat", "step", "view"}
    assert not hasattr(known, "__dict__")  # (slots: no other attribute holds the position)


@pytest.mark.parametrize(("name", "players"), [("mamma-mia", 3), ("sweet-nose", 3), ("mottainai", 3)])
def test_practice_deals_fit_what_the_seat_knew_but_are_not_always_the_real_cards(name: str, players: int) -> None:
    game = games.get(name)
    state = game.new_game(players, 21)
    bots = [make_bot("medium", game, 21 + p) for p in range(players)]
    while True:  # play on to a real choice of seat 1 in the middle of the game
        seat = state.to_move[0]
        if seat == 1 and len(state.history()) >= 15 and len(state.legal_actions(1)) > 1:
            break
        state.apply(seat, bots[seat].choose(state, seat))
    record, step = state.record(), len(state.history())
    record["actions"].append([1, state.legal_actions(1)[0].to_json()])  # the decision, as it was played
    known = information_set(record, 1, step)
    real_view, real_moves, real_hidden = canon(state.view(1, True)), state.legal_actions(1), hidden_state(state)
    deals = [practice_deal(known, seed) for seed in range(24)]
    for deal in deals:
        assert canon(deal.view(1, True)) == real_view
        assert deal.legal_actions(1) == real_moves
        assert deal.to_move == state.to_move
    hidden = [hidden_state(d) for d in deals]
    assert any(h != real_hidden for h in hidden), "every deal was the real one"
    assert len(set(hidden)) > 1, "every deal was the same"
    # The same information and seed: the same deal.
    assert practice_deal(known, 5).to_json_text() == deals[5].to_json_text()


def test_a_practice_game_plays_on_and_its_record_replays_from_the_dealt_position() -> None:
    record, _, _ = TWINS["mottainai"]()
    step = decision_steps(record, 0)[6]
    state = practice_deal(information_set(record, 0, step), 3)
    assert state.history() == []  # the practice game's own past starts here
    bots = [make_bot("easy", state.game, p) for p in range(state.players)]
    while state.to_move:
        seat = state.to_move[0]
        state.apply(seat, bots[seat].choose(state, seat))
    saved = json.loads(json.dumps(state.record()))
    assert saved["actions"][0][0] == 0  # it starts at the seat's decision
    assert replay(saved).to_json_text() == state.to_json_text()


def test_bad_seats_and_steps_are_refused_clearly() -> None:
    record, _, _ = TWINS["sweet-nose"]()
    theirs = decision_steps(record, 0)[0]
    with pytest.raises(ParlorError, match=f"step {theirs} is not a decision of Seat 2"):
        information_set(record, 1, theirs)
    with pytest.raises(ParlorError, match="no seat 7"):
        information_set(record, 7, 0)
    with pytest.raises(ParlorError, match="not a decision"):
        information_set(record, 1, len(record["actions"]))
    with pytest.raises(ParlorError, match="seed must be an integer"):
        practice_deal(information_set(record, 1, decision_steps(record, 1)[0]), "x")  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    record, _, _ = TWINS["mamma-mia"]()
    path = tmp_path_factory.mktemp("practice") / "game.json"
    path.write_text(json.dumps(record))
    return path


def run(*args: str, given: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "parlor", "practice", *args],
        input=given,
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "120"},  # (the same sources as this test: PYTHONPATH kept)
    )


def test_parlor_practice_plays_on_from_the_step(saved: Path) -> None:
    record = json.loads(saved.read_text())
    step = decision_steps(record, 0)[4] + 1  # counted from 1, as `parlor review` prints it
    done = run(str(saved), "--seat", "1", "--step", str(step), "--seed", "2", "--delay", "0", given="1\n" * 400)
    assert done.returncode == 0, done.stderr
    assert f"practice from step {step}" in done.stdout
    assert "dealt afresh" in done.stdout
    assert "Final table" in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "5", "--step", "1"], "--seat must be between 1 and 2, got 5"),
        (["--seat", "1", "--step", "0"], "--step 0 is not a decision of Seat 1 (its nearest decisions: steps"),
        (["--seat", "2", "--step", "99999"], "--step 99999 is not a decision of Seat 2"),
    ],
)
def test_parlor_practice_refuses_a_bad_seat_or_step_in_one_line(saved: Path, args: list[str], message: str) -> None:
    done = run(str(saved), *args)
    assert done.returncode == 1
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr


def test_parlor_practice_refuses_a_missing_or_damaged_file_in_one_line(tmp_path: Path) -> None:
    damaged = tmp_path / "damaged.json"
    damaged.write_text('{"game": "mamma-mia"')
    for path, message in ((tmp_path / "none.json", "cannot read record"), (damaged, "is not valid JSON")):
        done = run(str(path), "--seat", "1", "--step", "1")
        assert done.returncode == 1
        assert message in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
