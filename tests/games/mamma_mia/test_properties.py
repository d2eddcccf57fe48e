"""Mamma Mia!-specific properties under random legal play, at 2-5 players, under the Czech
ruleset and with every non-default rule option (spec §2 invariants, §8 hidden information)."""

from __future__ import annotations

import json
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlor.core import Rng, for_seat
from parlor.games.mamma_mia.invariants import check_invariants

from .helpers import G

STRESS = os.environ.get("PARLOR_STRESS") == "1"
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)

NON_DEFAULT = [
    {"ruleset": "cs1999"},
    {"topping_play_required": False},
    {"recipe_requires_topping_play": False},
    {"refill_mode": "up_to"},
    {"allow_empty_source_choice": True},
    {"owner_may_decline_when_table_suffices": True},
    {"bombastica_hand_topup": False},
    {"minimale_excludes_pictured": False},
    {"minimale_when_no_candidate": "any_kind"},
    {"monotoni_joker": "table_first"},
    {"first_player": "seat0"},
    {"end_early_when_no_orders_left": True},
    {"show_oven_history": True},
]
ALL_AT_ONCE = {k: v for opts in NON_DEFAULT for k, v in opts.items()}
OPTION_SETS = [{}, *NON_DEFAULT, ALL_AT_ONCE]
CASES = [
    pytest.param(players, opts, id=f"{players}p-{'+'.join(f'{k}={v}' for k, v in opts.items()) or 'default'}")
    for opts in OPTION_SETS
    for players in (2, 3, 4, 5)
]


def few(n: int) -> settings:
    return settings(max_examples=n * 20 if STRESS else n, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_views(state) -> None:
    """No seat's view (nor the spectator's) holds another seat's hand."""
    for seat in [None, *range(state.players)]:
        for recall in (False, True):
            view = state.view(seat, recall=recall)
            json.dumps(view)  # plain JSON
            assert "supply" not in view  # only its size
            for p, info in enumerate(view["players_info"]):
                assert ("hand" in info) == (p == seat), f"view of {seat} shows the hand of {p}"


def check_events(events, players: int) -> None:
    for e in events:
        if e.kind == "drew_cards":
            assert e.visible_to == frozenset({e.data["seat"]}), e
        if e.visible_to is not None:
            # A private event is for the one seat it is about, never for the others.
            assert e.visible_to == frozenset({e.data["seat"]}), e
            for p in range(players):
                assert (e in for_seat(events, p)) == (p == e.data["seat"])
            assert e not in for_seat(events, None)


@pytest.mark.parametrize(("players", "options"), CASES)
@few(3)
@given(seed=SEEDS, choices=SEEDS)
def test_invariants_and_hidden_information_under_random_play(players, options, seed, choices):
    rnd = random.Random(choices)
    s = G.new_game(players, seed, options)
    assert check_invariants(s) == []
    check_views(s)
    decisions = 0
    while not s.is_over:
        assert decisions < 5000
        seat = s.to_move[0]
        events = s.apply(seat, rnd.choice(s.legal_actions(seat)))
        decisions += 1
        problems = check_invariants(s)
        assert problems == [], f"after decision {decisions}: {problems}"
        check_events(events, players)
        if rnd.random() < 0.3 or s.is_over:
            check_views(s)
    assert s.round <= 3
    result = s.result()
    assert result.scores == tuple(len(c) for c in s.completed)
    if not options.get("end_early_when_no_orders_left"):
        assert s.round == 3


def test_invariant_checker_catches_broken_states():
    s = G.new_game(3, 5)
    assert check_invariants(s) == []
    for corrupt in (
        lambda c: c.hand_toppings.__setitem__(0, c.hand_toppings[0] + 1),  # a 14th card of a kind
        lambda c: c.supply.pop(),  # a card vanishes
        lambda c: c.waiters.__setitem__(0, c.waiters[0][1:]),  # an order vanishes
    ):
        c = s.clone()
        corrupt(c)
        assert check_invariants(c) != []
    assert check_invariants(s) == []


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@few(8)
@given(seed=SEEDS, choices=SEEDS, steps=st.integers(min_value=0, max_value=25))
def test_determinize_scrambles_hidden_cards(players, seed, choices, steps):
    """Determinizations differ from the real state where the seat cannot see, and only there;
    together with the contract test (a determinized state shows the seat the same view) this
    proves that views carry no hidden cards."""
    rnd = random.Random(choices)
    s = G.new_game(players, seed)
    for _ in range(steps):
        if s.round != 1 or len(s.supply) < 10:
            break
        seat = s.to_move[0]
        s.apply(seat, rnd.choice(s.legal_actions(seat)))
    observer = rnd.randrange(players)
    others = [p for p in range(players) if p != observer]
    toppings_differ = orders_differ = False
    for i in range(40):
        d = s.determinize(observer, Rng(rnd.getrandbits(64)))
        assert check_invariants(d) == []
        # What the observer holds and what everyone sees is untouched.
        assert d.toppings_of(observer) == s.toppings_of(observer)
        assert d.hand_orders[observer] == s.hand_orders[observer]
        assert d.completed == s.completed and d.holder == s.holder and d.round == s.round
        assert len(d.supply) == len(s.supply)
        for p in others:
            assert d.topping_count(p) == s.topping_count(p)
            assert len(d.hand_orders[p]) == len(s.hand_orders[p])
            assert len(d.waiters[p]) == len(s.waiters[p])
            assert set(s.known_hand_orders[p]) <= set(d.hand_orders[p])
            known = s.waiter_known[p]
            assert d.waiters[p][len(d.waiters[p]) - known :] == s.waiters[p][len(s.waiters[p]) - known :]
            toppings_differ |= d.toppings_of(p) != s.toppings_of(p)
            orders_differ |= sorted(d.hand_orders[p]) != sorted(s.hand_orders[p])
        if i == 0:
            assert d.view(observer, recall=True) == s.view(observer, recall=True)
    if len(s.supply) >= 10 and sum(s.topping_count(p) for p in others) >= 3:
        assert toppings_differ, "determinize never moved another seat's toppings"
    if any(
        len(s.hand_orders[p]) > len(s.known_hand_orders[p]) and len(s.waiters[p]) > s.waiter_known[p] for p in others
    ):
        assert orders_differ, "determinize never moved another seat's hidden orders"


def test_determinize_at_the_start_hides_every_other_hand():
    for players in (2, 3, 4, 5):
        s = G.new_game(players, 99)
        samples = [s.determinize(0, Rng(i)) for i in range(20)]
        for p in range(1, players):
            assert any(d.toppings_of(p) != s.toppings_of(p) for d in samples)
            assert any(d.hand_orders[p] != s.hand_orders[p] for d in samples)
        # The observer's own waiter order is unknown to it too (§8: shuffled part unknown to all).
        assert any(d.waiters[0] != s.waiters[0] for d in samples)
        assert all(sorted(d.waiters[0]) == sorted(s.waiters[0]) for d in samples)
