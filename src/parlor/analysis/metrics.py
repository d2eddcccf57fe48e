"""Game metrics through one hook: each game says what to count from its own events.

A game package may hold a ``metrics`` module with a class ``Metrics``:

    class Metrics:
        def __init__(self, state): ...           # the state right after ``new_game``
        def observe(self, seat, action, events): ...  # after every decision, with ALL its events
        def finish(self, state) -> dict: ...     # the finished state -> plain JSON (below)

``finish`` returns ``{"end_condition": str, "rounds": int | None, "turns": int | None,
"values": {name: number}, "rates": {name: [successes, trials]}, "seats": {name: [seat, ...]}}``
(every key optional): ``values`` are per-game numbers (their distribution is reported),
``rates`` are pooled over games (successes / trials, with a Wilson interval), ``seats`` name
the seats that had a feature in this game (e.g. the Bell among their works), reported as
"win rate with / without the feature".

The game knows nothing about the simulator: the simulator looks the module up here, feeds
it the events ``State.apply`` returned, and stores what ``finish`` gave in each game's row.
A game without the module still gets its length and result in the rows.
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol

from parlor.core.game import Game, State


class GameMetrics(Protocol):
    def observe(self, seat: int, action: Any, events: list[Any]) -> None: ...

    def finish(self, state: State) -> dict[str, Any]: ...


class NoMetrics:
    """For a game without a metrics module: its length from the usual state fields."""

    def __init__(self, state: State) -> None:
        pass

    def observe(self, seat: int, action: Any, events: list[Any]) -> None:
        pass

    def finish(self, state: State) -> dict[str, Any]:
        rounds = getattr(state, "round", None)
        turns = getattr(state, "turns", None)
        return {
            "end_condition": "end",
            "rounds": rounds if isinstance(rounds, int) else None,
            "turns": turns if isinstance(turns, int) else None,
        }


_CACHE: dict[str, Any] = {}


def metrics_class(game: Game) -> Any:
    """The game's ``Metrics`` class, or :class:`NoMetrics`."""
    if game.name not in _CACHE:
        package = type(game).__module__.rsplit(".", 1)[0]
        name = f"{package}.metrics"
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            _CACHE[game.name] = NoMetrics
        else:
            _CACHE[game.name] = module.Metrics
    return _CACHE[game.name]


def collector(game: Game, state: State) -> GameMetrics:
    return metrics_class(game)(state)


def normalised(found: dict[str, Any]) -> dict[str, Any]:
    """Every key present, in a fixed order (so rows from any game have one shape)."""
    return {
        "end_condition": str(found.get("end_condition", "end")),
        "rounds": found.get("rounds"),
        "turns": found.get("turns"),
        "values": dict(sorted(found.get("values", {}).items())),
        "rates": {k: list(v) for k, v in sorted(found.get("rates", {}).items())},
        "seats": {k: sorted(v) for k, v in sorted(found.get("seats", {}).items()) if v},
    }
