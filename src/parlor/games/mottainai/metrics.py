"""What a balance study counts in Mottainai, from the game's own events and its end.

Per card: which seats ended with it among their works (``work:<card>``, gallery or gift shop) and
among their helpers (``helper:<card>``), so a report sets their win rate against the seats without
it; how the game ended (``wing``, ``deck``, ``turtle``) and whether the Turtle won; per game the
works completed, cards sold and helpers hired. The interface is described in
``parlor.analysis.metrics``.
"""

from __future__ import annotations

from typing import Any

from .data import CARD_IDS


class Metrics:
    def __init__(self, state: Any) -> None:
        self.works = 0
        self.sold = 0
        self.hired = 0
        self.prayers = 0

    def observe(self, seat: int, action: Any, events: list[Any]) -> None:
        for e in events:
            kind = e.kind
            if kind == "work_completed":
                self.works += 1
            elif kind == "sell":
                self.sold += 1
            elif kind == "hire":
                self.hired += 1
            elif kind == "pray":
                self.prayers += 1

    def finish(self, state: Any) -> dict[str, Any]:
        seats: dict[str, set[int]] = {}
        for p in range(state.players):
            for card in state.works_of(p):
                seats.setdefault(f"work:{CARD_IDS[card]}", set()).add(p)
            for card in state.helpers[p]:
                seats.setdefault(f"helper:{CARD_IDS[card]}", set()).add(p)
        turtle = state.end_reason == "turtle"
        return {
            "end_condition": state.end_reason or "end",
            "rounds": None,
            "turns": state.turns,
            "values": {
                "works_completed": self.works,
                "cards_sold": self.sold,
                "helpers_hired": self.hired,
                "prayers": self.prayers,
                "turtle_win": int(turtle),
            },
            "seats": {k: sorted(v) for k, v in seats.items()},
        }
