"""The errors every Parlor component raises."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(typed: str, known: Iterable[str]) -> str:
    """`` (did you mean 'mamma-mia'?)`` for a name typed a letter or two wrong, else ``""``: an error
    naming an unknown game, bot or option adds it, so a slip of the keyboard is answered with the
    name meant rather than only a list to search (difflib's similarity ratio, at least 0.6)."""
    near = difflib.get_close_matches(str(typed).lower(), list(known), n=1, cutoff=0.6)
    return f" (did you mean {near[0]!r}?)" if near else ""


class ParlorError(Exception):
    """Base class of every error Parlor raises on purpose."""


class IllegalAction(ParlorError):
    """A move that is not allowed now: wrong seat, wrong phase, not legal, or malformed.

    Raising it never changes the state the move was offered to.
    """


class RecordError(ParlorError):
    """A saved record that is corrupt or does not replay; the message names the step."""


class ScenarioError(ParlorError):
    """A scenario (a position given as JSON) that is malformed or inconsistent."""


class StateError(ParlorError):
    """A saved state (``to_json``) that cannot be loaded."""
