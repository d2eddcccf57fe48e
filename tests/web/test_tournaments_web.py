"""Tournaments in the browser (Chromium, the real server), on a 390 px wide phone: from the lobby's
link to the list, a new (turn-based) tournament made with the page's form, then signing up on its page and seeing
oneself in the standings; every control the flow taps is at least 44 px each way; a running round's
bye."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from ..server.test_accounts import signed_up
from .conftest import Server
from .test_accounts_web import sign_up
from .test_browser import PHONE
from .test_friends_web import assert_touchable, post_from_page
from .test_help_and_lobby import new_page

ROOT = Path(__file__).resolve().parents[2]


def test_make_a_tournament_sign_up_on_its_page_and_see_the_standings(
    server: Server, browser: Any, screenshots: Path
) -> None:
    ctx, page, errors = new_page(browser, "en", PHONE)
    name = "tw" + uuid.uuid4().hex[:8]
    try:
        sign_up(page, server, name)
        page.goto(server.base + "/")
        page.wait_for_selector("#tournaments-link")
        assert_touchable(page, "#tournaments-link")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # (no sideways scroll)
        # The top bar: the brand beside the links (not on a row of its own above them), and its
        # links in the bar's own light colour, not the page's accent (which read poorly on the brown).
        bar = page.locator("body > .topbar").bounding_box()
        brand, links = page.locator(".topbar .brand").bounding_box(), page.locator("#lang-slot").bounding_box()
        assert bar and brand and links and links["y"] < brand["y"] + brand["height"], (bar, brand, links)
        colours = page.evaluate(
            "[...document.querySelectorAll('.topbar #lang-slot a')].map((a) => getComputedStyle(a).color)"
        )
        assert colours and set(colours) == {page.evaluate("getComputedStyle(document.querySelector('.topbar')).color")}
        page.screenshot(path=str(screenshots / "tournaments-lobby-phone.png"))
        page.click("#tournaments-link")
        page.wait_for_selector("#tournament-form")
        for field in ("name", "game", "starts_at", "rounds", "turn_time", "move_days", "max_players"):
            assert_touchable(page, f"#tournament-form [name={field}]")
        assert_touchable(page, "#create-tournament")
        # A refusal is shown and changes nothing: more rounds than 4 players allow.
        page.fill("#tournament-form [name=name]", "Phone Cup")
        page.select_option("#tournament-form [name=game]", "mottainai")
        page.fill("#tournament-form [name=max_players]", "4")
        page.fill("#tournament-form [name=rounds]", "5")
        page.click("#create-tournament")
        catalog = json.loads((ROOT / "src/parlor/web/i18n/en.json").read_text("utf-8"))
        too_many = catalog["tournament.err.too_many_rounds"].format(max=3)  # (4 players, two a table: 3 rounds)
        page.wait_for_function("t => document.getElementById('tournament-form-error').textContent === t", arg=too_many)
        # A field refused by the server (not by the form's own limits) is named by its label, with its
        # limits: tables of 5 need room for 5 players at least.
        page.fill("#tournament-form [name=rounds]", "3")
        page.fill("#tournament-form [name=players]", "5")
        page.click("#create-tournament")
        out_of_range = catalog["tournament.err.range"].format(field=catalog["tournament.max_players"], min=5, max=256)
        page.wait_for_function(
            "t => document.getElementById('tournament-form-error').textContent === t", arg=out_of_range
        )
        page.fill("#tournament-form [name=players]", "2")
        # Turn-based: days per move replace the seconds (the seconds field is then off).
        page.select_option("#tournament-form [name=move_days]", "2")
        assert page.is_disabled("#tournament-form [name=turn_time]")
        # Made and then signed up for with double clicks: one tournament, one sign-up, no refusal shown.
        posts: list[str] = []
        page.on("request", lambda r: posts.append(r.url.split("/api/")[-1]) if r.method == "POST" else None)
        page.dblclick("#create-tournament")
        page.wait_for_selector("#tournament-name")
        assert page.inner_text("#tournament-name") == "Phone Cup"
        assert "2 days a move" in page.inner_text("#tournament-facts")
        assert "/tournaments/" in page.url
        assert page.locator("#standings .standing").count() == 0
        assert_touchable(page, "#sign-up")
        page.dblclick("#sign-up")
        page.wait_for_selector("#withdraw")
        made_id = page.url.rsplit("/", 1)[-1]
        assert posts == ["tournaments", f"tournaments/{made_id}/sign-up"], posts
        assert_touchable(page, "#withdraw")
        assert page.locator("#standings .standing").all_inner_texts()[0].split("\t")[:3] == ["1", name, "0"]
        page.screenshot(path=str(screenshots / "tournament-phone.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        # Withdrawn meanwhile (another tab): the stale Withdraw is refused in the catalog's words.
        assert post_from_page(page, f"/api/tournaments/{made_id}/withdraw", {})["signed_up"] is False
        page.click("#withdraw")
        refused = json.loads((ROOT / "src/parlor/web/i18n/en.json").read_text("utf-8"))["tournament.err.not_signed_up"]
        page.wait_for_function("text => document.getElementById('tournament-error').textContent === text", arg=refused)
        page.wait_for_selector("#sign-up")
        # The list shows it among the upcoming tournaments.
        page.goto(server.base + "/tournaments")
        page.wait_for_selector(".tournament-list.upcoming")
        assert "Phone Cup" in page.inner_text(".tournament-list.upcoming")
        # Half points as the rules write them (a drawn game, Buchholz sums of them), in any language.
        written = page.evaluate("""async () => {
            const { pointsText } = await import("/static/js/tournaments.js");
            return [0, 0.5, 1, 1.5, 2.5, 3].map(pointsText); }""")
        assert written == ["0", "½", "1", "1½", "2½", "3"]
        # A wrong address says so, with the way back to the list.
        page.goto(server.base + "/tournaments/no-such-one")
        page.wait_for_selector("#tournament-error:has-text('No such tournament')")
        page.click("#tournaments-all")
        page.wait_for_selector(".tournament-list.upcoming")
        # Three players at two a table: the round that starts has a bye, said once ("bye (1 point)"),
        # with no points after it as a played board has.
        starts = (datetime.now(UTC) + timedelta(seconds=2)).isoformat()
        made = post_from_page(page, "/api/tournaments", {"name": "Bye Cup", "game": "mottainai", "players": 2,
            "starts_at": starts, "rounds": 1, "turn_time": 60, "rated": False, "max_players": 3})  # fmt: skip
        others = [signed_up(server.base) for _ in range(2)]
        for who, _ in others:
            assert who.post(f"/api/tournaments/{made['id']}/sign-up").status_code == 200
        assert post_from_page(page, f"/api/tournaments/{made['id']}/sign-up", {})["signed_up"]
        page.goto(f"{server.base}/tournaments/{made['id']}")
        page.wait_for_selector(".board[data-table='']")  # (the page reads the tournament again as it starts)
        bye = page.locator(".board[data-table='']")
        assert bye.inner_text().strip().endswith("bye (1 point)"), bye.inner_text()
        for b, _ in others:
            b.close()
        assert errors == []
    finally:
        ctx.close()
