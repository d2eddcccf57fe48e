"""Accounts through a real server (SQLite and PostgreSQL): sign-up, sign-in, sign-out, a new password,
deletion; the session cookie, the CSRF rule, the sign-in limits, and no user enumeration."""

from __future__ import annotations

import json
import logging
import re
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from parlor.server.accounts import AccountLimits

from .conftest import BACKENDS, ServerThread, make_url

GENEROUS = AccountLimits(failures_per_name=5, failures_per_address=1000, signups_per_address=1000)


@pytest.fixture(scope="module", params=BACKENDS)
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    url = make_url(request.param, request, tmp_path_factory.mktemp("db"))
    with ServerThread(url, seat_timeout=None, account_limits=GENEROUS) as s:
        yield s


class Browser:
    """One browser: its cookies, and the CSRF token its page learnt from ``GET /api/account``."""

    def __init__(self, base: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=60)
        self.csrf = ""

    def who(self) -> Any:
        r = self.http.get("/api/account")
        assert r.status_code == 200, r.text
        self.csrf = r.json()["csrf"]
        return r.json()["account"]

    def post(self, path: str, body: dict[str, Any] | None = None, csrf: bool = True) -> httpx.Response:
        headers = {"X-CSRF-Token": self.csrf} if csrf else {}
        r = self.http.post(path, json=body or {}, headers=headers)
        if r.status_code < 300 and "csrf" in r.json():
            self.csrf = r.json()["csrf"]
        return r

    def sign_up(self, name: str, password: str = "correct horse") -> httpx.Response:
        self.who()
        return self.post("/api/account/sign-up", {"name": name, "password": password})

    def sign_in(self, name: str, password: str = "correct horse") -> httpx.Response:
        self.who()
        return self.post("/api/account/sign-in", {"name": name, "password": password})

    def close(self) -> None:
        self.http.close()


def fresh_name() -> str:
    return "p" + uuid.uuid4().hex[:10]


def signed_up(base: str) -> tuple[Browser, str]:
    """A browser signed in to a new account, and the account's name."""
    b = Browser(base)
    name = fresh_name()
    assert b.sign_up(name).status_code == 201
    return b, name


@pytest.fixture
def browser(site: ServerThread) -> Iterator[Browser]:
    b = Browser(site.base)
    yield b
    b.close()


def engine_of(site: ServerThread) -> sa.Engine:
    return sa.create_engine(site.database_url.replace("postgresql://", "postgresql+psycopg://"))


def test_sign_up_gives_an_http_only_session_cookie_and_stores_only_hashes(site: ServerThread, browser: Browser) -> None:
    name = fresh_name()
    r = browser.sign_up(name, "a long secret phrase")
    assert r.status_code == 201, r.text
    assert r.json()["account"] == {"name": name}
    cookie = next(h for h in r.headers.get_list("set-cookie") if h.startswith("parlor_session="))
    secret = cookie.split(";")[0].split("=", 1)[1]
    flags = cookie.lower()
    assert "httponly" in flags and "samesite=lax" in flags and "path=/" in flags
    assert "secure" not in flags  # plain HTTP here; behind TLS the cookie is Secure
    assert secret not in r.text
    assert browser.who() == {"name": name}
    engine = engine_of(site)
    with engine.connect() as conn:
        query = sa.text("SELECT password_hash FROM parlor_accounts WHERE name = :n")
        stored = conn.execute(query, {"n": name}).scalar()
        sessions = [row[0] for row in conn.execute(sa.text("SELECT id FROM parlor_sessions"))]
    engine.dispose()
    assert stored.startswith("$argon2id$") and "a long secret phrase" not in stored
    assert "$m=1024,t=1,p=1$" in stored  # the test servers' cost (--password-memory 1 --password-passes 1)
    assert secret not in sessions and len(sessions) >= 1


def test_sign_in_sign_out_and_the_same_answer_for_an_unknown_name_and_a_wrong_password(browser: Browser) -> None:
    name = fresh_name()
    assert browser.sign_up(name).status_code == 201
    assert browser.post("/api/account/sign-out").status_code == 200
    assert browser.who() is None
    wrong = browser.sign_in(name, "not the password")
    unknown = browser.sign_in(fresh_name(), "not the password")
    assert wrong.status_code == unknown.status_code == 401
    assert (
        wrong.json()
        == unknown.json()
        == {"error": {"code": "bad_credentials", "message": "the name or the password is wrong"}}
    )
    assert browser.who() is None
    right = browser.sign_in(name.upper())  # names are compared folded
    assert right.status_code == 200, right.text
    assert browser.who() == {"name": name}


def test_sign_up_refusals_create_nothing(browser: Browser) -> None:
    name = fresh_name()
    assert browser.sign_up(name).status_code == 201
    browser.post("/api/account/sign-out")
    for body, code in [
        ({"name": name.upper(), "password": "another password"}, "name_taken"),
        ({"name": fresh_name(), "password": "short"}, "bad_password"),
        ({"name": "x", "password": "long enough"}, "bad_name"),
        ({"name": "bad\u0000name", "password": "long enough"}, "bad_name"),
        ({"name": "Deleted Player", "password": "long enough"}, "bad_name"),
        ({"name": fresh_name()}, "bad_password"),
    ]:
        browser.who()
        r = browser.post("/api/account/sign-up", body)
        assert r.json()["error"]["code"] == code, (body, r.text)
        assert browser.who() is None
    assert browser.sign_in(name, "another password").status_code == 401  # the first account is unchanged


