"""Small helpers shared by the Mamma Mia! tests (scenarios, readable counts)."""

from __future__ import annotations

from typing import Any

from parlor import games
from parlor.core import IllegalAction
from parlor.games.mamma_mia.data import KINDS, MAMMA_MIA_CARD, NUM_KINDS, ORDER_INDEX, ORDERS
from parlor.games.mamma_mia.invariants import check_invariants

G = games.get("mamma-mia")
GREEN, BROWN = 0, 1  # with the default decks of ``scenario``: seat 0 = pepper deck, seat 1 = mushroom deck


def counts(vec: Any) -> dict[str, int]:
    """Per-kind vector -> ``{kind: n}`` without zeros."""
    return {KINDS[k]: n for k, n in enumerate(vec) if n}


def hand(state: Any, seat: int) -> dict[str, int]:
    return counts(state.hand_toppings[seat * NUM_KINDS : (seat + 1) * NUM_KINDS])


def names(orders: Any) -> list[str]:
    return [ORDERS[o].name for o in orders]


def order_id(name: str) -> int:
    return ORDER_INDEX[name]


def supply_counts(state: Any) -> dict[str, int]:
    return counts([sum(1 for c in state.supply if c == k) for k in range(NUM_KINDS)])


def mamma_mia_in_supply(state: Any) -> int:
    return state.supply.count(MAMMA_MIA_CARD)


def scenario(**data: Any) -> Any:
    """A 2-player scenario, green (pepper deck) = seat 0, brown (mushroom deck) = seat 1."""
    data.setdefault("players", 2)
    data.setdefault("decks", ["pepper", "mushroom"])
    state = G.scenario(data)
    assert check_invariants(state) == []
    return state


def oven(counter: dict[str, int], cards: list[str], sentinel: str | None = "brown_monotoni", **data: Any) -> Any:
    """Phase 2 from a given counter. ``sentinel`` (an order of another seat that always asks a
    decision: a Monotoni) is revealed last, so the state stops there with counter and used pile intact."""
    data.setdefault("supply", [])
    data.setdefault("mamma_mia_holder", 0)
    return scenario(phase="oven", counter=counter, oven=cards + ([sentinel] if sentinel else []), **data)


def play(state: Any, seat: int, action: Any) -> list[Any]:
    """Apply and check the invariants of spec §2 afterwards."""
    events = state.apply(seat, action)
    assert check_invariants(state) == []
    return events


def decline_if_asked(state: Any, seat: int) -> None:
    """An owner who cannot cover a shortfall may still be asked (so that being asked does not
    reveal their hand's kinds); then declining must be their only choice."""
    from parlor.games.mamma_mia import Decline
    from parlor.games.mamma_mia.rules import TOP_UP

    if state.step == TOP_UP and state.to_move == (seat,):
        assert state.legal_actions(seat) == [Decline()]
        play(state, seat, Decline())


def revealed(events: list[Any]) -> list[str]:
    """The toppings turned face up in phase 2, one entry per card, in order."""
    out: list[str] = []
    for e in events:
        if e.kind in ("topping_revealed", "toppings_revealed"):
            out += [e.data["kind"]] * e.data.get("count", 1)
    return out


def kinds_of(events: list[Any]) -> list[str]:
    return [e.kind for e in events]


def first(events: list[Any], kind: str) -> Any:
    for e in events:
        if e.kind == kind:
            return e
    raise AssertionError(f"no {kind!r} event in {kinds_of(events)}")


def assert_illegal(state: Any, seat: int, action: Any) -> None:
    before = state.to_json()
    try:
        state.apply(seat, action)
    except IllegalAction:
        pass
    else:  # pragma: no cover - the failure path
        raise AssertionError(f"{action} was accepted")
    assert state.to_json() == before
