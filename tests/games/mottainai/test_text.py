"""The terminal words for Mottainai: every action, event and view can be put in words."""

from __future__ import annotations

import random

from rich.console import Console

from parlor.core import for_seat
from parlor.games.mottainai import text
from parlor.games.mottainai.actions import ACTION_SPACE

from .helpers import G


def test_every_action_and_event_of_a_game_reads_as_words():
    console = Console(file=open("/dev/null", "w"), width=100)  # noqa: SIM115
    state = G.new_game(3, 21)
    rnd = random.Random(21)
    view = state.view(0)
    for action in ACTION_SPACE.actions:
        assert text.describe_action(action, view)
    narrator = text.Narrator(0, 3)
    while state.to_move:
        seat = state.to_move[0]
        view = state.view(seat)
        assert text.decision_words(view)
        for event in for_seat(state.apply(seat, rnd.choice(state.legal_actions(seat))), 0):
            assert all(isinstance(line, str) for line in narrator.lines(event))
    final = state.view(0)
    for renderable in (text.render_view(final), text.render_hand(final), text.render_result(final)):
        console.print(renderable)
    assert "Mottainai" in text.RULES and text.SCORE_LABEL


def test_card_words_name_material_and_effect():
    assert text.card_label("poem", styled=False) == "Poem paper/1"
    assert "Paper" in text.card_effect("poem")
    assert text.short_label("bowl").endswith("Bowl Cy3[/]")
