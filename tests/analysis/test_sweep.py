"""Rule sweeps and user metrics in ``parlor analyze``."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from parlor.cli.main import app

runner = CliRunner()

USER_METRICS = """
class Metrics:
    def __init__(self, state):
        self.first = None

    def observe(self, seat, action, events):
        if self.first is None:
            self.first = seat

    def finish(self, state):
        won = int(self.first in state.result().winners)
        return {"values": {"my_decisions_seen": 1}, "rates": {"my_first_mover_won": [won, 1]}}
"""


def test_a_sweep_grid_compares_every_variant_with_the_baseline_and_user_metrics_show(tmp_path):
    mine = tmp_path / "my_metrics.py"
    mine.write_text(USER_METRICS)
    report = tmp_path / "report"
    args = ["analyze", "mamma-mia", "-p", "2", "-n", "8", "--bots", "random", "--report", str(report)]
    args += ["--sweep", "ruleset=revised,cs1999", "--sweep", "show_oven_history=true,false", "--metrics", str(mine)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads((report / "data" / "mamma-mia-2p-summary.json").read_text())
    changed = [v["changed"] for v in data["sweep"]]
    assert len(changed) == 4  # the grid: 2 x 2, in order
    assert [c.get("ruleset", "revised") for c in changed] == ["revised", "revised", "cs1999", "cs1999"]
    assert [c.get("show_oven_history", False) for c in changed] == [True, False, True, False]
    assert changed[1] == {}  # the defaults: the baseline itself
    for v in data["sweep"]:
        comparison = v["comparison"]
        assert comparison["games"] == [8, 8] and len(comparison["ties"]["ci95"]) == 2
    for label in ("V1", "V2", "V3", "V4"):
        assert (report / "data" / f"mamma-mia-2p-{label}.parquet").exists()
    page = (report / "index.html").read_text()
    assert "Sweep, 2 players" in page and page.count("<code>") >= 4 and "--sweep" in page
    assert data["summary"]["metrics"]["rates"]["my_first_mover_won"]["n"] == 8
    assert "my_decisions_seen" in data["summary"]["metrics"]["values"]
    assert any(k.startswith("completion:") for k in data["summary"]["metrics"]["rates"])  # the game's own too


def test_bad_sweeps_and_metrics_are_refused_before_any_game(tmp_path):
    base = ["analyze", "mamma-mia", "-p", "2", "-n", "4", "--bots", "random"]
    for extra, message in (
        (["--sweep", "ruleset"], "--sweep must look like"),
        (["--sweep", "no_such_option=1,2"], "no_such_option"),
        (["--metrics", str(tmp_path / "missing.py")], "no such file"),
    ):
        out = tmp_path / f"r{len(extra[1])}"
        result = runner.invoke(app, [*base, "--report", str(out), *extra])
        assert result.exit_code == 1 and message in result.output, (extra, result.output)
        assert not out.exists() or not any(out.iterdir())


def test_a_seat_option_is_swept_and_shown_from_1_as_typed(tmp_path):
    # --sweep reads values as --option does: a person's seats count from 1, the data's from 0
    report = tmp_path / "report"
    args = ["analyze", "mamma-mia", "-p", "2", "-n", "4", "--bots", "random", "--report", str(report)]
    result = runner.invoke(app, [*args, "--sweep", "start_player=1,2"])
    assert result.exit_code == 0, result.output
    data = json.loads((report / "data" / "mamma-mia-2p-summary.json").read_text())
    assert [v["changed"] for v in data["sweep"]] == [{"start_player": 0}, {"start_player": 1}]
    page = (report / "index.html").read_text()
    assert "<code>start_player=1</code>" in page and "<code>start_player=2</code>" in page
    assert "start_player=0" not in page
    refused = runner.invoke(app, [*args[:-1], str(tmp_path / "r2"), "--sweep", "start_player=0,1"])
    assert refused.exit_code == 1 and "seats count from 1" in refused.output
    assert not (tmp_path / "r2").exists()
