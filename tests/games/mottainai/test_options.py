"""A test per rule option (spec §17, §18): each shows the option change the outcome."""

from __future__ import annotations

import pytest

from parlor.core import ParlorError, Rng
from parlor.games.mottainai import Options
from parlor.games.mottainai.actions import (
    Collect,
    Complete,
    Craft,
    Decline,
    Done,
    KiteGive,
    MoveWork,
    NoTask,
    Pass,
    PickCard,
    Pray,
    Refill,
    ReturnCard,
    Reveal,
    Sell,
    SkipTask,
    TakeTask,
    UseEffect,
)
from parlor.games.mottainai.cards import final_result, final_scores
from parlor.games.mottainai.data import CARD_INDEX
from parlor.games.mottainai.rules import choose_start_player

from .helpers import G, actions_left, decision, kinds, legal, names, play, scen

FLOOR = ["haniwa", "pillar", "bench", "lampshade"]


def test_ruleset_v084_sets_its_options_and_explicit_options_win():
    o = Options(ruleset="v0.84")
    assert (o.morning_order, o.setup_facedown_tasks, o.sales_tie_cards, o.max_players) == (
        "discard_then_effects", "all_but_start_player", "win_ties_exclusive", 6,
    )  # fmt: skip
    assert Options(ruleset="v0.84", morning_order="effects_then_discard").morning_order == "effects_then_discard"
    assert Options().max_players == 5


def test_player_counts_per_ruleset():
    with pytest.raises(ParlorError, match="2-5 players"):
        G.new_game(6, 0, Options())
    assert G.new_game(6, 0).options.max_players == 6  # no options given: the count's own option
    s = G.new_game(6, 0, {"ruleset": "v0.84"})
    assert len(s.deck) + sum(len(h) for h in s.hands) + len(s.floor) + sum(t >= 0 for t in s.tasks) == 108
    assert len(G.new_game(6, 0, {"max_players": 6}).hands) == 6
    with pytest.raises(ParlorError):
        G.new_game(1, 0)
    assert len(G.new_game(3, 0).deck) == 54 - 15 - 3 - 3
    assert len(G.new_game(4, 0).deck) == 108 - 20 - 4 - 4


def test_setup_facedown_tasks():
    # One deck, so no start-player tie: the floor holds one card per player, plus the start
    # player's face-down card (moved there in their first Morning) under the default.
    for options, floor in (({}, 4), ({"setup_facedown_tasks": "all_but_start_player"}, 3)):
        s = G.new_game(3, 5, options)
        facedown = [p for p in range(3) if s.tasks[p] >= 0 and not s.task_up[p]]
        assert s.start_player not in facedown and len(facedown) == 2
        assert len(s.floor) == floor


def test_morning_order():
    base = dict(start="morning", tasks=["fan", None], hands=[["poem"], []], gallery=[["bowl"], []])
    s = scen(**base)
    assert decision(s) == "morning_effects" and s.tasks[0] >= 0  # effects first: old task still there
    s = scen(**base, options={"morning_order": "discard_then_effects"})
    assert decision(s) == "morning_effects" and s.tasks[0] == -1 and "fan" in names(s.floor)


def _floor_state(floor: list[str], options: dict | None = None):
    s = scen(players=len(floor), options=options or {}, over=True)
    return s, tuple(CARD_INDEX[c] for c in floor)


def test_start_player_name_order():
    s, floor = _floor_state(["gong", "go_set"])
    assert choose_start_player(s, floor) == 1  # "go set" < "gong"
    s, floor = _floor_state(["gong", "go_set"], {"start_player_name_order": "letter_by_letter"})
    assert choose_start_player(s, floor) == 0  # "gong" < "goset"


def test_start_player_tie():
    s, floor = _floor_state(["amulet", "amulet", "poem", "scroll"], {"start_player_tie": "seat_order"})
    assert choose_start_player(s, floor) == 0
    s, floor = _floor_state(["amulet", "amulet", "poem", "scroll"])
    s.deck = [CARD_INDEX["turtle"], CARD_INDEX["bell"], *s.deck]
    s.deck[-2:] = [CARD_INDEX["bell"], CARD_INDEX["turtle"]]  # seat 0 flips turtle, seat 1 bell
    assert choose_start_player(s, floor) == 1


