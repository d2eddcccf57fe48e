"""Sweet Nose rule options: one field per numbered ambiguity of the spec (§9, §11) plus the
two variants (§7). Defaults are the spec's defaults; each option is checked in one place
in ``rules.py`` (the comment names the ambiguity)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from parlor.core.options import OptionError

# The action space holds bids 1..MAX_BID_SPACE; ``shopkeeper_max_bid`` may only lower it.
MAX_BID_SPACE = 99


@dataclass(frozen=True, slots=True)
class Options:
    # A1: the market adds +1 per market sweet of a kind, or +1 once if any is there
    market_bonus: Literal["per_sweet", "flat"] = "per_sweet"
    # A2/A3: must a player exchange when some exchange is legal?
    exchange_required: bool = True
    # A4: phase 2 ends after a full lap of turns without an exchange
    end_phase_on_stalemate: bool = True
    # A6: an empty tray ends phase 2 at once, or at the end of the current turn
    phase_end_timing: Literal["immediate", "end_of_turn"] = "immediate"
    # A7: phase 2 ends after this many turns (None: no limit)
    phase2_turn_limit: int | None = 200
    # A8: the twin trade's two sweets must be the same kind, or any kinds
    l1_twin_trade_kind_rule: Literal["same", "any"] = "same"
    # A9: the market-to-bowl tile modifies the turn's exchange B, or grants an extra one
    l2_market_to_bowl_mode: Literal["modify", "extra"] = "modify"
    # A10: the double trade with a tray of 1 swaps one sweet instead of being impossible
    l4_double_trade_short: bool = False
    # A11: the card swap is a shop action on one's turn, or made once phase 2 has ended
    l5_change_taste_timing: Literal["own_turn", "phase_end"] = "own_turn"
    # A11: do the other players see which two kinds had their cards swapped?
    l5_change_taste_public: bool = True
    # A12: ignoring the market helps only its user, or cancels the bonus for everyone
    l5_ignore_market_scope: Literal["self", "all"] = "self"
    # A12: activated on one's turn, or declared after the reveal at scoring
    l5_ignore_market_timing: Literal["own_turn", "scoring"] = "own_turn"
    # A13: a held tile is optional, or must be used on the first turn it can be
    shop_tile_use: Literal["optional", "mandatory_first_turn"] = "optional"
    # A14: tiles are chosen knowing their ability (public), or by level with a hidden draw
    shop_tiles_visible: bool = True
    # A15: must an eligible player take a tile?
    shop_pick_required: bool = True
    # A16: picking order: by round score, or this round's start player first
    shop_pick_order: Literal["score_desc", "start_player_first"] = "score_desc"
    # A16: equal round scores pick in next round's order, or this round's
    shop_pick_tie_break: Literal["next_round_order", "current_round_order"] = "next_round_order"
    # A17: a tie for the top score: earliest in this round's order, or random
    top_tie_start_player: Literal["current_order", "random"] = "current_order"
    # A18: round 1's start player: "random" (seeded) or a seat number (the same option, name and
    # meaning, in every game; the old name `first_start_player` still works)
    start_player: Literal["random", 0, 1, 2, 3, 4] = "random"
    # A19: sweets carry over between rounds, or setup steps 3-5 run again every round
    redeal_each_round: bool = False
    # §7.1 Ascension: play rounds until a total reaches the target
    ascension: bool = False
    ascension_target: int = 100
    # §7.2 Shopkeeper: an opening auction of shop tiles paid in sweetness
    shopkeeper: bool = False
    shopkeeper_max_bid: int = 99
    # A21: a bid may go to any free space, or must land above every marker
    shopkeeper_bid_rule: Literal["any_free_space", "must_raise"] = "any_free_space"

    ALIASES: ClassVar[dict[str, tuple[str, dict]]] = {"first_start_player": ("start_player", {})}

    def __post_init__(self) -> None:
        if self.phase2_turn_limit is not None and (
            type(self.phase2_turn_limit) is not int or self.phase2_turn_limit < 1
        ):
            raise OptionError(f"phase2_turn_limit must be a positive integer or None, got {self.phase2_turn_limit!r}")
        if type(self.ascension_target) is not int or self.ascension_target < 1:
            raise OptionError(f"ascension_target must be a positive integer, got {self.ascension_target!r}")
        if type(self.shopkeeper_max_bid) is not int or not 1 <= self.shopkeeper_max_bid <= MAX_BID_SPACE:
            raise OptionError(f"shopkeeper_max_bid must be 1..{MAX_BID_SPACE}, got {self.shopkeeper_max_bid!r}")
        if self.start_player != "random" and (type(self.start_player) is not int or not 0 <= self.start_player <= 4):
            raise OptionError(f"start_player must be 'random' or a seat 0..4, got {self.start_player!r}")
