"""The rules' fast paths (rules.py) against their plain forms.

Each was written for speed in the compiled build: a cached list, a table, a hand-written
sort or count. The plain form here is what the code did before; they must agree exactly.
"""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from parlor.core.game import Result
from parlor.core.rng import Rng
from parlor.games.sweet_nose import actions as A
from parlor.games.sweet_nose import data as D
from parlor.games.sweet_nose import rules as R

from .helpers import G


def plain_deal(players: int, rng: Rng) -> tuple[list[int], list[int], tuple[int, ...]]:
    """Setup steps 3-5 as the rulebook words them: a bag, 8 per tray, the rest to the market."""
    per_kind = D.BAG_PER_KIND[players]
    bag = [k for k in range(5) for _ in range(per_kind)]
    rng.shuffle(bag)
    trays = [0] * (players * 5)
    for seat in range(players):
        for k in bag[seat * D.TRAY_SIZE : (seat + 1) * D.TRAY_SIZE]:
            trays[seat * 5 + k] += 1
    market = [0] * 5
    for k in bag[players * D.TRAY_SIZE :]:
        market[k] += 1
    supply = [k for k in range(5) for _ in range(D.SWEETS_PER_KIND - per_kind)]
    rng.shuffle(supply)
    for k in supply[: D.MARKET_FROM_SUPPLY[players]]:
        market[k] += 1
    return trays, market, tuple(supply[D.MARKET_FROM_SUPPLY[players] :].count(k) for k in range(5))


def flat_trays(state) -> list[int]:
    return [n for p in range(state.players) for n in state.tray(p)]


def test_deal_matches_the_plain_deal():
    for players in (3, 4, 5):
        for seed in range(40):
            state = G.new_game(players, seed)  # the deal is the first use of the game's rng
            assert (flat_trays(state), state.market, state.supply) == plain_deal(players, Rng(seed))
            assert state.bowls == [0] * (players * 5)


def test_redeal_matches_the_plain_deal():
    for players in (3, 4, 5):
        for seed in range(20):
            state = G.new_game(players, seed)
            rng = Rng(state=state.rng.state)
            R.deal_sweets(state)
            trays, market, supply = plain_deal(players, rng)
            assert (flat_trays(state), state.market, state.supply) == (trays, market, supply)
            assert state.rng.state == rng.state


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 120), min_size=3, max_size=5))
def test_result_is_rank_with_lower_totals_winning(scores):
    state = G.new_game(len(scores), 0)
    state.scores = list(scores)
    assert state.result() == Result.rank(tuple(scores), (0,) * len(scores), higher_wins=False)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=3, max_size=5), st.integers(0, 4))
def test_pick_order_is_the_sort_by_score_then_turn_order(scores, tie_from):
    n = len(scores)
    tie_from %= n
    plain = [s for _, _, s in sorted([(-scores[s], (s - tie_from) % n, s) for s in range(n)])]
    assert R.pick_order(tuple(scores), tie_from) == plain


def test_values_json_of_anything():
    for values in [(1, 2, 3, 4, 5), (5, 4, 3, 2, 1), (1, 1, 1, 1, 1), (9, 2, 3, 4, 5), (0, 1, 2, 3, 4), (1, 2, 3)]:
        assert R.values_json(values) == dict(zip(D.KINDS, values))


def test_round_score_is_the_sum_of_the_scores_by_kind():
    rnd = random.Random(11)
    for options in ({}, {"market_bonus": "flat"}, {"l5_ignore_market_scope": "all"}):
        for players in (3, 4, 5):
            state = G.new_game(players, 3, options=options) if options else G.new_game(players, 3)
            while not state.is_over:
                if state.sweetness and all(state.sweetness):
                    for p in range(players):
                        assert state.round_score(p) == sum(state.score_by_kind(p))
                seat = state.to_move[0] if len(state.to_move) == 1 else rnd.choice(list(state.to_move))
                state.apply(seat, rnd.choice(state.legal_actions(seat)))


def test_max_level_matches_data():
    for score in range(-5, 200):
        assert R._max_level(score) == D.max_level(score)


def test_values_and_counts_json():
    for values in A.PERMUTATIONS:
        out = R.values_json(values)
        assert out == dict(zip(D.KINDS, values)) and list(out) == list(D.KINDS)
        out["x"] = 1  # each call is a fresh dict
        assert "x" not in R.values_json(values)
    assert R.values_json((1, 1, 1, 1, 1)) == dict(zip(D.KINDS, (1, 1, 1, 1, 1)))
    rnd = random.Random(5)
    for _ in range(200):
        counts = [rnd.choice((0, 0, 1, 2, 9)) for _ in range(5)]
        assert R.counts_json(counts) == {D.KINDS[k]: n for k, n in enumerate(counts) if n}


