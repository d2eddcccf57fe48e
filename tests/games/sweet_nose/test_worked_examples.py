"""The spec's worked examples (§10, SN-EX-01..19, including the seed's) as scenario tests,
one test per shop tile ability, and one test per rule option."""

from __future__ import annotations

import dataclasses
import json

import pytest

from parlor.core import IllegalAction, Rng
from parlor.games.sweet_nose import actions as A
from parlor.games.sweet_nose.data import OPTION_DEFAULTS, TILE_INDEX, TILES, TILES_OF_LEVEL, max_level
from parlor.games.sweet_nose.options import Options
from parlor.games.sweet_nose.rules import ASSIGN, EXCHANGE, OVER, SHOP, TASTE

from .helpers import BRITTLE, HAWS, MUNG, PEACH, ZHUANG, G, bowl, held, market, plus, scenario, tray

# SN-EX-01/02: seat 0 holds 3 mung, 2 peach, 1 brittle, 1 zhuangyuan, 1 haws.
EX02_CARDS = {MUNG: 5, PEACH: 1, BRITTLE: 2, ZHUANG: 4, HAWS: 3}
EX02_TRAY = {MUNG: 3, PEACH: 2, BRITTLE: 1, ZHUANG: 1, HAWS: 1}
EX01_MARKET = {HAWS: 1, MUNG: 2}


def ex02(**extra):
    data = {
        "phase": "score",
        "trays": [EX02_TRAY, None, None],
        "bowls": [{}, None, None],
        "market": EX01_MARKET,
        "sweetness": [EX02_CARDS, None, None],
        **extra,
    }
    return scenario(**data)


def by_kind(state, seat):
    return dict(zip(A.KINDS, state.score_by_kind(seat)))


def legal_of(state, seat, cls):
    return [a for a in state.legal_actions(seat) if type(a) is cls]


# ---------------------------------------------------------------------------- §10 examples
def test_ex01_seed_market_bonus_per_sweet():
    state = ex02()
    assert by_kind(state, 0)[HAWS] == (3 + 1) * 1 == 4
    assert by_kind(state, 0)[MUNG] == (5 + 2) * 3 == 21
    flat = ex02(options={"market_bonus": "flat"})
    assert by_kind(flat, 0)[MUNG] == (5 + 1) * 3 == 18


def test_ex02_round_score_shop_level_and_ignoring_the_market():
    state = ex02()
    assert state.round_scores[0] == 33 and max_level(33) == 5
    assert (0, 5) in state.picks
    ignoring = ex02(ignoring=[True, False, False])
    assert ignoring.round_scores[0] == 15 + 2 + 2 + 4 + 3 == 26
    assert (0, 4) in ignoring.picks


@pytest.mark.parametrize("players, bag, left_in_bag, supply_left", [(3, 5, 1, 18), (4, 7, 3, 10), (5, 8, 0, 2)])
def test_ex03_setup_counts(players, bag, left_in_bag, supply_left):
    for seed in range(40):
        state = G.new_game(players, seed)
        assert [sum(state.tray(p)) for p in range(players)] == [8] * players
        assert not any(state.bowls) and sum(state.market) == 3
        assert sum(state.supply) == supply_left
        in_trays = [sum(state.tray(p)[k] for p in range(players)) for k in range(5)]
        # The supply started with 9 - bag of each kind; the market's extra sweets came from it.
        assert all(state.supply[k] <= 9 - bag for k in range(5))
        assert all(in_trays[k] <= bag for k in range(5))
        if players == 4:  # the market is the 3 left in the bag
            assert state.supply == (2, 2, 2, 2, 2)
            assert [in_trays[k] + state.market[k] for k in range(5)] == [7] * 5
        if players == 5:  # 3 different kinds from a supply of one each
            assert sorted(state.market) == [0, 0, 1, 1, 1] and in_trays == [8] * 5
        if players == 3:
            from_bag = [bag - in_trays[k] for k in range(5)]
            assert sum(from_bag) == left_in_bag == 1


def test_ex04_eligibility_boundaries():
    scores = [31, 30, 26, 25, 22, 21, 19, 18, 17, 16]
    assert [max_level(s) for s in scores] == [5, 4, 4, 3, 3, 2, 2, 1, 1, 0]


