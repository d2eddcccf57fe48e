"""Fixtures for the browser tests: the real server (uvicorn in a subprocess, SQLite in a temporary
directory, bots moving at once) and Debian's Chromium driven by Python Playwright.

A missing Chromium or Playwright FAILS the tests (it does not skip them): ``scripts/install-system-deps``
installs Debian's ``chromium``; ``pip install -e ".[test]"`` installs Playwright. Never run
``playwright install`` (its browser download does not work here, and the tests do not use it).
"""

from __future__ import annotations

import functools
import json
import os
import random
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from ..frames import apply_state

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Chromium features the tests turn off. A headless Chromium draws the whole browser window around each
# context's page, and the address bar's suggestion popup in it is a web page of its own
# (chrome://omnibox-popup...) in a renderer process of its own: one more renderer for every context,
# loading its scripts and styles. No page of Parlor's is drawn there; turned off, a context starts
# one renderer instead of two (measured: docs/benchmarks.md, "Test suite time").
FEATURES_OFF = ("WebUIOmniboxPopup", "WebUIOmniboxFullPopup", "WebUIOmniboxAimPopup")


# How long a browser test waits for a page, an element or a condition before it fails: every wait
# is for an event, and this outer limit only has to be long enough for a loaded 2-core machine
# (Playwright's own 30 s default was not).
PATIENCE_MS = 120_000
# How often ``wait_for_function`` checks its condition, unless a call names its own ``polling``.
# Playwright's default checks at every animation frame, which keeps the page drawing frames for as
# long as the wait lasts: in headless Chromium about a tenth of a core per waiting page, taken from
# the server and bots the test waits for. A check every 25 ms costs next to nothing and finds any
# state that lasts two frames.
POLL_MS = 25


# The table's card movements off in every page of a test's browser (js/table.js reads the reader's
# choice from localStorage), not only in the pages a test opens with ``?anim=0`` (Server.url): a table
# reached by a click (a lobby's link, "Play now", an invitation) draws every move at once too. A page
# opened with ``?anim=1`` (Server.url(anim=True)) has them.
ANIMATIONS_OFF = """try {
  if (new URLSearchParams(location.search).get("anim") === "1") localStorage.removeItem("parlor.anim");
  else localStorage.setItem("parlor.anim", "0");
} catch {
  /* a page without storage (about:blank) */
}"""


def launch_chromium(pw: Any, **options: Any) -> Any:
    """Chromium with ``CHROMIUM_ARGS``, and ``FEATURES_OFF`` turned off besides the features Playwright
    itself turns off.

    Chromium reads only the last ``--disable-features`` switch of its command line (a later one
    replaces an earlier one whole), and Playwright puts its own list first. So a first browser is
    started only to read Playwright's list off its process's command line; the browser returned
    names both lists in one switch, last."""
    running = browser_command_lines()  # (another browser of this process's, e.g. the session's)
    probe = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, **options)
    try:
        started = [line for line in browser_command_lines() if line not in running]
    finally:
        probe.close()
    assert len(started) == 1, f"expected to find the Chromium just started, found {len(started)}"
    theirs = [name for arg in started[0] if arg.startswith("--disable-features=") for name in arg[19:].split(",")]
    features = "--disable-features=" + ",".join(dict.fromkeys([*theirs, *FEATURES_OFF]))
    return pw.chromium.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, features], **options)


def browser_command_lines() -> list[list[str]]:
    """The command lines of the Chromium browser processes (not renderers or helpers) that this
    process started through Playwright's driver (each has a profile folder of its own)."""
    lines = [
        line
        for line in command_lines_started_here()
        # (Chromium's helper processes rewrite their command lines, some into one string with spaces)
        if "chromium" in line[0] and not any("--type=" in arg for arg in line)
    ]
    # A helper the browser is just forking shows the browser's own command line until it starts as
    # what it is (with its "--type="): on a busy machine that moment is long enough to be seen. The
    # same line twice is one browser (two browsers never share a line: each has its own profile).
    return [list(line) for line in dict.fromkeys(tuple(line) for line in lines)]


