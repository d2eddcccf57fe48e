"""The worked examples WE 1-22 of the spec (docs/rules/mamma_mia.md §10), one test each,
plus one test per rule option of §12 that shows the option changes behaviour."""

from __future__ import annotations

import pytest

from parlor.core import IllegalAction, OptionError
from parlor.games.mamma_mia import (
    ChooseJoker,
    ChooseRarest,
    CompleteFromHand,
    Decline,
    Draw,
    DrawCount,
    NoOrder,
    Options,
    PlayOrder,
    PlayToppings,
    SkipToppings,
)
from parlor.games.mamma_mia.data import KINDS, MAMMA_MIA_CARD, ORDERS
from parlor.games.mamma_mia.invariants import check_invariants
from parlor.games.mamma_mia.rules import JOKER, ORDER, RAREST, REFILL, TOP_UP, TOPPINGS

from .helpers import (
    BROWN,
    GREEN,
    G,
    assert_illegal,
    counts,
    decline_if_asked,
    first,
    hand,
    kinds_of,
    mamma_mia_in_supply,
    names,
    order_id,
    oven,
    play,
    revealed,
    scenario,
    supply_counts,
)

TOPUP = CompleteFromHand()


def test_we01_setup_sizes():
    expected = {2: (8, 28, 5, 3), 3: (10, 32, 3, 2), 4: (12, 36, 1, 1), 5: (13, 35, 0, 0)}
    for players, (in_play, supply, boxed, boxed_decks) in expected.items():
        for seed in range(5):
            s = G.new_game(players, seed)
            assert check_invariants(s) == []
            assert s.round == 1 and s.step == TOPPINGS and s.holder == -1
            for p in range(players):
                assert sum(hand(s, p).values()) == 6
                assert len(s.hand_orders[p]) == 1
                assert ORDERS[s.hand_orders[p][0]].deck == s.decks[p]
                assert len(s.waiters[p]) == 7
                assert all(ORDERS[o].deck == s.decks[p] for o in s.waiters[p])
                info = s.view(p)["players_info"][p]
                assert (info["toppings_in_hand"], info["orders_in_hand"], info["waiter_size"]) == (6, 1, 7)
            assert len(set(s.decks)) == players
            assert 5 - len(set(s.decks)) == boxed_decks
            assert s.box == (boxed,) * 5
            for k in range(5):
                in_hands = sum(s.hand_toppings[p * 5 + k] for p in range(players))
                assert in_hands + s.supply.count(k) == in_play
            # The Mamma Mia! card is in the supply, never in a hand.
            assert mamma_mia_in_supply(s) == 1
            assert len(s.supply) == supply + 1
            assert s.view(None)["supply_size"] == supply + 1


def _we02(options=None):
    return scenario(
        options=options or {},
        hands=[
            {"toppings": {"salami": 3, "olive": 2, "mushroom": 1}, "orders": ["green_four_salami"]},
            {"toppings": {"salami": 2, "olive": 2}},
        ],
        waiters=[["green_mixed", "green_monotoni", "green_minimale"], []],
        supply=["salami", "pineapple", "olive", "pepper", "mamma_mia", "mushroom", "olive", "pepper"],
    )


def test_we02_a_turn():
    s = _we02()
    assert s.active == GREEN and s.step == TOPPINGS
    events = play(s, GREEN, PlayToppings("salami", 3))
    e = first(events, "toppings_played")
    assert e.visible_to is None and e.data == {"seat": GREEN, "kind": "salami", "count": 3}
    assert s.step == ORDER
    play(s, GREEN, PlayOrder("green_four_salami"))
    assert s.step == REFILL
    assert set(s.legal_actions(GREEN)) == {Draw("supply"), Draw("waiter")}
    supply_before = list(s.supply)
    events = play(s, GREEN, Draw("waiter"))
    assert first(events, "drew").data["count"] == 3
    assert hand(s, GREEN) == {"olive": 2, "mushroom": 1}
    assert sorted(names(s.hand_orders[GREEN])) == ["green_minimale", "green_mixed", "green_monotoni"]
    assert s.hand_size(GREEN) == 6
    assert s.waiters[GREEN] == ()
    assert s.view(BROWN)["oven"] == {"size": 4, "top": {"type": "order", "order": "green_four_salami"}}
    # The turn is over: no card may be added from the supply.
    assert s.supply == supply_before
    assert s.active == BROWN and s.to_move == (BROWN,)
    assert_illegal(s, GREEN, Draw("supply"))


def test_we02_a_turn_up_to_variant():
    s = _we02({"refill_mode": "up_to"})
    play(s, GREEN, PlayToppings("salami", 3))
    play(s, GREEN, PlayOrder("green_four_salami"))
    legal = set(s.legal_actions(GREEN))
    assert {DrawCount("waiter", n) for n in range(4)} <= legal
    assert DrawCount("waiter", 4) not in legal  # only 3 orders in the waiter
    assert DrawCount("supply", 4) in legal and DrawCount("supply", 5) not in legal  # the gap is 4
    play(s, GREEN, DrawCount("waiter", 2))
    assert s.hand_size(GREEN) == 5
    assert names(s.hand_orders[GREEN]) == ["green_mixed", "green_monotoni"]
    assert names(s.waiters[GREEN]) == ["green_minimale"]
    assert s.active == BROWN


def test_we03_illegal_topping_plays():
    s = scenario(
        hands=[{"toppings": {"salami": 2, "olive": 1}, "orders": ["green_mixed"]}, {"toppings": {"salami": 1}}]
    )
    legal = s.legal_actions(GREEN)
    assert set(legal) == {PlayToppings("salami", 1), PlayToppings("salami", 2), PlayToppings("olive", 1)}
    assert SkipToppings() not in legal
    assert_illegal(s, GREEN, PlayToppings("salami", 3))
    assert_illegal(s, GREEN, PlayToppings("olive", 2))
    assert_illegal(s, GREEN, SkipToppings())
    # A second kind in the same turn is never allowed.
    play(s, GREEN, PlayToppings("salami", 1))
    assert not any(isinstance(a, PlayToppings) for a in s.legal_actions(GREEN))
    assert_illegal(s, GREEN, PlayToppings("olive", 1))
    assert_illegal(s, GREEN, PlayToppings("salami", 1))


