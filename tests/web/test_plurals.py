"""Counted texts in each language's own plural forms (js/i18n.js: "<key>#<form>" chosen by the
browser's Intl.PluralRules, English's "card(s)"): the catalog function itself in the browser, and
the lobby's counted choices and its note on away players, drawn, for counts 1, 2 and 5 (and the
bot levels' tooltips beside them, in the reader's language)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import Server, start_server, stop_server
from .test_help_and_lobby import new_page

# The catalog's t() in the page, for each (key, params) in each language.
WORDED = """async ([lang, cases]) => {
  const { loadLang, t } = await import("/static/js/i18n.js");
  await loadLang(lang);
  return cases.map(([key, params]) => t(key, params));
}"""

COUNTED = {
    "en": [
        ("mm.cards_in_oven", {"n": 1}, "card inside"),
        ("mm.cards_in_oven", {"n": 2}, "cards inside"),
        ("mm.act.draw_waiter", {"n": 1}, "Draw 1 order from your waiter"),
        ("mm.act.draw_waiter", {"n": 2}, "Draw 2 orders from your waiter"),
        ("mm.ev.drew_waiter", {"who": "Ann", "n": 1}, "Ann drew 1 order from the waiter."),
        ("ui.new_moves", {"n": 1}, "1 new line ↓"),
        ("ui.new_moves", {"n": 5}, "5 new lines ↓"),
        ("mm.ev.round_ended", {"round": 2, "n": 1}, "Round 2 is over. 1 topping was used by baked orders."),
        ("mm.ev.round_ended", {"round": 2, "n": 5}, "Round 2 is over. 5 toppings were used by baked orders."),
        ("open.fill_seconds", {"n": 30}, "after 30 seconds"),
        ("open.fill_minutes", {"n": 1}, "after 1 minute"),
    ],
    "cs": [
        ("mm.cards_in_oven", {"n": 1}, "karta uvnitř"),
        ("mm.cards_in_oven", {"n": 2}, "karty uvnitř"),
        ("mm.cards_in_oven", {"n": 5}, "karet uvnitř"),
        ("mm.act.draw_waiter", {"n": 1}, "Dobrat 1 objednávku od svého číšníka"),
        ("mm.act.draw_waiter", {"n": 3}, "Dobrat 3 objednávky od svého číšníka"),
        ("mm.act.draw_waiter", {"n": 5}, "Dobrat 5 objednávek od svého číšníka"),
        ("mm.ev.drew_waiter", {"who": "Ann", "n": 1}, "Ann: dobrána 1 objednávka od číšníka."),
        ("mm.ev.drew_waiter", {"who": "Ann", "n": 2}, "Ann: dobrány 2 objednávky od číšníka."),
        ("mm.ev.drew_waiter", {"who": "Ann", "n": 5}, "Ann: dobráno 5 objednávek od číšníka."),
        ("ui.new_moves", {"n": 1}, "1 nový řádek ↓"),
        ("ui.new_moves", {"n": 4}, "4 nové řádky ↓"),
        ("ui.new_moves", {"n": 5}, "5 nových řádků ↓"),
        ("ui.new_moves", {"n": 0}, "0 nových řádků ↓"),
        ("open.fill_seconds", {"n": 30}, "po 30 sekundách"),
        ("open.fill_minutes", {"n": 1}, "po 1 minutě"),
        ("open.fill_minutes", {"n": 2}, "po 2 minutách"),
        ("lobby.turn_minutes", {"n": 2}, "2 minuty"),
        ("lobby.turn_minutes", {"n": 5}, "5 minut"),
        ("lobby.days_n", {"n": 1}, "1 den"),
        ("lobby.days_n", {"n": 3}, "3 dny"),
        ("lobby.days_n", {"n": 5}, "5 dní"),
        ("lobby.days_n", {"n": 14}, "14 dní"),
        ("mt.ev.actions_counted", {"who": "Eva", "n": 1}, "Eva: 1 akce"),
        ("mt.ev.actions_counted", {"who": "Eva", "n": 3}, "Eva: 3 akce"),
        ("mt.ev.actions_counted", {"who": "Eva", "n": 5}, "Eva: 5 akcí"),
        ("review.total_loss", {"n": 1}, "Šance na výhru ztracená, sečteno za vaše rozhodnutí: 1 procentní bod."),
        ("review.total_loss", {"n": 4}, "Šance na výhru ztracená, sečteno za vaše rozhodnutí: 4 procentní body."),
        ("review.total_loss", {"n": 40}, "Šance na výhru ztracená, sečteno za vaše rozhodnutí: 40 procentních bodů."),
    ],
    # no plural forms: one text for every count
    "ja": [("open.fill_minutes", {"n": 1}, "1 分後"), ("open.fill_minutes", {"n": 5}, "5 分後")],
    "zh-Hant": [("open.fill_minutes", {"n": 1}, "1 分鐘後"), ("open.fill_minutes", {"n": 5}, "5 分鐘後")],
}


@pytest.mark.parametrize("lang", list(COUNTED))
def test_counted_texts_take_the_languages_plural_forms(server: Server, browser: Any, lang: str) -> None:
    context, page, errors = new_page(browser, lang)
    try:
        page.goto(server.base + "/")
        page.wait_for_selector("#turn-time")
        cases = COUNTED[lang]
        got = page.evaluate(WORDED, [lang, [[key, params] for key, params, _ in cases]])
        assert got == [want for _, _, want in cases]
        assert not errors, errors
    finally:
        context.close()


def options_of(page: Any, select: str) -> list[str]:
    return page.eval_on_selector_all(f"{select} option", "os => os.map((o) => o.textContent)")


LOBBY = {
    "en": {
        "turn": ["no clock", "30 seconds", "60 seconds", "2 minutes", "5 minutes"],
        "fill": ["never", "after 30 seconds", "after 60 seconds", "after 2 minutes", "after 5 minutes"],
        "away": "If a player is away (disconnected) for {}, a bot plays for them until they come back.",
        "when": {120: "2 minutes", 60: "1 minute", 300: "5 minutes"},
    },
    "cs": {
        "turn": ["bez hodin", "30 sekund", "60 sekund", "2 minuty", "5 minut"],
        "fill": ["nikdy", "po 30 sekundách", "po 60 sekundách", "po 2 minutách", "po 5 minutách"],
        "away": "Když je hráč pryč (odpojený) déle než {}, hraje za něj bot, dokud se nevrátí.",
        "when": {120: "2 minuty", 60: "1 minuta", 300: "5 minut"},
    },
}


def check_lobby(server: Server, browser: Any, lang: str, seat_timeout: int) -> None:
    assert httpx.get(f"{server.base}/api/games", timeout=60).json()["seat_timeout"] == seat_timeout
    context, page, errors = new_page(browser, lang)
    try:
        page.goto(server.base + "/")
        page.wait_for_selector("#away-note")
        want = LOBBY[lang]
        assert options_of(page, "#turn-time") == want["turn"]
        assert options_of(page, "#fill-after") == want["fill"]
        assert page.inner_text("#away-note") == want["away"].format(want["when"][seat_timeout])
        # Each bot level's tooltip in the seat's level menu is in the reader's language too.
        words = json.loads((Path(__file__).parents[2] / f"src/parlor/web/i18n/{lang}.json").read_text("utf-8"))
        tips = page.eval_on_selector_all("select[name$='-level'] option", "os => os.map((o) => [o.value, o.title])")
        assert tips and all(tip == words[f"level_help.{level}"] for level, tip in tips), tips
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize("lang", list(LOBBY))
def test_lobby_counts_and_the_away_note(server: Server, browser: Any, lang: str) -> None:
    """The session's server keeps the default seat timeout (120 s): the lobby says 2 minutes."""
    check_lobby(server, browser, lang, 120)


@pytest.mark.parametrize("seat_timeout", [60, 300])
def test_the_away_note_quotes_the_servers_seat_timeout(browser: Any, seat_timeout: int, tmp_path: Path) -> None:
    own = start_server(tmp_path, "--seat-timeout", str(seat_timeout))
    try:
        for lang in LOBBY:
            check_lobby(own, browser, lang, seat_timeout)
    finally:
        stop_server(own)
