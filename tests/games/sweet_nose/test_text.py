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
        input=moves, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "Your cards: Mung 3, Peach 1, Brittle 5, Zhuangyuan 2, Haws 4." in out.stdout
