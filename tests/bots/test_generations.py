"""Self-play generations of the evaluator's training (``parlor train --generations``)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from parlor import games
from parlor.bots import make_bot
from parlor.bots.evaluator import ValueNet
from parlor.cli.main import app
from parlor.core.errors import ParlorError
from parlor.training import Generations, TrainSettings, read_positions, train_generations

SELF_PLAY = "master:iterations=8"
GENS = Generations(count=1, self_play=SELF_PLAY, eval_games=2, against="expert:iterations=8", games=3)


def tiny(seed: int = 4) -> TrainSettings:
    return TrainSettings(game="mamma-mia", players=(2,), games=4, sample=0.3, hidden=(8,), epochs=2, seed=seed)


def same_layers(a: ValueNet, b: ValueNet) -> bool:
    return all(np.array_equal(x, y) for la, lb in zip(a.layers, b.layers) for x, y in zip(la, lb))


def test_each_generation_plays_with_the_previous_network_and_reports_its_strength(tmp_path: Path) -> None:
    out = tmp_path / "run"
    first, second = train_generations(tiny(), GENS, out)
    gen0 = out / "gen0" / "mamma_mia.npz"
    assert first.settings == tiny() and first.weights == gen0
    # The second generation's games are the search's own, with the first network, on other deals.
    assert second.settings.bots == (f"{SELF_PLAY}:weights={gen0}",)
    assert second.settings.seed == tiny().seed + 1 and second.settings.games == 3 and first.settings.games == 4
    player = make_bot(second.settings.bots[0], games.get("mamma-mia"), 0)
    assert same_layers(player.prior.leaf.net_for(2), ValueNet.load(gen0))  # type: ignore[attr-defined]
    p0 = read_positions(out / "gen0" / "positions.parquet", first.settings)
    p1 = read_positions(out / "gen1" / "positions.parquet", second.settings)
    assert p0 is not None and p1 is not None and not np.array_equal(p0.obs[:2], p1.obs[:2])
    # The last network is the run's result; each generation's strength was measured on the same deals.
    assert same_layers(ValueNet.load(out / "mamma_mia.npz"), ValueNet.load(out / "gen1" / "mamma_mia.npz"))
    for gen in (first, second):
        assert gen.strength is not None and gen.strength["games"] == 2
        assert gen.strength["b"] == GENS.against and f"weights={gen.weights}" in gen.strength["a"]
        assert 0.0 <= gen.strength["ci95"][0] <= gen.strength["score"] <= gen.strength["ci95"][1] <= 1.0
    report = (out / "report.md").read_text(encoding="utf-8")
    rows = [line for line in report.splitlines() if line.startswith(("| 0 |", "| 1 |"))]
    assert len(rows) == 2 and "gen0/mamma_mia.npz" in rows[1] and "(2 games)" in rows[1]
    assert (out / "strength.png").is_file()


def test_an_interrupted_run_resumes_to_the_same_networks_without_replaying_finished_work(tmp_path: Path) -> None:
    whole = train_generations(tiny(), GENS, tmp_path / "whole")

    class Stop(Exception):
        pass

    def stop_in_the_second_generation(stage: str, done: int, total: int) -> None:
        if stage == "generation 1: epochs" and done == 1:
            raise Stop

    out = tmp_path / "cut"
    with pytest.raises(Stop):
        train_generations(tiny(), GENS, out, stop_in_the_second_generation)
    kept = out / "gen0" / "strength.json"
    before = kept.stat().st_mtime_ns
    stages: list[str] = []
    resumed = train_generations(tiny(), GENS, out, lambda stage, done, total: stages.append(stage))
    assert kept.stat().st_mtime_ns == before  # the first generation's games were not played again
    assert not any(s.startswith("generation 0") for s in stages)
    for a, b in zip(whole, resumed):
        assert same_layers(a.result.net, b.result.net)
        assert a.strength is not None and b.strength is not None
        assert a.strength["score"] == b.strength["score"]
        assert (
            json.loads((tmp_path / "whole" / f"gen{a.index}" / "strength.json").read_text())["head_to_head"]["ci95"]
            == b.strength["ci95"]
        )


def test_bad_generation_settings_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ParlorError, match="weights"):
        train_generations(tiny(), replace(GENS, self_play="master:weights=x.npz"), tmp_path / "a")
    with pytest.raises(ParlorError, match="0 or more"):
        train_generations(tiny(), replace(GENS, count=-1), tmp_path / "b")
    assert not any(tmp_path.iterdir())


def test_parlor_train_by_generation(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "run"
    ok = runner.invoke(
        app,
        [
            "train",
            "mamma-mia",
            "--out",
            str(out),
            "-n",
            "3",
            "--epochs",
            "1",
            "--hidden",
            "8",
            "--seed",
            "2",
            "--generations",
            "1",
            "--self-play",
            "master:iterations=5",
        ],
    )
    assert ok.exit_code == 0, ok.output
    assert "generation 0:" in ok.output and "generation 1:" in ok.output
    assert (out / "gen1" / "mamma_mia.npz").is_file() and (out / "mamma_mia.npz").is_file()
    assert "| 1 |" in (out / "report.md").read_text(encoding="utf-8")
    for bad, says in (
        (["--generations", "1", "--self-play", "master:weights=a.npz"], "weights"),
        (["--eval-games", "2", "--self-play", "expert", "--eval-against", "expert"], "another bot"),
        (["--generations", "-1"], "--generations"),
        (["--generations", "1", "--self-play-games", "1"], "--self-play-games"),
        (["--generations", "1", "--self-play", "nonsense"], "nonsense"),
    ):
        where = tmp_path / "bad"
        result = runner.invoke(app, ["train", "mamma-mia", "--out", str(where), "-n", "3", *bad])
        assert result.exit_code != 0 and says in result.output, (bad, result.output)
        assert not where.exists()
