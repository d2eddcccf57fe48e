"""One test per card effect, each showing the effect change the outcome (spec §11, cards.json)."""

from __future__ import annotations

import json
from importlib import resources

from parlor.games.mottainai import actions as A
from parlor.games.mottainai.actions import (
    Collect,
    CollectTop,
    Complete,
    Craft,
    Decline,
    DiscardToFloor,
    Done,
    FreeComplete,
    KiteGive,
    MoveWork,
    Pass,
    PickCard,
    PickMaterial,
    PickOption,
    PickWing,
    Pray,
    Refill,
    Reveal,
    Sell,
    SellAll,
    SellTop,
    SendPaper,
    SkipTask,
    SwapHands,
    TakeHelper,
    TakeSale,
    TakeTask,
    TakeWork,
    TaskFromHelper,
    UseEffect,
)
from parlor.games.mottainai.cards import final_result, final_scores
from parlor.games.mottainai.data import BELL, CARD_IDS, CARD_INDEX

from .helpers import actions_left, decision, ids, kinds, legal, names, play, scen

FLOOR = ["haniwa", "pillar", "bench", "lampshade"]
TESTED: set[str] = set()


def card(name: str):
    """Mark a test as covering a card (the coverage test below checks every card has one)."""

    def mark(fn):
        TESTED.add(name)
        return fn

    return mark


# ====================================================================== Paper
@card("crane")
def test_crane_returns_paper_from_the_bench_as_support():
    base = dict(tasks=["bell", None], hands=[["coin", "flute", "poem"], []], craft_bench=[["scroll"], []], floor=FLOOR)
    assert Complete("coin", "gallery") not in legal(scen(**base))
    s = scen(**base, gallery=[["crane"], []])
    play(s, Complete("coin", "gallery"))
    assert decision(s) == "support" and set(legal(s)) == {Reveal("flute"), SendPaper("scroll")}
    play(s, Reveal("flute"))
    assert legal(s) == [SendPaper("scroll")]  # the hand has no second Metal card
    play(s, SendPaper("scroll"))
    assert names(s.gallery[0]) == ["coin", "crane"]
    assert s.bench[0] == () and s.deck[0] == CARD_INDEX["scroll"]  # spent: on the deck bottom


def test_crane_is_offered_even_when_the_hand_could_support_the_work():
    s = scen(tasks=["bell", None], hands=[["coin", "flute", "gong", "pin"], []], craft_bench=[["scroll", "poem"], []],
             gallery=[["crane"], []], floor=FLOOR)  # fmt: skip
    play(s, Complete("coin", "gallery"))
    assert set(legal(s)) == {Reveal("flute"), Reveal("gong"), Reveal("pin"), SendPaper("poem"), SendPaper("scroll")}
    play(s, SendPaper("scroll"))
    play(s, SendPaper("poem"))  # nothing revealed from the hand at all
    assert names(s.gallery[0]) == ["coin", "crane"] and s.known[0] == ()
    assert [CARD_IDS[c] for c in s.deck[:2]] == ["poem", "scroll"]  # the later one under the earlier


def test_smith_support_is_the_players_choice():
    s = scen(tasks=["bell", None], hands=[["gong", "pin", "ring", "shuriken"], []], floor=FLOOR)
    play(s, Complete("gong", "gallery"))
    assert decision(s) == "support" and set(legal(s)) == {Reveal("pin"), Reveal("ring"), Reveal("shuriken")}
    play(s, Reveal("shuriken"))
    assert set(legal(s)) == {Reveal("pin"), Reveal("ring")}
    play(s, Reveal("ring"))
    assert names(s.gallery[0]) == ["gong"] and names(s.known[0]) == ["ring", "shuriken"]


@card("curtain")
def test_curtain_gates_an_opponents_tailor_task():
    s = scen(tasks=[None, "robe"], hands=[["kite"], []], floor=FLOOR)
    assert decision(s) == "action"
    s = scen(tasks=[None, "robe"], hands=[["kite"], []], gallery=[[], ["curtain"]], floor=FLOOR)
    assert decision(s) == "gate" and set(legal(s)) == {Reveal("kite"), SkipTask()}
    assert "task_skipped" in kinds(play(s, SkipTask()))