def test_we04_drawing_the_mamma_mia_card():
    s = scenario(
        hands=[{"toppings": {"olive": 2, "mushroom": 2, "salami": 1}}, {"toppings": {"salami": 2}}],
        waiters=[["green_mixed"], []],
        supply=["olive", "mamma_mia", "salami", "pepper", "mushroom", "mushroom"],
    )
    play(s, GREEN, PlayToppings("salami", 1))
    assert s.hand_size(GREEN) == 4 and s.step == REFILL
    events = play(s, GREEN, Draw("supply"))
    assert hand(s, GREEN) == {"olive": 3, "mushroom": 2, "salami": 1, "pepper": 1}
    assert s.hand_size(GREEN) == 7
    assert s.holder == GREEN
    assert mamma_mia_in_supply(s) == 0
    assert supply_counts(s) == {"mushroom": 2}
    assert first(events, "mamma_mia_drawn").visible_to is None
    assert first(events, "drew").data == {"seat": GREEN, "source": "supply", "count": 3}
    drawn = first(events, "drew_cards")
    assert drawn.visible_to == frozenset({GREEN})
    assert drawn.data["toppings"] == {"olive": 1, "salami": 1, "pepper": 1}
    assert s.view(BROWN)["mamma_mia_holder"] == GREEN
    assert s.view(BROWN)["players_info"][GREEN]["has_mamma_mia"] is True


def test_we05_end_of_phase_one():
    s = scenario(
        hands=[{"toppings": {"olive": 2, "mushroom": 2, "salami": 1}}, {"toppings": {"salami": 2}}],
        waiters=[["green_mixed"], []],
        supply=["olive", "pepper"],
        mamma_mia_holder=BROWN,
        oven=["salami", "brown_monotoni"],
    )
    play(s, GREEN, PlayToppings("salami", 1))
    events = play(s, GREEN, Draw("supply"))
    assert s.hand_size(GREEN) == 6
    assert s.supply == []
    ended = first(events, "phase_one_ended")
    assert ended.data == {"reason": "supply_empty", "opener": BROWN}
    assert first(events, "oven_opened").data["seat"] == BROWN
    # Brown got no turn: phase 2 began at once (brown now decides on its Monotoni).
    assert "toppings_played" not in kinds_of(events)
    assert s.opener == BROWN and s.step == JOKER and s.to_move == (BROWN,)


def test_we05_end_of_phase_one_mamma_mia_last_card():
    s = scenario(
        hands=[{"toppings": {"olive": 2, "mushroom": 2, "salami": 1}}, {"toppings": {"salami": 2}}],
        waiters=[["green_mixed"], []],
        supply=["mamma_mia"],
        oven=["brown_monotoni"],
    )
    play(s, GREEN, PlayToppings("salami", 1))
    events = play(s, GREEN, Draw("supply"))
    assert s.hand_size(GREEN) == 4  # no replacement
    assert s.supply == [] and s.holder == GREEN
    assert first(events, "drew").data["count"] == 0
    assert first(events, "phase_one_ended").data == {"reason": "supply_empty", "opener": GREEN}
    assert s.opener == GREEN and s.step == JOKER


def test_we06_order_of_revelation_matters():
    s = scenario(
        hands=[
            {"toppings": {"salami": 5, "pepper": 1}, "orders": ["green_four_salami"]},
            {"toppings": {"pepper": 2, "mushroom": 1, "olive": 1}, "orders": ["brown_four_salami"]},
        ],
        waiters=[
            [
                "green_four_pineapple",
                "green_four_mushroom",
                "green_four_olive",
                "green_mixed",
                "green_bombastica",
                "green_monotoni",
            ],
            ["brown_mixed", "brown_monotoni", "brown_minimale", "brown_bombastica", "brown_four_olive"],
        ],
        supply=["olive", "olive"],
        mamma_mia_holder=GREEN,
    )
    play(s, GREEN, PlayToppings("salami", 3))
    play(s, GREEN, PlayOrder("green_four_salami"))
    play(s, GREEN, Draw("waiter"))
    play(s, BROWN, PlayToppings("pepper", 2))
    play(s, BROWN, NoOrder())
    play(s, BROWN, Draw("waiter"))
    play(s, GREEN, PlayToppings("salami", 2))
    play(s, GREEN, NoOrder())
    play(s, GREEN, Draw("waiter"))
    assert hand(s, GREEN) == {"pepper": 1}
    play(s, BROWN, PlayToppings("mushroom", 1))
    play(s, BROWN, PlayOrder("brown_four_salami"))
    # The draw empties the supply: phase 1 ends and the oven is opened, without another decision.
    events = play(s, BROWN, Draw("supply"))
    assert first(events, "phase_one_ended").data["opener"] == GREEN
    checks = [e for e in events if e.kind in ("order_revealed", "order_failed", "order_completed")]
    assert [(e.kind, e.data["order"]) for e in checks] == [
        ("order_revealed", "green_four_salami"),
        ("order_failed", "green_four_salami"),
        ("order_revealed", "brown_four_salami"),
        ("order_completed", "brown_four_salami"),
    ]
    # Before green's order only 3 salami were face up.
    before_green = kinds_of(events).index("order_revealed")
    assert revealed(events[:before_green]) == ["salami"] * 3
    assert first(events, "order_completed").data["used"] == {"salami": 4, "mushroom": 1}
    assert first(events, "order_completed").data["from_hand"] == {}
    ended = first(events, "round_ended")
    assert ended.data["leftovers"] == {"salami": 1, "pepper": 2}
    assert sum(ended.data["used"].values()) == 5
    assert s.waiters[GREEN][-1] == order_id("green_four_salami")
    assert s.completed == [(), (order_id("brown_four_salami"),)]
    # Round 2 is under way: leftovers are the bottom of the new oven.
    assert s.round == 2 and counts(s.leftovers) == {"salami": 1, "pepper": 2}
    assert len(s.supply) == 5 + 1


def test_we07_hand_top_up():
    s = oven(
        {"pineapple": 3, "pepper": 3, "mushroom": 4, "salami": 2},
        ["green_four_pineapple"],
        hands=[{"toppings": {"pineapple": 1, "olive": 2}}, {}],
    )
    assert s.step == TOP_UP and s.to_move == (GREEN,)
    assert set(s.legal_actions(GREEN)) == {TOPUP, Decline()}
    assert s.view(BROWN)["pending"]["shortfall"] == {"pineapple": 1}
    events = play(s, GREEN, TOPUP)
    done = first(events, "order_completed")
    assert done.data["used"] == {"pineapple": 4, "pepper": 1} and done.data["from_hand"] == {"pineapple": 1}
    assert hand(s, GREEN) == {"olive": 2}  # lost one pineapple, drew nothing
    assert counts(s.used) == {"pineapple": 4, "pepper": 1}
    assert counts(s.counter) == {"pepper": 2, "mushroom": 4, "salami": 2}
    assert s.completed[GREEN] == (order_id("green_four_pineapple"),)


