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
        assert f"open http://localhost:{port}/" in server.output()
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
