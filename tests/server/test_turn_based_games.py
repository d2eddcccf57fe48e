"""A rated turn-based game of Sweet Nose and of Mottainai, from start to end over simulated days: the players
(accounts in different time zones, each reading in their own language) never keep the table open
between their turns, and each is told by e-mail and Web Push whenever it is their turn.

Against the real in-process server (tests/server/conftest.py), a real SMTP server and a real push
endpoint (tests/server/test_notify.py: aiosmtpd, and an HTTP server of the test's own whose pushes are
decrypted with the subscription's key). Each turn, the player to move has no connection to the table;
their your-turn mail and push come, both name the table, and the mail's link opens it; the player
then opens the table with a fresh WebSocket (the seat's token), makes that turn's decision(s) and
closes it. Between turns the server's clock for deadlines (``Hub.clock``) moves on by some hours —
never past a waiting decision's deadline, so no decision is made by a substitute. At the end every
player is told the game is over (in the app, by mail and by push), the game is rated, and no message
names a card.

A whole game is some thirty to seventy turns, each a mail, a push and a WebSocket (six to eleven
seconds on a loaded machine), so each game is played on one database, the two alternating: Sweet Nose
(three players) on PostgreSQL, Mottainai (two) on SQLite. Mamma Mia! is played so in the browser
(tests/web/test_turn_notify_web.py); here its game (some sixty turns, the longest) would cost the
suite more than it adds."""

from __future__ import annotations

import json
import random
import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from email.message import EmailMessage
from typing import Any

import http_ece
import httpx
import pytest
import sqlalchemy as sa

from parlor import games
from parlor.games.mottainai.data import NAMES as MOTTAINAI_NAMES
from parlor.games.sweet_nose.data import SWEET_NAMES, TILE_NAMES
from parlor.server.limits import Limits
from parlor.server.notify.messages import I18N, LANGUAGES, worded

from ..frames import apply_state
from .conftest import BACKENDS, Client, ServerThread, make_url
from .test_accounts import GENEROUS, Browser, signed_up
from .test_notify import SITE_URL, Sinks, local, notes, ok, push_subscription, settings, wait_for
from .test_turn_based import MovedClock, parse

HOUR = timedelta(hours=1)
# Where the players live, and the language each reads its messages in.
TAIPEI = ("Asia/Taipei", "zh-Hant")
PRAGUE = ("Europe/Prague", "cs")
NEW_YORK = ("America/New_York", "en")
TOKYO = ("Asia/Tokyo", "ja")
# game -> (its players' homes, days per move, the database it is played on)
GAMES: dict[str, tuple[tuple[tuple[str, str], ...], int, str]] = {
    "sweet-nose": ((TAIPEI, PRAGUE, NEW_YORK), 2, "postgresql"),
    "mottainai": ((TOKYO, PRAGUE), 1, "sqlite"),
}


class Seat(Client):
    """A seat's WebSocket client that also keeps the deadlines of the newest state frame (a delta frame
    carries them beside the delta, which ``apply_state`` leaves out)."""

    deadlines: dict[str, str]

    def recv(self, timeout: float = 60.0) -> dict[str, Any]:
        frame = json.loads(self.ws.recv(timeout=timeout))
        if frame["type"] == "state":
            self.deadlines = frame["deadlines"]
            frame = self.state = apply_state(self.state, frame)
        self.frames.append(frame)
        return frame


@dataclass
class Player:
    browser: Browser
    name: str
    zone: str
    language: str
    address: str
    push_path: str
    key: Any
    auth: bytes
    seat: int = -1
    token: str = ""
    mails_read: int = 1  # (the verification mail)
    pushes_read: int = 0
    turns: int = 0
    opened_page: bool = False
    texts: list[str] = field(default_factory=list)  # every message it was sent, as read


@pytest.fixture(scope="module")
def sinks() -> Iterator[Sinks]:
    with Sinks() as s:
        yield s


@pytest.fixture(scope="module")
def site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, sinks: Sinks
) -> Iterator[ServerThread]:
    """A server on the database the test names (``indirect``), its clock for deadlines movable."""
    url = make_url(request.param, request, tmp_path_factory.mktemp("db"))
    config = sinks.config()
    limits = Limits(min_turn_time=0.1, turn_scan_interval=0.05)
    with ServerThread(url, seat_timeout=None, account_limits=GENEROUS, limits=limits, notify_config=config) as s:
        s.clock = MovedClock()
        s.app.state.hub.clock = s.clock
        yield s