def test_we07_hand_top_up_japanese_counter():
    s = oven(
        {"pineapple": 3, "pepper": 1, "mushroom": 4, "salami": 2},
        ["green_four_pineapple"],
        hands=[{"toppings": {"pineapple": 2}}, {}],
    )
    play(s, GREEN, TOPUP)
    assert counts(s.counter) == {"mushroom": 4, "salami": 2}
    assert hand(s, GREEN) == {"pineapple": 1}


def test_we07_hand_top_up_declined_or_impossible():
    start = {"pineapple": 3, "pepper": 3, "mushroom": 4, "salami": 2}
    s = oven(start, ["green_four_pineapple"], hands=[{"toppings": {"pineapple": 1}}, {}], waiters=[["green_mixed"], []])
    play(s, GREEN, Decline())
    assert names(s.waiters[GREEN]) == ["green_mixed", "green_four_pineapple"]
    assert counts(s.counter) == start and counts(s.used) == {}
    assert hand(s, GREEN) == {"pineapple": 1} and s.completed[GREEN] == ()
    # No pineapple in hand: the order fails without asking green.
    s = oven(start, ["green_four_pineapple"], hands=[{"toppings": {"olive": 3}}, {}], waiters=[["green_mixed"], []])
    decline_if_asked(s, GREEN)
    assert s.step == JOKER and s.to_move == (BROWN,)  # already at the sentinel
    assert names(s.waiters[GREEN]) == ["green_mixed", "green_four_pineapple"]
    assert counts(s.counter) == start


WE08_COUNTER = {"pepper": 4, "salami": 2, "mushroom": 2, "pineapple": 4}


def test_we08_monotoni_joker_choices():
    s = oven(WE08_COUNTER, ["green_monotoni"], hands=[{"toppings": {"olive": 6}}, {}])
    assert s.step == JOKER and s.to_move == (GREEN,)
    assert set(s.legal_actions(GREEN)) == {ChooseJoker(k) for k in ("salami", "mushroom", "pineapple", "olive")}
    assert_illegal(s, GREEN, ChooseJoker("pepper"))


@pytest.mark.parametrize(("joker", "short"), [("pineapple", 2), ("salami", 4), ("mushroom", 4), ("olive", 6)])
def test_we08_monotoni_shortfalls(joker, short):
    s = oven(WE08_COUNTER, ["green_monotoni"], hands=[{"toppings": {joker: short}}, {}])
    events = play(s, GREEN, ChooseJoker(joker))
    assert first(events, "joker_chosen").data["kind"] == joker
    assert s.step == TOP_UP
    assert s.view(GREEN)["pending"]["shortfall"] == {joker: short}  # pepper is always covered
    assert s.view(GREEN)["pending"]["requirement"] == {"pepper": 1, joker: 6}
    # One card fewer in hand: cannot cover, fails at once.
    s = oven(WE08_COUNTER, ["green_monotoni"], hands=[{"toppings": {joker: short - 1, "pepper": 1}}, {}])
    events = play(s, GREEN, ChooseJoker(joker))
    if s.step == TOP_UP:
        assert s.legal_actions(GREEN) == [Decline()]
        events += play(s, GREEN, Decline())
    assert first(events, "order_failed").data["order"] == "green_monotoni"
    assert s.waiters[GREEN] == (order_id("green_monotoni"),)


def test_we08_monotoni_completions():
    s = oven(WE08_COUNTER, ["green_monotoni"], hands=[{"toppings": {"pineapple": 2, "olive": 1}}, {}])
    play(s, GREEN, ChooseJoker("pineapple"))
    play(s, GREEN, TOPUP)
    assert counts(s.used) == {"pepper": 1, "pineapple": 6}
    assert counts(s.counter) == {"pepper": 3, "salami": 2, "mushroom": 2}
    assert hand(s, GREEN) == {"olive": 1}
    # Joker olive, all six from a hand of seven toppings.
    s = oven(WE08_COUNTER, ["green_monotoni"], hands=[{"toppings": {"olive": 6, "salami": 1}}, {}])
    play(s, GREEN, ChooseJoker("olive"))
    play(s, GREEN, TOPUP)
    assert counts(s.used) == {"pepper": 1, "olive": 6}
    assert counts(s.counter) == {"pepper": 3, "salami": 2, "mushroom": 2, "pineapple": 4}
    assert hand(s, GREEN) == {"salami": 1}
    assert s.completed[GREEN] == (order_id("green_monotoni"),)


def test_we09_minimale():
    s = oven(
        {"pepper": 2, "salami": 2, "mushroom": 2, "pineapple": 3},
        ["green_minimale"],
        hands=[{"toppings": {"salami": 1}}, {}],
    )
    assert s.step == RAREST and s.to_move == (GREEN,)
    assert set(s.legal_actions(GREEN)) == {ChooseRarest("salami"), ChooseRarest("mushroom")}
    for illegal in ("olive", "pineapple", "pepper"):
        assert_illegal(s, GREEN, ChooseRarest(illegal))
    play(s, GREEN, ChooseRarest("salami"))
    assert s.view(GREEN)["pending"]["requirement"] == {"pepper": 1, "salami": 3}
    assert s.view(GREEN)["pending"]["shortfall"] == {"salami": 1}
    play(s, GREEN, TOPUP)
    assert counts(s.used) == {"pepper": 1, "salami": 3}
    assert counts(s.counter) == {"pepper": 1, "mushroom": 2, "pineapple": 3}
    assert hand(s, GREEN) == {}


def test_we10_minimale_japanese_example():
    s = oven(
        {"olive": 2, "salami": 2, "mushroom": 2, "pineapple": 3},
        ["purple_minimale"],
        decks=["olive", "mushroom"],
        hands=[{"toppings": {"mushroom": 1}}, {}],
    )
    assert set(s.legal_actions(0)) == {ChooseRarest("salami"), ChooseRarest("mushroom")}
    play(s, 0, ChooseRarest("mushroom"))
    assert s.view(0)["pending"]["shortfall"] == {"mushroom": 1}
    play(s, 0, TOPUP)
    assert counts(s.used) == {"olive": 1, "mushroom": 3}
    assert counts(s.counter) == {"olive": 1, "salami": 2, "pineapple": 3}
    assert s.completed[0] == (order_id("purple_minimale"),)


def test_we11_minimale_chinese_example():
    start = {"salami": 4, "mushroom": 3, "olive": 2, "pepper": 1}
    s = oven(start, ["green_minimale"], hands=[{"toppings": {"olive": 1}}, {}])
    # The '?' kind is forced to olive: no tie, so no choice is asked.
    assert s.step == TOP_UP and s.to_move == (GREEN,)
    assert s.view(GREEN)["pending"]["requirement"] == {"pepper": 1, "olive": 3}
    assert s.view(GREEN)["pending"]["shortfall"] == {"olive": 1}
    play(s, GREEN, TOPUP)
    assert counts(s.used) == {"pepper": 1, "olive": 3}
    assert counts(s.counter) == {"salami": 4, "mushroom": 3}
    s = oven(start, ["green_minimale"], hands=[{"toppings": {"salami": 3}}, {}])
    decline_if_asked(s, GREEN)
    assert s.step == JOKER and s.pending == order_id("brown_monotoni")  # green's order already failed
    assert s.waiters[GREEN] == (order_id("green_minimale"),)
    assert counts(s.counter) == start


