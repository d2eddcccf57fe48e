"""The review queue on the replay page, in Debian's Chromium: a signed-in player whose review waits for
the judge (another player's review holds the only review worker) sees its place in the queue, in the
four languages; asking sends the page's CSRF token (the session cookie goes along)."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import httpx

from tests.server.test_review_queue import finished_seats

from .conftest import start_server, stop_server

QUEUED_WORDS = {"en": "number 1 in the queue", "cs": "1. ve frontě", "ja": "1 番目", "zh-Hant": "第 1 位"}


def test_the_replay_page_shows_the_review_s_place_in_the_queue(browser: Any, screenshots: Path, tmp_path: Path) -> None:
    # One review worker, and a judge that takes far longer per decision than this test lasts.
    server = start_server(tmp_path, "--review-budget", "1000000", "--review-workers", "1")
    try:
        (first_table, first_token), (table_id, token), *_ = finished_seats(server.base)
        running = httpx.post(
            f"{server.base}/api/tables/{first_table}/review",
            headers={"authorization": f"Bearer {first_token}"},
            timeout=30,
        )
        assert running.status_code == 200 and running.json()["status"] == "working", running.text
        context = browser.new_context()
        context.add_init_script("localStorage.setItem('parlor.lang', 'en')")
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        try:
            # Signed in (the browser's own cookies): its review is asked for with its CSRF token.
            csrf = page.request.get(f"{server.base}/api/account").json()["csrf"]
            signed = page.request.post(
                f"{server.base}/api/account/sign-up",
                data={"name": "q" + uuid.uuid4().hex[:8], "password": "correct horse"},
                headers={"x-csrf-token": csrf, "content-type": "application/json"},
            )
            assert signed.status == 201, signed.text()
            page.goto(server.url(f"/replay/{table_id}#token={token}&review=1"))
            page.wait_for_selector("#review[data-status='queued'] #review-queued", timeout=60000)
            assert QUEUED_WORDS["en"] in page.locator("#review-queued").inner_text()
            page.screenshot(path=str(screenshots / "review_queued_en.png"), full_page=True)
            for lang in ("cs", "ja", "zh-Hant"):
                page.select_option("#lang", lang)
                page.wait_for_function(f"document.documentElement.lang === '{lang}'")
                page.wait_for_function(
                    "([words]) => (document.querySelector('#review-queued') || {}).textContent?.includes(words)",
                    arg=[QUEUED_WORDS[lang]],
                )
            status = httpx.get(
                f"{server.base}/api/tables/{table_id}/review", headers={"authorization": f"Bearer {token}"}, timeout=30
            ).json()
            assert (status["status"], status["position"]) == ("queued", 1)
            assert not errors, errors
        finally:
            context.close()
    finally:
        stop_server(server)
