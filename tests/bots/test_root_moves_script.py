"""scripts/root_moves.py (the root-move figures of docs/strength.md): it collects sibling moves
with a teacher's and a short search's values and the network prior's, the same under a seed, and
reports from the file without playing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "root_moves.py"
SMALL = ["mamma-mia", "2", "1", "--teacher", "120", "--short", "30", "--sample", "0.5", "--bot", "medium"]


def run(*args: str) -> str:
    done = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_root_moves_are_collected_reproducibly_and_reported_from_the_file(tmp_path: Path) -> None:
    first, second = tmp_path / "a.npz", tmp_path / "b.npz"
    run(*SMALL, "--out", str(first))
    run(*SMALL, "--out", str(second))
    a, b = np.load(first), np.load(second)
    for key in ("obs", "group", "teacher_q", "teacher_n", "short_q", "short_n", "net_v"):
        assert np.array_equal(a[key], b[key], equal_nan=True), key  # same seed, same data
    groups = a["group"]
    assert len(np.unique(groups)) >= 2 and all((groups == k).sum() >= 2 for k in np.unique(groups))
    assert ((a["net_v"] > 0) & (a["net_v"] < 1)).all() and (a["teacher_n"] > 0).all()
    assert a["obs"].shape == (len(groups), a["obs"].shape[1])
    out = run("--report", str(first))
    assert f"{len(np.unique(groups))} roots" in out and "network prior (shipped)" in out
    done = subprocess.run([sys.executable, str(SCRIPT), "mamma-mia"], capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "GAME PLAYERS GAMES" in done.stderr