@card("deck_of_cards")
def test_deck_of_cards_draws_after_a_smith_paper_work():
    base = dict(tasks=["bell", None], hands=[["scroll", "coin"], []], floor=FLOOR)
    s = scen(**base)
    play(s, Complete("scroll", "gift_shop"))
    assert decision(s) != "triggers"
    s = scen(**base, gallery=[["deck_of_cards"], []])
    play(s, Complete("scroll", "gift_shop"))
    assert legal(s) == [UseEffect("deck_of_cards"), Done()]
    play(s, UseEffect("deck_of_cards"))
    assert len(s.hands[0]) == 2  # coin + the card drawn (picked up at night)


@card("doll")
def test_doll_takes_an_opponents_task_with_one_more_action():
    s = scen(start="morning", tasks=[None, "bowl"], gallery=[["doll"], []], floor=FLOOR)
    assert TakeTask(1) in legal(s)
    play(s, TakeTask(1))
    assert s.tasks[1] == -1 and CARD_IDS[s.tasks[0]] == "bowl"
    assert actions_left(s) == 2


@card("fan")
def test_fan_keeps_one_of_three_on_top():
    s = scen(
        tasks=["kite", None],
        gallery=[["fan"], []],
        hands=[["poem"], []],
        deck=["jar", "vase", "cup", "dice", "coin", "gong"],
        floor=FLOOR,
    )
    play(s, Refill())
    play(s, UseEffect("fan"))
    assert set(legal(s)) == {PickCard("jar"), PickCard("vase"), PickCard("cup")}
    play(s, PickCard("cup"))
    assert decision(s) == "fan_order" and set(legal(s)) == {PickCard("jar"), PickCard("vase")}
    assert CARD_IDS[s.deck[-1]] == "jar"  # the cards stay on the deck until the order is chosen
    play(s, PickCard("vase"))  # vase goes under first, jar under it
    assert CARD_IDS[s.deck[-1]] == "cup" and [CARD_IDS[c] for c in s.deck[:2]] == ["jar", "vase"]
    assert s.view(1)["deck_top"] == "cup"  # revealed to everyone


@card("lampshade")
def test_lampshade_wins_a_clay_tie():
    base = dict(sales=[["bowl"], ["cup"]], hands=[["vase"], []], over=True)
    assert final_scores(scen(**base))[0]["backorders"] == 0
    assert final_scores(scen(**base, gallery=[["lampshade"], []]))[0]["backorders"] == 3


@card("pinwheel")
def test_pinwheel_swaps_a_hand_card_at_night():
    s = scen(start="night", hands=[["poem", "scroll"], []], gallery=[["pinwheel"], []], deck=["jar", "vase", "cup"])
    play(s, UseEffect("pinwheel"))
    play(s, PickCard("poem"))
    play(s, UseEffect("pinwheel"))
    assert names(s.hands[0]) == ["jar", "scroll"]
    assert CARD_IDS[s.deck[0]] == "poem"


@card("plane")
def test_plane_moves_a_work_after_collecting():
    s = scen(tasks=["bowl", None], gallery=[["plane", "scroll"], []], floor=FLOOR)
    play(s, Collect("bench"))
    assert MoveWork("scroll", "gallery") in legal(s)
    play(s, MoveWork("scroll", "gallery"))
    assert names(s.gift[0]) == ["scroll"]


@card("poem")
def test_poem_trades_the_paper_work_for_the_top_card():
    s = scen(tasks=["bell", None], hands=[["scroll"], []], gallery=[["poem"], []], deck=["jar", "vase"], floor=FLOOR)
    play(s, Complete("scroll", "gallery"))
    play(s, UseEffect("poem"))
    play(s, PickWing("gift_shop"))
    assert names(s.gift[0]) == ["jar"] and names(s.gallery[0]) == ["poem"]
    assert CARD_IDS[s.deck[0]] == "scroll"


@card("scroll")
def test_scroll_scores_three():
    assert final_scores(scen(gallery=[["scroll"], []], over=True))[0]["bonus"] == 3


@card("sketch")
def test_sketch_turns_a_helper_into_the_task():
    s = scen(start="morning", helpers=[["kite"], []], gallery=[["sketch"], []], floor=FLOOR)
    play(s, TaskFromHelper("kite"))
    assert CARD_IDS[s.tasks[0]] == "kite" and s.helpers[0] == ()


@card("straw")
def test_straw_lowers_support():
    base = dict(tasks=["bell", None], hands=[["kite", "bowl", "cup"], []], floor=FLOOR)
    assert Complete("kite", "gallery") not in legal(scen(**base))
    assert Complete("kite", "gallery") in legal(scen(**base, gallery=[["straw"], []]))


