"""Every worked example of spec §19 and of the v0.84 seed, as scenario tests."""

from __future__ import annotations

from parlor.games.mottainai.actions import Collect, Complete, Craft, Hire, Reveal, Sell
from parlor.games.mottainai.cards import final_result, final_scores

from .helpers import actions_left, kinds, legal, names, play, scen

FLOOR = ["tower", "socks", "sword", "umbrella"]


# ---------------------------------------------------------------- §19.1 action count
def test_two_covered_clay_helpers_give_five_actions():
    s = scen(tasks=["bowl", None], helpers=[["cup", "dice"], []], gallery=[["teapot"], []], floor=FLOOR)
    assert actions_left(s) == 1 + 2 + 2


def test_four_clay_helpers_one_clay_work_are_not_covered():
    s = scen(tasks=["bowl", None], helpers=[["cup", "dice", "jar", "vase"], []], gallery=[["teapot"], []], floor=FLOOR)
    assert actions_left(s) == 1 + 4


def test_clay_work_in_the_gift_shop_does_not_cover_helpers():
    s = scen(tasks=["bowl", None], helpers=[["cup", "dice"], []], gift_shop=[["teapot"], []], floor=FLOOR)
    assert actions_left(s) == 1 + 1 + 1


def test_the_same_count_applies_to_an_opponents_task():
    # Seat 1's Potter task, performed by seat 0 with seat 0's helpers.
    s = scen(tasks=[None, "bowl"], helpers=[["cup", "dice"], []], gallery=[["teapot"], []], floor=FLOOR)
    assert s.view(None)["decision"]["owner"] == 1
    assert actions_left(s) == 5


# ---------------------------------------------------------------- §19.2 Smith
def test_smith_metal_work_needs_two_other_metal_cards_revealed_and_kept():
    s = scen(tasks=["bell", None], hands=[["coin", "flute", "gong", "poem"], []], floor=FLOOR)
    assert Complete("coin", "gallery") in legal(s)
    play(s, Complete("coin", "gallery"))
    assert set(legal(s)) == {Reveal("flute"), Reveal("gong")}  # the player reveals the support
    play(s, Reveal("gong"))
    play(s, Reveal("flute"))
    assert names(s.hands[0]) == ["flute", "gong", "poem"]
    assert names(s.known[0]) == ["flute", "gong"]  # revealed support stays known, in hand
    assert names(s.gallery[0]) == ["coin"]


def test_smith_needs_support_in_hand_and_paper_needs_none():
    s = scen(tasks=["bell", None], hands=[["coin", "flute", "poem"], []], floor=FLOOR)
    options = legal(s)
    assert Complete("coin", "gallery") not in options  # one other Metal card only
    assert Complete("poem", "gift_shop") in options  # Paper: no support


def test_straw_lowers_cloth_and_clay_support():
    base = dict(tasks=["bell", None], hands=[["kite", "bowl", "cup"], []], floor=FLOOR)
    s = scen(**base)
    assert Complete("kite", "gallery") not in legal(s)
    assert Complete("bowl", "gallery") not in legal(s)
    s = scen(**base, gallery=[["straw"], []])
    assert Complete("kite", "gallery") in legal(s)  # Cloth: no support
    assert Complete("bowl", "gallery") in legal(s)  # Clay: one support (cup)


# ---------------------------------------------------------------- §19.3 Craft
def test_monk_action_crafts_a_stone_work_with_one_stone_in_the_craft_bench():
    s = scen(tasks=["amulet", None], hands=[["bench", "poem"], []], craft_bench=[["frog"], []], floor=FLOOR)
    assert Craft("bench", "gallery") in legal(s)
    play(s, Craft("bench", "gallery"))
    assert names(s.bench[0]) == ["frog"]  # counted, not spent
    assert names(s.gallery[0]) == ["bench"]


def test_craft_without_bench_support_is_not_offered():
    s = scen(tasks=["amulet", None], hands=[["bench", "poem"], []], floor=FLOOR)
    assert not any(isinstance(a, Craft) for a in legal(s))


