"""Tournaments: fair schedules, reproducible results, sound intervals, a working CLI."""

from __future__ import annotations

import contextlib
import itertools
import json
from collections import Counter

import pytest
from typer.testing import CliRunner

from parlor.analysis.tournament import GameResult, Tournament, lineups, run_tournament, wilson
from parlor.cli.main import app

runner = CliRunner()


@pytest.mark.parametrize(
    ("bots", "players"), [(["a", "b", "c", "d"], 4), (["a", "b", "c", "d", "e"], 2), (["a", "b"], 4)]
)
def test_every_bot_sits_in_every_seat_equally_often(bots, players):
    schedule = lineups(bots, players)
    per_seat = [Counter(lineup[s] for lineup in schedule) for s in range(players)]
    for counts in per_seat:
        assert set(counts) == set(bots)
        assert len(set(counts.values())) == 1  # the same number of times for every bot
    if len(bots) >= players:
        meetings = Counter(frozenset(p) for lineup in schedule for p in itertools.combinations(lineup, 2))
        assert len(set(meetings.values())) == 1  # every pair meets equally often


def test_wilson_interval():
    low, high = wilson(50, 100)
    assert low < 0.5 < high and abs((low + high) / 2 - 0.5) < 1e-9
    assert wilson(100, 100)[1] == 1.0 and wilson(100, 100)[0] > 0.95
    assert wilson(0, 0) == (0.0, 1.0)
    narrow, wide = wilson(600, 1000), wilson(60, 100)
    assert narrow[1] - narrow[0] < wide[1] - wide[0]


def test_same_seed_same_tournament_in_one_or_two_processes():
    one = run_tournament("mamma-mia", players=2, bots=["medium", "random"], games=12, seed=4, workers=1)
    two = run_tournament("mamma-mia", players=2, bots=["medium", "random"], games=12, seed=4, workers=2)
    assert one.to_json() == two.to_json()
    other = run_tournament("mamma-mia", players=2, bots=["medium", "random"], games=12, seed=5, workers=1)
    assert [r.scores for r in other.results] != [r.scores for r in one.results]


def test_head_to_head_scores_every_pair_of_seats_once_per_game():
    t = Tournament("mamma-mia", 4, ["a", "b"], 1, {})
    # a places 1st and 4th, b 2nd and 3rd: a is ahead in 2 of the 4 pairs.
    t.results.append(GameResult(0, ("a", "b", "b", "a"), (1, 2, 3, 4), (9, 5, 4, 1), (0,), 10))
    # a ties b for 1st (1/2) and is ahead of the other b (1); the other a is behind both.
    t.results.append(GameResult(1, ("a", "b", "a", "b"), (1, 1, 3, 2), (9, 9, 1, 5), (0, 1), 10))
    h = t.head_to_head("a", "b")
    assert h["games"] == 2
    assert h["score"] == (2 / 4 + 1.5 / 4) / 2
    assert t.head_to_head("b", "a")["score"] == 1 - h["score"]


def test_win_loss_head_to_head_is_the_plain_wilson_interval():
    t = Tournament("mamma-mia", 2, ["a", "b"], 1, {})
    for i in range(10):
        a_first = i < 7
        lineup = ("a", "b") if i % 2 else ("b", "a")
        places = (1, 2) if (lineup[0] == "a") == a_first else (2, 1)
        t.results.append(GameResult(i, lineup, places, (0, 0), (places.index(1),), 10))
    h = t.head_to_head("a", "b")
    assert h["score"] == 0.7 and h["effective_games"] == 10
    assert h["ci95"] == list(wilson(7, 10))


