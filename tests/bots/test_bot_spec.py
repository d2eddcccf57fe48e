"""Bot specs: parameters for the built-in bots and bots plugged in from modules and files."""

from __future__ import annotations

from pathlib import Path

import pytest

from parlor import games
from parlor.bots import make_bot
from parlor.bots.spec import parse_bot_spec, split_bot_specs
from parlor.core.errors import ParlorError

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "bots" / "greedy_bot.py"


def test_specs_split_with_parameters_kept_together() -> None:
    assert split_bot_specs("hard:iterations=800,exploration=0.5,expert") == [
        "hard:iterations=800:exploration=0.5",
        "expert",
    ]
    assert split_bot_specs(" random , medium ") == ["random", "medium"]


def test_builtin_parameters_reach_the_bot() -> None:
    game = games.get("sweet-nose")
    bot = make_bot("hard:iterations=37:exploration=0.25", game, 1)
    assert (bot.iterations, bot.exploration, bot.name) == (37, 0.25, "hard")
    assert make_bot("easy:noise=1.0", game, 1).noise == 1.0


@pytest.mark.parametrize(
    "spec",
    ["nonsense", "hard:bogus=3", "random:x=1", "hard:iterations", "parlor.bots:NoSuchBot", "no_such_mod:Bot", "x.py:A"],
)
def test_bad_specs_get_a_clear_error(spec: str) -> None:
    with pytest.raises(ParlorError):
        parse_bot_spec(spec)(games.get("mamma-mia"), 0)


def test_a_bot_from_a_file_and_from_a_module_plays() -> None:
    game = games.get("mottainai")
    for spec in (f"{EXAMPLE}:GreedyBot", "parlor.bots:RandomBot"):
        bot = make_bot(spec, game, 5)
        state = game.new_game(2, 5)
        while not state.is_over:
            seat = state.to_move[0]
            state.apply(seat, bot.choose(state, seat))
        assert state.result().winners


def test_a_custom_bot_from_a_file_plays_a_tournament() -> None:
    import json

    from typer.testing import CliRunner

    from parlor.cli.main import app

    spec = f"{EXAMPLE}:GreedyBot:samples=1"
    result = CliRunner().invoke(
        app, ["tournament", "mamma-mia", "-p", "2", "--bots", f"{spec},random", "-n", "4", "--seed", "3", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    text = json.dumps(data)
    assert "GreedyBot" in text and "random" in text
    bad = CliRunner().invoke(app, ["tournament", "mamma-mia", "-p", "2", "--bots", "nope.py:X,random", "-n", "2"])
    assert bad.exit_code != 0 and "not found" in bad.output