def test_ex05_exchange_a_kinds_must_differ():
    state = scenario(trays=[{MUNG: 2, HAWS: 1}, {MUNG: 3}, None])
    before = state.to_json()
    with pytest.raises(IllegalAction):
        state.apply(0, A.ExchangeWithPlayer(1, MUNG, MUNG))
    assert state.to_json() == before
    bowl0, bowl1 = bowl(state, 0), bowl(state, 1)
    state.apply(0, A.ExchangeWithPlayer(1, MUNG, HAWS))
    assert tray(state, 0) == {MUNG: 2} and bowl(state, 0) == plus(bowl0, MUNG)
    assert tray(state, 1) == {MUNG: 2} and bowl(state, 1) == plus(bowl1, HAWS)


def test_ex06_exchange_b_needs_a_different_kind():
    state = scenario(trays=[{ZHUANG: 4}, None, None], market={ZHUANG: 3})
    assert not legal_of(state, 0, A.ExchangeWithMarket)
    state = scenario(trays=[{ZHUANG: 3, BRITTLE: 1}, None, None], market={ZHUANG: 3})
    assert legal_of(state, 0, A.ExchangeWithMarket) == [A.ExchangeWithMarket(BRITTLE, ZHUANG)]
    state.apply(0, A.ExchangeWithMarket(BRITTLE, ZHUANG))
    assert market(state) == {ZHUANG: 2, BRITTLE: 1} and tray(state, 0) == {ZHUANG: 4}


def ex07(**options):
    return scenario(
        players=4,
        round=2,
        start_player=1,
        options=options,
        trays=[None, {BRITTLE: 2, MUNG: 2}, {PEACH: 1}, None],
        tiles=[None, "l3_send_back", None, None],
    )


def test_ex07_phase_ends_in_the_middle_of_a_turn():
    state = ex07()
    assert state.to_move == (1,)
    before = held(state, 2)
    events = state.apply(1, A.ExchangeWithPlayer(2, PEACH, BRITTLE))
    kinds = [e.kind for e in events]
    assert kinds.index("exchanged_with_player") < kinds.index("exchange_phase_ended")
    assert next(e for e in events if e.kind == "exchange_phase_ended").data["reason"] == "tray_empty"
    assert held(state, 2) == plus(plus(before, PEACH, -1), BRITTLE)
    assert "shop_used" not in kinds
    assert any(e.kind == "shop_returned" and e.data == {"seat": 1, "tile": "l3_send_back"} for e in events)
    # With phase_end_timing="end_of_turn" seat 1 may still use the tile.
    late = ex07(phase_end_timing="end_of_turn")
    late.apply(1, A.ExchangeWithPlayer(2, PEACH, BRITTLE))
    assert late.step == EXCHANGE and late.to_move == (1,)
    assert legal_of(late, 1, A.UseSendBack) and A.END_TURN in late.legal_actions(1)
    late.apply(1, A.END_TURN)
    assert late.step != EXCHANGE


def test_ex08_picking_order_ties_by_next_round_order():
    state = scenario(players=4, phase="choose_shop", start_player=0, round_scores=[24, 31, 24, 16])
    assert state.start_player == 1 and state.turn_order() == [1, 2, 3, 0]
    assert state.picks == ((1, 5), (2, 3), (0, 3))
    assert state.to_move == (1,) and len(state.legal_actions(1)) == 10
    state.apply(1, A.ChooseShop("l5_change_taste"))
    assert state.to_move == (2,)
    assert {TILES[TILE_INDEX[a.tile]].level for a in state.legal_actions(2)} == {1, 2, 3}


def test_ex09_tie_for_the_highest_score():
    state = scenario(players=3, phase="choose_shop", start_player=2, round_scores=[28, 20, 28])
    assert state.start_player == 2
    assert state.picks == ((2, 4), (0, 4), (1, 2))


def test_ex10_eligible_tiles_run_out():
    state = scenario(players=3, phase="choose_shop", start_player=0, round_scores=[18, 17, 18])
    assert state.start_player == 0 and [s for s, _ in state.picks] == [0, 2, 1]
    state.apply(0, A.ChooseShop("l1_stash"))
    # seat 2's only choice is played for it; seat 1 gets nothing; round 2 begins
    assert state.step == ASSIGN and state.round == 2
    assert state.held == (TILES_OF_LEVEL[1][0], -1, TILES_OF_LEVEL[1][1])


def test_ex11_twin_trade():
    state = scenario(
        round=2, trays=[{HAWS: 2, MUNG: 1}, {HAWS: 1, ZHUANG: 2}, None], tiles=["l1_twin_trade", None, None]
    )
    bowl0, bowl1 = bowl(state, 0), bowl(state, 1)
    state.apply(0, A.UseTwinTrade(1, HAWS, HAWS))
    assert tray(state, 0) == {HAWS: 1, MUNG: 1} and bowl(state, 0) == plus(bowl0, HAWS)
    assert tray(state, 1) == {ZHUANG: 2} and bowl(state, 1) == plus(bowl1, HAWS)
    assert state.to_move == (0,) and not state.exchanged  # the exchange is still to come


