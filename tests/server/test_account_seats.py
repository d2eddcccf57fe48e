"""Seats that belong to accounts (SQLite and PostgreSQL, a real server): a seat claimed while signed in
is the account's and bears its name; its player opens it from another device by signing in; a page
of another origin gets nothing from the cookie; a signed-in creator's own limits; a deleted account's
seats say nothing of it."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from parlor.server.limits import Limits

from .conftest import BACKENDS, ServerThread, make_url
from .test_accounts import GENEROUS, Browser, signed_up

LIMITS = Limits(min_turn_time=0.1, max_unfinished_tables_per_account=3)


@pytest.fixture(scope="module", params=BACKENDS)
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    url = make_url(request.param, request, tmp_path_factory.mktemp("db"))
    with ServerThread(url, seat_timeout=None, account_limits=GENEROUS, limits=LIMITS) as s:
        yield s


def two_humans(b: Browser) -> dict:
    r = b.post("/api/tables", {"game": "mamma-mia", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert r.status_code == 201, r.text
    return r.json()


def first_frame(site: ServerThread, table_id: str, cookie: str | None, origin: str | None = None) -> tuple[dict, int]:
    """The first frame a WebSocket without a token gets, and how it was closed (0: still open)."""
    url = site.base.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    headers = {"Cookie": f"parlor_session={cookie}"} if cookie else {}
    with connect(url, additional_headers=headers, origin=origin, open_timeout=30) as ws:  # type: ignore[arg-type]
        frame = json.loads(ws.recv(timeout=30))
        if frame["type"] == "error":
            with contextlib.suppress(ConnectionClosed):  # the close follows the error
                ws.recv(timeout=30)
            return frame, ws.close_code or 0
        return frame, 0


def test_a_seat_claimed_signed_in_is_the_accounts_and_opens_on_another_device(site: ServerThread) -> None:
    laptop, name = signed_up(site.base)
    created = two_humans(laptop)
    table_id = created["table"]["id"]
    r = laptop.post(f"/api/tables/{table_id}/claim", {"claim": created["seats"][0]["claim"]})
    assert r.status_code == 200, r.text
    token = r.json()["token"]
    seat0 = laptop.http.get(f"/api/tables/{table_id}").json()["seats"][0]
    assert seat0["account"] is True and seat0["name"] == name
    # The name a seat's join asks for does not replace the account's.
    laptop.http.post(f"/api/tables/{table_id}/join", json={"token": token, "name": "Someone Else"},
                     headers={"X-CSRF-Token": laptop.csrf})  # fmt: skip
    assert laptop.http.get(f"/api/tables/{table_id}").json()["seats"][0]["name"] == name
    # Another device: signing in is enough (no link, no token).
    phone = Browser(site.base)
    assert phone.sign_in(name).status_code == 200
    mine = phone.http.get("/api/account/tables").json()["tables"]
    assert [(t["id"], t["your_seat"]) for t in mine] == [(table_id, 0)]
    welcome, closed = first_frame(site, table_id, phone.http.cookies.get("parlor_session"))
    assert welcome["type"] == "welcome" and welcome["role"] == "seat" and welcome["seat"] == 0 and closed == 0
    # The account cannot take a second seat of the same table.
    r = phone.post(f"/api/tables/{table_id}/claim", {"claim": created["seats"][1]["claim"]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "already_seated"
    # ...and that refused claim left the link usable by somebody else.
    guest = Browser(site.base)
    r = guest.http.post(f"/api/tables/{table_id}/claim", json={"claim": created["seats"][1]["claim"]})
    assert r.status_code == 200
    assert laptop.http.get(f"/api/tables/{table_id}").json()["seats"][1]["account"] is False


def test_the_cookie_opens_no_seat_for_another_origin_nor_another_account(site: ServerThread) -> None:
    owner, _ = signed_up(site.base)
    created = two_humans(owner)
    table_id = created["table"]["id"]
    assert owner.post(f"/api/tables/{table_id}/claim", {"claim": created["seats"][0]["claim"]}).status_code == 200
    cookie = owner.http.cookies.get("parlor_session")
    host = site.base.removeprefix("http://")
    frame, closed = first_frame(site, table_id, cookie, origin="http://evil.example")
    assert frame["type"] == "error" and frame["code"] == "bad_token" and closed == 4403
    frame, closed = first_frame(site, table_id, cookie, origin=f"http://{host}")  # the site's own page
    assert frame["type"] == "welcome" and frame["seat"] == 0
    stranger, _ = signed_up(site.base)
    frame, closed = first_frame(site, table_id, stranger.http.cookies.get("parlor_session"))
    assert frame["type"] == "error" and frame["code"] == "bad_token" and closed == 4403
    frame, closed = first_frame(site, table_id, None)
    assert frame["type"] == "error" and frame["code"] == "bad_token"


def test_a_signed_in_creator_has_limits_of_its_own(site: ServerThread) -> None:
    b, _ = signed_up(site.base)
    for _ in range(LIMITS.max_unfinished_tables_per_account):
        two_humans(b)
    r = b.post("/api/tables", {"game": "mamma-mia"})
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_tables"
    assert "by your account" in r.json()["error"]["message"]
    assert len(b.http.get("/api/account/tables").json()["tables"]) == 0  # creating claims no seat
    # The same address as a guest is under its own (larger) cap still.
    b.post("/api/account/sign-out")
    b.http.cookies.clear()
    assert b.http.post("/api/tables", json={"game": "mamma-mia"}).status_code == 201


def test_a_deleted_accounts_seat_keeps_its_place_and_loses_its_name(site: ServerThread) -> None:
    b, name = signed_up(site.base)
    created = two_humans(b)
    table_id = created["table"]["id"]
    assert b.post(f"/api/tables/{table_id}/claim", {"claim": created["seats"][0]["claim"]}).status_code == 200
    assert b.post("/api/account/delete", {"password": "correct horse"}).status_code == 200
    seat0 = b.http.get(f"/api/tables/{table_id}").json()["seats"][0]
    assert seat0["account"] is True and seat0["name"] is None
    assert name not in b.http.get(f"/api/tables/{table_id}").text
