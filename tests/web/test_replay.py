"""The replay page (/replay/<table>) in Debian's Chromium: a finished Mamma Mia! game stepped through
with the buttons and the arrow keys, the result at the last step, the link from the table page's result
screen, and the message for a game that is not over."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx

from .conftest import Server, finish_over_the_api

DESKTOP = {"width": 1280, "height": 900}


def finished_table(server: Server, game: str = "mamma-mia", players: int = 3) -> dict[str, Any]:
    created = server.create(game, players, [{"kind": "bot", "level": "random"} for _ in range(players)])
    table_id = created["table"]["id"]
    deadline = time.monotonic() + 300
    while True:
        summary = httpx.get(f"{server.base}/api/tables/{table_id}", timeout=60).json()
        if summary["status"] == "over":
            return created
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.1)


def open_page(
    browser: Any,
    url: str,
    lang: str = "en",
    ready: str = "body[data-ready='1']",
    viewport: dict[str, int] = DESKTOP,
) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport=viewport)
    context.add_init_script(f"localStorage.setItem('parlor.lang', '{lang}')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    page.wait_for_selector(ready)
    return context, page, errors


def step_of(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.step"))


def test_replay_of_a_finished_mamma_mia_game(server: Server, browser: Any, screenshots: Path) -> None:
    created = finished_table(server)
    table_id = created["table"]["id"]
    steps = len(httpx.get(f"{server.base}/api/tables/{table_id}/replay", timeout=60).json()["steps"])
    assert steps > 10
    context, page, errors = open_page(browser, f"{server.base}/replay/{table_id}")
    try:
        assert page.evaluate("document.body.dataset.steps") == str(steps)
        assert step_of(page) == 0
        assert page.locator("#step-counter").inner_text() == f"Step 0 of {steps - 1}"
        assert page.locator("#replay-back").is_disabled() and page.locator("#replay-first").is_disabled()
        assert page.locator(".board").count() == 1 and page.locator("#result").count() == 0
        assert page.locator("#to-move").count() == 1
        # Three bots of one level are told apart by their seats (three "Bot (random)" could not be).
        names = page.locator(".seat-name").all_inner_texts()
        assert names == ["Bot 1 (random)", "Bot 2 (random)", "Bot 3 (random)"], names

        page.click("#replay-forward")
        page.wait_for_function("document.body.dataset.step === '1'")
        assert page.locator("#step-counter").inner_text() == f"Step 1 of {steps - 1}"
        page.keyboard.press("ArrowRight")
        page.wait_for_function("document.body.dataset.step === '2'")
        page.keyboard.press("ArrowLeft")
        page.wait_for_function("document.body.dataset.step === '1'")
        page.click("#replay-back")
        page.wait_for_function("document.body.dataset.step === '0'")

        # Some step shows its events in words (not the raw event names).
        for _ in range(min(steps - 1, 40)):
            page.click("#replay-forward")
            if page.locator("#step-events li.ev").count():
                break
        assert page.locator("#step-events li.ev").count() > 0
        assert "_" not in page.locator("#step-events").inner_text()

        page.click("#replay-last")
        page.wait_for_function(f"document.body.dataset.step === '{steps - 1}'")
        page.wait_for_selector("#result")
        assert page.locator("#result .result-table tbody tr").count() == 3
        assert page.locator("#result tr.winner").count() >= 1
        assert page.locator("#replay-forward").is_disabled() and page.locator("#replay-last").is_disabled()
        assert page.locator("#to-move").count() == 0
        page.screenshot(path=str(screenshots / "replay_mamma_mia_en.png"), full_page=True)
        assert (screenshots / "replay_mamma_mia_en.png").stat().st_size > 10_000

        page.keyboard.press("Home")
        page.wait_for_function("document.body.dataset.step === '0'")
        page.keyboard.press("End")
        page.wait_for_function(f"document.body.dataset.step === '{steps - 1}'")

        # The page speaks the chosen language.
        page.select_option("#lang", "cs")
        page.wait_for_function("document.documentElement.lang === 'cs'")
        assert page.locator("#step-counter").inner_text() == f"Krok {steps - 1} z {steps - 1}"
        assert not errors, errors
    finally:
        context.close()

    # The table page's result screen links to the replay.
    context, page, errors = open_page(browser, server.url(created["spectator_path"]), ready="body[data-version]")
    try:
        page.wait_for_selector("#result #replay-link")
        assert page.locator("#replay-link").get_attribute("href") == f"/replay/{table_id}"
        page.click("#replay-link")
        page.wait_for_selector("body[data-ready='1'][data-steps]")
        assert step_of(page) == 0
        assert not errors, errors
    finally:
        context.close()


def test_replay_page_of_a_game_in_progress(server: Server, browser: Any) -> None:
    created = server.create("mamma-mia", 3, [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}])
    context, page, errors = open_page(browser, f"{server.base}/replay/{created['table']['id']}", lang="ja")
    try:
        page.wait_for_selector(".error-box")
        assert "リプレイは終了後" in page.locator(".error-box").inner_text()
        assert not errors, errors
    finally:
        context.close()


# What a finger can touch on the replay page, as tests/web/test_phone.py counts it at the table.
TOUCHABLE_UNDER_44 = """() => {
  const touchable = "button, a[href], select, input, textarea, summary, [role=button], [role=tab], "
    + "[tabindex]:not([tabindex='-1'])";
  const small = [];
  for (const el of document.querySelectorAll(touchable)) {
    if (!el.checkVisibility()) continue;
    const r = el.getBoundingClientRect();
    const size = `${Math.round(r.width)}x${Math.round(r.height)}`;
    if (r.width < 43.5 || r.height < 43.5) small.push(`${size} ${el.outerHTML.slice(0, 90)}`);
  }
  return small;
}"""


def test_replay_on_a_phone_touch_targets_and_card_texts(server: Server, browser: Any, screenshots: Path) -> None:
    """A seat's replay of a Mottainai game on a phone, in Traditional Chinese: every control a finger
    touches is at least 44x44 px (the cards' 16 px ⓘ is not drawn, "review my decisions" is full
    height), the language menu is not cut, and a tap on a card opens its text."""
    created = server.create("mottainai", 2, [{"kind": "human"}, {"kind": "bot", "level": "random"}])
    table_id = created["table"]["id"]
    claimed = httpx.post(
        f"{server.base}/api/tables/{table_id}/claim", json={"claim": created["seats"][0]["claim"]}, timeout=60
    )
    token = claimed.json()["token"]
    finish_over_the_api(server, table_id, [token])
    phone = {"width": 390, "height": 844}
    context, page, errors = open_page(
        browser, f"{server.base}/replay/{table_id}?anim=0#token={token}", "zh-Hant", viewport=phone
    )
    try:
        page.wait_for_selector("#review-ask")
        steps = int(page.evaluate("document.body.dataset.steps"))
        for _ in range(steps // 2):  # the middle of the game: cards on the floor, in hands and temples
            page.keyboard.press("ArrowRight")
        page.wait_for_function(f"document.body.dataset.step === '{steps // 2}'")
        assert page.locator(".mt-card[data-open-key]").count() > 0
        # The top bar's language menu shows its whole language (the game's name gives way instead).
        drawn, whole = page.evaluate("""() => {
          const menu = document.getElementById("lang"), drawn = menu.getBoundingClientRect().width;
          menu.style.cssText = "width: max-content; max-width: none; flex: none"; // (as wide as its words)
          const whole = menu.getBoundingClientRect().width;
          menu.style.cssText = "";
          return [drawn, whole];
        }""")
        assert drawn >= whole - 0.5, f"the language menu is cut: {drawn} px of {whole}"
        small = page.evaluate(TOUCHABLE_UNDER_44)
        if small:
            page.screenshot(path=str(screenshots / "replay_phone_small_targets.png"), full_page=True)
        assert not small, f"touch targets under 44x44 px on the phone's replay: {small[:6]}"

        card = page.locator(".mt-card[data-open-key]").first
        card.scroll_into_view_if_needed()
        card.click()
        page.wait_for_function(
            "document.querySelector('.mt-card[data-open-key]').getAttribute('aria-expanded') === 'true'"
        )
        assert card.locator(".mt-effect").is_visible()
        assert not errors, errors
    finally:
        context.close()
