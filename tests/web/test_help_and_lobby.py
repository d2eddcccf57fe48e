"""Help pages and the lobby: the rules of each game and its card/tile reference in the four languages
(the same texts as the table), the rules files complete in every language, the lobby offering only
combinations the server accepts and showing a server error's own message (never a JSON parse error)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import Server
from .test_browser import DESKTOP, LANGS, PHONE

WEB = Path(__file__).resolve().parents[2] / "src" / "parlor" / "web"
GAMES = ["mamma-mia", "sweet-nose", "mottainai"]
REFERENCE_ITEMS = {"mamma-mia": 5, "sweet-nose": 10, "mottainai": 54}


def rules(lang: str) -> dict[str, Any]:
    return json.loads((WEB / "i18n" / f"rules.{lang}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", LANGS)
def test_rules_files_complete(lang: str) -> None:
    """Every language has every game's rules, section for section as in English, with no empty text."""
    en, other = rules("en"), rules(lang)
    assert sorted(other) == sorted(GAMES)
    for game in GAMES:
        assert [len(paras) for _, paras in other[game]] == [len(paras) for _, paras in en[game]], (lang, game)
        for heading, paras in other[game]:
            assert heading.strip() and all(p.strip() for p in paras), (lang, game, heading)
        if lang != "en":
            assert other[game] != en[game], f"{lang}: {game}'s rules are not translated"


