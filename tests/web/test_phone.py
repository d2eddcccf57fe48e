"""The table on a phone: games of each game at its largest table, played by tapping at 390x844
and 360x740, in Chinese, Japanese and Czech, and Mottainai at six on a short 360x600 screen, where a
crowded table must be drawn denser to keep every playable card in view. One whole game of each game
is tapped through on a phone (WHOLE); the other phones and languages tap until every usual kind of
decision was checked, and the rest of their game is played over the API before the end is checked.

At every decision of the human seat the page is checked against the phone's goals:

* the page never scrolls: not down (every legal move of the turn is in view — its parts in the dock
  or on the table above it, Confirm beside the hand) and not sideways (nothing sticks out, end
  screen included; only a row made to be swiped — the hand, the floor — is wider than the screen);
* everything a finger can touch is at least 44x44 CSS px;
* no English word and no catalog key reaches the page (every line of the log included), and then
  the finished game is replayed step by step in each of the three languages, and its whole log read
  on the table page, with the same check.

A decision that offers cards from several other players' places (Mottainai at six) is reached
deterministically too, from a seeded record: those cards come to the dock, all in view, and play.

The end of the game is an event: a dialog with the result and its breakdown, "play again" and the
replay, in front of the table, focused and announced. Screenshots: artifacts/screenshots/phone_*.png.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from parlor import games as registry

from .conftest import Server, finish_over_the_api, start_server, stop_server, write_record
from .test_browser import Seat, check_result
from .test_card_elements import (
    CONFIRM,
    GAMES,
    KEEP_LAST_STATE,
    SNAPSHOT,
    USUAL_KINDS,
    YOUR_TURN_OR_OVER,
    check,
    check_sent,
    mottainai_cards,
    offered,
    play_checking,
    press,
)

WEB = Path(__file__).resolve().parents[2] / "src" / "parlor" / "web"
FAILED = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots" / "phone_failed.png"
# Two common phones, and a short screen (a small phone, or a browser's bars taking their room)
# where a crowded Mottainai table must be drawn denser (table.js, fitPhoneBoard).
PHONES = {
    "390": {"width": 390, "height": 844},
    "360": {"width": 360, "height": 740},
    "small": {"width": 360, "height": 600},
}
LARGEST = {"mamma-mia": 5, "sweet-nose": 5, "mottainai": 6}
NAME = "Ann"  # the human seat's name: the only word of the page no catalog has

# What the phone's goals say about the page now: the page's own size and scroll, elements sticking
# out sideways (outside a row made to scroll), targets under 44 px, playable things out of view
# (outside the screen, or outside a scrolled part of it: under the dock, above the table's top),
# and the parts of moves that can be played from where they are.
GOALS = """() => {
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  const seen = (el) => el.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true })
    && el.getBoundingClientRect().width > 0 && el.getBoundingClientRect().height > 0;
  const said = (el) => el.outerHTML.replace(/\\s+/g, " ").slice(0, 160);
  // A row made to be swiped (overflow-x: auto or scroll), or a box that cuts off what sticks out.
  const scrollsX = (a) =>
    !(a instanceof SVGElement) && ["auto", "scroll", "hidden"].includes(getComputedStyle(a).overflowX);
  const clipsY = (a) => getComputedStyle(a).overflowY !== "visible";
  const out = {
    scrollY: window.scrollY, vw, vh, overflow: [], small: [], hidden: [], reachable: [],
    height: document.scrollingElement.scrollHeight, width: document.scrollingElement.scrollWidth,
  };
  const out_of = new Set(); // elements sticking out: only the outermost of them is reported
  for (const el of document.body.querySelectorAll("*")) {
    if (!seen(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.right <= vw + 1 && r.left >= -1) continue;
    let row = el.parentElement;
    while (row && row !== document.body && !scrollsX(row)) row = row.parentElement;
    const box = row && row !== document.body ? row.getBoundingClientRect() : null;
    if (box && box.right <= vw + 1 && box.left >= -1) continue;
    out_of.add(el);
    if (!out_of.has(el.parentElement)) out.overflow.push(`${Math.round(r.left)}..${Math.round(r.right)} ${said(el)}`);
  }
  const touchable = "button, a[href], select, input, textarea, summary, [role=button], [role=tab], [data-act], "
    + "[tabindex]:not([tabindex='-1'])";
  for (const el of document.querySelectorAll(touchable)) {
    if (!seen(el) || el.closest(".sr-only")) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 43.5 || r.height < 43.5) out.small.push(`${Math.round(r.width)}x${Math.round(r.height)} ${said(el)}`);
  }
  for (const el of document.querySelectorAll("[data-act]")) {
    if (!seen(el)) continue;
    const r = el.getBoundingClientRect();
    let top = 0, bottom = vh;
    for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      if (!clipsY(a)) continue;
      const b = a.getBoundingClientRect();
      top = Math.max(top, b.top);
      bottom = Math.min(bottom, b.bottom);
    }
    if (r.top < top - 0.5 || r.bottom > bottom + 0.5) out.hidden.push(said(el));
    else if (el.dataset.pick) out.reachable.push(el.dataset.pick);
  }
  return out;
}"""

# Every text the page shows or says, once each: its words (hidden ones too: the log behind its tab,
# the move list), titles and labels, the tab's title; not the language menu, which names each
# language in itself.
COLLECT = """const collect = (into) => {
  into.add(document.title);
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    if (!n.parentElement.closest("#lang, script, style") && n.nodeValue.trim()) into.add(n.nodeValue.trim());
  }
  for (const e of document.querySelectorAll("[title], [aria-label], [data-info], [placeholder]")) {
    if (e.closest("#lang")) continue;
    for (const a of ["title", "aria-label", "data-info", "placeholder"]) {
      if (e.getAttribute(a)) into.add(e.getAttribute(a));
    }
  }
  return into;
};"""
TEXTS = "() => { " + COLLECT + ' return [...collect(new Set())].join("\\n"); }'
# The replay, stepped through from the first step to the last (the arrow key), every text of every step.
REPLAY_TEXTS = (
    "() => { "
    + COLLECT
    + """
  const texts = collect(new Set());
  for (let i = 1; i < Number(document.body.dataset.steps); i++) {
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight" }));
    collect(texts);
  }
  return { texts: [...texts].join("\\n"), last: document.body.dataset.step };
}"""
)
# After a change of language: the Mottainai card texts of the new one are there (and drawn).
CARD_TEXTS = """async (lang) => {
  if (document.body.dataset.game !== "mottainai") return;
  const { loadCardTexts } = await import("/static/js/card_text.js");
  await loadCardTexts(lang);
}"""


# ---------------------------------------------------------------------------- words of each language
def catalog(lang: str) -> dict[str, Any]:
    return json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def card_texts(lang: str) -> list[str]:
    texts = json.loads((WEB / "i18n" / f"mottainai_cards.{lang}.json").read_text(encoding="utf-8"))
    return [v for card, entry in texts.items() if card != "_glossary" for v in entry.values()]


LATIN = re.compile(r"[A-Za-z]{3,}")
LETTERS = re.compile(r"[^\W\d_]{3,}")  # words of any script with their accents (Czech)


def words(texts: list[str], pattern: re.Pattern[str] = LATIN) -> set[str]:
    return {w.lower() for text in texts for w in pattern.findall(text)}


def own_words(lang: str) -> set[str]:
    texts = list(catalog(lang).values()) + card_texts(lang) + [NAME, "Parlor"]
    return words(texts, LETTERS if lang == "cs" else LATIN)


KEYS = set(catalog("en"))
OWN = {lang: own_words(lang) for lang in ("zh-Hant", "ja", "cs")}
RAW_KEY = re.compile(r"\b[a-z][a-z_-]*(?:\.[A-Za-z0-9_-]+)+\b")


def foreign(text: str, lang: str) -> list[str]:
    """The words no catalog of ``lang`` has, and the catalog keys, in a text meant to be in ``lang``:
    in Chinese and Japanese any word in Latin letters, in Czech any word at all (each is one of the
    Czech catalogs' words, a card's name or a player's name)."""
    found = [k for k in RAW_KEY.findall(text) if k in KEYS]
    found += re.findall(r"\{\w+(?::\w+)?\}", text)  # a placeholder left unfilled
    found += [w for w in (LETTERS if lang == "cs" else LATIN).findall(text) if w.lower() not in OWN[lang]]
    return sorted(set(found))


def check_language(page: Any, lang: str, where: str) -> None:
    leaks = foreign(page.evaluate(TEXTS), lang)
    assert not leaks, f"{where}: English or raw keys on a {lang} page: {leaks}"


def check_the_whole_game_in_each_language(seat: Seat) -> None:
    """The finished game in each language: its whole log on the table page, and its replay step by
    step from the seat's view (the table page's result links there)."""
    page = seat.page
    replay = page.locator("#replay-link").get_attribute("href")
    page.locator("#result-close").tap()
    page.wait_for_selector("#show-result")
    for lang in ("zh-Hant", "ja", "cs"):
        page.select_option("#lang", lang)
        page.wait_for_function(f"document.documentElement.lang === '{lang}'")
        page.evaluate(CARD_TEXTS, lang)
        check_language(page, lang, f"the finished table in {lang}")
        other = seat.context.new_page()
        try:
            other.goto(page.url.split("/play/")[0] + replay)
            other.wait_for_selector("body[data-ready='1'] .board")
            stepped = other.evaluate(REPLAY_TEXTS)
            assert stepped["last"] == str(int(other.evaluate("document.body.dataset.steps")) - 1)
            leaks = foreign(stepped["texts"], lang)
            assert not leaks, f"the replay in {lang}: English or raw keys: {leaks}"
        finally:
            other.close()


# ---------------------------------------------------------------------------- the goals
def check_goals(page: Any, where: str, legal_parts: list[list[str]] | None = None) -> dict[str, Any]:
    g = page.evaluate(GOALS)
    if g["overflow"] or g["small"] or g["hidden"] or g["height"] > g["vh"] + 1:  # what it looked like
        page.screenshot(path=str(FAILED))
    assert g["scrollY"] == 0 and g["height"] <= g["vh"] + 1, f"{where}: the page scrolls down ({g['height']}px)"
    assert g["width"] <= g["vw"] + 1, f"{where}: the page is {g['width']}px wide"
    assert not g["overflow"], f"{where}: sticks out sideways: {g['overflow'][:5]}"
    assert not g["small"], f"{where}: touch targets under 44x44 px: {g['small'][:8]}"
    assert not g["hidden"], f"{where}: playable but out of view: {g['hidden'][:5]}"
    for parts in legal_parts or []:
        assert set(parts) & set(g["reachable"]), f"{where}: no part of the move {parts} is in view"
    return g


# The whole game on a phone, of each game: the 390 px phone (which reads the finished game in each
# language too) and, for Mottainai, the short screen, whose crowded late game is what the denser
# drawings are for. The other phones and languages check every usual kind of decision (USUAL_KINDS)
# and the end; the rest of their game is played over the API, not drawn on a phone once more.
WHOLE = {("mamma-mia", "390"), ("sweet-nose", "390"), ("mottainai", "small")}


@pytest.mark.parametrize(
    ("game", "size", "lang"),
    [
        ("mamma-mia", "390", "zh-Hant"),
        ("mamma-mia", "360", "cs"),
        ("sweet-nose", "390", "ja"),
        ("sweet-nose", "360", "zh-Hant"),
        ("mottainai", "390", "cs"),
        ("mottainai", "360", "ja"),
        ("mottainai", "small", "zh-Hant"),
    ],
)
def test_a_whole_game_on_a_phone(
    server: Server, browser: Any, screenshots: Path, game: str, size: str, lang: str
) -> None:
    players = LARGEST[game]
    rng = random.Random(f"phone-{game}-{size}")
    seats = [{"kind": "human", "name": NAME}] + [{"kind": "bot", "level": "random"}] * (players - 1)
    table = server.create(game, players, seats)
    url = server.url(table["seats"][0]["join_path"])
    seat = Seat(browser, url, viewport=PHONES[size], lang=lang, init_script=KEEP_LAST_STATE, touch=True)
    page = seat.page
    stem = f"phone_{game.replace('-', '_')}_{size}"
    shots = {1, 6, 15}
    decisions = 0
    dense: Counter[str] = Counter()

    def at_decision(snap: dict[str, Any]) -> None:
        nonlocal decisions
        where = f"{game} {size} {lang} version {snap['version']}"
        fresh = not snap["chosen"] and not snap["over"]
        legal = [e["parts"] or [f"move:{e['id']}"] for e in snap["legal"]] if fresh and not snap["picker"] else None
        check_goals(page, where, legal)
        level = page.evaluate("document.body.dataset.dense || '0'")
        if level != "0" and not dense[level]:  # the first table drawn denser, to look at
            page.screenshot(path=str(screenshots / f"{stem}_dense{level}.png"))
        dense[level] += 1
        check_language(page, lang, where)
        if fresh:
            decisions += 1
            if decisions in shots:
                page.screenshot(path=str(screenshots / f"{stem}_{decisions:02d}.png"))

    try:
        page.wait_for_selector(f".board.{GAMES[game][1]}")
        assert page.evaluate("document.body.dataset.layout") == "phone"
        if (game, size) in WHOLE:
            play_checking(seat, game, rng, touch=True, check_page=at_decision)
        else:

            def every_usual_kind() -> bool:
                return USUAL_KINDS[game] <= offered(seat)

            play_checking(seat, game, rng, touch=True, check_page=at_decision, until=every_usual_kind)
            if not seat.over():
                print(f"{game} {size}: {decisions} decisions tapped, the rest played over the API")
                address = seat.leave()  # the seat's token is in its fragment once the page claimed the seat
                finish_over_the_api(server, table["table"]["id"], [address.split("#token=")[1]])
                seat.open(address)
                page = seat.page
                play_checking(seat, game, rng, touch=True, check_page=at_decision)  # the end, checked
        print(f"{game} {size}: decisions drawn at each density {dict(dense)}")
        if size == "small":  # a short screen is what the denser drawings are for: they were used
            assert set(dense) - {"0"}, dense
        check_result(seat)
        check_goals(page, f"{game} {size}: the end")
        check_language(page, lang, f"{game} {size}: the end")
        page.screenshot(path=str(screenshots / f"{stem}_end.png"))
        # Closed, the result leaves the table in view (no "turn" left on it) and a way back to it.
        page.locator("#result-close").tap()
        page.wait_for_selector("#show-result")
        assert page.locator(".board .mt-turn, .pchip.moving").count() == 0
        check_goals(page, f"{game} {size}: the table after the end")
        page.screenshot(path=str(screenshots / f"{stem}_after.png"))
        page.locator("#show-result").tap()
        page.wait_for_selector("#result-dialog[open]")
        if size == "390":
            check_the_whole_game_in_each_language(seat)
        assert not seat.errors, seat.errors
    finally:
        seat.close()


# ---------------------------------------------------------------------------- other players' cards to pick
# Moves that take a card from another player's place (their works, helpers, craft bench, sales).
THEIRS = {"take_work", "take_helper", "take_material", "take_sale", "kite_copy"}


def favour_ring_and_sales(action: dict[str, Any]) -> float:
    """Weights of a steered random game: a Ring taken or completed, and selling, much more often than
    at random (a Ring's taking of other players' sales is that rare)."""
    weight = 30.0 if action.get("card") == "ring" else 1.0
    return weight * 10.0 if action["type"] in ("sell", "sell_top", "sell_all", "take_sale") else weight


def crowded_decision(
    players: int,
    options: dict[str, Any],
    kind: str,
    others: int,
    first: int,
    favour: Callable[[dict[str, Any]], float] | None = None,
) -> tuple[int, list[dict[str, Any]]]:
    """A seeded Mottainai game of ``players``, played at random (moves weighted by ``favour`` if
    given), from the first seed from ``first`` on that leads seat 0 to a decision offering ``kind``
    moves (one of THEIRS) from at least ``others`` other players' places: its seed and the record
    up to that decision (deterministic: same seed, same moves)."""
    game = registry.get("mottainai")
    for seed in range(first, first + 100):
        state = game.new_game(players, seed, game.options_from_json(options))
        rng = random.Random(seed)
        record: list[dict[str, Any]] = []
        while not state.is_over:
            seat = next(p for p in range(players) if state.legal_actions(p))
            legal = state.legal_actions(seat)
            offered = {a.to_json().get("player") for a in legal if a.to_json()["type"] == kind}
            if seat == 0 and len(offered - {0}) >= others:
                return seed, record
            if favour is None:
                action = rng.choice(legal)
            else:
                action = rng.choices(legal, [favour(a.to_json()) for a in legal])[0]
            record.append({"seat": seat, "action": action.to_json(), "by": "player" if seat == 0 else "bot"})
            state.apply(seat, action)
    raise AssertionError(f"no seed of {first}..{first + 99} leads seat 0 to {kind} from {others} other players")


# The move, from how many other players at least, the first seed tried (one a few seeds before the
# first that gets there, a random game of six being quick to play out), the phone and the language.
CROWDED = {
    "take_work": (4, 80, "small", "zh-Hant"),  # a Flute: four or five players' paper works
    "take_helper": (2, 300, "small", "zh-Hant"),  # a Sword: two players' helpers
    "take_material": (2, 100, "390", "cs"),  # a Sword: two players' craft benches
    "kite_copy": (1, 45, "small", "ja"),  # a Kite copying a work of the player it was given to
    "take_sale": (2, 455, "390", "cs"),  # a Ring taking a sale of two players (a steered game)
}


@pytest.fixture(scope="module")
def crowded_tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, Any]]]:
    """A server with a six-player Mottainai table per kind of CROWDED, each at the decision of seat 0
    that offers it (its record written to the database while the server is stopped, as a restored
    table is): the kind's table, seed and record. One server for all: two server starts, not ten."""
    players, options = 6, {"max_players": 6}
    tmp = tmp_path_factory.mktemp("crowded")
    games = {}
    for kind, (others, first, _, _) in CROWDED.items():
        # A Ring's choice among other players' sales is too rare in a uniformly random game: steered.
        favour = favour_ring_and_sales if kind == "take_sale" else None
        games[kind] = crowded_decision(players, options, kind, others, first, favour)
    bots = [{"kind": "bot", "level": "random"}] * (players - 1)
    server = start_server(tmp)
    try:
        tables = {kind: server.create("mottainai", players, [{"kind": "human", "name": NAME}, *bots], options)
                  for kind in CROWDED}  # fmt: skip
    finally:
        stop_server(server)
    for kind, (seed, record) in games.items():
        write_record(tmp / "parlor.db", tables[kind]["table"]["id"], seed, record)
    server = start_server(tmp)
    try:
        yield server, {kind: (tables[kind], *games[kind]) for kind in CROWDED}
    finally:
        stop_server(server)


