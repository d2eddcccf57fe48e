"""The request rules in front of every state-changing REST call, through a real server and raw HTTP
(SQLite and PostgreSQL): one reading of the session cookie for the CSRF check and the routes, a
repeated Parlor cookie refused ("cookie tossing" from a sibling subdomain), JSON bodies only, and the
``__Host-`` cookies of ``--secure-cookies``."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select
from websockets.sync.client import connect

from parlor.server.edge.accounts import UNSAFE
from parlor.server.storage import Database
from parlor.server.storage.schema import (
    accounts_t,
    actions_t,
    chat_t,
    ratings_t,
    reviews_t,
    seats_t,
    sessions_t,
    tables_t,
)

from .conftest import BACKENDS, ServerThread, create_table, make_url
from .test_accounts import GENEROUS, Browser, fresh_name, signed_up


@pytest.fixture(scope="module", params=BACKENDS)
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    url = make_url(request.param, request, tmp_path_factory.mktemp("db"))
    with ServerThread(url, seat_timeout=None, account_limits=GENEROUS) as s:
        yield s


def row_counts(site: ServerThread) -> dict[str, int]:
    """How many rows each table of what a request could change holds."""
    db = Database(site.database_url)
    try:
        with db.engine.connect() as conn:
            return {
                t.name: conn.execute(select(func.count()).select_from(t)).scalar_one()
                for t in (tables_t, seats_t, actions_t, chat_t, accounts_t, sessions_t, reviews_t, ratings_t)
            }
    finally:
        db.close()


def raw(site: ServerThread, method: str, path: str, cookie_headers: list[str], **kwargs: Any) -> httpx.Response:
    """A request with exactly these ``Cookie`` headers (no cookie jar, no CSRF token)."""
    headers = [("cookie", value) for value in cookie_headers] + list(kwargs.pop("headers", {}).items())
    with httpx.Client(base_url=site.base, timeout=60) as client:
        return client.request(method, path, headers=headers, **kwargs)


def tossed_variants(victim: str) -> list[list[str]]:
    """The victim's session cookie with another of the same name before it, as a sibling subdomain can
    set one: empty, over-long, malformed, the same value again, or in a second ``Cookie`` header."""
    return [
        [f"parlor_session=; parlor_session={victim}"],
        [f"parlor_session={'a' * 201}; parlor_session={victim}"],
        [f'parlor_session="x y"; parlor_session={victim}'],
        [f"parlor_session={victim}; parlor_session={victim}"],
        [f"other=1; parlor_session={victim}", "parlor_session="],
        [f"parlor_session={victim}; parlor_csrf=abc; parlor_csrf="],
    ]


def test_a_tossed_session_cookie_is_refused_and_changes_nothing(site: ServerThread) -> None:
    victim, _ = signed_up(site.base)
    secret = victim.http.cookies.get("parlor_session")
    assert secret and victim.who() is not None
    before = row_counts(site)
    for cookies in tossed_variants(secret):
        attempts = [
            ("POST", "/api/tables", {"game": "mamma-mia", "players": 2}),
            ("POST", "/api/quick-play", {"game": "mamma-mia", "players": 2, "rated": True}),
            ("POST", "/api/account/sign-out", {}),
            ("POST", "/api/account/sign-out", None),
        ]
        for method, path, body in attempts:
            r = raw(site, method, path, cookies, json=body) if body is not None else raw(site, method, path, cookies)
            assert r.status_code == 400, (cookies, path, r.status_code, r.text)
            error = r.json()["error"]
            assert error["code"] == "repeated_cookie" and re.search(r"parlor_(session|csrf)", error["message"])
        # Reading is refused alike: whose session it would be is not for the server to guess.
        r = raw(site, "GET", "/api/account", cookies)
        assert r.status_code == 400 and r.json()["error"]["code"] == "repeated_cookie"
    assert row_counts(site) == before  # no table, no quick play, no sign-out
    assert victim.who() is not None  # still signed in
    assert victim.http.get("/api/account/tables").json() == {"tables": []}
    victim.close()


def test_a_malformed_or_over_long_session_cookie_is_no_session_for_the_check_and_the_routes(site: ServerThread) -> None:
    victim, _ = signed_up(site.base)
    secret = victim.http.cookies.get("parlor_session")
    for value in (f'"{secret}"', secret + "!", "a" * 201, ""):
        cookies = [f"parlor_session={value}"]
        r = raw(site, "GET", "/api/account", cookies)
        assert r.status_code == 200 and r.json()["account"] is None, (value, r.text)
        # No session: no token asked, and the route acts for a guest, never for the victim.
        r = raw(site, "POST", "/api/tables", cookies, json={"game": "mamma-mia", "players": 2})
        assert r.status_code == 201, (value, r.text)
        r = raw(site, "POST", "/api/account/sign-out", cookies)
        assert r.status_code == 200 and r.json()["account"] is None
    assert victim.who() is not None  # the victim's session did not end
    assert victim.http.get("/api/account/tables").json() == {"tables": []}  # nor got a table
    victim.close()


def state_changing_routes(site: ServerThread) -> list[tuple[str, str]]:
    """Every state-changing ``/api/`` route the app has, read from its OpenAPI description (included
    routers too), so that a new one is covered as well."""
    routes = []
    for path, operations in site.app.openapi()["paths"].items():
        if path.startswith("/api/"):
            routes += [(method.upper(), path) for method in sorted(operations) if method.upper() in UNSAFE]
    return routes


def test_state_changing_routes_take_json_bodies_only(site: ServerThread) -> None:
    routes = state_changing_routes(site)
    paths = {path for _, path in routes}
    assert {"/api/tables", "/api/quick-play", "/api/account/sign-out", "/api/tables/{table_id}/review"} <= paths
    created = create_table(site.base, players=2, seats=[{"kind": "human"}, {"kind": "human"}])
    table_id = created["table"]["id"]
    browser, _ = signed_up(site.base)
    browser.who()
    body = '{"game": "mamma-mia", "players": 2, "name": "Ann", "password": "correct horse"}'
    bodies = [
        {"content": body, "headers": {"content-type": "text/plain"}},
        {"content": body, "headers": {"content-type": "text/plain;charset=UTF-8"}},
        {"data": {"game": "mamma-mia", "players": "2"}},  # application/x-www-form-urlencoded
        {"files": {"game": ("g.json", body, "application/json")}},  # multipart/form-data
        {"content": body},  # a body with no Content-Type (a Blob of no type, posted with no CORS)
        {"content": body, "headers": {"content-type": "application/jsonx"}},
    ]
    before = row_counts(site)
    for method, path in routes:
        url = path.replace("{table_id}", table_id).replace("{seat}", "0").replace("{name}", fresh_name())
        for kwargs in bodies:
            sent = dict(kwargs)
            for who in (None, browser):  # a guest, and a signed-in browser with its CSRF token
                headers = dict(sent.pop("headers", None) or {})
                if who is None:
                    r = httpx.request(method, site.base + url, headers=headers, timeout=60, **sent)
                else:
                    headers["x-csrf-token"] = who.csrf
                    r = who.http.request(method, url, headers=headers, **sent)
                sent = dict(kwargs)
                assert r.status_code == 415, (method, path, kwargs, r.status_code, r.text)
                assert r.json()["error"]["code"] == "unsupported_media_type"
    assert row_counts(site) == before
    assert browser.who() is not None
    browser.close()


def test_the_browser_flow_still_works(site: ServerThread) -> None:
    browser = Browser(site.base)
    name = fresh_name()
    assert browser.sign_up(name).status_code == 201
    assert browser.who() == {"name": name}
    r = browser.post("/api/tables", {"game": "mamma-mia", "players": 2, "seats": [{"kind": "human"}] * 2})
    assert r.status_code == 201, r.text
    r = browser.http.post(
        "/api/tables",
        content=b'{"game": "mamma-mia", "players": 2}',
        headers={"content-type": "application/json; charset=utf-8", "x-csrf-token": browser.csrf},
    )
    assert r.status_code == 201, r.text
    # Without the token it is refused, as before.
    r = browser.http.post("/api/tables", json={"game": "mamma-mia", "players": 2})
    assert r.status_code == 403 and r.json()["error"]["code"] == "csrf"
    # A call with no body at all needs no Content-Type (signing out, asking for a review).
    r = browser.http.post("/api/account/sign-out", headers={"x-csrf-token": browser.csrf})
    assert r.status_code == 200 and r.json()["account"] is None
    assert browser.who() is None
    browser.close()


def test_secure_cookies_take_the_host_prefix_and_only_it_is_read(tmp_path: Any) -> None:
    url = make_url("sqlite", None, tmp_path)  # type: ignore[arg-type]
    with ServerThread(url, seat_timeout=None, account_limits=GENEROUS, secure_cookies=True) as s:
        form = httpx.get(s.base + "/api/account")
        [form_cookie] = form.headers.get_list("set-cookie")
        assert form_cookie.startswith("__Host-parlor_csrf=") and "secure" in form_cookie.lower()
        form_secret = form_cookie.split(";")[0].split("=", 1)[1]
        name = fresh_name()
        r = httpx.post(
            s.base + "/api/account/sign-up",
            json={"name": name, "password": "correct horse"},
            headers={"cookie": f"__Host-parlor_csrf={form_secret}", "x-csrf-token": form.json()["csrf"]},
        )
        assert r.status_code == 201, r.text
        [session_cookie] = [c for c in r.headers.get_list("set-cookie") if c.startswith("__Host-parlor_session=")]
        assert "secure" in session_cookie.lower() and "path=/" in session_cookie.lower()
        assert "domain=" not in session_cookie.lower()
        secret = session_cookie.split(";")[0].split("=", 1)[1]
        signed = httpx.get(s.base + "/api/account", headers={"cookie": f"__Host-parlor_session={secret}"})
        assert signed.json()["account"] == {"name": name}
        # The plain name (which a sibling subdomain could set) is not this site's cookie.
        plain = httpx.get(s.base + "/api/account", headers={"cookie": f"parlor_session={secret}"})
        assert plain.json()["account"] is None
        r = httpx.post(
            s.base + "/api/tables",
            json={"game": "mamma-mia", "players": 2},
            headers={"cookie": f"__Host-parlor_session={secret}"},
        )
        assert r.status_code == 403 and r.json()["error"]["code"] == "csrf"


def test_a_websocket_with_a_tossed_session_cookie_opens_without_the_session(site: ServerThread) -> None:
    owner, _ = signed_up(site.base)
    owner.who()
    r = owner.post("/api/tables", {"game": "mamma-mia", "players": 2, "seats": [{"kind": "human"}] * 2})
    assert r.status_code == 201, r.text
    created = r.json()
    table_id = created["table"]["id"]
    r = owner.post(f"/api/tables/{table_id}/claim", {"claim": created["seats"][0]["claim"]})
    assert r.status_code == 200, r.text
    secret = owner.http.cookies.get("parlor_session")
    url = site.base.replace("http://", "ws://") + f"/ws/tables/{table_id}"

    def first_frame(cookie: str) -> dict[str, Any]:
        with connect(url, additional_headers={"Cookie": cookie}, open_timeout=30) as ws:
            return json.loads(ws.recv(timeout=30))

    # The session alone opens the account's seat (no token) ...
    assert first_frame(f"parlor_session={secret}")["seat"] == 0
    # ... a repeated session cookie is no session: a private table refuses a guest without a token.
    frame = first_frame(f"parlor_session=; parlor_session={secret}")
    assert frame["type"] == "error" and frame["code"] == "bad_token", frame
    owner.close()