def test_steady_multi_seat_games_narrow_the_interval_but_never_past_every_pair():
    def tournament(scores_of_a):
        t = Tournament("mamma-mia", 4, ["a", "b"], 1, {})
        for i, places in enumerate(scores_of_a):
            t.results.append(GameResult(i, ("a", "b", "a", "b"), places, (0,) * 4, (places.index(1),), 10))
        return t.head_to_head("a", "b")

    # Every game: a 1st and 3rd, b 2nd and 4th -> a ahead in 3 of 4 pairs, with no spread at all.
    steady = tournament([(1, 2, 3, 4)] * 20)
    assert steady["score"] == 0.75 and steady["effective_games"] == 80  # capped at every pair
    # Same mean, but all-or-nothing games: no narrower than a coin's.
    swings = tournament([(1, 3, 2, 4)] * 15 + [(3, 1, 4, 2)] * 5)
    assert swings["score"] == 0.75 and swings["effective_games"] == 20
    assert steady["ci95"][0] > swings["ci95"][0]


def test_the_heuristic_beats_random_on_the_ladder():
    t = run_tournament("mamma-mia", players=2, bots=["medium", "random"], games=40, seed=1)
    step = t.ladder()[0]
    assert step["a"] == "medium" and step["games"] == 40 and step["a_better"]
    medium, rand = t.standings()
    assert medium.mu > rand.mu and medium.wins > rand.wins


