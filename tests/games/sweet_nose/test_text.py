"""The terminal's Sweet Nose menu: a short list of placements, and placements typed as values."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from parlor import games
from parlor.games.sweet_nose import text

GAME = games.get("sweet-nose")


def test_placements_shortlist_and_typed_values():
    state = GAME.new_game(3, 3)
    seat = 0
    legal = state.legal_actions(seat)
    assert len(legal) == 120
    view = state.view(seat)
    indices, note = text.shortlist(legal, view)
    assert len(indices) == text.SHORTLIST and "type" in note
    me = view["players_info"][seat]
    held = {k: me["tray"].get(k, 0) + me["bowl"].get(k, 0) for k in text.KINDS}
    scores = [text.estimate(view, dict(zip(text.KINDS, a.values)), held) for a in legal]
    assert [scores[i] for i in indices] == sorted(scores)[: text.SHORTLIST]
    i = text.parse_move("3 1 5 2 4", legal, view)
    assert tuple(legal[i].values) == (3, 1, 5, 2, 4)
    assert text.parse_move("31524", legal, view) == i
    assert text.parse_move("3 1 5 2", legal, view) is None  # four values
    assert text.parse_move("3 3 5 2 4", legal, view) is None  # not a permutation
    assert text.shortlist(state.clone().legal_actions(1)[:3], view) is None  # few options: list them all


def test_typing_a_placement_in_a_piped_game():
    parlor = Path(sys.executable).with_name("parlor")
    moves = "3 1 5 2 4\n" + "1\n" * 400
    out = subprocess.run(
        [str(parlor), "play", "sweet-nose", "--players", "3", "--seed", "3"],
        input=moves, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "Your cards: Mung 3, Peach 1, Brittle 5, Zhuangyuan 2, Haws 4." in out.stdout


def _trading_position(players: int = 4, seed: int = 3):
    """A phase-2 decision with many trades (random play from a fixed deal)."""
    import random

    state, rnd = GAME.new_game(players, seed), random.Random(1)
    while True:
        seat = state.to_move[0]
        legal = state.legal_actions(seat)
        if any(a.TYPE in text.TRADES for a in legal) and len(legal) > text.LONGEST_FULL_MENU:
            return state, seat, legal
        state.apply(seat, rnd.choice(legal))


def test_phase_two_lists_the_trades_that_leave_the_lowest_score():
    state, seat, legal = _trading_position()
    view = state.view(seat)
    indices, note = text.shortlist(legal, view)
    trades = [i for i, a in enumerate(legal) if a.TYPE in text.TRADES]
    listed = [i for i in indices if legal[i].TYPE in text.TRADES]
    assert len(listed) == text.SHORTLIST and f"all {len(legal)}" in note
    assert set(indices) - set(listed) == {i for i, a in enumerate(legal) if a.TYPE not in text.TRADES}
    scores = {i: text.score_after_trade(view, legal[i]) for i in trades}
    assert sorted(scores[i] for i in listed) == sorted(scores.values())[: text.SHORTLIST]
    # The hint is the score after the trade: play the best listed trade and score the round as the view says.
    best = min(listed, key=lambda i: (scores[i], i))
    after = state.clone()
    after.apply(seat, legal[best])
    me = after.view(seat)["players_info"][seat]
    assert text.estimate(after.view(seat), view["players_info"][seat]["sweetness"], text._held(me)) == scores[best]
    assert text.typed_move_hint(legal) == "" and text.typed_move_hint(GAME.new_game(3, 3).legal_actions(0)) != ""


def test_a_lists_every_move_and_the_numbers_follow_the_whole_list(tmp_path):
    """In the terminal: the shortlist, then ``a``, then a number past the shortlist plays that move."""
    parlor = Path(sys.executable).with_name("parlor")
    # Phase 1 shortlist: 'a' lists all 120 placements, and 120 picks the last one.
    out = subprocess.run(
        [str(parlor), "play", "sweet-nose", "--players", "3", "--seed", "3"],
        input="a\n120\nq\nn\n", capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "1-8 or five values, a all" in out.stdout and "(1-120, h help, q quit)" in out.stdout
    last = GAME.new_game(3, 3).legal_actions(0)[-1]
    named = ", ".join(f"{text.SHORT[k]} {v}" for k, v in zip(text.KINDS, last.values))
    assert f"Your cards: {named}." in out.stdout


def test_a_wrong_placement_is_explained_in_words_that_are_true():
    state = GAME.new_game(3, 2)
    legal = state.legal_actions(0)
    view = state.view(0)
    explain = text.explain_move
    assert explain("1 1 1 1 1", legal, view) == (
        "each value 1-5 is used once: 1 appears five times; 2, 3, 4 and 5 are missing"
    )
    assert explain("3 1 5 2 2", legal, view).endswith("2 appears twice; 4 is missing")
    assert explain("3 3 1 1 5", legal, view).endswith("1 appears twice, 3 appears twice; 2 and 4 are missing")
    assert explain("3 1 5", legal, view).endswith("you typed 3 values")
    assert explain("3 1 5 2 4 1", legal, view).endswith("you typed 6 values")


def test_in_the_auction_the_whole_list_keeps_pass_as_number_1():
    """The Shopkeeper auction's shortlist lists passing as 1; after ``a`` lists every bid, 1 still
    passes (in the engine's order it was a bid of the lowest space, costing sweetness)."""
    parlor = Path(sys.executable).with_name("parlor")
    out = subprocess.run(
        [str(parlor), "play", "sweet-nose", "--players", "4", "--option", "shopkeeper=true", "--seed", "2"],
        input="a\n1\nq\nn\n", capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    whole = out.stdout.split("q quit): a", 1)[1]
    first = whole.split("your options:\n", 1)[1].splitlines()[0]
    assert first.strip().startswith("1  Pass: out of the auction for good"), first
    assert "You pass (marker on 0)." in whole