def test_waiting_area_visible_to_owner():
    base = dict(start="noon", gallery=[["gong"], []], deck=["jar", "vase", "cup", "dice", "bowl"])
    s = scen(**base)
    assert "waiting" not in s.view(0)["players_info"][0]
    s = scen(**base, options={"waiting_area_visible_to_owner": True})
    assert s.view(0)["players_info"][0]["waiting"] == ["jar"]
    assert "waiting" not in s.view(1)["players_info"][0]
    assert s.determinize(0, Rng(1)).waiting[0] == s.waiting[0]


def test_allow_pass_action():
    base = dict(tasks=["bowl", None], floor=FLOOR)
    assert Pass() not in legal(scen(**base))
    assert Pass() in legal(scen(**base, options={"allow_pass_action": True}))


def test_cover_mode():
    base = dict(tasks=["bowl", None], helpers=[["cup", "dice", "jar", "vase"], []], gallery=[["teapot"], []],
                floor=FLOOR)  # fmt: skip
    assert actions_left(scen(**base)) == 5
    assert actions_left(scen(**base, options={"cover_mode": "partial"})) == 1 + 4 + 3


def test_deck_out_trigger():
    s = scen(deck=["jar"], hands=[["poem"], []])
    assert s.is_over and s.end_reason == "deck"  # the Prayer took the last card
    s = scen(deck=["jar"], hands=[["poem"], ["fan"]], options={"deck_out_trigger": "on_failed_draw"})
    assert not s.is_over and s.deck == []


def test_wing_end_trigger():
    s = scen(tasks=["bowl", None], gallery=[["plane", "poem", "fan", "scroll"], []], gift_shop=[["crane"], []],
             floor=FLOOR)  # fmt: skip
    play(s, Collect("bench"))
    play(s, MoveWork("crane", "gift_shop"))
    assert s.is_over and s.end_reason == "wing"
    s = scen(tasks=["bowl", None], gallery=[["plane", "poem", "fan", "scroll"], []], gift_shop=[["crane"], []],
             hands=[["coin"], ["doll"]], floor=FLOOR, options={"wing_end_trigger": "on_completion"})  # fmt: skip
    play(s, Collect("bench"))
    play(s, MoveWork("crane", "gift_shop"))
    assert s.is_over  # the Plane move makes the fifth work arrive in the Gift Shop (v0.84's wording)
    # Only a change nobody "makes" differs: a Kite becoming Go Set counts Stone works in both wings.
    base = dict(start="morning", hands=[["coin"], []], gallery=[["kite", "frog", "tablet", "stool"], ["go_set"]],
                gift_shop=[["poem"], []], floor=FLOOR)  # fmt: skip
    s = scen(**base)
    play(s, UseEffect("kite"))
    play(s, KiteGive("coin", 1))  # Go Set is the only work to copy: the copy needs no question
    assert s.is_over and s.end_reason == "wing"  # four Stone works count in the Gift Shop too
    s = scen(**base, options={"wing_end_trigger": "on_completion"})
    play(s, UseEffect("kite"))
    events = play(s, KiteGive("coin", 1))
    assert "kite_copy" in kinds(events) and not s.is_over


def test_v084_ends_on_a_plane_move_to_five_and_implies_on_completion():
    from parlor.games.mottainai.options import Options

    assert Options(ruleset="v0.84").wing_end_trigger == "on_completion"
    assert Options().wing_end_trigger == "any_change"
    assert Options(ruleset="v0.84", wing_end_trigger="any_change").wing_end_trigger == "any_change"
    # Worked example: after a Potter action, Plane moves Poem from a Gallery of four into a Gift
    # Shop of four: the fifth work arrives there and the game ends at once.
    s = scen(tasks=["bowl", None], gallery=[["plane", "poem", "fan", "scroll"], []],
             gift_shop=[["crane", "frog", "stool", "tablet"], []], floor=FLOOR,
             options={"ruleset": "v0.84"})  # fmt: skip
    play(s, Collect("bench"))
    play(s, MoveWork("poem", "gallery"))
    assert s.is_over and s.end_reason == "wing"


