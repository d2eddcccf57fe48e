"""examples/train_maskable_ppo.py runs as documented (docs/rl.md) and reports what it claims.

A short run (a few rollouts, a few evaluation games): the real MaskablePPO on the vector env's
SB3 face, not the 120,000 steps the documented figures took. It checks the report's shape and
its arithmetic (rates inside their Wilson intervals, the "apart" verdict following from them),
not how well the policy plays.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_maskable_ppo.py"


def run(*args: str) -> dict:
    done = subprocess.run([sys.executable, str(EXAMPLE), *args, "--json"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_training_example_trains_and_reports_both_policies_with_intervals() -> None:
    report = run(
        "--game",
        "mamma-mia",
        "--players",
        "2",
        "--steps",
        "512",
        "--envs",
        "8",
        "--n-steps",
        "64",
        "--eval",
        "6",
        "--eval-against",
        "random,medium",
        "--seed",
        "3",
    )
    assert report["game"] == "mamma-mia" and report["players"] == 2 and report["steps"] == 512
    assert report["episodes"] > 0 and report["eval_games"] == 6
    assert set(report["against"]) == {"random", "medium"}
    for figures in report["against"].values():
        for policy in ("trained", "uniform_random"):
            rate, (low, high) = figures[policy]["rate"], figures[policy]["ci95"]
            assert 0.0 <= low <= rate <= high <= 1.0
            halves = rate * 6 * 2  # 6 games of 2 seats: whole wins or shared halves (rate rounded to 3 places)
            assert abs(halves - round(halves)) < 0.01
        t, u = figures["trained"]["ci95"], figures["uniform_random"]["ci95"]
        assert figures["intervals_apart"] == (t[0] > u[1] or t[1] < u[0])


def test_a_bad_game_is_refused_before_training() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--game", "chess", "--json"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2 and "invalid choice" in done.stderr and not done.stdout
