"""The command line without rough edges — option metadata, player ranges, clean
failures, seat names, help texts, --version, ``python -m parlor``, the LICENSE, ``parlor serve``'s
start-up checks. Each test runs the real command (CliRunner or a subprocess)."""

from __future__ import annotations

import dataclasses
import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from parlor import games
from parlor.cli.main import app
from parlor.core import ParlorError, load_record, replay
from parlor.core.errors import RecordError
from parlor.core.options import describe_options

ROOT = Path(__file__).resolve().parents[1]
PARLOR = Path(sys.executable).with_name("parlor")
runner = CliRunner()
ONES = "1\n" * 3000


def run(*args: str, timeout: float = 300, **kw) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(PARLOR), *args], capture_output=True, text=True, timeout=timeout, **kw)


# ------------------------------------------------------------------ option metadata, one source of truth
@pytest.mark.parametrize("name", games.names())
def test_every_option_has_type_default_values_meaning_and_rule_text(name):
    game = games.get(name)
    infos = describe_options(game.Options)
    assert [i["name"] for i in infos] == [f.name for f in dataclasses.fields(game.Options)]
    for info in infos:
        assert info["type"] in ("choice", "bool", "int"), info
        assert info["meaning"] and not info["meaning"].endswith("."), info  # one line, the screen adds the stop
        assert "\n" not in info["meaning"] and len(info["meaning"]) < 200
        assert info["follows"], info
        assert info["default"] == getattr(game.Options(), info["name"])
        if info["allowed"] is not None:
            assert info["default"] in info["allowed"]
    out = runner.invoke(app, ["options", name])
    assert out.exit_code == 0, out.output
    flat = " ".join(out.output.split())
    for info in infos:
        assert info["name"] in flat and " ".join(info["meaning"].split()) in flat


def test_sweet_nose_guards_are_marked_as_safeguards():
    infos = {i["name"]: i for i in describe_options(games.get("sweet-nose").Options)}
    assert infos["phase2_turn_limit"]["safeguard"] and infos["end_phase_on_stalemate"]["safeguard"]
    assert infos["phase2_turn_limit"]["nullable"]
    assert not infos["market_bonus"]["safeguard"]
    shown = " ".join(runner.invoke(app, ["options", "sweet-nose"]).output.split())
    assert shown.count("safeguard, not in the rulebook") == 2


def test_games_options_lists_every_option_unabridged_at_80_columns():
    result = runner.invoke(app, ["games", "--options"], env={"COLUMNS": "80"})
    assert result.exit_code == 0
    assert "…" not in result.output
    for name in games.names():
        for info in describe_options(games.get(name).Options):
            assert info["name"] in result.output


def test_unknown_game_for_options_is_one_line():
    result = run("options", "chess")
    assert result.returncode == 1 and "unknown game" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("args", "meant"),
    [
        (["rules", "mama-mia"], "did you mean 'mamma-mia'?"),
        (["options", "Mottanai"], "did you mean 'mottainai'?"),
        (["play", "sweetnos", "--players", "3"], "did you mean 'sweet-nose'?"),
        (["play", "mamma-mia", "--bots", "meduim"], "did you mean 'medium'?"),
        (["tournament", "mamma-mia", "--bots", "hardd,easy", "--games", "2"], "did you mean 'hard'?"),
        (["play", "mamma-mia", "--option", "rulset=cs1999"], "did you mean 'ruleset'?"),
    ],
)
def test_a_misspelt_game_bot_or_option_is_answered_with_the_name_meant(args, meant):
    result = runner.invoke(app, args, input="")
    assert result.exit_code == 1 and meant in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1  # still one line


def test_a_name_far_from_every_known_one_suggests_none():
    result = runner.invoke(app, ["rules", "chess"])
    assert result.exit_code == 1 and "did you mean" not in result.output and "known games" in result.output


