"""The bots do not reach up: inference (``parlor.bots``) imports nothing from the training
(``parlor.training``) nor from the studies (``parlor.analysis``), which themselves use the bots.
Read from the sources, so an import inside a function counts too."""

from __future__ import annotations

import ast
from pathlib import Path

import parlor

SRC = Path(parlor.__file__).resolve().parent


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports, absolute or relative, anywhere in the file."""
    package = ".".join(path.relative_to(SRC.parent).with_suffix("").parts[:-1])
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(p for p in (base, node.module or "") if p)
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def test_bots_import_neither_training_nor_analysis():
    above = ("parlor.training", "parlor.analysis")
    wrong = {
        str(path.relative_to(SRC)): sorted(n for n in imported(path) if n.startswith(above))
        for path in (SRC / "bots").rglob("*.py")
    }
    assert not {k: v for k, v in wrong.items() if v}


def test_analysis_does_not_import_training():
    wrong = {
        str(path.relative_to(SRC)): sorted(n for n in imported(path) if n.startswith("parlor.training"))
        for path in (SRC / "analysis").rglob("*.py")
    }
    assert not {k: v for k, v in wrong.items() if v}
