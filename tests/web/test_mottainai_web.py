"""Mottainai in the browser (src/parlor/web/games/mottainai.js): its card data and catalog keys follow
the game, two humans and a bot play a whole game by clicking, the other seat and a spectator never
receive seat 0's hidden hand or waiting-area cards (DOM and WebSocket frames), and the table is
photographed in the four languages, desktop and phone size (artifacts/screenshots/mottainai_*)."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import Server
from .test_browser import (
    DESKTOP,
    GAME_LIMIT,
    LANGS,
    PHONE,
    YOUR_TURN_OR_OVER,
    Seat,
    check_no_private,
    click_one,
    full_page_shot,
    phone_view,
    play_moves,
    settled,
)

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "parlor" / "web"
GAME = ROOT / "src" / "parlor" / "games" / "mottainai"
# Seat 0 may see its own waiting area, so the test can tell its cards apart and look for leaks.
OPTIONS = {"waiting_area_visible_to_owner": True}


def catalog(lang: str) -> dict[str, str]:
    return json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def sources() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(GAME.glob("*.py")))


# ---------------------------------------------------------------------------- data and catalogs
def test_card_data_follows_cards_json() -> None:
    cards = json.loads((GAME / "cards.json").read_text(encoding="utf-8"))
    js = (WEB / "games" / "mottainai_cards.js").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^  (\w+): (\[.*\]),$", js, re.M))
    assert len(rows) == len(cards) == 54
    for c in cards:
        assert json.loads(rows[c["id"]]) == [c["name"], c["material"], c["value"], c["effect"]], c["id"]


def test_run_time_keys_exist_in_every_language() -> None:
    """Keys mottainai.js builds from the data (materials, roles, actions, events, decisions, reasons)."""
    from parlor.core.actions import Action
    from parlor.games.mottainai import actions
    from parlor.games.mottainai.data import MATERIALS, ROLES

    src = sources()
    kinds = [c for c in vars(actions).values() if isinstance(c, type) and issubclass(c, Action) and c is not Action]
    types = {c.TYPE for c in kinds}
    types.discard("pick_option")
    # Events are made by keyword calls (public / private) or, on the playout path, as EventKinds.
    events = set(re.findall(r"""\b(?:public\(|private\(\w+, |EventKind\()["'](\w+)["']""", src))
    decisions = set(re.findall(r"""stack(?:\.append\(|\[-1\] = )\(["'](\w+)["']""", src))
    reasons = set(re.findall(r"""end_game\(["'](\w+)["']\)""", src)) | {"turtle", "wing"}
    assert len(types) > 30 and len(events) > 40 and len(decisions) > 25, (len(types), len(events), len(decisions))
    need = [f"mt.mat.{m}" for m in MATERIALS] + [f"mt.role.{r}" for r in ROLES]
    need += [f"mt.act.{t}" for t in types] + ["mt.act.pick_option.return_floor", "mt.act.pick_option.restock_floor"]
    need += [f"mt.ev.{e}" for e in events] + [f"mt.dec.{d}" for d in decisions] + [f"mt.why.{r}" for r in reasons]
    need += [f"mt.part.{p}" for p in ("morning", "noon", "night")] + ["mt.to.floor", "mt.to.sales"]
    for lang in LANGS:
        missing = [k for k in need if k not in catalog(lang)]
        assert not missing, f"{lang}.json lacks {missing}"


def test_card_names_and_the_rest_are_translated() -> None:
    """Card names come in every language (i18n/mottainai_cards.<lang>.json); so do materials and roles."""
    en = catalog("en")
    cards = json.loads((GAME / "cards.json").read_text(encoding="utf-8"))
    for lang in LANGS[1:]:
        cat = catalog(lang)
        for key in [k for k in en if k.startswith(("mt.mat.", "mt.role.", "mt.part.", "mt.zone."))]:
            assert cat[key] != en[key], f"{lang}: {key} is not translated"
        texts = json.loads((WEB / "i18n" / f"mottainai_cards.{lang}.json").read_text(encoding="utf-8"))
        names = [texts[c["id"]]["name"] for c in cards]
        assert all(n.strip() for n in names) and len(set(names)) == 54, lang


# ---------------------------------------------------------------------------- the browser
@pytest.mark.parametrize("lang", ["zh-Hant", "ja", "cs"])
def test_catalog_texts_name_cards_through_placeholders(lang: str) -> None:
    """A catalog text never spells a card's English name where the language has its own: it writes
    ``{card:<id>}`` and the page words it (i18n.js setCardNamer), so a Fan decision reads in the reader's words."""
    english = english_names_translated_in(lang)
    pattern = re.compile(r"(?<![\w{:])(" + "|".join(re.escape(n) for n in english) + r")\b")
    ids = {c["id"] for c in json.loads((GAME / "cards.json").read_text(encoding="utf-8"))}
    spelled, unknown = [], []
    for key, text in catalog(lang).items():
        if not key.startswith("mt."):
            continue
        if pattern.search(text):
            spelled.append((key, text))
        unknown += [(key, card) for card in re.findall(r"\{card:(\w+)\}", text) if card not in ids]
    assert not spelled, f"{lang}.json spells English card names: {spelled[:5]}"
    assert not unknown, f"{lang}.json names unknown cards: {unknown}"


@pytest.mark.parametrize("lang", ["zh-Hant", "ja", "cs"])
def test_card_texts_and_rules_name_cards_in_their_language(lang: str) -> None:
    """An effect text or the rules page never names another card in English where the language has
    its own name (Frog's effect in Czech says Žába)."""
    english = english_names_translated_in(lang)
    pattern = re.compile(r"(?<![\w{:])(" + "|".join(re.escape(n) for n in english) + r")\b")
    texts = json.loads((WEB / "i18n" / f"mottainai_cards.{lang}.json").read_text(encoding="utf-8"))
    spelled = {
        card: found
        for card, entry in texts.items()
        if card != "_glossary"
        for found in pattern.findall(entry["effect"])
    }
    assert not spelled, f"{lang} effect texts name cards in English: {spelled}"
    rules = (WEB / "i18n" / f"rules.{lang}.json").read_text(encoding="utf-8")
    assert not pattern.findall(rules), pattern.findall(rules)


def english_names_translated_in(lang: str) -> set[str]:
    """English card names whose name in ``lang`` differs (so they must not show on a ``lang`` page)."""
    english = {c["id"]: c["name"] for c in json.loads((GAME / "cards.json").read_text(encoding="utf-8"))}
    other = json.loads((WEB / "i18n" / f"mottainai_cards.{lang}.json").read_text(encoding="utf-8"))
    return {name for c, name in english.items() if other.get(c, {}).get("name") not in (None, "", name)}


def strings(value: Any) -> set[str]:
    """Every string value (not key) in a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


def hidden_of_seat0(frame: dict[str, Any]) -> set[str]:
    """Seat 0's cards nobody else may know: its hand minus the cards it revealed, its waiting area."""
    me = frame["view"]["players_info"][0]
    if frame["view"].get("over"):
        return set(me.get("waiting", [])) - set(me.get("final_waiting", []))
    return (set(me["hand"]) - set(me["revealed_in_hand"])) | set(me.get("waiting", []))


def made_public(observer: Seat, version: int) -> set[str]:
    """Cards the observer saw named before ``version`` (on the table or in a public event): no longer secret."""
    seen: set[str] = set()
    for f in observer.states():
        if f["version"] < version:
            seen |= strings(f["view"])
        if f["version"] <= version:
            seen |= strings([ev["data"] for ev in f["events"]])
    return seen


def dom_cards(seat: Seat) -> set[str]:
    """The cards drawn on an observer's board (data-card attributes)."""
    return set(seat.page.eval_on_selector_all(".board [data-card]", "els => els.map(e => e.dataset.card)"))


def test_mottainai_whole_game_hidden_cards(server: Server, browser: Any) -> None:
    rng = random.Random(11)
    table = server.create(
        "mottainai", 3, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}], OPTIONS
    )
    seat0 = Seat(browser, server.url(table["seats"][0]["join_path"]))
    seat1 = Seat(browser, server.url(table["seats"][1]["join_path"]), viewport=PHONE)
    spectator = Seat(browser, server.url(table["spectator_path"]))
    observers = (seat1, spectator)
    try:
        # Seat 0 sees its hand face up (name, material, value, effect); nobody else sees those cards.
        first = seat0.states()[0]
        hand = first["view"]["players_info"][0]["hand"]
        assert hand
        seat0.page.wait_for_selector("#my-hand")
        for c in hand:
            card = seat0.page.locator(f"#my-hand [data-card='{c}']")
            assert card.count() == 1 and card.locator(".mt-effect").inner_text().strip()
        for other in observers:
            assert not strings(other.states()[0]) & set(hand), "seat 0's hand is in another seat's first frame"
            assert not dom_cards(other) & set(hand)
        assert spectator.page.locator("#my-hand").count() == 0
        assert spectator.page.locator("button.move").count() == 0
        assert seat0.page.locator(".mt-status [data-part]").count() == 1

        # Play to the end by clicking; now and then compare what the observers draw with seat 0's secrets.
        start, clicks, checks = time.monotonic(), 0, 0
        while not all(s.over() for s in (seat0, seat1)):
            assert time.monotonic() - start < GAME_LIMIT, f"the game did not end in time ({clicks} clicks)"
            moved = False
            for s in (seat0, seat1):
                if click_one(s, rng):
                    clicks += 1
                    moved = True
            if not moved:
                time.sleep(0.05)
            if clicks % 15 == 0 and not seat0.over():
                version = seat0.version()
                secret = hidden_of_seat0(seat0.states()[-1]) if seat0.states()[-1]["version"] == int(version) else set()
                for other in observers:
                    if other.version() == version and secret:
                        leak = dom_cards(other) & secret - made_public(other, int(version))
                        assert not leak, f"seat 0's hidden cards {leak} are drawn on {other.page.url}"
                        checks += 1
        assert clicks > 20
        for s in (seat0, seat1, spectator):
            s.page.wait_for_selector("#result")
            assert s.page.locator("#result .result-table tbody tr").count() == 3
            assert not s.errors, s.errors

        # Frames: no other seat's hand or waiting area, no private event of seat 0, and at every version
        # no card seat 0 held hidden then (and never made public) appears in the observer's view.
        for other in observers:
            check_no_private(other)
            me = other.frames[0].get("seat")
            for f in other.states():
                for p in f["view"]["players_info"]:
                    if p["seat"] != me:
                        assert "waiting" not in p, f"seat {p['seat']}'s waiting area reached {other.page.url}"
        secrets = {f["version"]: hidden_of_seat0(f) for f in seat0.states()}
        assert any(secrets.values())
        compared = 0
        for other in observers:
            for f in other.states():
                if f["version"] in secrets:
                    leak = strings(f["view"]) & secrets[f["version"]] - made_public(other, f["version"])
                    assert not leak, f"seat 0's hidden cards {leak} are in a frame of {other.page.url}"
                    compared += 1
        assert compared > 10 and checks > 0, (compared, checks)
        private = [ev for f in seat0.states() for ev in f["events"] if ev.get("visible_to") == [0]]
        assert private, "seat 0 received no private event: the checks above would prove nothing"
    finally:
        for s in (seat0, seat1, spectator):
            s.close()


def test_mottainai_screenshots_in_every_language(server: Server, browser: Any, screenshots: Path) -> None:
    rng = random.Random(5)
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]
    # A game well under way, held at Ann's turn (nothing moves until she does). The server deals each
    # table from a seed of its own, and now and then a game is over within 14 moves: then another.
    for _ in range(5):
        table = server.create("mottainai", 3, seats, OPTIONS)
        seat = Seat(browser, server.url(table["seats"][0]["join_path"]))
        play_moves(seat, rng, 14)
        seat.page.wait_for_function(YOUR_TURN_OR_OVER)
        if not seat.over():
            break
        seat.close()
    else:
        raise AssertionError("five games in a row were over within 14 of Ann's moves")
    try:
        # A table card's effect shows on hover (and on tap or keyboard focus), hidden otherwise.
        card = seat.page.locator(".mt-temple .mt-card:not(.back)").first
        assert not card.locator(".mt-effect").is_visible()
        card.hover()
        assert card.locator(".mt-effect").is_visible() and card.locator(".mt-effect").inner_text().strip()
        seat.page.mouse.move(0, 0)
        en_text = seat.page.locator("main").inner_text()
        for lang in LANGS:
            # The log is read on the desktop table (a phone keeps it behind its tab).
            seat.page.set_viewport_size(DESKTOP)
            seat.page.select_option("#lang", lang)
            seat.page.wait_for_function(f"document.documentElement.lang === '{lang}'")
            seat.page.wait_for_timeout(150)
            text = seat.page.locator("main").inner_text()
            if lang != "en":
                assert text != en_text
            assert "mt." not in text, f"an untranslated catalog key on the {lang} page"
            if lang != "en":
                # The log names cards in the reader's language too (its lines are drawn before the
                # card names arrive, and must be worded again when they do).
                english = english_names_translated_in(lang)
                pattern = r"\b(" + "|".join(re.escape(n) for n in sorted(english, key=len, reverse=True)) + r")\b"
                seat.page.wait_for_selector("#log-lines li")
                # The lines are worded again once the names arrive: wait for that, then look.
                settled(
                    seat.page, "re => !new RegExp(re).test(document.getElementById('log-lines').innerText)", pattern
                )
                log = seat.page.locator("#log-lines").inner_text()
                found = re.search(pattern, log)
                assert not found, f"the {lang} log names {found and found.group(0)!r} in English:\n{log}"
            for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
                seat.page.set_viewport_size(size)
                # A card still sliding in from where it stood in the other layout may overhang for
                # a moment (a bot's move drawn just before the resize): measure the settled page.
                seat.page.wait_for_function("document.getAnimations().length === 0")
                # Nothing wider than the screen (the page scrolls down, never sideways).
                width = seat.page.evaluate("document.documentElement.scrollWidth")
                assert width <= size["width"] + 1, f"{lang} {name}: the page is {width}px wide"
                out = screenshots / f"mottainai_{lang}_{name}.png"
                full_page_shot(seat.page, out)
                assert out.stat().st_size > 10_000
                if name == "phone":
                    phone_view(seat.page, screenshots / f"mottainai_{lang}_{name}.png".replace(".png", "_view.png"))
        assert not seat.errors, seat.errors
    finally:
        seat.close()


def test_card_effects_are_shown_in_the_readers_language(server: Server, browser: Any) -> None:
    """The Japanese page shows a hand card's effect in Japanese, not in English."""
    web = Path(__file__).resolve().parents[2] / "src" / "parlor" / "web" / "i18n"
    ja = json.loads((web / "mottainai_cards.ja.json").read_text(encoding="utf-8"))
    en = json.loads((web / "mottainai_cards.en.json").read_text(encoding="utf-8"))
    table = server.create(
        "mottainai", 3, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}, {"kind": "human"}]
    )
    context = browser.new_context()
    try:
        # Chosen before the page runs (the page itself stores the language it loads).
        context.add_init_script("localStorage.setItem('parlor.lang', 'ja')")
        page = context.new_page()
        page.goto(server.url(table["seats"][0]["join_path"]))
        page.wait_for_function("document.documentElement.lang === 'ja'")
        card = page.locator("#my-hand .mt-card").first
        card.wait_for()
        card_id = card.get_attribute("data-card")
        selector = f'#my-hand .mt-card[data-card="{card_id}"] .mt-effect'
        want = ja[card_id]["effect"][:10]
        # The translations load after the first drawing: wait for them, then look.
        loaded = "([sel, want]) => (document.querySelector(sel)?.textContent || '').includes(want)"
        settled(page, loaded, [selector, want])
        shown = page.locator(selector).first.text_content() or ""
        assert ja[card_id]["effect"][:10] in shown and en[card_id]["effect"][:10] not in shown
    finally:
        context.close()