def test_we12a_minimale_uses_exactly_three():
    s = oven({"salami": 5, "mushroom": 6, "olive": 7, "pineapple": 8, "pepper": 1}, ["green_minimale"])
    assert s.pending == order_id("brown_monotoni")  # green's order completed without a decision
    assert s.completed[GREEN] == (order_id("green_minimale"),)
    assert counts(s.counter) == {"salami": 2, "mushroom": 6, "olive": 7, "pineapple": 8}
    assert counts(s.used) == {"pepper": 1, "salami": 3}


def test_we12b_minimale_pictured_kind_excluded():
    s = oven({"pepper": 1, "salami": 2, "mushroom": 4}, ["green_minimale"], hands=[{"toppings": {"salami": 1}}, {}])
    assert s.step == TOP_UP and s.view(GREEN)["pending"]["shortfall"] == {"salami": 1}
    play(s, GREEN, TOPUP)
    assert counts(s.counter) == {"mushroom": 4}


def test_we12b_minimale_pictured_kind_included_variant():
    s = oven(
        {"pepper": 1, "salami": 2, "mushroom": 4},
        ["green_minimale"],
        options={"minimale_excludes_pictured": False},
        hands=[{"toppings": {"pepper": 3}}, {}],
    )
    assert s.step == TOP_UP
    assert s.view(GREEN)["pending"]["requirement"] == {"pepper": 4}
    assert s.view(GREEN)["pending"]["shortfall"] == {"pepper": 3}
    play(s, GREEN, TOPUP)
    assert counts(s.used) == {"pepper": 4}
    assert counts(s.counter) == {"salami": 2, "mushroom": 4}


def test_we12c_minimale_no_candidate():
    s = oven({"pepper": 2}, ["green_minimale"], hands=[{"toppings": {"olive": 3}}, {}])
    assert s.pending == order_id("brown_monotoni")
    assert s.waiters[GREEN] == (order_id("green_minimale"),)
    assert counts(s.counter) == {"pepper": 2}


def test_we12c_minimale_no_candidate_any_kind_variant():
    s = oven(
        {"pepper": 2},
        ["green_minimale"],
        hands=[{"toppings": {"olive": 3}}, {}],
        options={"minimale_when_no_candidate": "any_kind"},
    )
    assert s.step == RAREST and s.to_move == (GREEN,)
    assert set(s.legal_actions(GREEN)) == {ChooseRarest(k) for k in ("salami", "pineapple", "mushroom", "olive")}
    play(s, GREEN, ChooseRarest("olive"))
    assert s.view(GREEN)["pending"]["shortfall"] == {"olive": 3}
    play(s, GREEN, TOPUP)
    assert counts(s.used) == {"pepper": 1, "olive": 3}
    assert counts(s.counter) == {"pepper": 1}
    assert hand(s, GREEN) == {}


def test_we13a_bombastica_takes_everything():
    s = oven(
        {"salami": 5, "pineapple": 4, "mushroom": 3, "pepper": 3, "olive": 2},
        ["green_bombastica", "salami", "brown_four_salami"],
        hands=[{}, {"toppings": {"mushroom": 1}}],
        waiters=[[], []],
    )
    assert s.completed[GREEN] == (order_id("green_bombastica"),)
    # The next order saw only the salami revealed after the Bombastica: counter {salami 1}.
    assert counts(s.used) == {"salami": 5, "pineapple": 4, "mushroom": 3, "pepper": 3, "olive": 2}
    assert counts(s.counter) == {"salami": 1}
    assert s.waiters[BROWN] == (order_id("brown_four_salami"),)  # shortfall salami 3: brown cannot cover


def test_we13b_bombastica_hand_top_up():
    thirteen = {"salami": 5, "pineapple": 4, "mushroom": 3, "olive": 1}
    s = oven(thirteen, ["green_bombastica"], hands=[{"toppings": {"salami": 2, "olive": 1}}, {}])
    assert s.step == TOP_UP and s.to_move == (GREEN,)
    assert s.view(GREEN)["pending"]["shortfall"] == {"any": 2}
    assert set(s.legal_actions(GREEN)) == {
        CompleteFromHand((("salami", 2),)),
        CompleteFromHand((("salami", 1), ("olive", 1))),
        Decline(),
    }
    assert_illegal(s, GREEN, CompleteFromHand((("olive", 2),)))
    assert_illegal(s, GREEN, CompleteFromHand((("salami", 1),)))
    assert_illegal(s, GREEN, TOPUP)
    events = play(s, GREEN, G.action_from_json({"type": "complete_from_hand", "toppings": {"olive": 1, "salami": 1}}))
    assert first(events, "order_completed").data["from_hand"] == {"salami": 1, "olive": 1}
    assert sum(s.used) == 15
    assert counts(s.used) == {"salami": 6, "pineapple": 4, "mushroom": 3, "olive": 2}
    assert counts(s.counter) == {}
    assert hand(s, GREEN) == {"salami": 1}


def test_we13c_bombastica_short_hand_fails():
    thirteen = {"salami": 5, "pineapple": 4, "mushroom": 3, "olive": 1}
    s = oven(thirteen, ["green_bombastica"], hands=[{"toppings": {"salami": 1}, "orders": ["green_mixed"]}, {}])
    assert s.pending == order_id("brown_monotoni")
    assert s.waiters[GREEN] == (order_id("green_bombastica"),)
    assert counts(s.counter) == thirteen and counts(s.used) == {}


def test_we13d_bombastica_without_hand_top_up():
    thirteen = {"salami": 5, "pineapple": 4, "mushroom": 3, "olive": 1}
    s = oven(
        thirteen,
        ["green_bombastica"],
        hands=[{"toppings": {"salami": 2, "olive": 1}}, {}],
        options={"bombastica_hand_topup": False},
    )
    assert s.pending == order_id("brown_monotoni")
    assert s.waiters[GREEN] == (order_id("green_bombastica"),)
    assert counts(s.counter) == thirteen and hand(s, GREEN) == {"salami": 2, "olive": 1}


