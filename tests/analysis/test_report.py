"""`parlor analyze` writes a report that a real browser (Debian's Chromium) shows whole."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from parlor.cli.main import app
from tests.web.conftest import SCREENSHOTS, launch_chromium

runner = CliRunner()


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("report") / "mamma-mia"
    args = ["analyze", "mamma-mia", "--players", "2..3", "--bots", "medium,random", "-n", "12", "--seed", "5"]
    result = runner.invoke(app, [*args, "--against", "ruleset=cs1999", "--report", str(folder)])
    assert result.exit_code == 0, result.output
    return folder


def test_the_report_opens_in_chromium_with_its_tables_plots_and_provenance(report):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = launch_chromium(p)
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        page.goto((report / "index.html").as_uri())
        assert page.title() == "Mamma Mia! balance report"
        assert page.locator("section h2").all_inner_texts() == ["2 players", "3 players"]
        # every plot loaded as a real image
        images = page.locator("img")
        assert images.count() >= 8
        widths = page.eval_on_selector_all("img", "imgs => imgs.map(i => i.complete ? i.naturalWidth : 0)")
        assert all(w > 100 for w in widths), widths
        # rates with intervals, the comparison, the game's own rates
        positions = page.locator("section#p3 table.positions tbody tr")
        assert positions.count() == 3
        assert "[" in positions.first.inner_text() and "%" in positions.first.inner_text()
        assert page.locator("section#p2 table.comparison").count() == 1
        assert "completion_kind:normal" in page.locator("section#p2 table.rates").inner_text()
        # provenance: the exact command, the versions, links to the data that made the page
        command = page.locator("#command").inner_text()
        assert command.startswith("parlor analyze mamma-mia --players 2..3 --bots medium,random --games 12 --seed 5")
        assert "--against ruleset=cs1999" in command
        versions = page.locator("#versions").inner_text()
        assert "parlor" in versions and "pyarrow" in versions and "matplotlib" in versions
        links = page.eval_on_selector_all("#data a", "as => as.map(a => a.getAttribute('href'))")
        assert "data/mamma-mia-2p.parquet" in links and "data/mamma-mia-3p-B.parquet" in links
        for link in links:
            assert (report / link).is_file()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "analyze-report.png"), full_page=False)
        browser.close()


def test_the_report_numbers_are_the_data_files_numbers(report):
    from parlor.analysis.results import read_rows

    rows = read_rows(report / "data" / "mamma-mia-3p.parquet")
    assert len(rows) == 12
    summary = json.loads((report / "data" / "mamma-mia-3p-summary.json").read_text())["summary"]
    first = sum(1 / len(r["winners"]) for r in rows for s in r["winners"] if r["turn_position"][s] == 0)
    assert summary["by_turn_position"][0]["wins"]["count"] == pytest.approx(first)


def test_analyze_refuses_bad_input_and_a_used_folder(report, tmp_path):
    for args, message in (
        (["--players", "1..3"], "2-5 players"),
        (["--players", "two"], "--players must look like"),
        (["--workers", "0"], "--workers must be at least 1"),
        (["--option", "nope=1"], "unknown rule option"),
    ):
        result = runner.invoke(app, ["analyze", "mamma-mia", "-n", "2", "--report", str(tmp_path / "r"), *args])
        assert result.exit_code == 1 and message in result.output, (args, result.output)
        assert not (tmp_path / "r").exists()
    result = runner.invoke(app, ["analyze", "mamma-mia", "-p", "2", "-n", "2", "--report", str(report)])
    assert result.exit_code == 1 and "not empty" in result.output


def test_the_rates_plot_shows_every_rate(report):
    # The plot used to keep the 20 rates with the most trials, dropping rows at 3 players
    page = (report / "index.html").read_text()
    for n in (2, 3):
        summary = json.loads((report / "data" / f"mamma-mia-{n}p-summary.json").read_text())["summary"]
        rates = summary["metrics"]["rates"]
        assert html.escape(f"Every one of the game's {len(rates)} rates, {n} players") in page
    assert len(rates) > 20