@pytest.mark.parametrize("kind", list(CROWDED))
def test_other_players_cards_to_pick_come_to_the_dock(
    browser: Any, screenshots: Path, crowded_tables: tuple[Server, dict[str, Any]], kind: str
) -> None:
    """Six players on a phone, seat 0 asked to take a card from several other players' places (a
    paper work by Flute, a helper or a material from their craft bench by Sword, a work for a Kite to
    copy, a sale for a Ring): the cards offered there lie in the dock above the hand, beside Confirm, every one in view
    without scrolling the page or the table (a swipe of that row shows the rest, as in the hand), and
    a tap on one plays it. A player's chip opened meanwhile says where its offered place went, and no
    card is drawn twice.

    The table is a real one of a real server, its record (a seeded game played at random up to that
    decision) written to its database while the server is stopped, as a restored table is."""
    server, tables = crowded_tables
    table, seed, record = tables[kind]
    others, _, size, lang = CROWDED[kind]
    seat = None
    try:
        url = server.url(table["seats"][0]["join_path"])
        seat = Seat(browser, url, viewport=PHONES[size], lang=lang, init_script=KEEP_LAST_STATE, touch=True)
        page = seat.page
        page.wait_for_function(YOUR_TURN_OR_OVER, timeout=60000)
        snap = page.evaluate(SNAPSHOT, {"file": "mottainai"})
        assert snap["version"] == str(len(record)) and not snap["over"], snap["version"]
        check(snap, mottainai_cards)
        legal = [e["parts"] or [f"move:{e['id']}"] for e in snap["legal"]]
        g = check_goals(page, f"seed {seed} version {snap['version']}", legal)
        page.screenshot(path=str(screenshots / f"phone_mottainai_{size}_dock_{kind}.png"))
        theirs = sorted({k for parts in legal for k in parts if re.match(r"card:\w+\.[1-5]:", k)})
        assert len({k.split(":")[1] for k in theirs}) >= others, theirs
        # Every one of them in the dock (nothing above it scrolled), none hidden below the fold.
        where = page.evaluate(
            """(keys) => keys.map((k) => {
                 const el = document.querySelector(`[data-pick="${k}"][data-act]`);
                 return el && { key: k, docked: Boolean(el.closest("#moves #dock-picks")) };
               })""",
            theirs,
        )
        assert all(w and w["docked"] for w in where), where
        assert set(theirs) <= set(g["reachable"]), set(theirs) - set(g["reachable"])
        assert page.evaluate("document.getElementById('area-board').scrollTop") == 0
        # A chip opened: the place whose cards are in the dock says so; every card is drawn once.
        owner = theirs[0].split(":")[1].split(".")[1]
        page.locator(f"#pchip-{owner}").tap()
        page.wait_for_selector(f'.pchip.open[data-seat="{owner}"] .mt-row.docked')
        check(page.evaluate(SNAPSHOT, {"file": "mottainai"}), mottainai_cards)
        page.screenshot(path=str(screenshots / f"phone_mottainai_{size}_dock_{kind}_open.png"))
        page.locator(f"#pchip-{owner}").tap()
        page.wait_for_selector(f'.pchip[data-seat="{owner}"]:not(.open)')
        # Those the row shows without a swipe are tappable where they are: the first one is tapped.
        first = page.evaluate(
            """() => {
                 for (const el of document.querySelectorAll("#dock-picks [data-act='pick']")) {
                   const r = el.getBoundingClientRect();
                   const x = r.left + r.width / 2, y = r.top + r.height / 2;
                   const hit = document.elementFromPoint(x, y)?.closest("[data-act]");
                   if (r.left >= 0 && r.right <= innerWidth && hit === el) return el.dataset.pick;
                 }
                 return null;
               }"""
        )
        assert first in theirs, first
        sent_before = page.evaluate("window.__sent.length")
        sel = f'#dock-picks [data-act="pick"][data-pick="{first}"]'
        outcome = press(seat, sel, snap["version"], random.Random(0), touch=True, blocks=["nearest"])
        if outcome == "chosen":  # a move of more parts than the card: Confirm, beside it, plays it
            outcome = press(seat, CONFIRM, snap["version"], random.Random(0), touch=True, blocks=["nearest"])
        assert outcome == "moved", outcome
        sent = page.evaluate("(n) => window.__sent.slice(n)", sent_before)
        assert sent and sent[0]["tapped"] == first, sent
        for move in sent:
            check_sent(snap, move)
        assert page.evaluate("window.scrollY") == 0
        assert not seat.errors, seat.errors
    finally:
        if seat is not None:
            seat.close()