def test_extended_game():
    base = dict(tasks=["bell", None], hands=[["scroll", "coin"], []], gallery=[["poem", "fan", "plane", "crane"], []],
                floor=FLOOR)  # fmt: skip
    s = scen(**base)
    play(s, Complete("scroll", "gallery"))
    assert s.is_over
    s = scen(**base, options={"extended_game": True})
    play(s, Complete("scroll", "gallery"))
    assert not s.is_over


def test_resolve_triggers_of_final_work():
    base = dict(tasks=["amulet", None], hands=[["stool", "coin"], []], craft_bench=[["frog"], []],
                gallery=[["poem", "fan", "plane", "crane"], []], floor=FLOOR)  # fmt: skip
    s = scen(**base)
    play(s, Craft("stool", "gallery"))
    assert s.is_over
    s = scen(**base, options={"resolve_triggers_of_final_work": True})
    play(s, Craft("stool", "gallery"))
    assert not s.is_over and legal(s) == [UseEffect("stool"), Done()]
    play(s, UseEffect("stool"))
    assert s.is_over and len(s.waiting[0]) == 1


def test_tie_breaker():
    base = dict(players=3, active=1, gallery=[["poem"], [], ["fan"]], over=True)
    assert final_result(scen(**base)).winners == (2,)
    assert final_result(scen(**base, options={"tie_breaker": "shared"})).winners == (0, 2)


def test_sales_tie_cards():
    base = dict(hands=[["vase"], ["jar"]], gallery=[["lampshade"], []], over=True)
    assert final_scores(scen(**base))[0]["backorders"] == 3  # 0-0 tie qualifies
    o = {"sales_tie_cards": "win_ties_exclusive"}
    assert final_scores(scen(**base, options=o))[0]["backorders"] == 0  # needs a sale
    tied = dict(sales=[["bowl"], ["cup"]], **base)
    assert final_scores(scen(**tied, options=o))[0]["backorders"] == 3


def test_coin_mode():
    base = dict(sales=[["bowl"], []], hands=[["jar", "poem"], []], gallery=[["coin"], []], over=True)
    assert final_scores(scen(**base))[0]["backorders"] == 6
    assert final_scores(scen(**base, options={"coin_mode": "whole_hand_extra"}))[0]["backorders"] == 3 + 4


def test_self_trigger_on_completion():
    base = dict(tasks=["amulet", None], hands=[["stool", "poem"], []], craft_bench=[["frog"], []], floor=FLOOR)
    s = scen(**base)
    play(s, Craft("stool", "gallery"))
    assert decision(s) == "triggers"
    s = scen(**base, options={"self_trigger_on_completion": False})
    play(s, Craft("stool", "gallery"))
    assert decision(s) != "triggers"


def test_move_two_exact():
    base = dict(tasks=["amulet", None], hands=[["statue", "poem"], []], craft_bench=[["frog"], []], floor=FLOOR)
    s = scen(**base)
    play(s, Craft("statue", "gallery"))
    play(s, UseEffect("statue"))
    assert Done() in legal(s)
    s = scen(**base, options={"move_two_exact": True})
    play(s, Craft("statue", "gallery"))
    play(s, UseEffect("statue"))
    assert Done() not in legal(s)


def test_fountain_counts_for_cover():
    base = dict(tasks=["fan", None], hands=[["frog"], []], helpers=[["poem"], []], gallery=[["fountain", "scroll"], []],
                craft_bench=[["jar"], []], floor=FLOOR)  # fmt: skip
    s = scen(**base)
    play(s, Reveal("frog"))
    play(s, Done())
    assert actions_left(s) == 1 + 2 + 1
    s = scen(**base, options={"fountain_counts_for_cover": True})
    play(s, Reveal("frog"))
    play(s, Done())
    assert actions_left(s) == 1 + 2  # two "helpers", capacity 1: none covered


