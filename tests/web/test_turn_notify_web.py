"""A rated turn-based game (Mamma Mia!, two players, one day a move) in the browser, its players told of
each turn by e-mail and Web Push and never keeping the table's tab open between moves: Ann (New York)
and Bob (Tokyo) in two browser contexts, each with a confirmed address (the real SMTP sink of
tests/server/test_notify.py) and a push subscription at the local push endpoint (each push decrypted
with the subscription's key). Each turn the player to move gets a mail and a push; the test parses the
mail, checks the push says the same table, and follows the mailed link. The deadline on the seat's
chip is a date and time in the reader's own time zone (checked for both). The game ends; both see the
result and their rating change; no message holds a card.

A whole game of Mamma Mia! is some fifty turns: played in the browser it would take minutes. So the
opening turns (one each) and the last are played in the browser by following the mailed links, and
the middle over the API (each turn from a fresh WebSocket with the seat's token, after that turn's
mail and push came). The test keeps the game's end for the browser: before each decision over the
API it looks at the server's own state (a copy, in this process) and picks a move that does not end
the game; when every move would end it, the player follows the link of that turn's mail instead.

This server runs in-process (tests/server/conftest.py's ServerThread), not the shared command-line
one: its push endpoints may be plain http (the local endpoint), which the command line never allows."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import http_ece
import httpx
import pytest

from parlor.server.limits import Limits

from ..server.conftest import Client, ServerThread
from ..server.test_accounts import GENEROUS
from ..server.test_notify import SITE_URL, MailSink, PushEndpoint, Sinks, card_names, push_subscription
from .test_accounts_web import as_seat, sign_up
from .test_browser import click_one
from .test_friends_web import post_from_page

ZONES = ("America/New_York", "Asia/Tokyo")


@dataclass
class Player:
    name: str
    zone: str
    ctx: Any
    page: Any
    errors: list[str]
    address: str = ""
    push_path: str = ""
    key: Any = None
    auth: bytes = b""
    seat: int = -1
    token: str = ""
    mails_read: int = 0
    pushes_read: int = 0
    texts: list[str] = field(default_factory=list)  # every message it was sent, as read


@dataclass
class Site:
    server: ServerThread
    mail: MailSink
    push: PushEndpoint


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'parlor.db'}"
    limits = Limits(min_turn_time=0.1)
    with Sinks() as sinks:
        config = sinks.config()
        with ServerThread(url, seat_timeout=None, account_limits=GENEROUS, limits=limits, notify_config=config) as s:
            yield Site(s, sinks.mail, sinks.push)


def until(what: str, check: Any, timeout: float = 60.0) -> Any:
    """Poll ``check`` until it answers something true (a generous deadline; never a fixed sleep)."""
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, f"still waiting for {what}"
        time.sleep(0.02)


def local_path(link: str) -> str:
    parts = urlsplit(link)
    assert f"{parts.scheme}://{parts.netloc}" == SITE_URL, link
    return parts.path + (f"?{parts.query}" if parts.query else "") + (f"#{parts.fragment}" if parts.fragment else "")


def notice(site: Site, p: Player, kind: str) -> str:
    """The next mail and the next push ``p`` receives: both say ``kind`` of one table; the mailed
    link's path (the push's own link is the same)."""
    mail = until(f"{p.name}'s {kind} mail", lambda: site.mail.to(p.address)[p.mails_read :])[0]
    p.mails_read += 1
    _, _, body = until(f"{p.name}'s {kind} push", lambda: site.push.to(p.push_path)[p.pushes_read :])[0]
    p.pushes_read += 1
    payload = json.loads(http_ece.decrypt(body, private_key=p.key, auth_secret=p.auth, version="aes128gcm"))
    text = mail.get_content()
    p.texts += [str(mail["Subject"]), text, json.dumps(payload, ensure_ascii=False)]
    assert payload["kind"] == kind, payload
    link = next(w for w in text.split() if w.startswith(f"{SITE_URL}/play/"))
    assert payload["url"] == link and payload["title"] in str(mail["Subject"])
    return local_path(link)


def next_mover(site: Site, players: list[Player]) -> Player:
    """Whoever is told next that it is their turn (by mail)."""
    return until(
        "a your-turn mail", lambda: next((p for p in players if site.mail.to(p.address)[p.mails_read :]), None)
    )


def connected(site: Site, table_id: str, seat: int) -> bool:
    return httpx.get(f"{site.server.base}/api/tables/{table_id}", timeout=60).json()["seats"][seat]["connected"]


def check_deadline_chip(p: Player) -> None:
    """The seat's deadline on its chip: a date and time in this browser's own time zone."""
    assert p.page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone") == p.zone
    chip = p.page.wait_for_selector(f".seat-deadline[data-deadline-seat='{p.seat}']")
    at = datetime.fromisoformat(chip.get_attribute("title").replace("Z", "+00:00"))
    assert 0 < (at - datetime.now(UTC)).total_seconds() <= 24 * 3600  # one day a move
    mine = at.astimezone(ZoneInfo(p.zone))
    text = chip.inner_text()
    assert f"{mine:%I:%M}" in text and str(mine.day) in text, (text, mine)


def browser_turn(site: Site, p: Player, path: str, table_id: str, rng: random.Random, first: bool) -> None:
    """``p`` follows the mailed link, plays their turn in the page, and closes it."""
    page, _, fragment = path.partition("#")
    p.page.goto(f"{site.server.base}{page}?anim=0&guard=30&hold=5000#{fragment}")
    seat = as_seat(p.ctx, p.page)
    p.page.wait_for_function("document.body.dataset.yourTurn === '1'")
    assert p.page.evaluate("document.body.dataset.role") == "seat"
    if first:
        check_deadline_chip(p)
    while p.page.evaluate("document.body.dataset.yourTurn === '1'"):
        click_one(seat, rng)
    if not p.page.evaluate("document.body.dataset.over === '1'"):
        p.page.goto("about:blank")  # the tab is closed until the next mail
        until(f"{p.name}'s page to close", lambda: not connected(site, table_id, p.seat))


def api_turn(site: Site, p: Player, table_id: str, rng: random.Random) -> bool:
    """``p`` plays their turn over the API, never the decision that ends the game: False when only such
    decisions are left (the browser makes it)."""
    with Client(site.server.base, table_id, p.token) as c:
        st = c.wait_turn_or_over()
        while st["your_turn"]:  # (a turn may hold several decisions)
            live = site.server.app.state.hub.tables[table_id]  # (the server's own state: this seat is connected)
            state = live.state
            legal = state.legal_actions(p.seat)
            going_on = [a for a in legal if not ends(state, p.seat, a)]
            if not going_on:
                return False
            reply = c.act(live.game.action_id(rng.choice(going_on)))
            assert reply["type"] == "ack", reply
            st = c.state
        assert not st["over"], "the API made the game's last decision"
        return True


def ends(state: Any, seat: int, action: Any) -> bool:
    after = state.clone()
    after.apply(seat, action)
    return bool(after.is_over)


def test_a_rated_turn_based_game_told_by_mail_and_push_in_two_time_zones(
    site: Site, browser: Any, screenshots: Path
) -> None:
    base = site.server.base
    rng = random.Random(11)
    players: list[Player] = []
    try:
        for zone, who in zip(ZONES, ("ann", "bob"), strict=True):
            ctx = browser.new_context(timezone_id=zone, locale="en-US")
            ctx.add_init_script("try { localStorage.setItem('parlor.lang', 'en') } catch {}")  # (not on about:blank)
            page = ctx.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda exc, e=errors: e.append(str(exc)))
            p = Player(f"{who}{rng.randrange(10**8)}", zone, ctx, page, errors)
            sign_up(page, site.server, p.name)
            # A confirmed address, set on the account page: the link mailed to confirm it, followed.
            p.address = f"{p.name}@example.org"
            page.wait_for_selector("#notify-email")
            page.fill("#notify-email", p.address)
            page.click("#notify-email-form button[type=submit]")
            verify = until("the confirmation mail", lambda a=p.address: site.mail.to(a))[0]
            p.mails_read = 1
            link = next(w for w in verify.get_content().split() if w.startswith(f"{SITE_URL}/notify/verify"))
            page.goto(base + local_path(link))
            assert page.evaluate("async () => (await fetch('/api/account/notify-settings')).json()")["email_verified"]
            # This browser's push subscription, at the local push endpoint (a headless Chromium has no push
            # service of its own): what the service worker would send the server.
            p.push_path = f"/push/{p.name}"
            sub, p.key, p.auth = push_subscription(site.push.base + p.push_path)
            assert post_from_page(page, "/api/account/push", {"subscription": sub}) == {"subscribed": True}
            players.append(p)
        ann = players[0]
        body = {"game": "mamma-mia", "players": 2, "rated": True, "days_per_move": 1, "seats": [{"kind": "human"}] * 2}
        created = post_from_page(ann.page, "/api/tables", body)
        table_id = created["table"]["id"]
        assert created["table"]["rated"] and created["table"]["days_per_move"] == 1
        for seat, p in enumerate(players):  # each takes a seat with their account (from the page)
            p.seat = seat
            claimed = post_from_page(
                p.page, f"/api/tables/{table_id}/claim", {"claim": created["seats"][p.seat]["claim"]}
            )
            p.token = claimed["token"]

        # The opening turns in the browser, one each; then the middle over the API.
        opened: set[str] = set()
        browser_turns = api_turns = 0
        while len(opened) < 2:
            p = next_mover(site, players)
            path = notice(site, p, "your_turn")
            assert path == f"/play/{table_id}#seat"  # (the account's own seat, opened from the session)
            browser_turn(site, p, path, table_id, rng, first=p.name not in opened)
            opened.add(p.name)
            browser_turns += 1
        while True:
            p = next_mover(site, players)
            path = notice(site, p, "your_turn")
            if not api_turn(site, p, table_id, rng):
                break
            api_turns += 1
            until(f"{p.name}'s connection to close", lambda q=p: not connected(site, table_id, q.seat))
        # Every decision left ends the game: the player follows this turn's link and makes it.
        until(f"{p.name}'s connection to close", lambda q=p: not connected(site, table_id, q.seat))
        last = p
        browser_turn(site, last, path, table_id, rng, first=False)
        last.page.wait_for_function("document.body.dataset.over === '1'")
        browser_turns += 1
        assert api_turns > 5, api_turns

        # Both are told the game is over; the other follows that link. Both see the result and the
        # rating changes (the same on both screens).
        changes = []
        for p in players:
            path = notice(site, p, "game_over")
            if p is not last:
                p.page.goto(f"{base}{path.replace('#', '?anim=0&guard=30#')}")
            p.page.wait_for_selector("#result .rating-change[data-seat='1']")
            cells = p.page.locator("#result .rating-change")
            assert cells.count() == 2
            changes.append({c.get_attribute("data-seat"): int(c.get_attribute("data-change")) for c in cells.all()})
        assert changes[0] == changes[1]
        last.page.screenshot(path=str(screenshots / "turn-based-over.png"))
        result = httpx.get(f"{base}/api/tables/{table_id}/ratings", timeout=60).json()
        assert sorted(s["seat"] for s in result["seats"]) == [0, 1]

        # No message holds a card: the mails, the pushes and the in-app list.
        for p in players:
            listed = p.page.evaluate("async () => (await fetch('/api/account/notifications')).json()")
            p.texts += [n["title"] + " " + n["text"] for n in listed["notifications"]]
        # (links and the table's id left out: a random token could spell a card's name by chance)
        texts = [
            " ".join(w for w in t.replace(table_id, "").split() if "://" not in w) for p in players for t in p.texts
        ]
        assert len(texts) > 20
        found = [(name, t) for t in texts for name in card_names() if name in t.lower()]
        assert not found, found
        assert all(not p.errors for p in players), [p.errors for p in players]
        print(f"turns: {browser_turns} in the browser, {api_turns} over the API")
    finally:
        for p in players:
            p.ctx.close()
