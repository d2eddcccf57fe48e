"""A public site as docs/deploy.md sets one up on one machine, walked in the browser: Caddy (Debian's
``caddy``, its own internal CA: ``tls internal``) in front of ``parlor serve --workers 2 --public-url
https://…`` on PostgreSQL. A player signs up, makes a table in the lobby, is handed the join link on
the public https address, opens it and plays over the TLS WebSocket to the end of the game (the site
ends a game after a few decisions: ``--max-decisions``); the cookies are Secure.

And the lobby of a server opened at 127.0.0.1 with no public URL warns its host that the links it
hands out open only on this machine."""

from __future__ import annotations

import os
import random
import shutil
import ssl
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from ..server.conftest import Postgres, postgres  # noqa: F401  (the throw-away PostgreSQL fixture)
from .conftest import ROOT, Server, free_port
from .test_accounts_web import sign_up
from .test_browser import DESKTOP, Seat, play_moves, play_to_the_end

CADDY = shutil.which("caddy") or "/usr/bin/caddy"
GAME_DECISIONS = 8  # the site's --max-decisions: the player's few moves and the bot's play a whole game


class Site:
    """Caddy on a free localhost port (https) in front of ``parlor serve`` on another (http)."""

    def __init__(self, root: Path, database_url: str) -> None:
        self.root = root
        self.https_port, self.app_port = free_port(), free_port()
        self.public = f"https://localhost:{self.https_port}"
        self.processes: list[tuple[subprocess.Popen[bytes], Path]] = []
        caddyfile = root / "Caddyfile"
        # admin off: no admin endpoint; skip_install_trust: the CA's root is never added to this
        # machine's trust stores (the browser is told to accept the certificate instead);
        # disable_redirects and a free http_port: nothing listens on port 80.
        caddyfile.write_text(
            "{\n"
            "\tadmin off\n"
            "\tskip_install_trust\n"
            "\tauto_https disable_redirects\n"
            f"\thttp_port {free_port()}\n"
            "}\n"
            f"localhost:{self.https_port} {{\n"
            "\tbind 127.0.0.1\n"
            "\ttls internal\n"
            f"\treverse_proxy 127.0.0.1:{self.app_port}\n"
            "}\n"
        )
        parlor = str(Path(sys.executable).with_name("parlor"))
        self.start(
            "parlor",
            [
                parlor, "serve", "--host", "127.0.0.1", "--port", str(self.app_port), "--workers", "2",
                "--database-url", database_url, "--public-url", self.public, "--forwarded-allow-ips", "127.0.0.1",
                "--bot-delay", "0", "--bot-processes", "1", "--log-level", "warning",
                "--max-decisions", str(GAME_DECISIONS),  # a game of a few moves: then it ends (as abandoned)
            ],
            {},
        )  # fmt: skip
        # Caddy keeps its CA and certificates under XDG_DATA_HOME: a folder of this test's own.
        self.start(
            "caddy",
            [CADDY, "run", "--config", str(caddyfile), "--adapter", "caddyfile"],
            {"XDG_DATA_HOME": str(root / "data"), "XDG_CONFIG_HOME": str(root / "config"), "HOME": str(root)},
        )
        self.wait_for(f"http://127.0.0.1:{self.app_port}/readyz", verify=False)
        self.wait_for(f"{self.public}/readyz", verify=False)
        root_cert = root / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        # The chain Caddy serves is its internal CA's (checked against that CA's root, not waived).
        printed = (root / "parlor.log").read_text(errors="replace")
        assert f"open {self.public}/  (listening on 127.0.0.1:{self.app_port})" in printed, printed
        trusting = ssl.create_default_context(cafile=str(root_cert))
        assert httpx.get(f"{self.public}/healthz", verify=trusting, timeout=30).json() == {"ok": True}

    def start(self, name: str, cmd: list[str], env: dict[str, str]) -> None:
        log = self.root / f"{name}.log"
        with open(log, "wb") as out:
            proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT, env={**os.environ, **env})
        self.processes.append((proc, log))

    def logs(self) -> str:
        return "\n".join(f"--- {log.name}\n{log.read_text(errors='replace')[-3000:]}" for _, log in self.processes)

    def wait_for(self, url: str, verify: bool) -> None:
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(url, verify=verify, timeout=5).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or any(p.poll() is not None for p, _ in self.processes):
                self.stop()
                pytest.fail(f"the site did not come up at {url}:\n{self.logs()}", pytrace=False)
            time.sleep(0.1)

    def stop(self) -> None:
        for proc, _ in reversed(self.processes):
            if proc.poll() is None:
                proc.terminate()
        for proc, _ in self.processes:
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()


