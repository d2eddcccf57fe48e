"""Optional dependencies: importing one, or a one-line error with the exact command that installs it.

The default install (``pip install -e .``, what scripts/serve and scripts/play run) covers every
command; a few choices need an extra: ``--backend ray`` (the ``analysis`` extra) and a PostgreSQL
database or several server processes (the ``postgres`` extra). Without it the command stops with a
:class:`MissingExtra` (a ``ParlorError``: one line, no traceback) that says what to run, for the
Python that is running now.
"""

from __future__ import annotations

import importlib
import shlex
import sys
from pathlib import Path
from types import ModuleType

from parlor.core.errors import ParlorError


class MissingExtra(ParlorError):
    """An optional dependency a command needs is not installed."""


# The extra that brings each optional module (pyproject.toml); a module not named here is a
# default dependency, which installing Parlor again brings back.
EXTRA_OF = {
    "ray": "analysis",
    "scipy": "analysis",
    "psycopg": "postgres",
    "httpx": "postgres",
    "gymnasium": "rl",
    "pettingzoo": "rl",
    "pyspiel": "rl",
    "stable_baselines3": "train",
    "sb3_contrib": "train",
}


def install_line(extra: str = "") -> str:
    """The command that installs Parlor with ``extra`` (none: the default dependencies) into this
    Python: from the source folder when Parlor runs from one (an editable install, as
    scripts/serve and scripts/play make it), else from the package index."""
    python = shlex.quote(sys.executable or "python3")
    wanted = f"[{extra}]" if extra else ""
    root = Path(__file__).resolve().parents[2]  # src/parlor/extras.py -> the folder with pyproject.toml
    if (root / "pyproject.toml").is_file() and (root / "src" / "parlor").is_dir():
        return f"{python} -m pip install -e {shlex.quote(f'{root}{wanted}')}"
    return f"{python} -m pip install {shlex.quote(f'parlor{wanted}')}"


def missing_module_message(exc: ModuleNotFoundError) -> str | None:
    """One line for a third-party module that is not installed (None for one of Parlor's own or
    an unnamed one): what is missing and the command that brings it."""
    name = getattr(exc, "name", None) or ""
    top = name.split(".")[0]
    if not top or top == "parlor":
        return None
    return f"{top} is not installed: {install_line(EXTRA_OF.get(top, ''))}"


def require(module: str, extra: str, what: str) -> ModuleType:
    """``module`` imported, or a MissingExtra: ``"<what> needs <module>, which is not installed: <command>"``
    (``extra`` "": a default dependency, which installing Parlor again brings)."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        top = module.split(".")[0]
        if isinstance(exc, ModuleNotFoundError) and _is_missing(exc, module):
            raise MissingExtra(f"{what} needs {top}, which is not installed: {install_line(extra)}") from None
        # Installed but broken (one of its own dependencies is missing): the same command repairs it.
        raise MissingExtra(f"{what} needs {top}, which fails to import ({exc}): {install_line(extra)}") from None


def _is_missing(exc: ImportError, module: str) -> bool:
    """True when ``module`` itself (or a package above it) is absent, not something it imports."""
    name = getattr(exc, "name", None)
    if name is None:
        return True
    parts = module.split(".")
    return name in {".".join(parts[: i + 1]) for i in range(len(parts))}
