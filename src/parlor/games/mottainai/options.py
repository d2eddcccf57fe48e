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

from parlor.core.options import apply_ruleset, option

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


V10 = "v1.0 (published rules, 2015)"
V084 = "v0.84 print-and-play rules, presumed unchanged in v1.0"
OURS = "engine decision (neither edition says)"


@dataclass(frozen=True, slots=True)
class Options:
    # 1
    ruleset: Literal["v1.0", "v0.84"] = option(
        "v1.0",
        "Which edition: the published v1.0 rules or the v0.84 print-and-play rules "
        "(sets morning_order, setup_facedown_tasks, sales_tie_cards and max_players unless given)",
        V10,
    )
    # 2
    morning_order: Literal["effects_then_discard", "discard_then_effects"] | None = option(
        None, "Morning: use morning effects before the old task goes to the floor, or after", V10
    )
    # 3
    setup_facedown_tasks: Literal["all_players", "all_but_start_player"] | None = option(
        None, "Setup: who gets a face-down starting task card", V10
    )
    # 4
    start_player_name_order: Literal["word_by_word", "letter_by_letter"] = option(
        "word_by_word", "Start player: how card names are put in alphabetical order (Go Set vs Gong)", OURS
    )
    # the start player (the same option in every game); seats 0-4, a sixth seat starts by the draw
    start_player: Literal["random", 0, 1, 2, 3, 4] = option(
        "random", "The start player: by the rules' draw of floor cards (random), or a given seat", V10, seat=True
    )
    # 5
    start_player_tie: Literal["redraw", "seat_order"] = option(
        "redraw", "Start player: a tie (two copies of one name) is broken by new cards, or by seat order", OURS
    )
    # 6
    waiting_area_visible_to_owner: bool = option(
        False, "You may look at the cards in your own waiting area", "v0.84 rules (no v1.0 text found)"
    )
    # 7, 8
    allow_pass_action: bool = option(
        False, "An action may simply go unused instead of becoming a Prayer", "v0.84 rules (no v1.0 text found)"
    )
    # 9
    cover_mode: Literal["all_or_nothing", "partial"] = option(
        "all_or_nothing", "Covering: a wing covers all cards of a material or none, or up to its capacity", V084
    )
    # 10
    deck_out_trigger: Literal["when_empty", "on_failed_draw"] = option(
        "when_empty", "The game ends when the deck becomes empty, or only when a draw finds it empty", V10
    )
    # 11
    wing_end_trigger: Literal["any_change", "on_completion"] | None = option(
        None,
        "Five works in a wing end the game whenever they appear, or only when a player makes a work arrive there",
        V10,
    )
    # 11
    extended_game: bool = option(False, "Extended game: six works in a wing end the game instead of five", V10)
    # 12
    resolve_triggers_of_final_work: bool = option(
        False, "The effects of the work that ends the game still resolve", "v0.84 rules (no v1.0 text found)"
    )
    # 13
    tie_breaker: Literal["current_then_clockwise", "shared"] = option(
        "current_then_clockwise",
        "A tie goes to the current player, then clockwise from them; or it is a shared win",
        "v0.84 rules (no v1.0 text found)",
    )
    # 14
    sales_tie_cards: Literal["ahead_or_tied", "win_ties_exclusive"] | None = option(
        None, "Lampshade / Quilt: how they settle a tie in sales for backorders", V10
    )
    # 15
    coin_mode: Literal["double_backorders", "whole_hand_extra"] = option(
        "double_backorders", "Coin: backorders count twice, or every hand card scores once more", OURS
    )
    # 16
    self_trigger_on_completion: bool = option(
        True, "'After you complete a work' effects also fire for the card itself", "v0.84 rules' example"
    )
    # 17
    move_two_exact: bool = option(False, "Statue / Vase must move exactly two cards when they can", OURS)
    # 18
    fountain_counts_for_cover: bool = option(
        False, "Fountain: the revealed Stone cards join the cover test of your Clerk helpers", OURS
    )
    # 19
    flute_task_scope: Literal["any_task", "paper_only"] = option(
        "any_task", "Flute may take any opponent's task, or only a Paper one", OURS
    )
    # 20
    doll_bonus_scope: Literal["owner_this_turn", "everyone"] = option(
        "owner_this_turn", "Doll's extra action: only for its owner this turn, or for everyone performing it", OURS
    )
    # 21
    reveal_gate_per: Literal["task", "action"] = option(
        "task", "Curtain / Tower: reveal once per task, or before every action", OURS
    )
    # 22
    mask_forces_role_action: bool = option(False, "Mask: the role action must be taken whenever it is possible", OURS)
    # 23
    pin_action_convertible: bool = option(False, "Pin's Tailor action may become a Craft or a Prayer", OURS)
    # 24
    kite_copy_morning_effect: bool = option(True, "A Kite copy's morning effect may be used the same morning", OURS)
    # 25
    chopsticks_on_start_card: bool = option(False, "Chopsticks may send the face-down starting card to sales", OURS)
    # 26
    handkerchief_discard: Literal["exactly_one", "zero_or_one"] = option(
        "exactly_one", "Handkerchief puts exactly one hand card on the floor, or zero or one", OURS
    )
    # 27
    count_works_after_placing: bool = option(
        True, "Frog / Shuriken count your works after the new work is placed", OURS
    )
    # 28
    trigger_order: Literal["active_player_chooses", "card_order"] = option(
        "active_player_chooses", "Effects triggered together: the active player picks the order, or card order", OURS
    )
    # 29
    revealed_cards_stay_public: bool = option(
        True, "A card revealed from a hand stays known to everyone while it stays in that hand", OURS
    )
    # 30
    return_order: Literal["chooser", "random"] = option(
        "chooser", "Cards returned to the deck together: their owner picks the order, or it is random", OURS
    )
    # 31
    hand_limit_counts_waiting_area: bool = option(False, "The morning hand limit also counts the waiting area", OURS)
    # 31b
    effects_count_waiting_area: bool | None = option(
        None, "The waiting area counts with the hand for card effects (Dice), as for the Tailor action", V10
    )
    # 32
    waiting_area_scores: bool = option(False, "Cards in the waiting area score with the hand at the end", V084)
    # 33
    turtle_precedence: bool = option(True, "A Turtle win beats another ending at the same moment", OURS)
    # 34
    short_deck_effects: Literal["take_what_exists", "unusable"] = option(
        "take_what_exists",
        "Effects that need more cards than the deck holds take what is there, or cannot be used",
        OURS,
    )
    # 35
    dice_hand_size_moment: Literal["before_return", "after_return"] = option(
        "before_return", "Dice compares hand sizes before the Tailor returns cards, or after", OURS
    )
    # 36
    brick_counts_start_cards: bool = option(False, "Brick counts face-down starting cards as tasks", OURS)
    # 37
    steal_comparison_moment: Literal["per_card_wording", "before_action"] = option(
        "per_card_wording", "Sword / Ring compare counts as each card's wording says, or before the action", OURS
    )
    # 38
    tailor_always_legal: bool = option(True, "A Tailor action that changes nothing is still allowed", OURS)
    # 39
    max_players: Literal[5, 6] | None = option(
        None,
        "The largest table: 5 (v1.0) or 6 (v0.84); a 6-player game sets 6 by itself unless told otherwise",
        V10,
    )
    # §15
    team_play: bool = option(False, "Team play: 4 players, partners sit opposite and score together", V10)

    def __post_init__(self) -> None:
        apply_ruleset(self, RULESETS)