# ---------------------------------------------------------------- §19.4 sales cover
def test_two_stone_sales_covered_by_one_stone_work():
    s = scen(sales=[["frog", "stool"], []], gift_shop=[["tablet"], []], over=True)
    assert final_scores(s)[0]["sales"] == 4
    s = scen(sales=[["frog", "stool", "pillar"], []], gift_shop=[["tablet"], []], over=True)
    assert final_scores(s)[0]["sales"] == 0


# ---------------------------------------------------------------- §19.5 backorders
def test_backorders_strict_lead():
    s = scen(
        players=3,
        sales=[["bowl", "cup"], ["dice"], []],
        hands=[["jar", "vase"], ["teapot"], ["haniwa"]],
        over=True,
    )
    rows = final_scores(s)
    assert [r["backorders"] for r in rows] == [6, 0, 0]


def test_backorders_tie_gives_nothing_unless_lampshade():
    base = dict(players=3, sales=[["bowl", "cup"], ["dice", "jar"], []], hands=[["vase"], ["teapot"], ["haniwa"]])
    s = scen(**base, over=True)
    assert [r["backorders"] for r in final_scores(s)] == [0, 0, 0]
    s = scen(**base, gallery=[["lampshade"], [], []], over=True)
    assert [r["backorders"] for r in final_scores(s)] == [3, 0, 0]
    # All at 0 Clay sales: a Lampshade holder still qualifies.
    s = scen(players=3, hands=[["vase"], ["teapot"], []], gallery=[["lampshade"], [], []], over=True)
    assert final_scores(s)[0]["backorders"] == 3


def test_two_lampshade_holders_both_qualify_with_two_decks():
    s = scen(
        players=4,
        sales=[["bowl", "cup"], ["bowl", "cup"], [], []],
        hands=[["vase"], ["vase"], [], []],
        gallery=[["lampshade"], ["lampshade"], [], []],
        over=True,
    )
    assert [r["backorders"] for r in final_scores(s)][:2] == [3, 3]


# ---------------------------------------------------------------- §19.6 tie-break
def test_tie_goes_to_the_first_tied_player_after_the_current_one():
    # A = seat 0, B = seat 1 (current), C = seat 2: A and C tie on one Paper work each.
    s = scen(players=3, active=1, gallery=[["poem"], [], ["fan"]], over=True)
    res = final_result(s)
    assert res.scores[0] == res.scores[2]
    assert res.winners == (2,)


def test_current_player_wins_its_own_tie():
    s = scen(players=3, active=2, gallery=[["poem"], [], ["fan"]], over=True)
    assert final_result(s).winners == (2,)


# ---------------------------------------------------------------- the seed's examples
def test_three_clerk_actions_clerk_craft_clerk():
    s = scen(
        tasks=["fan", None],
        helpers=[["poem", "scroll"], []],
        gallery=[["crane"], []],
        hands=[["plane", "bowl"], []],
        craft_bench=[["frog", "stool"], []],
        floor=FLOOR,
    )
    assert actions_left(s) == 1 + 1 + 1  # two Paper helpers, capacity 1: uncovered
    play(s, Sell("frog"))
    play(s, Craft("plane", "gift_shop"))  # a Paper work needs no support
    play(s, Sell("stool"))
    assert names(s.sales[0]) == ["frog", "stool"]
    assert names(s.gift[0]) == ["plane"]


def test_three_clerk_actions_clerk_prayer_prayer():
    s = scen(
        tasks=["fan", None],
        helpers=[["poem", "scroll"], []],
        gallery=[["crane"], []],
        craft_bench=[["frog"], []],
        floor=FLOOR,
        deck=["jar", "vase", "cup", "dice"],
    )
    events = play(s, Sell("frog"))
    # Nothing left to sell or craft: the two remaining actions are forced Prayers.
    turn = kinds(events)[: kinds(events).index("pickup")]
    assert turn.count("pray") == 2


