"""Small helpers shared by the Sweet Nose tests (scenarios, readable counts)."""

from __future__ import annotations

from typing import Any

from parlor import games
from parlor.games.sweet_nose.data import KINDS
from parlor.games.sweet_nose.invariants import check_invariants

G = games.get("sweet-nose")
MUNG, PEACH, BRITTLE, ZHUANG, HAWS = KINDS


def counts(vec: Any) -> dict[str, int]:
    """Per-kind vector -> ``{kind: n}`` without zeros."""
    return {KINDS[k]: n for k, n in enumerate(vec) if n}


def tray(state: Any, seat: int) -> dict[str, int]:
    return counts(state.tray(seat))


def bowl(state: Any, seat: int) -> dict[str, int]:
    return counts(state.bowl(seat))


def market(state: Any) -> dict[str, int]:
    return counts(state.market)


def held(state: Any, seat: int) -> dict[str, int]:
    return counts(state.held_sweets(seat))


def scenario(**data: Any) -> Any:
    state = G.scenario(data)
    assert check_invariants(state) == []
    return state


def plus(d: dict[str, int], kind: str, n: int = 1) -> dict[str, int]:
    out = dict(d)
    out[kind] = out.get(kind, 0) + n
    if not out[kind]:
        del out[kind]
    return out