def test_ex12_market_to_bowl():
    state = scenario(
        round=2, trays=[{ZHUANG: 1, PEACH: 2}, None, None], market={MUNG: 3}, tiles=["l2_market_to_bowl", None, None]
    )
    bowl0 = bowl(state, 0)
    state.apply(0, A.UseMarketToBowl(ZHUANG, MUNG))
    assert bowl(state, 0) == plus(bowl0, MUNG) and tray(state, 0) == {PEACH: 2}
    assert market(state) == {MUNG: 2, ZHUANG: 1}
    assert state.held[0] == -1 and state.active == 1  # exchange and shop both done: the turn ended


def test_ex13_change_taste_others_see_only_the_kinds():
    cards = {MUNG: 5, PEACH: 2, BRITTLE: 3, ZHUANG: 4, HAWS: 1}
    state = scenario(round=2, sweetness=[cards, None, None], tiles=["l5_change_taste", None, None])
    events = state.apply(0, A.UseChangeTaste(MUNG, HAWS))
    assert state.view(0)["players_info"][0]["sweetness"] == {**cards, MUNG: 1, HAWS: 5}
    for seat in (1, 2, None):
        seen = [e for e in events if e.visible(seat)]
        assert any(e.kind == "shop_used" and e.data["kinds"] == [MUNG, HAWS] for e in seen)
        assert all("values" not in e.data for e in seen)
        assert state.view(seat)["players_info"][0]["sweetness"] is None
    assert state.view(1, recall=True)["swaps"] == [{"seat": 0, "kinds": [MUNG, HAWS]}]


def finals(totals, **extra):
    """A last-round phase-3 scenario whose scoring brings the totals to ``totals``."""
    gained = scenario(phase="score", round=3, **extra).round_scores
    return scenario(phase="score", round=3, scores=[t - g for t, g in zip(totals, gained)], **extra)


def test_ex14_ascension_ends_at_100():
    data = {"phase": "score", "round": 5, "options": {"ascension": True}, "bowls": [{HAWS: 1}, None, None]}
    gained = scenario(**data).round_scores
    state = scenario(**data, scores=[t - g for t, g in zip([95, 102, 88], gained)])
    assert state.step == OVER and state.scores == [95, 102, 88]
    assert state.result().winners == (2,)
    assert any(state.bowls)  # no phase 4: the bowls were not emptied


def test_ex15_shopkeeper_auction():
    state = G.new_game(4, 1, {"shopkeeper": True, "first_start_player": 0})
    assert state.to_move == (0,)
    state.apply(0, A.Bid(3))
    state.apply(1, A.Bid(5))
    state.apply(2, A.PASS)
    before = state.to_json()
    with pytest.raises(IllegalAction):
        state.apply(3, A.Bid(5))  # occupied by seat 1
    assert state.to_json() == before
    state.apply(3, A.Bid(2))
    with pytest.raises(IllegalAction):
        state.apply(0, A.Bid(1))  # backwards
    state.apply(0, A.Bid(6))
    state.apply(1, A.PASS)
    state.apply(3, A.PASS)
    state.apply(0, A.PASS)
    assert state.scores == [6, 5, 0, 2]
    assert state.picks == ((0, 5), (1, 4), (3, 3))
    state.apply(0, A.ChooseShop("l5_ignore_market"))
    state.apply(1, A.ChooseShop("l4_double_trade"))
    state.apply(3, A.ChooseShop("l3_send_back"))
    assert state.round == 1 and state.step == ASSIGN
    for seat in range(4):
        state.apply(seat, A.ASSIGN[(1, 2, 3, 4, 5)])
    assert state.step == EXCHANGE and state.to_move == (0,)
    assert A.IGNORE_MARKET in state.legal_actions(0)  # usable in round 1


def test_ex16_shared_win():
    state = finals([70, 65, 65])
    assert state.step == OVER
    result = state.result()
    assert result.winners == (1, 2) and result.places == (3, 1, 1)


