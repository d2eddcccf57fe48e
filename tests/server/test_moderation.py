"""Moderation through a real server (SQLite and PostgreSQL): players' reports (once each, under real
concurrent requests), the moderators' routes refused to everyone else (every route tagged ``admin``
in the OpenAPI description), mutes and bans with their reasons, a chat line deleted for everyone, a
name hidden from the leaderboards, a table closed, and the log of it all."""

from __future__ import annotations

import contextlib
import json
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from typer.testing import CliRunner, Result
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from parlor.cli.main import app as cli_app
from parlor.server.accounts import fold_name
from parlor.server.storage import Database, ModerationStore

from .conftest import BACKENDS, Client, ServerThread, create_table, make_url
from .test_accounts import GENEROUS, Browser, signed_up


@pytest.fixture(scope="module", params=BACKENDS)
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    url = make_url(request.param, request, tmp_path_factory.mktemp("db"))
    with ServerThread(url, seat_timeout=None, account_limits=GENEROUS) as s:
        yield s


def make_admin(site: ServerThread, name: str) -> None:
    """What ``parlor admin add NAME`` does (tests/test_cli_admin.py runs the command itself)."""
    db = Database(site.database_url)
    try:
        assert ModerationStore(db).set_admin(fold_name(name), True)
    finally:
        db.close()


@pytest.fixture
def admin(site: ServerThread) -> Iterator[Browser]:
    b, name = signed_up(site.base)
    make_admin(site, name)
    b.name = name  # type: ignore[attr-defined]
    yield b
    b.close()


def later(days: float = 1) -> str:
    return (datetime.now(UTC) + timedelta(days=days)).isoformat(timespec="seconds").replace("+00:00", "Z")