def test_exchange_events_get_their_own_data():
    """The exchanges' raw events are prebuilt and shared: each Event must get its own data."""
    rnd = random.Random(3)
    state = G.new_game(4, 6)
    seen = []
    while not state.is_over and len(seen) < 40:
        seat = state.to_move[0] if len(state.to_move) == 1 else rnd.choice(list(state.to_move))
        events = state.apply(seat, rnd.choice(state.legal_actions(seat)))
        for e in events:
            if e.kind.startswith("exchanged_with_"):
                e.data["changed"] = True
                seen.append(e)
    assert len(seen) >= 20
    assert all(next(iter(e.data)) == "seat" for e in seen)
    other = G.new_game(4, 6)
    rnd = random.Random(3)
    while not other.is_over:
        seat = other.to_move[0] if len(other.to_move) == 1 else rnd.choice(list(other.to_move))
        for e in other.apply(seat, rnd.choice(other.legal_actions(seat))):
            assert "changed" not in e.data


def test_exchange_codes_match_the_fields():
    """``_apply`` reads a prebuilt exchange's kinds from a table by object; a copy of the
    action (a deep-copied or unpickled state's legal list) is decoded from its fields."""
    exchanges = [a for a in A.ACTION_SPACE.actions if type(a) in (A.ExchangeWithPlayer, A.ExchangeWithMarket)]
    assert len(exchanges) == 5 * 20 + 20
    for a in exchanges:
        code = R.prebuilt_exchange_code(a)
        assert code >= 0 and code == R.exchange_code(copy.copy(a))
        assert R.prebuilt_exchange_code(copy.copy(a)) == -1
        if type(a) is A.ExchangeWithPlayer:
            assert (code // 25, D.KINDS[code // 5 % 5], D.KINDS[code % 5]) == (a.target, a.take, a.give)
        else:
            assert (D.KINDS[code // 5 % 5], D.KINDS[code % 5]) == (a.give, a.take)


def test_copied_actions_play_the_same():
    rnd = random.Random(8)
    for players in (3, 5):
        state = G.new_game(players, 11)
        while not state.is_over:
            seat = state.to_move[0] if len(state.to_move) == 1 else rnd.choice(list(state.to_move))
            twin = copy.deepcopy(state)
            pick = rnd.randrange(len(state.legal_actions(seat)))
            mine = state.legal_actions(seat)[pick]
            theirs = twin.legal_actions(seat)[pick]
            assert mine == theirs
            state.apply(seat, mine)
            twin.apply(seat, copy.copy(theirs))
            assert twin.to_json()["state"] == state.to_json()["state"]
            assert twin.view(None) == state.view(None)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 15), min_size=5, max_size=5))
def test_packed_trays(counts):
    """A tray is one integer, 4 bits a kind: its counts, kinds, size and pairs read back."""
    tray = R.pack(counts)
    assert R.unpack(tray) == counts
    assert R.kinds_of(tray) == sum(1 << k for k in range(5) if counts[k])
    state = G.new_game(3, 0)
    state.trays = [tray, 0, R.pack([1, 0, 0, 0, 0])]
    assert state.tray(0) == counts and state.tray_size(0) == sum(counts)
    assert state.tray_mask(0) == R.kinds_of(tray) and state.some_tray_empty()
    assert state.pair_signature(0) == sum(min(n, 2) * 3**k for k, n in enumerate(counts))
    for k in range(5):
        if counts[k]:
            assert R.unpack(tray - (1 << 4 * k)) == [n - (i == k) for i, n in enumerate(counts)]


def test_pack_refuses_what_does_not_fit():
    for bad in ([16, 0, 0, 0, 0], [0, 0, -1, 0, 0]):
        try:
            R.pack(bad)
        except ValueError:
            continue
        raise AssertionError(f"pack({bad}) did not raise")


def test_saved_trays_round_trip_and_overfull_ones_are_refused():
    from parlor.core.errors import StateError

    state = G.new_game(4, 9)
    saved = state.to_json()
    assert G.load_state(saved).to_json() == saved
    assert G.load_state(saved).trays == state.trays
    saved["state"]["trays"][0][0] = 16
    try:
        G.load_state(saved)
    except StateError:
        return
    raise AssertionError("a tray of 16 sweets of a kind loaded")
