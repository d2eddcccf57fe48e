"""Random play at 3, 4 and 5 players and with each variant: the invariants after every
action, conservation of the 45 sweets, no leak of a sweetness assignment before the
reveal, and determinize keeping a seat's view while varying what it cannot see."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlor.core import Rng, replay
from parlor.games.sweet_nose import actions as A
from parlor.games.sweet_nose.data import TOTAL_SWEETS
from parlor.games.sweet_nose.invariants import check_invariants
from parlor.games.sweet_nose.rules import ASSIGN, EXCHANGE, OVER

from .helpers import G

VARIANTS = {
    "default": {},
    "ascension": {"ascension": True},
    "shopkeeper": {"shopkeeper": True, "shopkeeper_max_bid": 30},
    "both": {"ascension": True, "shopkeeper": True, "shopkeeper_max_bid": 40},
    "hidden_tiles": {"shop_tiles_visible": False, "shop_pick_required": False},
    "alternatives": {
        "market_bonus": "flat",
        "exchange_required": False,
        "phase_end_timing": "end_of_turn",
        "l1_twin_trade_kind_rule": "any",
        "l2_market_to_bowl_mode": "extra",
        "l4_double_trade_short": True,
        "l5_change_taste_timing": "phase_end",
        "l5_change_taste_public": False,
        "l5_ignore_market_scope": "all",
        "l5_ignore_market_timing": "scoring",
        "shop_tile_use": "mandatory_first_turn",
        "shop_pick_order": "start_player_first",
        "shop_pick_tie_break": "current_round_order",
        "top_tie_start_player": "random",
        "redeal_each_round": True,
        "phase2_turn_limit": 40,
    },
}
SEATS_AND_SPECTATOR = (None, 0, 1, 2, 3, 4)


def check_no_leak(state, events, revealed_before):
    """Before the reveal no view or event for another seat (or a spectator) holds someone's cards."""
    for e in events:
        if e.kind == "sweetness_revealed":
            return
        for seat in SEATS_AND_SPECTATOR[: state.players + 1]:
            if e.visible(seat) and "values" in e.data:
                assert seat is not None and e.data["seat"] == seat, (e, seat)
    if state.revealed or revealed_before:
        return
    for seat in SEATS_AND_SPECTATOR[: state.players + 1]:
        for recall in (False, True):
            view = state.view(seat, recall)
            for p, info in enumerate(view["players_info"]):
                if p != seat:
                    assert info["sweetness"] is None, (seat, p)


def play(players, seed, options, check_every=1):
    state = G.new_game(players, seed, options)
    rnd = random.Random(seed)
    steps = 0
    while state.to_move:
        seat = rnd.choice(state.to_move)
        legal = state.legal_actions(seat)
        assert legal
        revealed = state.revealed
        events = state.apply(seat, rnd.choice(legal))
        steps += 1
        if steps % check_every:
            continue
        assert check_invariants(state) == []
        in_trays = sum(sum(state.tray(p)) for p in range(state.players))
        assert in_trays + sum(state.bowls) + sum(state.market) + sum(state.supply) == TOTAL_SWEETS
        check_no_leak(state, events, revealed)
        json.dumps([e.to_json() for e in events])
        if state.to_move and steps % 5 == 0:
            who = state.to_move[0]
            d = state.determinize(who, Rng(steps))
            assert d.view(who) == state.view(who)
            assert d.view(who, recall=True) == state.view(who, recall=True)
            assert check_invariants(d) == []
            assert d.legal_actions(who) == state.legal_actions(who)
    return state


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from([3, 4, 5]),
    seed=st.integers(0, 2**31),
    variant=st.sampled_from(sorted(VARIANTS)),
)
def test_random_play_keeps_every_invariant(players, seed, variant):
    state = play(players, seed, VARIANTS[variant])
    assert state.step == OVER and state.is_over
    result = state.result()
    assert min(result.places) == 1 and all(state.scores[w] == min(state.scores) for w in result.winners)
    if not state.options.ascension:
        assert state.round == 3
    else:
        assert max(state.scores) >= 100


def test_every_player_count_and_variant_finishes():
    for variant, options in VARIANTS.items():
        for players in (3, 4, 5):
            state = play(players, players * 7 + len(variant), options, check_every=3)
            assert state.is_over, variant


def test_same_seed_same_actions_same_game():
    for variant in ("default", "alternatives", "hidden_tiles"):
        a = play(4, 11, VARIANTS[variant], check_every=1000)
        b = replay(a.record())
        assert a.to_json() == b.to_json()
        assert a.to_json_text() == G.load_state(a.to_json_text()).to_json_text()


def test_events_are_identical_on_replay():
    def run():
        state = G.new_game(3, 5, {"shopkeeper": True, "shopkeeper_max_bid": 10})
        rnd = random.Random(2)
        log = []
        while state.to_move:
            seat = state.to_move[-1]
            log.extend(e.to_json() for e in state.apply(seat, rnd.choice(state.legal_actions(seat))))
        return log, state.to_json()

    assert run() == run()


def _in_exchange(players, seed, options=None):
    state = G.new_game(players, seed, options)
    rnd = random.Random(seed)
    while state.step != EXCHANGE or state.round < 2:
        seat = state.to_move[0]
        state.apply(seat, rnd.choice(state.legal_actions(seat)))
    return state


def test_determinize_varies_the_hidden_cards():
    state = _in_exchange(4, 3)
    seat = state.to_move[0]
    samples = [state.determinize(seat, Rng(i)) for i in range(20)]
    for other in range(4):
        cards = {d.sweetness[other] for d in samples}
        if other == seat:
            assert cards == {state.sweetness[seat]}
        else:
            assert len(cards) > 5
    assert all(d.view(seat) == state.view(seat) for d in samples)
    # the future is re-sampled too
    assert len({d.rng.state for d in samples}) == 20


def test_determinize_in_phase_one_keeps_uncommitted_seats_open():
    state = G.new_game(3, 0)
    state.apply(1, A.ASSIGN[(5, 4, 3, 2, 1)])
    assert state.step == ASSIGN
    d = state.determinize(0, Rng(1))
    assert d.sweetness[0] == () and d.sweetness[2] == () and d.sweetness[1] in A.PERMUTATIONS
    assert d.to_move == state.to_move == (0, 2)
    assert d.view(0) == state.view(0)


def test_commit_events_are_private_and_announced():
    state = G.new_game(4, 9)
    events = state.apply(2, A.ASSIGN[(3, 1, 4, 5, 2)])
    public = [e for e in events if e.visible_to is None]
    private = [e for e in events if e.visible_to is not None]
    assert [e.data for e in public] == [{"seat": 2}]
    assert all(e.visible_to == frozenset([2]) for e in private) and private[0].data["values"]["peanut_brittle"] == 4
    for seat in (None, 0, 1, 3):
        assert state.view(seat)["players_info"][2]["sweetness"] is None
        assert state.view(seat)["players_info"][2]["sweetness_set"] is True
    assert state.view(2)["players_info"][2]["sweetness"]["peanut_brittle"] == 4
