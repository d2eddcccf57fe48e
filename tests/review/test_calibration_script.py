"""scripts/review_calibration.py (the measurement of docs/review.md): games are played in seed
order, so the first k games of a longer run (what a run stopped after k games keeps) are the
rows a run of k games makes; and the tables are printed again from the file without playing."""

from __future__ import annotations

import json
import os
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
    # Carried on from its next game, the shorter run becomes the longer one, row for row.
    run("--games", "2", "--resume", "--out", str(tmp_path / "one"))
    assert json.loads((tmp_path / "one" / "calibration-mottainai.json").read_text())["rows"] == two["rows"]
    # Other settings would not continue the same series: refused, the file left as it was.
    kept = (tmp_path / "one" / "calibration-mottainai.json").read_bytes()
    other = ["--games", "3", "--seed", "7", "--resume", "--out", str(tmp_path / "one")]
    refused = subprocess.run([sys.executable, str(SCRIPT), *SMALL, *other], capture_output=True, text=True, timeout=600)
    assert refused.returncode != 0 and "other settings (seed)" in refused.stderr
    assert (tmp_path / "one" / "calibration-mottainai.json").read_bytes() == kept
    assert not list((tmp_path / "two").glob("*.part"))
    printed = run("--tables", "--out", str(tmp_path / "two"))
    assert "6 positions from 2 games" in printed
    assert "whole games resampled" in printed
    assert (tmp_path / "two" / "calibration-mottainai.png").stat().st_size > 1000


def children_of(pid: int) -> set[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        return {int(c) for c in f.read().split()}


def alive(pid: int) -> bool:
    """Running (a zombie waiting for whoever adopted it to reap it is not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_its_workers_end_when_it_is_killed(tmp_path: Path) -> None:
    """A run killed outright (SIGKILL: a CI timeout, the out-of-memory killer) takes its workers with
    it, though each is in the middle of a judged game that would keep a core busy for minutes."""
    import signal
    import time

    args = ["--game", "mottainai", "--games", "4", "--workers", "2", "--out", str(tmp_path)]
    parent = subprocess.Popen([sys.executable, str(SCRIPT), *args], stderr=subprocess.DEVNULL)
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 120
        while len(workers) < 2:  # both at work, each on a game
            assert parent.poll() is None and time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.1)
            workers = children_of(parent.pid)
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=60)
        deadline = time.monotonic() + 90
        while left := sorted(w for w in workers if alive(w)):
            assert time.monotonic() < deadline, f"workers {left} outlived their parent"
            time.sleep(0.1)
    finally:
        if parent.poll() is None:
            parent.kill()
        for w in workers:
            if alive(w):
                os.kill(w, signal.SIGKILL)
