"""Sweet Nose component data, loaded once from ``components.json`` (shipped in the package).

The rules work on small integers only: sweet kinds are 0..4 in the canonical order
(mung bean cake, longevity peach bun, peanut brittle, zhuangyuan cake, candied haws),
shop tiles 0..9 in the data file's order (two per level, levels 1..5).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

_RAW: dict[str, Any] = json.loads(resources.files(__package__).joinpath("components.json").read_text(encoding="utf-8"))

KINDS: tuple[str, ...] = tuple(_RAW["kind_order"])
KIND_INDEX: dict[str, int] = {k: i for i, k in enumerate(KINDS)}
NUM_KINDS = len(KINDS)
SWEET_NAMES: dict[str, dict[str, str]] = {s["id"]: s["names"] for s in _RAW["sweets"]}
SWEET_COLOURS: dict[str, str] = {s["id"]: s["hex"] for s in _RAW["sweets"]}
SWEETS_PER_KIND: int = _RAW["sweets"][0]["count"]  # 9
TOTAL_SWEETS = SWEETS_PER_KIND * NUM_KINDS  # 45
PLAYER_COLOURS: tuple[str, ...] = tuple(c["id"] for c in _RAW["player_colours"])
TITLE: dict[str, str] = _RAW["title"]
ROUNDS: int = _RAW["game_end"]["standard"]["rounds"]  # 3
VALUES: tuple[int, ...] = tuple(_RAW["per_player_components"]["sweetness_cards"]["values"])  # 1..5

_SETUP = _RAW["setup"]
TRAY_SIZE: int = _SETUP["sweets_per_tray"]  # 8
MARKET_SIZE: int = _SETUP["market_size"]  # 3
BAG_PER_KIND: dict[int, int] = {int(n): c for n, c in _SETUP["bag_per_kind"].items()}
MARKET_FROM_BAG: dict[int, int] = {int(n): f["from_bag_leftover"] for n, f in _SETUP["market_fill"].items()}
MARKET_FROM_SUPPLY: dict[int, int] = {int(n): f["random_from_supply"] for n, f in _SETUP["market_fill"].items()}

# Round score -> the highest shop level it allows (0: none), highest threshold first.
ELIGIBILITY: tuple[tuple[int, int], ...] = tuple(
    sorted(((row["min_score"] or 0, row["max_level"]) for row in _RAW["shop_eligibility"]), reverse=True)
)
SHOPKEEPER_LEVELS: tuple[int, ...] = tuple(_RAW["variants"]["shopkeeper"]["max_level_by_rank"])  # 5,4,3,2,1
ASCENSION_TARGET: int = _RAW["variants"]["ascension"]["target"]


@dataclass(frozen=True, slots=True)
class Tile:
    """One shop tile: its index (0..9), id, level and English name and text."""

    index: int
    id: str
    level: int
    name: str
    text: str


TILES: tuple[Tile, ...] = tuple(
    Tile(i, t["id"], t["level"], t["names"]["en"], t["text_en"]) for i, t in enumerate(_RAW["shop_tiles"])
)
TILE_INDEX: dict[str, int] = {t.id: t.index for t in TILES}
TILE_NAMES: dict[str, dict[str, str]] = {t["id"]: t["names"] for t in _RAW["shop_tiles"]}
LEVELS: tuple[int, ...] = tuple(sorted({t.level for t in TILES}))  # 1..5
TILES_OF_LEVEL: dict[int, tuple[int, ...]] = {lv: tuple(t.index for t in TILES if t.level == lv) for lv in LEVELS}

# Tile indices by ability, for the rules (names as in components.json).
STASH = TILE_INDEX["l1_stash"]
TWIN_TRADE = TILE_INDEX["l1_twin_trade"]
TAKE_BACK = TILE_INDEX["l2_take_back"]
MARKET_TO_BOWL = TILE_INDEX["l2_market_to_bowl"]
BOWL_SWAP = TILE_INDEX["l3_bowl_swap"]
SEND_BACK = TILE_INDEX["l3_send_back"]
REARRANGE = TILE_INDEX["l4_rearrange"]
DOUBLE_TRADE = TILE_INDEX["l4_double_trade"]
CHANGE_TASTE = TILE_INDEX["l5_change_taste"]
IGNORE_MARKET = TILE_INDEX["l5_ignore_market"]

OPTION_DEFAULTS: dict[str, Any] = {k: v for k, v in _RAW["option_defaults"].items() if not k.startswith("_")}
TERMS: dict[str, dict[str, str]] = _RAW["terms"]


def max_level(round_score: int) -> int:
    """The highest shop level a round score allows (0: no tile), per the eligibility table."""
    for threshold, level in ELIGIBILITY:
        if round_score >= threshold:
            return level
    return 0
