"""Help screens without type placeholders.

Typer (0.2x) prints a type column such as ``<int>``, ``<bool>`` or ``<list[str]>`` next to every
option. Our options name what they take with a metavar (``N``, ``FILE``, ``NAME=VALUE``), so the
column would only repeat it, and for flags (``--json``, ``--help``) it is wrong: a flag takes no
value. :func:`install` shows the metavar when there is one and nothing otherwise.
"""

from __future__ import annotations

from typing import Any


def _display_type_rich(self: Any, ctx: Any) -> str | None:
    if self.param_type_name == "argument":  # its name column already shows the metavar
        return None
    if getattr(self, "is_flag", False) or getattr(self, "is_bool_flag", False):
        return None
    metavar = getattr(self, "metavar", None)
    return metavar or None


def install() -> None:
    """Patch Typer's option and argument classes (idempotent; a no-op on Typer versions without them)."""
    try:
        from typer.core import TyperArgument, TyperOption
    except ImportError:  # pragma: no cover - older Typer prints click's metavars, which are fine
        return
    for cls in (TyperOption, TyperArgument):
        if hasattr(cls, "display_type_rich"):
            cls.display_type_rich = _display_type_rich