# ------------------------------------------------------------------ player ranges per option set
def test_player_range_follows_the_options():
    mottainai = games.get("mottainai")
    assert mottainai.player_range() == (2, 6)
    assert mottainai.player_range({"max_players": 5}) == (2, 5)
    assert mottainai.player_range({"team_play": True}) == (4, 4)
    assert mottainai.options_for(6, {}).max_players == 6  # switched for the count
    with pytest.raises(ParlorError, match="2-5 players with max_players=5"):
        mottainai.options_for(6, {"ruleset": "v1.0"})  # an explicit ruleset is not switched quietly
    with pytest.raises(ParlorError, match="2-5 players with max_players=5"):
        mottainai.options_for(6, {"max_players": 5})
    with pytest.raises(ParlorError, match="4 players in team play"):
        mottainai.options_for(5, {"team_play": True})
    sweet = games.get("sweet-nose")
    assert sweet.player_range({"start_player": 4}) == (5, 5)
    with pytest.raises(ParlorError, match="Seat 5"):
        sweet.options_for(3, {"start_player": 4})
    # every count inside a range starts a game, every count outside is refused
    for game in games.all_games():
        for variant in [{}] + [{r["option"]: r["value"]} for r in game.player_ranges_by_option()]:
            low, high = game.player_range(variant)
            for n in range(1, 8):
                if low <= n <= high:
                    assert game.new_game(n, 1, variant).players == n
                else:
                    with pytest.raises(ParlorError):
                        game.new_game(n, 1, variant)


def test_mottainai_with_6_players_plays_in_the_terminal():
    result = run("play", "mottainai", "--players", "6", "--seed", "2", "--bots", "random", input=ONES)
    assert result.returncode == 0, result.stderr
    assert "Final result" in result.stdout and "max_players=6" in result.stdout
    refused = run("play", "mottainai", "--players", "6", "--option", "max_players=5", input="")
    assert refused.returncode == 1 and "2-5 players with max_players=5" in refused.stderr
    team = run("play", "mottainai", "--players", "3", "--option", "team_play=true", input="")
    assert team.returncode == 1 and "4 players in team play" in team.stderr


def test_the_server_uses_the_same_player_ranges(tmp_path):
    from fastapi.testclient import TestClient

    from parlor.server import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'p.db'}", bot_delay=0)) as client:
        listed = {g["name"]: g for g in client.get("/api/games").json()["games"]}
        m = listed["mottainai"]
        assert (m["min_players"], m["max_players"]) == (2, 6)
        assert {"option": "team_play", "value": True, "min_players": 4, "max_players": 4} in m[
            "player_ranges_by_option"
        ]
        # the options' texts come from options.py
        info = {o["name"]: o for o in listed["sweet-nose"]["options"]}
        assert info["phase2_turn_limit"]["safeguard"] is True and info["market_bonus"]["meaning"]
        six = client.post("/api/tables", json={"game": "mottainai", "players": 6})
        assert six.status_code == 201, six.text
        bad = client.post("/api/tables", json={"game": "mottainai", "players": 6, "options": {"max_players": 5}})
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_players"
        team = client.post("/api/tables", json={"game": "mottainai", "players": 3, "options": {"team_play": True}})
        assert team.status_code == 400 and "team play" in team.json()["error"]["message"]
        wrong = client.post("/api/tables", json={"game": "mottainai", "players": 4, "options": {"team_play": 3}})
        assert wrong.status_code == 400 and wrong.json()["error"]["code"] == "bad_options"


# ------------------------------------------------------------------ clean failures
def test_save_path_is_checked_before_the_game_starts(tmp_path):
    result = run(
        "play", "mamma-mia", "--bots", "random", "--save", str(tmp_path / "no" / "dir" / "x.json"), input="1\n"
    )
    assert result.returncode == 1
    assert "does not exist" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr and "oven" not in result.stdout  # nothing was played
    folder = run("play", "mamma-mia", "--bots", "random", "--save", str(tmp_path), input="1\n")
    assert folder.returncode == 1 and "folder" in folder.stderr
    fine = tmp_path / "ok.json"
    run("play", "mamma-mia", "--bots", "random", "--save", str(fine), input="q\n")
    assert fine.is_file()


def test_an_unfinished_game_exits_non_zero_and_keeps_its_record(tmp_path):
    save = tmp_path / "partial.json"
    result = run(
        "play", "mamma-mia", "--players", "2", "--seed", "4", "--bots", "random", "--save", str(save), input="1\n1\n"
    )
    assert result.returncode == 1
    assert "Input ended before the game was over" in result.stdout
    assert not replay(load_record(save)).is_over  # the record is kept, unfinished


def test_replay_reads_a_bom_and_refuses_non_utf8_in_one_line(tmp_path):
    save = tmp_path / "g.json"
    assert (
        run(
            "play", "mamma-mia", "-p", "2", "--seed", "1", "--bots", "random", "--save", str(save), input=ONES
        ).returncode
        == 0
    )
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + save.read_bytes())
    ok = run("replay", str(bom))
    assert ok.returncode == 0 and "Final table" in ok.stdout
    latin = tmp_path / "latin.json"
    latin.write_bytes(save.read_bytes().replace(b'"game"', b'"g\xe9me"', 1))
    bad = run("replay", str(latin))
    assert bad.returncode == 1 and "not UTF-8" in bad.stderr and "Traceback" not in bad.stderr
    with pytest.raises(RecordError):
        load_record(latin)