# ====================================================================== Stone
@card("amulet")
def test_amulet_sells_from_the_bench_after_a_completion():
    s = scen(tasks=["bell", None], hands=[["scroll"], []], craft_bench=[["jar"], []], gallery=[["amulet"], []],
             floor=FLOOR)  # fmt: skip
    play(s, Complete("scroll", "gift_shop"))
    play(s, UseEffect("amulet"))
    assert names(s.sales[0]) == ["jar"]


@card("bench")
def test_bench_two_points_per_stone_work():
    assert final_scores(scen(gallery=[["bench", "frog"], []], over=True))[0]["bonus"] == 4


@card("daitoro")
def test_daitoro_fills_the_floor_to_three():
    s = scen(start="morning", gallery=[["daitoro"], []], floor=["tower"], hands=[["poem"], []])
    play(s, UseEffect("daitoro"))
    assert len(s.floor) == 3


@card("fountain")
def test_fountain_stone_reveals_add_clerk_actions():
    base = dict(tasks=["fan", None], hands=[["frog", "stool"], []], craft_bench=[["jar"], []], floor=FLOOR)
    assert actions_left(scen(**base)) == 1
    s = scen(**base, gallery=[["fountain"], []])
    play(s, Reveal("frog"))
    play(s, Reveal("stool"))
    assert legal(s) == [Done()]  # still asked: the others cannot see the hand is out of Stone
    play(s, Done())
    assert actions_left(s) == 3


@card("frog")
def test_frog_gives_an_extra_turn_to_the_player_with_fewest_works():
    s = scen(tasks=["amulet", None], hands=[["frog", "fan"], []], craft_bench=[["tablet"], []],
             gift_shop=[[], ["poem"]], floor=FLOOR)  # fmt: skip
    play(s, Craft("frog", "gallery"))
    turn = s.turns
    play(s, UseEffect("frog"))
    assert s.active == 0 and s.turns == turn + 1


@card("go_set")
def test_go_set_stone_works_cover_in_both_wings():
    base = dict(tasks=["amulet", None], helpers=[["daitoro", "tablet"], []], floor=FLOOR)
    assert actions_left(scen(**base, gift_shop=[["frog", "poem"], []])) == 3
    assert actions_left(scen(**base, gift_shop=[["frog", "go_set"], []])) == 5


@card("pillar")
def test_pillar_covers_the_most_sold_material():
    assert final_scores(scen(sales=[["bowl", "cup"], []], over=True))[0]["sales"] == 0
    assert final_scores(scen(sales=[["bowl", "cup"], []], gallery=[["pillar"], []], over=True))[0]["sales"] == 6


@card("statue")
def test_statue_takes_two_floor_cards_into_the_bench():
    s = scen(tasks=["amulet", None], hands=[["statue"], []], craft_bench=[["frog"], []], floor=FLOOR)
    play(s, Craft("statue", "gallery"))
    play(s, UseEffect("statue"))
    play(s, PickCard("bench"))
    play(s, PickCard("pillar"))
    assert names(s.bench[0]) == ["bench", "frog", "pillar"]


@card("stool")
def test_stool_draws_after_a_stone_work():
    s = scen(tasks=["amulet", None], hands=[["stool"], []], craft_bench=[["frog"], []], floor=FLOOR)
    play(s, Craft("stool", "gallery"))
    play(s, UseEffect("stool"))
    assert len(s.hands[0]) == 1  # the card drawn, picked up at night


@card("tablet")
def test_tablet_returns_the_floor():
    s = scen(tasks=["amulet", None], hands=[["tablet"], ["poem"]], craft_bench=[["frog"], []], floor=FLOOR)
    deck = len(s.deck)
    play(s, Craft("tablet", "gallery"))
    play(s, UseEffect("tablet"))
    play(s, PickOption("return_floor"))
    assert decision(s) == "floor_return" and len(legal(s)) == 4  # the player orders them
    for c in ("pillar", "haniwa", "lampshade"):
        play(s, PickCard(c))
    assert s.floor == () and len(s.deck) == deck + 4
    assert [CARD_IDS[c] for c in s.deck[:4]] == ["bench", "lampshade", "haniwa", "pillar"]


def test_tablet_restocks_until_stone_and_metal():
    s = scen(tasks=["amulet", None], hands=[["tablet"], []], craft_bench=[["frog"], []], floor=["poem"],
             deck=["jar", "coin", "vase", "stool", "cup", "dice"])  # fmt: skip
    play(s, Craft("tablet", "gallery"))
    play(s, UseEffect("tablet"))
    play(s, PickOption("restock_floor"))
    assert names(s.floor) == ["coin", "jar", "poem", "stool", "vase"]


