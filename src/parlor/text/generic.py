"""Plain words for a game that has no ``text`` module yet: the terminal still works with it.

A game's own ``parlor.games.<pkg>.text`` module provides the same names with real wording
(see ``parlor.games.mamma_mia.text``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.pretty import Pretty
from rich.table import Table
from rich.text import Text

SCORE_LABEL = "score"
LEGEND = ""
INTRO = ""
HELP = "Type the number of a move. h help, r rules, t table, q quit."
RULES = "No rules summary is written for this game yet."


def player_name(seat: int | None, you: int | None = None, colour: str | None = None) -> str:
    if seat is None:
        return "Nobody"
    return "[bold]You[/]" if seat == you else f"Seat {seat + 1}"


def describe_action(action: Any, view: Mapping[str, Any]) -> str:
    return str(action)


class Narrator:
    def __init__(self, seat: int | None, players: int | None = None, colours: Mapping[int, str] | None = None) -> None:
        self.seat = seat

    def pause(self, event: Any) -> float:
        return 0.0

    def lines(self, event: Any) -> list[str]:
        data = ", ".join(f"{k}={v}" for k, v in event.data.items())
        return [f"{event.kind}: {data}"]


def describe_event(event: Any, seat: int | None) -> str:
    return "\n".join(Narrator(seat).lines(event))


def decision_words(view: Mapping[str, Any]) -> str:
    return "Your decision"


def render_view(view: Mapping[str, Any]) -> RenderableType:
    return Pretty(dict(view))


def render_hand(view: Mapping[str, Any]) -> RenderableType:
    return Text("")


def render_result(view: Mapping[str, Any]) -> RenderableType:
    result = view.get("result")
    if not result:
        return Text("The game is not over.")
    table = Table(title="Final result")
    for col in ("Place", "Player", "Score", "Tie-break"):
        table.add_column(col)
    for s in sorted(range(len(result["scores"])), key=lambda s: result["places"][s]):
        table.add_row(str(result["places"][s]), f"Seat {s + 1}", str(result["scores"][s]), str(result["tiebreaks"][s]))
    winners = ", ".join(f"Seat {w + 1}" for w in result["winners"])
    return Group(table, Text(f"Winner(s): {winners}"))
