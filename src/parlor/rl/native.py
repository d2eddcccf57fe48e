"""The compiled part of ``parlor.rl`` (setup.py's COMPILED): masks and the vector env's loop.

No numpy here: every buffer is a memoryview over a numpy array's memory (format ``f`` for
observations, ``b`` for masks), flat, so an observation or a mask is written with one
``buf[i] = x`` per non-zero entry and a whole batch shares one view. ``tensor.py`` and
``vector.py`` make the views and own the arrays.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

_ONE: Final[object] = 1  # an int8 mask entry, boxed once


def action_ids(game: Any) -> dict[int, int]:
    """``id(action) -> action id`` for a game's prebuilt actions.

    Legal actions are the space's own objects (the engine checks legality by identity), so an
    identity lookup finds an action's id without hashing the dataclass: several times cheaper
    than ``game.action_id`` on the hot path. The space lives as long as the game, so the ids of
    its objects stay valid.
    """
    return {id(a): i for i, a in enumerate(game.actions.actions)}


def write_mask(state: Any, seat: int, ids: dict[int, int], buf: Any, base: int) -> int:
    """Set ``buf[base + id] = 1`` for each action ``seat`` may play (the region is zeroed by
    the caller); returns how many."""
    legal = state.legal_actions(seat)
    for action in legal:
        i = ids.get(id(action), -1)
        if i < 0:  # not a prebuilt object (never from the engine): ask the space
            i = state.game.action_id(action)
        buf[base + i] = _ONE
    return len(legal)


def write_batch(
    write: Callable[[Any, int, Any, int], None],
    states: list[Any],
    seats: list[int],
    buf: Any,
    size: int,
) -> None:
    """Row ``i`` of ``buf`` (``size`` floats each) gets ``write(states[i], seats[i], ...)``."""
    for i in range(len(states)):
        write(states[i], seats[i], buf, i * size)


def write_mask_batch(states: list[Any], seats: list[int], ids: dict[int, int], buf: Any, size: int) -> None:
    for i in range(len(states)):
        write_mask(states[i], seats[i], ids, buf, i * size)