@pytest.fixture
def site(postgres: Postgres) -> Iterator[Site]:  # noqa: F811 (the fixture imported above)
    if not os.path.exists(CADDY):
        pytest.fail("Caddy is not installed: scripts/install-system-deps installs Debian's 'caddy'.", pytrace=False)
    root = Path(tempfile.mkdtemp(prefix="parlor-tls-"))
    running = Site(root, postgres.new_database().replace("postgresql+psycopg://", "postgresql://"))
    try:
        yield running
    finally:
        running.stop()
        shutil.rmtree(root, ignore_errors=True)


def test_a_player_signs_in_and_plays_through_caddy_over_https(site: Site, browser: Any) -> None:
    context = browser.new_context(viewport=DESKTOP, ignore_https_errors=True)
    context.add_init_script("localStorage.setItem('parlor.lang', 'en')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    name = "t" + uuid.uuid4().hex[:8]
    try:
        sign_up(page, Server(site.public, None, Path()), name)  # type: ignore[arg-type]
        cookies = {c["name"]: c for c in context.cookies(site.public)}
        assert cookies["__Host-parlor_session"]["secure"] is True, cookies
        assert cookies["__Host-parlor_session"]["httpOnly"] is True
        # The lobby hands out the join link on the public https address.
        page.goto(site.public + "/")
        page.wait_for_selector("button.game-pick[data-game=mamma-mia]")
        page.click("button.game-pick[data-game=mamma-mia]")
        page.select_option("#players", "2")
        page.select_option("select[name=seat-1-kind]", "bot")
        page.click("#create")
        page.wait_for_selector(".created")
        shown = page.locator(".seat-link .link-url").inner_text()
        assert shown.startswith(f"{site.public}/play/") and "#claim=" in shown, shown
        assert page.locator(".spectator-link .link-url").inner_text().startswith(f"{site.public}/play/")
        # (this public URL is on localhost: the lobby says the links open only on this machine)
        assert f"localhost:{site.https_port}" in page.locator("#local-links").inner_text()
        # The link opens the seat, which becomes the account's, and the game is played over wss://.
        href = page.locator(".seat-link a.join-link").get_attribute("href")
        page.goto(site.public + href.replace("#", "?anim=0&guard=30#"))
        seat = Seat.__new__(Seat)
        seat.context, seat.page, seat.frames, seat.errors = context, page, [], errors
        page.wait_for_selector("body[data-version]")
        assert page.evaluate("document.body.dataset.role") == "seat"
        assert play_moves(seat, random.Random(5), 2) == 2
        play_to_the_end([seat], random.Random(5), limit=300.0)
        page.wait_for_selector("#result")
        assert page.evaluate("document.body.dataset.over") == "1"
        assert sockets and all(u.startswith(f"wss://localhost:{site.https_port}/ws/tables/") for u in sockets), sockets
        table_id = href.split("/")[2].split("#")[0]
        seats = page.request.get(f"{site.public}/api/tables/{table_id}").json()["seats"]
        assert (seats[0]["name"], seats[0]["account"]) == (name, True)  # the seat is the signed-in account's
        assert not errors, errors
    finally:
        context.close()


def test_the_lobby_opened_at_localhost_says_its_links_open_only_on_this_machine(server: Server, browser: Any) -> None:
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script("localStorage.setItem('parlor.lang', 'en')")
    page = context.new_page()
    try:
        page.goto(server.base + "/")  # (the shared server: 127.0.0.1, no public URL)
        page.wait_for_selector("button.game-pick[data-game=sweet-nose]")
        page.click("button.game-pick[data-game=sweet-nose]")
        page.select_option("#players", "3")
        page.select_option("select[name=seat-1-kind]", "human")
        page.click("#create")
        page.wait_for_selector(".created")
        host = server.base.removeprefix("http://").split(":")[0]
        assert page.locator(".seat-link .link-url").first.inner_text().startswith(server.base + "/play/")
        warning = page.locator("#local-links").inner_text()
        assert host in warning and "only" in warning and "--public-url" in warning, warning
    finally:
        context.close()
