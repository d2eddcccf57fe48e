"""A third newcomer's pass over the command line: every bad input below ends in one line on stderr
(exit code 1, no traceback) and changes nothing. The study commands work on the default install;
a missing optional library is named with the exact command that installs it; error text is printed
as typed (brackets are not Rich markup); ``--resume`` refuses another run's output; a user's bot
that fails is named. Each test runs the real command in a subprocess; the prompts are in
test_cli_pty.py."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import time
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import httpx
import pytest

from .helpers import free_port

PARLOR = Path(sys.executable).with_name("parlor")
ROOT = Path(__file__).resolve().parents[1]


def run(*args: str | Path, blocked: tuple[str, ...] = (), tmp: Path | None = None, timeout: float = 600,
        **kw) -> subprocess.CompletedProcess[str]:  # fmt: skip
    """The real ``parlor`` command; ``blocked`` modules cannot be imported in it (nor in the processes it
    starts), as on an install without them: a ``sitecustomize`` first on the path sets them to None."""
    env = dict(os.environ)
    if blocked:
        assert tmp is not None
        shim = tmp / "blocked-modules"
        shim.mkdir(exist_ok=True)
        lines = ["import sys", *(f"sys.modules[{name!r}] = None" for name in blocked)]
        (shim / "sitecustomize.py").write_text("\n".join(lines) + "\n")
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(shim), env.get("PYTHONPATH", "")) if p)
    return subprocess.run(
        [str(PARLOR), *map(str, args)], capture_output=True, text=True, timeout=timeout, env=env, **kw
    )


def one_line_error(result: subprocess.CompletedProcess[str], *words: str) -> str:
    """Exit code 1, one line on stderr holding every word (as typed), no traceback; returns the line."""
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 1, (result.returncode, result.stdout[-2000:], result.stderr[-3000:])
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr[-3000:]
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


def extras_only_modules() -> tuple[str, ...]:
    """The top-level modules of every package that only an extra of pyproject.toml brings (not a
    default dependency): blocking them all is the default install, whatever else this venv holds."""

    def dist(requirement: str) -> str:
        return re.split(r"[\[<>=!~; ]", requirement, maxsplit=1)[0].lower().replace("_", "-")

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    default = {dist(r) for r in project["dependencies"]}
    extras = {dist(r) for reqs in project["optional-dependencies"].values() for r in reqs} - default
    modules = {
        module
        for module, dists in packages_distributions().items()
        if any(d.lower().replace("_", "-") in extras for d in dists) and module.isidentifier()
    }
    return tuple(sorted(modules))


# ------------------------------------------------------------------ 1. the default install
def test_the_study_commands_work_on_the_default_install(tmp_path):
    """After scripts/serve or scripts/play (``pip install -e .``) every study command runs: each is run
    here with every module that only an extra brings made unimportable."""
    blocked = extras_only_modules()
    assert "ray" in blocked and "psycopg" in blocked  # the extras are really left out
    small = ["-p", "2", "-n", "4", "--bots", "random"]
    commands = [
        ["simulate", "mamma-mia", *small, "--out", tmp_path / "r.parquet"],
        ["simulate", "mamma-mia", *small, "--out", tmp_path / "r.jsonl"],
        ["simulate", "mamma-mia", *small, "--out", tmp_path / "r.csv", "--records"],
        ["compare", tmp_path / "r.parquet", tmp_path / "r.jsonl"],
        ["dataset", tmp_path / "r.csv", "--out", tmp_path / "d.parquet"],
        ["analyze", "mamma-mia", "-p", "2", "-n", "2", "--bots", "random", "--report", tmp_path / "report"],
        ["train", "mamma-mia", "-n", "2", "--epochs", "1", "--bots", "random", "--out", tmp_path / "train"],
        ["tournament", "mamma-mia", "-p", "2", "-n", "4", "--bots", "random,heuristic",
         "--out", tmp_path / "t.parquet"],
    ]  # fmt: skip
    for command in commands:
        result = run(*command, blocked=blocked, tmp=tmp_path)
        assert result.returncode == 0, (command, result.stderr[-3000:])
        assert "Traceback" not in result.stderr, (command, result.stderr[-3000:])
    assert (tmp_path / "report" / "index.html").is_file() and (tmp_path / "train" / "mamma_mia.npz").is_file()


@pytest.mark.parametrize(
    ("args", "blocked", "words"),
    [
        (["simulate", "mamma-mia", "-n", "4", "-w", "2", "--backend", "ray"], ("ray",), ["ray", "[analysis]"]),
        (["tournament", "mamma-mia", "-n", "4", "--backend", "ray", "--out", "{tmp}/t.parquet"], ("ray",),
         ["ray", "[analysis]"]),
        (["analyze", "mamma-mia", "-p", "2", "-n", "2", "--backend", "ray", "--report", "{tmp}/rep"], ("ray",),
         ["ray", "[analysis]"]),
        (["serve", "--port", "{port}", "--database-url", "postgresql://parlor@127.0.0.1:1/parlor"], ("psycopg",),
         ["postgresql driver", "[postgres]"]),
        (["serve", "--port", "{port}", "--workers", "2", "--database-url", "postgresql://parlor@127.0.0.1:1/parlor"],
         ("httpx",), ["several server processes", "httpx", "[postgres]"]),
        # An install made before pyarrow and matplotlib were default dependencies: install Parlor again.
        (["simulate", "mamma-mia", "-n", "4", "--out", "{tmp}/r.parquet"], ("pyarrow",), ["pyarrow", "pip install -e"]),
        (["analyze", "mamma-mia", "-p", "2", "-n", "2", "--report", "{tmp}/rep"], ("matplotlib",),
         ["matplotlib", "pip install -e"]),
    ],
    ids=["simulate-ray", "tournament-ray", "analyze-ray", "serve-postgres", "serve-workers", "pyarrow", "matplotlib"],
)  # fmt: skip
def test_a_missing_optional_module_is_one_line_with_its_install_command(tmp_path, args, blocked, words):
    args = [a.format(tmp=tmp_path, port=free_port()) for a in args]
    line = one_line_error(run(*args, blocked=blocked, tmp=tmp_path), *words)
    assert f"{sys.executable} -m pip install" in line  # the exact command, for this Python
    assert not any(p.name != "blocked-modules" for p in tmp_path.iterdir())  # nothing was made


# ------------------------------------------------------------------ 2. error text as typed
@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["replay", "x[/b].json"], ["x[/b].json"]),
        (["replay", "[bold]x.json"], ["[bold]x.json"]),
        (["play", "mamma-mia", "--option", "ruleset=[/x]"], ["'[/x]'"]),
        (["simulate", "mamma-mia", "--bots", "[/x]"], ["[/x]"]),
    ],
    ids=["closing-tag", "opening-tag", "option-value", "bot"],
)
def test_error_text_in_brackets_is_printed_as_typed(args, words):
    one_line_error(run(*args, input=""), *words)


# ------------------------------------------------------------------ 3. --resume and another run's output
@pytest.mark.parametrize("suffix", [".parquet", ".jsonl", ".csv"])
def test_resume_refuses_a_finished_output_made_with_other_settings(tmp_path, suffix):
    out = tmp_path / f"r{suffix}"
    base = ["simulate", "mamma-mia", "-p", "2", "--seed", "3", "--out", out]
    made = run(*base, "-n", "40", "--bots", "random")
    assert made.returncode == 0, made.stderr
    before = hashlib.sha256(out.read_bytes()).digest()
    for extra, words in (
        (["-n", "40", "--bots", "medium,random"], ["bots differ: file has random,random; asked medium,random"]),
        (["-n", "41", "--bots", "random"], ["games differ: file has 40; asked 41"]),
        (["-n", "40", "--bots", "random", "-p", "3"], ["players differ: file has 2; asked 3"]),
    ):
        one_line_error(run(*base, *extra, "--resume"), "--resume", str(out), *words)
    assert hashlib.sha256(out.read_bytes()).digest() == before
    same = run(*base, "-n", "40", "--bots", "random", "--resume", "--json")  # the same run: its result
    assert same.returncode == 0 and json.loads(same.stdout)["games"] == 40, same.stderr


def test_resume_refuses_a_finished_tournament_with_other_bots(tmp_path):
    out = tmp_path / "t.parquet"
    base = ["tournament", "mamma-mia", "-p", "2", "-n", "6", "--out", out]
    assert run(*base, "--bots", "random,heuristic").returncode == 0
    one_line_error(run(*base, "--bots", "random,easy", "--resume"), "bots differ: file has random,heuristic")
    one_line_error(run(*base, "--bots", "random,heuristic", "-n", "8", "--resume"), "games differ")


# ------------------------------------------------------------------ 4. a user's bot that fails
@pytest.mark.parametrize(
    ("code", "words"),
    [
        ('raise RuntimeError("no table for me")\n', ["failed to load", "RuntimeError: no table for me"]),
        (
            "class Bot:\n    def __init__(self, game, seed):\n        raise ValueError('bad seed')\n"
            "    def choose(self, state, seat):\n        return state.legal_actions(seat)[0]\n",
            ["failed to start", "ValueError: bad seed"],
        ),
    ],
    ids=["at-import", "in-init"],
)
def test_a_bot_that_raises_is_one_line_naming_it(tmp_path, code, words):
    bot = tmp_path / "mybot.py"
    bot.write_text(code)
    spec = f"{bot}:Bot"
    for args in (
        ["play", "mamma-mia", "--players", "2", "--bots", spec],
        ["simulate", "mamma-mia", "-n", "2", "--bots", spec, "--out", tmp_path / "r.parquet"],
        ["tournament", "mamma-mia", "-n", "2", "--bots", f"random,{spec}"],
        ["analyze", "mamma-mia", "-p", "2", "-n", "2", "--bots", spec, "--report", tmp_path / "rep"],
    ):
        one_line_error(run(*args, input=""), repr(spec), *words)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "__pycache__") == ["mybot.py"]  # nothing made


# ------------------------------------------------------------------ 5. smaller points
def test_parlor_serve_takes_seat_timeout_and_prints_the_address_it_bound(tmp_path):
    port = free_port()
    env = {**os.environ, "HOME": str(tmp_path)}
    server = subprocess.Popen(
        [str(PARLOR), "serve", "--port", str(port), "--seat-timeout", "45", "--database-url",
         f"sqlite:///{tmp_path / 'p.db'}"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
    )  # fmt: skip
    try:
        assert server.stdout is not None
        first = server.stdout.readline()  # the server says where to open it before it serves
        assert f"open http://127.0.0.1:{port}/" in first, first
        deadline = time.monotonic() + 300  # a generous outer limit for a loaded machine
        while True:  # poll until it answers
            try:
                listed = httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=5)
                break
            except httpx.HTTPError:
                assert server.poll() is None and time.monotonic() < deadline, "the server did not come up"
        assert listed.json()["seat_timeout"] == 45
    finally:
        server.terminate()
        server.wait(timeout=60)
    bad = run("serve", "--port", str(free_port()), "--seat-timeout", "-1", "--database-url",
              f"sqlite:///{tmp_path / 'q.db'}")  # fmt: skip
    one_line_error(bad, "--seat-timeout must be from 0")
    assert not (tmp_path / "q.db").exists()
    script = (ROOT / "scripts" / "serve").read_text()
    assert 'exec .venv/bin/parlor serve "$@"' in script  # scripts/serve passes --seat-timeout on


def test_mottainai_with_6_players_and_an_explicit_ruleset_that_seats_5_is_an_error(tmp_path):
    for command in ("play", "simulate"):
        one_line_error(
            run(command, "mottainai", "--players", "6", "--option", "ruleset=v1.0", input=""),
            "2-5 players",
            "got 6",
        )
    from fastapi.testclient import TestClient

    from parlor.server import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'p.db'}", bot_delay=0)) as client:
        refused = client.post("/api/tables", json={"game": "mottainai", "players": 6, "options": {"ruleset": "v1.0"}})
        assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_players", refused.text
        assert client.post("/api/tables", json={"game": "mottainai", "players": 6}).status_code == 201


def test_the_mottainai_final_table_says_what_each_column_counts():
    result = run("play", "mottainai", "--players", "2", "--seed", "4", "--bots", "random", input="1\n" * 4000)
    assert result.returncode == 0, result.stderr
    table = " ".join(result.stdout.split("Final result", 1)[1].split())
    for legend in ("Works: the values of your completed works", "Sales: your sales covered",
                   "Backorders: the values of your hand cards", "Bonus:"):  # fmt: skip
        assert legend in table, legend


def test_a_bid_without_its_space_says_how_to_type_one():
    result = run(
        "play", "sweet-nose", "--players", "3", "--seed", "4", "--bots", "random", "--option", "shopkeeper=true",
        "--option", "ascension=true", input="b x\nq\n",
    )  # fmt: skip
    assert "'b x' is not a bid: type b N" in result.stdout, result.stdout[-2000:]