def test_we14_mixed_order():
    s = oven(
        {"salami": 1, "pineapple": 1, "pepper": 2, "olive": 1},
        ["brown_mixed"],
        sentinel="green_monotoni",
        hands=[{}, {"toppings": {"mushroom": 1}}],
    )
    assert s.step == TOP_UP and s.to_move == (BROWN,)
    assert s.view(GREEN)["pending"]["shortfall"] == {"mushroom": 1}
    play(s, BROWN, TOPUP)
    assert counts(s.used) == {k: 1 for k in KINDS}
    assert counts(s.counter) == {"pepper": 1}
    assert s.completed[BROWN] == (order_id("brown_mixed"),)


def test_we15_no_refusal():
    s = oven({"pepper": 1, "salami": 6}, ["green_four_salami"])
    assert s.pending == order_id("brown_monotoni")  # no decision was offered to green
    assert s.completed[GREEN] == (order_id("green_four_salami"),)
    assert counts(s.counter) == {"salami": 2}


def test_we15_no_refusal_decline_option():
    opts = {"owner_may_decline_when_table_suffices": True}
    s = oven({"pepper": 1, "salami": 6}, ["green_four_salami"], options=opts)
    assert s.step == TOP_UP and s.to_move == (GREEN,)
    assert set(s.legal_actions(GREEN)) == {TOPUP, Decline()}
    play(s, GREEN, Decline())
    assert s.waiters[GREEN] == (order_id("green_four_salami"),)
    assert counts(s.counter) == {"pepper": 1, "salami": 6} and s.completed[GREEN] == ()
    s = oven({"pepper": 1, "salami": 6}, ["green_four_salami"], options=opts)
    play(s, GREEN, TOPUP)
    assert counts(s.counter) == {"salami": 2} and s.completed[GREEN] == (order_id("green_four_salami"),)
    # The same for a Bombastica the counter already covers.
    s = oven({"salami": 9, "olive": 7}, ["green_bombastica"], options=opts)
    assert s.step == TOP_UP and set(s.legal_actions(GREEN)) == {TOPUP, Decline()}


def test_we16_failed_orders_queue_at_the_bottom():
    s = oven(
        {},
        ["green_four_olive", "green_monotoni"],
        sentinel=None,
        waiters=[["green_mixed", "green_bombastica"], []],
        hands=[{"toppings": {"salami": 5}}, {"toppings": {"mushroom": 2}}],
    )
    decline_if_asked(s, GREEN)
    assert s.waiters[GREEN][2:] == (order_id("green_four_olive"),)
    assert s.step == JOKER
    play(s, GREEN, ChooseJoker("olive"))
    assert names(s.waiters[GREEN]) == ["green_mixed", "green_bombastica", "green_four_olive", "green_monotoni"]
    assert s.view(BROWN)["players_info"][GREEN]["waiter_known_bottom"] == ["green_four_olive", "green_monotoni"]
    # Round 2 started with green (the Mamma Mia! holder); a draw of 3 takes the top three, unshuffled.
    assert s.round == 2 and s.active == GREEN
    play(s, GREEN, PlayToppings("salami", 1))
    events = play(s, GREEN, Draw("waiter"))
    assert sorted(names(s.hand_orders[GREEN])) == ["green_bombastica", "green_four_olive", "green_mixed"]
    assert names(s.waiters[GREEN]) == ["green_monotoni"]
    # The returned order was public: everyone now knows it is in green's hand.
    assert first(events, "drew").data["known"] == ["green_four_olive"]
    assert s.view(BROWN)["players_info"][GREEN]["known_orders_in_hand"] == ["green_four_olive"]


def test_we17_into_round_two():
    orders = ["red_four_pineapple", "red_four_mushroom", "yellow_four_olive", "green_four_mushroom"]
    used = {"salami": 2, "pineapple": 5, "mushroom": 8, "olive": 4, "pepper": 1}
    counter = {k: used.get(k, 0) + {"salami": 1, "pepper": 2}.get(k, 0) for k in KINDS}
    s = G.scenario(
        {
            "players": 3,
            "decks": ["salami", "pineapple", "pepper"],
            "phase": "oven",
            "counter": counter,
            "oven": orders,
            "supply": [],
            "mamma_mia_holder": 2,
            "hands": [{"toppings": {"olive": 2}}, {"toppings": {"olive": 3, "salami": 2}}, {"toppings": {"olive": 3}}],
            "waiters": [["red_mixed"], ["yellow_mixed"], ["green_mixed"]],
        }
    )
    assert check_invariants(s) == []
    assert [len(c) for c in s.completed] == [2, 1, 1]
    assert s.round == 2
    assert s.start_player == 2 and s.active == 2 and s.to_move == (2,)
    assert s.holder == -1 and mamma_mia_in_supply(s) == 1
    assert len(s.supply) == 21 and supply_counts(s) == used
    assert counts(s.leftovers) == {"salami": 1, "pepper": 2}
    assert s.view(0)["oven"]["size"] == 3
    assert s.view(0, recall=True)["oven"]["leftovers"] == {"salami": 1, "pepper": 2}
    assert s.hand_size(1) == 5
    # Play on with the first legal action; seat 1 plays from 5 cards and refills at its turn's end.
    log = []
    seen_seat1_turn = False
    for _ in range(500):
        if s.round != 2 or s.step not in (TOPPINGS, ORDER, REFILL):
            break
        seat = s.to_move[0]
        if seat == 1 and s.step == TOPPINGS and not seen_seat1_turn:
            seen_seat1_turn = True
            assert s.hand_size(1) == 5
            play(s, 1, PlayToppings("olive", 1))
            log += play(s, 1, Draw("supply"))
            assert s.hand_size(1) == 7
            continue
        log += play(s, seat, s.legal_actions(seat)[0])
    assert seen_seat1_turn
    # At round 2's phase 2 the leftovers are revealed first.
    opened = kinds_of(log).index("oven_opened")
    assert sorted(revealed(log[opened:])[:3]) == ["pepper", "pepper", "salami"]


def test_we18_nothing_completed():
    s = oven(
        {}, ["green_four_salami"], sentinel=None, hands=[{"toppings": {"salami": 3}}, {"toppings": {"mushroom": 2}}]
    )
    # Round 1's phase 2 completed nothing: round 2's supply is only the Mamma Mia! card.
    assert s.round == 2 and s.supply == [MAMMA_MIA_CARD] and s.active == GREEN
    play(s, GREEN, PlayToppings("salami", 1))
    assert set(s.legal_actions(GREEN)) == {Draw("supply"), Draw("waiter")}
    events = play(s, GREEN, Draw("supply"))
    assert first(events, "drew").data["count"] == 0
    assert "mamma_mia_drawn" in kinds_of(events)
    assert first(events, "phase_one_ended").data == {"reason": "supply_empty", "opener": GREEN}
    assert hand(s, GREEN) == {"salami": 2}
    # Brown never took a turn in round 2; round 3 has begun.
    assert not [e for e in events if e.kind == "toppings_played"]
    assert s.round == 3 and s.start_player == GREEN