def test_team_play_tells_every_player_their_partner(server: Server, browser: Any) -> None:
    """In team play each temple says whose partner its owner is; the partner's temple says
    "your partner". Outside team play there is no such badge."""
    bots = [{"kind": "bot", "level": "random"}] * 3
    table = server.create("mottainai", 4, [{"kind": "human", "name": "Ann"}, *bots], {"team_play": True})
    ann = Seat(browser, server.url(table["seats"][0]["join_path"]))
    watcher = Seat(browser, server.url(table["spectator_path"]))
    plain = server.create("mottainai", 3, [{"kind": "human", "name": "Ann"}, *bots[:2]])
    other = Seat(browser, server.url(plain["spectator_path"]))
    try:
        page = ann.page
        page.wait_for_selector(".mt-temple[data-seat='3'] .mt-partner")
        badge = {s: page.locator(f".mt-temple[data-seat='{s}'] .mt-partner") for s in range(4)}
        assert badge[2].inner_text() == "your partner"
        assert [badge[s].get_attribute("data-partner") for s in range(4)] == ["2", "3", "0", "1"]
        for s in (0, 1, 3):
            assert badge[s].inner_text().startswith("partner of "), badge[s].inner_text()
        watcher.page.wait_for_selector(".mt-temple[data-seat='3'] .mt-partner")
        seen = [watcher.page.locator(f".mt-temple[data-seat='{s}'] .mt-partner").inner_text() for s in range(4)]
        assert all(text.startswith("partner of ") for text in seen), seen  # a spectator has no partner
        other.page.wait_for_selector(".mt-temple[data-seat='2']")
        assert other.page.locator(".mt-partner").count() == 0
        for s in (ann, watcher, other):
            assert not s.errors, s.errors
    finally:
        for s in (ann, watcher, other):
            s.close()
