"""The browser front end, end to end: the real server, Debian's Chromium, Python Playwright.

Two humans and a bot play whole games by clicking the legal-move buttons; the other seat and a
spectator never receive seat 0's hidden cards (DOM and WebSocket frames); a reload reconnects to the
same seat; each game's table is photographed in the four languages (artifacts/screenshots/).
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from ..frames import apply_state
from .conftest import SCREENSHOTS, Server

LANGS = ["en", "zh-Hant", "ja", "cs"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
# The outer limit for a whole game played by clicking: only a game that never ends reaches it (a
# loaded 2-core machine needed several times the quiet machine's minute).
GAME_LIMIT = 600.0


class Seat:
    """One browser context on one seat (or the spectator), with the WebSocket frames it received."""

    def __init__(
        self,
        browser: Any,
        url: str,
        viewport: dict[str, int] = DESKTOP,
        lang: str = "en",
        reduced_motion: str = "no-preference",
        init_script: str = "",
        touch: bool = False,
        service_workers: str = "block",
    ) -> None:
        self.context = browser.new_context(
            viewport=viewport, reduced_motion=reduced_motion, has_touch=touch, service_workers=service_workers
        )
        self.context.add_init_script(
            f"localStorage.getItem('parlor.lang') || localStorage.setItem('parlor.lang', '{lang}')"
        )
        if init_script:
            self.context.add_init_script(init_script)
        self.frames: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.open(url)

    def open(self, url: str) -> None:
        """Opens ``url`` in a new page (tab) of the context, listened to: its frames and errors are kept."""
        self.page = self.context.new_page()
        self.page.on("websocket", self._socket)
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.goto(url)
        self.page.wait_for_selector("body[data-version]")

    def leave(self) -> str:
        """Closes the seat's page (its connection ends); returns its address, with the seat's token."""
        url = self.page.url
        self.page.close()
        return url

    def _socket(self, ws: Any) -> None:
        whole: list[dict[str, Any] | None] = [None]  # this socket's last state: the base of its next delta

        def received(payload: Any) -> None:
            text = payload if isinstance(payload, str) else bytes(payload).decode()
            frame = json.loads(text)
            if frame.get("type") == "state":  # a delta is kept as the whole state it gives
                frame = whole[0] = apply_state(whole[0], frame)
            self.frames.append(frame)

        ws.on("framereceived", received)

    def states(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f.get("type") == "state"]

    def version(self) -> str:
        return self.page.evaluate("document.body.dataset.version || ''")

    def over(self) -> bool:
        return self.page.evaluate("document.body.dataset.over === '1'") and self.page.locator("#result").count() > 0

    def close(self) -> None:
        self.context.close()


YOUR_TURN_OR_OVER = "document.body.dataset.yourTurn === '1' || document.body.dataset.over === '1'"


def play_moves(seat: Seat, rng: random.Random, count: int) -> int:
    """Plays ``count`` of the seat's moves (fewer if the game ends first), each once it is the seat's
    turn: the bots' moves in between take as long as they take. Returns the moves played."""
    played = 0
    while played < count and not seat.over():
        seat.page.wait_for_function(YOUR_TURN_OR_OVER)
        if click_one(seat, rng):
            played += 1
    return played


