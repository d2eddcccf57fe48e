"""The README's first command: `scripts/serve` ends in `parlor serve`, which must start the web server
on an embedded SQLite database, say where to open it, serve the lobby, and stop cleanly."""

from __future__ import annotations

import os
from pathlib import Path

import httpx

from .conftest import ROOT, ServerProcess, free_port


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
