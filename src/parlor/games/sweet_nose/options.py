"""Sweet Nose rule options: one field per numbered ambiguity of the spec (§9, §11) plus the
two variants (§7). Defaults are the spec's defaults; each option is checked in one place
in ``rules.py`` (the comment names the ambiguity)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from parlor.core.options import OptionError, option

# The action space holds bids 1..MAX_BID_SPACE; ``shopkeeper_max_bid`` may only lower it.
MAX_BID_SPACE = 99


BOOK = "the Chinese rulebook (2016)"
EXAMPLE = "the rulebook's worked example"
OURS = "engine decision (the rulebook is silent)"
SAFEGUARD = "safeguard, not in the rulebook"


@dataclass(frozen=True, slots=True)
class Options:
    # A1
    market_bonus: Literal["per_sweet", "flat"] = option(
        "per_sweet", "The market raises a kind's sweetness by 1 per market sweet of it, or by 1 once", EXAMPLE
    )
    # A2/A3
    exchange_required: bool = option(True, "A player must exchange when some exchange is possible", OURS)
    # A4
    end_phase_on_stalemate: bool = option(
        True, "Phase 2 ends after a full lap of turns with no exchange", SAFEGUARD, safeguard=True
    )
    # A6
    phase_end_timing: Literal["immediate", "end_of_turn"] = option(
        "immediate", "An empty tray ends phase 2 at once, or at the end of the current turn", BOOK
    )
    # A7
    phase2_turn_limit: int | None = option(
        200, "Phase 2 ends after this many turns (none: no limit)", SAFEGUARD, safeguard=True
    )
    # A8
    l1_twin_trade_kind_rule: Literal["same", "any"] = option(
        "same", "Twin trade tile: the two sweets must be the same kind, or may be any kinds", OURS
    )
    # A9
    l2_market_to_bowl_mode: Literal["modify", "extra"] = option(
        "modify", "Market-to-bowl tile: changes the turn's market exchange, or adds an extra one", OURS
    )
    # A10
    l4_double_trade_short: bool = option(
        False, "Double trade tile with a tray of 1: swap one sweet instead of being impossible", OURS
    )
    # A11
    l5_change_taste_timing: Literal["own_turn", "phase_end"] = option(
        "own_turn", "Change-taste tile: used on one's own turn, or once phase 2 has ended", OURS
    )
    # A11
    l5_change_taste_public: bool = option(
        True, "Change-taste tile: the others see which two sweetness cards were swapped", OURS
    )
    # A12
    l5_ignore_market_scope: Literal["self", "all"] = option(
        "self", "Ignore-market tile: cancels the market bonus for its user only, or for everyone", OURS
    )
    # A12
    l5_ignore_market_timing: Literal["own_turn", "scoring"] = option(
        "own_turn", "Ignore-market tile: used on one's own turn, or declared at scoring", OURS
    )
    # A13
    shop_tile_use: Literal["optional", "mandatory_first_turn"] = option(
        "optional", "A held shop tile may be kept unused, or must be used on the first turn it can", BOOK
    )
    # A14
    shop_tiles_visible: bool = option(
        True, "Shop tiles are chosen knowing their ability (otherwise by level, drawn at random)", OURS
    )
    # A15
    shop_pick_required: bool = option(True, "An eligible player must take a shop tile", BOOK)
    # A16
    shop_pick_order: Literal["score_desc", "start_player_first"] = option(
        "score_desc", "Shop picking order: by round score, highest first, or this round's start player first", BOOK
    )
    # A16
    shop_pick_tie_break: Literal["next_round_order", "current_round_order"] = option(
        "next_round_order", "Equal round scores pick in the next round's turn order, or this round's", BOOK
    )
    # A17
    top_tie_start_player: Literal["current_order", "random"] = option(
        "current_order", "Tied top scorers: the earliest in this round's order starts next, or a random one", OURS
    )
    # A18
    start_player: Literal["random", 0, 1, 2, 3, 4] = option(
        "random", "Round 1's start player: random (from the seed), or a given seat", OURS, seat=True
    )
    # A19
    redeal_each_round: bool = option(
        False, "Set the sweets out afresh every round instead of carrying them over (experimental)", BOOK
    )
    # §7.1 Ascension
    ascension: bool = option(False, "Ascension variant: play rounds until a total reaches the target", BOOK)
    ascension_target: int = option(100, "Ascension variant: the total that ends the game", BOOK)
    # §7.2 Shopkeeper
    shopkeeper: bool = option(False, "Shopkeeper variant: an opening auction of shop tiles paid in sweetness", BOOK)
    shopkeeper_max_bid: int = option(99, "Shopkeeper variant: the highest bid (1-99)", OURS)
    # A21
    shopkeeper_bid_rule: Literal["any_free_space", "must_raise"] = option(
        "any_free_space", "Shopkeeper bids: to any free space, or always above every other bid", BOOK
    )

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