def test_we18_forced_supply_draw_with_empty_waiter():
    s = scenario(
        round=2,
        supply=["mamma_mia"],
        active=BROWN,
        start_player=BROWN,
        hands=[{"toppings": {"salami": 1}}, {"toppings": {"mushroom": 2}}],
    )
    events = play(s, BROWN, PlayToppings("mushroom", 1))
    # Brown's waiter is empty: the supply is the only source, so the draw happened without asking.
    assert first(events, "drew").data == {"seat": BROWN, "source": "supply", "count": 0}
    assert first(events, "phase_one_ended").data["opener"] == BROWN
    assert s.round == 3


def _we19(options=None):
    return scenario(
        options=options or {},
        hands=[{"orders": ["green_four_salami", "green_four_pineapple"]}, {"toppings": {"salami": 2}}],
        waiters=[["green_mixed", "green_monotoni", "green_minimale"], []],
    )


def test_we19_no_toppings_in_hand():
    s = _we19()
    assert s.step == REFILL and s.to_move == (GREEN,)  # no topping play, no order play
    assert set(s.legal_actions(GREEN)) == {Draw("supply"), Draw("waiter")}
    t = s.clone()
    play(s, GREEN, Draw("waiter"))
    assert s.hand_size(GREEN) == 5 and sum(hand(s, GREEN).values()) == 0 and s.waiters[GREEN] == ()
    play(t, GREEN, Draw("supply"))
    assert t.hand_size(GREEN) == 7 and sum(hand(t, GREEN).values()) == 5
    assert len(t.waiters[GREEN]) == 3


def test_we19_no_toppings_order_allowed_variant():
    s = _we19({"recipe_requires_topping_play": False})
    assert s.step == ORDER
    assert set(s.legal_actions(GREEN)) == {PlayOrder("green_four_salami"), PlayOrder("green_four_pineapple"), NoOrder()}
    play(s, GREEN, PlayOrder("green_four_salami"))
    assert s.view(BROWN)["oven"] == {"size": 1, "top": {"type": "order", "order": "green_four_salami"}}
    assert s.step == REFILL


def test_we20_frozen_hand():
    seven = [
        "green_four_salami",
        "green_four_pineapple",
        "green_four_mushroom",
        "green_four_olive",
        "green_mixed",
        "green_bombastica",
        "green_monotoni",
    ]
    s = scenario(hands=[{"orders": seven}, {"toppings": {"salami": 2}}], waiters=[["green_minimale"], []])
    # Green's turn passed with no action at all.
    assert s.active == BROWN and s.to_move == (BROWN,)
    assert s.hand_size(GREEN) == 7 and s.oven == []
    # Everyone frozen for a full lap: the deadlock guard ends each phase 1; three rounds pass.
    brown7 = [
        "brown_four_salami",
        "brown_four_pineapple",
        "brown_four_pepper",
        "brown_four_olive",
        "brown_mixed",
        "brown_bombastica",
        "brown_monotoni",
    ]
    s = scenario(round=3, hands=[{"orders": seven}, {"orders": brown7}], supply=["salami", "mamma_mia", "olive"])
    assert s.is_over
    assert supply_counts(s) == {"salami": 1, "olive": 1}  # nobody drew
    assert s.result().winners == (0, 1)


def test_we20_deadlock_guard_event():
    seven = [
        "green_four_salami",
        "green_four_pineapple",
        "green_four_mushroom",
        "green_four_olive",
        "green_mixed",
        "green_bombastica",
        "green_monotoni",
    ]
    brown6 = [
        "brown_four_salami",
        "brown_four_pineapple",
        "brown_four_pepper",
        "brown_four_olive",
        "brown_mixed",
        "brown_bombastica",
    ]
    supply = ["olive", "mamma_mia", "olive", "pepper"]
    # Green is frozen; brown plays its last topping and fills up with its last order: then both are frozen.
    s = scenario(
        hands=[{"orders": seven}, {"toppings": {"salami": 2}, "orders": brown6[:5]}],
        waiters=[[], ["brown_monotoni", "brown_minimale"]],
        active=BROWN,
        start_player=GREEN,
        supply=supply,
    )
    play(s, BROWN, PlayToppings("salami", 2))
    play(s, BROWN, NoOrder())
    events = play(s, BROWN, Draw("waiter"))
    ended = [e.data for e in events if e.kind == "phase_one_ended"]
    # A quiet lap ends phase 1; with nobody holding the Mamma Mia! card the start player opens.
    assert ended == [{"reason": "deadlock", "opener": GREEN}] * 3
    assert [e.data["leftovers"] for e in events if e.kind == "round_ended"] == [{"salami": 2}] * 3
    # The undrawn supply (with the Mamma Mia! card) carried over into the next rounds' supply.
    assert supply_counts(s) == {"olive": 2, "pepper": 1} and mamma_mia_in_supply(s) == 1
    assert s.is_over and s.round == 3


def test_we21_short_source():
    s = scenario(
        hands=[{"toppings": {"salami": 1, "olive": 4}}, {"toppings": {"mushroom": 2}}],
        waiters=[["green_mixed"], []],
        supply=["pineapple"] * 10 + ["mamma_mia"] + ["salami"] * 9,
    )
    play(s, GREEN, PlayToppings("salami", 1))
    assert s.hand_size(GREEN) == 4
    play(s, GREEN, Draw("waiter"))
    assert s.hand_size(GREEN) == 5 and s.waiters[GREEN] == ()
    assert len(s.supply) == 20
    assert_illegal(s, GREEN, Draw("supply"))  # the turn is over
    assert s.active == BROWN


def test_we21_empty_waiter_cannot_be_chosen():
    s = scenario(
        hands=[{"toppings": {"salami": 1, "olive": 4}}, {"toppings": {"mushroom": 2}}],
        waiters=[[], []],
        supply=["pineapple"] * 10 + ["mamma_mia"] + ["salami"] * 9,
    )
    events = play(s, GREEN, PlayToppings("salami", 1))
    # Only the supply was legal, so the draw happened without asking.
    assert first(events, "drew").data == {"seat": GREEN, "source": "supply", "count": 3}
    assert s.hand_size(GREEN) == 7


def test_we21_empty_source_choice_variant():
    s = scenario(
        options={"allow_empty_source_choice": True},
        hands=[{"toppings": {"salami": 1, "olive": 4}}, {"toppings": {"mushroom": 2}}],
        waiters=[[], []],
        supply=["pineapple"] * 10 + ["mamma_mia"] + ["salami"] * 9,
    )
    play(s, GREEN, PlayToppings("salami", 1))
    assert s.step == REFILL and set(s.legal_actions(GREEN)) == {Draw("supply"), Draw("waiter")}
    events = play(s, GREEN, Draw("waiter"))
    assert first(events, "drew").data["count"] == 0
    assert s.hand_size(GREEN) == 4 and len(s.supply) == 20 and s.active == BROWN