# ---------------------------------------------------------------------------- cards in the dock, moving
# Every card slide (patch.js, flip) as it starts: the element and the offset it starts from.
RECORD_SLIDES = """(() => {
  const animate = Element.prototype.animate;
  window.__slides = new Map();
  Element.prototype.animate = function (frames, options) {
    const start = /translate\\((-?[\\d.]+)px, (-?[\\d.]+)px\\)/.exec(frames[0].transform || "");
    if (start) window.__slides.set(this, [Number(start[1]), Number(start[2])]);
    return animate.call(this, frames, options);
  };
})()"""
# The playable cards of the dock that lie outside the screen, the dock or the row that clips them,
# where they stand now and where their slide (if any) starts.
OUTSIDE_THE_DOCK = """() => {
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  const dock = document.querySelector(".dock").getBoundingClientRect();
  const out = [];
  for (const el of document.querySelectorAll(".dock [data-pick].pickable, .dock .hand-row [data-act]")) {
    for (const slide of el.getAnimations()) slide.finish();  // where it comes to rest
    const r = el.getBoundingClientRect();
    const row = el.closest(".hand-row").getBoundingClientRect();
    const [dx, dy] = window.__slides.get(el) || [0, 0];
    for (const [when, x, y] of [["at rest", 0, 0], ["as its slide starts", dx, dy]]) {
      const top = r.top + y, bottom = r.bottom + y, left = r.left + x, right = r.right + x;
      const inside = (b) => top >= b.top - 0.5 && bottom <= b.bottom + 0.5;
      // sideways the row may be swiped: only up and down must the card be whole
      if (!inside(row) || !inside(dock) || top < 0 || bottom > vh + 0.5 || right < 0 || left > vw)
        out.push(`${el.dataset.pick} ${when}: ${top}..${bottom} (row ${row.top}..${row.bottom})`);
    }
  }
  return out;
}"""


