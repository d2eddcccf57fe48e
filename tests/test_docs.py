"""The project's docs stand alone: they name no file outside the repository, every repository path
they name exists, the rules references they cite are in docs/rules/, they send readers to the
commands that really do what they say, and every command block marked runnable runs. Nothing in the
repository cites an issue number, which no reader could look up."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from parlor import games
from parlor.core.options import describe_options

ROOT = Path(__file__).resolve().parents[1]
DOCS = [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md"]
# A path the docs name in backquotes, from one of the repository's top folders.
REPO_PATH = re.compile(r"`((?:docs|src|tests|scripts|benchmarks|examples)/[\w./-]+?)`")
RULES = {"mamma_mia": "mamma-mia", "sweet_nose": "sweet-nose", "mottainai": "mottainai"}
OUTSIDE_FOLDER = re.compile(r"\bshared[/\\]")


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_doc_names_a_file_outside_the_repository(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    for outside in ("/work/", "/tmp/", "../"):
        assert outside not in text, f"{doc.name} names {outside!r}, which is not in the repository"
    # The rules, design notes and seeds this project was written from live outside it, in a shared folder.
    assert not OUTSIDE_FOLDER.search(text), f"{doc.name} names a shared folder outside the repository"
    for name in REPO_PATH.findall(text):
        path = name.rstrip(".")
        if any(ch in path for ch in "*<>"):
            continue  # a pattern, not one file
        assert (ROOT / path).exists(), f"{doc.name} names {path}, which does not exist"


@pytest.mark.parametrize("stem", RULES)
def test_each_game_doc_cites_a_rules_reference_that_holds_what_it_cites(stem: str) -> None:
    doc = (ROOT / "docs" / f"{stem}.md").read_text(encoding="utf-8")
    reference = ROOT / "docs" / "rules" / f"{stem}.md"
    assert f"docs/rules/{stem}.md" in doc
    rules = reference.read_text(encoding="utf-8")
    for section in re.findall(r"§(\d+(?:\.\d+)?)", doc):
        assert re.search(rf"^#+ {re.escape(section)}[. ]", rules, re.M), f"§{section} is not in {reference.name}"
    for item in set(re.findall(r"\bA(\d+)\b", doc)):
        assert re.search(rf"\bA{item}\b", rules), f"A{item} is not in {reference.name}"
    # Every rule option of the game is in its reference, so the numbers the code cites lead somewhere.
    for info in describe_options(games.get(RULES[stem]).Options):
        assert f"`{info['name']}`" in rules, f"{info['name']} is missing from {reference.name}"


def test_docs_send_readers_to_parlor_options_for_the_options() -> None:
    for doc in DOCS:
        text = " ".join(doc.read_text(encoding="utf-8").split())
        assert "list them with `parlor games`" not in text, doc.name


def test_the_table_of_mamma_mia_options_lists_every_option_with_its_default() -> None:
    doc = (ROOT / "docs" / "mamma_mia.md").read_text(encoding="utf-8")
    table = doc.split("\n## Rule options\n", 1)[1].split("\n## ", 1)[0]
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `(\w+)`[^|]*\| `([^`]+)`", table, re.M)}
    for info in describe_options(games.get("mamma-mia").Options):
        assert info["name"] in rows, f"docs/mamma_mia.md's options table misses {info['name']}"
        default = info["default"]
        shown = str(default).lower() if isinstance(default, bool) else str(default)
        if info["name"] != "start_player":  # shown as a word: random
            assert rows[info["name"]] == shown, info["name"]


# ---------------------------------------------------------------- no issue numbers
# Trackers' numbers mean nothing to a reader of the repository: say what the rule is instead.
ISSUE_NUMBER = re.compile(r"\bissues?[ -]?#?\d+", re.I)
CITING_FOLDERS = ("src", "docs", "tests", "scripts", "benchmarks", "examples")


def _text_files() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "setup.py", ROOT / "pyproject.toml"]
    for folder in CITING_FOLDERS:
        files += [p for p in sorted((ROOT / folder).rglob("*")) if p.is_file() and "__pycache__" not in p.parts]
    return files


def test_nothing_cites_an_issue_number() -> None:
    citing = []
    for path in _text_files():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # compiled modules, images, weights
        for number, line in enumerate(text.splitlines(), 1):
            if ISSUE_NUMBER.search(line):
                citing.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not citing, "these lines cite an issue number; say what the rule is instead:\n" + "\n".join(citing)


def test_the_issue_number_check_finds_the_forms_people_write() -> None:
    # The check above can fail: each of these is a citation it must find, and plain words are not.
    # (Built from a number, so that this file does not cite one itself.)
    n = 12
    for cited in (f"(issue {n})", f"Issue {n}, finding 2:", f"issue #{n}", f"issues {n} and 17", f"the issue-{n} goal"):
        assert ISSUE_NUMBER.search(cited), cited
    for plain in ("an issue with the clock", f"tissue {n}", "issued 4 links"):
        assert not ISSUE_NUMBER.search(plain), plain


# ---------------------------------------------------------------- runnable command blocks
# A fenced block of bash or python right after the line `<!-- runnable -->` is run for real, in an
# empty folder with the installed `parlor` first on PATH, and must exit 0 (docs/contributing.md).
MARKER = "<!-- runnable -->"
FENCE = re.compile(r"^```(\w+)[^\n]*\n(.*?)^```\s*$", re.M | re.S)


def _runnable_blocks() -> list[tuple[str, str, str]]:
    """(where, language, code) of every marked block; a marker without a block after it is an error."""
    blocks = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for marker in re.finditer(rf"^{re.escape(MARKER)}\n", text, re.M):  # a line of its own
            where = f"{doc.relative_to(ROOT)}:{text.count(chr(10), 0, marker.start()) + 1}"
            fence = FENCE.match(text, marker.end())  # the fence opens on the very next line
            blocks.append((where, fence.group(1), fence.group(2)) if fence else (where, "missing", ""))
    return blocks


RUNNABLE = _runnable_blocks()


def _installed_parlor() -> Path:
    beside = Path(sys.executable).parent / "parlor"  # the venv running the tests
    on_path = shutil.which("parlor")
    found = beside if beside.exists() else Path(on_path) if on_path else None
    assert found is not None, "the parlor command is not installed beside this Python nor on PATH"
    return found


def test_the_readme_has_runnable_blocks_and_every_marker_marks_one() -> None:
    readme = [where for where, _, _ in RUNNABLE if where.startswith("README.md:")]
    assert len(readme) >= 2, "the README's play and study blocks are marked runnable"
    for where, language, _ in RUNNABLE:
        assert language in ("bash", "python"), f"{where}: {MARKER} must be followed by a ```bash or ```python block"


@pytest.mark.parametrize(("where", "language", "code"), RUNNABLE, ids=[where for where, _, _ in RUNNABLE])
def test_a_runnable_block_runs(where: str, language: str, code: str, tmp_path: Path) -> None:
    if language not in ("bash", "python"):
        pytest.fail(f"{where}: {MARKER} must be followed by a ```bash or ```python block")
    parlor = _installed_parlor()
    env = {**os.environ, "PATH": f"{parlor.parent}{os.pathsep}{os.environ.get('PATH', '')}", "NO_COLOR": "1"}
    if language == "bash":
        command = ["bash", "-e", "-c", code]  # stops at the first failing command
    else:
        command = [sys.executable, "-c", code]
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, (
        f"{where}: the block exited {done.returncode}\n--- stdout (end)\n{done.stdout[-3000:]}\n"
        f"--- stderr (end)\n{done.stderr[-3000:]}"
    )


def test_the_readme_indexes_every_page_of_docs() -> None:
    index = (ROOT / "README.md").read_text(encoding="utf-8").split("\n## The docs\n", 1)[1].split("\n## ", 1)[0]
    for page in sorted((ROOT / "docs").glob("*.md")):
        assert f"`docs/{page.name}`" in index, f"README's index of docs/ misses docs/{page.name}"