def settled(page: Any, predicate: str, arg: Any = None) -> bool:
    """Waits (up to the browser's patience, conftest.PATIENCE_MS) until ``predicate``, a JS function
    of ``arg``, holds; False if it never did, so that the caller's own assert says what is wrong."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        page.wait_for_function(predicate, arg=arg)
    except PlaywrightTimeoutError:
        return False
    return True


def click_one(seat: Seat, rng: random.Random) -> bool:
    """Clicks one enabled legal-move button of the sentence list (if any) and waits for the state it causes."""
    seat.page.evaluate("(() => { const d = document.getElementById('move-list'); if (d && !d.open) d.open = true; })()")
    buttons = seat.page.locator("button.move:not([disabled])")
    n = buttons.count()
    if not n:
        return False
    before = seat.version()
    ignored = seat.page.evaluate("document.body.dataset.ignoredClicks || '0'")
    try:
        buttons.nth(rng.randrange(n)).click(timeout=3000)
    except Exception:  # the buttons were redrawn under the pointer (a bot moved): try again
        return False
    # The state the move causes, or the click guard's refusal (a bot's move was just drawn): try again.
    seat.page.wait_for_function(
        f"document.body.dataset.version !== '{before}' || (document.body.dataset.ignoredClicks || '0') !== '{ignored}'"
    )
    return seat.version() != before


def play_to_the_end(seats: list[Seat], rng: random.Random, limit: float = GAME_LIMIT) -> int:
    start = time.monotonic()
    clicks = 0
    while not all(s.over() for s in seats):
        assert time.monotonic() - start < limit, f"the game did not end within {limit}s ({clicks} clicks)"
        moved = False
        for s in seats:
            if click_one(s, rng):
                clicks += 1
                moved = True
        if not moved:
            time.sleep(0.05)
    return clicks


def check_no_private(observer: Seat, seat: int = 0) -> None:
    """Nothing private to ``seat`` in the frames an observer (another seat or the spectator) received."""
    me = None if observer.frames[0].get("role") == "spectator" else observer.frames[0]["seat"]
    assert observer.states(), "no state frame received"
    for frame in observer.frames:
        if frame.get("type") != "state":
            continue
        for p in frame["view"]["players_info"]:
            if p["seat"] != me:
                assert "hand" not in p, f"{observer.page.url}: a state frame holds seat {p['seat']}'s hand"
                if frame["view"]["game"] == "sweet-nose" and not frame["view"]["revealed"]:
                    assert p["sweetness"] is None, f"seat {p['seat']}'s sweetness cards leaked before the reveal"
        for ev in frame["events"]:
            vis = ev.get("visible_to")
            assert vis is None or vis == [me], f"a private event of {vis} reached seat {me}: {ev}"
            if vis is not None:
                assert ev["data"].get("seat", me) == me, ev


# The score breakdown inside the result (the dialog cuts off what sticks out: a column could be lost
# unseen), and the words of its headings cut in two between lines ("Celk|em"); a soft hyphen's break
# is a break between words' parts, and a script written without spaces breaks anywhere.
BREAKDOWN_FIT = """() => {
  const table = document.querySelector("#result #breakdown");
  const box = document.getElementById("result").getBoundingClientRect(), t = table.getBoundingClientRect();
  const cut = [];
  for (const th of table.querySelectorAll("th")) {
    const walk = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      // the line of a letter (a range that starts a line also names the end of the line before)
      const lineOf = (i) => {
        const r = document.createRange();
        r.setStart(n, i);
        r.setEnd(n, i + 1);
        return Math.round(Array.from(r.getClientRects()).at(-1).top);
      };
      for (const m of n.nodeValue.matchAll(/\\p{Script=Latin}+/gu)) {
        if (lineOf(m.index) !== lineOf(m.index + m[0].length - 1)) cut.push(m[0]);  // first and last letter
      }
    }
  }
  const wider = t.left < box.left - 1 || t.right > box.right + 1;
  return { wider: wider ? [t.left, t.right, box.left, box.right] : null, cut };
}"""


def check_result(seat: Seat) -> None:
    """The end of the game: a dialog in front, focused, announced, with the breakdown (whole in it, no
    heading's word cut in two) and the ways on."""
    page = seat.page
    page.wait_for_selector("#result-dialog[open] #result")
    assert page.evaluate("document.getElementById('result-dialog').matches(':modal')")
    focused = page.evaluate("document.getElementById('result-dialog').contains(document.activeElement)")
    assert focused, "the focus is not in the result"
    title = page.locator("#result-title").inner_text()
    assert title and title in page.locator("#announce").inner_text(), "the end was not announced"
    box = page.locator("#result").bounding_box()
    size = page.viewport_size
    assert box and box["y"] >= 0 and box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 1, box
    assert page.locator("#result #breakdown").count() == 1
    fit = page.evaluate(BREAKDOWN_FIT)
    if fit["wider"] or fit["cut"]:  # what it looked like
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "result_failed.png"))
    assert not fit["wider"], f"the breakdown sticks out of the result: {fit['wider']}"
    assert not fit["cut"], f"words cut in two in the breakdown's headings: {fit['cut']}"
    if seat.frames[0].get("role") == "seat":
        assert page.locator("#result #play-again").is_visible()
    assert page.locator("#result #replay-link").is_visible()


def phone_view(page: Any, out: Path) -> None:
    """What a phone shows: one screen that does not scroll, the table above and your hand docked at
    the bottom with the move panel; on your turn the hand and Confirm are both on it."""
    height = page.viewport_size["height"]
    assert page.evaluate("document.scrollingElement.scrollHeight") <= height + 1, "the phone's page scrolls"
    if page.evaluate("document.body.dataset.yourTurn") == "1":
        hand = page.locator("#moves #my-hand")
        confirm = page.locator("#moves [data-act=confirm]").first
        for what in ([hand] if hand.count() else []) + [confirm]:
            box = what.bounding_box()
            assert box and box["y"] >= 0 and box["y"] + box["height"] <= height + 1, box
    page.screenshot(path=str(out))


def full_page_shot(page: Any, out: Path) -> None:
    """A full-page screenshot from the top (a scrolled page would draw the sticky top bar mid-page)."""
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(out), full_page=True)


@pytest.fixture()
def rng() -> random.Random:
    return random.Random(7)


