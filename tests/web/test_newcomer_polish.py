"""What a newcomer's first visit ran into (Chromium, the real server), in every language:

* a Mamma Mia! game tied on orders says in its result why the winner won (the topping cards left in
  hand), or that the win is shared; a game the orders alone decided says nothing of it; a Mottainai
  game tied on points names the turn order that decided it;
* ``/play/<a table that does not exist>`` says there is no such table, with the way back to the lobby.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from parlor import games as registry

from .conftest import Server, start_server, stop_server, write_record
from .test_browser import DESKTOP, LANGS, PHONE, Seat
from .test_help_and_lobby import new_page
from .test_phone import check_goals

WEB = Path(__file__).resolve().parents[2] / "src" / "parlor" / "web"


def catalog(lang: str) -> dict[str, str]:
    return json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


# ---- the tie-break in the result ----------------------------------------------------------------------
def random_game(seed: int, name: str = "mamma-mia") -> tuple[list[dict[str, Any]], Any]:
    """A two-player game from ``seed``, every decision drawn at random from the legal ones
    (deterministic): its record and result."""
    game = registry.get(name)
    state = game.new_game(2, seed, game.options_from_json({}))
    rng = random.Random(seed)
    record: list[dict[str, Any]] = []
    while not state.is_over:
        seat = next(p for p in range(2) if state.legal_actions(p))
        action = rng.choice(state.legal_actions(seat))
        record.append({"seat": seat, "action": action.to_json(), "by": "player" if seat == 0 else "bot"})
        state.apply(seat, action)
    return record, state.result()


def first_game(kind: str, name: str = "mamma-mia") -> tuple[int, list[dict[str, Any]], Any]:
    """The first seed whose random game ends ``kind``: "won" (tied on the score, the tie-break decides:
    Mamma Mia!'s toppings in hand, Mottainai's turn order), "shared" (tied on both), "clear" (the
    score decides)."""
    for seed in range(500):
        record, result = random_game(seed, name)
        tied = result.scores[0] == result.scores[1]
        if (kind, tied, len(result.winners)) in (("won", True, 1), ("shared", True, 2), ("clear", False, 1)):
            return seed, record, result
    raise AssertionError(f"no seed of 0..499 ends {kind}")


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, tuple[dict, Any]]]]:
    """A server with three finished Mamma Mia! tables (Ann at seat 0, a bot at seat 1), one per way a
    game ends, and a Mottainai one the turn order decided: restored from their records as the server
    restores any table."""
    tmp = tmp_path_factory.mktemp("tiebreak")
    games = {kind: first_game(kind) for kind in ("won", "shared", "clear")}
    games["mottainai"] = first_game("won", "mottainai")
    server = start_server(tmp)
    try:
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}]
        tables = {kind: server.create(kind if kind == "mottainai" else "mamma-mia", 2, seats) for kind in games}
    finally:
        stop_server(server)
    for kind, (seed, record, _) in games.items():
        write_record(tmp / "parlor.db", tables[kind]["table"]["id"], seed, record)
    server = start_server(tmp)
    try:
        yield server, {kind: (tables[kind], games[kind][2]) for kind in games}
    finally:
        stop_server(server)


@pytest.mark.parametrize("lang", LANGS)
def test_a_tie_on_orders_says_the_toppings_in_hand_decided(finished, browser: Any, lang: str) -> None:
    server, tables = finished
    words = catalog(lang)
    for kind, (table, result) in tables.items():
        seat = Seat(browser, server.url(table["spectator_path"]), lang=lang)
        try:
            page = seat.page
            page.wait_for_selector("#result-dialog[open] #result")
            note = page.locator("#result-note")
            if kind == "clear":
                assert note.count() == 0, note.inner_text()
                continue
            assert note.count() == 1, f"{kind}: the result does not say how the tie was broken"
            text = note.inner_text()
            names = {0: "Ann", 1: words["ui.bot_named"].replace("{level}", words["level.random"])}
            if kind == "mottainai":  # the winner, the tied score, the rule that decided
                assert names[result.winners[0]] in text and str(result.scores[0]) in text, text
                if lang == "en":
                    assert text == (
                        f"Tied on {result.scores[0]} points: a tie goes to the player whose turn it was when the "
                        f"game ended, then to the next ones clockwise, so {names[result.winners[0]]} won."
                    )
                continue
            # Every tied player, with the topping cards left in their hand, and the winner by name.
            for s in (0, 1):
                assert names[s] in text, (kind, text)
                assert str(result.tiebreaks[s]) in text, (kind, text)
            assert str(result.scores[0]) in text, (kind, text)
            assert "{" not in text and "mm." not in text, text
            if lang == "en":
                winner = names[result.winners[0]]
                loser = names[1 - result.winners[0]]
                n, counts = result.scores[0], sorted(result.tiebreaks, reverse=True)
                expected = {
                    "won": f"Tied on {n} baked orders: the tie goes to whoever has the most topping cards left in "
                    f"hand, so {winner} won ({winner}: {counts[0]}, {loser}: {counts[1]}).",
                    "shared": f"Tied on {n} baked orders and on topping cards left in hand (Ann: {counts[0]}, "
                    f"{names[1]}: {counts[1]}): the win is shared.",
                }[kind]
                assert text == expected
            else:
                assert not any(w in text for w in ("Tied", "topping", "shared")), text
            # The replay's last step says the same.
            page.goto(f"{server.base}/replay/{table['table']['id']}")
            page.wait_for_selector("body[data-ready='1'][data-steps]")
            page.click("#replay-last")
            page.wait_for_selector("#result")
            assert page.locator("#result-note").inner_text() == text
            assert not seat.errors, seat.errors
        finally:
            seat.context.close()


# ---- a table that does not exist ------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_an_unknown_table_says_there_is_no_such_table(server: Server, browser: Any, lang: str) -> None:
    """No token asked for a table that is not there: the page says it does not exist (a mistyped id,
    one in no table id's format, a token or a claim code for it alike) and links back to the lobby;
    a table that does exist, opened without its link's token, still asks for the link."""
    words = catalog(lang)
    context, page, errors = new_page(browser, lang)
    try:
        for path in (
            "/play/NoSuchTable123",
            "/play/not%20an%20id!",
            "/play/NoSuchTable123#token=abc",
            f"/play/NoSuchTable123#claim={'a' * 32}",
        ):
            page.goto(server.base + path)
            page.wait_for_selector(".error-box h1")
            assert page.locator(".error-box h1").inner_text() == words["fatal.table_not_found"], path
            back = page.locator(".error-box a")
            assert back.get_attribute("href") == "/" and back.inner_text() == words["result.lobby"], path
        table = server.create("sweet-nose", 3, [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 2)
        page.goto(f"{server.base}/play/{table['table']['id']}")
        page.wait_for_selector(".error-box h1")
        assert page.locator(".error-box h1").inner_text() == words["fatal.no_token"]
        assert not errors, errors
    finally:
        context.close()


# ---- the lobby's links after a reload -------------------------------------------------------------------
LINKS = "() => Array.from(document.querySelectorAll('.created .link-row a.join-link'), (a) => a.getAttribute('href'))"


def test_the_links_of_a_table_just_made_survive_a_reload_of_its_tab_only(server: Server, browser: Any) -> None:
    """The creator reloads the lobby: the table's join links are there again, the same ones (kept in
    that tab's sessionStorage, under the table's id). No other tab, no other browser, no lasting
    storage holds them; "Create another table", or the lobby opened anew, brings the form back."""
    context, page, errors = new_page(browser, "en")
    other_context, other, other_errors = new_page(browser, "en")
    try:
        page.goto(server.base + "/")
        page.wait_for_selector("button.game-pick[data-game=mamma-mia]")
        page.click("button.game-pick[data-game=mamma-mia]")
        page.select_option("#players", "3")
        page.select_option("select[name=seat-1-kind]", "human")
        page.click("#create")
        page.wait_for_selector(".created")
        links = page.evaluate(LINKS)
        assert len(links) == 3 and sum("#claim=" in x for x in links) == 2, links  # two seats, a spectator
        secrets = [x.split("#", 1)[1].split("=", 1)[1] for x in links]
        page.reload()
        page.wait_for_selector("#create, .created")
        assert page.evaluate(LINKS) == links
        # Only this tab's sessionStorage holds them: not localStorage, not a new tab, not another browser.
        lasting = page.evaluate("JSON.stringify(localStorage)")
        assert not any(s in lasting for s in secrets), lasting
        assert all(s in page.evaluate("JSON.stringify(sessionStorage)") for s in secrets)
        tab = context.new_page()
        for p in (tab, other):
            p.goto(server.base + "/")
            p.wait_for_selector("#create")
            assert p.locator(".link-row").count() == 0
            assert not any(
                s in p.evaluate("JSON.stringify(sessionStorage) + JSON.stringify(localStorage)") for s in secrets
            )
        # The back button after a visit elsewhere shows them too; "Create another table" forgets them.
        page.goto(f"{server.base}/static/rules.html")
        page.go_back()
        page.wait_for_selector(".created")
        assert page.evaluate(LINKS) == links
        page.click("#create-another")
        page.wait_for_selector("#create")
        page.reload()
        page.wait_for_selector("#create")
        assert page.locator(".link-row").count() == 0
        assert not any(s in page.evaluate("JSON.stringify(sessionStorage)") for s in secrets)
        assert not errors and not other_errors, (errors, other_errors)
    finally:
        context.close()
        other_context.close()


# ---- "Play now": waiting for the other players ---------------------------------------------------------
def counted(lang: str, key: str, n: int) -> str:
    """The catalog text of ``key`` for the count ``n`` in the language's plural form (js/i18n.js)."""
    words = catalog(lang)
    form = {"en": "one" if n == 1 else "other", "cs": "one" if n == 1 else "few" if 2 <= n <= 4 else "other"}
    text = words.get(f"{key}#{form.get(lang, 'other')}", words[key]).replace("{n}", str(n))
    return text.replace("seat(s)", "seat" if n == 1 else "seats")


def quick_play(page: Any, server: Server, players: int, name: str) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("button.game-pick[data-game=mottainai]")
    page.click("button.game-pick[data-game=mottainai]")
    page.select_option("#players", str(players))
    page.select_option("#fill-after", "")  # no bots: the table waits for people
    page.fill("#guest-name", name)
    page.click("#play-now")
    page.wait_for_url("**/play/*#token=*")


# Each language its own player count: the quick tables of one never seat the players of another.
@pytest.mark.parametrize(("lang", "players"), [("en", 2), ("zh-Hant", 3), ("ja", 4), ("cs", 5)])
def test_play_now_says_it_waits_for_players_and_for_how_long(
    server: Server, browser: Any, screenshots: Path, lang: str, players: int
) -> None:
    """Seated by "Play now" at a table that waits for people: the page says how many seats are still
    free and counts the time waited (the counter moves by itself), with "Leave this table" beside it.
    A second player sitting down makes one seat fewer (or, the last one, the game starts and the
    note goes); leaving takes that player back to the lobby and frees the seat again."""
    words = catalog(lang)
    (ctx_a, first, errors_a), (ctx_b, second, errors_b) = new_page(browser, lang), new_page(browser, lang)
    try:
        quick_play(first, server, players, "Wen")
        first.wait_for_selector("#seat-wait")
        wait = first.locator("#seat-wait")
        assert wait.locator(".wait-text").inner_text() == counted(lang, "wait.seats", players - 1)
        assert words["wait.elapsed_label"] in wait.inner_text()
        assert wait.locator("#wait-bots").count() == 0  # no bots fill this table: nothing said of them
        assert wait.locator("#stand-up").inner_text() == words["ui.stand_up"]
        shown = first.locator("#wait-elapsed").inner_text()
        assert shown.startswith("0:"), shown
        first.wait_for_function(f"document.getElementById('wait-elapsed').textContent !== {json.dumps(shown)}")
        first.screenshot(path=str(screenshots / f"play_now_waiting_{lang}.png"))
        quick_play(second, server, players, "Zed")
        assert second.url.split("#")[0] == first.url.split("#")[0]  # the same table
        if players == 2:
            first.wait_for_selector("#seat-wait", state="detached")
            second.wait_for_selector("body[data-version]")
            assert second.locator("#seat-wait").count() == 0
        else:
            fewer = counted(lang, "wait.seats", players - 2)
            first.wait_for_function(
                f"document.querySelector('#seat-wait .wait-text')?.textContent === {json.dumps(fewer)}"
            )
            second.wait_for_selector("#seat-wait #stand-up")
            if players == 3:  # back in the lobby, "Play now" again: the seat held, not a second one
                held = second.url
                second.goto(server.base + "/")
                second.click("button.game-pick[data-game=mottainai]")
                second.select_option("#players", str(players))
                table_id = held.split("/play/")[1].split("#")[0]
                second.wait_for_selector(f".open-table[data-table='{table_id}']")  # the list the lobby holds
                second.click("#play-now")
                second.wait_for_url(held)
                second.wait_for_selector("#seat-wait #stand-up")
                assert first.locator("#seat-wait .wait-text").inner_text() == fewer
            second.click("#seat-wait #stand-up")
            second.wait_for_url(server.base + "/")
            again = counted(lang, "wait.seats", players - 1)
            first.wait_for_function(
                f"document.querySelector('#seat-wait .wait-text')?.textContent === {json.dumps(again)}"
            )
            first.click("#seat-wait #stand-up")  # and nobody waits at it any more
            first.wait_for_url(server.base + "/")
        assert not errors_a and not errors_b, (errors_a, errors_b)
    finally:
        ctx_a.close()
        ctx_b.close()


# ---- when the bots take the empty seats -----------------------------------------------------------------
def clock_pattern(text: str) -> str:
    """A catalog text with its ``{time}`` as a m:ss clock, as a regular expression (the clock's parts
    captured)."""
    return "^" + re.escape(text).replace(re.escape("{time}"), r"(\d+):(\d\d)") + "$"


# Seconds before the bots take the empty seats: a short wait first, so that the test does not sit out
# a long one; a table whose wait ran out before its pages showed the countdown (a loaded machine opens
# pages slowly) is made again with a wait twice as long, up to the last one here.
FILL_AFTER = (6, 12, 24, 48)


def filled_with_bots(server: Server, table_id: str) -> bool:
    """Whether the table's empty seats became bots (its wait ran out): polled from the server's summary
    until they did (a few seconds) or a generous deadline passed."""
    deadline = time.monotonic() + 60
    while True:
        seats = httpx.get(f"{server.base}/api/tables/{table_id}", timeout=60).json()["seats"]
        if [s["kind"] for s in seats[1:]] == ["bot", "bot"]:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)


def watch_the_countdown(
    server: Server, browser: Any, screenshots: Path, lang: str, fill_after: int
) -> tuple[str, Seat, Any, Any, list[str]] | None:
    """A public table of three with one player seated, whose empty seats go to bots after ``fill_after``
    seconds: the seat's waiting note counts down (and is photographed), and the lobby's row of the table
    counts down to the same moment. Returns the table and its open pages; None (the pages closed) if
    the wait ran out before all of it was seen, which the server confirms (the bots sat down)."""
    body = {"game": "sweet-nose", "players": 3, "public": True, "fill_bots_after": fill_after,
            "seats": [{"kind": "human"}] * 3}  # fmt: skip
    created = httpx.post(f"{server.base}/api/tables", json=body, timeout=60)
    assert created.status_code == 201, created.text
    table_id = created.json()["table"]["id"]
    sat = httpx.post(f"{server.base}/api/tables/{table_id}/sit", json={"name": "Wen"}, timeout=60)
    assert sat.status_code == 200, sat.text
    lobby_context, lobby, lobby_errors = new_page(browser, lang)
    seat = Seat(browser, server.url(f"/play/{table_id}#token={sat.json()['token']}"), lang=lang)
    opened = (table_id, seat, lobby_context, lobby, lobby_errors)

    def too_late(what: str) -> None:
        """The wait ran out before ``what`` was seen: then the bots sit down, or the page is wrong."""
        assert filled_with_bots(server, table_id), f"{lang}: {what} was not seen, and the table still waits"
        seat.close()
        lobby_context.close()

    page = seat.page
    # The note, or (its wait run out already) the game on without it.
    page.wait_for_function(
        "document.getElementById('wait-bots') !== null"
        " || (document.body.dataset.version !== undefined && document.getElementById('seat-wait') === null)"
    )
    first = page.evaluate("document.getElementById('wait-bots')?.textContent ?? null")
    if first is None:
        return too_late("the countdown")
    pattern = clock_pattern(counted(lang, "wait.bots", 2))
    minutes, seconds = re.match(pattern, first).groups()  # type: ignore[union-attr]
    assert int(minutes) * 60 + int(seconds) <= fill_after, (lang, first)
    ticked = page.wait_for_function(  # it counts down by itself (or goes, the wait run out)
        "(first) => { const note = document.getElementById('wait-bots');"
        " return note === null ? 'gone' : note.textContent !== first && 'ticked'; }",
        arg=first,
    ).json_value()
    if ticked == "gone":
        return too_late("the countdown moving")
    page.screenshot(path=str(screenshots / f"wait_for_bots_{lang}.png"))
    # The lobby's row of the table counts down to the same moment.
    lobby.goto(server.base + "/")
    lobby.click("button.game-pick[data-game=sweet-nose]")
    waiting = f".open-list.waiting .open-table[data-table='{table_id}'] .open-fill"
    playing = f".open-list.playing .open-table[data-table='{table_id}']"
    lobby.locator(f"{waiting}, {playing}").first.wait_for()
    fill = lobby.evaluate(
        "(sel) => { const el = document.querySelector(sel); return el && [el.innerText, Number(el.dataset.fillIn)]; }",
        waiting,
    )
    # A row read at 0:00 (the bots not seated yet) is not read again by the lobby: only a countdown
    # read with time left moves the table to those being played when it ends.
    if fill is None or fill[1] <= 0:
        return too_late("the lobby's countdown")
    assert re.match(clock_pattern(counted(lang, "open.fill_in", 2)), fill[0]), (lang, fill[0])
    return opened


def test_the_wait_counts_down_to_the_bots_taking_the_empty_seats(
    server: Server, browser: Any, screenshots: Path
) -> None:
    """A public table that fills its empty seats with bots says when: its waiting note counts down
    ("Bots take the empty seats in 0:12", in the language's plural form for the seats), and so does
    its row in the lobby; at zero the seats become bots, the note goes and the lobby lists the table
    among those being played. (A table that never fills with bots says nothing of it: the "Play now"
    test above.)

    One table per language, side by side: each gets the same steps in the same order as if it were
    alone (its table made, sat at and both pages checked before the next language's), and then the
    waits run out together. The wait is a few seconds (FILL_AFTER); a table whose wait ran out before
    the countdown was seen is made again with a longer one."""
    opened: list[tuple[str, str, Seat, Any, Any, list[str]]] = []
    try:
        for lang in LANGS:
            for fill_after in FILL_AFTER:
                watched = watch_the_countdown(server, browser, screenshots, lang, fill_after)
                if watched is not None:
                    opened.append((lang, *watched))
                    break
                print(f"{lang}: the {fill_after} s wait ran out before the countdown was seen; again, longer")
            else:
                raise AssertionError(f"{lang}: every wait ran out before its countdown was seen: {FILL_AFTER}")
        # At zero the bots sit down: the note goes, the seats say they are bots, the lobby moves the table.
        for lang, table_id, seat, _, lobby, lobby_errors in opened:
            words = catalog(lang)
            page = seat.page
            page.wait_for_selector("#seat-wait", state="detached")
            level = httpx.get(f"{server.base}/api/tables/{table_id}", timeout=60).json()["substitute_level"]
            bot = words["seat.bot"].replace("{level}", words[f"level.{level}"])
            for n in (1, 2):
                assert page.locator(f".seat-chip[data-seat='{n}'] > small").first.inner_text() == bot, lang
            lobby.locator(f".open-list.playing .open-table[data-table='{table_id}']").wait_for()
            assert lobby.locator(f".open-table[data-table='{table_id}'] .open-fill").count() == 0, lang
            assert not seat.errors and not lobby_errors, (lang, seat.errors, lobby_errors)
        # A table opened after every countdown was over (nothing left to count down) still comes into
        # the open lobbies by itself, without a reload: the lobby reads its lists again while in view.
        body = {"game": "sweet-nose", "players": 3, "public": True, "seats": [{"kind": "human"}] * 3}
        late = httpx.post(f"{server.base}/api/tables", json=body, timeout=60).json()["table"]["id"]
        assert httpx.post(f"{server.base}/api/tables/{late}/sit", json={"name": "Lex"}, timeout=60).status_code == 200
        for _, _, _, _, lobby, _ in opened:
            lobby.locator(f".open-list.waiting .open-table[data-table='{late}']").wait_for(timeout=60_000)
    finally:
        for _, _, seat, lobby_context, _, _ in opened:
            seat.context.close()
            lobby_context.close()


# ---- the game log across a language switch ---------------------------------------------------------------
# What scrolls the log (its list on a desktop, the log area on a phone), scrolled to a fraction of it.
LOG_SCROLLER = """const scroller = () => {
  const list = document.getElementById("log-lines");
  const area = list.closest(".area-log");
  return list.scrollHeight > list.clientHeight + 1 ? list : area;
};"""
LOG_PLACE = f"""() => {{
  {LOG_SCROLLER}
  const list = document.getElementById("log-lines");
  const box = scroller();
  const top = box.getBoundingClientRect().top;
  // the first line whose bottom is below the top of the view: the line the reader is at
  const lines = Array.from(list.children);
  const at = lines.findIndex((li) => li.getBoundingClientRect().bottom > top + 1);
  const bottom = box.scrollHeight - box.scrollTop - box.clientHeight;
  return {{ at, lines: lines.length, top: box.scrollTop, bottom }};
}}"""
SCROLL_TO = f"""(fraction) => {{
  {LOG_SCROLLER}
  const box = scroller();
  box.scrollTop = fraction * box.scrollHeight;
}}"""


LOG_HEADING = "(text) => document.querySelector('#log h2').textContent === text"


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_log_keeps_its_place_across_a_language_switch(finished, browser: Any, viewport: dict[str, int]) -> None:
    """The reader scrolled the log to the middle and switches the language: the log shows the same
    lines, now in the new words (not its top); scrolled to its end, it stays at the end. On a phone,
    where the log fills its tab, the same."""
    server, tables = finished
    table, _ = tables["clear"]
    seat = Seat(browser, server.url(table["spectator_path"]), viewport=viewport, lang="en")
    try:
        page = seat.page
        page.wait_for_selector("#result-dialog[open] #result")
        page.click("#result-close")
        page.wait_for_function("!document.getElementById('result-dialog').open")
        if viewport is PHONE:
            page.click("#tab-log")
            page.wait_for_selector("body[data-tab=log]")
        page.wait_for_function("document.querySelectorAll('#log-lines li').length > 40")
        page.evaluate(SCROLL_TO, 0.5)
        page.wait_for_function(f"({LOG_PLACE})().top > 0")
        before = page.evaluate(LOG_PLACE)
        assert 10 < before["at"] < before["lines"] - 10, before
        for lang in ("cs", "ja", "en"):
            page.select_option("#lang", lang)
            page.wait_for_function(f"document.documentElement.lang === '{lang}'")
            page.wait_for_function(LOG_HEADING, arg=catalog(lang)["ui.log"])
            after = page.evaluate(LOG_PLACE)
            assert after["lines"] == before["lines"], (lang, before, after)
            assert abs(after["at"] - before["at"]) <= 2, (lang, before, after)  # the same lines, reworded
        # At the end: it stays at the end.
        page.evaluate(SCROLL_TO, 1)
        page.wait_for_function(f"({LOG_PLACE})().bottom < 2")
        for lang in ("zh-Hant", "en"):
            page.select_option("#lang", lang)
            page.wait_for_function(LOG_HEADING, arg=catalog(lang)["ui.log"])
            assert page.evaluate(LOG_PLACE)["bottom"] < 2, lang
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()


# ---- the review graph's axes -------------------------------------------------------------------------------
# The replay page's evaluation graph (js/review.js) drawn in a page of the site from a review of
# three decisions over 40 steps, inside a .review box with the page's own styles: its texts and
# where each lies on screen.
GRAPH = """async ([lang, width]) => {
  const { loadLang } = await import("/static/js/i18n.js");
  const { evaluationGraph } = await import("/static/js/review.js");
  await loadLang(lang);
  if (!document.querySelector("link[href$='table_life.css']")) {
    const css = Object.assign(document.createElement("link"), { rel: "stylesheet", href: "/static/table_life.css" });
    const loaded = new Promise((done) => css.addEventListener("load", done));
    document.head.append(css);
    await loaded;
  }
  const move = (win) => ({ action: { type: "x", win }, win });
  const decision = (step, win, label) => ({ step, label, played: { type: "x", win }, moves: [move(win)] });
  const decisions = [decision(4, 0.5, "best"), decision(20, 0.3, "mistake"), decision(36, 0.8, "good")];
  const review = { players: 2, decisions };
  const box = document.createElement("section");
  box.className = "review";
  box.style.width = `${width}px`;
  box.replaceChildren(evaluationGraph(review, 40, 20, () => {}));
  document.body.replaceChildren(box);
  const rect = (el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
  };
  const named = (id) => ({ text: document.getElementById(id).textContent, at: rect(document.getElementById(id)) });
  const graph = document.getElementById("review-graph");
  return {
    graph: rect(graph),
    x: named("review-x-title"),
    y: named("review-y-title"),
    ticks: Array.from(graph.querySelectorAll(".review-tick"), (el) => ({ text: el.textContent, at: rect(el) })),
    points: Array.from(graph.querySelectorAll(".review-point"), rect),
  };
}"""


def inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return (
        inner["left"] >= outer["left"] - 0.5
        and inner["right"] <= outer["right"] + 0.5
        and inner["top"] >= outer["top"] - 0.5
        and inner["bottom"] <= outer["bottom"] + 0.5
    )


def apart(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["right"] <= b["left"] or b["right"] <= a["left"] or a["bottom"] <= b["top"] or b["bottom"] <= a["top"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_review_graph_names_its_axes(server: Server, browser: Any, screenshots: Path, lang: str) -> None:
    """The graph says what it shows: the chance to win up the left (0%, 50%, 100%, named above it) and
    the game's steps along the bottom (0, the middle, the last, named under them), in the reader's
    language; every
    label within the graph, none over another, at a desktop's width and a phone's."""
    words = catalog(lang)
    context, page, errors = new_page(browser, lang)
    try:
        page.goto(f"{server.base}/static/rules.html")
        page.wait_for_selector("body[data-ready='1']")
        for width in (640, 360):
            got = page.evaluate(GRAPH, [lang, width])
            assert got["y"]["text"] == f"↑ {words['review.axis_win']}"
            assert got["x"]["text"] == f"{words['review.axis_step']} →"
            assert [t["text"] for t in got["ticks"]] == ["0%", "50%", "100%", "0", "20", "40"]
            labels = [got["x"]["at"], got["y"]["at"], *(t["at"] for t in got["ticks"])]
            assert all(inside(r, got["graph"]) for r in labels), (width, labels, got["graph"])
            over = [(a, b) for i, a in enumerate(labels) for b in labels[i + 1 :] if not apart(a, b)]
            assert not over, (width, over)
            # The points lie right of the chances' numbers, under the chance axis's name, above the steps'.
            numbers = max(t["at"]["right"] for t in got["ticks"][:3])
            for point in got["points"]:
                assert point["left"] > numbers and got["y"]["at"]["bottom"] < point["top"], point
                assert point["bottom"] < got["x"]["at"]["top"], point
            # Up is more: the point of 80% lies above the one of 30%.
            assert got["points"][2]["top"] < got["points"][1]["top"]
            page.locator("#review-graph").screenshot(path=str(screenshots / f"review_graph_{lang}_{width}.png"))
        assert not errors, errors
    finally:
        context.close()


def test_a_private_table_has_no_note_on_free_seats(server: Server, browser: Any) -> None:
    """A private table's seat still unclaimed waits for the host's link, not for someone to sit down:
    no such note there (the host's panel is where its links are)."""
    table = server.create("mottainai", 2, [{"kind": "human", "name": "Ann"}, {"kind": "human"}])
    seat = Seat(browser, server.url(table["seats"][0]["join_path"]))
    try:
        summary = seat.page.request.get(f"{server.base}/api/tables/{table['table']['id']}").json()
        assert summary["seats"][1]["open"] is True
        seat.page.wait_for_selector("#moves")
        assert seat.page.locator("#seat-wait").count() == 0
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()


# ---- Sweet Nose's sweetness picker: every sweet's whole name ---------------------------------------------
SWEETS = ["mung_bean_cake", "longevity_peach_bun", "peanut_brittle", "zhuangyuan_cake", "candied_haws"]

# Per row of the picker: its sweet, the name as shown, whether its label (grip, icon, name, count)
# is cut, the words (split at spaces and after hyphens) broken across two lines, and the icon's width.
PICKER_NAMES = """() => Array.from(document.querySelectorAll('#sweetness-picker .assign-row'), (row) => {
  const label = row.querySelector('.assign-sweet');
  const name = label.querySelector('.sweet-name') || label.children[2];
  const text = name.firstChild;
  const broken = [];
  for (const m of text.textContent.matchAll(/[^\\s-]+-?/g)) {
    const range = document.createRange();
    range.setStart(text, m.index);
    range.setEnd(text, m.index + m[0].length);
    if (new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size > 1) broken.push(m[0]);
  }
  const box = row.getBoundingClientRect();
  return {
    kind: row.dataset.kind, name: text.textContent.trim(),
    label: [label.scrollWidth, label.clientWidth], text: [name.scrollWidth, name.clientWidth],
    broken, icon: label.querySelector('svg').getBoundingClientRect().width,
    inside: box.left >= 0 && box.right <= innerWidth,
  };
})"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("lang", LANGS)
def test_the_sweetness_picker_shows_every_sweet_name_whole(
    server: Server, browser: Any, screenshots: Path, lang: str, viewport: dict[str, int]
) -> None:
    """Placing the five sweetness cards: each sweet's name is shown whole (a long one, "Zhuangyuan
    cake", "Broskvová buchta dlouhověkosti", wraps between its words rather than being cut), with its
    icon at full size, in every language, on a 1280 px desktop and a 390 px phone."""
    words = catalog(lang)
    table = server.create(
        "sweet-nose", 3, [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "level": "random"}] * 2
    )
    seat = Seat(browser, server.url(table["seats"][0]["join_path"]), viewport=viewport, lang=lang,
                touch=viewport is PHONE)  # fmt: skip
    try:
        page = seat.page
        page.wait_for_selector("#sweetness-picker .assign-row")
        rows = page.evaluate(PICKER_NAMES)
        assert [r["kind"] for r in rows] == SWEETS
        for row in rows:
            assert row["name"] == words[f"sn.sweet.{row['kind']}"], row
            assert row["label"][0] <= row["label"][1] and row["text"][0] <= row["text"][1], row  # nothing cut
            assert not row["broken"], row  # no word split across lines
            assert row["icon"] >= 21 and row["inside"], row
        page.locator("#sweetness-picker").screenshot(
            path=str(screenshots / f"sweetness_names_{lang}_{viewport['width']}.png")
        )
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()


# ---- a phone's count chips ---------------------------------------------------------------------------------
# Each chip offered in the phone's dock: its part, size, whether a tap at its middle reaches it (no bar
# or sheet over it) and where it lies.
DOCK_CHIPS = """() => Array.from(document.querySelectorAll('.dock .pick-chips .chip'), (chip) => {
  const r = chip.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return { pick: chip.dataset.pick, width: r.width, height: r.height, top: r.top, bottom: r.bottom,
           left: r.left, right: r.right, reached: chip === hit || chip.contains(hit) };
})"""


@pytest.mark.parametrize("lang", LANGS)
def test_a_phones_count_chips_come_above_the_hand_not_under_the_thumb(
    server: Server, browser: Any, screenshots: Path, lang: str
) -> None:
    """On a 390x844 touch phone, tapping a topping in the hand offers how many to play as chips of
    at least 44x44 px that a tap reaches (nothing lies over them), above the hand: the hand stays
    where the thumb tapped it (the dock grows upwards), and the chips are not under that thumb."""
    bots = [{"kind": "bot", "level": "random"}]
    table = server.create("mamma-mia", 2, [{"kind": "human", "name": "Ann"}, *bots])
    seat = Seat(browser, server.url(table["seats"][0]["join_path"]), viewport=PHONE, lang=lang, touch=True)
    try:
        page = seat.page
        pickable = page.locator(".dock.your-turn [data-pick^='hand:'].pickable").first
        pickable.wait_for()
        card = page.locator(f".dock [data-pick='{pickable.get_attribute('data-pick')}']")  # (picked, once tapped)
        before = card.bounding_box()
        card.tap()
        page.wait_for_selector(".dock .pick-chips .chip[data-pick^='count:']")
        after = card.bounding_box()
        assert before and after, (before, after)
        # (a chosen card is lifted by 3 px: style.css, .picked)
        assert abs(after["y"] - before["y"]) <= 4 and after["x"] == before["x"], (before, after)
        chips = page.evaluate(DOCK_CHIPS)
        assert chips and all(c["pick"].startswith("count:") for c in chips), chips
        for chip in chips:
            assert chip["width"] >= 44 and chip["height"] >= 44, chip
            assert chip["reached"], chip
            assert chip["left"] >= 0 and chip["right"] <= PHONE["width"] and chip["top"] >= 0, chip
            assert chip["bottom"] <= after["y"], (chip, after)  # above the hand, clear of the thumb
        page.screenshot(path=str(screenshots / f"phone_count_chips_{lang}.png"))
        # A chip plays as it says: the topping goes into the oven.
        version = page.evaluate("document.body.dataset.version")
        page.locator(".dock .pick-chips .chip[data-pick^='count:']").first.tap()
        page.locator(".dock #confirm").tap()
        page.wait_for_function("(v) => document.body.dataset.version !== v", arg=version)
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()


def test_a_phone_waiting_at_a_public_table_has_nothing_too_small_to_tap(server: Server, browser: Any) -> None:
    """The waiting note in a phone's dock (free seats, time waited, the bots' countdown, "Leave this
    table") keeps the phone's goals: every target at least 44x44 px, nothing sticking out, no scrolling."""
    body = {"game": "mottainai", "players": 4, "public": True, "fill_bots_after": 600, "seats": [{"kind": "human"}] * 4}
    created = httpx.post(f"{server.base}/api/tables", json=body, timeout=60)
    assert created.status_code == 201, created.text
    table_id = created.json()["table"]["id"]
    sat = httpx.post(f"{server.base}/api/tables/{table_id}/sit", json={"name": "Ann"}, timeout=60)
    assert sat.status_code == 200, sat.text
    seat = Seat(browser, server.url(f"/play/{table_id}#token={sat.json()['token']}"), viewport=PHONE, touch=True)
    try:
        seat.page.wait_for_selector(".dock #seat-wait #wait-bots")
        check_goals(seat.page, "waiting at a public table")
        assert not seat.errors, seat.errors
    finally:
        seat.context.close()


def test_playing_against_bots_opens_the_table_in_the_lobbys_own_tab(server: Server, browser: Any) -> None:
    """A table of one player against bots: its seat's "Open" plays in this tab (no new tab to lose the
    lobby in); the back button shows the lobby's links again. A table with other players' links to
    hand out opens its seats in new tabs, the lobby staying beside them."""
    context, page, errors = new_page(browser, "en")
    try:
        page.goto(server.base + "/")
        page.click("button.game-pick[data-game=sweet-nose]")
        assert page.evaluate("Array.from(document.querySelectorAll('select[name$=-kind]'), (s) => s.value)") == [
            "human",
            "bot",
            "bot",
        ]
        page.click("#create")
        page.wait_for_selector(".created .seat-link")
        link = page.locator(".created .seat-link a.join-link")
        assert link.count() == 1 and link.get_attribute("target") is None
        link.click()
        page.wait_for_url("**/play/*#token=*")
        page.wait_for_selector("body[data-version] #moves")
        assert context.pages == [page]
        page.go_back()
        page.wait_for_selector(".created .seat-link")
        # Two people: the links to hand out stay in the lobby, each seat opens in a tab of its own.
        page.click("#create-another")
        page.wait_for_selector("#create")
        page.click("button.game-pick[data-game=sweet-nose]")
        page.select_option("select[name=seat-1-kind]", "human")
        page.click("#create")
        page.wait_for_selector(".created .seat-link")
        links = page.locator(".created .seat-link a.join-link")
        assert links.count() == 2
        assert all(links.nth(i).get_attribute("target") == "_blank" for i in range(2))
        assert not errors, errors
    finally:
        context.close()
