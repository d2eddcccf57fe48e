"""Mottainai rule options: one field per numbered ambiguity of the spec (§17, §18).

Defaults are the published v1.0 rules. ``ruleset="v0.84"`` switches on the print-and-play
readings together (morning order, face-down starting cards, Lampshade/Quilt ties, up to 6
players, the game ending when a player makes a fifth work in a wing, the waiting area counted
by Dice); an option given explicitly wins over the ruleset (fields left ``None`` are filled
in from it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from parlor.core.options import apply_ruleset

RULESETS: dict[str, dict[str, object]] = {
    "v1.0": {
        "morning_order": "effects_then_discard",
        "setup_facedown_tasks": "all_players",
        "sales_tie_cards": "ahead_or_tied",
        "max_players": 5,
        "wing_end_trigger": "any_change",
        "effects_count_waiting_area": False,
    },
    "v0.84": {
        "morning_order": "discard_then_effects",
        "setup_facedown_tasks": "all_but_start_player",
        "sales_tie_cards": "win_ties_exclusive",
        "max_players": 6,
        "wing_end_trigger": "on_completion",
        "effects_count_waiting_area": True,
    },
}


@dataclass(frozen=True, slots=True)
class Options:
    # 1: which edition's rules (sets items 2, 3, 14 and 39 unless they are given)
    ruleset: Literal["v1.0", "v0.84"] = "v1.0"
    # 2: morning effects before (v1.0) or after (v0.84) the old task goes to the floor
    morning_order: Literal["effects_then_discard", "discard_then_effects"] | None = None
    # 3: who gets a face-down starting card
    setup_facedown_tasks: Literal["all_players", "all_but_start_player"] | None = None
    # 4: alphabetical comparison of floor card names for the start player
    start_player_name_order: Literal["word_by_word", "letter_by_letter"] = "word_by_word"
    # the start player: "random" = by the rules' draw of floor cards (§3.1 step 5, a matter of
    # chance), or a seat number (the same option, name and meaning, in every game)
    start_player: Literal["random", 0, 1, 2, 3, 4] = "random"  # seats 0-4 (a sixth seat starts by the draw)
    # 5: a start-player tie (two copies of one name)
    start_player_tie: Literal["redraw", "seat_order"] = "redraw"
    # 6: may the owner look at their own waiting area?
    waiting_area_visible_to_owner: bool = False
    # 7, 8: may an action simply be skipped?
    allow_pass_action: bool = False
    # 9: cover all or nothing per material, or up to capacity
    cover_mode: Literal["all_or_nothing", "partial"] = "all_or_nothing"
    # 10: the deck ends the game when it becomes empty, or only on a failed draw
    deck_out_trigger: Literal["when_empty", "on_failed_draw"] = "when_empty"
    # 11: five works in a wing: checked after any change, or only when a player makes a work
    # arrive in a wing (a completion, a Plane move, a Shuriken placement; v0.84)
    wing_end_trigger: Literal["any_change", "on_completion"] | None = None
    # 11: the Extended game (six works in a wing)
    extended_game: bool = False
    # 12: do the triggered effects of the game-ending work still resolve?
    resolve_triggers_of_final_work: bool = False
    # 13: ties: current player then clockwise, or a shared win
    tie_breaker: Literal["current_then_clockwise", "shared"] = "current_then_clockwise"
    # 14: Lampshade / Quilt tie semantics
    sales_tie_cards: Literal["ahead_or_tied", "win_ties_exclusive"] | None = None
    # 15: Coin
    coin_mode: Literal["double_backorders", "whole_hand_extra"] = "double_backorders"
    # 16: do "after you complete a work" effects fire for the card itself?
    self_trigger_on_completion: bool = True
    # 17: Statue / Vase must move exactly two when possible
    move_two_exact: bool = False
    # 18: Fountain's revealed Stone cards join the cover test
    fountain_counts_for_cover: bool = False
    # 19: Flute may take any opponent task, or only a Paper task
    flute_task_scope: Literal["any_task", "paper_only"] = "any_task"
    # 20: who gets Doll's extra action
    doll_bonus_scope: Literal["owner_this_turn", "everyone"] = "owner_this_turn"
    # 21: Curtain / Tower reveal once per task or before each action
    reveal_gate_per: Literal["task", "action"] = "task"
    # 22: under Mask, must the role action be taken whenever it is legal?
    mask_forces_role_action: bool = False
    # 23: may Pin's Tailor action become Craft or Prayer?
    pin_action_convertible: bool = False
    # 24: may a Kite copy's morning effect be used the same morning?
    kite_copy_morning_effect: bool = True
    # 25: may Chopsticks move a face-down starting card to sales?
    chopsticks_on_start_card: bool = False
    # 26: Handkerchief puts exactly one card on the floor, or zero or one
    handkerchief_discard: Literal["exactly_one", "zero_or_one"] = "exactly_one"
    # 27: Frog / Shuriken count works after placing the new work
    count_works_after_placing: bool = True
    # 28: order of simultaneous triggers
    trigger_order: Literal["active_player_chooses", "card_order"] = "active_player_chooses"
    # 29: revealed hand cards stay public while in hand
    revealed_cards_stay_public: bool = True
    # 30: order of cards returned together
    return_order: Literal["chooser", "random"] = "chooser"
    # 31: does the hand limit count the waiting area too?
    hand_limit_counts_waiting_area: bool = False
    # 31b: v0.84's note: the waiting area counts with the hand for the Tailor action *and card
    # effects*; the one effect that counts the hand is Dice
    effects_count_waiting_area: bool | None = None
    # 32: does the waiting area score at game end?
    waiting_area_scores: bool = False
    # 33: a Turtle win beats a simultaneous other ending
    turtle_precedence: bool = True
    # 34: effects needing more cards than the deck holds
    short_deck_effects: Literal["take_what_exists", "unusable"] = "take_what_exists"
    # 35: Dice compares with the hand before or after the Tailor returns
    dice_hand_size_moment: Literal["before_return", "after_return"] = "before_return"
    # 36: Brick counts face-down starting cards
    brick_counts_start_cards: bool = False
    # 37: when Sword's / Ring's comparisons are made
    steal_comparison_moment: Literal["per_card_wording", "before_action"] = "per_card_wording"
    # 38: a Tailor action with nothing to change is legal
    tailor_always_legal: bool = True
    # 39: the largest table (5 in v1.0, 6 in v0.84)
    max_players: Literal[5, 6] | None = None
    # §15: Team play (4 players, partners sit opposite)
    team_play: bool = False

    def __post_init__(self) -> None:
        apply_ruleset(self, RULESETS)
