"""A newcomer's pass over the command line: every failure one line, seats counted from 1 wherever a person
reads them, the odd answers made plain, Mottainai's teams and tie-break said. Each test runs the real
command (a subprocess; the terminal-only parts are in test_cli_pty.py)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .helpers import a_record, free_port

PARLOR = Path(sys.executable).with_name("parlor")
ONES = "1\n" * 4000
UNWRITABLE = Path("/sys/parlor-cannot-write-here")  # not even root may create files in sysfs


def run(*args: str | Path, timeout: float = 300, **kw) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(PARLOR), *map(str, args)], capture_output=True, text=True, timeout=timeout, **kw)


def one_line_error(result: subprocess.CompletedProcess[str], *words: str) -> str:
    """The command failed with exit code 1 and one line on stderr holding every word; returns it."""
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 1, (result.returncode, result.stdout[-2000:], result.stderr[-3000:])
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr[-3000:]
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


# ------------------------------------------------------------------ 1. every failure one line


def test_serve_refuses_a_damaged_database_in_one_line(tmp_path):
    damaged = tmp_path / "x.db"
    damaged.write_text("hello\n")
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    result = run("serve", "--port", str(free_port()), "--database-url", f"sqlite:///{damaged}", env=env)
    one_line_error(result, str(damaged), "cannot be read as an SQLite database", "refusing to start")
    assert damaged.read_text() == "hello\n"  # nothing changed


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "mamma-mia", "-n", "5", "--out", str(UNWRITABLE / "x.parquet")],
        ["simulate", "mamma-mia", "-n", "5", "--out", str(UNWRITABLE.parent / "x.parquet")],
        ["tournament", "mamma-mia", "-n", "5", "--out", str(UNWRITABLE.parent / "x.parquet")],
        ["analyze", "mamma-mia", "-p", "2", "-n", "5", "--report", str(UNWRITABLE.parent / "rep")],
    ],
    ids=["simulate-deep", "simulate", "tournament", "analyze"],
)
def test_an_unwritable_output_is_one_line_before_any_game(args):
    result = run(*args)
    flag = "--report" if "--report" in args else "--out"
    one_line_error(result, flag, "cannot write in /sys")
    assert "games/s" not in result.stdout  # refused before playing


def test_dataset_to_an_unwritable_file_is_one_line(tmp_path):
    record = a_record(tmp_path)
    result = run("dataset", str(record), "--out", str(UNWRITABLE.parent / "d.parquet"))
    one_line_error(result, "--out", "cannot write in /sys")


def test_outputs_under_a_file_or_over_a_folder_are_named_as_such(tmp_path):
    a_file = tmp_path / "plain.txt"
    a_file.write_text("x")
    under_a_file = run("simulate", "mamma-mia", "-n", "5", "--out", str(a_file / "x.parquet"))
    one_line_error(under_a_file, "is a file, not a folder")
    one_line_error(run("analyze", "mamma-mia", "-p", "2", "-n", "5", "--report", str(a_file)), "that is a file")
    (tmp_path / "dir.parquet").mkdir()
    one_line_error(run("simulate", "mamma-mia", "-n", "5", "--out", str(tmp_path / "dir.parquet")), "that is a folder")


# ------------------------------------------------------------------ 2. seats counted from 1
def test_start_player_is_typed_and_shown_counting_seats_from_1(tmp_path):
    save = tmp_path / "third.json"
    third = run("play", "mamma-mia", "-p", "3", "--bots", "random", "-o", "start_player=3", "--save", save, input="q\n")
    assert third.returncode == 0, third.stderr
    assert "Rule options: start_player=3" in third.stdout
    # Typed from 1, kept as the engine's seat index from 0 (the record is the API side of the boundary).
    record = json.loads(save.read_text())
    assert record["options"]["start_player"] == 2
    assert "start_player=3" in run("replay", save).stdout
    one_line_error(
        run("play", "mamma-mia", "-p", "3", "--option", "start_player=4", input=""),
        "start_player is Seat 4, but there are only 3 seats",
    )
    one_line_error(run("play", "mamma-mia", "-p", "3", "--option", "start_player=0", input=""), "seats count from 1")
    one_line_error(
        run("play", "sweet-nose", "-p", "3", "--option", "start_player=4", input=""), "when Seat 4 starts, got 3"
    )
    listed = " ".join(run("games").stdout.split())
    assert "3-5 players (4-5 with start_player=4; 5 with start_player=5)" in listed, listed
    options = " ".join(run("options", "sweet-nose").stdout.split())
    assert "allowed: random | 1 | 2 | 3 | 4 | 5" in options and "seats count from 1" in options


def test_simulate_and_compare_number_seats_and_turn_positions_from_1(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path, seed in ((a, "1"), (b, "2")):
        done = run("simulate", "mamma-mia", "-p", "2", "-n", "12", "--bots", "random", "--seed", seed, "--out", path)
        assert done.returncode == 0, done.stderr
    assert "Per turn position (1 = plays first)" in done.stdout
    compared = run("compare", str(a), str(b))
    assert compared.returncode == 0, compared.stderr
    rows = compared.stdout
    assert "win rate, seat 1" in rows and "win rate, seat 2" in rows and "seat 0" not in rows
    assert "turn position 1" in rows and "turn position 0" not in rows


def test_a_record_that_does_not_replay_names_the_seat_from_1(tmp_path):
    record = json.loads(a_record(tmp_path).read_text())
    record["actions"][0] = [record["actions"][0][0], {"type": "no_such_move"}]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    line = one_line_error(run("replay", str(bad)), "step 0")
    seat = record["actions"][0][0]
    assert f"by Seat {seat + 1}" in line and f"by seat {seat}" not in line


# ------------------------------------------------------------------ 3. the odd answers
def test_compare_names_the_file_it_cannot_read_not_an_out_option(tmp_path):
    record = a_record(tmp_path)
    line = one_line_error(run("compare", str(record), str(record)), f"{record} is not a results file")
    assert "--out must" not in line and not line.startswith("Error: --out")


@pytest.mark.parametrize("spec", ["hard:iterations=-5", "hard:iterations=0", "hard:iterations=many", "easy:noise=2"])
def test_a_bot_parameter_out_of_range_is_refused(spec):
    name, _, value = spec.split(":")[1].partition("=")
    one_line_error(run("simulate", "mamma-mia", "-p", "2", "-n", "2", "--bots", spec), f"{name} must be", value)


def test_play_refuses_a_bot_parameter_out_of_range_before_the_game():
    result = run("play", "mamma-mia", "-p", "2", "--bots", "hard:iterations=-5", input="")
    one_line_error(result, "iterations must be a whole number of at least 1, got -5")
    assert "oven" not in result.stdout


def test_save_under_a_file_says_it_is_a_file():
    line = one_line_error(run("play", "mamma-mia", "--save", "/etc/passwd/x.json", input=""), "/etc/passwd is a file")
    assert "does not exist" not in line


@pytest.mark.parametrize("args", [["-h"], ["play", "-h"], ["compare", "-h"], ["serve", "-h"]])
def test_dash_h_is_help(args):
    result = run(*args)
    assert result.returncode == 0 and "Usage" in result.stdout and not result.stderr, result.stderr


def test_serve_starts_without_alembic_lines(tmp_path):
    port = free_port()
    log = tmp_path / "serve.log"
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    cmd = [str(PARLOR), "serve", "--port", str(port), "--database-url", f"sqlite:///{tmp_path / 'new.db'}"]
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        deadline = time.monotonic() + 120
        while "Application startup complete" not in log.read_text(errors="replace"):
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
    finally:
        proc.terminate()
        proc.wait(60)
    shown = log.read_text()
    assert "alembic" not in shown.lower(), shown
    assert "starting a new, empty Parlor database" in shown  # the server's own start-up lines stay


# ------------------------------------------------------------------ 5. Mottainai: teams and the tie-break
def test_team_play_names_each_partner_and_the_final_table_the_teams_and_tie_break():
    # Seed 36 with random bots and the first move each time: both teams end on 14.
    result = run("play", "mottainai", "-p", "4", "--option", "team_play=true", "--seed", "36", "--bots", "random",
                 input=ONES)  # fmt: skip
    assert result.returncode == 0, result.stderr
    flat = " ".join(result.stdout.split())
    assert "Team play: your partner is Seat 3, sitting opposite you" in flat
    assert "Seat 2 and Seat 4 are the other team" in flat
    assert "(your partner)" in flat and "(partner of Seat 4)" in flat  # on the table
    final = flat[flat.index("Final result") :]
    assert "Team total" in final and "Teams (partners add their totals): You and Seat 3; Seat 2 and Seat 4." in final
    assert "(You and Seat 3) and (Seat 2 and Seat 4) are tied on 14, placed by the tie-break" in final
    assert "Tie-break: the player whose turn it was when the game ended" in final
    assert "a team counts its better-placed member" in final


def test_equal_totals_in_the_final_table_say_the_tie_break():
    # Seed 0, 3 players: Seat 2 and Seat 3 end on 1 point each; Seat 3 was to move at the end.
    result = run("play", "mottainai", "-p", "3", "--seed", "0", "--bots", "random", input=ONES)
    assert result.returncode == 0, result.stderr
    final = " ".join(result.stdout[result.stdout.index("Final result") :].split())
    assert "Seat 2 and Seat 3 are tied on 1, placed by the tie-break: Seat 3, then Seat 2." in final, final
    assert "the player whose turn it was when the game ended (Seat 3) wins a tie" in final
