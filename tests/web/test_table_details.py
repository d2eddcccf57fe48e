"""The small things a player met on the table, each as the page behaves:

* an undo's line in the log is worded in the reader's language;
* Mottainai's "Doll" badge names the card in the reader's language;
* pasting another link of the same table (only the part after # differs) starts the page afresh,
  and a made-up claim code is called a wrong link, not an "already used" one;
* the host's panel offers no new link for the host's own seat (test_browser: none after the end);
* a double click on a topping picks it once and selects no text;
* Mottainai's card names never run into their ⓘ (no ⓘ at all on a phone);
* a spectator has no Sound or "notify me" buttons (a finished table shows nobody's turn: test_phone);
* Czech and Chinese log lines read well where a name or "you" goes into them;
* the Czech lobby keeps its option labels on at most two lines.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .conftest import Server
from .test_browser import DESKTOP, PHONE, Seat
from .test_card_elements import KEEP_LAST_STATE
from .test_phone import foreign

WEB = Path(__file__).resolve().parents[2] / "src" / "parlor" / "web"


def catalog(lang: str) -> dict[str, str]:
    return json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def card_name(lang: str, card: str) -> str:
    return json.loads((WEB / "i18n" / f"mottainai_cards.{lang}.json").read_text(encoding="utf-8"))[card]["name"]


def test_an_undo_is_logged_in_the_readers_language(server: Server, browser: Any) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    table = server.create("mamma-mia", 2, seats, {"start_player": 0})
    ann = Seat(browser, server.url(table["seats"][0]["join_path"]), lang="cs")
    page = ann.page
    try:
        page.evaluate("document.getElementById('move-list').open = true")
        before = ann.version()
        page.locator("button.move[data-type=play_toppings]").first.click()
        page.wait_for_function(f"document.body.dataset.version !== '{before}'")
        before = ann.version()
        page.locator("#undo").click()
        page.wait_for_function(f"document.body.dataset.version !== '{before}'")
        line = page.locator("#log-lines li.ev-undone")
        line.wait_for()
        text = line.inner_text()
        assert text == catalog("cs")["log.undone"].replace("{who}", catalog("cs")["ui.you"]), text
        assert not foreign(page.locator("#log-lines").inner_text(), "cs")
        assert not ann.errors, ann.errors
    finally:
        ann.close()


# A Mottainai table drawn by its renderer from the last frame, with one change: the second player's
# task was taken with Doll.
DOLL = """async () => {
  const renderer = (await import("/static/games/mottainai.js")).default;
  const { t, tMaybe } = await import("/static/js/i18n.js");
  const view = structuredClone(window.__lastState.view);
  view.players_info[1].task = { card: "fan", role: "clerk", doll: true };
  const board = renderer.renderTable(view, { you: null, seatName: (s) => `P${s}`, t, tMaybe, phone: false });
  return board.querySelector(".doll-badge").textContent;
}"""


def mottainai_watcher(server: Server, browser: Any, lang: str) -> Seat:
    """A spectator of a new two-player Mottainai table in ``lang``, once its board is drawn."""
    table = server.create("mottainai", 2, [{"kind": "human"}, {"kind": "bot", "level": "random"}])
    watcher = Seat(browser, server.url(table["spectator_path"]), lang=lang, init_script=KEEP_LAST_STATE)
    watcher.page.wait_for_selector(".board.mt")
    return watcher


@pytest.mark.parametrize("lang", ["zh-Hant", "ja", "cs"])
def test_the_doll_badge_names_the_card_in_the_readers_language(server: Server, browser: Any, lang: str) -> None:
    watcher = mottainai_watcher(server, browser, lang)
    try:
        badge = watcher.page.evaluate(DOLL)
        assert badge == card_name(lang, "doll") and badge != "Doll", badge
    finally:
        watcher.close()


def test_another_link_of_the_table_starts_afresh_and_a_made_up_code_is_a_wrong_link(
    server: Server, browser: Any
) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}]
    table = server.create("mamma-mia", 2, seats)
    table_id = table["table"]["id"]
    en = catalog("en")
    context = browser.new_context(viewport=PHONE, has_touch=True)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        # Made up: not even the shape of a claim code.
        page.goto(server.url(f"/play/{table_id}#claim=made-up"))
        page.wait_for_selector(".error-box")
        assert page.locator(".error-box h1").inner_text() == en["fatal.bad_claim"]
        # The page that stops there still has its language menu, and it says the refusal again.
        page.select_option("#lang", "cs")
        page.wait_for_function(
            "(words) => document.querySelector('.error-box h1').textContent === words",
            arg=catalog("cs")["fatal.bad_claim"],
        )
        page.select_option("#lang", "en")
        page.wait_for_function(
            "(words) => document.querySelector('.error-box h1').textContent === words", arg=en["fatal.bad_claim"]
        )
        # The shape of one, but no seat's: the server refuses it.
        page.goto(server.url(f"/play/{table_id}#claim={'x' * 32}"))
        page.wait_for_selector(".error-box")
        assert page.locator(".error-box h1").inner_text() == en["fatal.link_used"]
        # The spectator link of the same table pasted over it: only the fragment differs.
        spectator = table["spectator_path"].split("#", 1)[1]
        page.evaluate(f"location.hash = '#{spectator}'")
        page.wait_for_function("document.body && document.body.dataset.role === 'spectator'")
        assert page.locator(".error-box").count() == 0
        # A spectator plays no turn: no sound, no "notify me on my turn".
        assert page.locator("#sound-toggle, #notify").count() == 0
        assert page.locator("#rules-link").count() == 1
        assert not errors, errors
    finally:
        context.close()


def test_the_host_gets_no_new_link_for_their_own_seat(server: Server, browser: Any) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    table = server.create("mamma-mia", 2, seats)
    host = f"localStorage.setItem('parlor.host.{table['table']['id']}', '{table['host_token']}')"
    ann = Seat(browser, server.url(table["seats"][0]["join_path"]), init_script=host)
    try:
        ann.page.wait_for_selector("#host .host-seat[data-seat='1'] .host-new-link")
        assert ann.page.locator("#host .host-seat[data-seat='0']").count() == 1
        assert ann.page.locator("#host .host-seat[data-seat='0'] .host-new-link").count() == 0
    finally:
        ann.close()


def test_a_double_click_picks_a_topping_once(server: Server, browser: Any) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}]
    table = server.create("mamma-mia", 2, seats, {"start_player": 0})
    ann = Seat(browser, server.url(table["seats"][0]["join_path"]))
    page = ann.page
    try:
        topping = page.locator('.board [data-pick^="hand:"].pickable').first
        topping.wait_for()
        key = topping.get_attribute("data-pick")
        drawn = page.evaluate("document.body.dataset.drawn")
        topping.dblclick()
        page.wait_for_function(f"document.body.dataset.drawn !== '{drawn}'")
        picked = page.locator(f'.board [data-pick="{key}"]')
        assert "picked" in (picked.get_attribute("class") or ""), picked.get_attribute("class")
        assert page.locator(f'#moves .chosen-part[data-key="{key}"]').count() == 1
        assert page.evaluate("getSelection().toString()") == ""
        assert not ann.errors, ann.errors
    finally:
        ann.close()


# Every Mottainai card on the floor of the page's table, drawn by the renderer into the page: for
# each card, whether its name and its ⓘ overlap, and whether the name fits in the card.
ALL_CARDS = """async (phone) => {
  const renderer = (await import("/static/games/mottainai.js")).default;
  const { CARDS } = await import("/static/games/mottainai_cards.js");
  const { t, tMaybe } = await import("/static/js/i18n.js");
  const view = structuredClone(window.__lastState.view);
  view.floor = Object.keys(CARDS);
  const ctx = { you: null, seatName: (s) => `P${s}`, t, tMaybe, phone, playerChips: () => null };
  const board = renderer.renderTable(view, ctx);
  board.classList.add("board");
  const area = document.querySelector(".area-board");
  const old = area.firstElementChild;
  area.replaceChildren(board);
  const out = [];
  for (const card of board.querySelectorAll(".mt-floor .mt-card")) {
    const name = card.querySelector(".mt-name");
    const info = card.querySelector(".card-info");
    // The text itself, not its box (which stretches across the card).
    const range = document.createRange();
    range.selectNodeContents(name);
    const n = range.getBoundingClientRect(), c = card.getBoundingClientRect();
    const i = info ? info.getBoundingClientRect() : null;
    out.push({ card: card.dataset.card, text: name.textContent, info: Boolean(info),
      overlap: i ? n.right > i.left - 1 && n.bottom > i.top && n.top < i.bottom : false,
      fits: n.left >= c.left - 0.5 && n.right <= c.right + 0.5 });
  }
  area.replaceChildren(old);
  return out;
}"""


@pytest.mark.parametrize("lang", ["en", "zh-Hant", "ja", "cs"])
def test_card_names_never_run_into_their_info_button(server: Server, browser: Any, lang: str) -> None:
    watcher = mottainai_watcher(server, browser, lang)
    try:
        for size, phone in ((DESKTOP, False), (PHONE, True)):
            watcher.page.set_viewport_size(size)
            watcher.page.wait_for_function(f"document.body.dataset.layout === '{'phone' if phone else 'desktop'}'")
            cards = watcher.page.evaluate(ALL_CARDS, phone)
            assert len(cards) == 54
            assert all(c["info"] is not phone for c in cards), "a phone's cards have no ⓘ; a desktop's have one"
            bad = [c["text"] for c in cards if c["overlap"] or not c["fits"]]
            assert not bad, f"{lang} {size}: names run into the ⓘ or out of their card: {bad}"
    finally:
        watcher.close()


# Log lines and sentences worded by the page's own modules for made-up events.
WORDED = """async (lang) => {
  const i18n = await import("/static/js/i18n.js");
  await i18n.loadLang(lang);
  const mt = (await import("/static/games/mottainai.js")).default;
  const sn = (await import("/static/games/sweet_nose.js")).default;
  const names = { 0: "Ann" };
  const you = (o) => i18n.t(o.object ? "ui.you_object" : "ui.you");
  const seatName = (s, o = {}) => (s === 0 ? you(o) : names[s] || i18n.t("ui.player_n", { n: s + 1 }));
  const ctx = { you: 0, t: i18n.t, tMaybe: i18n.tMaybe, seatName };
  const line = (r, event, data) => r.eventLines({ event, data }, ctx)[0];
  const text = (l) => (typeof l === "string" ? l : l.text);
  return {
    perform: text(line(mt, "perform_task", { seat: 1, owner: 0, role: "smith" })),
    performOther: text(line(mt, "perform_task", { seat: 1, owner: 2, role: "smith" })),
    oldTask: text(line(mt, "old_task", { seat: 1, card: "fan", to: "floor" })),
    taken: text(line(mt, "work_taken", { seat: 1, owner: 0, card: "fan" })),
    exchanged: text(line(sn, "exchanged_with_player",
      { seat: 1, target: 3, took: "peanut_brittle", gave: "candied_haws" })),
  };
}"""


def test_log_lines_read_well_in_czech_and_chinese(server: Server, browser: Any) -> None:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(server.base + "/")
        page.wait_for_selector("button.game-pick")
        cs = page.evaluate(WORDED, "cs")
        assert "(hráč vás)" not in cs["perform"] and "váš úkol" in cs["perform"], cs["perform"]
        assert "Hráč 3" in cs["performOther"], cs["performOther"]
        assert "jde do:" not in cs["oldTask"] and "na podlahu" in cs["oldTask"], cs["oldTask"]
        assert "vaše dílo" in cs["taken"], cs["taken"]
        zh = page.evaluate(WORDED, "zh-Hant")
        # A name in Latin letters or digits stands apart from the Chinese around it.
        assert "玩家 4 那裡" in zh["exchanged"] and "玩家 2 從" in zh["exchanged"], zh["exchanged"]
        assert "你的" in zh["perform"], zh["perform"]
    finally:
        context.close()


@pytest.mark.parametrize("width", [390, 800, 1280])
def test_czech_lobby_option_labels_stay_on_two_lines(server: Server, browser: Any, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.add_init_script("localStorage.setItem('parlor.lang', 'cs')")
    try:
        page = context.new_page()
        page.goto(server.base + "/")
        page.wait_for_selector("button.game-pick")
        for game in ("mamma-mia", "sweet-nose", "mottainai"):
            page.click(f"button.game-pick[data-game={game}]")
            page.evaluate("document.querySelectorAll('details.options').forEach((d) => (d.open = true))")
            page.wait_for_selector(".opt label")
            lines = page.evaluate(
                """() => Array.from(document.querySelectorAll('.opt > label'), (l) => [
                  Math.round(l.getBoundingClientRect().height / parseFloat(getComputedStyle(l).lineHeight)),
                  l.textContent,
                ])"""
            )
            long = [text for n, text in lines if n > 2]
            assert lines and not long, f"{game} at {width}px: labels on more than two lines: {long}"
            assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()


# ---------------------------------------------------------------------------- card texts and copies
# The centre of an element in the viewport, where a finger lands on it.
CENTRE = """(el) => {
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}"""
SHEET_OPEN = "document.getElementById('card-sheet')?.open === true"
CHOSEN = "Array.from(document.querySelectorAll('#moves .chosen-part'), (e) => e.dataset.key)"


def test_a_phone_opens_a_card_text_by_a_long_press_or_a_tap_on_a_card_that_plays_nothing(
    server: Server, browser: Any
) -> None:
    """On a phone a card has no ⓘ (a tap meant for a big card must not land on a small button beside
    it): a tap on a card that plays nothing opens its text in the sheet; a press held on a playable
    card opens its text and plays nothing; a tap on that card picks it and opens nothing."""
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    # Ann begins: her first decision (a task from her hand) comes before anyone took the floor's cards.
    table = server.create("mottainai", 3, seats, {"start_player": 0})
    # A short hold, so that the test need not hold long; the test waits for the sheet, not the clock.
    ann = Seat(browser, server.url(table["seats"][0]["join_path"], hold=300), viewport=PHONE, touch=True)
    page = ann.page
    cdp = ann.context.new_cdp_session(page)
    try:
        page.wait_for_function("document.body.dataset.yourTurn === '1' && document.body.dataset.pending === '0'")
        assert page.locator(".card-info").count() == 0, "a phone's cards have no ⓘ"
        version = ann.version()
        # A card on the floor plays nothing now: a tap opens its text.
        inert = page.locator(".board .mt-floor .mt-card[data-info]:not([data-act])").first
        inert_title = inert.get_attribute("data-info")
        inert.tap()
        page.wait_for_function(SHEET_OPEN)
        assert page.locator("#card-sheet-title").inner_text() == inert_title
        assert page.locator("#card-sheet .sheet-text").inner_text().strip(), "the sheet has the card's text"
        sheet = page.locator("#card-sheet").bounding_box()
        assert sheet and sheet["x"] >= 0 and sheet["x"] + sheet["width"] <= PHONE["width"] + 1, sheet
        page.locator("#card-sheet-close").tap()
        page.wait_for_function(f"!({SHEET_OPEN})")
        # A press held on a card of the hand, playable now: its text, and nothing played.
        card = page.locator("#moves [data-act='pick'][data-info]").first
        key, title = card.get_attribute("data-pick"), card.get_attribute("data-info")
        at = card.evaluate(CENTRE)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [at]})
        page.wait_for_function(SHEET_OPEN)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        assert page.locator("#card-sheet-title").inner_text() == title
        page.locator("#card-sheet-close").tap()
        page.wait_for_function(f"!({SHEET_OPEN})")
        assert ann.version() == version and page.evaluate(CHOSEN) == [], "the long press played the card"
        # A tap on the same card is a move (or its first part), never its text.
        page.locator(f"#moves [data-pick='{key}']").first.tap()
        page.wait_for_function(
            f"([key, v]) => document.body.dataset.version !== v || ({CHOSEN}).includes(key)", arg=[key, version]
        )
        assert not page.evaluate(SHEET_OPEN), "a tap on a playable card opened its text"
        assert not ann.errors, ann.errors
    finally:
        ann.close()


# The ids drawn twice or more on the board with a text that opens (two copies at 4-6 players).
TWINS = """() => {
  const count = new Map();
  for (const el of document.querySelectorAll(".board .mt-card[data-open-key]")) {
    count.set(el.dataset.card, (count.get(el.dataset.card) || 0) + 1);
  }
  return [...count].filter(([, n]) => n > 1).map(([id]) => id);
}"""
COPIES = ".board .mt-card[data-open-key][data-card='{}']"
OPENED = """(sel) => Array.from(document.querySelectorAll(sel), (el) => el.classList.contains("open"))"""


def test_two_copies_of_a_card_open_their_texts_one_at_a_time(server: Server, browser: Any) -> None:
    """At 6 players the two decks hold two copies of every card: the ⓘ of one copy opens that copy's
    text alone, and it stays the only one open while the table is drawn again."""
    for _ in range(5):  # a finished table nearly always shows some card twice; another table if not
        table = server.create("mottainai", 6, [{"kind": "bot", "level": "random"}] * 6)
        watcher = Seat(browser, server.url(table["spectator_path"]))
        page = watcher.page
        try:
            page.wait_for_selector("#result-dialog[open]", timeout=120000)
            page.locator("#result-close").click()
            twins = page.evaluate(TWINS)
            if not twins:
                continue
            card = twins[0]
            copies = page.locator(COPIES.format(card))
            assert page.evaluate(OPENED, COPIES.format(card)) == [False] * copies.count()
            copies.nth(1).locator(".card-info").click()
            opened = page.evaluate(OPENED, COPIES.format(card))
            assert opened[1] and sum(opened) == 1, opened
            # Drawn again (in another language): still that copy alone.
            page.select_option("#lang", "ja")
            page.wait_for_function("document.documentElement.lang === 'ja'")
            opened = page.evaluate(OPENED, COPIES.format(card))
            assert opened[1] and sum(opened) == 1, opened
            copies.nth(0).locator(".card-info").click()
            assert page.evaluate(OPENED, COPIES.format(card))[:2] == [True, True]
            copies.nth(1).locator(".card-info").click()
            opened = page.evaluate(OPENED, COPIES.format(card))
            assert opened[0] and sum(opened) == 1, opened
            assert not watcher.errors, watcher.errors
            return
        finally:
            watcher.close()
    raise AssertionError("five finished 6-player tables showed no card twice")


# Counts each WebSocket frame after the page's own handler ran on it: a listener added right
# behind the page's runs after it, so a frame counted here has been handled as far as the page
# handles it at once.
COUNT_HANDLED_FRAMES = """(() => {
  window.__handled = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    addEventListener(type, listener, options) {
      super.addEventListener(type, listener, options);
      if (type === "message") {
        super.addEventListener("message", (m) => {
          try { window.__handled.push(JSON.parse(m.data).type); } catch { /* not JSON */ }
        });
      }
    }
  };
})()"""


def test_a_state_waits_for_its_games_renderer(server: Server, browser: Any) -> None:
    """A slow connection delivers the game's renderer after the first state: the page draws nothing
    until it has it (drawn by the generic renderer, every move would be a plain button "move:<id>"
    instead of its card), then draws the cards as cards."""
    table = server.create("mottainai", 2, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}])
    context = browser.new_context(viewport=DESKTOP)
    held: list[Any] = []
    try:
        context.add_init_script(COUNT_HANDLED_FRAMES)
        context.add_init_script(KEEP_LAST_STATE)
        context.route("**/static/games/mottainai.js", lambda route: held.append(route))
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.url(table["seats"][0]["join_path"]), wait_until="commit")
        page.wait_for_function("window.__handled && window.__handled.includes('state')", timeout=60000)
        for _ in range(1000):  # each round trip lets the driver hand over the held request
            if held:
                break
            page.evaluate("0")
        assert held, "the page never asked for the Mottainai renderer"
        # The state has arrived and the renderer has not: nothing is drawn yet.
        assert page.evaluate("document.body.dataset.version") is None
        assert page.locator("[data-pick^='move:']").count() == 0
        held[0].continue_()
        page.wait_for_function("document.body.dataset.yourTurn === '1'", timeout=60000)
        assert page.locator(".board .mt-card").count() > 0
        # Only the moves no card or place stands for (the renderer gives them no parts) are buttons.
        buttons = page.evaluate(
            """async () => {
                 const renderer = (await import("/static/games/mottainai.js")).default;
                 const f = window.__lastState;
                 const want = f.legal.filter((e) => !renderer.parts(e.action, f.view, { you: f.view.you }));
                 return {
                   want: want.map((e) => `move:${e.id}`).sort(),
                   got: Array.from(document.querySelectorAll("[data-pick^='move:']"), (e) => e.dataset.pick).sort(),
                 };
               }"""
        )
        assert buttons["got"] == buttons["want"], buttons
        assert not errors, errors
    finally:
        for route in held[1:]:
            route.continue_()
        context.close()