def seated(site: ServerThread, player: Browser, other: Browser) -> tuple[str, Client, Client]:
    """A table of two humans, each seat claimed by a signed-in player, and their WebSockets."""
    r = player.post("/api/tables", {"game": "mamma-mia", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert r.status_code == 201, r.text
    created = r.json()
    table_id = created["table"]["id"]
    tokens = []
    for seat, who in enumerate((player, other)):
        claimed = who.post(f"/api/tables/{table_id}/claim", {"claim": created["seats"][seat]["claim"]})
        assert claimed.status_code == 200, claimed.text
        tokens.append(claimed.json()["token"])
    clients = Client(site.base, table_id, tokens[0]), Client(site.base, table_id, tokens[1])
    for client, token in zip(clients, tokens, strict=True):
        client.token = token  # type: ignore[attr-defined]
    return table_id, *clients


def first_frame(site: ServerThread, table_id: str, token: str) -> tuple[dict[str, Any], int]:
    """The first frame a WebSocket with this seat token gets, and its close code (0: still open)."""
    url = site.base.replace("http://", "ws://") + f"/ws/tables/{table_id}?token={token}"
    with connect(url, open_timeout=30) as ws:
        frame = json.loads(ws.recv(timeout=30))
        with contextlib.suppress(ConnectionClosed, TimeoutError):
            ws.recv(timeout=30)
        return frame, ws.close_code or 0


def log_of(admin: Browser) -> list[dict[str, Any]]:
    r = admin.http.get("/api/admin/log")
    assert r.status_code == 200, r.text
    return r.json()["log"]


def admin_operations(site: ServerThread) -> list[tuple[str, str]]:
    """Every (method, path) the OpenAPI description tags ``admin``, a path's parameters filled in."""
    spec = httpx.get(site.base + "/openapi.json", timeout=60).json()
    found = []
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if "admin" in (operation.get("tags") or []):
                filled = path.replace("{table_id}", "t" + uuid.uuid4().hex[:10]).replace("{report_id}", "1")
                found.append((method.upper(), filled))
    return found


def test_every_admin_route_is_refused_to_guests_and_players(site: ServerThread, admin: Browser) -> None:
    operations = admin_operations(site)
    assert len(operations) >= 8  # the reports, sanctions, names, log, and the two table actions
    before = log_of(admin)
    guest = Browser(site.base)
    guest.who()
    player, _ = signed_up(site.base)
    for method, path in operations:
        body = {"name": "x", "kind": "mute", "reason": "r", "until": later(), "note": "n", "idx": 0}
        for who, status, code in ((guest, 401, "not_signed_in"), (player, 403, "not_admin")):
            r = who.http.request(method, path, json=body if method == "POST" else None,
                                 headers={"X-CSRF-Token": who.csrf})  # fmt: skip
            assert (r.status_code, r.json()["error"]["code"]) == (status, code), (method, path, r.text)
    # The page too: a guest is sent to sign in, a player refused, a moderator served.
    r = guest.http.get("/admin", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/account")
    assert player.http.get("/admin").status_code == 403
    # Opened in the player's browser: a page saying the moderators only, not the API's JSON.
    r = player.http.get("/admin", headers={"accept": "text/html"})
    assert r.status_code == 403 and 'data-code="not_admin"' in r.text
    assert admin.http.get("/admin").status_code == 200
    assert log_of(admin) == before  # nothing was done


def report(who: Browser, **body: Any) -> httpx.Response:
    return who.post("/api/reports", {"reason": "abuse", "text": "rude", **body})


def test_a_report_is_stored_once_even_sent_many_times_at_once(site: ServerThread, admin: Browser) -> None:
    reporter, _ = signed_up(site.base)
    _, bad = signed_up(site.base)
    cookies, csrf = dict(reporter.http.cookies), reporter.csrf

    def send(_: int) -> int:
        with httpx.Client(base_url=site.base, cookies=cookies, timeout=60) as c:
            body = {"player": bad, "reason": "cheating", "text": "same thing"}
            return c.post("/api/reports", json=body, headers={"X-CSRF-Token": csrf}).status_code

    with ThreadPoolExecutor(8) as pool:
        statuses = sorted(pool.map(send, range(8)))
    assert statuses == [201] + [409] * 7
    queue = admin.http.get("/api/admin/reports").json()["reports"]
    mine = [r for r in queue if r["reported"] == bad]
    assert len(mine) == 1 and mine[0]["reason"] == "cheating" and mine[0]["status"] == "open"
    # The same subject again (another reason) is refused; another subject (at a table) is another report.
    r = report(reporter, player=bad, reason="spam")
    assert r.status_code == 409 and r.json()["error"]["code"] == "already_reported"
    table_id = create_table(site.base, players=2)["table"]["id"]
    assert report(reporter, player=bad, table_id=table_id).status_code == 201
    assert report(reporter, player=bad, table_id=table_id).status_code == 409


def test_bad_reports_are_refused_and_store_nothing(site: ServerThread, admin: Browser) -> None:
    reporter, me = signed_up(site.base)
    _, other = signed_up(site.base)
    before = admin.http.get("/api/admin/reports").json()["reports"]
    guest = Browser(site.base)
    guest.who()
    cases = [
        (guest, {"player": other}, 401, "not_signed_in"),
        (reporter, {"player": "nobody" + uuid.uuid4().hex[:6]}, 404, "unknown_player"),
        (reporter, {"player": me}, 400, "bad_request"),
        (reporter, {"player": other, "reason": "ugly"}, 400, "bad_reason"),
        (reporter, {"player": other, "text": "x" * 1001}, 400, "bad_request"),
        (reporter, {"player": other, "table_id": "t" + uuid.uuid4().hex[:10]}, 404, "table_not_found"),
        (reporter, {"player": other, "chat_idx": 0}, 400, "bad_chat_idx"),
    ]
    for who, body, status, code in cases:
        r = report(who, **body)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), (body, r.text)
    assert admin.http.get("/api/admin/reports").json()["reports"] == before


def test_report_queue_mute_and_the_muted_players_chat(site: ServerThread, admin: Browser) -> None:
    rude, rude_name = signed_up(site.base)
    victim, _ = signed_up(site.base)
    table_id, rude_ws, victim_ws = seated(site, rude, victim)
    with rude_ws, victim_ws:
        said = rude_ws.request({"type": "chat", "text": "you are terrible"})
        assert said["type"] == "ack"
        r = report(victim, table_id=table_id, chat_idx=said["chat_idx"], reason="abuse")
        assert r.status_code == 201, r.text
        assert r.json()["report"]["player"] == rude_name
        queued = next(q for q in admin.http.get("/api/admin/reports").json()["reports"] if q["reported"] == rude_name)
        assert queued["chat_text"] == "you are terrible" and queued["table_id"] == table_id
        # Muted: the chat is refused with the reason and the end, at every table.
        until = later(2)
        r = admin.post("/api/admin/sanctions", {"name": rude_name, "kind": "mute", "reason": "insults", "until": until})
        assert r.status_code == 201, r.text
        refused = rude_ws.request({"type": "chat", "text": "still here"})
        assert refused["type"] == "error" and refused["code"] == "muted"
        assert "insults" in refused["message"] and until in refused["message"]
        assert victim_ws.request({"type": "chat", "text": "thanks"})["type"] == "ack"  # others still chat
        # Resolved with a note: out of the open queue, in the resolved one.
        r = admin.post(f"/api/admin/reports/{queued['id']}/resolve", {"note": "muted for two days"})
        assert r.status_code == 200, r.text
        assert admin.post(f"/api/admin/reports/{queued['id']}/resolve", {"note": "again"}).status_code == 404
        assert queued["id"] not in [q["id"] for q in admin.http.get("/api/admin/reports").json()["reports"]]
        done = admin.http.get("/api/admin/reports?status=resolved").json()["reports"]
        assert any(q["id"] == queued["id"] and q["note"] == "muted for two days" for q in done)
        # Lifted: the player chats again.
        r = admin.post("/api/admin/sanctions/lift", {"name": rude_name, "kind": "mute", "reason": "apologised"})
        assert r.status_code == 200, r.text
        assert rude_ws.request({"type": "chat", "text": "sorry"})["type"] == "ack"
    actions = [(line["action"], line["target"], line["admin"]) for line in log_of(admin)]
    for action in ("mute", "resolve_report", "lift_mute"):
        assert any(a == action and who == admin.name for a, _, who in actions), action  # type: ignore[attr-defined]


def test_a_ban_ends_the_session_hands_the_seat_to_its_bot_and_refuses_the_sign_in(
    site: ServerThread, admin: Browser
) -> None:
    banned, name = signed_up(site.base)
    other, _ = signed_up(site.base)
    table_id, banned_ws, other_ws = seated(site, banned, other)
    with banned_ws, other_ws:
        until = later(7)
        r = admin.post("/api/admin/sanctions", {"name": name, "kind": "ban", "reason": "cheating", "until": until})
        assert r.status_code == 201, r.text
        told = banned_ws.next(lambda f: f["type"] == "error")
        assert told["code"] == "banned" and "cheating" in told["message"]
        with pytest.raises(ConnectionClosed):
            banned_ws.recv(30)
        assert banned_ws.ws.close_code == 4403
        seats = other_ws.next(lambda f: f["type"] == "seats" and f["seats"][0].get("substituted"))
        assert seats["seats"][0]["substituted"]
    # The session is over, a new sign-in is refused with the reason, and the seat's token opens nothing.
    assert banned.who() is None
    r = banned.sign_in(name)
    assert r.status_code == 403 and r.json()["error"]["code"] == "banned"
    assert "cheating" in r.json()["error"]["message"] and until in r.json()["error"]["message"]
    frame, closed = first_frame(site, table_id, banned_ws.token)  # type: ignore[attr-defined]
    assert frame["code"] == "banned" and "cheating" in frame["message"] and closed == 4403
    assert any(line["action"] == "ban" and line["target"] == name for line in log_of(admin))


def test_bad_sanctions_are_refused_and_change_nothing(site: ServerThread, admin: Browser) -> None:
    _, player = signed_up(site.base)
    other_admin, other_name = signed_up(site.base)
    make_admin(site, other_name)
    before = log_of(admin), admin.http.get("/api/admin/sanctions").json()
    me = admin.name  # type: ignore[attr-defined]
    cases = [
        ({"name": "nobody" + uuid.uuid4().hex[:6]}, 404, "unknown_player"),
        ({"name": player, "until": "2001-01-01T00:00Z"}, 400, "bad_until"),
        ({"name": player, "until": "next tuesday"}, 400, "bad_until"),
        ({"name": player, "until": later(365 * 20)}, 400, "bad_until"),
        ({"name": player, "reason": ""}, 400, "bad_request"),
        ({"name": player, "kind": "jail"}, 400, "bad_request"),
        ({"name": me}, 400, "bad_target"),
        ({"name": other_name}, 400, "bad_target"),
        ({"name": other_name, "kind": "ban"}, 400, "bad_target"),
    ]
    for body, status, code in cases:
        r = admin.post("/api/admin/sanctions", {"kind": "mute", "reason": "r", "until": later(), **body})
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), (body, r.text)
    assert (log_of(admin), admin.http.get("/api/admin/sanctions").json()) == before
    other_admin.close()


def test_a_chat_line_deleted_for_everyone_and_a_table_closed(site: ServerThread, admin: Browser) -> None:
    one, _ = signed_up(site.base)
    two, _ = signed_up(site.base)
    table_id, ws_one, ws_two = seated(site, one, two)
    with ws_one, ws_two:
        said = ws_one.request({"type": "chat", "text": "something awful"})
        ws_two.next(lambda f: f["type"] == "chat" and not f["history"])
        r = admin.post(f"/api/tables/{table_id}/moderate/delete-chat", {"idx": said["chat_idx"], "reason": "slur"})
        assert r.status_code == 200, r.text
        assert ws_two.next(lambda f: f["type"] == "chat_deleted") == {"type": "chat_deleted", "idx": said["chat_idx"]}
        missing = admin.post(f"/api/tables/{table_id}/moderate/delete-chat", {"idx": 99, "reason": "slur"})
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "bad_chat_idx"
        r = admin.post(f"/api/tables/{table_id}/moderate/close", {"reason": "a fight"})
        assert r.status_code == 200, r.text
        over = ws_one.next(lambda f: f["type"] == "state" and f["over"])
        assert over["result"]["abandoned_code"] == "closed_by_moderator"
        again = admin.post(f"/api/tables/{table_id}/moderate/close", {"reason": "a fight"})
        assert again.status_code == 409
    page = one.http.get(f"/api/tables/{table_id}/chat").json()["messages"]  # (public once over)
    assert [(m["text"], m.get("deleted")) for m in page] == [("", True)]
    lines = [(line["action"], line["target"], line["reason"]) for line in log_of(admin)]
    assert ("delete_chat", f"table {table_id}", "slur") in lines and (
        "close_table",
        f"table {table_id}",
        "a fight",
    ) in lines


def test_a_hidden_name_leaves_the_leaderboards(site: ServerThread, admin: Browser) -> None:
    _, name = signed_up(site.base)
    engine = sa.create_engine(site.database_url)
    with engine.begin() as conn:  # a rating as a rated game leaves it (tests/server/test_ratings.py plays those)
        account = conn.execute(sa.text("SELECT id FROM parlor_accounts WHERE name = :n"), {"n": name}).scalar()
        conn.execute(
            sa.text(
                "INSERT INTO parlor_ratings (account_id, game, players_class, mu, sigma, games, updated_at)"
                " VALUES (:a, 'sweet-nose', '2', 40, 1, 3, :t)"
            ),
            {"a": account, "t": datetime.now(UTC)},
        )
    engine.dispose()

    def board() -> list[str]:
        return [e["name"] for e in admin.http.get("/api/leaderboard?game=sweet-nose").json()["ratings"]]

    assert name in board()
    r = admin.post("/api/admin/leaderboards/hide", {"name": name, "hidden": True, "reason": "offensive name"})
    assert r.status_code == 200, r.text
    assert name not in board()
    assert admin.http.get(f"/api/players/{name}").status_code == 200  # the player's own page stays


def parlor_admin(*args: str) -> Result:
    """``parlor admin ...`` run by the real command-line app, in this process (a new Python per call
    would cost seconds of imports each)."""
    return CliRunner().invoke(cli_app, ["admin", *args])


def test_parlor_admin_add_list_and_remove_on_the_sites_database(site: ServerThread) -> None:
    player, name = signed_up(site.base)
    assert player.http.get("/api/admin/log").status_code == 403
    added = parlor_admin("add", name, "--database-url", site.database_url)
    assert added.exit_code == 0 and f"{name} is now a moderator" in added.stdout, added.output
    assert player.http.get("/api/admin/log").status_code == 200  # the running site sees it at once
    listed = parlor_admin("list", "--database-url", site.database_url)
    assert listed.exit_code == 0 and name in listed.stdout.splitlines()
    unknown = parlor_admin("add", "nobody" + uuid.uuid4().hex[:6], "--database-url", site.database_url)
    assert unknown.exit_code == 1 and unknown.stdout == ""
    assert len(unknown.stderr.strip().splitlines()) == 1 and "no account is called" in unknown.stderr
    removed = parlor_admin("remove", name, "--database-url", site.database_url)
    assert removed.exit_code == 0, removed.output
    assert player.http.get("/api/admin/log").status_code == 403
    assert any(line["action"] == "admin_add" and line["target"] == name for line in log_of_admin_site(site))


def log_of_admin_site(site: ServerThread) -> list[dict[str, Any]]:
    db = Database(site.database_url)
    try:
        return ModerationStore(db).log_lines()
    finally:
        db.close()
