"""Tiny variants: games small enough for exact solving (CFR, best response, exploitability).

A tiny variant is a position near a game's end with a handful of cards: a reduced deck is
shuffled and dealt, the rest of the table is fixed, and the position is built with the game's own
scenario loader (games/<game>/scenario.py), so the rules are the game's own, unchanged. The
shuffle draws from the state's generator like any deal, so with OpenSpiel's
``chance="explicit"`` every draw of it is a chance node (parlor.rl.chance).

``VARIANTS[name]`` -> ``TinyVariant``; ``variant.deal(rng)`` -> the position;
OpenSpiel: ``pyspiel.load_game("parlor_mamma_mia", {"variant": "tiny", "chance": "explicit"})``.
Each variant is described in its game's rules page (docs/<game>.md, "Tiny variant").
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from parlor import games
from parlor.core.game import Game, State
from parlor.core.rng import Rng


@dataclass(frozen=True)
class TinyVariant:
    """``deck`` (card names) is shuffled; ``hand_size`` cards go to each seat in turn from the
    top and the rest is the supply; ``place(table, hands, rest)`` writes them into ``table``
    (a scenario JSON object of the game, copied first)."""

    game: str
    players: int
    deck: tuple[str, ...]
    hand_size: int
    table: Mapping[str, Any]
    place: Callable[[dict[str, Any], list[list[str]], list[str]], None]
    description: str = field(default="")

    def deal(self, rng: Rng) -> State:
        """The position after the tiny deck is shuffled with ``rng`` and dealt."""
        cards = list(self.deck)
        rng.shuffle(cards)
        hands = [cards[seat * self.hand_size : (seat + 1) * self.hand_size] for seat in range(self.players)]
        table = copy.deepcopy(dict(self.table))
        self.place(table, hands, cards[self.players * self.hand_size :])
        game: Game = games.get(self.game)
        state = game.scenario(table)  # type: ignore[attr-defined]
        return state


def _mamma_mia_place(table: dict[str, Any], hands: list[list[str]], rest: list[str]) -> None:
    for seat, hand in enumerate(hands):
        toppings: dict[str, int] = {}
        for card in hand:
            toppings[card] = toppings.get(card, 0) + 1
        table["hands"][seat]["toppings"] = toppings
    table["supply"] = rest


MAMMA_MIA_TINY = TinyVariant(
    game="mamma-mia",
    players=2,
    deck=("mushroom", "mushroom", "olive", "salami"),
    hand_size=2,
    table={
        "players": 2,
        "round": 3,
        "start_player": 0,
        "hands": [{"orders": ["red_four_mushroom"]}, {"orders": ["yellow_four_mushroom"]}],
        "oven": ["mushroom", "mushroom", "mushroom"],
        "mamma_mia_holder": 1,
    },
    place=_mamma_mia_place,
    description=(
        "2 players, the last round, the default rules; the oven holds 3 mushrooms; seat 0 (red, "
        "salami) holds the order Salami + 4 Mushroom, seat 1 (yellow, pineapple) Pineapple + 4 "
        "Mushroom; 4 toppings (2 mushroom, 1 olive, 1 salami) are shuffled and 2 dealt to each "
        "seat; the supply is empty and seat 1 holds the Mamma Mia! card (it opens the oven)"
    ),
)


def _mottainai_place(table: dict[str, Any], hands: list[list[str]], rest: list[str]) -> None:
    table["hands"] = hands


MOTTAINAI_TINY = TinyVariant(
    game="mottainai",
    players=2,
    deck=("bell", "poem", "brick", "kite"),
    hand_size=2,
    table={
        "players": 2,
        "start_player": 0,
        "active": 0,
        "tasks": [None, None],
        "deck": ["bowl", "cup"],
        "floor": ["jar", "fan"],
        "sales": [["vase"], ["pin"]],
        "helpers": [["teapot"], ["ring"]],
    },
    place=_mottainai_place,
    description=(
        "2 players near the end: the deck is Bowl then Cup, the floor Jar and Fan; seat 0 has sold "
        "a Vase and has a Teapot helper, seat 1 has sold a Pin and has a Ring helper; Bell, Poem, "
        "Brick and Kite are shuffled and 2 dealt to each seat; no tasks yet, seat 0 to start"
    ),
)

VARIANTS: dict[str, TinyVariant] = {"mamma-mia": MAMMA_MIA_TINY, "mottainai": MOTTAINAI_TINY}
