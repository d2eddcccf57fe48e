"""Mamma Mia! rule options: one field per numbered ambiguity of the spec (§11, §12).

Defaults are the revised rules (English 2004, Japanese, Chinese). ``ruleset="cs1999"``
switches on the Czech readings together; any option given explicitly wins over the
ruleset (fields left at ``None`` are filled in from it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from parlor.core.options import apply_ruleset

# What each ruleset says about the three points where the Czech text differs (§11.24).
RULESETS: dict[str, dict[str, object]] = {
    "revised": {"topping_play_required": True, "recipe_requires_topping_play": True, "refill_mode": "fill"},
    "cs1999": {"topping_play_required": False, "recipe_requires_topping_play": False, "refill_mode": "up_to"},
}


@dataclass(frozen=True, slots=True)
class Options:
    ruleset: Literal["revised", "cs1999"] = "revised"
    # §11.1: must a player holding a topping put at least one in the oven?
    topping_play_required: bool | None = None
    # §11.2: may only a player who played toppings this turn play an order?
    recipe_requires_topping_play: bool | None = None
    # §11.3: "fill" = draw up to 7 from one source; "up_to" = choose how many (0..gap)
    refill_mode: Literal["fill", "up_to"] | None = None
    # §11.4: may a player pick an empty source while the other has cards?
    allow_empty_source_choice: bool = False
    # §11.6: may the owner refuse an order the counter already covers?
    owner_may_decline_when_table_suffices: bool = False
    # §11.7: may a Bombastica be topped up to 15 from the owner's hand?
    bombastica_hand_topup: bool = True
    # §11.8: is the pictured (own) topping excluded from Minimale's "rarest kind"?
    minimale_excludes_pictured: bool = True
    # §11.9: Minimale with no candidate kind on the counter: fail, or owner names any kind
    minimale_when_no_candidate: Literal["fail", "any_kind"] = "fail"
    # §11.10: Monotoni joker: free choice, or forced to a kind the counter alone covers if any
    monotoni_joker: Literal["free", "table_first"] = "free"
    # §11.11: the first round's start player: "random" (seeded) or a seat number (the same
    # option, name and meaning, in every game; the old `first_player=seat0` still works)
    start_player: Literal["random", 0, 1, 2, 3, 4] = "random"
    # §11.12: stop after a round in which no order is left anywhere
    end_early_when_no_orders_left: bool = False
    # §11.17-18: the view lists this round's oven plays and the leftovers (a memory aid)
    show_oven_history: bool = False
    # §3.4: when the Mamma Mia! card joins the supply. "after_dealing" [cs, ja, first zh rulebook]:
    # nobody can start with it. "before_dealing" [second zh rulebook]: it is shuffled in before
    # the deal, and a player dealt it lays it out face up and is dealt a replacement topping.
    mamma_mia_card_setup: Literal["after_dealing", "before_dealing"] = "after_dealing"

    ALIASES: ClassVar[dict[str, tuple[str, dict]]] = {"first_player": ("start_player", {"seat0": 0})}

    def __post_init__(self) -> None:
        apply_ruleset(self, RULESETS)
