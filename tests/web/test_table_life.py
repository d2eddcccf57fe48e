"""Table life in Debian's Chromium: no bot plays a seat before its player first came; the turn clock
counts down on the seat to move and, run out, a bot's move is marked in the log and on the seat chip;
the host hands a missing seat to a bot or gives it a new link; the chat is delivered, shown as text
(never markup), limited, and still there after a reload; the replay from a seat's view shows that
seat's hand and nobody else's, with a slider, jump-to-round and the chat."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from .conftest import Server
from .test_browser import Seat

NASTY = '<img src=x onerror="window.__xss=1"> & <b>bold</b>'


def create(server: Server, **body: Any) -> dict[str, Any]:
    body.setdefault("game", "mamma-mia")
    r = httpx.post(f"{server.base}/api/tables", json=body, timeout=60)
    assert r.status_code == 201, r.text
    return r.json()


def host_script(created: dict[str, Any]) -> str:
    """What the lobby that made the table leaves in the browser: its host token (js/host.js); an init
    script, so that the table's page is the host's from its first load."""
    table_id = created["table"]["id"]
    return f"localStorage.setItem('parlor.host.{table_id}', '{created['host_token']}')"


def summary(server: Server, table_id: str) -> dict[str, Any]:
    return httpx.get(f"{server.base}/api/tables/{table_id}", timeout=60).json()


def log_text(seat: Seat) -> str:
    return seat.page.locator(".log-lines").inner_text()


def test_clocks_no_takeover_before_join_and_the_host(server: Server, browser: Any) -> None:
    created = create(
        server,
        players=2,
        seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        turn_time=2,
        seat_timeout=None,
    )
    table_id = created["table"]["id"]
    ann = Seat(browser, server.url(created["seats"][0]["join_path"]), init_script=host_script(created))
    page = ann.page
    try:
        page.wait_for_selector("#host .host-seat[data-seat='1']")
        chip = page.locator(".seat-chip[data-seat='0']")
        bob_chip = page.locator(".seat-chip[data-seat='1']")
        # Until Bob is to move, Ann lets her clock run out: a bot moves for her, and the log says so.
        deadline = time.monotonic() + 300
        while 1 not in ann.states()[-1]["to_move"]:
            assert time.monotonic() < deadline, "Bob's turn never came"
            if 0 in ann.states()[-1]["to_move"] and not page.locator(".log-lines li.bot-played").count():
                clock = chip.locator(".seat-clock")
                clock.wait_for()
                assert clock.inner_text().startswith("0:0")  # the countdown, m:ss
            page.wait_for_timeout(200)
        # Bob never opened his link: his seat has no clock and no bot plays it, however long we wait.
        version = ann.version()
        page.wait_for_timeout(3000)  # longer than the turn time
        assert ann.version() == version
        assert bob_chip.locator(".seat-clock").count() == 0
        assert "not arrived yet" in bob_chip.inner_text()
        assert summary(server, table_id)["seats"][1]["bot_moves"] == 0
        # The host hands Bob's seat to a bot: it plays at once, and the log says so.
        page.click("#host .host-seat[data-seat='1'] .host-bot")
        page.wait_for_function(
            "document.querySelector('.log-lines').innerText.includes('The host let a bot play this move for Bob')"
        )
        assert summary(server, table_id)["seats"][1]["stand_in"] is True
        # Ann's turn comes back: her clock runs out, a bot plays for her, marked in the log and on her chip.
        ran_out = "Your time ran out: a bot played this move for you."
        page.wait_for_function(f"document.querySelector('.log-lines').innerText.includes('{ran_out}')")
        page.wait_for_function(
            "document.querySelector(\".seat-chip[data-seat='0']\").innerText.includes('a bot played for you')"
        )
        page.click("#host .host-seat[data-seat='1'] .host-stop-bot")
        page.wait_for_selector("#host .host-seat[data-seat='1'] .host-bot")
        assert summary(server, table_id)["seats"][1]["stand_in"] is False
        # ... or the host gives the seat a new link: the old one stops working, the new one opens seat 2.
        page.once("dialog", lambda d: d.accept())
        page.click("#host .host-seat[data-seat='1'] .host-new-link")
        url = page.locator("#host .host-seat[data-seat='1'] .host-link code").inner_text()
        assert f"/play/{table_id}#claim=" in url and created["seats"][1]["claim"] not in url
        old_context = browser.new_context()
        try:
            old_page = old_context.new_page()
            old_page.goto(server.url(created["seats"][1]["join_path"]))
            old_page.wait_for_selector(".error-box")
            assert "ask the host for a new link" in old_page.locator(".error-box").inner_text()
        finally:
            old_context.close()
        carol = Seat(browser, server.url(url.split(server.base, 1)[1]))
        try:
            assert carol.frames[0]["type"] == "welcome" and carol.frames[0]["seat"] == 1
        finally:
            carol.close()
        assert not ann.errors, ann.errors
    finally:
        ann.close()


def test_chat_escaped_delivered_limited_and_kept(server: Server, browser: Any) -> None:
    created = create(
        server, players=3, seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}, {"kind": "bot"}]
    )
    ann = Seat(browser, server.url(created["seats"][0]["join_path"]))
    bob = Seat(browser, server.url(created["seats"][1]["join_path"]))
    spec = Seat(browser, server.url(created["spectator_path"]))
    try:
        ann.page.wait_for_selector("#chat-form:not([hidden])")
        ann.page.fill("#chat-input", NASTY)
        ann.page.press("#chat-input", "Enter")
        for who in (ann, bob, spec):
            who.page.wait_for_selector("#chat-lines .chat-line")
            line = who.page.locator("#chat-lines .chat-line").first
            assert line.locator(".chat-text").inner_text() == NASTY
            assert line.locator(".chat-who").inner_text() in ("You", "Ann")
            assert who.page.locator("#chat img, #chat b").count() == 0  # shown as text, never markup
            assert who.page.evaluate("window.__xss === undefined")
        assert ann.page.input_value("#chat-input") == ""
        # Spectators talk among themselves: a second spectator reads it, no player does.
        assert spec.page.locator("#chat-note").is_visible() and ann.page.locator("#chat-note").is_hidden()
        spec2 = Seat(browser, server.url(created["spectator_path"]))
        try:
            spec2.page.wait_for_selector("#chat-lines .chat-line")
            spec.page.fill("#chat-input", "watch the salami")
            spec.page.press("#chat-input", "Enter")
            for watcher in (spec, spec2):
                watcher.page.wait_for_selector("#chat-lines .chat-line.chat-spectators")
                line = watcher.page.locator("#chat-lines .chat-spectators").first
                assert line.locator(".chat-text").inner_text() == "watch the salami"
                assert line.locator(".chat-who").inner_text() == "Spectator"
            ann.page.wait_for_timeout(400)
            for player in (ann, bob):
                assert "watch the salami" not in player.page.locator("#chat").inner_text()
        finally:
            spec2.close()
        # Too many at once: the chat says to wait (and the game is not disturbed). The limit is 5 at
        # once, then one every 2 s: the 12 messages are sent by the page in one go (typing them one by
        # one through Playwright took longer than the refill on a loaded machine, and no limit was hit).
        bob.page.evaluate(
            """() => {
              const input = document.getElementById('chat-input');
              const form = document.getElementById('chat-form');
              for (let i = 0; i < 12; i++) { input.value = `hello ${i}`; form.requestSubmit(); }
            }"""
        )
        bob.page.wait_for_function("document.getElementById('chat-status').innerText.includes('Too many messages')")
        assert bob.page.locator(".error[role=alert]").count() == 0
        # The chat survives a reload (it is stored with the table): Ann's first line and Bob's accepted ones.
        ann.page.wait_for_function("document.querySelectorAll('#chat-lines .chat-line').length >= 6")
        count = ann.page.locator("#chat-lines .chat-line").count()
        bob.page.reload()
        bob.page.wait_for_selector("body[data-version]")
        bob.page.wait_for_function(f"document.querySelectorAll('#chat-lines .chat-line').length === {count}")
        assert bob.page.locator("#chat-lines .chat-line .chat-text").first.inner_text() == NASTY
        # The chat panel is outside the table's drawing: what Bob types survives the bots' moves.
        bob.page.fill("#chat-input", "half a thought")
        bob.page.wait_for_timeout(500)
        assert bob.page.input_value("#chat-input") == "half a thought"
        for who in (ann, bob, spec):
            assert not who.errors, who.errors
    finally:
        for who in (ann, bob, spec):
            who.close()


def finished_with_a_human_seat(server: Server) -> dict[str, Any]:
    """Seat 0 is a human's, played by a bot from the start (the host allowed it); then a chat line."""
    created = create(
        server,
        players=3,
        seats=[
            {"kind": "human", "name": "Ann"},
            {"kind": "bot", "level": "random"},
            {"kind": "bot", "level": "random"},
        ],
        seat_timeout=0,
        bots_before_join=True,
    )
    table_id = created["table"]["id"]
    deadline = time.monotonic() + 300
    while summary(server, table_id)["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.1)
    # Ann's browser claims her seat's link (as opening it would) and keeps the token.
    claimed = httpx.post(f"{server.base}/api/tables/{table_id}/claim", json={"claim": created["seats"][0]["claim"]})
    created["seats"][0]["token"] = claimed.json()["token"]
    url = server.base.replace("http://", "ws://") + f"/ws/tables/{table_id}?token={created['seats'][0]['token']}"
    with connect(url) as ws:
        ws.send(json.dumps({"type": "chat", "text": "gg <i>all</i>", "ref": "c1"}))
        while json.loads(ws.recv(timeout=60)).get("ref") != "c1":
            pass
    return created


def test_replay_from_a_seat_view_with_slider_rounds_and_chat(server: Server, browser: Any) -> None:
    created = finished_with_a_human_seat(server)
    table_id = created["table"]["id"]
    data = httpx.get(f"{server.base}/api/tables/{table_id}/replay", timeout=60).json()
    steps = len(data["steps"])
    rounds = sorted({s["view"]["round"] for s in data["steps"]})
    assert len(rounds) >= 2

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        context.add_init_script("localStorage.setItem('parlor.lang', 'en')")
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{server.base}/replay/{table_id}#token={created['seats'][0]['token']}")
        page.wait_for_selector("body[data-ready='1'][data-steps]")
        assert "As Ann saw it" in page.locator("#replay-view").inner_text()
        # Seat 0's own hand is drawn; in the spectators' replay no hand is.
        page.wait_for_selector("#my-hand")
        # The slider goes anywhere at once.
        page.locator("#replay-slider").fill(str(steps // 2))
        page.wait_for_function(f"document.body.dataset.step === '{steps // 2}'")
        assert page.locator("#step-counter").inner_text() == f"Step {steps // 2} of {steps - 1}"
        # Jump to a round: the first step of that round.
        first_of_round_2 = next(i for i, s in enumerate(data["steps"]) if s["view"]["round"] == rounds[1])
        page.select_option("#replay-round", str(first_of_round_2))
        page.wait_for_function(f"document.body.dataset.step === '{first_of_round_2}'")
        assert page.locator("#replay-slider").input_value() == str(first_of_round_2)
        # The bot's moves for Ann are marked, in the second person.
        page.locator("#replay-slider").fill("1")
        found = False
        for i in range(1, steps):
            page.locator("#replay-slider").fill(str(i))
            page.wait_for_function(f"document.body.dataset.step === '{i}'")
            if page.locator("#step-events li.bot-played").count():
                assert "You were away" in page.locator("#step-events li.bot-played").first.inner_text()
                found = True
                break
        assert found
        # The chat said after the end is in the replay at the last step, as text.
        page.keyboard.press("End")
        page.wait_for_function(f"document.body.dataset.step === '{steps - 1}'")
        assert page.locator("#replay-chat-lines .chat-text").inner_text() == "gg <i>all</i>"
        assert page.locator("#replay-chat i").count() == 0
        assert not errors, errors
        # The spectators' view of the same game shows no hand.
        page.click("#replay-spectator-link")
        page.wait_for_function("!location.hash")
        page.wait_for_selector("body[data-ready='1'][data-steps]")
        page.wait_for_selector("#replay-view")
        assert "spectators" in page.locator("#replay-view").inner_text()
        assert page.locator("#my-hand").count() == 0
        assert not errors, errors
    finally:
        context.close()


def test_a_game_the_server_ended_says_why_in_the_readers_language(browser: Any, tmp_path: Any) -> None:
    """A game ended by the decision cap shows no winner and the reason, translated (here Japanese)."""
    from .conftest import start_server, stop_server

    server = start_server(tmp_path, "--max-decisions", "12")
    try:
        bots = [{"kind": "bot", "level": "random"}] * 3
        table = server.create("mottainai", 3, bots)
        watcher = Seat(browser, server.url(table["spectator_path"]), lang="ja")
        try:
            watcher.page.wait_for_selector("#result #abandoned")
            assert watcher.page.locator("#result h2").inner_text() == "勝者なしでゲームが終わりました"
            assert "決定の上限 12 回" in watcher.page.locator("#abandoned").inner_text()
            assert not watcher.errors, watcher.errors
        finally:
            watcher.close()
    finally:
        stop_server(server)


def test_a_join_link_takes_its_seat_in_one_browser_only(server: Server, browser: Any) -> None:
    """The seat's link opened in a first browser takes the seat (reloads and reopening the link
    there keep it); the same link in another browser is refused with a clear message."""
    created = create(server, players=2, seats=[{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}])
    link = server.url(created["seats"][0]["join_path"])
    ann = Seat(browser, link)
    try:
        assert ann.frames[0]["type"] == "welcome" and ann.frames[0]["seat"] == 0
        assert "#token=" in ann.page.url and created["seats"][0]["claim"] not in ann.page.url
        ann.page.reload()
        ann.page.wait_for_selector("body[data-version]")
        ann.page.goto(link)  # the link again, in the browser that took the seat
        ann.page.wait_for_selector("body[data-version]")
        assert ann.page.evaluate("document.body.dataset.role") == "seat"
        other = browser.new_context()
        try:
            page = other.new_page()
            page.goto(link)
            page.wait_for_selector(".error-box")
            assert "already used to take the seat" in page.locator(".error-box").inner_text()
        finally:
            other.close()
        assert not ann.errors, ann.errors
    finally:
        ann.close()


def test_a_seat_taken_but_never_opened_says_so_in_every_language(server: Server, browser: Any) -> None:
    """Somebody sat down in a seat of a public table and never opened it: the others' seat chip says the
    seat is taken and nobody is there (the summary's ``absent``), in the reader's language."""
    catalogs = Path(__file__).resolve().parents[2] / "src" / "parlor" / "web" / "i18n"
    for lang in ("en", "cs", "ja", "zh-Hant"):
        created = create(server, players=3, public=True, seats=[{"kind": "human"}] * 3)
        table_id = created["table"]["id"]
        ann = Seat(browser, server.url(created["seats"][0]["join_path"]), lang=lang)
        try:
            sat = httpx.post(f"{server.base}/api/tables/{table_id}/sit", json={"name": "Squatter"}, timeout=60)
            assert sat.status_code == 200, sat.text
            seat = sat.json()["seat"]
            expected = json.loads((catalogs / f"{lang}.json").read_text(encoding="utf-8"))["seat.absent"]
            chip = ann.page.locator(f".seat-chip[data-seat='{seat}']")
            chip.locator(".bot-note.absent").wait_for()
            assert expected in chip.inner_text(), (lang, chip.inner_text())
            assert ann.page.locator(".seat-chip[data-seat='0'] .bot-note.absent").count() == 0
        finally:
            ann.context.close()