def test_replay_header_names_options_as_typed(tmp_path):
    save = tmp_path / "o.json"
    run(
        "play",
        "mamma-mia",
        "-p",
        "2",
        "--seed",
        "1",
        "--bots",
        "random",
        "--option",
        "show_oven_history=true",
        "--save",
        str(save),
        input=ONES,
    )
    shown = run("replay", str(save))
    assert "show_oven_history=true" in shown.stdout and "True" not in shown.stdout.split("Seen by")[0]


def test_play_shows_the_options_that_differ_from_the_defaults():
    result = run(
        "play", "mamma-mia", "-p", "2", "--seed", "1", "--bots", "random", "--option", "refill_mode=up_to", input="q\n"
    )
    assert "Rule options: refill_mode=up_to" in result.stdout
    plain = run("play", "mamma-mia", "-p", "2", "--seed", "1", "--bots", "random", input="q\n")
    assert "Rule options" not in plain.stdout


# ------------------------------------------------------------------ seats, help, version, module, licence
def test_seats_are_numbered_from_1_for_people():
    result = run("play", "mamma-mia", "-p", "3", "--seat", "3", "--seed", "1", "--bots", "random", input="q\n")
    assert "You are Seat 3" in result.stdout and "Seat 1" in result.stdout and "Seat 0" not in result.stdout
    bad = run("play", "mamma-mia", "-p", "3", "--seat", "0", input="")
    assert bad.returncode == 1 and "between 1 and 3" in bad.stderr


@pytest.mark.parametrize("command", ["play", "simulate", "replay", "rules", "games", "options", "tournament", "serve"])
def test_help_has_no_type_placeholders_and_shows_defaults(command):
    result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0
    for placeholder in ("<bool>", "<list", "<str>", "<int>", "<float>", "<path>"):
        assert placeholder not in result.output, (command, placeholder)
    if command in ("play", "simulate", "tournament"):
        assert "[default: heuristic]" in result.output or "[default: medium,easy,random]" in result.output
        assert "[default: 4]" in result.output
        assert "ismcts" in result.output  # every bot name an error may mention is in the help
    if command == "serve":
        assert "[default: 8000]" in result.output and "postgres" in result.output


def test_version_module_and_licence():
    version = run("--version")
    assert version.returncode == 0 and version.stdout.startswith("parlor ")
    module = subprocess.run([sys.executable, "-m", "parlor", "games"], capture_output=True, text=True, timeout=300)
    assert module.returncode == 0 and "mottainai" in module.stdout
    licence = (ROOT / "LICENSE").read_text()
    assert licence.startswith("MIT License") and "the Parlor authors" in licence


# ------------------------------------------------------------------ parlor serve: start-up checks
def _serve(*args: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "XDG_DATA_HOME": str(tmp_path / "data")}
    return run("serve", *args, env=env)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--port", "99999"], "--port must be a whole number from 1 to 65535"),
        (["--port", "0"], "--port must be"),
        (["--database-url", "garbage"], "cannot parse the database URL"),
        (["--database-url", "mysql://u@localhost/db"], "'mysql' is not supported"),
        (["--database-url", "postgresql://nobody@127.0.0.1:1/nothing"], "cannot reach the database"),
        (["--host", "no.such.host.invalid"], "cannot listen on host"),
    ],
)
def test_serve_failures_are_one_line(tmp_path, args, message):
    result = _serve(*args, tmp_path=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "data").exists() or not any((tmp_path / "data").rglob("*.db"))


def test_serve_on_a_used_port_touches_no_database(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        db = tmp_path / "second.db"
        result = _serve("--port", str(port), "--database-url", f"sqlite:///{db}", tmp_path=tmp_path)
    assert result.returncode == 1 and "already in use" in result.stderr
    assert not db.exists()  # checked before the database was opened, migrated or restored


def test_api_docs_are_served_without_the_internet(tmp_path):
    from fastapi.testclient import TestClient

    from parlor.server import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'd.db'}")) as client:
        page = client.get("/api/docs")
        assert page.status_code == 200
        assert "cdn" not in page.text and "https://" not in page.text.split("<body>")[0]
        for asset in ("swagger-ui-bundle.js", "swagger-ui.css"):
            assert f"/api/docs/static/{asset}" in page.text
            assert client.get(f"/api/docs/static/{asset}").status_code == 200
        assert json.loads(client.get("/openapi.json").text)["info"]["title"] == "Parlor"
