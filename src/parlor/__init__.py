"""Parlor: rules engines, bots and play for three modern card games.

Two builds of one source: where a C compiler was present at install time the
engine's hot modules (setup.py's ``COMPILED``) were compiled with mypyc; otherwise, or with
``PARLOR_PURE=1`` at install time, everything is plain Python. ``parlor.BUILD`` says which
is running: ``"compiled"`` or ``"pure"``. ``PARLOR_PURE=1`` at run time also makes a compiled
install run its Python sources (CI runs the contract suite so), and an editable install
whose compiled modules are older than their sources does the same, with a warning.
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES, SOURCE_SUFFIXES, FileFinder, ModuleSpec, SourceFileLoader

__version__ = "0.1.0"

# A module that is compiled in the compiled build (its file says which build was imported).
_PROBE = "parlor.core.game"
# Every module setup.py compiles, as dotted names (for the staleness check of editable installs).
_COMPILED = (
    "parlor.core.game",
    "parlor.core.rng",
    "parlor.games.mamma_mia.rules",
    "parlor.games.mamma_mia.views",
    "parlor.games.mamma_mia.observation",
    "parlor.games.mamma_mia.heuristic",
    "parlor.games.sweet_nose.rules",
    "parlor.games.sweet_nose.views",
    "parlor.games.sweet_nose.playout",
    "parlor.games.sweet_nose.observation",
    "parlor.games.sweet_nose.heuristic",
    "parlor.games.mottainai.cards",
    "parlor.games.mottainai.data",
    "parlor.games.mottainai.rules",
    "parlor.games.mottainai.tables",
    "parlor.games.mottainai.views",
    "parlor.games.mottainai.observation",
    "parlor.games.mottainai.heuristic",
    "parlor.bots.ismcts",
    "parlor.rl.native",
)


class _SourceOnlyFinder:
    """Finds ``parlor.*`` modules from their ``.py`` files only, never a compiled ``.so``."""

    @staticmethod
    def find_spec(name: str, path: list[str] | None = None, target: object = None) -> ModuleSpec | None:
        if not name.startswith("parlor.") or not path:
            return None
        for entry in path:
            finder = FileFinder(entry, (SourceFileLoader, SOURCE_SUFFIXES))
            spec = finder.find_spec(name, target)  # type: ignore[arg-type]
            if spec is not None:
                return spec
        return None


def _stale_compiled_module() -> str | None:
    """The first compiled module older than its source in an editable install (``src/``)."""
    here = os.path.dirname(os.path.abspath(__file__))
    if "site-packages" in here or "dist-packages" in here:
        return None  # a regular install: its sources and binaries were installed together
    probe = os.path.join(here, "core", "game")
    suffix = next((s for s in EXTENSION_SUFFIXES if os.path.exists(probe + s)), None)
    if suffix is None:
        return None
    for name in _COMPILED:
        base = os.path.join(os.path.dirname(here), *name.split("."))
        try:
            if os.path.getmtime(base + ".py") > os.path.getmtime(base + suffix) + 1:
                return base + ".py"
        except OSError:
            return base + suffix
    return None


_PURE_REASON: str | None = None
if os.environ.get("PARLOR_PURE", "") not in ("", "0"):
    _PURE_REASON = "PARLOR_PURE is set"
else:
    _stale = _stale_compiled_module()
    if _stale is not None:
        _PURE_REASON = f"{os.path.relpath(_stale)} changed after it was compiled"
        print(
            f"parlor: running pure Python: {_PURE_REASON} (reinstall, `pip install -e .`, to recompile)",
            file=sys.stderr,
        )
if _PURE_REASON is not None:
    sys.meta_path.insert(0, _SourceOnlyFinder())  # type: ignore[arg-type]


def _build() -> str:
    import importlib

    module = importlib.import_module(_PROBE)
    return "pure" if (module.__file__ or "").endswith(".py") else "compiled"


def __getattr__(name: str) -> str:
    # ``BUILD`` is worked out on first use, so ``import parlor`` stays cheap.
    if name == "BUILD":
        globals()["BUILD"] = build = _build()
        return build
    raise AttributeError(f"module 'parlor' has no attribute {name!r}")


def build_description() -> str:
    """One line for ``parlor --version``: which build runs, and how to get the other."""
    if _build() == "compiled":
        return "compiled build (mypyc); PARLOR_PURE=1 runs the pure-Python sources"
    if _PURE_REASON is not None:
        return f"pure-Python build ({_PURE_REASON})"
    return "pure-Python build; install with a C compiler present to get the compiled one"
