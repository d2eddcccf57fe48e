"""What a balance study counts in Sweet Nose, from the game's own events.

Shop tiles: which seats picked each tile (``picked:<tile>``) and used it (``used:<tile>``), so a
report can set the win rate and score of the seats that had a tile against those that did not;
per game the number of exchanges with the market and between players, rounds played, and how
the game ended (three rounds, or the Ascension target). The Ascension and Shopkeeper variants
show in each row's options. The interface is described in ``parlor.analysis.metrics``.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any


class Metrics:
    def __init__(self, state: Any) -> None:
        self.picked: dict[str, set[int]] = defaultdict(set)
        self.used: dict[str, set[int]] = defaultdict(set)
        self.levels_picked: dict[str, set[int]] = defaultdict(set)
        self.market = 0
        self.between_players = 0
        self.auction_bids = 0

    def observe(self, seat: int, action: Any, events: list[Any]) -> None:
        for e in events:
            kind = e.kind
            if kind == "exchanged_with_market":
                self.market += 1
            elif kind == "exchanged_with_player":
                self.between_players += 1
            elif kind == "bid":
                self.auction_bids += 1
            elif kind in ("shop_chosen", "shop_drawn") and "tile" in e.data:
                self.picked[e.data["tile"]].add(e.data["seat"])
            elif kind == "shop_chosen" and "level" in e.data:
                self.levels_picked[f"level{e.data['level']}"].add(e.data["seat"])
            elif kind == "shop_used":
                self.used[e.data["tile"]].add(e.data["seat"])

    def finish(self, state: Any) -> dict[str, Any]:
        seats: dict[str, list[int]] = {}
        for tile, who in self.picked.items():
            seats[f"picked:{tile}"] = sorted(who)
        for tile, who in self.used.items():
            seats[f"used:{tile}"] = sorted(who)
        return {
            "end_condition": "ascension_target" if state.options.ascension else "rounds",
            "rounds": state.round,
            "turns": None,
            "values": {
                "market_exchanges": self.market,
                "player_exchanges": self.between_players,
                "auction_bids": self.auction_bids,
            },
            "seats": seats,
        }