def new_page(browser: Any, lang: str, viewport: dict[str, int] = DESKTOP) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport=viewport)
    context.add_init_script(f"localStorage.setItem('parlor.lang', '{lang}')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page, errors


@pytest.mark.parametrize("lang", LANGS)
def test_rules_pages_in_every_language(server: Server, browser: Any, screenshots: Path, lang: str) -> None:
    context, page, errors = new_page(browser, lang)
    texts = rules(lang)
    cards = json.loads((WEB / "i18n" / f"mottainai_cards.{lang}.json").read_text(encoding="utf-8"))
    catalog = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    try:
        # Reachable from the lobby.
        page.goto(server.base + "/")
        page.wait_for_selector("#rules-link")
        page.click("#rules-link")
        page.wait_for_selector("body[data-ready='1']")
        for game in GAMES:
            page.goto(f"{server.base}/static/rules.html#{game}")
            page.wait_for_function(
                f"document.body.dataset.game === '{game}' && document.body.dataset.lang === '{lang}'"
            )
            article = page.locator("#rules").inner_text()
            for heading, paras in texts[game]:
                assert heading in article
                for p in paras:
                    assert p in article, (lang, game, p[:40])
            assert page.locator("#cards .ref-item").count() == REFERENCE_ITEMS[game]
            out = screenshots / f"rules_{game.replace('-', '_')}_{lang}.png"
            page.screenshot(path=str(out), full_page=False)
        # The reference holds the table's own texts: Mottainai names and effects, Sweet Nose tiles.
        page.goto(f"{server.base}/static/rules.html#mottainai/cards")
        page.wait_for_function("document.body.dataset.game === 'mottainai'")
        crane = page.locator("#cards [data-ref=crane]").inner_text()
        if lang != "en":
            assert cards["crane"]["name"] in crane and cards["crane"]["effect"] in crane
        page.goto(f"{server.base}/static/rules.html#sweet-nose/cards")
        page.wait_for_function("document.body.dataset.game === 'sweet-nose'")
        assert catalog["sn.tile_text.l1_stash"] in page.locator("#cards [data-ref=l1_stash]").inner_text()
        assert not errors, errors
    finally:
        context.close()


def test_lobby_offers_only_what_the_server_accepts(server: Server, browser: Any, request: Any) -> None:
    """Every player count and option value the lobby leaves enabled creates a table (201, never a 500)."""
    games = httpx.get(f"{server.base}/api/games", timeout=60).json()["games"]
    if not all("player_ranges_by_option" in g for g in games if g.get("available")):
        # Until /api/games says which player counts each option allows, the lobby cannot know that
        # Mottainai seats 6 only with max_players=6 (the server's side of the player ranges by option).
        request.applymarker(pytest.mark.xfail(reason="/api/games lacks player_ranges_by_option", strict=False))
    context, page, errors = new_page(browser, "en", PHONE)
    tried = 0
    try:
        page.goto(server.base + "/")
        for game in GAMES:
            page.click(f"button.game-pick[data-game={game}]")
            page.wait_for_selector(f"button.game-pick.chosen[data-game={game}]")
            counts = page.eval_on_selector_all(
                "#players option:not([disabled])", "els => els.map(e => Number(e.value))"
            )
            combos: list[tuple[int, dict[str, Any]]] = [(n, {}) for n in counts]
            page.select_option("#players", "3")
            for name, values in page.evaluate(
                """() => [...document.querySelectorAll('.opts select')].map(s =>
                    [s.name, [...s.options].filter(o => !o.disabled).map(o => JSON.parse(o.value))])"""
            ):
                combos += [(3, {name: v}) for v in values]
            # A seat-number start player beyond the table is not offered.
            if game == "sweet-nose":
                disabled = page.eval_on_selector_all(
                    "select[name=start_player] option[disabled]", "els => els.map(e => e.value)"
                )
                assert disabled == ["3", "4"], disabled
            for players, options in combos:
                seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * (players - 1)
                body = {"game": game, "players": players, "seats": seats, "options": options}
                r = httpx.post(f"{server.base}/api/tables", json=body, timeout=60)
                assert r.status_code == 201, (game, players, options, r.status_code, r.text[:200])
                tried += 1
        assert tried > 60
        assert not errors, errors
    finally:
        context.close()


def test_lobby_shows_the_servers_message(server: Server, browser: Any) -> None:
    context, page, _ = new_page(browser, "en")
    try:
        page.goto(server.base + "/")
        page.wait_for_selector("#create")
        # A JSON error: its message is shown.
        page.route(
            "**/api/tables",
            lambda route: route.fulfill(
                status=400,
                content_type="application/json",
                body=json.dumps({"error": {"code": "bad_option", "message": "No such rule", "field": "options"}}),
            ),
        )
        page.click("#create")
        page.wait_for_function("document.getElementById('lobby-error').textContent.includes('No such rule')")
        page.unroute("**/api/tables")
        # Not JSON at all (a proxy's page, a crash): the status, never "Unexpected token".
        page.route("**/api/tables", lambda route: route.fulfill(status=500, body="Internal Server Error"))
        page.click("#create")
        page.wait_for_function("document.getElementById('lobby-error').textContent.includes('500')")
        text = page.locator("#lobby-error").inner_text()
        assert "Unexpected token" not in text and "JSON" not in text, text
    finally:
        context.close()


def test_a_guest_finds_their_game_again_in_the_lobby_after_closing_its_tab(server: Server, browser: Any) -> None:
    """A guest (no account) opens their seat's link, closes the tab and opens the lobby: "Your games"
    lists that table with a way back to the seat, which opens as the same seat. A spectator link
    watched in the same browser is nobody's game; another browser lists nothing; a table the server
    no longer has is forgotten."""
    en = json.loads((WEB / "i18n" / "en.json").read_text(encoding="utf-8"))
    table = server.create("mamma-mia", 2, [{"kind": "human", "name": "Guest"}, {"kind": "human"}])
    watched = server.create("sweet-nose", 3, [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 2)
    table_id, watched_id = table["table"]["id"], watched["table"]["id"]
    context, page, errors = new_page(browser, "en")
    other_context, other, other_errors = new_page(browser, "en")
    try:
        page.goto(server.url(table["seats"][0]["join_path"]))
        page.wait_for_function("document.body.dataset.role === 'seat'")
        page.goto(server.url(watched["spectator_path"]))
        page.wait_for_function("document.body.dataset.role === 'spectator'")
        # A table id this browser kept a seat of, which the server does not have (any more).
        page.evaluate("localStorage.setItem('parlor.table.NoSuchTable123', 'x'.repeat(32));"
                      "localStorage.setItem('parlor.seated.NoSuchTable123', '1')")  # fmt: skip
        page.close()  # the tab is closed
        lobby = context.new_page()
        lobby.on("pageerror", lambda exc: errors.append(str(exc)))
        lobby.goto(server.base + "/")
        lobby.wait_for_selector(f".open-list.mine li[data-table='{table_id}']")
        assert lobby.locator(".open-tables h3").first.inner_text() == en["open.yours"]
        lobby.wait_for_function("document.body.dataset.keptRead === '1'")
        assert lobby.locator(f".open-list li[data-table='{watched_id}']").count() == 0  # watched: nobody's game
        assert lobby.locator(".open-list.mine li").count() == 1  # nor the unknown one
        lobby.wait_for_function("localStorage.getItem('parlor.table.NoSuchTable123') === null")
        assert lobby.evaluate("localStorage.getItem('parlor.seated.NoSuchTable123')") is None
        back = lobby.locator(f".open-list.mine li[data-table='{table_id}'] a.resume")
        assert back.inner_text() == en["open.resume"] and back.get_attribute("href") == f"/play/{table_id}"
        back.click()
        lobby.wait_for_function("document.body.dataset.role === 'seat'")
        assert lobby.evaluate("location.pathname") == f"/play/{table_id}"
        assert lobby.locator(".seat-chip.me").get_attribute("data-seat") == "0"
        # Another browser holds no seat: no "Your games" at all.
        other.goto(server.base + "/")
        other.wait_for_function("document.body.dataset.keptRead === '1'")
        assert other.locator(".open-list.mine").count() == 0
        assert not errors and not other_errors, (errors, other_errors)
    finally:
        context.close()
        other_context.close()
