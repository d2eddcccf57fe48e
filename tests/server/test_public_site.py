"""A public site (docs/deploy.md, "One machine"): the public address the server is given
(``--public-url``, ``$PARLOR_PUBLIC_URL``) makes its links, the address it prints, its Secure cookies
and the WebSocket origin it trusts; a bad one is one line; ``--host 0.0.0.0`` names the machine's own
addresses; ``/healthz`` and ``/readyz`` (SQLite and PostgreSQL); ``parlor serve`` takes every flag of
``python -m parlor.server``."""

from __future__ import annotations

import contextlib
import ipaddress
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from .conftest import BACKENDS, ServerProcess, ServerThread, free_port, make_url
from .test_accounts import fresh_name

PUBLIC = "https://games.example.org"
TWO_HUMANS = {"game": "mamma-mia", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}


def created_table(base: str) -> dict[str, Any]:
    r = httpx.post(f"{base}/api/tables", json=TWO_HUMANS, timeout=60)
    assert r.status_code == 201, r.text
    return r.json()


def first_frame(base: str, table_id: str, cookie: str, origin: str) -> tuple[dict[str, Any], int]:
    """The first frame a WebSocket without a token gets (the session cookie alone names the seat),
    and how it was closed (0: still open)."""
    url = base.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    with connect(url, additional_headers={"Cookie": cookie}, origin=origin, open_timeout=30) as ws:  # type: ignore[arg-type]
        frame = json.loads(ws.recv(timeout=30))
        if frame["type"] == "error":
            with contextlib.suppress(ConnectionClosed):  # the close follows the error
                ws.recv(timeout=30)
            return frame, ws.close_code or 0
        return frame, 0


