"""One `start_player` option, same name and meaning, in every game; old names still work."""

from __future__ import annotations

import pytest

from parlor import games
from parlor.analysis.simulation import RunSpec, play_game
from parlor.core import ParlorError
from parlor.core.options import options_to_json, parse_option_text


@pytest.mark.parametrize("name", ["mamma-mia", "sweet-nose", "mottainai"])
def test_start_player_sets_the_first_player_in_every_game(name):
    game = games.get(name)
    for seat in range(3):
        assert {game.new_game(3, s, {"start_player": seat}).start_player for s in range(4)} == {seat}
    randomly = {game.new_game(3, s).start_player for s in range(30)}
    assert len(randomly) > 1  # the default is a seeded draw
    with pytest.raises(ParlorError, match=r"start_player|starts"):  # each game says it in its own words
        game.new_game(3, 1, {"start_player": 4})
    # Typed by a person the seat counts from 1 (Seat 3); in JSON it is the engine's index (2).
    assert parse_option_text(game.Options, "start_player=3") == ("start_player", 2)
    row = play_game(RunSpec(name, 3, 1, 5, ("random",) * 3, options={"start_player": 2}), 0)
    assert row["start_player"] == 2 and row["turn_position"] == [1, 2, 0]


def test_old_option_names_are_aliases():
    mm = games.get("mamma-mia")
    old = mm.options_from_json({"first_player": "seat0"})
    assert old.start_player == 0 and "first_player" not in options_to_json(old)
    assert mm.options_from_json({"first_player": "random"}).start_player == "random"
    assert parse_option_text(mm.Options, "first_player=seat0") == ("start_player", 0)
    sn = games.get("sweet-nose")
    assert sn.options_from_json({"first_start_player": 2}).start_player == 2
    assert parse_option_text(sn.Options, "first_start_player=2") == ("start_player", 1)  # Seat 2, index 1
