"""The rules' fast paths (rules.py) against their plain forms.

Each was written for speed in the compiled build: a cached list, a table, a hand-written
sort or count. The plain form here is what the code did before; they must agree exactly.
"""

from __future__ import annotations

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


def test_deal_matches_the_plain_deal():
    for players in (3, 4, 5):
        for seed in range(40):
            state = G.new_game(players, seed)  # the deal is the first use of the game's rng
            assert (state.trays, state.market, state.supply) == plain_deal(players, Rng(seed))
            assert state.bowls == [0] * (players * 5)


def test_redeal_matches_the_plain_deal():
    for players in (3, 4, 5):
        for seed in range(20):
            state = G.new_game(players, seed)
            rng = Rng(state=state.rng.state)
            R.deal_sweets(state)
            trays, market, supply = plain_deal(players, rng)
            assert (state.trays, state.market, state.supply) == (trays, market, supply)
            assert state.rng.state == rng.state


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 120), min_size=3, max_size=5))
def test_result_is_rank_with_lower_totals_winning(scores):
    state = G.new_game(len(scores), 0)
    state.scores = list(scores)
    assert state.result() == Result.rank(tuple(scores), (0,) * len(scores), higher_wins=False)


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
