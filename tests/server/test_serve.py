"""The README's first command: `scripts/serve` ends in `parlor serve`, which must start the web server
on an embedded SQLite database, say where to open it, serve the lobby, and stop cleanly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx

from .conftest import ROOT, ServerProcess, free_port
from .test_accounts import Browser, fresh_name


def test_parlor_serve_starts_and_serves_the_lobby(tmp_path: Path) -> None:
    port = free_port()
    server = ServerProcess(f"sqlite:///{tmp_path / 'x.db'}", port, cli=True)
    server.start()  # waits for /api/health
    try:
        health = httpx.get(f"{server.base}/api/health", timeout=60).json()
        assert health == {"ok": True, "protocol": 2}
        page = httpx.get(f"{server.base}/", timeout=60)
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert 'class="lobby-page"' in page.text and "/static/js/lobby.js" in page.text
        assert httpx.get(f"{server.base}/static/js/lobby.js", timeout=60).status_code == 200
        assert f"open http://127.0.0.1:{port}/" in server.output()  # the address it bound, as the README says
        assert (tmp_path / "x.db").is_file()  # the embedded database was created where asked
    finally:
        server.stop()
    assert server.proc is not None and server.proc.returncode is not None


def test_scripts_serve_runs_parlor_serve() -> None:
    script = ROOT / "scripts" / "serve"
    assert os.access(script, os.X_OK)
    text = script.read_text()
    assert "pip install --quiet -e ." in text
    assert 'exec .venv/bin/parlor serve "$@"' in text


def test_parlor_serve_takes_the_account_limits(tmp_path: Path) -> None:
    """The account limits are flags of `parlor serve`: a sign-in's lifetime, the sign-in failures a
    name may have, the unfinished tables of one account."""
    server = ServerProcess(
        f"sqlite:///{tmp_path / 'x.db'}",
        free_port(),
        "--session-days", "2", "--sign-in-failures-per-name", "2", "--max-unfinished-tables-per-account", "1",
        cli=True,
    )  # fmt: skip
    server.start()
    try:
        player, name = Browser(server.base), fresh_name()
        signed = player.sign_up(name)
        assert signed.status_code == 201, signed.text
        [cookie] = [h for h in signed.headers.get_list("set-cookie") if h.startswith("parlor_session=")]
        assert f"max-age={2 * 86400}" in cookie.lower()
        guesser = Browser(server.base)
        assert [guesser.sign_in(name, "not the password").status_code for _ in range(3)] == [401, 401, 429]
        body = {"game": "mamma-mia", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}]}
        assert player.post("/api/tables", body).status_code == 201
        refused = player.post("/api/tables", body)
        assert refused.status_code == 429 and "account" in refused.json()["error"]["message"], refused.text
        player.close()
        guesser.close()
    finally:
        server.stop()


def test_parlor_serve_refuses_an_account_limit_out_of_range(tmp_path: Path) -> None:
    parlor = Path(sys.executable).with_name("parlor")
    done = subprocess.run(
        [str(parlor), "serve", "--port", str(free_port()), "--database-url", f"sqlite:///{tmp_path / 'x.db'}",
         "--sign-in-window", "0"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == "Error: --sign-in-window must be from 1 to 1440 minutes, got 0"
    assert not (tmp_path / "x.db").exists()  # refused before the database is opened


def test_the_account_flags_defaults_are_the_limits_defaults() -> None:
    from parlor.server.accounts import ACCOUNT_FLAGS, AccountLimits, account_limits
    from parlor.server.limits import Limits

    given, creation = account_limits({spec.flag: spec.default for spec in ACCOUNT_FLAGS})
    assert given == AccountLimits()
    assert creation == {k: getattr(Limits(), k) for k in creation} and len(creation) == 2


def test_the_session_cookie_is_secure_when_a_named_proxy_says_https(tmp_path: Path) -> None:
    """Behind a TLS-terminating proxy named by --forwarded-allow-ips, a request it forwards with
    ``X-Forwarded-Proto: https`` gets Secure cookies (the session's and the sign-in form's); a plain
    HTTP request does not, and neither does a client that is no named proxy, whatever it claims."""

    def cookies(base: str, https: bool) -> dict[str, str]:
        headers = {"X-Forwarded-Proto": "https"} if https else {}
        with httpx.Client(base_url=base, timeout=60, headers=headers) as http:
            form = http.get("/api/account")
            secret = form.cookies.get("parlor_csrf") or form.headers["set-cookie"].split(";")[0].split("=", 1)[1]
            signed = http.post(  # (sent by hand: a client keeps a Secure cookie off plain HTTP)
                "/api/account/sign-up",
                json={"name": fresh_name(), "password": "correct horse"},
                headers={"X-CSRF-Token": form.json()["csrf"], "Cookie": f"parlor_csrf={secret}"},
            )
            assert signed.status_code == 201, signed.text
            found = {}
            for r in (form, signed):
                for h in r.headers.get_list("set-cookie"):
                    name = h.split("=", 1)[0]
                    if name in ("parlor_csrf", "parlor_session") and "max-age=0" not in h.lower():
                        found[name] = h.lower()
            return found

    proxy = ("--forwarded-allow-ips", "127.0.0.1")
    proxied = ServerProcess(f"sqlite:///{tmp_path / 'p.db'}", free_port(), *proxy, cli=True)
    proxied.start()
    try:
        over_tls = cookies(proxied.base, https=True)
        assert set(over_tls) == {"parlor_csrf", "parlor_session"}
        assert all("; secure" in h for h in over_tls.values()), over_tls
        plain = cookies(proxied.base, https=False)
        assert set(plain) == {"parlor_csrf", "parlor_session"} and not any("secure" in h for h in plain.values())
    finally:
        proxied.stop()
    direct = ServerProcess(f"sqlite:///{tmp_path / 'd.db'}", free_port(), cli=True)
    direct.start()
    try:
        claimed = cookies(direct.base, https=True)  # no proxy named: the header is the client's own word
        assert set(claimed) == {"parlor_csrf", "parlor_session"} and not any("secure" in h for h in claimed.values())
    finally:
        direct.stop()