def test_flute_task_scope():
    base = dict(start="noon", tasks=[None, "bowl"], hands=[["poem"], []], gallery=[["flute"], []], floor=FLOOR)
    s = scen(**base)
    assert TakeTask(1) in legal(s)
    s = scen(**base, options={"flute_task_scope": "paper_only"})
    assert TakeTask(1) not in legal(s)


def _doll_then_opponent(options: dict | None = None) -> int:
    s = scen(start="morning", tasks=[None, "bowl"], hands=[["poem"], ["fan"]], gallery=[["doll"], []],
             floor=FLOOR, options=options or {})  # fmt: skip
    play(s, TakeTask(1))
    play(s, Collect("bench"))
    play(s, Collect("pillar"))
    # seat 1's turn: it takes no task and then performs seat 0's (Doll-taken) Potter task
    play(s, NoTask())
    return actions_left(s)


def test_doll_bonus_scope():
    assert _doll_then_opponent() == 1
    assert _doll_then_opponent({"doll_bonus_scope": "everyone"}) == 2


def test_reveal_gate_per():
    base = dict(tasks=[None, "amulet"], hands=[["frog"], []], helpers=[["stool"], []], gallery=[[], ["tower"]],
                floor=FLOOR)  # fmt: skip
    s = scen(**base)
    play(s, Reveal("frog"))
    assert decision(s) == "action"
    s = scen(**base, options={"reveal_gate_per": "action"})
    play(s, Reveal("frog"))
    play(s, Pray())
    assert decision(s) == "gate"  # again before the second action


def test_mask_forces_role_action():
    base = dict(tasks=[None, "bowl"], gallery=[[], ["mask"]], floor=FLOOR)
    assert Pass() in legal(scen(**base))
    assert Pass() not in legal(scen(**base, options={"mask_forces_role_action": True}))


def test_pin_action_convertible():
    base = dict(start="morning", gallery=[["pin"], []], hands=[["poem"], []], deck=["jar", "vase", "cup", "dice"])
    s = scen(**base)
    play(s, UseEffect("pin"))
    assert decision(s) == "tailor_return"  # the only choice was the Tailor action itself
    s = scen(**base, options={"pin_action_convertible": True})
    play(s, UseEffect("pin"))
    assert set(legal(s)) == {Refill(), Pray()}


def test_kite_copy_morning_effect():
    base = dict(start="morning", hands=[["poem", "fan"], []], gallery=[["kite"], ["daitoro"]], floor=["tower"],
                deck=["jar", "vase", "cup", "dice"])  # fmt: skip
    s = scen(**base)
    play(s, UseEffect("kite"))
    play(s, KiteGive("poem", 1))
    assert UseEffect("daitoro") in legal(s)
    s = scen(**base, options={"kite_copy_morning_effect": False})
    play(s, UseEffect("kite"))
    play(s, KiteGive("poem", 1))
    assert UseEffect("daitoro") not in legal(s)


def test_chopsticks_on_start_card():
    base = dict(start="morning", tasks=[{"face_down": "fan"}, None], hands=[["poem"], []], gallery=[["chopsticks"], []])
    s = scen(**base)
    assert decision(s) == "choose_task" and "fan" in names(s.floor)
    s = scen(**base, options={"chopsticks_on_start_card": True})
    assert legal(s) == [UseEffect("chopsticks"), Decline()]


def test_handkerchief_discard():
    base = dict(start="morning", hands=[["poem", "scroll", "fan", "plane", "crane", "doll"], []],
                gallery=[["handkerchief"], []])  # fmt: skip
    assert UseEffect("handkerchief") not in legal(scen(**base))
    s = scen(**base, options={"handkerchief_discard": "zero_or_one"})
    play(s, UseEffect("handkerchief"))
    assert len(s.hands[0]) == 6  # excess kept


def test_count_works_after_placing():
    base = dict(tasks=["amulet", None], hands=[["frog", "poem"], []], craft_bench=[["tablet"], []],
                gallery=[["scroll"], ["fan"]], floor=FLOOR)  # fmt: skip
    s = scen(**base)
    play(s, Craft("frog", "gallery"))
    assert decision(s) != "triggers"  # 2 works vs 1: not the fewest
    s = scen(**base, options={"count_works_after_placing": False})
    play(s, Craft("frog", "gallery"))
    assert UseEffect("frog") in legal(s)


