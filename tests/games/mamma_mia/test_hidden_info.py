"""Hidden information in Mamma Mia!: what happens next must not depend on cards a seat
cannot see, except through what is legitimately revealed.

The check: take a real position and a determinization of it for an observer (same view,
different hidden cards). Let the active player take the same non-drawing action in both.
Whatever the engine then does by itself (reveal the oven, ask an owner, fail an order)
must look identical to the observer. A difference would mean the engine's behaviour
leaks hidden cards, e.g. by asking an owner about a top-up only when the kinds fit.
"""

from __future__ import annotations

import random

import pytest

from parlor import games
from parlor.core import Rng
from parlor.games.mamma_mia import Draw, DrawCount

GAME = games.get("mamma-mia")


def positions(players: int, n_games: int, options: dict | None = None):
    rnd = random.Random(players)
    for seed in range(n_games):
        state = GAME.new_game(players, seed, options)
        while not state.is_over:
            yield state
            seat = state.to_move[0]
            state.apply(seat, rnd.choice(state.legal_actions(seat)))


def until_chance(events):
    """The events up to the first draw or new round (what follows depends on a shuffled
    deck), or up to a forced play after the chosen action (a play shows its cards)."""
    out = []
    for i, e in enumerate(events):
        if e.kind in ("drew", "round_started") or (i > 0 and e.kind == "toppings_played"):
            break
        out.append(e.to_json())
    return out


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("options", [None, {"ruleset": "cs1999"}, {"owner_may_decline_when_table_suffices": True}])
def test_consequences_of_an_action_look_the_same_to_every_observer(players, options):
    checked = 0
    for state in positions(players, 12, options):
        actor = state.to_move[0]
        for observer in range(players):
            if observer == actor:
                continue
            guess = state.determinize(observer, Rng(checked))
            common = [a for a in state.legal_actions(actor) if a in guess.legal_actions(actor)]
            common = [a for a in common if not isinstance(a, (Draw, DrawCount))]  # draws reveal chance
            for action in common[:3]:
                real, other = state.clone(), guess.clone()
                seen_real = until_chance(e for e in real.apply(actor, action) if e.visible(observer))
                seen_other = until_chance(e for e in other.apply(actor, action) if e.visible(observer))
                assert seen_real == seen_other, f"{action} shows {observer} different events"
                if real.supply != state.supply:
                    continue  # someone drew (a forced draw may follow): the deck's order is chance
                if real.round == state.round:
                    assert real.view(observer) == other.view(observer)
                checked += 1
    assert checked > 100


def test_an_owner_who_cannot_fit_the_kinds_is_still_asked():
    # Green (pepper) needs 1 pineapple more; green holds 2 toppings but no pineapple.
    state = GAME.scenario(
        {
            "players": 2,
            "decks": ["pepper", "mushroom"],
            "phase": "oven",
            "counter": {"pineapple": 3, "pepper": 3},
            "oven": ["green_four_pineapple"],
            "hands": [{"toppings": {"salami": 2}}, {}],
        }
    )
    assert state.to_move == (0,)
    assert [a.TYPE for a in state.legal_actions(0)] == ["decline"]
    # ...while one who holds too few toppings to cover it is not asked: everyone can count.
    state = GAME.scenario(
        {
            "players": 2,
            "decks": ["pepper", "mushroom"],
            "phase": "oven",
            "counter": {"pineapple": 2, "pepper": 3},
            "oven": ["green_four_pineapple"],
            "hands": [{"toppings": {"pineapple": 1}}, {}],
        }
    )
    assert state.step != 5 and state.waiters[0][-1:] == (17,)