def _we22(a_toppings, b_toppings):
    return G.scenario(
        {
            "players": 3,
            "decks": ["salami", "pineapple", "pepper"],
            "round": 3,
            "phase": "oven",
            "oven": [],
            "supply": [],
            "mamma_mia_holder": 0,
            "completed": [
                ["red_four_pineapple", "red_four_mushroom", "red_four_pepper", "red_four_olive", "red_mixed"],
                [
                    "yellow_four_salami",
                    "yellow_four_mushroom",
                    "yellow_four_pepper",
                    "yellow_four_olive",
                    "yellow_mixed",
                ],
                ["green_four_salami", "green_four_pineapple", "green_four_mushroom", "green_four_olive"],
            ],
            "hands": [
                {"toppings": {"olive": a_toppings}, "orders": ["red_bombastica", "red_monotoni", "red_minimale"]},
                {"toppings": {"olive": b_toppings}},
                {"toppings": {"olive": 5}},
            ],
        }
    )


def test_we22_winner():
    s = _we22(2, 3)
    assert s.is_over
    r = s.result()
    assert r.scores == (5, 5, 4)
    assert r.winners == (1,)  # A holds 5 cards, but orders in hand do not count
    assert r.places == (2, 1, 3)
    assert s.view(None)["result"]["winners"] == [1]
    r = _we22(3, 3).result()
    assert r.winners == (0, 1) and r.places == (1, 1, 3)


# ------------------------------------------------------------------------ §12 options


def test_option_ruleset_cs1999():
    o = Options(ruleset="cs1999")
    assert (o.topping_play_required, o.recipe_requires_topping_play, o.refill_mode) == (False, False, "up_to")
    d = Options()
    assert (d.topping_play_required, d.recipe_requires_topping_play, d.refill_mode) == (True, True, "fill")
    # An explicit option overrides the ruleset.
    o = G.new_game(2, 0, {"ruleset": "cs1999", "refill_mode": "fill"}).options
    assert (o.topping_play_required, o.recipe_requires_topping_play, o.refill_mode) == (False, False, "fill")
    with pytest.raises(OptionError):
        G.new_game(2, 0, {"ruleset": "de1999"})
    # The ruleset changes play: the first decision offers a skip.
    s = G.new_game(3, 4, {"ruleset": "cs1999"})
    assert SkipToppings() in s.legal_actions(s.to_move[0])


def test_option_topping_play_required():
    data = {
        "hands": [{"toppings": {"salami": 2}, "orders": ["green_mixed"]}, {"toppings": {"olive": 1}}],
        "waiters": [["green_monotoni"], []],
    }
    s = scenario(**data)
    assert SkipToppings() not in s.legal_actions(GREEN)
    s = scenario(options={"topping_play_required": False}, **data)
    assert SkipToppings() in s.legal_actions(GREEN)
    events = play(s, GREEN, SkipToppings())
    assert kinds_of(events) == ["toppings_skipped"] and events[0].visible_to is None
    # Skipped toppings: under the default order rule no order may follow, so the refill comes next.
    assert s.step == REFILL and hand(s, GREEN) == {"salami": 2}
    s = scenario(options={"ruleset": "cs1999"}, **data)
    play(s, GREEN, SkipToppings())
    assert s.step == ORDER and PlayOrder("green_mixed") in s.legal_actions(GREEN)


def test_option_monotoni_joker_table_first():
    start = {"pepper": 1, "salami": 6, "olive": 7, "mushroom": 2}
    s = oven(start, ["green_monotoni"])
    assert set(s.legal_actions(GREEN)) == {ChooseJoker(k) for k in ("salami", "pineapple", "mushroom", "olive")}
    s = oven(start, ["green_monotoni"], options={"monotoni_joker": "table_first"})
    assert set(s.legal_actions(GREEN)) == {ChooseJoker("salami"), ChooseJoker("olive")}
    assert_illegal(s, GREEN, ChooseJoker("mushroom"))
    # Without the own topping on the counter no kind completes from the table alone: free choice.
    s = oven({"salami": 6, "olive": 7}, ["green_monotoni"], options={"monotoni_joker": "table_first"})
    assert len(s.legal_actions(GREEN)) == 4


def test_option_first_player():
    starts = {G.new_game(4, seed).start_player for seed in range(40)}
    assert starts == {0, 1, 2, 3}
    for seed in range(20):
        s = G.new_game(4, seed, {"first_player": "seat0"})
        assert s.start_player == 0 and s.active == 0 and s.to_move == (0,)


def test_option_end_early_when_no_orders_left():
    data = {
        "hands": [{"toppings": {"salami": 1, "olive": 1}}, {"toppings": {"olive": 1, "pineapple": 1}}],
        "waiters": [[], []],
    }
    s = oven({"pepper": 1, "salami": 4}, ["green_four_salami"], sentinel=None, **data)
    assert s.round == 2 and s.to_move == (GREEN,)
    s = oven(
        {"pepper": 1, "salami": 4},
        ["green_four_salami"],
        sentinel=None,
        options={"end_early_when_no_orders_left": True},
        **data,
    )
    assert s.is_over and s.round == 1
    assert s.result().winners == (GREEN,)
    # An order still in a waiter keeps the game going.
    data["waiters"] = [[], ["brown_mixed"]]
    s = oven(
        {"pepper": 1, "salami": 4},
        ["green_four_salami"],
        sentinel=None,
        options={"end_early_when_no_orders_left": True},
        **data,
    )
    assert s.round == 2 and s.to_move == (GREEN,)


def test_option_show_oven_history_changes_only_the_view():
    def position(options):
        s = scenario(
            options=options,
            leftovers={"olive": 1},
            round=2,
            hands=[{"toppings": {"salami": 2}, "orders": ["green_mixed"]}, {"toppings": {"pepper": 3}}],
            waiters=[["green_monotoni"], ["brown_mixed"]],
        )
        play(s, GREEN, PlayToppings("salami", 2))
        play(s, GREEN, PlayOrder("green_mixed"))
        return s

    plain, shown = position({}), position({"show_oven_history": True})
    v_plain, v_shown = plain.view(BROWN), shown.view(BROWN)
    assert "plays" not in v_plain["oven"] and "leftovers" not in v_plain["oven"]
    assert v_shown["oven"]["leftovers"] == {"olive": 1}
    assert v_shown["oven"]["plays"] == [
        {"seat": GREEN, "type": "topping", "kind": "salami", "count": 2},
        {"seat": GREEN, "type": "order", "order": "green_mixed"},
    ]
    # The physical view is the same otherwise, and so is everything else.
    del v_shown["oven"]["plays"], v_shown["oven"]["leftovers"]
    assert v_plain == v_shown
    assert plain.view(BROWN, recall=True) == shown.view(BROWN, recall=True)
    a, b = plain.to_json(), shown.to_json()
    del a["options"], b["options"]
    assert a == b
    assert plain.legal_actions(BROWN) == shown.legal_actions(BROWN)