def test_cli_json_and_errors():
    runner = CliRunner()
    res = runner.invoke(app, ["tournament", "mamma-mia", "-p", "3", "--bots", "medium,random", "-n", "6", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["games"] == 6 and {s["bot"] for s in data["standings"]} == {"medium", "random"}
    assert sum(s["win_rate"] * s["games"] for s in data["standings"]) == pytest.approx(6)
    bad = runner.invoke(app, ["tournament", "mamma-mia", "--bots", "medium,nobody", "-n", "2"])
    assert bad.exit_code == 1 and "unknown bot" in bad.output
    same = runner.invoke(app, ["tournament", "mamma-mia", "--bots", "medium", "-n", "2"])
    assert same.exit_code == 1 and "two different bots" in same.output


# ------------------------------------------------------------------ balance, rows, workers, Ctrl-C
def test_three_bots_at_four_seats_sit_in_every_seat_equally_often():
    t = run_tournament("mamma-mia", players=4, bots=["medium", "easy", "random"], games=6, seed=2)
    assert t.balance is None
    assert t.seat_counts() == {"medium": [2, 2, 2, 2], "easy": [2, 2, 2, 2], "random": [2, 2, 2, 2]}
    pairs = {(h["a"], h["b"]) for h in t.all_pairs()}
    assert len(pairs) == 6 and all(h["games"] == 6 for h in t.all_pairs())


def test_an_unbalanceable_game_count_is_explained():
    from parlor.analysis.tournament import balance_note

    assert balance_note(["a", "b", "c"], 4, 6) is None
    note = balance_note(["a", "b", "c"], 4, 7)
    assert note and "multiple of 3" in note
    result = runner.invoke(app, ["tournament", "mamma-mia", "-p", "4", "--bots", "medium,easy,random", "-n", "4"])
    assert result.exit_code == 0 and "not exactly balanced" in result.output


def test_tournament_games_are_the_simulator_rows(tmp_path):
    from parlor.analysis.results import read_rows
    from parlor.analysis.tournament import play_one

    out = tmp_path / "t.csv"
    t = run_tournament("sweet-nose", players=3, bots=["medium", "random"], games=4, seed=3, out=out)
    rows = read_rows(out)
    assert [r["index"] for r in rows] == [0, 1, 2, 3]
    for r, g in zip(rows, t.results):
        assert tuple(r["bots"]) == g.lineup and tuple(r["places"]) == g.places
        again = play_one("sweet-nose", 3, {}, 3, g.index, g.lineup)  # the seeds tournaments always had
        assert again.places == g.places and again.decisions == g.decisions


@pytest.mark.parametrize("workers", ["0", "-2"])
def test_workers_must_be_at_least_one(workers):
    result = runner.invoke(app, ["tournament", "mamma-mia", "-p", "2", "--bots", "medium,random", "-w", workers])
    assert result.exit_code == 1 and "--workers must be at least 1" in result.output
    with pytest.raises(Exception, match="at least 1"):
        run_tournament("mamma-mia", players=2, bots=["medium", "random"], games=2, seed=1, workers=int(workers))


def _children(pid: int) -> set[int]:
    from pathlib import Path

    out: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            out.update(int(x) for x in (task / "children").read_text().split())
    return out


def _alive(pid: int) -> bool:
    import os

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is gone too (its parent has not reaped it yet)
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def test_ctrl_c_stops_the_workers_and_keeps_finished_games(tmp_path):
    """A real SIGINT to a real `parlor tournament` with two worker processes."""
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "t.parquet"
    parts = tmp_path / "t.parquet.parts"
    cmd = [sys.executable, "-X", "faulthandler", "-m", "parlor.cli.main", "tournament", "mamma-mia", "-p", "2"]
    inherited = signal.getsignal(signal.SIGINT)

    def as_from_a_terminal() -> None:
        # A process started with SIGINT ignored keeps ignoring it (Python then installs no Ctrl-C
        # handler); the test runner's process may have come to ignore it, a terminal's shell does not.
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    proc = subprocess.Popen(
        [*cmd, "--bots", "medium,easy", "-n", "100000", "-w", "2", "--out", str(out), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=as_from_a_terminal,
    )
    try:
        deadline = time.monotonic() + 300
        while not list(parts.glob("chunk-*.parquet")):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no game finished in five minutes"
            time.sleep(0.1)
        workers = _children(proc.pid)
        assert len(workers) >= 2  # the pool's processes (spawn may add a resource tracker)
        proc.send_signal(signal.SIGINT)
        stopped = time.monotonic()
        try:
            stdout, stderr = proc.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGABRT)  # faulthandler prints where every thread stands
            _, where = proc.communicate(timeout=30)
            raise AssertionError(f"no exit 120 s after SIGINT (SIGINT here: {inherited}):\n{where[-6000:]}") from None
        waited = time.monotonic() - stopped
        while any(_alive(w) for w in workers) and time.monotonic() - stopped < 120:
            time.sleep(0.05)
        assert not any(_alive(w) for w in workers)
        print(f"stopped {waited:.2f} s after SIGINT")
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, stderr
    assert "Interrupted" in stderr and "--resume" in stderr
    report = json.loads(stdout)
    assert report["interrupted"] and 0 < report["games"] < 100000
    kept = list(parts.glob("chunk-*.parquet"))
    assert kept and not out.exists()
    import pyarrow.parquet as pq

    assert sum(pq.read_table(p).num_rows for p in kept) == report["games"]  # every reported game is on disk


# ------------------------------------------------------------------ duplicate deals
def test_a_duplicate_tournament_plays_one_lineup_of_each_rotation_class_in_every_rotation():
    from parlor.analysis.tournament import balance_note, duplicate_lineups

    assert duplicate_lineups(["a", "b", "c"], 2) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert duplicate_lineups(["a", "b", "c"], 3) == [("a", "b", "c"), ("a", "c", "b")]
    assert duplicate_lineups(["a", "b"], 4) == [("a", "b", "a", "b")]  # its rotation (b, a, b, a) is the same class
    t = run_tournament("mamma-mia", players=2, bots=["medium", "easy", "random"], games=6, seed=2, duplicate=True)
    assert t.balance is None and t.duplicate
    assert [(r.deal, r.rotation, r.lineup) for r in t.results] == [
        (0, 0, ("medium", "easy")),
        (0, 1, ("easy", "medium")),
        (1, 0, ("medium", "random")),
        (1, 1, ("random", "medium")),
        (2, 0, ("easy", "random")),
        (2, 1, ("random", "easy")),
    ]
    assert t.seat_counts() == {"medium": [2, 2], "easy": [2, 2], "random": [2, 2]}
    h = t.head_to_head("medium", "random")
    assert h["games"] == 2 and h["deals"] == 1 and "ci95_unpaired" in h
    note = balance_note(["medium", "easy", "random"], 2, 8, duplicate=True)
    assert note and "multiple of 6" in note
