"""Bot specs: parameters for the built-in bots and bots plugged in from modules and files."""

from __future__ import annotations

import json
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


def test_plug_in_bots_are_labelled_by_their_name_not_their_path(tmp_path: Path) -> None:
    # Tables once named a plug-in bot by its file path; they name it by its class's name.
    from typer.testing import CliRunner

    from parlor.bots.spec import bot_labels
    from parlor.cli.main import app

    nameless = tmp_path / "nameless.py"
    nameless.write_text("from parlor.bots import RandomBot\n\nclass Plain(RandomBot):\n    name = ''\n")
    impostor = tmp_path / "impostor.py"
    impostor.write_text("from parlor.bots import RandomBot\n\nclass Medium(RandomBot):\n    name = 'medium'\n")
    greedy, other = f"{EXAMPLE}:GreedyBot:samples=2", f"{tmp_path / 'greedy.py'}:GreedyBot"
    (tmp_path / "greedy.py").write_text(EXAMPLE.read_text())
    assert bot_labels([greedy, "random", f"{nameless}:Plain", "hard:iterations=9"]) == {
        greedy: "greedy:samples=2",
        "random": "random",
        f"{nameless}:Plain": "Plain",  # no name: the class name
        "hard:iterations=9": "hard:iterations=9",
    }
    # Two plug-ins of one name, or one named like a built-in in the same run, keep their specs.
    assert bot_labels([f"{EXAMPLE}:GreedyBot", other]) == {f"{EXAMPLE}:GreedyBot": f"{EXAMPLE}:GreedyBot", other: other}
    assert bot_labels([f"{impostor}:Medium", "medium"])[f"{impostor}:Medium"] == f"{impostor}:Medium"
    assert bot_labels([f"{impostor}:Medium", "random"])[f"{impostor}:Medium"] == "medium"

    spec = f"{EXAMPLE}:GreedyBot:samples=1"
    for command in (["tournament", "mamma-mia", "-n", "2"], ["simulate", "mamma-mia", "-n", "2"]):
        result = CliRunner().invoke(app, [*command, "-p", "2", "--bots", f"{spec},random", "--seed", "3"])
        assert result.exit_code == 0, result.output
        assert "greedy:samples=1" in result.output and str(EXAMPLE.parent) not in result.output.replace("\n", "")
    result = CliRunner().invoke(
        app, ["tournament", "mamma-mia", "-p", "2", "--bots", f"{spec},random", "-n", "2", "--seed", "3", "--json"]
    )
    assert json.loads(result.stdout)["labels"] == {spec: "greedy:samples=1", "random": "random"}