@card("tower")
def test_tower_gates_an_opponents_monk_task():
    s = scen(tasks=[None, "amulet"], hands=[["frog"], []], gallery=[[], ["tower"]], floor=FLOOR)
    assert decision(s) == "gate"
    play(s, Reveal("frog"))
    assert decision(s) == "action" and names(s.known[0]) == ["frog"]


# ====================================================================== Cloth
@card("cloak")
def test_cloak_swaps_the_new_work_for_a_free_metal_work():
    s = scen(tasks=["bell", None], hands=[["scroll", "coin"], []], gallery=[["cloak"], []], floor=FLOOR)
    play(s, Complete("scroll", "gallery"))
    play(s, UseEffect("cloak"))
    play(s, FreeComplete("coin", "gallery"))
    assert names(s.gallery[0]) == ["cloak", "coin"]
    assert CARD_IDS[s.deck[0]] == "scroll"


@card("flag")
def test_flag_reveal_adds_an_action_to_your_own_task():
    base = dict(tasks=["bowl", None], hands=[["jar"], []], floor=FLOOR)
    assert actions_left(scen(**base)) == 1
    s = scen(**base, gallery=[["flag"], []])
    play(s, Reveal("jar"))
    assert actions_left(s) == 2


@card("handkerchief")
def test_handkerchief_puts_a_hand_card_on_the_floor():
    s = scen(start="morning", hands=[["poem", "scroll"], []], gallery=[["handkerchief"], []])
    play(s, DiscardToFloor("poem"))
    assert names(s.floor) == ["poem"]


@card("kite")
def test_kite_gives_a_card_and_copies_a_work():
    s = scen(start="morning", hands=[["poem", "fan"], []], gallery=[["kite"], ["bell"]], deck=["jar", "vase", "cup"])
    play(s, UseEffect("kite"))
    assert legal(s) == [KiteGive("fan", 1), KiteGive("poem", 1), Decline()]
    play(s, KiteGive("poem", 1))
    assert names(s.bench[1]) == ["poem"]
    assert s.has(0, BELL) == 1 and s.view(1)["players_info"][0]["works_as"]["gallery"] == ["bell"]


@card("mask")
def test_mask_forbids_craft_and_prayer_on_its_owners_task():
    base = dict(tasks=[None, "bowl"], floor=FLOOR)
    assert Pray() in legal(scen(**base))
    s = scen(**base, gallery=[[], ["mask"]])
    assert Pray() not in legal(s) and Pass() in legal(s)


@card("puppet")
def test_puppet_swaps_hands():
    s = scen(tasks=["kite", None], hands=[["poem"], ["jar", "vase"]], gallery=[["puppet"], []], floor=FLOOR)
    play(s, Refill())
    play(s, SwapHands(1))
    assert names(s.hands[1]) == ["poem"]
    assert {"jar", "vase"} <= set(names(s.hands[0]))  # received face down, picked up at night
    assert CARD_IDS[s.deck[0]] == "puppet"


@card("quilt")
def test_quilt_covers_paper_stone_cloth_sales():
    base = dict(sales=[["poem", "fan", "frog"], []], over=True)
    assert final_scores(scen(**base))[0]["sales"] == 0
    assert final_scores(scen(**base, gallery=[["quilt"], []]))[0]["sales"] == 4


@card("robe")
def test_robe_sells_all_of_one_material():
    base = dict(tasks=["fan", None], craft_bench=[["jar", "vase", "poem"], []], floor=FLOOR)
    assert SellAll("clay") not in legal(scen(**base))
    s = scen(**base, gallery=[["robe"], []])
    play(s, SellAll("clay"))
    assert names(s.sales[0]) == ["jar", "vase"]


@card("socks")
def test_socks_collects_the_top_card():
    s = scen(tasks=["bowl", None], gallery=[["socks"], []], deck=["jar", "vase"], floor=FLOOR)
    play(s, CollectTop())
    assert names(s.bench[0]) == ["jar"]


@card("tapestry")
def test_tapestry_counts_its_wing():
    assert final_scores(scen(gallery=[["tapestry", "poem", "fan"], []], over=True))[0]["bonus"] == 3


@card("umbrella")
def test_umbrella_flips_a_card_and_sells_a_matching_helper():
    s = scen(start="morning", gallery=[["umbrella"], []], helpers=[["cup"], []], hands=[["poem"], []],
             deck=["jar", "vase"])  # fmt: skip
    play(s, UseEffect("umbrella"))
    assert names(s.floor) == ["jar"]
    play(s, PickCard("cup"))
    assert names(s.sales[0]) == ["cup"]