def card_names(game: str) -> set[str]:
    """Every name of the game's cards (Sweet Nose's sweets and shop tiles, Mottainai's cards) in every
    language, lower case."""
    if game == "sweet-nose":
        names = {
            n for table in (SWEET_NAMES, TILE_NAMES) for by_language in table.values() for n in by_language.values()
        }
    else:
        names = set(MOTTAINAI_NAMES)
        for language in LANGUAGES:
            cards = json.loads((I18N / f"mottainai_cards.{language}.json").read_text(encoding="utf-8"))
            names |= {c["name"] for key, c in cards.items() if not key.startswith("_") and c.get("name")}
    return {n.lower() for n in names}


def names_a_card(text: str, names: set[str]) -> list[str]:
    """The card names in ``text``: a name in Latin letters as a whole word (Mottainai's "Pin" is no card
    in "opinion"), any other as it stands."""
    lowered = text.lower()
    return [
        n for n in names
        if (re.search(rf"(?<!\w){re.escape(n)}(?!\w)", lowered) if n.isascii() else n in lowered)
    ]  # fmt: skip


def link_in(text: str, path: str) -> str:
    """The link to ``path`` in a mail: on a line of its own in every language (a link right after
    Chinese's full-width colon, with no space, is missed by mail readers that split on spaces)."""
    found = [line.strip() for line in text.splitlines() if line.strip().startswith(SITE_URL + path)]
    assert found and " " not in found[0], text
    return found[0]


def new_player(site: ServerThread, sinks: Sinks, home: tuple[str, str]) -> Player:
    """A new account with a confirmed address and a push subscription, reading in its home's language."""
    zone, language = home
    b, name = signed_up(site.base)
    address = f"{name}@example.org".lower()
    ok(b.post("/api/account/notify-settings", {"email": address, "language": language}))
    mail = wait_for("the verification mail", lambda: sinks.mail.to(address))[0]
    assert mail["Content-Language"] == language
    page = httpx.get(local(link_in(mail.get_content(), "/notify/verify"), site), timeout=60)
    assert page.status_code == 200 and settings(b)["email_verified"], page.text
    push_path = f"/push/{secrets.token_hex(6)}"
    sub, key, auth = push_subscription(sinks.push.base + push_path)
    assert ok(b.post("/api/account/push", {"subscription": sub})) == {"subscribed": True}
    return Player(b, name, zone, language, address, push_path, key, auth)


def unread_mail(sinks: Sinks, p: Player) -> EmailMessage | None:
    mails = sinks.mail.to(p.address)
    return mails[p.mails_read] if len(mails) > p.mails_read else None


def told(site: ServerThread, sinks: Sinks, p: Player, kind: str, game: str, table_id: str) -> str:
    """``p``'s next mail and next push: both say ``kind`` of this table, worded in ``p``'s language (the
    game named as ``p``'s pages name it). Returns the mailed link's path, checked to open the table."""
    mail = wait_for(f"{p.name}'s {kind} mail", lambda: unread_mail(sinks, p))
    p.mails_read += 1
    _, _, body = wait_for(f"{p.name}'s {kind} push", lambda: sinks.push.to(p.push_path)[p.pushes_read :])[0]
    p.pushes_read += 1
    payload = json.loads(http_ece.decrypt(body, private_key=p.key, auth_secret=p.auth, version="aes128gcm"))
    text = mail.get_content()
    p.texts += [str(mail["Subject"]), text, json.dumps(payload, ensure_ascii=False)]
    assert payload["kind"] == kind, (p.name, payload, text)
    assert mail["Content-Language"] == p.language
    link = link_in(text, "/play/")
    assert link == payload["url"] == f"{SITE_URL}/play/{table_id}#seat"  # the same table, the reader's own seat
    assert payload["tag"] == f"{kind}:{table_id}"
    title = games.get(game).title
    if kind == "your_turn":
        expected = worded("your_turn", {"game": title}, p.language)
        assert (payload["title"], payload["body"]) == expected and expected[1] in text
        assert str(mail["Subject"]) == f"Parlor: {expected[0]}"
    if not p.opened_page:  # (the same page for every table: fetched once per player)
        page = httpx.get(local(link, site).split("#")[0].rstrip("?"), timeout=60)
        assert page.status_code == 200 and "<title>" in page.text, page.text
        p.opened_page = True
    return link.removeprefix(SITE_URL)


