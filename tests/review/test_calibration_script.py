"""scripts/review_calibration.py (the measurement of docs/review.md): games are played in seed
order, so the first k games of a longer run (what a run stopped after k games keeps) are the
rows a run of k games makes; and the tables are printed again from the file without playing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "review_calibration.py"
SMALL = ["--game", "mottainai", "--budget", "4", "--positions", "3", "--rollouts", "1", "--players", "3"]


def run(*args: str) -> str:
    done = subprocess.run([sys.executable, str(SCRIPT), *SMALL, *args], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_shorter_run_is_the_first_games_of_a_longer_one_and_tables_print_from_the_file(tmp_path: Path) -> None:
    run("--games", "2", "--out", str(tmp_path / "two"))
    run("--games", "1", "--out", str(tmp_path / "one"))
    two = json.loads((tmp_path / "two" / "calibration-mottainai.json").read_text())
    one = json.loads((tmp_path / "one" / "calibration-mottainai.json").read_text())
    assert (two["games"], one["games"]) == (2, 1)
    assert len({r["seed"] for r in two["rows"]}) == 2
    # The first game of the longer run is the whole of the shorter one: a stop keeps a seeded prefix.
    assert one["rows"] == [r for r in two["rows"] if r["seed"] == one["rows"][0]["seed"]]
    assert not list((tmp_path / "two").glob("*.part"))
    printed = run("--tables", "--out", str(tmp_path / "two"))
    assert "6 positions from 2 games" in printed
    assert "whole games resampled" in printed
    assert (tmp_path / "two" / "calibration-mottainai.png").stat().st_size > 1000