def test_ex17_no_legal_exchange_and_stalemate():
    data = {
        "trays": [{MUNG: 1}, {MUNG: 2}, {MUNG: 1}],
        "market": {MUNG: 3},
        "bowls": [{PEACH: 7}, {BRITTLE: 6}, {ZHUANG: 4, HAWS: 3}],
        "tiles": ["l2_take_back", None, None],
    }
    state = scenario(**data)
    assert state.legal_actions(0) == [A.TAKE_BACK[1], A.END_TURN]
    events = state.apply(0, A.END_TURN)
    ended = [e for e in events if e.kind == "exchange_phase_ended"]
    assert ended and ended[0].data["reason"] == "stalemate"
    assert sum(e.kind == "turn_skipped" for e in events) == 2


def test_ex18_assignments_must_be_permutations():
    state = scenario(phase="set_sweetness")
    with pytest.raises(IllegalAction):
        state.apply(0, A.AssignSweetness((5, 5, 3, 2, 1)))
    with pytest.raises(IllegalAction):
        state.apply_json(0, {"type": "assign_sweetness", "values": [5, 5, 3, 2, 1]})
    state.apply_json(0, {"type": "assign_sweetness", "values": [4, 2, 5, 1, 3]})
    assert state.sweetness[0] == (4, 2, 5, 1, 3) and state.to_move == (1, 2)


def test_ex19_carry_over_between_rounds():
    state = scenario(
        phase="score",
        trays=[{BRITTLE: 3}, None, None],
        bowls=[{HAWS: 4, ZHUANG: 1}, None, None],
        market={MUNG: 1, BRITTLE: 2},
    )
    assert tray(state, 0) == {BRITTLE: 3, HAWS: 4, ZHUANG: 1} and bowl(state, 0) == {}
    assert market(state) == {MUNG: 1, BRITTLE: 2}


# ---------------------------------------------------------------------------- shop tiles (§5)
def tile_state(tile, **data):
    data.setdefault("round", 2)
    data.setdefault("tiles", [tile, None, None])
    return scenario(**data)


def test_tile_stash_on_the_last_tray_sweet_ends_the_phase():
    state = tile_state("l1_stash", trays=[{HAWS: 1}, None, None])
    before = bowl(state, 0)
    events = state.apply(0, A.STASH[4])
    assert any(e.kind == "exchange_phase_ended" for e in events)
    assert held(state, 0)[HAWS] == before.get(HAWS, 0) + 1  # the sweet stayed with seat 0 (bowl, now tray)


def test_tile_twin_trade_changes_both_scores():
    data = {
        "trays": [{HAWS: 2, MUNG: 1}, {HAWS: 1, ZHUANG: 2}, None],
        "sweetness": [[1, 2, 3, 4, 5]] * 3,
        "market": {PEACH: 3},
    }
    state = tile_state("l1_twin_trade", **data)
    scores = [state.round_score(p) for p in range(3)]
    state.apply(0, A.UseTwinTrade(1, HAWS, HAWS))
    assert [state.round_score(p) for p in range(3)] == scores  # a same-kind trade only moves them into bowls
    assert tray(state, 1) == {ZHUANG: 2}  # ... out of reach: seat 1 can no longer give haws away
    assert not any(a.take == HAWS and a.target == 1 for a in legal_of(state, 0, A.ExchangeWithPlayer))
    anyk = tile_state("l1_twin_trade", options={"l1_twin_trade_kind_rule": "any"}, **data)
    anyk.apply(0, A.UseTwinTrade(1, ZHUANG, HAWS))
    assert anyk.round_score(0) == scores[0] - 5 + 4 and anyk.round_score(1) == scores[1] - 4 + 5


def test_tile_take_back_keeps_the_tray_alive():
    state = tile_state("l2_take_back", trays=[{HAWS: 1}, {MUNG: 4}, None], bowls=[{PEACH: 7}, None, None])
    state.apply(0, A.TAKE_BACK[1])
    assert tray(state, 0) == {HAWS: 1, PEACH: 1}
    state.apply(0, A.ExchangeWithPlayer(1, MUNG, PEACH))
    assert state.step == EXCHANGE and tray(state, 0) == {HAWS: 1}  # without the tile the phase would have ended
    plain = scenario(trays=[{HAWS: 1}, {MUNG: 4}, None], bowls=[{PEACH: 7}, None, None])
    plain.apply(0, A.ExchangeWithPlayer(1, MUNG, HAWS))
    assert plain.step != EXCHANGE


def test_tile_market_to_bowl_keeps_the_sweet_out_of_reach():
    state = tile_state("l2_market_to_bowl", trays=[{ZHUANG: 1, PEACH: 2}, None, None], market={MUNG: 3})
    state.apply(0, A.UseMarketToBowl(ZHUANG, MUNG))
    assert state.active == 1
    assert not any(a.take == MUNG and a.target == 0 for a in legal_of(state, 1, A.ExchangeWithPlayer))
    assert bowl(state, 0).get(MUNG, 0) >= 1