def test_the_cards_in_the_dock_stay_whole_as_the_dock_changes(server: Server, browser: Any, screenshots: Path) -> None:
    """Mamma Mia! on a touch phone, animations on: after the toppings of a turn, the orders to put in
    the oven stay whole in the dock's row — where they stand and where their slide starts (the dock
    shrinking under a card is no move of the card; the row, which clips, cut the slide off)."""
    seats = [{"kind": "human", "name": NAME}, {"kind": "bot", "level": "easy"}]
    table = server.create("mamma-mia", 2, seats)
    context = browser.new_context(viewport=PHONES["390"], is_mobile=True, has_touch=True, device_scale_factor=2)
    context.add_init_script("localStorage.setItem('parlor.lang', 'en')")
    context.add_init_script(RECORD_SLIDES)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(server.url(table["seats"][0]["join_path"], anim=True))
        page.wait_for_selector(".dock [data-pick^='hand:'].pickable")  # step 1: toppings into the oven
        assert not page.evaluate(OUTSIDE_THE_DOCK)
        page.locator(".dock [data-pick^='hand:'].pickable").first.tap()
        page.locator(".dock .pick-chips .chip").first.tap()
        page.locator(".dock .confirm:not([disabled])").first.tap()
        page.wait_for_selector(".dock [data-pick^='order:'].pickable")  # step 2: each player holds an order
        outside = page.evaluate(OUTSIDE_THE_DOCK)
        page.screenshot(path=str(screenshots / "phone_mamma_mia_dock_orders.png"))
        assert not outside, f"playable cards of the dock cut off: {outside}"
        assert not errors, errors
    finally:
        context.close()
