"""Fixtures for the server tests: real uvicorn servers, real WebSockets, SQLite and a real PostgreSQL.

* ``postgres`` (session): Debian's PostgreSQL started in a temporary directory on a free loopback
  port (as the ``postgres`` OS user when the tests run as root). Missing PostgreSQL FAILS the tests:
  ``scripts/install-system-deps`` installs it.
* ``database_url`` (function, parametrized sqlite/postgresql): a fresh, empty database.
* ``server`` (module, parametrized sqlite/postgresql): one in-process uvicorn server (a thread) with
  bots moving at once; tests make their own tables on it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import glob
import json
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.sync.client import ClientConnection, connect

from parlor.server import create_app
from parlor.server.accounts import AccountLimits
from parlor.server.limits import Limits

from ..frames import apply_state

BACKENDS = ["sqlite", "postgresql"]
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---------------------------------------------------------------------------- PostgreSQL
class Postgres:
    def __init__(self) -> None:
        initdbs = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not initdbs:
            pytest.fail(
                "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): the server tests run against a "
                "real PostgreSQL too. Install it with scripts/install-system-deps (Debian package 'postgresql').",
                pytrace=False,
            )
        self.bin = Path(initdbs[-1]).parent
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="parlor-pg-"))
        self.data = self.root / "data"
        self.prefix: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root
            pw = pwd.getpwnam("postgres")
            os.chown(self.root, pw.pw_uid, pw.pw_gid)
            self.prefix = ["runuser", "-u", "postgres", "--"]
        os.chmod(self.root, 0o755)

    def _run(self, *args: str) -> None:
        done = subprocess.run([*self.prefix, *args], capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            log = self.root / "log"
            tail = log.read_text()[-2000:] if log.exists() else ""
            pytest.fail(f"{' '.join(args)} failed: {done.stdout}{done.stderr}{tail}", pytrace=False)

    def start(self) -> None:
        initdb = str(self.bin / "initdb")
        self._run(initdb, "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync")
        # A throw-away cluster: no fsync (the tests kill the Parlor server, never PostgreSQL).
        opts = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off"
        self._run(
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.root / "log"), "-w", "-o", opts, "start"
        )

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            subprocess.run(
                [*self.prefix, str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"],
                capture_output=True,
                timeout=60,
            )
        shutil.rmtree(self.root, ignore_errors=True)

    def new_database(self) -> str:
        import psycopg

        name = "parlor_" + uuid.uuid4().hex[:12]
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True) as c:
            c.execute(f"CREATE DATABASE {name}")
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{name}"


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    pg = Postgres()
    try:
        pg.start()
        yield pg
    finally:
        pg.stop()


def make_url(kind: str, request: pytest.FixtureRequest, tmp: Path) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp / ('parlor-' + uuid.uuid4().hex[:8] + '.db')}"
    return request.getfixturevalue("postgres").new_database()


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return make_url(request.param, request, tmp_path)


# ---------------------------------------------------------------------------- servers
# The password hash at its smallest cost (argon2id over 1 MiB, one pass: about a millisecond) for the
# servers whose tests are not about hashing: a sign-up at the full cost takes a tenth of a second on an
# idle core and several on a loaded one, and the suite signs up hundreds of accounts. The tests of the
# sign-in limits under a flood hash at the cost their own ``AccountLimits`` give (``real_password_cost=True``:
# the limits' cost as given, the site's default unless they name one).
CHEAP_PASSWORDS = {"password_memory_mib": 1, "password_passes": 1}
CHEAP_PASSWORD_FLAGS = ("--password-memory", "1", "--password-passes", "1")


class ServerThread:
    """The app under a real uvicorn server on a free loopback port, in a thread of this process."""

    def __init__(self, database_url: str, real_password_cost: bool = False, **options: Any) -> None:
        options.setdefault("bot_delay", 0.0)
        if not real_password_cost:
            limits = options.get("account_limits") or AccountLimits()
            options["account_limits"] = dataclasses.replace(limits, **CHEAP_PASSWORDS)
        # Clocks of a fraction of a second, so that tests see them run out (the server's floor is 5 s).
        options.setdefault("limits", Limits(min_turn_time=0.1))
        self.database_url = database_url
        self.options = options
        self.port = free_port()
        self.app = create_app(database_url, **options)
        config = uvicorn.Config(
            self.app, host="127.0.0.1", port=self.port, log_level="warning", ws_max_size=1 << 20, lifespan="on"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "ServerThread":
        self.thread.start()
        deadline = time.monotonic() + 120
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=60)

    def __enter__(self) -> "ServerThread":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


class ServerProcess:
    """``python -m parlor.server`` (or, with ``cli=True``, ``parlor serve``) as a real process."""

    def __init__(
        self,
        database_url: str,
        port: int | None = None,
        *args: str,
        cli: bool = False,
        open_files: int | None = None,
        host: str = "127.0.0.1",
        real_password_cost: bool = False,
    ) -> None:
        self.host = host  # another loopback address (127.0.0.2, ...) plays another machine
        self.database_url = database_url
        self.port = port or free_port()
        self.args = args if real_password_cost or "--password-memory" in args else (*args, *CHEAP_PASSWORD_FLAGS)
        self.cli = cli
        self.open_files = open_files  # the process's open-files limit (soft = hard), as on many hosts
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self) -> "ServerProcess":
        return self.launch().wait_until_up()

    def launch(self) -> "ServerProcess":
        """The process started, not yet serving (``wait_until_up``)."""
        if self.cli:
            cmd = [str(Path(sys.executable).with_name("parlor")), "serve"]
        else:
            cmd = [sys.executable, "-m", "parlor.server", "--log-level", "warning"]
        cmd += ["--host", self.host, "--port", str(self.port), "--database-url", self.database_url, *self.args]
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (kept open while the server runs)
        limit = self.open_files

        def limit_open_files() -> None:
            if limit is not None:
                import resource

                resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

        self.proc = subprocess.Popen(
            cmd, stdout=self.log, stderr=subprocess.STDOUT, cwd=ROOT, preexec_fn=limit_open_files
        )
        return self

    def wait_until_up(self) -> "ServerProcess":
        assert self.proc is not None
        deadline = time.monotonic() + 120
        while True:
            if self.proc.poll() is not None:
                self.log.seek(0)
                raise RuntimeError(f"server exited: {self.log.read().decode(errors='replace')}")
            try:
                if httpx.get(self.base + "/api/health", timeout=5).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not come up")
            time.sleep(0.1)

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()  # SIGKILL: no shutdown code runs
        self.proc.wait(timeout=60)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def start_together(*servers: ServerProcess) -> tuple[ServerProcess, ...]:
    """The processes of one site started at once, as ``parlor serve --workers`` starts them (they migrate
    the database one at a time): a process spends about 1.3 s of CPU starting, mostly on imports, and one
    after the other they took twice the wall time. If one does not come up, all are stopped."""
    try:
        for server in servers:
            server.launch()
        for server in servers:
            server.wait_until_up()
    except BaseException:
        for server in servers:
            server.stop()
        raise
    return servers


@pytest.fixture(scope="module", params=BACKENDS)
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    url = make_url(request.param, request, tmp_path_factory.mktemp("db"))
    with ServerThread(url, seat_timeout=None, rate_per_second=1000, burst=1000) as s:
        yield s


# ---------------------------------------------------------------------------- server timers
class Race:
    """One try of a test against a server timer it sets short (a table's wait for bots, a seat's timeout):
    ``due`` is the time (``time.time()``) by which the timer has surely run out, as far as the test knows
    it; ``won`` is set once the steps that had to come before it all did."""

    def __init__(self) -> None:
        self.due: float | None = None
        self.won = False


def against_a_short_timer(attempt: Callable[[float, Race], None], lengths: tuple[float, ...]) -> None:
    """``attempt(length, race)`` with the server timer set to the first of ``lengths`` seconds.

    A test that waits for a timer's EVENT waits the whole timer, so the timer is short; but the steps the
    test must take before it runs out then race it on a loaded machine. A failure that came after the
    timer was due, before the attempt's early steps were all done (``race.won``), says the machine was too
    slow for that length, not that the server is wrong: the attempt runs again with the next length (a
    fresh table). Any other failure fails the test at once, and so does any failure at the last length."""
    for i, length in enumerate(lengths):
        race = Race()
        try:
            attempt(length, race)
            return
        except Exception:
            if race.won or race.due is None or time.time() < race.due or i == len(lengths) - 1:
                raise
            print(f"a timer of {length:g} s ran out before the test's early steps were done; now {lengths[i + 1]:g} s")


# ---------------------------------------------------------------------------- clients
def create_table(base: str, **body: Any) -> dict[str, Any]:
    body.setdefault("game", "mamma-mia")
    r = httpx.post(base + "/api/tables", json=body, timeout=60)
    assert r.status_code == 201, r.text
    created = r.json()
    created["_base"] = base  # where token_of claims the seats' links
    return created


def claim(base: str, table_id: str, code: str) -> httpx.Response:
    return httpx.post(f"{base}/api/tables/{table_id}/claim", json={"claim": code}, timeout=60)


def token_of(created: dict[str, Any], seat: int) -> str:
    """The seat's token: its join link claimed (once) as the player's browser does."""
    entry = created["seats"][seat]
    if "token" not in entry:
        r = claim(created["_base"], created["table"]["id"], entry["claim"])
        assert r.status_code == 200, r.text
        assert r.json()["seat"] == seat
        entry["token"] = r.json()["token"]
    return entry["token"]


class Client:
    """A WebSocket client of one seat (or a spectator) that keeps every frame it got (``state`` frames
    as whole states: deltas are applied as they arrive)."""

    def __init__(self, base: str, table_id: str, token: str) -> None:
        url = base.replace("http://", "ws://") + f"/ws/tables/{table_id}?token={token}"
        # No cap on the frames waiting to be read (websockets' default is 16, then it stops reading the
        # socket): a test that closes a client it stopped reading (bots played on, a clock ran) would
        # otherwise never see the server's close frame behind the unread ones and wait out the whole
        # close timeout, ten seconds each time. A test of a reader that never reads uses its own socket.
        self._cm = connect(url, max_size=1 << 22, open_timeout=60, max_queue=None)
        self.ws: ClientConnection = self._cm.__enter__()
        self.frames: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.deltas = 0  # state frames that came as deltas
        self.welcome = self.next(lambda f: f["type"] == "welcome")
        self.next_state()

    def recv(self, timeout: float = 60.0) -> dict[str, Any]:
        frame = json.loads(self.ws.recv(timeout=timeout))
        if frame["type"] == "state":
            self.deltas += "delta" in frame
            frame = self.state = apply_state(self.state, frame)
        self.frames.append(frame)
        return frame

    def next(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 60.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching frame")
            frame = self.recv(left)
            if pred(frame):
                return frame

    def next_state(self, timeout: float = 60.0) -> dict[str, Any]:
        return self.next(lambda f: f["type"] == "state", timeout)

    def send(self, frame: Any) -> None:
        self.ws.send(frame if isinstance(frame, str) else json.dumps(frame))

    def request(self, frame: dict[str, Any], timeout: float = 60.0) -> dict[str, Any]:
        """Send a frame with a fresh ref; return its ack, error or pong."""
        ref = uuid.uuid4().hex[:8]
        self.send({**frame, "ref": ref})
        return self.next(lambda f: f.get("ref") == ref and f["type"] in ("ack", "error", "pong"), timeout)

    def act(self, action: dict[str, Any] | int, timeout: float = 60.0) -> dict[str, Any]:
        body = {"id": action} if isinstance(action, int) else {"action": action}
        for _ in range(50):
            reply = self.request({"type": "action", **body}, timeout)
            if reply["type"] == "ack":  # wait for the state this decision produced
                version = reply["version"]
                if self.state is None or self.state["version"] < version:
                    self.next(lambda f, v=version: f["type"] == "state" and f["version"] >= v, timeout)
                return reply
            if reply["code"] != "rate_limited":
                return reply
            time.sleep(0.2)
        return reply

    def wait_turn_or_over(self, timeout: float = 120.0) -> dict[str, Any]:
        """The newest state once it is this seat's turn or the game is over."""
        deadline = time.monotonic() + timeout
        while True:
            self.drain()
            st = self.state
            if st is not None and (st["over"] or st["your_turn"]):
                return st
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"still waiting; last state version {st and st['version']}")
            self.next_state(left)

    def drain(self) -> None:
        """Read every frame already waiting (without blocking)."""
        while True:
            try:
                self.recv(timeout=0)
            except TimeoutError:
                return

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._cm.__exit__(None, None, None)

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def sync_state(client: Client) -> dict[str, Any]:
    client.send({"type": "sync"})
    return client.next(lambda f: f["type"] == "state" and f["cause"] == "sync")