def test_tile_bowl_swap_changes_scores():
    state = tile_state(
        "l3_bowl_swap",
        trays=[{MUNG: 2}, {PEACH: 2}, None],
        bowls=[{HAWS: 6}, {MUNG: 6}, None],
        sweetness=[[1, 2, 3, 4, 5]] * 3,
    )
    before = [state.round_score(p) for p in range(3)]
    state.apply(0, A.UseBowlSwap(1, HAWS, MUNG))
    assert bowl(state, 0) == {HAWS: 5, MUNG: 1} and bowl(state, 1) == {MUNG: 5, HAWS: 1}
    bonus_m, bonus_h = state.market[0], state.market[4]
    assert state.round_score(0) == before[0] - (5 + bonus_h) + (1 + bonus_m)
    assert state.round_score(1) == before[1] + (5 + bonus_h) - (1 + bonus_m)


def test_tile_send_back_refills_a_tray():
    state = tile_state("l3_send_back", trays=[None, {PEACH: 1}, None], bowls=[None, {HAWS: 7}, None])
    state.apply(0, A.SEND_BACK[1][4])
    assert tray(state, 1) == {PEACH: 1, HAWS: 1} and bowl(state, 1) == {HAWS: 6}
    state.apply(0, next(a for a in legal_of(state, 0, A.ExchangeWithPlayer) if a.target == 1 and a.take == PEACH))
    assert state.step == EXCHANGE  # seat 1's tray still holds the haws


def test_tile_rearrange_moves_a_bowl_sweet_within_reach():
    state = tile_state("l4_rearrange", trays=[{MUNG: 1}, None, None], bowls=[{HAWS: 7}, None, None])
    state.apply(0, A.REARRANGE[4][0])
    assert tray(state, 0) == {HAWS: 1} and bowl(state, 0) == {HAWS: 6, MUNG: 1}
    assert all(a.give == HAWS for a in legal_of(state, 0, A.ExchangeWithPlayer))


def test_tile_double_trade_changes_scores():
    state = tile_state("l4_double_trade", trays=[{HAWS: 2, MUNG: 1}, {MUNG: 3}, None], sweetness=[[1, 2, 3, 4, 5]] * 3)
    before = [state.round_score(p) for p in range(3)]
    action = A.DOUBLE_TRADE[(1, (4, 4), (0, 0))]
    assert action in state.legal_actions(0)
    state.apply(0, action)
    assert tray(state, 0) == {MUNG: 3} and tray(state, 1) == {MUNG: 1, HAWS: 2}
    diff = 2 * ((5 + state.market[4]) - (1 + state.market[0]))
    assert state.round_score(0) == before[0] - diff and state.round_score(1) == before[1] + diff


def test_tile_change_taste_changes_the_score():
    state = tile_state(
        "l5_change_taste",
        trays=[{HAWS: 8}, None, None],
        bowls=[{}, None, None],
        sweetness=[[1, 2, 3, 4, 5], None, None],
    )
    before = state.round_score(0)
    state.apply(0, A.UseChangeTaste(MUNG, HAWS))
    assert state.sweetness[0] == (5, 2, 3, 4, 1)
    assert state.round_score(0) == before - 4 * 8


def test_tile_ignore_market_lowers_the_score():
    state = tile_state(
        "l5_ignore_market",
        trays=[EX02_TRAY, None, None],
        bowls=[{}, None, None],
        market=EX01_MARKET,
        sweetness=[EX02_CARDS, None, None],
    )
    assert state.round_score(0) == 33
    state.apply(0, A.IGNORE_MARKET)
    assert state.round_score(0) == 26 and state.ignoring[0]


# ---------------------------------------------------------------------------- options (§9)
def test_option_defaults_match_the_spec_data():
    defaults = {f.name: f.default for f in dataclasses.fields(Options)}
    assert defaults == {k: OPTION_DEFAULTS[k] for k in defaults}
    assert set(defaults) == set(OPTION_DEFAULTS)


def test_option_market_bonus():
    assert ex02(options={"market_bonus": "flat"}).round_scores[0] == 30


def test_option_exchange_required():
    state = scenario()
    assert A.END_TURN not in state.legal_actions(0)
    free = scenario(options={"exchange_required": False})
    free.apply(0, A.END_TURN)
    assert free.active == 1