def test_trigger_order():
    base = dict(tasks=["bell", None], hands=[["scroll", "poem"], []], craft_bench=[["jar"], []],
                gallery=[["amulet", "deck_of_cards"], []], floor=FLOOR)  # fmt: skip
    s = scen(**base)
    play(s, Complete("scroll", "gift_shop"))
    assert set(legal(s)) == {UseEffect("amulet"), UseEffect("deck_of_cards"), Done()}
    s = scen(**base, options={"trigger_order": "card_order"})
    play(s, Complete("scroll", "gift_shop"))
    assert legal(s) == [UseEffect("deck_of_cards"), Decline()]


def test_revealed_cards_stay_public():
    base = dict(tasks=[None, "amulet"], hands=[["frog", "poem"], []], gallery=[[], ["tower"]], floor=FLOOR)
    s = scen(**base)
    play(s, Reveal("frog"))
    assert s.view(1)["players_info"][0]["revealed_in_hand"] == ["frog"]
    s = scen(**base, options={"revealed_cards_stay_public": False})
    play(s, Reveal("frog"))
    assert s.view(1)["players_info"][0]["revealed_in_hand"] == []


def test_return_order():
    hand = ["poem", "scroll", "fan", "plane", "crane", "doll", "curtain", "sketch"]

    def bottom(options: dict, seed: int) -> list[int]:
        s = scen(start="morning", hands=[hand, []], options=options, seed=seed)
        for c in ["poem", "scroll", "fan"]:
            play(s, ReturnCard(c))
        return s.deck[:3]

    chooser = {tuple(bottom({}, seed)) for seed in range(6)}
    assert chooser == {tuple(CARD_INDEX[c] for c in ["fan", "scroll", "poem"])}
    randomised = {tuple(bottom({"return_order": "random"}, seed)) for seed in range(12)}
    assert len(randomised) > 1


def test_hand_limit_counts_waiting_area():
    base = dict(start="morning", hands=[["poem", "scroll", "fan", "plane", "crane"], []], waiting=[["doll"], []])
    assert decision(scen(**base)) == "choose_task"
    assert decision(scen(**base, options={"hand_limit_counts_waiting_area": True})) == "hand_limit"


def test_waiting_area_scores():
    base = dict(sales=[["bowl"], []], waiting=[["jar"], []], over=True)
    assert final_scores(scen(**base))[0]["backorders"] == 0
    assert final_scores(scen(**base, options={"waiting_area_scores": True}))[0]["backorders"] == 3


def test_turtle_precedence():
    base = dict(tasks=["bell", None], hands=[["bowl", "cup", "dice"], []],
                gallery=[[], ["coin", "gong", "flute", "sword", "ring", "pin"]],
                gift_shop=[["turtle", "poem", "frog", "kite"], []], floor=FLOOR)  # fmt: skip
    s = scen(**base)
    for a in (Complete("bowl", "gift_shop"), Reveal("cup"), Reveal("dice")):
        play(s, a)
    assert s.end_reason == "turtle" and final_result(s).winners == (0,)
    s = scen(**base, options={"turtle_precedence": False})
    for a in (Complete("bowl", "gift_shop"), Reveal("cup"), Reveal("dice")):
        play(s, a)
    assert s.end_reason == "wing" and final_result(s).winners == (1,)


def test_short_deck_effects():
    base = dict(tasks=["kite", None], hands=[["poem"], []], gallery=[["fan"], []], deck=["jar", "vase"], floor=FLOOR)
    s = scen(**base)
    play(s, Refill())
    assert UseEffect("fan") in legal(s)
    s = scen(**base, options={"short_deck_effects": "unusable"})
    assert Refill() not in legal(s)  # the refill itself needs more cards than the deck holds