def summary(site: ServerThread, table_id: str) -> dict[str, Any]:
    return ok(httpx.get(f"{site.base}/api/tables/{table_id}", timeout=60))


def play_turn(site: ServerThread, p: Player, path: str, days: int, rng: random.Random) -> tuple[dict[str, str], bool]:
    """``p`` opens the table of the mailed link's ``path`` (a fresh WebSocket with the seat's token),
    makes every decision the turn asks of it, and closes it. Returns the deadlines the last state
    showed (seat -> UTC time), and whether the game is over."""
    table_id = path.removeprefix("/play/").removesuffix("#seat")
    # Told while away, as a player is: nobody has the table open, so it left the server's memory.
    hub = site.app.state.hub
    wait_for("the table to leave memory (nobody has it open)", lambda: table_id not in hub.tables)
    with Seat(site.base, table_id, p.token) as c:
        st = c.wait_turn_or_over()
        assert st["your_turn"] and not st["over"], st
        shown = parse(c.deadlines[str(p.seat)])  # the deadline the player is shown: still to come
        assert site.clock() < shown <= site.clock() + timedelta(days=days), (shown, site.clock())
        while st["your_turn"]:  # (a turn may hold several decisions)
            reply = c.act(rng.choice(st["legal"])["id"])
            assert reply["type"] == "ack", reply
            st = c.state
    p.turns += 1
    return dict(c.deadlines), st["over"]


def moved_on(site: ServerThread, deadlines: dict[str, str], rng: random.Random) -> None:
    """Some hours pass before the next player looks at their mail: three to twenty, but the clock stays
    an hour short of the nearest waiting deadline."""
    step = timedelta(hours=rng.randint(3, 20))
    if deadlines:
        step = min(step, min(parse(d) for d in deadlines.values()) - site.clock() - HOUR)
    site.clock.offset += max(step, timedelta(0))


def record_of(site: ServerThread, table_id: str) -> list[tuple[int, str]]:
    """The table's stored record: (seat, who decided) for each decision, in order."""
    engine = sa.create_engine(site.database_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                sa.text('SELECT seat, "by" FROM parlor_actions WHERE table_id = :t ORDER BY idx'), {"t": table_id}
            ).all()
    finally:
        engine.dispose()
    return [(seat, by) for seat, by in rows]


def turns_of(p: Player) -> list[dict[str, Any]]:
    return ok(p.browser.http.get("/api/account/turns"))["turns"]


def rating_of(site: ServerThread, p: Player, game: str) -> list[dict[str, Any]]:
    found = ok(httpx.get(f"{site.base}/api/players/{p.name}", timeout=60))
    return [r for r in found["ratings"] if r["game"] == game]


PLAYED = [(game, database) for game, (_, _, database) in GAMES.items()]
assert {database for _, database in PLAYED} == set(BACKENDS)  # (both databases are used)


