"""scripts/review_separation.py (docs/review.md, "Telling weak play from strong"): one seat of a
level among hard seats, reviewed; its decisions kept; a rerun carries on instead of playing again;
the tables print from the file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from parlor.review import Review

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "review_separation.py"
SMALL = ["--game", "mottainai", "--players", "2", "--budget", "4", "--levels", "random"]


def run(*args: str) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done


def test_the_level_s_seat_is_reviewed_kept_resumed_and_tabled(tmp_path: Path) -> None:
    run(*SMALL, "--games", "1", "--out", str(tmp_path))
    kept = json.loads((tmp_path / "separation-mottainai-2p.json").read_text())
    [row] = kept["rows"]
    assert row["level"] == "random" and row["lineup"][row["seat"]] == "random"
    assert all(kind == "hard" for seat, kind in enumerate(row["lineup"]) if seat != row["seat"])
    review = Review.from_json(row["review"])
    assert review.complete and review.seat == row["seat"]
    # Each decision keeps its score loss, so --tables recomputes the blended summary without replaying.
    assert review.decisions and all(d.score_loss is not None for d in review.decisions)
    # Only the best and the played move are kept whole; every legal move's win share and score are
    # in the decision's spread (what it could cost, for the summary), the best first.
    for decision, data in zip(review.decisions, row["review"]["decisions"]):
        assert len(decision.moves) <= 2 and len(data["spread"]) >= len(decision.moves) >= 1
        assert data["spread"][0] == [round(decision.moves[0].win, 3), round(decision.moves[0].score, 3)]
    again = run(*SMALL, "--games", "1", "--out", str(tmp_path))  # nothing left to do
    assert "game 0" not in again.stderr
    assert json.loads((tmp_path / "separation-mottainai-2p.json").read_text()) == kept
    printed = run("--tables", "--out", str(tmp_path)).stdout
    assert "| random | 1 |" in printed and "share given away" in printed
    # The earliest kept runs have no CPU seconds (docs/review/separation-*-seed41.json): they still table.
    older = tmp_path / "older"
    older.mkdir()
    del kept["rows"][0]["cpu_seconds"]
    (older / "separation-mottainai-2p.json").write_text(json.dumps(kept))
    tabled = run("--tables", "--out", str(older)).stdout
    assert "| random | 1 |" in tabled and "not kept" in tabled
    derived = json.loads(run("--derive", str(tmp_path / "separation-mottainai-2p.json")).stdout)
    assert set(derived) <= {"mottainai"} and all(value > 0 for value in derived.values())
