"""Records fit for datasets: scenario starts replay exactly; records become learning rows."""

from __future__ import annotations

import json
import random

import pytest

from parlor import games
from parlor.core import RecordError, replay


def canon(obj) -> str:
    return json.dumps(obj, sort_keys=True)


@pytest.mark.parametrize("name", ["mamma-mia", "sweet-nose", "mottainai"])
def test_a_game_started_from_a_scenario_replays_exactly(name):
    game = games.get(name)
    state = game.scenario({"players": 3, "seed": 9})
    rnd = random.Random(4)
    for _ in range(40):
        if state.is_over:
            break
        seat = state.to_move[0]
        state.apply(seat, rnd.choice(state.legal_actions(seat)))
    record = json.loads(json.dumps(state.record()))
    assert record["scenario"] == {"players": 3, "seed": 9}
    assert canon(replay(record).to_json()) == canon(state.to_json())
    # without its scenario the same moves do not give the same game
    without = {k: v for k, v in record.items() if k != "scenario"}
    try:
        other = canon(replay(without).to_json())
    except RecordError:
        other = None
    assert other != canon(state.to_json())
    # a plain game's record has no scenario and replays as before
    plain = game.new_game(3, 9)
    assert "scenario" not in plain.record()
    broken = dict(record, scenario={"players": 99})
    with pytest.raises(RecordError, match="cannot start"):
        replay(broken)


def test_records_become_decision_rows(tmp_path):
    import pyarrow.parquet as pq
    from typer.testing import CliRunner

    from parlor.analysis.records import decision_rows
    from parlor.cli.main import app

    runner = CliRunner()
    rows_file = tmp_path / "games.parquet"
    args = ["simulate", "mamma-mia", "-p", "3", "-n", "3", "--bots", "medium,random", "--records"]
    assert runner.invoke(app, [*args, "--out", str(rows_file)]).exit_code == 0
    out = tmp_path / "data.parquet"
    result = runner.invoke(app, ["dataset", str(rows_file), "--out", str(out)])
    assert result.exit_code == 0, result.output
    table = pq.read_table(out).to_pylist()
    game = games.get("mamma-mia")
    from parlor.analysis.results import read_rows

    played = read_rows(rows_file)
    assert len(table) == sum(r["decisions"] for r in played)
    for row in table[:50]:
        assert row["action"] in row["legal_actions"] and row["num_actions"] == game.num_actions
        view = json.loads(row["observation"])
        assert view  # the seat's own view, as the table shows it
    first_game = [r for r in table if r["record"] == 0]
    outcome = played[0]
    for r in first_game:
        assert r["place"] == outcome["places"][r["seat"]] and r["score"] == outcome["scores"][r["seat"]]
    # the observation is the deciding seat's view: no other seat's hand in it
    record = json.loads(played[0]["record"])
    rows = decision_rows(record)
    state = replay({**record, "actions": record["actions"][:1]})
    assert rows[1]["observation"] == json.dumps(state.view(rows[1]["seat"]), sort_keys=True, ensure_ascii=False)
    # bad input: a file without records, a wrong suffix
    plain = tmp_path / "plain.parquet"
    runner.invoke(app, ["simulate", "mamma-mia", "-p", "3", "-n", "2", "--bots", "random", "--out", str(plain)])
    result = runner.invoke(app, ["dataset", str(plain), "--out", str(tmp_path / "x.parquet")])
    assert result.exit_code == 1 and "--records" in result.output
    result = runner.invoke(app, ["dataset", str(rows_file), "--out", str(tmp_path / "x.csv")])
    assert result.exit_code == 1 and ".parquet" in result.output
