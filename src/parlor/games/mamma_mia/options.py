"""Mamma Mia! rule options: one field per numbered ambiguity of the spec (§11, §12).

Defaults are the revised rules (English 2004, Japanese, Chinese). ``ruleset="cs1999"``
switches on the Czech readings together; any option given explicitly wins over the
ruleset (fields left at ``None`` are filled in from it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from parlor.core.options import apply_ruleset, option

# What each ruleset says about the three points where the Czech text differs (§11.24).
RULESETS: dict[str, dict[str, object]] = {
    "revised": {"topping_play_required": True, "recipe_requires_topping_play": True, "refill_mode": "fill"},
    "cs1999": {"topping_play_required": False, "recipe_requires_topping_play": False, "refill_mode": "up_to"},
}


REVISED = "revised rules (English 2004, Japanese, Chinese)"
OURS = "engine decision (no rule sheet says)"
ALL = "every rule sheet"


@dataclass(frozen=True, slots=True)
class Options:
    # §11.24
    ruleset: Literal["revised", "cs1999"] = option(
        "revised",
        "Which rule sheet: the revised rules, or the Czech text of the first German sheet "
        "(sets the next three options unless they are given)",
        REVISED,
    )
    # §11.1
    topping_play_required: bool | None = option(
        None, "A player holding toppings must put at least one in the oven each turn", REVISED
    )
    # §11.2
    recipe_requires_topping_play: bool | None = option(
        None, "Only a player who put toppings in the oven this turn may put an order in", REVISED
    )
    # §11.3
    refill_mode: Literal["fill", "up_to"] | None = option(
        None, "Refill: fill the hand to 7 from one source (fill), or draw any number up to 7 (up_to)", REVISED
    )
    # §11.4
    allow_empty_source_choice: bool = option(
        False, "A player may refill from an empty source while the other still has cards", OURS
    )
    # §11.6
    owner_may_decline_when_table_suffices: bool = option(
        False, "The owner may refuse an order the oven's toppings already complete", ALL
    )
    # §11.7
    bombastica_hand_topup: bool = option(
        True, "A Pizza Bombastica may be topped up to 15 from its owner's hand", "English and Japanese rules"
    )
    # §11.8
    minimale_excludes_pictured: bool = option(
        True, "Pizza Minimale's rarest kind is never the owner's own (pictured) topping", "English, Czech, Japanese"
    )
    # §11.9
    minimale_when_no_candidate: Literal["fail", "any_kind"] = option(
        "fail",
        "Pizza Minimale with no other kind in the oven: it fails, or the owner names any kind",
        "English rules",
    )
    # §11.10
    monotoni_joker: Literal["free", "table_first"] = option(
        "free",
        "Pizza Monotoni's joker kind: free choice, or one the oven alone completes when there is one",
        OURS,
    )
    # §11.11
    start_player: Literal["random", 0, 1, 2, 3, 4] = option(
        "random", "Who starts the first round: a random seat (from the seed), or a given seat", OURS, seat=True
    )
    # §11.12
    end_early_when_no_orders_left: bool = option(
        False, "End the game after a round in which nobody has an order left", ALL + " (always three rounds)"
    )
    # §11.17-18
    show_oven_history: bool = option(
        False,
        "Memory aid: the table also lists this round's oven plays and the leftovers (not a rule change)",
        "the Chinese rules show only the oven's top card",
        view_only=True,
    )
    # §3.4: "after_dealing" [cs, ja, first zh rulebook]; "before_dealing" [second zh rulebook]
    mamma_mia_card_setup: Literal["after_dealing", "before_dealing"] = option(
        "after_dealing",
        "When the Mamma Mia! card joins the supply: after the deal, or shuffled in before it "
        "(a player dealt it lays it out and gets another card)",
        "Czech, Japanese and the first Chinese rulebook",
    )

    ALIASES: ClassVar[dict[str, tuple[str, dict]]] = {"first_player": ("start_player", {"seat0": 0})}

    ALIASES: ClassVar[dict[str, tuple[str, dict]]] = {"first_player": ("start_player", {"seat0": 0})}

    def __post_init__(self) -> None:
        apply_ruleset(self, RULESETS)