def command_lines_started_here() -> list[list[str]]:
    """The command lines of the running processes this process started, and theirs, and so on."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:  # "pid (name) state ppid ...": the name may hold spaces, so split after its ")"
                parents[int(entry.name)] = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
            except (OSError, IndexError, ValueError):
                continue  # a process that ended meanwhile
    mine = {os.getpid()}
    while grown := {pid for pid, parent in parents.items() if parent in mine} - mine:
        mine |= grown
    lines = []
    for pid in sorted(mine - {os.getpid()}):
        try:
            line = (Path("/proc") / str(pid) / "cmdline").read_bytes().decode().split("\0")
        except OSError:
            continue
        if line[0]:  # (an ended process not yet reaped has no command line)
            lines.append(line)
    return lines


class PatientBrowser:
    """The browser, whose every new context waits up to ``PATIENCE_MS``, draws no animation (see
    ``ANIMATIONS_OFF``) and runs no service worker unless asked to (a thin wrapper: the rest is
    Playwright's ``Browser``).

    The service worker (js/pwa.js, sw.js) is what test_pwa.py tests, with ``service_workers="allow"``.
    Anywhere else it only cost time: every fresh context installed it again (a worker started, nine
    files fetched for its offline cache, the four catalogs among them) and sent the context's every
    page load through it. The pages work without it (browsers without service workers get them so)."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def new_context(self, **options: Any) -> Any:
        options.setdefault("service_workers", "block")
        context = self._browser.new_context(**options)
        context.set_default_timeout(PATIENCE_MS)
        context.set_default_navigation_timeout(PATIENCE_MS)
        context.add_init_script(ANIMATIONS_OFF)
        return context

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, base: str, proc: subprocess.Popen[bytes], log: Path) -> None:
        self.base = base
        self.proc = proc
        self.log = log

    def create(
        self, game: str, players: int, seats: list[dict[str, Any]], options: dict[str, Any] | None = None
    ) -> dict:
        body = {"game": game, "players": players, "seats": seats, "options": options or {}}
        r = httpx.post(f"{self.base}/api/tables", json=body, timeout=60)
        assert r.status_code == 201, r.text
        return r.json()

    def url(self, path: str, anim: bool = False, guard: int | None = 30, hold: int | None = 5000) -> str:
        """A join path (``/play/<id>#token=...``) as a full URL; animations off unless asked (``anim=1``),
        and the click guard (table.js) shortened to ``guard`` ms so tests may click as soon as a state
        shows (None: the guard players get). A phone's long press (js/phone.js) takes ``hold`` ms: a tap
        the loaded machine stretches is still a tap."""
        page, _, fragment = path.partition("#")
        query = ["anim=1" if anim else "anim=0"]
        if guard is not None:
            query.append(f"guard={guard}")
        if hold is not None:
            query.append(f"hold={hold}")
        return f"{self.base}{page}{'?' + '&'.join(query) if query else ''}#{fragment}"


def start_server(tmp: Path, *extra: str) -> Server:
    """``python -m parlor.server`` on a free port with SQLite in ``tmp`` and bots moving at once;
    waits for /api/health. ``extra``: more command-line options."""
    port = free_port()
    log = tmp / "server.log"
    cmd = [
        sys.executable, "-m", "parlor.server", "--host", "127.0.0.1", "--port", str(port),
        "--database-url", f"sqlite:///{tmp / 'parlor.db'}", "--bot-delay", "0", "--log-level", "warning",
        "--min-turn-time", "0.1",  # clocks of a fraction of a second run out within a test
        "--password-memory", "1", "--password-passes", "1",  # sign-ups at once (tests/server/conftest.py)
        *extra,
    ]  # fmt: skip
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT, env={**os.environ})
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        try:
            if httpx.get(f"{base}/api/health", timeout=5).status_code == 200:
                return Server(base, proc, log)
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"the server did not start:\n{log.read_text(errors='replace')}", pytrace=False)
        time.sleep(0.1)


def stop_server(server: Server) -> None:
    server.proc.terminate()
    try:
        server.proc.wait(30)
    except subprocess.TimeoutExpired:
        server.proc.kill()


