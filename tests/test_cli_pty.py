"""The terminal game through a real pseudo-terminal (pexpect): what a newcomer sees and types
where the prompt matters — Mottainai's hand, card texts and rules, Sweet Nose's placement
numbers, and what ending the input does."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

PARLOR = str(Path(sys.executable).with_name("parlor"))
PROMPT = re.compile(r"Your move \(1-(\d+)")
# The terminal's environment; PYTHONPATH is kept so a checkout run with PYTHONPATH=src tests its own sources.
TERMINAL_ENV = {"COLUMNS": "100", "TERM": "dumb", "PATH": "/usr/bin:/bin"} | (
    {"PYTHONPATH": os.environ["PYTHONPATH"]} if os.environ.get("PYTHONPATH") else {}
)


def words(text: str) -> re.Pattern[str]:
    """``text`` as a pattern that matches however the screen wraps it (any whitespace between words)."""
    return re.compile(r"\s+".join(re.escape(w) for w in text.split()))


def as_from_a_terminal() -> None:
    """In the child, before it starts: Ctrl-C interrupts it, as it does a program started from a
    terminal's shell. (A process started with SIGINT ignored keeps ignoring it, and Python then installs
    no handler; the test runner may have been started so, e.g. in the background of a script.)"""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(*args: str, cwd: Path | None = None) -> pexpect.spawn:
    child = pexpect.spawn(
        PARLOR,
        ["play", *args, "--delay", "0"],
        encoding="utf-8",
        timeout=300,  # an outer limit for each expected screen, for a loaded machine
        dimensions=(50, 100),
        env=TERMINAL_ENV,
        preexec_fn=as_from_a_terminal,
        cwd=str(cwd) if cwd else None,
    )
    return child


def test_mottainai_shows_your_hand_card_texts_legend_and_rules():
    child = spawn("mottainai", "--players", "2", "--seed", "4", "--bots", "random")
    child.expect(PROMPT)
    before = " ".join(child.before.split())  # the screen wraps lines
    assert "Your hand (" in before
    hand = before[before.index("Your hand (") :]
    # each card with material/value, role as a task and effect as a work
    assert re.search(r"\w+ (paper|stone|cloth|clay|metal)/\d — task: (Clerk|Monk|Tailor|Potter|Smith)", hand)
    assert "work:" in hand
    assert "Gallery works cover helpers" in before  # the legend, once
    child.sendline("c poem")
    child.expect("Poem paper/1 — as a task: Clerk")
    child.expect(PROMPT)
    child.sendline("c nothing-like-it")
    child.expect("No card is called")
    child.expect(PROMPT)
    child.sendline("r")
    child.expect(r"Mottainai \(summary\)")
    child.expect(PROMPT)
    rules = " ".join(child.before.split())
    for word in (
        "Goal",
        "Gallery",
        "Gift Shop",
        "craft bench",
        "floor",
        "waiting",
        "backorders",
        "deck runs out",
        "Turtle",
    ):
        assert word in rules, word
    child.sendline("q")
    child.expect("You left the game")
    child.expect("Save the game")
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_sweet_nose_placements_are_numbered_as_typed_and_wrong_ones_explained():
    child = spawn("sweet-nose", "--players", "3", "--seed", "4", "--bots", "random")
    child.expect(PROMPT)
    assert child.match.group(1) == "8"  # 1..8 for the listed placements
    listed = child.before
    rows = dict(re.findall(r"^\s*(\d)\s+(Mung=\d Peach=\d Britt=\d Zhuan=\d Haws=\d)", listed, re.M))
    assert sorted(rows) == [str(i) for i in range(1, 9)]
    child.sendline("9")
    child.expect("9 is not a number on the list")
    child.sendline("3 1 5 2 2")
    child.expect("2 appears twice; 4 is missing")
    child.sendline("3 1 5 2")
    child.expect("a placement is five values")
    child.sendline("1 2 3 4 6")
    child.expect("6 is not one")
    child.sendline("2")
    child.expect(r"Your cards: Mung (\d), Peach (\d), Brittle (\d), Zhuangyuan (\d), Haws (\d)")
    values = child.match.groups()
    assert rows["2"] == "Mung={} Peach={} Britt={} Zhuan={} Haws={}".format(*values)
    child.sendeof()
    child.expect("Input ended before the game was over")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1


def test_a_typed_placement_is_played_as_typed():
    child = spawn("sweet-nose", "--players", "3", "--seed", "5", "--bots", "random")
    child.expect(PROMPT)
    child.sendline("3 1 5 2 4")
    child.expect("Your cards: Mung 3, Peach 1, Brittle 5, Zhuangyuan 2, Haws 4")
    child.sendline("q")
    child.expect("Save the game")
    child.sendline("")
    child.expect(pexpect.EOF)


@pytest.mark.parametrize("game", ["mamma-mia", "sweet-nose", "mottainai"])
def test_every_game_starts_with_seat_names_from_1_and_its_rules_at_hand(game):
    child = spawn(game, "--players", "3", "--seed", "2", "--bots", "random")
    child.expect("You are Seat 1")
    child.expect(PROMPT)
    assert "Seat 0" not in child.before
    child.sendline("h")
    child.expect("h help")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect("Save the game")
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


# ------------------------------------------------------------------ the save prompt, replay --step
def test_y_at_the_save_prompt_saves_under_a_name_made_for_the_game(tmp_path):
    child = pexpect.spawn(
        PARLOR,
        ["play", "mamma-mia", "--players", "2", "--seed", "7", "--bots", "random", "--delay", "0"],
        encoding="utf-8", timeout=300, dimensions=(50, 100), cwd=str(tmp_path),
        env=TERMINAL_ENV,
    )  # fmt: skip
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(r"Save the game\? y for (\S+),\s+a\s+file\s+name\s+ending\s+in\s+\.json,\s+or\s+Enter\s+to\s+skip")
    suggested = child.match.group(1)
    assert suggested == "mamma-mia-seed-7.json"
    child.sendline("y")
    child.expect(words("Game saved to mamma-mia-seed-7.json"))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert not (tmp_path / "y").exists()
    record = json.loads((tmp_path / suggested).read_text())
    assert record["game"] == "mamma-mia" and record["seed"] == 7


def test_ctrl_c_at_the_save_prompt_ends_the_line_and_exits_130(tmp_path):
    child = spawn("mamma-mia", "--players", "2", "--seed", "7", "--bots", "random")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(r"Enter\s+to\s+skip: ")
    child.sendintr()
    child.expect(r"\r?\nNot saved\.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


def test_a_stray_word_at_the_save_prompt_is_asked_again_not_taken_for_a_file(tmp_path):
    child = spawn("mamma-mia", "--players", "2", "--seed", "7", "--bots", "random", cwd=tmp_path)
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(r"Enter\s+to\s+skip: ")
    child.sendline("maybe")
    child.expect(words("'maybe': type y, n, or a file name ending in .json"))
    child.expect(r"Enter\s+to\s+skip: ")
    child.sendline("mine.json")
    child.expect(words("Game saved to mine.json"))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.json"]  # no file named maybe


def test_ctrl_c_in_a_game_offers_to_save_as_q_does(tmp_path):
    child = spawn("mamma-mia", "--players", "2", "--seed", "7", "--bots", "random", cwd=tmp_path)
    child.expect(PROMPT)
    child.sendintr()
    child.expect("You left the game")
    child.expect(r"Save the game\? y for (\S+),")
    suggested = child.match.group(1)
    child.sendline("y")
    child.expect(words(f"Game saved to {suggested}"))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130  # interrupted, as Ctrl-C always exits
    assert json.loads((tmp_path / suggested).read_text())["seed"] == 7


def test_an_unknown_answer_in_replay_step_is_asked_again_not_taken_for_enter(tmp_path):
    save = tmp_path / "g.json"
    done = subprocess.run(
        [PARLOR, "play", "mamma-mia", "-p", "2", "--seed", "1", "--bots", "random", "--save", str(save)],
        input="1\n" * 3000, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    child = pexpect.spawn(
        PARLOR, ["replay", str(save), "--step"], encoding="utf-8", timeout=300, dimensions=(50, 100),
        env=TERMINAL_ENV,
    )  # fmt: skip
    child.expect(r"decision 1/\d+:")
    child.sendline("zz")
    child.expect(words("'zz': press Enter for the next decision, a for all the rest, q to quit."))
    child.expect(r"decision (\d+)/\d+:")
    assert child.match.group(1) == "1"  # the same decision asked again
    child.sendline("q")
    child.expect(words("Replay stopped after decision 1 of"))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_q_in_replay_step_quits_the_replay(tmp_path):
    save = tmp_path / "g.json"
    done = subprocess.run(
        [PARLOR, "play", "mamma-mia", "-p", "2", "--seed", "1", "--bots", "random", "--save", str(save)],
        input="1\n" * 3000, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    child = pexpect.spawn(
        PARLOR, ["replay", str(save), "--step"], encoding="utf-8", timeout=300, dimensions=(50, 100),
        env=TERMINAL_ENV,
    )  # fmt: skip
    child.expect(r"decision 1/(\d+):\s+" + words("Enter for the next, a for all the rest, q to quit").pattern)
    child.sendline("")
    child.expect(r"decision 2/\d+")
    child.sendline("q")
    child.expect(words("Replay stopped after decision 2 of"))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Final table" not in child.before


# ------------------------------------------------------------------ the Shopkeeper auction
def test_the_shopkeeper_auction_offers_pass_first_and_takes_bids_as_typed():
    child = spawn("sweet-nose", "--players", "3", "--seed", "4", "--option", "shopkeeper=true",
                  "--option", "ascension=true")  # fmt: skip
    child.expect(re.compile(r"Your move \(1-2 or b N to bid N, a all"))
    menu = " ".join(child.before.split())
    assert "1 Pass: out of the auction for good; your marker stays on 0" in menu
    assert "2 Bid 1: your marker to 1, so 1 sweetness now (+1)" in menu
    assert "counts against you now (lowest total wins)" in menu and "type b and the space" in menu
    assert " 3 " not in menu.split("your options:")[1].split("Markers:")[0]  # two moves listed, not 100
    child.sendline("7")
    child.expect(words("7 is not on the list: to bid space 7, type b 7"))
    child.sendline("b 4")
    child.expect(words("You move to 4 on the score track"))
    child.expect(re.compile(r"Your move \(1-2 or b N"))
    child.sendline("b 3")
    child.expect(words("a bid moves your marker forward: your marker is on 4"))
    child.sendline("b 24")
    # Both bots pass now: the last player in is still asked (the auction ends when everyone has passed),
    # and the prompt says so.
    child.expect(words("Everyone else has passed: the auction ends when you pass"))
    child.expect(words("Your marker is already the highest: another bid only costs sweetness"))
    child.expect(re.compile(r"Your move \(1-2 or b N"))
    child.sendline("1")
    child.expect(words("The auction is over"))
    child.expect(re.compile(r"Your move \(1-\d+"))
    child.sendline("q")
    child.expect(words("Save the game"))
    child.sendline("")
    child.expect(pexpect.EOF)