def test_a_stone_work_that_draws_after_stone_completions_draws_for_itself():
    s = scen(tasks=["amulet", None], hands=[["stool", "frog"], []], craft_bench=[["tablet"], []], floor=FLOOR)
    play(s, Craft("stool", "gallery"))
    assert "triggers" in s.view(None)["decision"]["kind"]
    from parlor.games.mottainai.actions import UseEffect

    before = len(s.deck)
    play(s, UseEffect("stool"))
    assert len(s.deck) == before - 1


def test_the_game_ends_at_once_on_the_fifth_work_and_its_effect_does_not_resolve():
    s = scen(
        tasks=["bell", None],
        hands=[["stool", "frog"], []],
        gallery=[["poem", "scroll", "fan", "plane"], []],
        floor=FLOOR,
    )
    play(s, Complete("stool", "gallery"))
    events = play(s, Reveal("frog"))
    assert s.is_over and s.end_reason == "wing"
    assert "use_effect" not in kinds(events)


def test_monk_hire_and_potter_collect_move_floor_cards():
    s = scen(tasks=["amulet", None], floor=FLOOR)
    play(s, Hire("tower"))
    assert names(s.helpers[0]) == ["tower"]
    s = scen(tasks=["bowl", None], floor=FLOOR)
    play(s, Collect("sword"))
    assert names(s.bench[0]) == ["sword"]


def test_one_smith_helper_completes_two_works():
    s = scen(tasks=["bell", None], helpers=[["ring"], []], hands=[["coin", "flute", "gong", "poem"], []], floor=FLOOR)
    assert actions_left(s) == 2
    for a in (Complete("coin", "gallery"), Reveal("flute"), Reveal("gong"), Complete("poem", "gift_shop")):
        play(s, a)
    assert names(s.gallery[0]) == ["coin"] and names(s.gift[0]) == ["poem"]


def test_two_potter_helpers_collect_three_materials():
    s = scen(tasks=["bowl", None], helpers=[["cup", "dice"], []], floor=FLOOR)
    assert actions_left(s) == 3
    for c in ("tower", "socks", "sword"):
        play(s, Collect(c))
    assert names(s.bench[0]) == ["socks", "sword", "tower"]


def test_craft_with_materials_collected_in_the_same_task():
    s = scen(tasks=["bowl", None], helpers=[["cup", "dice"], []], hands=[["jar", "poem"], []],
             floor=["vase", "haniwa", "tower"])  # fmt: skip
    assert Craft("jar", "gallery") not in legal(s)
    play(s, Collect("vase"))
    play(s, Collect("haniwa"))
    play(s, Craft("jar", "gallery"))  # the two Clay cards just collected support it
    assert names(s.gallery[0]) == ["jar"] and names(s.bench[0]) == ["haniwa", "vase"]


def test_a_before_tailor_effect_works_before_each_tailor_action():
    from parlor.games.mottainai.actions import Done, PickCard, Refill, UseEffect

    s = scen(tasks=["kite", None], helpers=[["mask"], []], gallery=[["fan"], []], hands=[["poem"], []],
             deck=["jar", "vase", "cup", "dice", "bowl", "teapot", "haniwa", "coin"], floor=FLOOR)  # fmt: skip
    assert actions_left(s) == 2
    for _ in range(2):
        play(s, Refill())
        assert UseEffect("fan") in legal(s)
        play(s, UseEffect("fan"))
        play(s, PickCard(names(s.deck[-3:])[0]))
        play(s, legal(s)[0])  # the order of the two cards going under the deck
        play(s, Done())


def test_game_end_leaves_the_waiting_area_unpicked():
    s = scen(tasks=["kite", None], hands=[["poem"], []], deck=["jar", "vase"], floor=FLOOR)
    from parlor.games.mottainai.actions import Done, Refill

    play(s, Refill())
    play(s, Done())
    assert s.is_over and s.end_reason == "deck"
    assert names(s.waiting[0]) == ["jar", "vase"] and names(s.hands[0]) == ["poem"]
    assert final_scores(s)[0]["backorders"] == 0
