"""The terminal game through a real pseudo-terminal (pexpect): what a newcomer sees and types
where the prompt matters — Mottainai's hand, card texts and rules, Sweet Nose's placement
numbers, and what ending the input does."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pexpect
import pytest

PARLOR = str(Path(sys.executable).with_name("parlor"))
PROMPT = re.compile(r"Your move \(1-(\d+)")


def spawn(*args: str) -> pexpect.spawn:
    child = pexpect.spawn(
        PARLOR,
        ["play", *args, "--delay", "0"],
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 100),
        env={"COLUMNS": "100", "TERM": "dumb", "PATH": "/usr/bin:/bin"},
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
    child.expect("2 appears twice, 4 is missing")
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
