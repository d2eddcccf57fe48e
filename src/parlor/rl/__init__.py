"""Parlor for learning agents: tensors, PettingZoo, Gymnasium and OpenSpiel (extra ``[rl]``).

``encoding(game)`` is the game's ``games/<game>/encoding.py`` module: ``LAYOUT`` (the
observation's slices, documented in docs/rl.md), ``encode(state, seat, out)``,
``action_mask(state, seat, out)`` and ``information_state(state, seat)``.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from parlor import games


def encoding(game: Any) -> ModuleType:
    """The encoding module of ``game`` (a name or a ``Game``)."""
    name = game if isinstance(game, str) else game.name
    g = games.get(name)
    return importlib.import_module(f"parlor.games.{g.name.replace('-', '_')}.encoding")


def tensor_docs() -> str:
    """The slice tables of every game's observation, as Markdown (pasted into docs/rl.md)."""
    parts = []
    for game in games.all_games():
        parts.append(f"### {game.name}\n\n{encoding(game).LAYOUT.markdown()}\n")
    return "\n".join(parts)
