"""The game registry: ``parlor.games.get("mamma-mia")`` returns the game's ``Game`` object."""

from __future__ import annotations

import importlib

from parlor.core.errors import ParlorError, did_you_mean
from parlor.core.game import Game

# name -> module; a game is imported the first time it is asked for.
_MODULES = {
    "mamma-mia": "parlor.games.mamma_mia",
    "sweet-nose": "parlor.games.sweet_nose",
    "mottainai": "parlor.games.mottainai",
}
_ALIASES = {"mamma_mia": "mamma-mia", "mammamia": "mamma-mia"}
_ALIASES.update({"sweet_nose": "sweet-nose", "sweetnose": "sweet-nose"})


def names() -> list[str]:
    return list(_MODULES)


def get(name: str) -> Game:
    key = _ALIASES.get(str(name).lower(), str(name).lower())
    module = _MODULES.get(key)
    if module is None:
        near = did_you_mean(key, [*_MODULES, *_ALIASES])
        for alias, game in _ALIASES.items():  # an alias found near is named as the game it stands for
            near = near.replace(repr(alias), repr(game))
        raise ParlorError(f"unknown game {name!r}{near}; known games: {', '.join(_MODULES)}")
    return importlib.import_module(module).GAME


def all_games() -> list[Game]:
    return [get(n) for n in _MODULES]
