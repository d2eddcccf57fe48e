"""The benchmarks must keep running (their figures are printed, never asserted)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_engine_benchmark_runs_for_every_registered_game(capsys):
    from parlor import games

    engine = load("engine")
    report = engine.main(["--quick", "--json"])
    rows = report["rows"]
    assert {r["game"] for r in rows} == set(games.names())
    for row in rows:
        for key in ("games_per_s", "decisions_per_s", "clone_us", "legal_actions_us", "apply_us", "determinize_us"):
            assert row[key] > 0, (row["game"], key)
    # The OpenSpiel baseline is part of the test install, so the ratio is really computed.
    assert report["baseline"] is not None and report["baseline"]["decisions_per_s"] > 0
    assert all(r["ratio_to_hearts"] > 0 for r in rows)
    assert '"rows"' in capsys.readouterr().out


def test_bot_benchmark_runs_for_every_registered_game(capsys):
    from parlor import games

    rows = load("bots").main(["--quick"])
    assert {r["game"] for r in rows} == set(games.names())
    for row in rows:
        for key in ("playout_decisions_per_s", "ismcts_iterations_per_s", "hard_decision_s", "expert_decision_s",
                    "hearts_decisions_per_s", "iterations_per_s_at_hearts_300k"):  # fmt: skip
            assert row[key] > 0, (row["game"], key)
    assert "expert (median, max)" in capsys.readouterr().out


# Computed on the engine before events became lazy; a faster implementation or a new
# data layout must play the same games, so these must not change unless the rules do (and then
# ENGINE_VERSION goes up with them, see docs/engine.md).
RESULTS_DIGEST_9 = "d89560e0eee0d5ebf51fb707bf53e9889b06a216148ddd27a262bc4e07cefe8a"
EVENTS_DIGEST_9 = "817e6b4d4b5d59e7061f9f86998971f999813b636cbd42687aecf9bea77ae061"


def test_results_digest_of_fixed_games_is_unchanged():
    engine = load("engine")
    assert engine.results_digest(9)["all"] == RESULTS_DIGEST_9


def test_events_digest_of_fixed_games_is_unchanged():
    engine = load("engine")
    assert engine.results_digest(9, with_events=True)["all"] == EVENTS_DIGEST_9


def test_review_benchmark_runs_for_every_registered_game(capsys):
    from parlor import games

    rows = load("review").main(["--quick", "--players", "3"])
    assert {r["game"] for r in rows} == set(games.names())
    for row in rows:
        assert row["decisions"] > 0 and row["review_cpu_s"] > 0 and row["playout_decisions_per_s"] > 0
        assert row["calibration_sample"]["positions"] > 0
    assert "calibration error" in capsys.readouterr().out


def test_rl_benchmark_measures_every_mode():
    rl = load("rl")
    row = rl.measure("sweet-nose", 3, 1, 1, 4)
    assert set(row["decisions_per_s"]) == {"raw", "aec", "par", "gym", "vec"}
    # a rate is None only where the player's replayed cost came out above the mode's whole time
    # (a machine that slowed down between the run and the replay: below); never negative
    assert all(v is None or v > 0 for v in row["decisions_per_s"].values())
    assert all(v > 0 for v in row["with_policy"]["decisions_per_s"].values())
    assert row["decisions_per_learner_step"] >= 1
    assert all(v > 0 for v in row["us_per_call"].values())


def test_rl_benchmarks_player_picks_every_legal_action_and_nothing_else():
    import numpy as np

    rl = load("rl")
    player = rl.Policy(3)
    # rows of odd lengths, one legal action, every action legal, the first and the last id
    masks = np.zeros((5, 7), np.int8)
    masks[0, 3] = 1
    masks[1, :] = 1
    masks[2, [0, 6]] = 1
    masks[3, [1, 2, 5]] = 1
    masks[4, 6] = 1
    seen = [set() for _ in masks]
    for _ in range(400):
        for row, action in enumerate(player.choose_batch(masks)):
            seen[row].add(int(action))
    assert seen == [set(np.flatnonzero(m).tolist()) for m in masks]
    # a column slice is not contiguous: the single pick reads it as it is
    picked = {player.choose_pick(masks[:, 2]) for _ in range(200)}
    assert picked == {1, 3}


def test_rl_benchmark_prints_no_figure_where_the_players_cost_exceeds_the_modes_time(capsys, monkeypatch):
    rl = load("rl")
    # the single picks' replayed cost made absurdly high (the vector env's batch pick is timed
    # where it runs, so its figure stays)
    monkeypatch.setattr(rl.Policy, "cost", lambda self, choose: 1e9 if self.calls else 0.0)
    row = rl.measure("sweet-nose", 3, 1, 1, 4)
    assert {k for k, v in row["decisions_per_s"].items() if v is None} == {"raw", "aec", "par", "gym"}
    assert row["decisions_per_s"]["vec"] > 0 and all(v is None for v in row["cost_factor"].values())
    rl.print_table([row])
    out = capsys.readouterr().out
    line = next(row for row in out.splitlines() if row.startswith("sweet-nose"))
    assert line.split()[2] == "n/a" and "(-" not in line and "run again" in out


def test_evaluator_benchmark_prices_a_leaf_in_playout_decisions(capsys):
    from parlor import games

    rows = load("evaluator").main(["--quick"])
    assert {r["game"] for r in rows} == set(games.names())
    for row in rows:
        assert row["playout_decision_s"] > 0
        assert row["evaluator leaf"] > 0 and row["encode seats"] > 0 and row["network"] > 0
        assert row["expert iterations/s"] > 0
        assert all(row[f"{search} / expert"] > 0 for search in ("prior depth 1", "prior depth 2", "blended leaf"))
        assert ("one-row leaf (1 - v)" in row) == (row["players"] == 2)
    assert "playout decisions" in capsys.readouterr().out


def test_evaluator_benchmark_times_master_and_expert_moves_at_four_players(capsys):
    from parlor import games

    rows = load("evaluator").main(["--move-time", "--players", "4", "--positions", "2"])
    assert {r["game"] for r in rows} == set(games.names())
    for row in rows:
        assert row["players"] == 4
        assert row["expert move s"] > 0 and row["master move s"] > 0
        assert row["master move s, slowest"] >= row["master move s"]
    assert "CPU seconds a move" in capsys.readouterr().out
