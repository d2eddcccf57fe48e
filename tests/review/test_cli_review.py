"""``parlor review``: a saved game judged in the terminal, through real processes.

The printed review is the library's (the ``--json`` form equals ``parlor.review.review`` with the
same settings); Ctrl-C in a real pseudo-terminal, once the progress bar shows a decision done,
keeps the decisions done (printed, and saved with ``--out``), and ``--resume`` finishes the
same review as one run straight through; bad input is one clear line.
"""

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

from parlor.review import Review, Reviewing, review, summarize
from parlor.review.calibration import bot_game
from parlor.review.settings import phase_words
from parlor.review.summary import HARMONIC_SHARE, share_accuracy

PARLOR = str(Path(sys.executable).with_name("parlor"))
# The command runs the sources the tests import (a checkout pointed at by PYTHONPATH, when set),
# not whichever copy the virtualenv was installed from.
SOURCES = {"PYTHONPATH": os.environ["PYTHONPATH"]} if "PYTHONPATH" in os.environ else {}
BUDGET = "16"


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    record = bot_game("mottainai", 3, ["medium", "easy", "medium"], 5)
    path = tmp_path_factory.mktemp("review") / "game.json"
    path.write_text(json.dumps(record))
    return path


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([PARLOR, "review", *args], capture_output=True, text=True, env={"COLUMNS": "120", **SOURCES})


def test_the_review_lists_every_decision_then_the_summary_and_the_graph(saved: Path) -> None:
    record = json.loads(saved.read_text())
    expected = review(record, 1, budget=int(BUDGET), seed=2)
    done = run(str(saved), "--seat", "2", "--budget", BUDGET, "--seed", "2")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "review of seat 2" in out
    numbers = [int(n) for n in re.findall(r"^\s*(\d+)\. step \d+ ·", out, re.M)]
    assert numbers == list(range(1, expected.decisions_total + 1))
    # each decision: its label, the move played with its win chance, and the best one when it differs
    for d in expected.decisions:
        assert re.search(rf"^\s*\d+\. step {d.step + 1} · {phase_words(d.phase)} · {d.label}\b", out, re.M), d.step
    assert out.count("     played ") == expected.decisions_total
    assert out.count("     best   ") == sum(d.label != "best" for d in expected.decisions)
    assert "Summary" in out and "Accuracy per phase" in out
    # The summary's accuracy as the library gives it; the legend's curve is the summary's own.
    summary = summarize(expected)
    flat = " ".join(out.split())
    assert f"Accuracy {round(100 * summary['accuracy'])}%" in flat
    assert f"a tenth {round(100 * share_accuracy(0.1))}%, a quarter {round(100 * share_accuracy(0.25))}%" in flat
    assert f"{round(100 * HARMONIC_SHARE)}% their harmonic mean" in flat
    for phase in {phase_words(d.phase) for d in expected.decisions}:
        assert re.search(rf"│ {phase}\s+│", out), phase
    assert "costliest decisions" in out
    graph = out[out.index("Win chance over the game") :]
    bars = [line for line in graph.splitlines() if "│" in line]
    assert len(bars) == 8 and bars[0].startswith("100%")
    assert len(bars[-1].split("│", 1)[1].rstrip("\n")) >= expected.decisions_total


def test_json_output_is_the_library_review(saved: Path) -> None:
    record = json.loads(saved.read_text())
    done = run(str(saved), "--seat", "1", "--budget", BUDGET, "--json")
    assert done.returncode == 0, done.stderr
    printed = Review.from_json(json.loads(done.stdout))
    assert printed == review(record, 0, budget=int(BUDGET))
    assert printed.complete and printed.seat == 0


def _as_from_a_terminal() -> None:
    # The test runner may ignore SIGINT, and an ignored signal stays ignored across exec; a
    # terminal's shell starts programs with Ctrl-C working.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_keeps_the_decisions_done_printed_and_saved(saved: Path, tmp_path: Path) -> None:
    partial = tmp_path / "partial.json"
    # A budget large enough that the whole review takes far longer than its first decision.
    child = pexpect.spawn(
        PARLOR,
        ["review", str(saved), "--seat", "3", "--budget", "1000", "--out", str(partial)],
        encoding="utf-8",
        timeout=180,
        dimensions=(40, 120),
        env={"COLUMNS": "120", "TERM": "xterm", "NO_COLOR": "1", "PATH": "/usr/bin:/bin", **SOURCES},
        preexec_fn=_as_from_a_terminal,
    )
    # The bar (drawn with cursor moves) shows a decision done.
    child.expect(r"reviewing[^\r\n]*? ([1-9]\d*)/(\d+)(?:\x1b\[[0-9;]*m)* decisions")
    total = int(child.match.group(2))
    child.sendintr()
    child.expect(r"Interrupted: (\d+) of (\d+) decisions reviewed; saved in")
    kept = int(child.match.group(1))
    assert int(child.match.group(2)) == total and 1 <= kept < total
    child.expect("Summary")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    earlier = Review.from_json(json.loads(partial.read_text()))
    assert len(earlier.decisions) == kept and not earlier.complete and earlier.decisions_total == total
    # What was kept is what a run straight through gives for those decisions.
    assert earlier.decisions == first_decisions(json.loads(saved.read_text()), 2, 1000, kept)