# ---------------------------------------------------------------------------- the lobby
def test_lobby_creates_a_table_with_links(server: Server, browser: Any) -> None:
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("button.game-pick[data-game=mamma-mia]")
    page.click("button.game-pick[data-game=mamma-mia]")
    page.select_option("#players", "3")
    page.select_option("select[name=seat-1-kind]", "human")
    page.select_option("select[name=seat-2-level]", "hard")
    page.fill("input[name=seat-0-name]", "Ann")
    page.click("#create")
    page.wait_for_selector(".created")
    assert page.locator(".seat-link").count() == 2
    assert page.locator(".spectator-link").count() == 1
    href = page.locator(".seat-link a.join-link").first.get_attribute("href")
    assert href.startswith("/play/") and "#claim=" in href  # a one-time link: the seat's token is never shown
    table_id = href.split("/")[2].split("#")[0]
    page.goto(server.base + href)
    page.wait_for_selector("body[data-version]")
    assert page.evaluate("document.body.dataset.role") == "seat"
    seats = page.locator(".seat-strip, .pchips").inner_text()  # the players' chips (.pchips on a phone)
    assert "Ann" in seats or "You" in seats
    summary = page.request.get(f"{server.base}/api/tables/{table_id}").json()
    assert [s["kind"] for s in summary["seats"]] == ["human", "human", "bot"]
    assert summary["seats"][2]["level"] == "hard"
    ctx.close()


# ---------------------------------------------------------------------------- Mamma Mia!
def test_mamma_mia_whole_game_hidden_cards_and_reload(server: Server, browser: Any, rng: random.Random) -> None:
    table = server.create("mamma-mia", 3, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}])
    seat0 = Seat(browser, server.url(table["seats"][0]["join_path"]))
    seat1 = Seat(browser, server.url(table["seats"][1]["join_path"]), viewport=PHONE)
    spectator = Seat(browser, server.url(table["spectator_path"]))
    try:
        # Seat 0's hand, from its own first frame; at the start none of its orders is public anywhere else.
        hand = seat0.states()[0]["view"]["players_info"][0]["hand"]
        assert hand["orders"], "seat 0 was dealt no order?"
        seat0.page.wait_for_selector("#my-hand")
        for o in hand["orders"]:
            assert seat0.page.locator(f"#my-hand [data-order='{o}']").count() >= 1
        for other in (seat1, spectator):
            first = json.dumps(other.states()[0])
            for o in hand["orders"]:
                assert o not in first, f"seat 0's order {o} is in another seat's first state frame"
            html = other.page.content()
            text = other.page.locator("body").inner_text()
            for o in hand["orders"]:
                assert o not in html, f"seat 0's order {o} is in another page's DOM"
                label = seat0.page.locator(f"#my-hand [data-order='{o}'] .card-name").first.inner_text()
                assert label not in text or label.startswith(("Mixed", "Bombastica", "Monotoni", "Minimale"))
        assert spectator.page.locator("#my-hand").count() == 0
        assert spectator.page.locator("button.move").count() == 0

        # Play a while, then reload seat 1: it comes back on the same seat at the same version.
        for _ in range(12):
            click_one(seat0, rng) or click_one(seat1, rng)
        seat1.page.reload()
        seat1.page.wait_for_selector("body[data-version]")
        assert seat1.page.evaluate("document.body.dataset.role") == "seat"
        assert seat1.frames[-1]["type"] in ("state", "seats", "chat")  # chat: the history after the join state
        welcomes = [f for f in seat1.frames if f.get("type") == "welcome"]
        assert len(welcomes) == 2 and all(w["seat"] == 1 for w in welcomes)
        # Without the fragment, the token kept in localStorage opens the same seat.
        bare = seat1.context.new_page()
        bare.goto(f"{server.base}/play/{table['table']['id']}?anim=0")
        bare.wait_for_selector("body[data-version]")
        assert bare.evaluate("document.body.dataset.role") == "seat"
        assert "#token=" in bare.url
        assert bare.locator(".seat-chip.me, .pchip.me").get_attribute("data-seat") == "1"
        bare.close()

        clicks = play_to_the_end([seat0, seat1], rng)
        assert clicks > 20
        for s in (seat0, seat1, spectator):
            s.page.wait_for_selector("#result")
            rows = s.page.locator("#result .result-table tbody tr").count()
            assert rows == 3
            assert not s.errors, s.errors
        result = seat0.states()[-1]["result"]
        assert result is not None and sorted(result["places"])[0] == 1

        check_no_private(seat1)
        check_no_private(spectator)
        # Seat 0 did receive its own private draws (so the check above is not vacuous) and none of
        # them (the cards drawn, by content) reached the others.
        private = [ev for f in seat0.states() for ev in f["events"] if ev.get("visible_to") == [0]]
        assert private
        for other in (seat1, spectator):
            seen = [ev for f in other.states() for ev in f["events"]]
            for ev in private:
                assert not any(e["event"] == ev["event"] and e["data"] == ev["data"] for e in seen), ev
        # At the end: seat 0's hand orders that were never shown to all are nowhere in the others' DOM.
        last = seat0.states()[-1]["view"]["players_info"][0]
        hidden = set(last["hand"]["orders"]) - set(last["known_orders_in_hand"])
        for other in (seat1, spectator):
            html = other.page.content()
            for o in hidden:
                assert f'data-order="{o}"' not in html, f"seat 0's hidden order {o} is in {other.page.url}"
            assert other.page.locator("#my-hand").count() == (1 if other is seat1 else 0)
    finally:
        for s in (seat0, seat1, spectator):
            s.close()


