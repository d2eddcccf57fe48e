"""Words for the games, below every front end: the terminal (``parlor.cli``) and the server
(``parlor.server``) both read a game's text module through here, so the server imports nothing of
the terminal's.

A game's words live in ``parlor.games.<pkg>.text`` by convention (see ``parlor.games.mamma_mia.text``);
a game without one gets the plain fallback in :mod:`parlor.text.generic`. Texts are written in
Rich markup for the terminal; :func:`plain` gives the same words without it (the server's ``legal``
entries carry plain text).
"""

from __future__ import annotations

import functools
import importlib
from types import ModuleType
from typing import Any

from . import generic

__all__ = ["action_text", "generic", "plain", "text_module"]


def text_module(game: Any) -> ModuleType:
    """The game's words: ``parlor.games.<pkg>.text`` by convention, or the plain fallback."""
    package = type(game).__module__.rsplit(".", 1)[0]
    name = f"{package}.text"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return generic


@functools.lru_cache(maxsize=8192)
def plain(markup: str) -> str:
    """Rich markup without its tags (``"[bold]You[/] play"`` -> ``"You play"``); text that is not
    valid markup comes back as it is."""
    try:
        from rich.text import Text

        return Text.from_markup(markup).plain
    except Exception:
        return markup


@functools.lru_cache(maxsize=16)
def _module_of(game: Any) -> ModuleType | None:
    try:
        return text_module(game)
    except Exception:  # a game whose words fail to import still plays: actions are named plainly
        return None


def action_text(game: Any, action: Any, view: Any) -> str:
    """A short plain description of ``action`` for whoever sees ``view`` (``str(action)`` if the game's
    words fail on it)."""
    module = _module_of(game)
    if module is None:
        return str(action)
    try:
        return plain(module.describe_action(action, view))
    except Exception:
        return str(action)
