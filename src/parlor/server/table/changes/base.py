"""The base of every change (``Change``) and the check the game-flow changes share.
(``LiveTable.change`` applies them; the three steps of a change: ``changes/__init__.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from parlor.server.storage import Write
from parlor.server.wire import ServerError

if TYPE_CHECKING:
    from ..live import LiveTable


class Change:
    """The base of every change: by default nothing to store and nothing to tell."""

    what: ClassVar[str] = "the change"  # named in a refusal: "the action could not be stored"
    moves_play: ClassVar[bool] = False

    def prepare(self, table: LiveTable) -> list[Write]:
        return []

    def apply(self, table: LiveTable, results: list[Any]) -> Any:
        return None

    def announce(self, table: LiveTable) -> None:
        return None


def playing(table: LiveTable) -> None:
    if table.state.is_over or table.status != "playing":
        raise ServerError("game_over", "the game is over", 409)
