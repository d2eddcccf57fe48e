"""Mamma Mia! card data, loaded once from ``recipes.json`` (shipped inside the package).

Everything the rules need is turned into small integer tables here so the hot path
never touches strings: toppings are 0..4, orders 0..39, and a card in the oven or
supply is one int (see the ``*_CARD`` helpers).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

_RAW: dict[str, Any] = json.loads(resources.files(__package__).joinpath("recipes.json").read_text(encoding="utf-8"))

KINDS: tuple[str, ...] = tuple(_RAW["topping_order"])  # salami, pineapple, mushroom, pepper, olive
KIND_INDEX: dict[str, int] = {k: i for i, k in enumerate(KINDS)}
NUM_KINDS = len(KINDS)
TOPPING_NAMES: dict[str, dict[str, str]] = {t["id"]: t["names"] for t in _RAW["toppings"]}
TOPPING_COLOURS: dict[str, str] = {t["id"]: t["display_hex"] for t in _RAW["toppings"]}
CARDS_PER_KIND: int = _RAW["components"]["topping_cards_per_kind"]  # 13
HAND_LIMIT: int = _RAW["setup"]["hand_limit"]  # 7
TOPPINGS_DEALT: int = _RAW["setup"]["toppings_dealt_per_player"]  # 6
REMOVED_PER_KIND: dict[int, int] = {int(k): v for k, v in _RAW["setup"]["removed_per_kind_by_players"].items()}
ROUNDS: int = _RAW["meta"]["rounds"]  # 3
TITLE: dict[str, str] = _RAW["title"]

NORMAL, BOMBASTICA, MONOTONI, MINIMALE = 0, 1, 2, 3
ORDER_KIND_NAMES = ("normal", "bombastica", "monotoni", "minimale")
_KIND_CODE = {name: i for i, name in enumerate(ORDER_KIND_NAMES)}


@dataclass(frozen=True, slots=True)
class Order:
    """One order card. ``need`` is the printed requirement per topping (normal orders)."""

    index: int  # 0..39
    name: str  # e.g. "green_four_salami"
    deck: int  # 0..4, position of its colour deck
    own: int  # the deck's own topping
    kind: int  # NORMAL, BOMBASTICA, MONOTONI, MINIMALE
    need: tuple[int, ...]  # per topping; for specials only the pictured own topping
    joker_count: int  # Monotoni: 6
    rarest_count: int  # Minimale: 3
    min_total: int  # Bombastica: 15
    label: str  # a readable English label

    @property
    def kind_name(self) -> str:
        return ORDER_KIND_NAMES[self.kind]


@dataclass(frozen=True, slots=True)
class Deck:
    index: int
    colour: str
    own: int
    display_hex: str
    orders: tuple[int, ...]


def _label(recipe: dict[str, Any], own: str) -> str:
    kind = recipe["kind"]
    own_name = TOPPING_NAMES[own]["en"]
    if kind == "bombastica":
        return "Pizza Bombastica (15+ toppings)"
    if kind == "monotoni":
        return f"Pizza Monotoni ({own_name} + 6 of one kind)"
    if kind == "minimale":
        return f"Pizza Minimale ({own_name} + 3 of the rarest)"
    if recipe["id"].endswith("_mixed"):
        return "One of each topping"
    other = next(k for k, n in recipe["toppings"].items() if n == 4)
    return f"{own_name} + 4 {TOPPING_NAMES[other]['en']}"


def _build() -> tuple[tuple[Deck, ...], tuple[Order, ...]]:
    decks: list[Deck] = []
    orders: list[Order] = []
    for d, (colour, deck) in enumerate(_RAW["decks"].items()):
        own = KIND_INDEX[deck["personal_topping"]]
        ids = []
        for recipe in deck["recipes"]:
            need = [0] * NUM_KINDS
            for kind, n in recipe["toppings"].items():
                need[KIND_INDEX[kind]] = n
            order = Order(
                index=len(orders),
                name=recipe["id"],
                deck=d,
                own=own,
                kind=_KIND_CODE[recipe["kind"]],
                need=tuple(need),
                joker_count=recipe.get("joker_count", 0),
                rarest_count=recipe.get("rarest_count", 0),
                min_total=recipe.get("min_total", 0),
                label=_label(recipe, deck["personal_topping"]),
            )
            ids.append(order.index)
            orders.append(order)
        decks.append(Deck(d, colour, own, deck["display_hex"], tuple(ids)))
    return tuple(decks), tuple(orders)


DECKS, ORDERS = _build()
ORDER_INDEX: dict[str, int] = {o.name: o.index for o in ORDERS}
DECK_BY_OWN: dict[int, Deck] = {d.own: d for d in DECKS}

# One int per physical card in the supply or the oven.
MAMMA_MIA_CARD = NUM_KINDS  # 5: toppings are 0..4
ORDER_BASE = 8  # an order o is the card ORDER_BASE + o


def order_card(order: int) -> int:
    return ORDER_BASE + order


def card_name(card: int) -> str:
    if card < NUM_KINDS:
        return KINDS[card]
    if card == MAMMA_MIA_CARD:
        return "mamma_mia"
    return ORDERS[card - ORDER_BASE].name