# ====================================================================== Clay
@card("bangle")
def test_bangle_blocks_opponents_helpers_and_covers_own_stone_helpers():
    base = dict(tasks=[None, "bowl"], helpers=[["cup", "dice"], []], floor=FLOOR)
    assert actions_left(scen(**base, gallery=[["teapot"], []])) == 5
    assert actions_left(scen(**base, gallery=[["teapot"], ["bangle"]])) == 1
    own = dict(tasks=["amulet", None], helpers=[["frog", "stool"], []], floor=FLOOR)
    assert actions_left(scen(**own)) == 3
    assert actions_left(scen(**own, gallery=[["bangle"], []])) == 5


@card("bowl")
def test_bowl_moves_the_top_card_to_the_bench():
    s = scen(start="morning", gallery=[["bowl"], []], hands=[["poem"], []], deck=["jar", "vase"])
    play(s, UseEffect("bowl"))
    assert names(s.bench[0]) == ["jar"]


@card("brick")
def test_brick_counts_face_up_tasks_as_support():
    base = dict(tasks=["bell", "coin"], hands=[["flute"], []], floor=FLOOR)
    assert Complete("flute", "gallery") not in legal(scen(**base))
    assert Complete("flute", "gallery") in legal(scen(**base, gallery=[["brick"], []]))


@card("cup")
def test_cup_ends_the_game_after_a_prayer():
    s = scen(gallery=[["cup"], []], deck=["jar", "vase", "dice"])
    play(s, UseEffect("cup"))
    assert s.is_over and s.end_reason == "cup" and names(s.gallery[0]) == []


@card("dice")
def test_dice_completes_the_top_card_when_its_value_is_the_hand_size():
    s = scen(tasks=["kite", None], hands=[["poem", "scroll"], []], gallery=[["dice"], []],
             deck=["frog", "jar", "vase", "cup"], floor=FLOOR)  # fmt: skip
    play(s, Refill())
    play(s, UseEffect("dice"))
    play(s, PickWing("gift_shop"))
    assert names(s.gift[0]) == ["frog"]


@card("figurine")
def test_figurine_adds_an_action_to_an_opponents_task():
    base = dict(tasks=[None, "bowl"], hands=[["jar"], []], floor=FLOOR)
    assert actions_left(scen(**base)) == 1
    s = scen(**base, gallery=[["figurine"], []])
    play(s, Reveal("jar"))
    assert actions_left(s) == 2


@card("haniwa")
def test_haniwa_three_per_helper_of_the_main_material():
    assert (
        final_scores(scen(helpers=[["cup", "dice", "poem"], []], gallery=[["haniwa"], []], over=True))[0]["bonus"] == 6
    )


@card("jar")
def test_jar_takes_the_named_material_from_opponents():
    s = scen(tasks=["dice", None], hands=[["jar"], ["poem", "scroll", "frog"]], craft_bench=[["cup", "vase"], []],
             floor=FLOOR)  # fmt: skip
    play(s, Craft("jar", "gallery"))
    play(s, UseEffect("jar"))
    play(s, PickMaterial("paper"))
    assert names(s.hands[1]) == ["frog"]


@card("teapot")
def test_teapot_three_per_bench_card_of_the_main_material():
    assert (
        final_scores(scen(craft_bench=[["cup", "dice", "poem"], []], gallery=[["teapot"], []], over=True))[0]["bonus"]
        == 6
    )


@card("vase")
def test_vase_sells_two_floor_cards():
    s = scen(tasks=["dice", None], hands=[["vase"], []], craft_bench=[["cup", "bowl"], []], floor=FLOOR)
    play(s, Craft("vase", "gallery"))
    play(s, UseEffect("vase"))
    play(s, PickCard("bench"))
    play(s, PickCard("pillar"))
    assert names(s.sales[0]) == ["bench", "pillar"]


# ====================================================================== Metal
@card("bell")
def test_bell_sells_the_top_card():
    base = dict(tasks=["fan", None], deck=["jar", "vase"], floor=FLOOR)
    assert SellTop() not in legal(scen(**base, craft_bench=[["poem"], []]))
    s = scen(**base, gallery=[["bell"], []])
    play(s, SellTop())
    assert names(s.sales[0]) == ["jar"]