def test_dice_hand_size_moment():
    base = dict(tasks=["kite", None], hands=[["poem", "scroll"], []], gallery=[["dice"], []],
                deck=["bell", "jar", "vase", "cup"], floor=FLOOR)  # fmt: skip
    s = scen(**base)  # bell (3) vs 2 cards: no
    play(s, Refill())
    play(s, UseEffect("dice"))
    assert decision(s) == "tailor_return"
    s = scen(**{**base, "deck": ["frog", "jar", "vase", "cup"]}, options={"dice_hand_size_moment": "after_return"})
    play(s, Refill())
    play(s, UseEffect("dice"))
    play(s, ReturnCard("poem"))
    play(s, Done())  # 1 card left, frog is worth 2: no completion
    assert "work_completed" not in kinds(s.ev) and names(s.gift[0]) == []


def test_v084_dice_counts_the_waiting_area_too():
    # Worked example: two cards in hand, one drawn card waiting (a Prayer earlier this noon); the
    # deck shows Bowl (Clay, value 3). v1.0 compares 3 with the hand (2): no free work. v0.84's
    # note counts the waiting area for card effects: 2 + 1 = 3, Bowl may be completed for free.
    from parlor.games.mottainai.actions import PickWing

    base = dict(tasks=["kite", None], hands=[["poem", "scroll"], []], waiting=[["fan"], []], gallery=[["dice"], []],
                deck=["bowl", "vase", "cup", "jar"], floor=FLOOR)  # fmt: skip
    s = scen(**base)
    play(s, Refill())
    play(s, UseEffect("dice"))
    assert decision(s) == "tailor_return"
    assert Options(ruleset="v0.84").effects_count_waiting_area and not Options().effects_count_waiting_area
    s = scen(**base, options={"ruleset": "v0.84"})
    play(s, Refill())
    play(s, UseEffect("dice"))
    assert decision(s) == "dice"
    play(s, PickWing("gallery"))
    assert names(s.gallery[0]) == ["bowl", "dice"]


def test_brick_counts_start_cards():
    base = dict(tasks=["bell", {"face_down": "coin"}], hands=[["flute"], []], gallery=[["brick"], []], floor=FLOOR)
    assert Complete("flute", "gallery") not in legal(scen(**base))
    assert Complete("flute", "gallery") in legal(scen(**base, options={"brick_counts_start_cards": True}))


def test_steal_comparison_moment():
    base = dict(tasks=["fan", None], craft_bench=[["jar"], []], sales=[["cup"], ["poem", "scroll"]],
                gallery=[["ring"], []], floor=FLOOR)  # fmt: skip
    s = scen(**base)
    play(s, Sell("jar"))
    assert decision(s) != "ring"  # 2 vs 2 after my sale
    s = scen(**base, options={"steal_comparison_moment": "before_action"})
    play(s, Sell("jar"))
    assert decision(s) == "ring"


def test_tailor_always_legal():
    base = dict(tasks=["kite", None], waiting=[["poem", "scroll", "fan", "plane", "crane"], []], floor=FLOOR)
    s = scen(**base)
    assert s.active == 0 and Refill() in legal(s)
    s = scen(**base, options={"tailor_always_legal": False})
    assert s.active == 1  # only a Prayer was left: it was played and the turn passed


def test_max_players_option():
    assert Options(max_players=6).max_players == 6
    assert len(G.new_game(6, 1, Options(max_players=6)).hands) == 6


def test_team_play():
    with pytest.raises(ParlorError, match="4 players"):
        G.new_game(3, 0, {"team_play": True})
    base = dict(players=4, tasks=[None, None, "bowl", None], gallery=[[], [], ["mask"], []], floor=FLOOR)
    assert Pray() not in legal(scen(**base))  # an opponent's Mask... (seat 2 is not a partner by default)
    s = scen(**base, options={"team_play": True})
    assert Pray() in legal(s)  # the partner's Mask does not restrict
    s = scen(players=4, gallery=[["coin"], [], ["poem"], []], over=True, options={"team_play": True})
    res = final_result(s)
    assert res.scores[0] == res.scores[2] == 4 and res.winners == (0, 2)


def test_options_reject_unknown_values():
    with pytest.raises(ParlorError):
        G.new_game(2, 0, {"cover_mode": "most"})
    with pytest.raises(ParlorError):
        G.new_game(2, 0, {"no_such_option": True})
    _ = (SkipTask, PickCard)