# ---------------------------------------------------------------------------- Sweet Nose
def test_sweet_nose_whole_game(server: Server, browser: Any, rng: random.Random) -> None:
    table = server.create("sweet-nose", 3, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}])
    host = f"localStorage.setItem('parlor.host.{table['table']['id']}', '{table['host_token']}')"
    seat0 = Seat(browser, server.url(table["seats"][0]["join_path"]), init_script=host)
    seat1 = Seat(browser, server.url(table["seats"][1]["join_path"]))
    spectator = Seat(browser, server.url(table["spectator_path"]), viewport=PHONE, touch=True)
    try:
        # The host's panel: for the other player's seat (connected) a note that a new link comes once
        # it is away; for the host's own seat nothing at all.
        seat0.page.wait_for_selector("#host .host-seat[data-seat='1'] .host-wait")
        mine = seat0.page.locator("#host .host-seat[data-seat='0']")
        assert mine.locator(".host-new-link, .host-wait").count() == 0
        # Played scrolled down to the log, as a reader does: the result must still be seen.
        seat0.page.evaluate("window.scrollTo(0, document.scrollingElement.scrollHeight)")
        assert seat0.page.evaluate("window.scrollY") > 0
        clicks = play_to_the_end([seat0, seat1], rng)
        assert clicks > 6
        for s in (seat0, seat1, spectator):
            s.page.wait_for_selector("#result")
            assert s.page.locator("#result .result-table tbody tr").count() == 3
            check_result(s)
            assert not s.errors, s.errors
        # A finished game: the host's panel offers no new link and no bot any more.
        assert seat0.page.locator("#host .host-new-link, #host .host-bot").count() == 0
        check_no_private(seat1)
        check_no_private(spectator)
        # Play again: a new table with the same seats; the link leads there with the same token.
        seat0.page.click("#play-again")
        seat0.page.wait_for_selector("#next-table")
        seat1.page.wait_for_selector("#next-table")
        seat0.page.click("#next-table")
        # The click navigates: wait for the new address, and until the new page has a body
        # the check must not throw.
        seat0.page.wait_for_url(lambda url: table["table"]["id"] not in url)
        seat0.page.wait_for_function("document.body !== null && document.body.dataset.over === '0'")
        assert seat0.page.evaluate("document.body.dataset.role") == "seat"
        assert seat0.page.locator(".seat-chip.me").get_attribute("data-seat") == "0"
    finally:
        for s in (seat0, seat1, spectator):
            s.close()


# ---------------------------------------------------------------------------- screenshots, 4 languages
@pytest.mark.parametrize("game", ["mamma-mia", "sweet-nose"])
def test_screenshots_in_every_language(server: Server, browser: Any, screenshots: Path, game: str) -> None:
    rng = random.Random(3)
    table = server.create(
        game, 3, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]
    )
    seat = Seat(browser, server.url(table["seats"][0]["join_path"], anim=True))
    try:
        play_moves(seat, rng, 4)
        seat.page.wait_for_timeout(400)
        en_text = seat.page.locator("main").inner_text()
        stem = game.replace("-", "_")
        for lang in LANGS:
            seat.page.select_option("#lang", lang)
            seat.page.wait_for_function(f"document.documentElement.lang === '{lang}'")
            seat.page.wait_for_timeout(150)
            if lang != "en":
                assert seat.page.locator("main").inner_text() != en_text
            for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
                seat.page.set_viewport_size(size)
                out = screenshots / f"{stem}_{lang}_{name}.png"
                full_page_shot(seat.page, out)
                assert out.stat().st_size > 10_000
                if name == "phone":
                    phone_view(seat.page, screenshots / f"{stem}_{lang}_{name}.png".replace(".png", "_view.png"))
        # The choice is remembered.
        seat.page.reload()
        seat.page.wait_for_selector("body[data-version]")
        assert seat.page.evaluate("document.documentElement.lang") == "cs"
        assert not seat.errors, seat.errors
    finally:
        seat.close()
