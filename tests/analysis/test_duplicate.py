"""Duplicate deals: each deal played once per seat rotation, the same cards every time."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from parlor.analysis.results import execute, read_rows, read_spec, write_rows
from parlor.analysis.simulation import RunSpec, play_game
from parlor.analysis.stats import paired_rate, wilson
from parlor.cli.main import app
from parlor.core import ParlorError
from parlor.core.record import replay_iter

runner = CliRunner()


def spec(**changes) -> RunSpec:
    base = dict(
        game="mamma-mia",
        players=3,
        games=12,
        seed=7,
        bots=("medium", "random", "easy"),
        chunk_size=4,
        duplicate=True,
    )
    base.update(changes)
    return RunSpec(**base)


@pytest.mark.parametrize(("name", "players"), [("mamma-mia", 2), ("mottainai", 3), ("sweet-nose", 4)])
def test_every_rotation_of_a_deal_gets_the_same_cards_and_moves_the_bots_one_seat_on(name, players):
    bots = ("medium", "random", "easy", "random")[:players]
    s = spec(game=name, players=players, games=2 * players, bots=bots, records=True)
    rows = [play_game(s, i) for i in range(2 * players)]
    for deal in range(2):
        games = rows[deal * players : (deal + 1) * players]
        # The whole starting state (every hand, the draw pile's order, who starts, the game's
        # generator) is the same in every rotation: the first draws are the same cards.
        starts = [next(replay_iter(json.loads(r["record"]))).to_json() for r in games]
        assert all(start == starts[0] for start in starts), name
        assert len({r["seed"] for r in games}) == 1
        for rotation, r in enumerate(games):
            assert (r["deal"], r["rotation"]) == (deal, rotation)
            record = json.loads(r["record"])
            assert (record["deal"], record["rotation"]) == (deal, rotation)
            # the bot at seat i of the base lineup sits at seat (i + rotation) mod players
            assert [r["bots"][(i + rotation) % players] for i in range(players)] == list(bots)
    first, second = (next(replay_iter(json.loads(rows[d * players]["record"]))).to_json() for d in range(2))
    assert first != second  # another deal, other cards


def test_a_bot_keeps_its_own_seed_in_every_seat_of_a_deal():
    s = spec()
    for deal in range(2):
        base = s.bot_seeds(deal * 3)
        for rotation in range(3):
            seeds = s.bot_seeds(deal * 3 + rotation)
            assert [seeds[(i + rotation) % 3] for i in range(3)] == base
    assert s.bot_seeds(0) != s.bot_seeds(3)  # a new deal, new streams
    # Without duplicate deals every game keeps the seeds it always had.
    plain = spec(duplicate=False)
    assert play_game(plain, 5)["seed"] == plain.deal_seed(5) != plain.deal_seed(4)


def test_duplicate_files_are_the_same_bytes_at_any_worker_count(tmp_path):
    one, two = tmp_path / "one.parquet", tmp_path / "two.parquet"
    execute(spec(), out=one)
    execute(spec(), out=two, backend="processes", workers=2)
    assert one.read_bytes() == two.read_bytes()
    assert read_spec(one) == spec()
    rows = read_rows(one)
    assert [(r["deal"], r["rotation"]) for r in rows] == [(d, r) for d in range(4) for r in range(3)]
    for suffix in ("csv", "jsonl"):
        write_rows(rows, tmp_path / f"r.{suffix}")
        again = read_rows(tmp_path / f"r.{suffix}")
        assert [(r["deal"], r["rotation"], r["places"]) for r in again] == [
            (r["deal"], r["rotation"], r["places"]) for r in rows
        ], suffix
    # A run without duplicate deals keeps its columns and spec (the files it always wrote).
    plain = tmp_path / "plain.parquet"
    execute(spec(duplicate=False), out=plain)
    assert "deal" not in read_rows(plain)[0] and "duplicate" not in spec(duplicate=False).to_json()


def test_cli_duplicate_tournament_is_the_same_at_one_or_two_workers(tmp_path):
    args = ["tournament", "sweet-nose", "-p", "3", "--bots", "medium,random", "-n", "12", "--duplicate", "--json"]
    outputs = {}
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}.jsonl"
        result = runner.invoke(app, [*args, "-w", workers, "--out", str(out)])
        assert result.exit_code == 0, result.output
        outputs[workers] = out.read_bytes()
        report = json.loads(result.stdout)
    assert outputs["1"] == outputs["2"]
    assert report["duplicate"] and report["ladder"][0]["deals"] == 4
    rows = read_rows(tmp_path / "w1.jsonl")
    assert [(r["deal"], r["rotation"]) for r in rows] == [(d, r) for d in range(4) for r in range(3)]


def test_a_duplicate_run_resumes_and_refuses_other_settings(tmp_path):
    out = tmp_path / "r.parquet"

    def stop(done: int) -> None:
        if done >= 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        execute(spec(), out=out, progress=stop)
    parts = out.with_name("r.parquet.parts")
    kept = sorted(parts.glob("chunk-*.parquet"))
    assert len(kept) == 1
    with pytest.raises(ParlorError, match="duplicate differs: the unfinished run has yes; asked no"):
        execute(spec(duplicate=False), out=out, resume=True)
    assert sorted(parts.glob("chunk-*.parquet")) == kept  # refused: nothing changed
    progress: list[int] = []
    execute(spec(), out=out, resume=True, progress=progress.append)
    assert progress == [4, 8, 12]
    fresh = tmp_path / "fresh.parquet"
    execute(spec(), out=fresh)
    assert out.read_bytes() == fresh.read_bytes()
    # A finished file is this run or names what differs; JSON Lines keep no spec: the rows tell.
    rows_file = tmp_path / "r.jsonl"
    execute(spec(), out=rows_file)
    with pytest.raises(ParlorError, match="duplicate differs: file has yes; asked no"):
        execute(spec(duplicate=False), out=rows_file, resume=True)
    assert len(execute(spec(), out=rows_file, resume=True)) == 12


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (["simulate", "mamma-mia", "-p", "3", "-n", "7"], "--games must be a multiple of 3, got 7 (use 6 or 9)"),
        (["simulate", "mamma-mia", "-p", "3", "-n", "2"], "--games must be a multiple of 3, got 2 (use 3)"),
        (["simulate", "mamma-mia", "-p", "2", "-n", "4", "--no-rotate"], "drop --no-rotate"),
        (["tournament", "mamma-mia", "-p", "2", "--bots", "medium,random", "-n", "5"], "a multiple of 2, got 5"),
    ],
)
def test_a_game_count_that_splits_a_deal_is_refused_in_one_line(tmp_path, command, message):
    out = tmp_path / "r.parquet"
    result = runner.invoke(app, [*command, "--duplicate", "--out", str(out)])
    assert result.exit_code == 1, result.output
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1, result.output
    assert not out.exists() and not out.with_name("r.parquet.parts").exists()


def test_paired_rate_takes_the_interval_over_deals():
    # Two rotations per deal; the seat decides most games, so each deal splits 1 / 0 or agrees.
    deals = [[1.0, 0.0]] * 30 + [[1.0, 1.0]] * 10
    found = paired_rate(deals)
    means = [0.5] * 30 + [1.0] * 10
    share = sum(means) / 40
    variance = sum((x - share) ** 2 for x in means) / 39
    effective = 40 * share * (1 - share) / variance
    assert found["rate"] == share and found["deals"] == 40 and found["games"] == 80
    assert found["effective_games"] == pytest.approx(effective)
    assert found["ci95"] == pytest.approx(list(wilson(share * effective, effective)))
    assert found["ci95_unpaired"] == pytest.approx(list(wilson(50, 80)))  # the games as if independent
    width = found["ci95"][1] - found["ci95"][0]
    assert width < 0.7 * (found["ci95_unpaired"][1] - found["ci95_unpaired"][0])  # the seat's luck cancels
    # A bot that wins every game: no spread, as many effective games as games (not just deals).
    assert paired_rate([[1.0, 1.0]] * 10)["ci95"] == pytest.approx(list(wilson(20, 20)))


def test_duplicate_simulate_reports_win_rates_over_deals():
    args = ["simulate", "mamma-mia", "-p", "2", "-n", "8", "--bots", "medium,random", "--duplicate", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["duplicate"]
    medium = report["per_bot"][0]["win_rate_paired"]
    assert medium["deals"] == 4 and medium["games"] == 8
    text = runner.invoke(app, args[:-1])
    assert text.exit_code == 0 and "4 deals x 2 seat rotations" in text.output
