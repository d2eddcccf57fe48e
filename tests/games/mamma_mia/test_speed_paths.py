"""The fast paths of the Mamma Mia! engine equal their straightforward versions.

* steps A and B share one legal list per hand (``_TOPPING_CHOICES``, ``_ORDER_CHOICES``): it
  must be the list the rulebook reading builds, and nothing a caller does to its copy may
  reach the cache;
* the default options (kept per player count by ``Game.default_options``) equal reading them from JSON, and
  a bad player count still raises.
"""

from __future__ import annotations

import random

import pytest

from parlor.core import ParlorError
from parlor.core.game import Game
from parlor.games.mamma_mia import actions as A
from parlor.games.mamma_mia.data import NUM_KINDS
from parlor.games.mamma_mia.rules import ORDER, TOPPINGS

from .helpers import G


def reference_topping_choices(state, seat):
    """Step A's options as the rulebook reads (§4.1), computed from scratch."""
    hand = state.toppings_of(seat)
    legal = []
    for k in range(NUM_KINDS):
        legal.extend(A.PLAY_TOPPINGS[k][n] for n in range(1, hand[k] + 1))
    if not state.options.topping_play_required:
        legal.append(A.SKIP_TOPPINGS)
    return legal


def reference_order_choices(state, seat):
    """Step B's options (§4.2): the orders in hand by id, then "no order"."""
    return [A.PLAY_ORDER[o] for o in sorted(state.hand_orders[seat])] + [A.NO_ORDER]


REFERENCES = {TOPPINGS: reference_topping_choices, ORDER: reference_order_choices}


@pytest.mark.parametrize("options", [{}, {"ruleset": "cs1999"}, {"topping_play_required": False}])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_step_a_and_b_choices_equal_the_reference(players, options):
    rng = random.Random(players)
    checked = 0
    for seed in range(12):
        s = G.new_game(players, seed, options)
        while not s.is_over:
            seat = s.to_move[0]
            legal = s.legal_actions(seat)
            reference = REFERENCES.get(s.step)
            if reference is not None:
                expected = reference(s, seat)
                assert legal == expected
                assert all(a is b for a, b in zip(legal, expected))
                checked += 1
                legal.clear()  # a caller's copy: must not reach the shared list
                s._legal = None  # and the next state with this hand gets it from the cache
                assert s.legal_actions(seat) == expected
                legal = s.legal_actions(seat)
            s.apply(seat, rng.choice(legal))
    assert checked > 100


def test_default_options_are_the_json_defaults_and_still_check_players():
    for players in range(2, 6):
        cached = G.default_options(players)
        assert cached == Game.default_options(G, players)
        assert G.default_options(players) is cached  # read once
    for bad in (1, 6, "4", 4.0, True):
        with pytest.raises(ParlorError):
            G.default_options(bad)