def test_option_end_phase_on_stalemate():
    data = {"trays": [{MUNG: 1}, {MUNG: 2}, {MUNG: 1}], "market": {MUNG: 3}}
    assert scenario(**data).step != EXCHANGE  # three skipped turns end phase 2 at once
    events_state = scenario(
        options={"end_phase_on_stalemate": False, "exchange_required": False}, trays=[{MUNG: 1}, {HAWS: 1}, None]
    )
    for _ in range(6):
        events_state.apply(events_state.active, A.END_TURN)
    assert events_state.step == EXCHANGE and events_state.quiet_turns == 6


def test_option_phase_end_timing():
    test_ex07_phase_ends_in_the_middle_of_a_turn()


def test_option_phase2_turn_limit():
    state = scenario(options={"phase2_turn_limit": 2, "exchange_required": False})
    state.apply(0, A.END_TURN)
    events = state.apply(1, A.END_TURN)
    assert next(e for e in events if e.kind == "exchange_phase_ended").data["reason"] == "turn_limit"
    unlimited = G.new_game(3, 0, {"phase2_turn_limit": None})
    assert unlimited.options.phase2_turn_limit is None
    assert G.load_state(json.loads(unlimited.to_json_text())).options.phase2_turn_limit is None


def test_option_l1_twin_trade_kind_rule():
    data = {"trays": [{HAWS: 2}, {MUNG: 1, HAWS: 1}, None]}
    same = tile_state("l1_twin_trade", **data)
    assert {(a.take, a.give) for a in legal_of(same, 0, A.UseTwinTrade) if a.target == 1} == {(HAWS, HAWS)}
    free = tile_state("l1_twin_trade", options={"l1_twin_trade_kind_rule": "any"}, **data)
    assert {(a.take, a.give) for a in legal_of(free, 0, A.UseTwinTrade) if a.target == 1} == {
        (HAWS, HAWS),
        (MUNG, HAWS),
    }


def test_option_l2_market_to_bowl_mode():
    data = {"trays": [{ZHUANG: 2, PEACH: 2}, None, None], "market": {MUNG: 3}}
    modify = tile_state("l2_market_to_bowl", **data)
    modify.apply(0, A.ExchangeWithMarket(ZHUANG, MUNG))
    assert modify.active == 1  # the tile needs the turn's own exchange B: nothing left to do
    extra = tile_state("l2_market_to_bowl", options={"l2_market_to_bowl_mode": "extra"}, **data)
    extra.apply(0, A.ExchangeWithMarket(ZHUANG, MUNG))
    assert extra.active == 0
    extra.apply(0, A.UseMarketToBowl(PEACH, MUNG))
    assert extra.active == 1 and tray(extra, 0) == {ZHUANG: 1, PEACH: 1, MUNG: 1}


def test_option_l4_double_trade_short():
    data = {"trays": [{HAWS: 1}, {MUNG: 3}, None]}
    assert not legal_of(tile_state("l4_double_trade", **data), 0, A.UseDoubleTrade)
    short = tile_state("l4_double_trade", options={"l4_double_trade_short": True}, **data)
    assert A.DOUBLE_TRADE[(1, (4,), (0,))] in short.legal_actions(0)


def test_option_l5_change_taste_timing():
    data = {
        "tiles": [None, "l5_change_taste", None],
        "trays": [{HAWS: 1}, None, None],
        "sweetness": [None, [1, 2, 3, 4, 5], None],
    }
    state = scenario(round=2, phase="score", options={"l5_change_taste_timing": "phase_end"}, **data)
    assert state.step == TASTE and state.to_move == (1,) and not state.revealed
    assert A.DECLINE in state.legal_actions(1)
    state.apply(1, A.UseChangeTaste(PEACH, HAWS))
    assert state.revealed and state.past[-1][1][1] == (1, 5, 3, 4, 2)
    on_turn = scenario(round=2, active=1, **data, options={"l5_change_taste_timing": "phase_end"})
    assert not legal_of(on_turn, 1, A.UseChangeTaste)


def test_option_l5_change_taste_public():
    state = tile_state("l5_change_taste", options={"l5_change_taste_public": False})
    events = state.apply(0, A.UseChangeTaste(MUNG, HAWS))
    for e in events:
        if e.visible(1):
            assert "kinds" not in e.data and "values" not in e.data
    assert state.view(1, recall=True)["swaps"] == []


def test_option_l5_ignore_market_scope():
    data = {
        "trays": [EX02_TRAY, EX02_TRAY, None],
        "bowls": [{}, {}, None],
        "market": EX01_MARKET,
        "sweetness": [EX02_CARDS, EX02_CARDS, None],
        "ignoring": [True, False, False],
    }
    assert scenario(phase="score", **data).round_scores[:2] == (26, 33)
    assert scenario(phase="score", options={"l5_ignore_market_scope": "all"}, **data).round_scores[:2] == (26, 26)


