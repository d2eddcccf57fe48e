"""Game review and hints in Debian's Chromium: a game played at a table made with hints on
(the hint button asked once), the review asked for from the result screen, and the replay page's
evaluation graph, labels, verdicts and the hint shown at its step; in two languages and at phone size."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import Server, start_server, stop_server
from .test_replay import open_page

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def review_server() -> Iterator[Server]:
    """A server whose judge searches only a few iterations per decision (the machine is shared)."""
    running = start_server(Path(tempfile.mkdtemp(prefix="parlor-review-")), "--review-budget", "4")
    try:
        yield running
    finally:
        stop_server(running)


def create(server: Server, hints: bool) -> dict[str, Any]:
    body = {
        "game": "mamma-mia",
        "players": 2,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}],
        "hints": hints,
    }
    r = httpx.post(f"{server.base}/api/tables", json=body, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()


def play_to_the_end(page: Any) -> None:
    """Plays the seat's every decision with the first move of its move list, until the result shows. A
    click the table's guard refused (a new position had just been drawn) is made again."""
    while True:
        page.wait_for_selector("#moves.your-turn, #result", timeout=60000)
        if page.locator("#result").count():
            return
        version = page.evaluate("document.body.dataset.version")
        ignored = page.evaluate("document.body.dataset.ignoredClicks || '0'")
        # (every button is disabled only while a move sent waits for its state: the version then changes)
        page.evaluate("document.querySelector('#move-list button.move:not([disabled])')?.click()")
        page.wait_for_function(
            f"document.body.dataset.version !== '{version}' || document.querySelector('#result') !== null"
            f" || (document.body.dataset.ignoredClicks || '0') !== '{ignored}'",
            timeout=60000,
        )


def test_hints_at_the_table_and_the_review_on_the_replay_page(
    review_server: Server, browser: Any, screenshots: Path
) -> None:
    server = review_server
    created = create(server, hints=True)
    table_id = created["table"]["id"]
    context, page, errors = open_page(browser, server.url(created["seats"][0]["join_path"]), ready="body")
    try:
        page.wait_for_selector("#moves.your-turn", timeout=60000)
        hinted_at = int(page.evaluate("document.body.dataset.version"))
        legal = page.locator("#move-list button.move").count()
        page.click("#hint")
        page.wait_for_selector("#hint-moves li", timeout=120000)
        shown = page.locator("#hint-moves li").count()
        assert 1 <= shown <= min(3, legal)
        assert "%" in page.locator("#hint-moves").inner_text()
        page.screenshot(path=str(screenshots / "hint_mamma_mia_en.png"), full_page=True)
        play_to_the_end(page)
        page.wait_for_selector("#result #review-link")
        page.click("#review-link")
        page.wait_for_selector("body[data-ready='1'][data-steps]")
        # Asked for from the result screen: the judge works (a decision at a time), then the graph shows.
        page.wait_for_selector("#review[data-status='done']", timeout=300000)
        token = page.evaluate("new URLSearchParams(location.hash.slice(1)).get('token')")
        review = httpx.get(
            f"{server.base}/api/tables/{table_id}/review", headers={"authorization": f"Bearer {token}"}, timeout=10
        ).json()["review"]
        decisions = review["decisions"]
        assert decisions and review["complete"]
        assert page.locator("#review-graph circle.review-point").count() == len(decisions)
        assert page.locator("#review-decisions li[data-label]").count() == len(decisions)
        labels = [d["label"] for d in decisions]
        assert (
            page.locator("#review-decisions li[data-label]").evaluate_all("els => els.map(e => e.dataset.label)")
            == labels
        )
        assert "Accuracy" in page.locator("#review-summary").inner_text()
        # A point of the graph jumps to its decision, where the verdict is said.
        target = decisions[len(decisions) // 2]
        page.click(f"#review-graph circle[data-step='{target['step']}']")
        page.wait_for_function(f"document.body.dataset.step === '{target['step']}'")
        page.wait_for_selector(f"#review-verdict[data-label='{target['label']}']")
        # A flagged decision names the better move (and marks it on the cards where the board has it).
        flagged = [d for d in decisions if d["label"] in ("inaccuracy", "mistake", "blunder")]
        if flagged:
            page.click(f"#review-decisions li[data-step='{flagged[0]['step']}'] button")
            page.wait_for_function(f"document.body.dataset.step === '{flagged[0]['step']}'")
            page.wait_for_selector("#review-better")
        # The hint asked while playing shows at its step.
        page.evaluate(f"document.querySelector('#replay-slider').value = '{hinted_at}'")
        page.dispatch_event("#replay-slider", "input")
        page.wait_for_function(f"document.body.dataset.step === '{hinted_at}'")
        page.wait_for_selector("#replay-hint li")
        assert page.locator("#replay-hint li").count() == shown
        page.screenshot(path=str(screenshots / "review_mamma_mia_en.png"), full_page=True)
        page.select_option("#lang", "zh-Hant")
        page.wait_for_function("document.documentElement.lang === 'zh-Hant'")
        assert "準確度" in page.locator("#review-summary").inner_text()
        page.screenshot(path=str(screenshots / "review_mamma_mia_zh-Hant.png"), full_page=True)
        assert not errors, errors
        replay_url = page.url
    finally:
        context.close()
    # At phone size, in Czech: the graph fits the screen's width.
    context, page, errors = open_page(browser, replay_url, lang="cs", ready="body", viewport=PHONE)
    try:
        page.wait_for_selector("#review[data-status='done'] #review-graph")
        width = page.evaluate("document.querySelector('#review-graph').getBoundingClientRect().width")
        assert 0 < width <= PHONE["width"]
        assert "Přesnost" in page.locator("#review-summary").inner_text()
        page.screenshot(path=str(screenshots / "review_mamma_mia_cs_phone.png"), full_page=True)
        assert not errors, errors
    finally:
        context.close()


def test_no_hint_button_without_hints_or_for_spectators_and_no_review_for_spectators(
    review_server: Server, browser: Any
) -> None:
    server = review_server
    plain = create(server, hints=False)
    context, page, errors = open_page(browser, server.url(plain["seats"][0]["join_path"]), ready="body")
    try:
        page.wait_for_selector("#moves.your-turn", timeout=60000)
        assert page.locator("#hint").count() == 0
        assert not errors, errors
    finally:
        context.close()
    hinted = create(server, hints=True)
    context, page, errors = open_page(browser, server.url(hinted["spectator_path"]), ready="body")
    try:
        page.wait_for_selector("body[data-version]")
        assert page.locator("#hint").count() == 0
        assert not errors, errors
    finally:
        context.close()
