"""The project's docs stand alone: they name no file outside the repository, every repository path
they name exists, the rules references they cite are in docs/rules/, and they send readers to the
commands that really do what they say."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from parlor import games
from parlor.core.options import describe_options

ROOT = Path(__file__).resolve().parents[1]
DOCS = [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md"]
# A path the docs name in backquotes, from one of the repository's top folders.
REPO_PATH = re.compile(r"`((?:docs|src|tests|scripts|benchmarks|examples)/[\w./-]+?)`")
RULES = {"mamma_mia": "mamma-mia", "sweet_nose": "sweet-nose", "mottainai": "mottainai"}


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_doc_names_a_file_outside_the_repository(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    for outside in ("shared/rules", "shared/design", "shared/seeds", "shared/data", "/work/", "../"):
        assert outside not in text, f"{doc.name} names {outside!r}, which is not in the repository"
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


def test_the_readme_table_of_mamma_mia_options_lists_every_option_with_its_default() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Mamma Mia! rule options", 1)[1].split("\n## ", 1)[0]
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `(\w+)`[^|]*\| `([^`]+)`", table, re.M)}
    for info in describe_options(games.get("mamma-mia").Options):
        assert info["name"] in rows, f"README's Mamma Mia! options table misses {info['name']}"
        default = info["default"]
        shown = str(default).lower() if isinstance(default, bool) else str(default)
        if info["name"] != "start_player":  # shown as a word: random
            assert rows[info["name"]] == shown, info["name"]
