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

Your own metrics: a module with the same ``Metrics`` class, given as ``--metrics
my_metrics.py`` (or ``package.module``) to ``parlor simulate`` / ``parlor analyze``
(``RunSpec.metrics``). It runs beside the game's own; its ``values``, ``rates`` and ``seats``
are added to the game's (a name both give is yours), and its ``end_condition`` / ``rounds`` /
``turns``, when given, replace the game's.
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


def user_metrics_class(where: str) -> Any:
    """The ``Metrics`` class of a user module: a ``.py`` file or an importable module name."""
    import importlib.util
    from pathlib import Path

    from parlor.core.errors import ParlorError

    if where in _CACHE:
        return _CACHE[where]
    if where.endswith(".py"):
        path = Path(where).expanduser().resolve()
        if not path.is_file():
            raise ParlorError(f"--metrics: no such file: {where}")
        spec = importlib.util.spec_from_file_location(f"parlor_user_metrics_{abs(hash(str(path)))}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except Exception as exc:
            raise ParlorError(f"--metrics {where}: the module failed to load: {type(exc).__name__}: {exc}") from None
    else:
        try:
            module = importlib.import_module(where)
        except ImportError as exc:
            raise ParlorError(f"--metrics: cannot import {where!r}: {exc}") from None
    cls = getattr(module, "Metrics", None)
    if cls is None or not callable(getattr(cls, "finish", None)):
        raise ParlorError(f"--metrics {where}: the module needs a class Metrics with observe() and finish()")
    _CACHE[where] = cls
    return cls


class _Both:
    """The game's metrics and the user's, seen as one collector."""

    def __init__(self, game: GameMetrics, user: GameMetrics) -> None:
        self.game = game
        self.user = user

    def observe(self, seat: int, action: Any, events: list[Any]) -> None:
        self.game.observe(seat, action, events)
        self.user.observe(seat, action, events)

    def finish(self, state: State) -> dict[str, Any]:
        out = dict(self.game.finish(state))
        mine = self.user.finish(state) or {}
        for key in ("values", "rates", "seats"):
            out[key] = {**out.get(key, {}), **mine.get(key, {})}
        for key in ("end_condition", "rounds", "turns"):
            if mine.get(key) is not None:
                out[key] = mine[key]
        return out


def collector(game: Game, state: State, user: str = "") -> GameMetrics:
    """The game's metrics collector, with the user's module ``user`` (a path or module) beside it."""
    own = metrics_class(game)(state)
    if not user:
        return own
    return _Both(own, user_metrics_class(user)(state))


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