def test_option_l5_ignore_market_timing():
    data = {
        "trays": [EX02_TRAY, None, None],
        "bowls": [{}, None, None],
        "market": EX01_MARKET,
        "sweetness": [EX02_CARDS, None, None],
        "tiles": ["l5_ignore_market", None, None],
        "round": 2,
    }
    assert A.IGNORE_MARKET in scenario(**data).legal_actions(0)
    opts = {"l5_ignore_market_timing": "scoring"}
    assert A.IGNORE_MARKET not in scenario(options=opts, **data).legal_actions(0)
    state = scenario(phase="score", options=opts, **data)
    assert state.revealed and state.to_move == (0,)
    assert state.legal_actions(0) == [A.IGNORE_MARKET, A.DECLINE]
    state.apply(0, A.IGNORE_MARKET)
    assert state.round_scores[0] == 26


def test_option_shop_tile_use():
    optional = tile_state("l5_ignore_market")
    optional.apply(0, legal_of(optional, 0, A.ExchangeWithPlayer)[0])
    assert optional.legal_actions(0) == [A.IGNORE_MARKET, A.END_TURN]
    must = tile_state("l5_ignore_market", options={"shop_tile_use": "mandatory_first_turn"})
    assert A.END_TURN not in must.legal_actions(0)
    must.apply(0, legal_of(must, 0, A.ExchangeWithPlayer)[0])
    # the tile use was the only legal move left, so the engine played it
    assert must.ignoring[0] and must.held[0] == -1 and must.active == 1


def test_option_shop_tiles_visible():
    state = scenario(players=3, phase="choose_shop", round_scores=[31, 8, 8], options={"shop_tiles_visible": False})
    assert state.legal_actions(0) == [A.CHOOSE_SHOP_LEVEL[lv] for lv in (1, 2, 3, 4, 5)]
    events = state.apply(0, A.CHOOSE_SHOP_LEVEL[5])
    tile = state.held[0]
    assert TILES[tile].level == 5
    assert state.view(1)["players_info"][0]["tile"] == {"level": 5}
    assert state.view(0)["players_info"][0]["tile"]["id"] == TILES[tile].id
    assert all(TILES[tile].id not in json.dumps(e.data) for e in events if e.visible(1))
    seen = {state.determinize(1, Rng(s)).held[0] for s in range(30)}
    assert seen == set(TILES_OF_LEVEL[5])


def test_option_shop_pick_required():
    assert A.DECLINE not in scenario(phase="choose_shop", round_scores=[31, 8, 8]).legal_actions(0)
    state = scenario(phase="choose_shop", round_scores=[31, 8, 8], options={"shop_pick_required": False})
    state.apply(0, A.DECLINE)
    assert state.held == (-1, -1, -1) and state.step == ASSIGN


def test_option_shop_pick_order():
    data = {"players": 4, "phase": "choose_shop", "start_player": 0, "round_scores": [24, 31, 24, 16]}
    state = scenario(**data, options={"shop_pick_order": "start_player_first"})
    assert state.picks == ((0, 3), (1, 5), (2, 3)) and state.start_player == 1


def test_option_shop_pick_tie_break():
    data = {"players": 4, "phase": "choose_shop", "start_player": 0, "round_scores": [24, 31, 24, 16]}
    state = scenario(**data, options={"shop_pick_tie_break": "current_round_order"})
    assert state.picks == ((1, 5), (0, 3), (2, 3))


def test_option_top_tie_start_player():
    starts = {
        scenario(
            seed=s,
            phase="choose_shop",
            start_player=2,
            round_scores=[28, 20, 28],
            options={"top_tie_start_player": "random"},
        ).start_player
        for s in range(20)
    }
    assert starts == {0, 2}


def test_option_first_start_player():
    assert {G.new_game(3, s).start_player for s in range(20)} == {0, 1, 2}
    assert {G.new_game(3, s, {"first_start_player": 2}).start_player for s in range(5)} == {2}


def test_option_redeal_each_round():
    state = scenario(
        phase="choose_shop",
        round_scores=[8, 8, 8],
        trays=[{MUNG: 8}, {PEACH: 8}, {HAWS: 8}],
        options={"redeal_each_round": True},
    )
    assert state.round == 2 and [sum(state.tray(p)) for p in range(3)] == [8, 8, 8]
    assert tray(state, 0) != {MUNG: 8} or tray(state, 1) != {PEACH: 8}


