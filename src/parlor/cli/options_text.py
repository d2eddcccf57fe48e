"""A game's rule options in words: ``parlor options GAME`` and ``parlor games --options``.

Everything comes from ``parlor.core.options.describe_options`` (each game's ``options.py``
declares the meaning and the rule text of every option), the same facts ``/api/games`` serves.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
from rich.text import Text

from parlor.core import Game
from parlor.core.options import describe_options, option_value_text

from . import common


def value_words(info: dict[str, Any], value: Any) -> str:
    """A value as typed on the command line: a seat option's seats count from 1."""
    return str(value + 1) if info["seat"] and type(value) is int else option_value_text(value)


def allowed_words(info: dict[str, Any]) -> str:
    if info["allowed"] is not None:
        values = " | ".join(value_words(info, v) for v in info["allowed"])
    elif info["type"] == "int":
        values = "an integer"
    else:
        values = info["type"]
    return values + (" | none" if info["nullable"] else "")


def default_words(info: dict[str, Any]) -> str:
    text = value_words(info, info["default"])
    return text + (" (set by the ruleset)" if info["set_by_ruleset"] else "")


def render_game_options(out: Console, game: Game) -> None:
    """Every option as a short block: name, type, default, allowed values; meaning; rule text."""
    out.print(f"[bold]{game.name}[/] · {game.title} · {common.players_words(game)}", soft_wrap=True)
    for info in describe_options(game.Options):
        kind = {"choice": "choice", "bool": "true/false", "int": "integer"}.get(info["type"], info["type"])
        head = (
            f"[bold cyan]{info['name']}[/] ({kind}) · default [bold]{escape(default_words(info))}[/]"
            f" · allowed: {escape(allowed_words(info))}"
        )
        note = "safeguard, not in the rulebook" if info["safeguard"] else f"default from: {info['follows']}"
        if info["view_only"]:
            note += "; changes only what is shown"
        if info["seat"]:
            note += "; seats count from 1 here (records and the API store the seat index, from 0)"
        out.print(Padding(Text.from_markup(head), (0, 0, 0, 2)))
        out.print(Padding(Text(f"{info['meaning']}."), (0, 0, 0, 6)))
        out.print(Padding(Text(note, style="dim"), (0, 0, 0, 6)))
    out.print(f"  Use: parlor play {game.name} --option name=value (repeatable)", soft_wrap=True)
