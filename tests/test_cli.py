"""The terminal interface: commands, piped play, hidden information, simulate, replay, errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from parlor import games
from parlor.bots import make_bot
from parlor.cli.main import app
from parlor.core import Event, for_seat, load_record, replay
from parlor.games.mamma_mia import text
from parlor.games.mamma_mia.data import ORDERS
from parlor.games.mamma_mia.rules import MammaMiaState

GAME = games.get("mamma-mia")
runner = CliRunner()
ONES = "1\n" * 2000
PARLOR = Path(sys.executable).with_name("parlor")


def plain(renderable) -> str:
    console = Console(width=100, record=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text()


def final_section(output: str) -> str:
    section = output[output.index("Final result") :]
    return section.split("Game saved to")[0]


# ------------------------------------------------------------------ small commands
def test_games_lists_players_and_options():
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    assert "mamma-mia" in result.output and "2-5 players" in result.output
    assert "parlor options mamma-mia" in result.output
    full = runner.invoke(app, ["games", "--options"])
    assert full.exit_code == 0
    for name in ("refill_mode", "show_oven_history", "monotoni_joker"):
        assert name in full.output
    assert "fill | up_to" in full.output.replace("\n", " ") or "allowed: fill" in full.output


def test_rules_summary():
    result = runner.invoke(app, ["rules", "mamma-mia"])
    assert result.exit_code == 0
    for word in ("Bombastica", "Monotoni", "Minimale", "tie", "waiter", "show_oven_history"):
        assert word in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "mamma-mia", "--option", "refill_mode=sideways", "--bots", "random"], "refill_mode"),
        (["play", "mamma-mia", "--option", "no_such=1", "--bots", "random"], "unknown rule option"),
        (["play", "mamma-mia", "--option", "oops", "--bots", "random"], "name=value"),
        (["simulate", "mamma-mia", "--option", "show_oven_history=maybe", "--bots", "random"], "true or false"),
        (["play", "mamma-mia", "--players", "7", "--bots", "random"], "2-5 players"),
        (["play", "chess"], "unknown game"),
        (["rules", "chess"], "unknown game"),
        (["play", "mamma-mia", "--players", "3", "--bots", "random,random,random"], "3 bots given for 2"),
        (["play", "mamma-mia", "--bots", "genius"], "unknown bot"),
        (["play", "mamma-mia", "--seat", "5", "--bots", "random"], "--seat"),
    ],
)
def test_errors_are_one_line_and_exit_1(args, message):
    result = runner.invoke(app, args, input="")
    assert result.exit_code == 1, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


# ------------------------------------------------------------------ play, piped
def test_play_piped_reaches_final_table_and_saves(tmp_path):
    save = tmp_path / "game.json"
    args = ["play", "mamma-mia", "--players", "3", "--seed", "5", "--bots", "random", "--save", str(save)]
    result = runner.invoke(app, args, input=ONES)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Final result" in out and "Winner" in out
    assert "The oven is opened" in out and "Round 3 of 3 begins" in out
    record = load_record(save)
    state = replay(record)
    assert state.is_over
    # The replay command tells the same ending, from the same seat.
    again = runner.invoke(app, ["replay", str(save), "--seat", "1"])
    assert again.exit_code == 0, again.output
    assert final_section(again.output) == final_section(out)
    for score in state.result().scores:
        assert f" {score} " in final_section(again.output)


def test_play_is_reproducible_with_a_seed():
    args = ["play", "mamma-mia", "--players", "4", "--seed", "9", "--bots", "random"]
    first = runner.invoke(app, args, input=ONES)
    second = runner.invoke(app, args, input=ONES)
    assert first.exit_code == second.exit_code == 0
    assert first.output == second.output


def test_invalid_entries_reprompt_and_eof_exits_cleanly():
    args = ["play", "mamma-mia", "--players", "2", "--seed", "3", "--bots", "random"]
    result = runner.invoke(app, args, input="banana\n99\n\nh\nt\nr\n1\n")
    assert result.exit_code == 1, result.output  # the input ended before the game: not a success
    out = result.output
    assert "'banana' is not one of the moves" in out
    assert "'99' is not one of the moves" in out
    assert "Please type a number" in out
    assert "Mamma Mia! in short" in out  # r
    assert "Input ended" in out  # EOF after the last line


def test_quit_saves_a_partial_record_that_replays(tmp_path):
    save = tmp_path / "partial.json"
    args = ["play", "mamma-mia", "--players", "3", "--seed", "2", "--bots", "random", "--save", str(save)]
    result = runner.invoke(app, args, input="1\n1\nq\n")
    assert result.exit_code == 0, result.output
    assert "You left the game" in result.output
    record = json.loads(save.read_text())
    assert not replay(record).is_over
    shown = runner.invoke(app, ["replay", str(save)])
    assert shown.exit_code == 0
    assert "ends before the game is over" in shown.output


def test_show_oven_history_option_lists_the_plays():
    args = ["play", "mamma-mia", "--players", "3", "--seed", "4", "--bots", "random"]
    with_history = runner.invoke(app, [*args, "--option", "show_oven_history=true"], input="1\n")
    without = runner.invoke(app, args, input="1\n")
    assert "In the oven, bottom first" in with_history.output
    assert "In the oven, bottom first" not in without.output


def _subprocess_play(extra: list[str]) -> str:
    cmd = [str(PARLOR), "play", "mamma-mia", "--players", "3", "--seed", "5", *extra]
    done = subprocess.run(cmd, input=ONES, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.skipif(not PARLOR.exists(), reason="the parlor console script is not installed next to this Python")
def test_subprocess_piped_play_with_random_bots():
    out = _subprocess_play(["--bots", "random"])
    assert "Final result" in out and "Winner" in out


@pytest.mark.skipif(not PARLOR.exists(), reason="the parlor console script is not installed next to this Python")
def test_subprocess_piped_play_with_default_bots():
    out = _subprocess_play([])
    assert "heuristic" in out
    assert "Final result" in out and "Winner" in out


# ------------------------------------------------------------------ hidden information
def test_the_terminal_only_reads_the_human_seat(monkeypatch):
    """With random bots (which never look at views), every view the terminal asks for is seat 1's,
    every event it narrates is visible to seat 1, and every rendered view hides the other hands."""
    seats_viewed: list[object] = []
    real_view = MammaMiaState.view

    def spy_view(self, seat, recall=False):
        seats_viewed.append(seat)
        return real_view(self, seat, recall)

    narrated: list[Event] = []
    real_lines = text.Narrator.lines

    def spy_lines(self, event):
        narrated.append(event)
        return real_lines(self, event)

    rendered: list[dict] = []
    real_render = text.render_view

    def spy_render(view):
        rendered.append(view)
        return real_render(view)

    monkeypatch.setattr(MammaMiaState, "view", spy_view)
    monkeypatch.setattr(text.Narrator, "lines", spy_lines)
    monkeypatch.setattr(text, "render_view", spy_render)
    args = ["play", "mamma-mia", "--players", "4", "--seat", "2", "--seed", "8", "--bots", "random"]
    result = runner.invoke(app, args, input=ONES)
    assert result.exit_code == 0, result.output
    assert seats_viewed and set(seats_viewed) == {1}
    assert narrated and all(e.visible(1) for e in narrated)
    assert any(e.kind == "drew_cards" for e in narrated)  # its own private draws are shown
    assert rendered
    for view in rendered:
        assert view["you"] == 1
        for p in view["players_info"]:
            assert ("hand" in p) == (p["seat"] == 1)


def _random_states(players: int, seed: int, every: int = 7):
    state = GAME.new_game(players, seed)
    bot = make_bot("random", GAME, seed)
    n = 0
    while not state.is_over:
        if n % every == 0:
            yield state
        seat = state.to_move[0]
        state.apply(seat, bot.choose(state, seat))
        n += 1
    yield state


def test_rendered_view_never_names_a_hidden_order_of_another_seat():
    for state in _random_states(4, 21):
        shown = plain(text.render_view(state.view(0)))
        for seat in range(1, 4):
            secret = set(state.hand_orders[seat]) - set(state.known_hand_orders[seat])
            for o in secret:
                name = ORDERS[o].name
                phrase = f"{text.deck_colour(name).title()}'s {text.order_label(name)}"
                assert phrase not in shown.replace("\n", " ")
                assert name not in shown


def test_rendered_view_shows_own_hand_and_only_counts_for_others():
    state = GAME.new_game(3, 17)
    view = state.view(0)
    shown = plain(text.render_view(view))
    assert "Your hand (7/7)" in shown
    mine = view["players_info"][0]["hand"]
    for kind, n in mine["toppings"].items():
        assert text.toppings(kind, n) in shown
    spectator = plain(text.render_view(state.view(None)))
    assert "Your hand" not in spectator


# ------------------------------------------------------------------ the text module
def test_events_in_words_from_each_seat():
    played = Event("toppings_played", {"seat": 0, "kind": "salami", "count": 3})
    assert text.describe_event(played, 0) == "You put 3 salami in the oven."
    assert text.describe_event(played, 2) == "Seat 1 put 3 salami in the oven."  # people count seats from 1
    drew = Event("drew", {"seat": 2, "source": "supply", "count": 4})
    assert text.describe_event(drew, 0) == "Seat 3 drew 4 cards from the supply."
    assert text.describe_event(drew, None) == "Seat 3 drew 4 cards from the supply."
    waiter = Event("drew", {"seat": 2, "source": "waiter", "count": 1, "known": []})
    assert text.describe_event(waiter, 2) == "You drew 1 order from your waiter."
    revealed = Event("order_revealed", {"seat": 2, "order": "green_four_salami"})
    assert "Green's Pepper + 4 Salami" in text.describe_event(revealed, 0)
    assert "your Pepper + 4 Salami" in text.describe_event(revealed, 2)
    done = Event(
        "order_completed",
        {"seat": 2, "order": "green_four_salami", "used": {"salami": 4, "pepper": 1}, "from_hand": {"salami": 1}},
    )
    words = text.describe_event(done, 0)
    assert "Seat 3" in words and "1 salami from hand" in words
    assert "you" in text.describe_event(done, 2)
    failed = Event("order_failed", {"seat": 1, "order": "yellow_mixed"})
    assert "Seat 2's waiter" in text.describe_event(failed, 0)
    mm = Event("mamma_mia_drawn", {"seat": 3})
    assert "Seat 4 drew the Mamma Mia! card" in text.describe_event(mm, 0)


def test_narrator_keeps_the_counter():
    n = text.Narrator(0)
    n.lines(Event("oven_opened", {"seat": 1, "size": 9}))
    n.lines(Event("toppings_revealed", {"kind": "salami", "count": 3, "on_counter": 3}))
    n.lines(Event("toppings_revealed", {"kind": "pepper", "count": 2, "on_counter": 2}))
    assert n.counter == {"salami": 3, "pepper": 2}
    n.lines(
        Event(
            "order_completed",
            {"seat": 2, "order": "green_four_salami", "used": {"salami": 4, "pepper": 1}, "from_hand": {"salami": 1}},
        )
    )
    assert n.counter == {"pepper": 1}


def test_counts_in_words_take_the_singular_for_one():
    def said(event: Event) -> str:
        return " ".join(text.Narrator(0).lines(event))

    assert "(1 card)" in said(Event("oven_opened", {"seat": 1, "size": 1}))
    assert "(9 cards)" in said(Event("oven_opened", {"seat": 1, "size": 9}))
    assert "Used by baked orders: 1 topping." in said(Event("round_ended", {"round": 1, "used": {"salami": 1}}))
    assert "Used by baked orders: 5 toppings." in said(Event("round_ended", {"round": 1, "used": {"salami": 5}}))
    started = said(Event("round_started", {"round": 2, "start_player": 0, "supply": 1}))
    assert "The new supply: 1 card " in started


def test_every_event_and_action_of_a_game_has_words():
    state = GAME.new_game(5, 33, {"show_oven_history": True})
    bot = make_bot("random", GAME, 33)
    narrators = {s: text.Narrator(s) for s in [None, 0, 1, 2, 3, 4]}
    kinds = set()
    while not state.is_over:
        seat = state.to_move[0]
        view = state.view(seat)
        for action in state.legal_actions(seat):
            words = text.describe_action(action, view)
            assert words and not words.startswith(action.TYPE)
        events = state.apply(seat, bot.choose(state, seat))
        for who, narrator in narrators.items():
            for e in for_seat(events, who):
                kinds.add(e.kind)
                for line in narrator.lines(e):
                    assert not line.startswith(f"{e.kind}:"), line  # the fallback means: no words yet
        plain(text.render_view(state.view(seat)))
    assert {"toppings_played", "order_revealed", "order_completed", "round_ended", "game_over"} <= kinds
    final = plain(text.render_result(state.view(0)))
    assert "Final result" in final
    assert "Winner" in final or "Shared win" in final


def test_action_words_explain_choices():
    state = GAME.new_game(3, 1)
    seat = state.to_move[0]
    view = state.view(seat)
    words = [text.describe_action(a, view) for a in state.legal_actions(seat)]
    assert all(w.startswith("Put ") for w in words)
    assert text.order_label("green_monotoni") == "Monotoni (Pepper + 6 of a kind)"
    assert text.order_needs("green_four_salami") == "1 pepper + 4 salami"
    assert text.toppings("olive", 2) == "2 olives" and text.toppings("salami", 2) == "2 salami"


# ------------------------------------------------------------------ simulate
def _simulate(seed: int, extra: list[str] | None = None) -> dict:
    args = ["simulate", "mamma-mia", "--players", "4", "--games", "40", "--bots", "random", "--seed", str(seed)]
    result = runner.invoke(app, [*args, "--json", *(extra or [])])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_simulate_json_is_well_formed_and_deterministic():
    a = _simulate(1)
    b = _simulate(1)
    c = _simulate(2)
    assert abs(sum(row["win_rate"] for row in a["per_seat"]) - 1) < 1e-6
    assert abs(sum(row["win_share"] for row in a["per_bot"]) - 1) < 1e-6
    assert a["games"] == 40 and a["players"] == 4 and len(a["per_seat"]) == 4
    assert a["bots"] == ["random"] * 4
    assert a["avg_decisions"] > 0 and a["avg_turns"] > 0
    assert a["timing"]["games_per_second"] > 0
    a.pop("timing")
    b.pop("timing")
    c.pop("timing")
    assert a == b
    assert a != c


def test_simulate_rotation_balances_seats():
    args = ["simulate", "mamma-mia", "-p", "3", "-n", "30", "--bots", "random,random", "--seed", "3", "--json"]
    report = json.loads(runner.invoke(app, args).output)
    assert report["bots"] == ["random", "random", "random"]  # the last bot repeats
    assert report["per_bot"][0]["seat_games"] == 90
    fixed = json.loads(runner.invoke(app, [*args, "--no-rotate"]).output)
    assert [row["bot"] for row in fixed["per_seat"]] == ["random"] * 3


def test_simulate_table_output():
    args = ["simulate", "mamma-mia", "-p", "3", "-n", "12", "--bots", "random", "--seed", "3"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "Per seat" in result.output and "Per bot" in result.output and "games/s" in result.output


# ------------------------------------------------------------------ replay
def test_replay_spectator_shows_public_events_only(tmp_path):
    save = tmp_path / "g.json"
    args = ["play", "mamma-mia", "-p", "3", "--seed", "6", "--bots", "random", "--save", str(save)]
    runner.invoke(app, args, input=ONES)
    spectator = runner.invoke(app, ["replay", str(save)])
    assert spectator.exit_code == 0, spectator.output
    assert "Seen by a spectator" in spectator.output
    assert "got:" not in spectator.output  # private draws
    assert "Your hand" not in spectator.output
    seat0 = runner.invoke(app, ["replay", str(save), "--seat", "1", "--step"], input="\n" * 500)
    assert "got:" in seat0.output and "Your hand" in seat0.output
    both = runner.invoke(app, ["replay", str(save), "--seat", "1", "--spectator"])
    assert both.exit_code == 1
    bad_seat = runner.invoke(app, ["replay", str(save), "--seat", "4"])
    assert bad_seat.exit_code == 1 and "--seat" in bad_seat.output


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        ('{"game": "mamma-mia"}', "missing"),
        ('{"game": "chess", "players": 3, "seed": 1, "actions": []}', "unknown game"),
        (
            '{"game": "mamma-mia", "players": 3, "seed": 1, "actions": [[0, {"type": "draw", "source": "moon"}]]}',
            "step 0",
        ),
    ],
)
def test_replay_of_a_corrupt_record_fails_cleanly(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert message in result.output
    assert "Traceback" not in result.output


def test_replay_of_a_missing_file_fails_cleanly(tmp_path):
    result = runner.invoke(app, ["replay", str(tmp_path / "nope.json")])
    assert result.exit_code == 1
    assert "cannot read record" in result.output