def test_the_public_url_makes_the_links_the_address_the_cookies_and_the_trusted_origin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``python -m parlor.server`` with ``$PARLOR_PUBLIC_URL`` (``parlor serve --public-url`` is walked
    in tests/web/test_tls_site.py)."""
    monkeypatch.setenv("PARLOR_PUBLIC_URL", "HTTPS://Games.Example.org/")
    server = ServerProcess(f"sqlite:///{tmp_path / 'x.db'}", free_port(), "--log-level", "info")
    server.start()
    try:
        # The address printed at start is the public one (lower-case, the trailing slash not doubled).
        assert f"open {PUBLIC}/  (listening on 127.0.0.1:{server.port})" in server.output()
        # Every link handed out is on the public address, whatever address the request came to.
        created = created_table(server.base)
        for seat in created["seats"]:
            assert seat["join_url"] == PUBLIC + seat["join_path"] and seat["join_path"].startswith("/play/")
        assert created["spectator_url"] == PUBLIC + created["spectator_path"]
        # An https public URL: the cookies are Secure, with the __Host- prefix (as --secure-cookies).
        form = httpx.get(f"{server.base}/api/account", timeout=60)
        [set_form] = form.headers.get_list("set-cookie")
        assert set_form.startswith("__Host-parlor_csrf=") and "; secure" in set_form.lower(), set_form
        form_cookie = set_form.split(";", 1)[0]
        signed = httpx.post(  # (cookies sent by hand: a client keeps a Secure cookie off plain HTTP)
            f"{server.base}/api/account/sign-up",
            json={"name": fresh_name(), "password": "correct horse"},
            headers={"X-CSRF-Token": form.json()["csrf"], "Cookie": form_cookie},
            timeout=60,
        )
        assert signed.status_code == 201, signed.text
        [session] = [h for h in signed.headers.get_list("set-cookie") if h.startswith("__Host-parlor_session=")]
        assert "; secure" in session.lower(), session
        session_cookie = session.split(";", 1)[0]
        claimed = httpx.post(
            f"{server.base}/api/tables/{created['table']['id']}/claim",
            json={"claim": created["seats"][0]["claim"]},
            headers={"X-CSRF-Token": signed.json()["csrf"], "Cookie": session_cookie},
            timeout=60,
        )
        assert claimed.status_code == 200, claimed.text
        # A page of the public address opens the account's seat over a WebSocket, though the Host it
        # came to is the server's own (a proxy that rewrites Host); a page of another origin does not.
        table_id = created["table"]["id"]
        frame, closed = first_frame(server.base, table_id, session_cookie, origin=PUBLIC)
        assert frame["type"] == "welcome" and frame["seat"] == 0 and closed == 0, frame
        frame, closed = first_frame(server.base, table_id, session_cookie, origin="https://evil.example")
        assert frame["type"] == "error" and frame["code"] == "bad_token" and closed == 4403, frame
    finally:
        server.stop()


BAD_URLS = [
    ("games.example.org", "must be an absolute http:// or https:// address"),
    ("ftp://games.example.org", "must be an absolute http:// or https:// address"),
    ("https://", "must be an absolute http:// or https:// address"),
    ("https://games.example.org:99999", "must be an absolute http:// or https:// address"),
    ("https://games example.org", "must be an absolute http:// or https:// address"),
    ("https://games.example.org/parlor", "scheme, host and port only"),
    ("https://games.example.org/?x=1", "scheme, host and port only"),
]


@pytest.mark.parametrize("bad,said", BAD_URLS)
def test_a_public_url_that_is_no_site_address_is_refused_with_what_it_must_be(bad: str, said: str) -> None:
    from parlor.server.__main__ import StartupError, check_public_url

    with pytest.raises(StartupError) as refused:
        check_public_url(bad)
    assert (
        str(refused.value).startswith("--public-url ")
        and said in str(refused.value)
        and repr(bad) in str(refused.value)
    )


def test_a_bad_public_url_is_one_line_and_starts_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from parlor.server.__main__ import main

    database = tmp_path / "x.db"
    bad, said = BAD_URLS[-2]
    port = str(free_port())
    assert main(["--port", port, "--database-url", f"sqlite:///{database}", "--public-url", bad]) == 1
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: --public-url ") and said in lines[0], lines
    # parlor serve: the same, from its own process (and from the environment as well as the flag)
    bad, said = BAD_URLS[0]
    done = subprocess.run(
        [str(Path(sys.executable).with_name("parlor")), "serve", "--port", port, "--database-url", f"sqlite:///{database}"],
        capture_output=True, text=True, timeout=120, env={**os.environ, "PARLOR_PUBLIC_URL": bad},
    )  # fmt: skip
    assert done.returncode == 1, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: --public-url ") and said in lines[0], lines
    assert not database.exists()  # refused before the database is opened


def test_serving_every_address_names_the_machines_own_addresses(tmp_path: Path) -> None:
    from parlor.server.__main__ import network_addresses

    addresses = network_addresses()
    assert addresses, "this machine has no address other machines reach it at"
    assert all(not ipaddress.ip_address(a).is_loopback for a in addresses)
    server = ServerProcess(f"sqlite:///{tmp_path / 'x.db'}", free_port(), cli=True, host="0.0.0.0")
    server.start()
    try:
        line = next(x for x in server.output().splitlines() if x.startswith("Parlor server: open "))
        port = server.port
        assert line.startswith(f"Parlor server: open http://{addresses[0]}:{port}/"), line
        # localhost only as the address on this machine, after the ones to hand to others
        assert line.index(f"http://127.0.0.1:{port}/") > line.index(f"http://{addresses[-1]}:{port}/"), line
        assert "this machine's address" not in line
        assert httpx.get(f"http://{addresses[0]}:{port}/healthz", timeout=60).json() == {"ok": True}  # reached there
    finally:
        server.stop()


def test_parlor_serve_takes_every_flag_of_python_m_parlor_server_with_the_same_defaults(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import typer

    from parlor.cli.main import app
    from parlor.server.__main__ import build_parser

    monkeypatch.delenv("PARLOR_PUBLIC_URL", raising=False)
    hidden = {"--cluster", "--fd"}  # a site's own processes: never typed
    module = {
        a.option_strings[-1]: a.default
        for a in build_parser()._actions
        if a.option_strings and a.option_strings[-1] not in hidden and a.option_strings[-1] != "--help"
    }
    serve = typer.main.get_command(app).commands["serve"]  # type: ignore[attr-defined]
    cli = {p.opts[0]: p.default for p in serve.params if p.opts and p.opts[0].startswith("--") and p.name != "help"}
    assert sorted(set(module) - set(cli)) == [], "python -m parlor.server has flags parlor serve lacks"
    assert sorted(set(cli) - set(module)) == [], "parlor serve has flags python -m parlor.server lacks"
    differ = {f: (module[f], cli[f]) for f in module if str(module[f]) != str(cli[f]) and module[f] != cli[f]}
    assert differ == {}, f"defaults differ (python -m, parlor serve): {differ}"


# ---------------------------------------------------------------------------- health
@pytest.fixture(scope="module", params=BACKENDS)
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    url = make_url(request.param, request, tmp_path_factory.mktemp("db"))
    with ServerThread(url, seat_timeout=None) as s:
        yield s


def engine_of(site: ServerThread) -> sa.Engine:
    return sa.create_engine(site.database_url.replace("postgresql://", "postgresql+psycopg://"))


def ready(site: ServerThread) -> httpx.Response:
    return httpx.get(f"{site.base}/readyz", timeout=60)


def until_ready(site: ServerThread, status: int) -> httpx.Response:
    deadline = time.monotonic() + 60
    while (r := ready(site)).status_code != status:
        assert time.monotonic() < deadline, r.text
        time.sleep(0.1)
    return r


def test_without_a_public_url_the_answers_hand_out_paths_for_the_page_to_complete(site: ServerThread) -> None:
    created = created_table(site.base)
    assert created["seats"][0]["join_path"].startswith("/play/") and created["spectator_path"].startswith("/play/")
    assert "join_url" not in created["seats"][0] and "spectator_url" not in created


def test_healthz_and_readyz_say_alive_and_ready_and_readyz_names_a_schema_behind(site: ServerThread) -> None:
    versions = Path(__file__).resolve().parents[2] / "src/parlor/server/storage/migrations/versions"
    newest = max(re.findall(r'^revision = "([^"]+)"', p.read_text(), re.M)[0] for p in versions.glob("0*.py"))
    assert httpx.get(f"{site.base}/healthz", timeout=60).json() == {"ok": True}
    r = ready(site)
    assert r.status_code == 200 and r.json() == {"ok": True, "schema": newest}, r.text
    engine = engine_of(site)
    try:
        with engine.begin() as c:
            c.execute(sa.text("UPDATE alembic_version SET version_num = '0012_seat_squatting'"))
        r = ready(site)
        assert r.status_code == 503 and r.json()["ok"] is False, r.text
        assert "0012_seat_squatting" in r.json()["reason"] and newest in r.json()["reason"]
        assert httpx.get(f"{site.base}/healthz", timeout=60).status_code == 200  # alive all the same
    finally:
        with engine.begin() as c:
            c.execute(sa.text("UPDATE alembic_version SET version_num = :v"), {"v": newest})
        engine.dispose()
    assert ready(site).status_code == 200


def test_readyz_says_a_database_that_refuses_connections_cannot_be_reached(site: ServerThread) -> None:
    if not site.database_url.startswith("postgresql"):
        pytest.skip("an embedded SQLite file has no server to refuse connections (the schema check covers it)")
    name = sa.engine.make_url(site.database_url).database
    admin = sa.create_engine(
        site.database_url.replace("postgresql://", "postgresql+psycopg://").rsplit("/", 1)[0] + "/postgres",
        isolation_level="AUTOCOMMIT",
    )
    try:
        with admin.connect() as c:
            c.execute(sa.text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false'))
            c.execute(sa.text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :n"), {"n": name})
        r = until_ready(site, 503)
        assert r.json()["ok"] is False and "cannot be reached" in r.json()["reason"], r.text
        assert httpx.get(f"{site.base}/healthz", timeout=60).status_code == 200
    finally:
        with admin.connect() as c:
            c.execute(sa.text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true'))
        admin.dispose()
    assert until_ready(site, 200).json()["ok"] is True