def first_decisions(record: dict, seat: int, budget: int, count: int) -> tuple:
    reviewing = Reviewing(record, seat, budget=budget)
    for _decision in reviewing.decisions():
        if len(reviewing.done) == count:
            break
    return tuple(reviewing.done)


def test_resume_on_the_command_line_finishes_a_saved_partial_review(saved: Path, tmp_path: Path) -> None:
    record = json.loads(saved.read_text())
    reviewing = Reviewing(record, 0, budget=int(BUDGET))
    reviewing.done = list(first_decisions(record, 0, int(BUDGET), 3))
    partial = reviewing.review()
    assert len(partial.decisions) == 3 and not partial.complete
    saved_partial = tmp_path / "p.json"
    saved_partial.write_text(json.dumps(partial.to_json()))
    # Finished by the command line, it equals the review made in one go.
    done = run(str(saved), "--seat", "1", "--budget", BUDGET, "--resume", str(saved_partial), "--json")
    assert done.returncode == 0, done.stderr
    assert Review.from_json(json.loads(done.stdout)) == review(record, 0, budget=int(BUDGET))
    # A saved review of another seat, or made with other settings, is refused, clearly.
    other = run(str(saved), "--seat", "2", "--budget", BUDGET, "--resume", str(saved_partial))
    assert other.returncode == 1 and "seat" in other.stderr and "Traceback" not in other.stderr
    budget = run(str(saved), "--seat", "1", "--budget", "17", "--resume", str(saved_partial))
    assert budget.returncode == 1 and "other judge settings" in budget.stderr


def test_a_flagged_decision_says_why_the_better_move_is_better(saved: Path, tmp_path: Path) -> None:
    """A decision's reasons (parlor.review.explain) are printed under its better move, in words from
    the catalog with the agreement threshold; a decision without reasons prints no such line. The
    review is the library's, its reasons set here, read back by ``--resume`` (nothing left to judge)."""
    record = json.loads(saved.read_text())
    judged = review(record, 0, budget=int(BUDGET))
    others = [i for i, d in enumerate(judged.decisions) if d.label != "best"]
    assert others, "no decision with a better move to explain"
    data = judged.to_json()
    data["decisions"][others[0]]["why"] = [{"key": "mottainai.works", "n": 2}, {"key": "mottainai.sales", "n": 1}]
    given = tmp_path / "why.json"
    given.write_text(json.dumps(data))
    done = run(str(saved), "--seat", "1", "--budget", BUDGET, "--resume", str(given))
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if line.startswith("     why ")]
    assert len(lines) == 1, done.stdout
    assert "at least 90%" in lines[0]
    assert lines[0].endswith(
        "Your works score 2 more points. Your covered sales would score 1 more point if the game ended now."
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "0"], "--seat must be between 1 and 3"),
        (["--seat", "4"], "--seat must be between 1 and 3"),
        (["--seat", "1", "--budget", "0"], "--budget must be at least 1"),
    ],
)
def test_bad_options_are_one_clear_line(saved: Path, args: list[str], message: str) -> None:
    done = run(str(saved), *args)
    assert done.returncode == 1
    assert message in done.stderr and "Traceback" not in done.stderr


def test_a_damaged_record_or_review_file_is_named(saved: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    record = json.loads(saved.read_text())
    record["actions"][4][1] = {"type": "no_such_move"}
    broken.write_text(json.dumps(record))
    done = run(str(broken), "--seat", "1")
    assert done.returncode == 1 and "step 4" in done.stderr and "Traceback" not in done.stderr
    not_json = tmp_path / "nope.json"
    not_json.write_text("{")
    done = run(str(saved), "--seat", "1", "--resume", str(not_json))
    assert done.returncode == 1 and "not a saved review" in done.stderr
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"format": 0}))
    done = run(str(saved), "--seat", "1", "--resume", str(old))
    assert done.returncode == 1 and "format" in done.stderr
