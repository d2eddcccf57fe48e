"""An upper bound for docs/strength.md: `expert`'s search given every hidden card.

    parlor tournament sweet-nose --players 3 \\
        --bots scripts/oracle_bots.py:OracleExpert,expert:seconds=0.1:iterations=100000 \\
        --games 100 --seed 41 --workers 2 --json

`OracleExpert` is `expert` (0.1 s a move unless ``:seconds=S:iterations=N`` follow the class name)
whose every sampled world is the real state: it sees the other seats' hands and the decks'
order. It cheats by design, so it is never offered as a bot to play against; it measures how
much better the search plays when it knows what it is searching, which bounds what any better
belief about the hidden cards (a learned one included) could add to `expert`.

`HandsKnownExpert` (Mamma Mia! and Mottainai) knows less: the other hands as they really are,
but every other hidden card sampled afresh each time (Mamma Mia!: the supply's and the waiters'
order; Mottainai: the deck, the waiting areas and face-down starting cards, shuffled among
themselves). That is what a perfect belief about the opponent's cards would give, without the
future draws no reading of the opponent can know.

`SweetnessKnownExpert` (Sweet Nose only) is the same bound there: the other players' secret
sweetness cards as they really are, everything else (the future draws) dealt as ``determinize``
deals it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from parlor.bots import search_settings
from parlor.bots.ismcts import ISMCTSBot


def real_state(state: Any, seat: int) -> Callable[[Any], Any]:
    """An ``ISMCTSBot`` sampler that deals the real state every time (the oracle)."""
    return lambda rng: state.clone()


def hands_known(state: Any, seat: int) -> Callable[[Any], Any]:
    """The real hands; the rest of what ``seat`` cannot see reshuffled (per game, below)."""
    if hasattr(state, "waiters"):
        return mamma_mia_hands_known(state, seat)
    return mottainai_hands_known(state, seat)


def mamma_mia_hands_known(state: Any, seat: int) -> Callable[[Any], Any]:
    """A Mamma Mia! sampler: the real hands, the supply and each waiter's unknown part reshuffled."""
    from parlor.games.mamma_mia.rules import MAMMA_MIA_CARD

    def deal(rng: Any) -> Any:
        world = state.clone()
        world.rng = rng.fork()  # the future shuffles are unknown too
        world._legal = None
        world._history = None  # a sampled position has no real past
        pool = sorted(c for c in world.supply if c != MAMMA_MIA_CARD)  # sorted: the real order is not read
        rng.shuffle(pool)
        if MAMMA_MIA_CARD in world.supply:
            pool.insert(rng.below(len(pool) + 1), MAMMA_MIA_CARD)
        world.supply = pool
        for p in range(world.players):
            waiter = world.waiters[p]
            top = len(waiter) - world.waiter_known[p]
            unknown = sorted(waiter[:top])
            rng.shuffle(unknown)
            world.waiters[p] = tuple(unknown) + tuple(waiter[top:])
        return world

    return deal


def mottainai_hands_known(state: Any, seat: int) -> Callable[[Any], Any]:
    """A Mottainai sampler: the real hands; ``determinize``'s other hidden places dealt among themselves.

    Those places are the waiting areas the seat cannot see, face-down starting cards and every
    deck position the seat has not seen; their cards are shuffled among the same places, sizes kept.
    """
    from parlor.games.mottainai.views import EVERYONE

    waiting = [p for p in range(state.players) if p != seat or not state.options.waiting_area_visible_to_owner]
    start_cards = [p for p in range(state.players) if state.tasks[p] >= 0 and not state.task_up[p]]
    deck_slots = [i for i, k in enumerate(state.deck_info) if k not in (EVERYONE, seat)]
    hidden = [c for p in waiting for c in state.waiting[p]]
    hidden += [state.tasks[p] for p in start_cards] + [state.deck[i] for i in deck_slots]
    hidden.sort()  # the real order is not read

    def deal(rng: Any) -> Any:
        world = state.clone()
        world.rng = rng.fork()
        world._legal = None
        world.pending = None
        if state.over:
            return world
        pool = list(hidden)
        rng.shuffle(pool)
        for p in waiting:
            n = len(state.waiting[p])
            world.waiting[p] = tuple(pool[:n])
            del pool[:n]
        for p in start_cards:
            world.tasks[p] = pool.pop()
        for i in deck_slots:
            world.deck[i] = pool.pop()
        return world

    return deal


def sweetness_known(state: Any, seat: int) -> Callable[[Any], Any]:
    """A Sweet Nose sampler: ``determinize``'s world with the real sweetness cards put back."""

    def deal(rng: Any) -> Any:
        world = state.determinize(seat, rng)
        world.sweetness = state.sweetness
        return world

    return deal


def expert_dealing(sampler: Callable[[Any, int], Callable[[Any], Any]], name: str) -> type[ISMCTSBot]:
    """``expert``'s search (0.1 s a move by default) whose worlds come from ``sampler``."""

    class Bound(ISMCTSBot):
        def __init__(self, game: Any, seed: int = 0, seconds: float = 0.1, iterations: int = 100000) -> None:
            settings = dict(search_settings(game, "expert"))
            settings.update(seconds=seconds, iterations=iterations, sampler=sampler, name=name)
            super().__init__(game, seed, **settings)  # type: ignore[arg-type]

    return Bound


OracleExpert = expert_dealing(real_state, "oracle")
HandsKnownExpert = expert_dealing(hands_known, "hands-known")
SweetnessKnownExpert = expert_dealing(sweetness_known, "sweetness-known")