def test_option_recipe_requires_topping_play_blocks_order_after_skip():
    # cs1999 with the order rule switched back on: a skip leaves no order step.
    s = scenario(
        options={"ruleset": "cs1999", "recipe_requires_topping_play": True},
        hands=[{"toppings": {"salami": 2}, "orders": ["green_mixed"]}, {"toppings": {"olive": 1}}],
    )
    play(s, GREEN, SkipToppings())
    assert s.step == REFILL
    assert not any(isinstance(a, PlayOrder) for a in s.legal_actions(GREEN))
    with pytest.raises(IllegalAction):
        s.apply(GREEN, PlayOrder("green_mixed"))


def test_option_up_to_mamma_mia_as_last_card_can_be_drawn():
    # §4.4-4.5 under refill_mode="up_to": with only the Mamma Mia! card left in the supply, a draw
    # from the supply meets it (keeping 0 cards) and ends phase 1; it must not be out of reach.
    s = scenario(
        options={"refill_mode": "up_to"},
        supply=["salami", "mamma_mia"],
        oven=["brown_monotoni"],
        hands=[{"toppings": {"olive": 2}}, {"toppings": {"pepper": 2}}],
        waiters=[["green_mixed"], ["brown_mixed"]],
    )
    play(s, GREEN, PlayToppings("olive", 1))
    # Two cards in the supply, so up to 2 may be asked for (see the cs1999 example below).
    assert DrawCount("supply", 2) in s.legal_actions(GREEN)
    assert DrawCount("supply", 3) not in s.legal_actions(GREEN)
    play(s, GREEN, DrawCount("supply", 1))
    assert hand(s, GREEN) == {"olive": 1, "salami": 1} and s.supply == [MAMMA_MIA_CARD] and s.holder == -1
    play(s, BROWN, PlayToppings("pepper", 1))
    assert DrawCount("supply", 1) in s.legal_actions(BROWN)
    events = play(s, BROWN, DrawCount("supply", 1))
    assert first(events, "drew").data["count"] == 0
    assert s.holder == BROWN and s.supply == []
    assert first(events, "phase_one_ended").data == {"reason": "supply_empty", "opener": BROWN}


def test_option_cs1999_draws_the_last_topping_and_the_mamma_mia_card_together():
    """Under cs1999 a player with room for 3 facing [salami, Mamma Mia!] draws both:
    keeps the salami, lays out the Mamma Mia! card, the supply is empty and the round ends."""
    s = G.scenario(
        {
            "players": 2,
            "options": {"ruleset": "cs1999"},
            "hands": [{"toppings": {"salami": 5}}, {"toppings": {"salami": 1, "olive": 2}}],
            "waiters": [[], ["yellow_mixed"]],
            "supply": ["salami", "mamma_mia"],
        }
    )
    play(s, GREEN, PlayToppings("salami", 1))
    assert s.hand_size(GREEN) == 4 and s.step == REFILL
    counts_offered = sorted(a.count for a in s.legal_actions(GREEN))
    assert counts_offered == [0, 1, 2]  # 2 cards left: the salami and the Mamma Mia! card
    events = play(s, GREEN, DrawCount("supply", 2))
    assert first(events, "drew").data == {"seat": GREEN, "source": "supply", "count": 1}
    assert first(events, "drew_cards").data["toppings"] == {"salami": 1}
    assert first(events, "mamma_mia_drawn").data == {"seat": GREEN}
    # The supply is empty: phase 1 ends at once, and green opens the oven.
    assert first(events, "phase_one_ended").data == {"reason": "supply_empty", "opener": GREEN}
    assert first(events, "round_ended").data["round"] == 1
    assert s.round == 2 and s.start_player == GREEN
    assert check_invariants(s) == []


def test_option_cs1999_asking_for_one_keeps_one_and_the_round_goes_on():
    s = G.scenario(
        {
            "players": 2,
            "options": {"ruleset": "cs1999"},
            "hands": [{"toppings": {"salami": 5}}, {"toppings": {"salami": 1, "olive": 2}}],
            "waiters": [[], ["yellow_mixed"]],
            "supply": ["salami", "mamma_mia"],
        }
    )
    play(s, GREEN, PlayToppings("salami", 1))
    events = play(s, GREEN, DrawCount("supply", 1))
    assert hand(s, GREEN) == {"salami": 5} and s.holder == -1 and s.supply == [MAMMA_MIA_CARD]
    assert "phase_one_ended" not in kinds_of(events)
    assert s.to_move == (BROWN,)


def test_option_mamma_mia_card_setup_before_dealing():
    """The second zh rulebook: the card is shuffled in before the deal; whoever is dealt it lays it
    out and is dealt a replacement, so every hand still holds 6 toppings."""
    assert Options().mamma_mia_card_setup == "after_dealing"  # today's default is kept
    dealt_it = 0
    for players in (2, 3, 4, 5):
        for seed in range(40):
            s = G.new_game(players, seed, {"mamma_mia_card_setup": "before_dealing"})
            assert check_invariants(s) == []
            assert all(sum(hand(s, p).values()) == 6 for p in range(players))
            default = G.new_game(players, seed)
            assert len(s.supply) + (s.holder >= 0) == len(default.supply)
            if s.holder >= 0:
                dealt_it += 1
                assert MAMMA_MIA_CARD not in s.supply
                assert s.view(None)["mamma_mia_holder"] == s.holder
            else:
                assert s.supply.count(MAMMA_MIA_CARD) == 1
    # At 5 players 30 of 36 cards are dealt (plus replacements): the card is usually dealt.
    assert 40 < dealt_it < 160


def test_option_mamma_mia_card_setup_before_dealing_holder_opens_the_oven():
    for seed in range(200):
        s = G.new_game(2, seed, {"mamma_mia_card_setup": "before_dealing", "first_player": "seat0"})
        if s.holder == BROWN:
            break
    else:
        pytest.fail("no seed deals the Mamma Mia! card to brown")
    rnd = __import__("random").Random(seed)
    while s.round == 1 and s.opener < 0:
        seat = s.to_move[0]
        play(s, seat, rnd.choice(s.legal_actions(seat)))
    assert s.opener == BROWN  # the holder opens the oven and starts the next round
