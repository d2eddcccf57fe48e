"""Per-game rows: the same bytes in one process, two processes or Ray; resume; shards; formats."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from parlor.analysis.results import execute, merge, read_rows, read_spec, write_rows
from parlor.analysis.simulation import RunSpec, play_game
from parlor.cli.main import app
from parlor.core import ParlorError, replay

runner = CliRunner()


def spec(**changes) -> RunSpec:
    base = dict(game="mamma-mia", players=3, games=12, seed=7, bots=("medium", "random", "random"), chunk_size=3)
    base.update(changes)
    return RunSpec(**base)


def test_a_row_describes_the_game():
    row = play_game(spec(records=True), 4)
    assert row["index"] == 4 and row["players"] == 3 and len(row["bots"]) == 3
    assert sorted(row["turn_position"]) == [0, 1, 2]
    assert row["turn_position"][row["start_player"]] == 0
    assert row["winners"] == [s for s in range(3) if row["places"][s] == 1]
    assert row["decisions"] > 0 and row["rounds"] == 3 and row["end_condition"] == "rounds"
    metrics = json.loads(row["metrics"])
    played = sum(n for k, (_, n) in metrics["rates"].items() if k.startswith("completion:"))
    assert played == metrics["values"]["orders_played"] > 0
    record = json.loads(row["record"])
    assert record["bots"] == row["bots"] and record["parlor_version"]
    assert list(replay(record).result().scores) == row["scores"]  # the record replays to the row's result


@pytest.mark.parametrize("name", ["mamma-mia", "sweet-nose", "mottainai"])
def test_every_game_reports_its_metrics(name):
    players = 3
    row = play_game(spec(game=name, bots=("medium",) * players, players=players), 0)
    metrics = json.loads(row["metrics"])
    assert metrics["values"], name
    if name == "mottainai":
        assert row["end_condition"] in ("wing", "deck", "turtle")
        assert any(k.startswith("work:") for k in metrics["seats"])
    if name == "sweet-nose":
        assert any(k.startswith("picked:") for k in metrics["seats"])


def test_files_are_identical_in_one_or_two_processes_and_any_chunking(tmp_path):
    one = tmp_path / "one.parquet"
    two = tmp_path / "two.parquet"
    execute(spec(), out=one)
    execute(spec(), out=two, backend="processes", workers=2)
    assert one.read_bytes() == two.read_bytes()
    # The chunk size is part of the spec (for resume), but not of any game's result.
    rows = read_rows(one)
    other = read_rows_of(spec(chunk_size=5), tmp_path / "five.parquet")
    assert rows == other
    assert read_spec(one) == spec()


def read_rows_of(s: RunSpec, path):
    execute(s, out=path)
    return read_rows(path)


def test_csv_and_jsonl_hold_the_same_rows(tmp_path):
    rows = execute(spec(records=True))
    for suffix in ("csv", "jsonl", "parquet"):
        path = tmp_path / f"r.{suffix}"
        write_rows(rows, path)
        assert read_rows(path) == rows, suffix
    text = (tmp_path / "r.csv").read_text()
    assert text.startswith('"game","index","seed"')  # pyarrow quotes; we never hand-write CSV


def test_an_interrupted_run_resumes_without_replaying_finished_chunks(tmp_path):
    out = tmp_path / "r.parquet"
    seen: list[int] = []

    def stop_after_two_chunks(done: int) -> None:
        seen.append(done)
        if done >= 6:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        execute(spec(), out=out, progress=stop_after_two_chunks)
    parts = out.with_name("r.parquet.parts")
    assert not out.exists() and len(list(parts.glob("chunk-*.parquet"))) == 2
    with pytest.raises(ParlorError, match="--resume"):
        execute(spec(), out=out)
    with pytest.raises(ParlorError, match="other settings"):
        execute(spec(seed=8), out=out, resume=True)
    progress: list[int] = []
    execute(spec(), out=out, resume=True, progress=progress.append)
    assert progress == [6, 9, 12]  # started from the two kept chunks; played the other two
    assert not parts.exists()
    fresh = tmp_path / "fresh.parquet"
    execute(spec(), out=fresh)
    assert out.read_bytes() == fresh.read_bytes()


def test_shards_merge_into_the_whole_run(tmp_path):
    whole = tmp_path / "whole.parquet"
    execute(spec(), out=whole)
    shards = [tmp_path / f"s{i}.parquet" for i in range(3)]
    for i, path in enumerate(shards):
        execute(spec(), out=path, shard=(i, 3))
    assert sum(len(read_rows(p)) for p in shards) == 12
    with pytest.raises(ParlorError, match="none of the shards"):
        merge(shards[:2], tmp_path / "part.parquet")
    with pytest.raises(ParlorError, match="more than one shard"):
        merge([*shards, shards[0]], tmp_path / "dup.parquet")
    merged = tmp_path / "merged.parquet"
    result = runner.invoke(app, ["merge", str(merged), *map(str, shards)])
    assert result.exit_code == 0, result.output
    assert merged.read_bytes() == whole.read_bytes()


def test_ray_gives_the_same_file_as_local_processes(tmp_path):
    import ray  # installed by the [analysis] extra: a missing Ray fails this test

    assert not ray.is_initialized()
    local = tmp_path / "local.parquet"
    on_ray = tmp_path / "ray.parquet"
    execute(spec(), out=local, backend="processes", workers=2)
    execute(spec(), out=on_ray, backend="ray", workers=2)  # a real local Ray instance, 2 CPUs
    assert local.read_bytes() == on_ray.read_bytes()
    assert not ray.is_initialized()  # the instance it started is shut down


def test_cli_simulate_writes_rows_and_refuses_bad_input(tmp_path):
    out = tmp_path / "r.jsonl"
    args = ["simulate", "sweet-nose", "-p", "3", "-n", "6", "--bots", "random", "--seed", "2"]
    result = runner.invoke(app, [*args, "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert len(read_rows(out)) == 6
    assert report["summary"]["by_turn_position"][0]["wins"]["ci95"][0] >= 0
    for bad, message in (
        (["--out", str(tmp_path / "r.txt")], "--out must end in"),
        (["--workers", "0"], "--workers must be at least 1"),
        (["--shard", "3/2"], "--shard"),
        (["--backend", "cloud"], "unknown backend"),
        (["--resume"], "--resume needs --out"),
    ):
        result = runner.invoke(app, [*args, *bad])
        assert result.exit_code == 1 and message in result.output, (bad, result.output)
    assert not (tmp_path / "r.txt").exists()


def test_default_settings_give_the_same_file_at_any_worker_count_and_on_ray(tmp_path):
    # The default chunk size followed -w, and it is stored in the file.
    import hashlib

    args = ["simulate", "mamma-mia", "-p", "4", "-n", "40", "--bots", "random", "--seed", "5", "--json"]
    digests = {}
    for name, extra in (("w1", ["-w", "1"]), ("w2", ["-w", "2"]), ("ray", ["-w", "2", "--backend", "ray"])):
        out = tmp_path / f"{name}.parquet"
        result = runner.invoke(app, [*args, *extra, "--out", str(out)])
        assert result.exit_code == 0, result.output
        digests[name] = hashlib.sha256(out.read_bytes()).hexdigest()
    assert digests["w1"] == digests["w2"] == digests["ray"], digests


def test_resume_names_the_setting_that_differs(tmp_path):
    out = tmp_path / "r.parquet"

    def stop(done: int) -> None:
        if done >= 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        execute(spec(), out=out, progress=stop)
    with pytest.raises(ParlorError, match=r"chunk_size differs: the unfinished run has 3; asked 4") as caught:
        execute(spec(chunk_size=4), out=out, resume=True)
    assert "seed" not in str(caught.value)
    with pytest.raises(ParlorError, match=r"seed differs: the unfinished run has 7; asked 9"):
        execute(spec(seed=9), out=out, resume=True)
    args = ["simulate", "mamma-mia", "-p", "3", "-n", "12", "--bots", "medium,random,random", "--seed", "7"]
    result = runner.invoke(app, [*args, "--chunk-size", "6", "--out", str(out), "--resume"])
    assert result.exit_code == 1, result.output
    assert "chunk_size differs: the unfinished run has 3; asked 6" in result.output, result.output
    assert len(list(out.with_name("r.parquet.parts").glob("chunk-*.parquet"))) == 1  # nothing changed