def test_csrf_every_state_changing_call_with_a_session_needs_the_token(site: ServerThread, browser: Browser) -> None:
    # Signing up needs the sign-in form's token too (a forged sign-up would sign the victim in).
    name = fresh_name()
    r = browser.http.post("/api/account/sign-up", json={"name": name, "password": "correct horse"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "csrf"
    browser.who()
    r = browser.post("/api/account/sign-up", {"name": name, "password": "correct horse"}, csrf=False)
    assert r.status_code == 403 and r.json()["error"]["code"] == "csrf"
    assert browser.sign_in(name).status_code == 401  # no account was made
    browser.who()
    form_token = browser.csrf  # the sign-in form's token
    assert browser.post("/api/account/sign-up", {"name": name, "password": "correct horse"}).status_code == 201
    assert browser.csrf != form_token

    # Signed in: a table created without the token (or with another's) is refused, none is made.
    engine = engine_of(site)
    with engine.connect() as conn:
        before = conn.execute(sa.text("SELECT count(*) FROM parlor_tables")).scalar()
    for headers in ({}, {"X-CSRF-Token": "0" * 64}):
        r = browser.http.post("/api/tables", json={"game": "mamma-mia"}, headers=headers)
        assert r.status_code == 403 and r.json()["error"]["code"] == "csrf", r.text
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM parlor_tables")).scalar() == before
    engine.dispose()
    assert browser.post("/api/tables", {"game": "mamma-mia"}).status_code == 201
    # Sign-out is a change too; the session's token is not the sign-in form's.
    assert browser.post("/api/account/sign-out", csrf=False).status_code == 403
    browser.csrf = form_token
    assert browser.post("/api/account/sign-out").status_code == 403
    assert browser.who() == {"name": name}
    # A guest (no cookie) holds no authority a forged request could borrow: no token needed.
    assert httpx.post(site.base + "/api/tables", json={"game": "mamma-mia"}, timeout=60).status_code == 201


def test_the_password_hash_costs_what_the_site_says() -> None:
    """argon2id at 64 MiB and 3 passes in one lane unless the site sets another cost."""
    from parlor.server.accounts import Accounts, account_limits

    site_default = Accounts(None, None).hasher.hash("a long secret phrase")  # type: ignore[arg-type]
    assert "$m=65536,t=3,p=1$" in site_default
    small, _ = account_limits({"--password-memory": 8, "--password-passes": 2})
    assert "$m=8192,t=2,p=1$" in Accounts(None, None, small).hasher.hash("a long secret phrase")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="--password-memory must be"):
        account_limits({"--password-memory": 0})


def without_numbers(answer: Any) -> str:
    return re.sub(r"\d+", "N", json.dumps(answer, sort_keys=True))


def test_sign_in_is_rate_limited_per_name_with_a_clear_error(site: ServerThread, browser: Browser) -> None:
    name = fresh_name()
    assert browser.sign_up(name).status_code == 201
    browser.post("/api/account/sign-out")
    for _ in range(GENEROUS.failures_per_name):
        assert browser.sign_in(name, "guessing....").status_code == 401
    r = browser.sign_in(name)  # even the right password, while the name is locked
    assert r.status_code == 429
    assert r.json()["error"]["code"] == "rate_limited"
    assert "try again in" in r.json()["error"]["message"]
    assert browser.who() is None
    # An unknown name is limited alike: the limit says nothing about which names exist.
    ghost = fresh_name()
    for _ in range(GENEROUS.failures_per_name):
        assert browser.sign_in(ghost, "guessing....").status_code == 401
    # The same answer but for the minutes left, which the clock moves on between the two (the ghost's
    # window began later, so on a loaded machine its count may differ by one).
    assert without_numbers(browser.sign_in(ghost, "guessing....").json()) == without_numbers(r.json())
    # Another name from the same address is not locked by this one's failures.
    other = fresh_name()
    assert Browser(site.base).sign_up(other).status_code == 201
    assert browser.sign_in(other).status_code == 200


def test_sign_in_is_rate_limited_per_address(tmp_path) -> None:
    limits = AccountLimits(failures_per_name=100, failures_per_address=3)
    with ServerThread(f"sqlite:///{tmp_path / 'p.db'}", account_limits=limits) as s:
        b = Browser(s.base)
        name = fresh_name()
        assert b.sign_up(name).status_code == 201
        b.post("/api/account/sign-out")
        for _ in range(3):
            assert b.sign_in(fresh_name(), "guessing....").status_code == 401
        r = b.sign_in(name)
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        b.close()


def test_a_new_password_ends_the_other_sessions(site: ServerThread, browser: Browser) -> None:
    name = fresh_name()
    assert browser.sign_up(name, "first password").status_code == 201
    phone = Browser(site.base)
    assert phone.sign_in(name, "first password").status_code == 200
    r = browser.post("/api/account/password", {"password": "not it at all", "new_password": "second password"})
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad_credentials"
    r = browser.post("/api/account/password", {"password": "first password", "new_password": "short"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_password"
    assert phone.who() == {"name": name}  # nothing changed yet
    r = browser.post("/api/account/password", {"password": "first password", "new_password": "second password"})
    assert r.status_code == 200, r.text
    assert browser.who() == {"name": name}  # this browser stays signed in
    assert phone.who() is None  # the other session ended
    assert phone.sign_in(name, "first password").status_code == 401
    assert phone.sign_in(name, "second password").status_code == 200
    phone.close()


def test_deleting_an_account_needs_its_password_and_signs_it_out_everywhere(site: ServerThread, browser: Browser):
    name = fresh_name()
    assert browser.sign_up(name).status_code == 201
    other = Browser(site.base)
    assert other.sign_in(name).status_code == 200
    r = browser.post("/api/account/delete", {"password": "wrong one!"})
    assert r.status_code == 401 and browser.who() == {"name": name}
    r = browser.post("/api/account/delete", {"password": "correct horse"})
    assert r.status_code == 200 and r.json()["account"] is None
    assert browser.who() is None and other.who() is None
    r = other.sign_in(name)  # the same answer as for a name that never existed
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad_credentials"
    engine = engine_of(site)
    with engine.connect() as conn:
        row = conn.execute(
            sa.text("SELECT name, password_hash, deleted_at FROM parlor_accounts WHERE deleted_at IS NOT NULL")
        ).all()
    engine.dispose()
    assert row and all(r.name is None and r.password_hash is None for r in row)
    assert Browser(site.base).sign_up(name).status_code == 201  # the name is free again
    other.close()


def test_changes_need_a_session_and_bad_bodies_change_nothing(browser: Browser) -> None:
    browser.who()
    for path in ("/api/account/password", "/api/account/delete"):
        r = browser.post(path, {"password": "whatever it is", "new_password": "whatever it is"})
        assert r.status_code == 401 and r.json()["error"]["code"] == "not_signed_in"
    r = browser.http.post(
        "/api/account/sign-in",
        content=b"[1, 2",
        headers={"X-CSRF-Token": browser.csrf, "content-type": "application/json"},
    )
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"
    r = browser.post("/api/account/sign-in", {"name": ["x"], "password": {"a": 1}})
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad_credentials"


def test_passwords_and_session_secrets_never_reach_the_logs(site: ServerThread, browser: Browser) -> None:
    records: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if not record.name.startswith(("httpx", "httpcore")):  # this test's own client, not the server
                records.append(self.format(record))

    handler = Keep(level=logging.DEBUG)
    root, access = logging.getLogger(), logging.getLogger("uvicorn.access")
    levels = root.level, access.level
    root.addHandler(handler)
    access.addHandler(handler)  # (uvicorn's access log does not propagate to the root)
    root.setLevel(logging.DEBUG)
    access.setLevel(logging.DEBUG)
    try:
        name = fresh_name()
        r = browser.sign_up(name, "first secret words")
        secret = browser.http.cookies.get("parlor_session")
        browser.post("/api/account/password", {"password": "first secret words", "new_password": "second words!"})
        browser.post("/api/account/sign-out")
        browser.sign_in(name, "wrong words here")
        browser.sign_in(name, "second words!")
        assert r.status_code == 201 and secret
    finally:
        root.removeHandler(handler)
        access.removeHandler(handler)
        root.setLevel(levels[0])
        access.setLevel(levels[1])
    text = "\n".join(records)
    assert "/api/account/sign-in" in text  # the access log was on
    for leaked in ("first secret words", "second words!", "wrong words here", secret):
        assert leaked not in text


def test_the_sweep_forgets_expired_sessions_and_old_counts(database_url: str) -> None:
    from datetime import timedelta

    from parlor.server.storage import AccountStore, Database

    db = Database(database_url)
    try:
        db.migrate()
        store = AccountStore(db)
        store.create_account("a" * 32, "Sweepy", "sweepy", "$argon2id$not-a-real-hash")
        store.create_session("old", "a" * 32, timedelta(seconds=-1))  # expired already
        store.create_session("new", "a" * 32, timedelta(days=1))
        store.add_events([("signin_name", "k")])
        assert store.session("old", timedelta(days=1)) is None  # an expired session opens nothing
        store.sweep(timedelta(seconds=-1))  # every count is older than "now + 1 s"
        with db.engine.connect() as conn:
            left = [r[0] for r in conn.execute(sa.text("SELECT id FROM parlor_sessions"))]
            counts = conn.execute(sa.text("SELECT count(*) FROM parlor_auth_events")).scalar()
        assert left == ["new"] and counts == 0
        assert store.session("new", timedelta(days=1)) == {"id": "a" * 32, "name": "Sweepy"}
    finally:
        db.close()
