"""Turn-based tables in the browser (Chromium, the real server): a signed-in player's "Your turn" list
at the top of the lobby shows the table where she must decide (its count in the page's title), one tap
opens it (with the decision's deadline on the seat's chip), and once she has moved the table leaves
her list; and the account page's vacation panel."""

from __future__ import annotations

import json
import random
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

from ..server.conftest import Client
from .conftest import Server
from .test_accounts_web import as_seat, sign_up
from .test_browser import PHONE, click_one
from .test_friends_web import post_from_page
from .test_help_and_lobby import new_page

WEB = Path(__file__).resolve().parents[2] / "src" / "parlor" / "web"
LISTED = "id => !!document.querySelector(`#your-turns li[data-table='${id}']`)"


def test_your_turn_list_shows_the_table_a_tap_opens_it_and_a_move_takes_it_off(server: Server, browser: Any) -> None:
    ctx, page, errors = new_page(browser, "en", PHONE)
    try:
        sign_up(page, server, "tb" + uuid.uuid4().hex[:8])
        created = post_from_page(page, "/api/tables", {
            "game": "mamma-mia", "players": 2, "days_per_move": 3, "public": True,
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Guest"}],
        })  # fmt: skip
        tid = created["table"]["id"]
        mine = post_from_page(page, f"/api/tables/{tid}/claim", {"claim": created["seats"][0]["claim"]})
        assert mine["seat"] == 0
        guest = httpx.post(f"{server.base}/api/tables/{tid}/claim", json={"claim": created["seats"][1]["claim"]})
        with Client(server.base, tid, guest.json()["token"]) as other:  # the guest moves first if it is theirs
            while other.state["your_turn"]:
                assert other.act(other.state["legal"][0]["id"])["type"] == "ack"
        page.goto(server.base + "/")
        page.wait_for_function(LISTED, arg=tid)
        assert page.title().startswith("(1) ")
        # The lobby's list of tables in play says how this one is played: days a move, not "no clock".
        listed = page.locator(f".open-list.playing .open-table[data-table='{tid}'] .open-words")
        assert "3 days a move" in listed.inner_text(), listed.inner_text()
        # Play now opens a table of the days a move chosen in the form below it: its label says so.
        assert "days a move" not in page.inner_text("#play-now")
        # Nobody answers a turn-based table within a minute: with days a move, quick play's wait for
        # bots is "never" unless the player picks one; a live table's is 60 s again.
        assert page.input_value("#fill-after") == "60"
        page.select_option("#days-per-move", "2")
        page.wait_for_function("document.getElementById('play-now').textContent.includes('2 days a move')")
        assert page.input_value("#fill-after") == ""
        page.select_option("#days-per-move", "")
        page.wait_for_function("!document.getElementById('play-now').textContent.includes('days a move')")
        assert page.input_value("#fill-after") == "60"
        page.select_option("#fill-after", "300")  # a wait the player chose stays
        page.select_option("#days-per-move", "3")
        page.wait_for_function("document.getElementById('play-now').textContent.includes('3 days a move')")
        assert page.input_value("#fill-after") == "300"
        page.select_option("#days-per-move", "")
        # On a phone the row wraps between its parts, never inside the game's name or the deadline.
        lines = page.evaluate(
            """id => [...document.querySelectorAll(
            `#your-turns li[data-table='${id}'] :is(strong, .turn-deadline)`)].map((el) => {
            const range = document.createRange(); range.selectNodeContents(el);
            return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size; })""",
            tid,
        )
        assert lines == [1, 1], lines
        page.click(f"#your-turns li[data-table='{tid}'] a")  # one tap to the table
        page.wait_for_url(f"**/play/{tid}**")
        seat = as_seat(ctx, page)
        # the decision's deadline on her chip, shown in this browser's time zone
        page.wait_for_selector(".seat-deadline[data-deadline-seat='0']")
        rng = random.Random(7)
        while page.evaluate("document.body.dataset.yourTurn === '1'"):
            click_one(seat, rng)
        deadline = time.monotonic() + 60
        while True:  # (the lobby reads the list as it loads: look again until the move is stored)
            page.goto(server.base + "/")
            page.wait_for_function("document.body.dataset.turns !== undefined")
            if not page.evaluate(LISTED, tid):
                break
            assert time.monotonic() < deadline, "the table stayed in the list after the move"
        assert not page.title().startswith("(")
        assert not errors, errors
    finally:
        ctx.close()


def test_vacation_on_the_account_page_starts_ends_and_refuses_in_the_pages_language(
    server: Server, browser: Any
) -> None:
    """In Czech: the days left this year; a vacation of more days than are left is refused in Czech and
    changes nothing; three days start one (until a date shown); a start refused by the server (one
    was started meanwhile from another tab) is worded in Czech too; ending it early gives back the
    whole days unused (the day begun counts as used)."""
    ctx, page, errors = new_page(browser, "cs", PHONE)
    words = json.loads((WEB / "i18n" / "cs.json").read_text(encoding="utf-8"))
    vacation = "async () => (await fetch('/api/account/vacation')).json()"
    try:
        sign_up(page, server, "va" + uuid.uuid4().hex[:8])
        page.wait_for_selector("#vacation[data-left='30'][data-on='0']")
        assert page.inner_text("#vacation-left") == words["vacation.left"].format(left=30, total=30)
        # The panel lines up with the account's own cards (it touched the phone's edges).
        lefts = page.evaluate(
            "[...document.querySelectorAll('.account .card')].map(c => c.getBoundingClientRect().left)"
        )
        assert len(lefts) >= 3 and len(set(lefts)) == 1, lefts
        page.fill("#vacation-days", "31")
        page.click("#vacation-start")
        page.wait_for_function("document.getElementById('vacation-message').textContent !== ''")
        assert page.inner_text("#vacation-message") == words["vacation.err.bad_days"].format(left=30)
        assert page.evaluate(vacation)["on_vacation"] is False  # (nothing changed)
        page.fill("#vacation-days", "3")
        starts: list[str] = []
        page.on("request", lambda r: starts.append(r.url) if r.method == "POST" and "/vacation" in r.url else None)
        page.dblclick("#vacation-start")  # a double click sends one start (a second's refusal replaced the answer)
        page.wait_for_selector("#vacation[data-left='27'][data-on='1']")
        assert len(starts) == 1, starts
        assert page.inner_text("#vacation-message") == words["vacation.started"]
        held = page.evaluate(vacation)
        assert held["on_vacation"] and held["days_left"] == 27
        assert page.inner_text("#vacation-until").startswith("Na dovolené do ")
        page.click("#vacation-stop")
        page.wait_for_selector("#vacation[data-left='29'][data-on='0']")  # the day begun is used
        assert page.inner_text("#vacation-message") == words["vacation.stopped"]
        # Another tab starts one while this page still offers to: the server's refusal, in Czech.
        assert post_from_page(page, "/api/account/vacation", {"action": "start", "days": 2})["on_vacation"]
        page.fill("#vacation-days", "1")
        page.click("#vacation-start")
        page.wait_for_selector("#vacation[data-on='1']")  # (the page shows what holds now)
        assert page.inner_text("#vacation-message") == words["vacation.err.on_vacation"]
        assert page.evaluate(vacation)["days_left"] == 27  # the refused start spent nothing
        assert not errors, errors
    finally:
        ctx.close()
