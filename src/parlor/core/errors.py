"""The errors every Parlor component raises."""

from __future__ import annotations


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