def play_seat_over_the_api(server: Server, table_id: str, token: str, seed: int, limit: float = 600.0) -> dict:
    """Plays one seat over the WebSocket API (docs/protocol.md), as another client of the seat than
    the browser: a random legal move whenever the seat is to move, until the game is over (``limit``
    seconds at most). Returns the last state. The moves are the player's own, as a click's are."""
    rng = random.Random(seed)
    url = server.base.replace("http://", "ws://") + f"/ws/tables/{table_id}?token={token}"
    deadline = time.monotonic() + limit
    state: dict[str, Any] | None = None
    with connect(url, max_size=1 << 22, open_timeout=60) as ws:
        sent_at: int | None = None  # the version a move was sent at: nothing more until it is answered
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"the game of table {table_id} did not end within {limit}s"
            frame = json.loads(ws.recv(timeout=left))
            if frame["type"] == "state":
                state = apply_state(state, frame)
                if state["over"]:
                    return state
            elif frame["type"] == "error":
                assert frame["code"] in ("stale", "not_your_turn", "rate_limited"), frame
                if frame["code"] == "rate_limited":  # the connection's frame budget (burst, then 20 a second)
                    time.sleep(0.1)
                sent_at = None  # refused: the next move is chosen from the state as it is now
            elif frame["type"] == "ack":
                continue
            if state and state["your_turn"] and state["legal"] and sent_at != state["version"]:
                move = rng.choice(state["legal"])
                ws.send(json.dumps({"type": "action", "id": move["id"], "version": state["version"], "ref": "api"}))
                sent_at = state["version"]


def finish_over_the_api(server: Server, table_id: str, tokens: list[str], seed: int = 0) -> list[dict]:
    """The rest of a game played over the WebSocket API by the seats of ``tokens`` (a thread each), until
    it is over; their last states. For a test that checked in the browser what it needs of a game's
    decisions: the browser is not kept busy drawing the rest of it (the cost of a browser test is
    Chromium drawing every position), and the end is then looked at in the browser again."""
    states: dict[int, dict] = {}
    failures: list[BaseException] = []

    def play(i: int, token: str) -> None:
        try:
            states[i] = play_seat_over_the_api(server, table_id, token, seed + i)
        except BaseException as exc:  # reported by the test's own thread below
            failures.append(exc)

    threads = [threading.Thread(target=play, args=(i, t), daemon=True) for i, t in enumerate(tokens)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failures:
        raise failures[0]
    return [states[i] for i in range(len(tokens))]


def write_record(db_path: Path, table_id: str, seed: int, record: list[dict[str, Any]]) -> None:
    """Gives a table of a stopped server's SQLite database ``seed`` and ``record`` (``{"seat", "action",
    "by"}`` in order) as its game: the next server start replays it, as it restores any table (a
    record that ends the game makes the table a finished one, with its result)."""
    db = sqlite3.connect(db_path)
    try:
        with db:
            (stamp,) = db.execute("SELECT created_at FROM parlor_tables WHERE id = ?", (table_id,)).fetchone()
            db.execute("DELETE FROM parlor_events WHERE table_id = ?", (table_id,))
            db.execute("DELETE FROM parlor_actions WHERE table_id = ?", (table_id,))
            db.executemany(
                'INSERT INTO parlor_actions (table_id, idx, seat, action, "by", created_at) VALUES (?, ?, ?, ?, ?, ?)',
                [(table_id, i, e["seat"], json.dumps(e["action"]), e["by"], stamp) for i, e in enumerate(record)],
            )
            db.execute("UPDATE parlor_tables SET seed = ?, version = ? WHERE id = ?", (seed, len(record), table_id))
    finally:
        db.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # the lobby test creates every combination the lobby offers: no per-address creation limits; and
    # every test's accounts are signed up from 127.0.0.1: the site's ten sign-ups an hour from one
    # address would refuse the eleventh, whichever test comes eleventh in the worker's order
    unlimited = (
        "--tables-per-minute", "100000", "--max-unfinished-tables", "100000", "--sign-ups-per-address", "100000",
    )  # fmt: skip
    running = start_server(tmp_path_factory.mktemp("web"), *unlimited)
    try:
        yield running
    finally:
        stop_server(running)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.fail(
            f"Chromium is not installed ({CHROMIUM} is missing): the browser tests need Debian's 'chromium' package. "
            "Install it with scripts/install-system-deps.",
            pytrace=False,
        )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail(
            "Playwright is not installed: pip install -e '.[test]' (do not run 'playwright install').", pytrace=False
        )
    from playwright.sync_api import Frame, Page

    def polled(wait_for_function: Any) -> Any:
        @functools.wraps(wait_for_function)
        def with_polling(self: Any, expression: str, *, polling: Any = None, **options: Any) -> Any:
            return wait_for_function(self, expression, polling=POLL_MS if polling is None else polling, **options)

        return with_polling

    with pytest.MonkeyPatch.context() as patch, sync_playwright() as pw:
        for kind in (Page, Frame):
            patch.setattr(kind, "wait_for_function", polled(kind.wait_for_function))
        b = launch_chromium(pw, timeout=PATIENCE_MS)
        try:
            yield PatientBrowser(b)
        finally:
            b.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