def test_option_ascension_and_target():
    state = scenario(phase="score", round=3, options={"ascension": True})
    assert state.step != OVER and (state.step == SHOP or state.round == 4)
    low = scenario(phase="score", round=1, options={"ascension": True, "ascension_target": 10})
    assert low.step == OVER


def test_option_shopkeeper_and_max_bid():
    state = G.new_game(3, 0, {"shopkeeper": True, "shopkeeper_max_bid": 4, "first_start_player": 0})
    assert state.legal_actions(0) == [A.Bid(1), A.Bid(2), A.Bid(3), A.Bid(4), A.PASS]
    assert G.new_game(3, 0).step == ASSIGN


def test_option_shopkeeper_bid_rule():
    state = G.new_game(3, 0, {"shopkeeper": True, "first_start_player": 0, "shopkeeper_bid_rule": "must_raise"})
    state.apply(0, A.Bid(10))
    assert min(a.space for a in legal_of(state, 1, A.Bid)) == 11
    free = G.new_game(3, 0, {"shopkeeper": True, "first_start_player": 0})
    free.apply(0, A.Bid(10))
    assert min(a.space for a in legal_of(free, 1, A.Bid)) == 1


# ---------------------------------------------------------------------------- scenarios and saved states
@pytest.mark.parametrize(
    "data, words",
    [
        ({"colour": "red"}, "unknown scenario key"),
        ({"phase": "dessert"}, "phase must be one of"),
        ({"trays": [{"chocolate": 1}, None, None]}, "unknown sweet 'chocolate'"),
        ({"trays": [{MUNG: 9}, {MUNG: 1}, None]}, "more than 9 mung_bean_cake"),
        ({"trays": [{MUNG: 3}, None, None], "bowls": [{HAWS: 3}, None, None]}, "it must hold 8"),
        ({"market": {MUNG: 2}}, "exactly 3"),
        ({"sweetness": [[1, 1, 2, 3, 4], None, None]}, "each once"),
        ({"tiles": ["l9_magic", None, None]}, "unknown shop tile"),
        ({"tiles": ["l1_stash", "l1_stash", None]}, "same tile"),
        ({"phase": "auction"}, "needs the option shopkeeper"),
        ({"phase": "choose_shop"}, "round_scores must list"),
        ({"round": 4}, "round must be 1..3"),
        ({"players": 6}, "3-5 players"),
        ({"start_player": 3}, "expected a seat 0..2"),
        ({"trays": [{}, None, None], "bowls": [{HAWS: 8}, None, None]}, "a tray is empty"),
    ],
)
def test_scenario_errors_are_clear(data, words):
    from parlor.core import ScenarioError

    with pytest.raises(ScenarioError, match=words):
        G.scenario(data)


def test_damaged_saved_states_raise_state_error():
    from parlor.core import StateError

    state = G.new_game(4, 2)
    good = state.to_json()
    damages = [
        lambda d: d["state"]["trays"][0].__setitem__(0, 9),
        lambda d: d["state"]["market"].append(1),
        lambda d: d["state"]["sweetness"].__setitem__(0, [1, 1, 1, 1, 1]),
        lambda d: d["state"]["held"].__setitem__(0, "l0_nothing"),
        lambda d: d["state"].__setitem__("step", "dessert"),
        lambda d: d["state"].pop("scores"),
        lambda d: d["state"].__setitem__("active", 7),
    ]
    for damage in damages:
        data = json.loads(json.dumps(good))
        damage(data)
        with pytest.raises(StateError):
            G.load_state(data)
    assert G.load_state(json.loads(json.dumps(good))).to_json() == good


def test_a_bad_seat_in_view_is_a_parlor_error():
    from parlor.core import ParlorError

    with pytest.raises(ParlorError):
        G.new_game(3, 0).view(3)


def test_action_json_forms():
    pair = {"type": "use_double_trade", "target": 1, "give": [HAWS, MUNG], "take": [BRITTLE, BRITTLE]}
    action = G.action_from_json(pair)
    assert action is A.DOUBLE_TRADE[(1, (0, 4), (2, 2))]
    assert G.action_from_json(json.loads(json.dumps(action.to_json()))) is action
    assert len(A.ACTION_SPACE) == G.num_actions < 2000
    for bad in ({"type": "assign_sweetness", "values": [[1]]}, {"type": "bid", "space": 100}, {"type": "fly"}):
        with pytest.raises(IllegalAction):
            G.action_from_json(bad)
