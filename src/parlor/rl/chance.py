"""Explicit chance: every random draw the rules make, as a chance node with its outcomes.

The rules draw from the state's generator (``state.rng``): a shuffle is its Fisher-Yates
draws (``below(k + 1)`` for each position ``k`` from the last down), a start player or a tile
one ``below(n)``. Give the generator a ``ChanceScript`` (core/rng.py) and those draws come
from a list of outcomes instead; when the list runs out the rules stop with
``ChanceNeeded(bound)``: the next chance node has the outcomes ``0 .. bound-1``, each with
probability ``1 / bound`` (the generator's draws are uniform). Nothing in any game knows about
it: the rules make the same draws in the same order as with a seed.

``try_deal`` and ``try_apply`` play the deal or one decision on a fresh state or a clone (the
rules stop half-way at a missing draw, so the original must not be the one played) with the
outcomes chosen so far, and return the new state or the bound of the next draw.
Parlor's OpenSpiel games use them for ``chance="explicit"`` (parlor.rl.openspiel).

The outcomes are draws, not cards: a shuffle of ``k`` cards is ``k - 1`` chance nodes, and
two draw sequences that deal the same cards are different outcomes (of the same total
probability as the deal). Exact algorithms therefore want small decks (the tiny variants).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from parlor.core.actions import Action
from parlor.core.game import Game, State
from parlor.core.rng import ChanceNeeded, ChanceScript, Rng


def _deal_mamma_mia(state: Any) -> None:
    from parlor.games.mamma_mia.rules import setup

    setup(state)
    state.start_turn([])


def _deal_sweet_nose(state: Any) -> None:
    from parlor.games.sweet_nose.rules import setup

    setup(state)


def _deal_mottainai(state: Any) -> None:
    from parlor.games.mottainai.rules import setup

    setup(state)
    state.ev = []
    state.run()


# What each game's ``_new_state`` does when it deals (games/<game>/game.py), after the state
# is made undealt (``_new_state(..., deal=False)``): the same calls, so that the deal can run
# with a scripted generator. tests/rl/test_chance.py checks they deal what ``new_game`` deals.
DEALS: dict[str, Callable[[Any], None]] = {
    "mamma-mia": _deal_mamma_mia,
    "sweet-nose": _deal_sweet_nose,
    "mottainai": _deal_mottainai,
}


def deal(game: Game, players: int, seed: int, options: Any, outcomes: Sequence[int] | None = None) -> State:
    """A new game: with ``outcomes``, its draws are those (``ChanceNeeded`` when they run out);
    without, the seed's own draws (the same game as ``game.new_game(players, seed, options)``)."""
    state = game._new_state(players, seed, options, deal=False)  # type: ignore[attr-defined]
    if outcomes is not None:
        state.rng.script = ChanceScript(list(outcomes))
    DEALS[game.name](state)
    state._settle()
    return state


def try_deal(game: Game, players: int, options: Any, outcomes: Sequence[int]) -> State | int:
    """The game dealt with ``outcomes`` as its draws, or the bound of the draw still missing."""
    try:
        return deal(game, players, 0, options, outcomes)
    except ChanceNeeded as need:
        return need.bound


def try_deal_with(dealer: Callable[[Rng], State], outcomes: Sequence[int]) -> State | int:
    """``dealer(rng)`` (a tiny variant's deal, parlor.rl.tiny) with ``outcomes`` as the
    generator's draws, or the bound of the draw still missing."""
    rng = Rng(0)
    rng.script = ChanceScript(list(outcomes))
    try:
        return dealer(rng)
    except ChanceNeeded as need:
        return need.bound


def try_apply(state: State, seat: int, action: Action, outcomes: Sequence[int]) -> State | int:
    """A clone of ``state`` after ``seat`` plays ``action`` with ``outcomes`` as its draws, or
    the bound of the draw still missing. ``state`` itself is never changed."""
    trial = state.clone()
    trial.rng.script = ChanceScript(list(outcomes))
    try:
        trial.apply(seat, action)
    except ChanceNeeded as need:
        return need.bound
    return trial
