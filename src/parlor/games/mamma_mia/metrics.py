"""What a balance study counts in Mamma Mia!, from the game's own events.

Per recipe (order card) and per order kind (normal, Bombastica, Monotoni, Minimale): how often an
order played into the oven is completed when it is revealed. Per game: orders played, completed,
failed, declined, and the round in which the Mamma Mia! card came up. The interface is described
in ``parlor.analysis.metrics``; this module does not know who calls it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .data import ORDER_INDEX, ORDERS, ROUNDS


class Metrics:
    def __init__(self, state: Any) -> None:
        self.played: Counter[str] = Counter()
        self.completed: Counter[str] = Counter()
        self.failed = 0
        self.declined = 0
        self.round_one_length = 0

    def observe(self, seat: int, action: Any, events: list[Any]) -> None:
        for e in events:
            kind = e.kind
            if kind == "order_played":
                self.played[e.data["order"]] += 1
            elif kind == "order_completed":
                self.completed[e.data["order"]] += 1
            elif kind == "order_failed":
                self.failed += 1
            elif kind == "order_declined":
                self.declined += 1

    def finish(self, state: Any) -> dict[str, Any]:
        rates: dict[str, list[int]] = {}
        by_kind_played: Counter[str] = Counter()
        by_kind_completed: Counter[str] = Counter()
        for name, n in self.played.items():
            done = self.completed[name]
            rates[f"completion:{name}"] = [done, n]
            kind = ORDERS[ORDER_INDEX[name]].kind_name
            by_kind_played[kind] += n
            by_kind_completed[kind] += done
        for kind, n in by_kind_played.items():
            rates[f"completion_kind:{kind}"] = [by_kind_completed[kind], n]
        completed = sum(self.completed.values())
        return {
            "end_condition": "rounds" if state.round >= ROUNDS else "no_orders_left",
            "rounds": state.round,
            "turns": state.turns,
            "values": {
                "orders_played": sum(self.played.values()),
                "orders_completed": completed,
                "orders_failed": self.failed,
                "orders_declined": self.declined,
            },
            "rates": rates,
        }