@pytest.mark.parametrize(("game", "site"), PLAYED, indirect=["site"])
def test_a_rated_turn_based_game_told_by_mail_and_push_each_turn_over_days(
    game: str, site: ServerThread, sinks: Sinks
) -> None:
    homes, days, _ = GAMES[game]
    rng = random.Random(f"{game}-7")
    players = [new_player(site, sinks, home) for home in homes]
    host = players[0]
    body = {"game": game, "players": len(players), "rated": True, "days_per_move": days,
            "seats": [{"kind": "human"}] * len(players)}  # fmt: skip
    created = ok(host.browser.post("/api/tables", body))
    table_id = created["table"]["id"]
    assert created["table"]["rated"] and created["table"]["days_per_move"] == days
    assert created["table"]["turn_time"] is None
    for seat, p in enumerate(players):  # each takes a seat with their account; nobody opens the table
        p.seat = seat
        p.token = ok(p.browser.post(f"/api/tables/{table_id}/claim", {"claim": created["seats"][seat]["claim"]}))[
            "token"
        ]
    for p in players:
        assert rating_of(site, p, game) == []  # (new accounts: not rated at this game yet)
    start = site.clock()

    # Each turn: whoever was mailed a your-turn (the seat order breaks a tie: several may be asked at
    # once) has no connection, reads the mail and the push, opens the table, decides and closes it.
    over = False

    def next_mover() -> Player | str | None:
        if over:
            return "over"
        for p in players:
            mail = unread_mail(sinks, p)
            if mail is not None and str(mail["Subject"]) == "Parlor: " + worded("your_turn", {}, p.language)[0]:
                return p
        return None

    def waiting_for_a_mover() -> Player | str:
        try:
            return wait_for("a your-turn mail (or the game's end)", next_mover, timeout=30)
        except TimeoutError:  # (say who the server asks: the one whose mail or push never came)
            asked = {p.name: [t["seat"] for t in turns_of(p) if t["table_id"] == table_id] for p in players}
            raise AssertionError(f"nobody was told of their turn; the seats asked: {asked}") from None

    hub = site.app.state.hub
    loads, snapshot_loads = hub.loads, hub.snapshot_loads
    turns = 0
    while isinstance(mover := waiting_for_a_mover(), Player):
        path = told(site, sinks, mover, "your_turn", game, table_id)
        deadlines, over = play_turn(site, mover, path, days, rng)
        moved_on(site, deadlines, rng)
        turns += 1
    final = summary(site, table_id)
    assert final["status"] == "over", final
    assert turns >= 10 and all(p.turns >= 3 for p in players), (turns, [p.turns for p in players])
    assert site.clock() - start > timedelta(days=5)  # the game took (simulated) days
    # Nobody had it open between turns: it left the server's memory, and each opening loaded it again
    # (mostly from the snapshot stored as it left; one opened before that write landed replays it).
    assert hub.loads - loads >= turns and hub.snapshot_loads - snapshot_loads >= turns // 2, (hub.loads, turns)

    # Nobody's decision was made for them: every one in the record is the seat's own.
    record = record_of(site, table_id)
    assert record and {by for _, by in record} == {"player"}, sorted(set(record))
    assert {seat for seat, _ in record} == set(range(len(players)))
    assert all(s["bot_moves"] == 0 for s in final["seats"]), final["seats"]
    assert not any(s["absent"] for s in final["result"]["seats"]), final["result"]

    # Everyone is told the game is over: in the app, by mail and by push (no your-turn left over).
    for p in players:
        told(site, sinks, p, "game_over", game, table_id)
        assert unread_mail(sinks, p) is None and len(sinks.push.to(p.push_path)) == p.pushes_read
        kinds = [n["kind"] for n in notes(p.browser)["notifications"] if n["table_id"] == table_id]
        assert kinds.count("game_over") == 1 and kinds.count("your_turn") == p.turns, (p.name, kinds, p.turns)

    # Rated: the table's ratings list every seat, and each account's rating at this game moved.
    rated = wait_for("the table's ratings", lambda: (r := ok(httpx.get(
        f"{site.base}/api/tables/{table_id}/ratings", timeout=60))).get("done") and r)  # fmt: skip
    assert sorted(s["seat"] for s in rated["seats"]) == list(range(len(players))), rated
    assert not any(s["abandoned"] for s in rated["seats"]), rated
    for p in players:
        (mine,) = rating_of(site, p, game)
        assert mine["games"] == 1 and mine["sigma"] < 25 / 3, mine  # (a new player's sigma is 25/3)

    # No message holds a card: the mails, the pushes, and the in-app list in every language.
    for p in players:
        for language in LANGUAGES:
            p.texts += [n["title"] + " " + n["text"] for n in notes(p.browser, language)["notifications"]]
    # (links and the table's id left out: a random token could spell a card's name by chance)
    texts = [" ".join(w for w in t.replace(table_id, "").split() if "://" not in w) for p in players for t in p.texts]
    assert len(texts) > 3 * turns
    names = card_names(game)
    found = [(name, t) for t in texts for name in names_a_card(t, names)]
    assert not found, found[:5]
    days_played = (site.clock() - start) / timedelta(days=1)
    print(f"{game}: {turns} turns over {days_played:.1f} days, {len(record)} decisions")