@card("chopsticks")
def test_chopsticks_sends_the_old_task_to_sales():
    s = scen(start="morning", tasks=["fan", None], hands=[["poem"], []], gallery=[["chopsticks"], []])
    play(s, UseEffect("chopsticks"))
    assert names(s.sales[0]) == ["fan"]


@card("coin")
def test_coin_counts_backorders_twice():
    base = dict(sales=[["bowl"], []], hands=[["jar"], []], over=True)
    assert final_scores(scen(**base))[0]["backorders"] == 3
    assert final_scores(scen(**base, gallery=[["coin"], []]))[0]["backorders"] == 6


@card("flute")
def test_flute_hires_an_opponents_paper_work():
    base = dict(tasks=["amulet", None], gallery=[[], ["scroll"]], floor=FLOOR)
    assert TakeWork(1, "scroll", "gallery") not in legal(scen(**base))
    s = scen(**{**base, "gallery": [["flute"], ["scroll"]]})
    play(s, TakeWork(1, "scroll", "gallery"))
    assert names(s.helpers[0]) == ["scroll"] and s.gallery[1] == ()


@card("gong")
def test_gong_draws_three_more_and_goes_to_the_waiting_area():
    s = scen(gallery=[["gong"], []], deck=["jar", "vase", "cup", "dice", "bowl", "teapot"])
    play(s, UseEffect("gong"))
    assert names(s.hands[0]) == ["cup", "dice", "gong", "jar", "vase"]


@card("pin")
def test_pin_gives_a_morning_tailor_action():
    s = scen(start="morning", gallery=[["pin"], []], hands=[["poem"], []], deck=["jar", "vase", "cup", "dice", "bowl"])
    play(s, UseEffect("pin"))
    play(s, Done())  # return nothing
    assert len(s.waiting[0]) == 4


@card("ring")
def test_ring_takes_a_sale_from_a_player_with_more():
    s = scen(tasks=["fan", None], craft_bench=[["jar"], []], sales=[[], ["poem", "scroll"]], gallery=[["ring"], []],
             floor=FLOOR)  # fmt: skip
    play(s, Sell("jar"))
    play(s, TakeSale(1, "poem"))
    assert names(s.sales[0]) == ["jar", "poem"]


@card("shuriken")
def test_shuriken_takes_a_work_from_a_player_with_more():
    s = scen(tasks=["bell", None], hands=[["shuriken", "coin", "flute"], []], gallery=[[], ["poem", "scroll", "frog"]],
             floor=FLOOR)  # fmt: skip
    play(s, Complete("shuriken", "gallery"))
    play(s, Reveal("coin"))
    play(s, Reveal("flute"))
    play(s, UseEffect("shuriken"))
    play(s, TakeWork(1, "frog", "gallery"))
    play(s, PickWing("gift_shop"))
    assert names(s.gift[0]) == ["frog"] and names(s.gallery[1]) == ["poem", "scroll"]


@card("sword")
def test_sword_hires_a_helper_from_a_player_with_more():
    base = dict(tasks=["amulet", None], helpers=[[], ["poem", "scroll"]], floor=FLOOR)
    assert TakeHelper(1, "poem") not in legal(scen(**base))
    s = scen(**base, gallery=[["sword"], []])
    play(s, TakeHelper(1, "poem"))
    assert names(s.helpers[0]) == ["poem"]


@card("turtle")
def test_turtle_wins_with_all_five_materials():
    s = scen(tasks=["bell", None], hands=[["bowl", "cup", "dice"], []], gallery=[["turtle", "poem"], ["coin", "gong"]],
             gift_shop=[["frog", "kite"], ["flute", "sword"]], floor=FLOOR)  # fmt: skip
    play(s, Complete("bowl", "gift_shop"))
    play(s, Reveal("cup"))
    play(s, Reveal("dice"))
    assert s.is_over and s.end_reason == "turtle"
    res = final_result(s)
    assert res.scores[1] > res.scores[0] and res.winners == (0,)


# ====================================================================== coverage
def test_every_card_has_a_test():
    data = json.loads(resources.files("parlor.games.mottainai").joinpath("cards.json").read_text("utf-8"))
    assert {c["id"] for c in data} == TESTED
    assert len(A.ACTION_SPACE) > 0 and ids("poem")


def test_every_card_is_registered_with_its_rules_function():
    from parlor.games.mottainai.data import CARD_IDS
    from parlor.games.mottainai.rules import CARD_RULES

    assert set(CARD_RULES) == set(CARD_IDS)
    assert all(callable(fn) for fn in CARD_RULES.values())
