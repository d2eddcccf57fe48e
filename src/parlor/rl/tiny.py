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
from parlor.core.actions import Action
from parlor.core.game import Game, State
from parlor.core.rng import Rng


@dataclass(frozen=True)
class TinyVariant:
    """``deck`` (card names) is shuffled; ``hand_size`` cards go to each seat in turn from the
    top and the rest is the supply; ``place(table, hands, rest)`` writes them into ``table``
    (a scenario JSON object of the game, copied first).

    ``allow(action)``, when given, narrows a choice the full game offers (Sweet Nose's 120
    sweetness placements) to the decisions it returns True for: the rules are unchanged, the
    variant only offers a seat fewer of its legal decisions (a seat always keeps at least one).
    """

    game: str
    players: int
    deck: tuple[str, ...]
    hand_size: int
    table: Mapping[str, Any]
    place: Callable[[dict[str, Any], list[list[str]], list[str]], None]
    description: str = field(default="")
    allow: Callable[[Action], bool] | None = None

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

# Sweet Nose: two kinds in play (mung bean cake and peach bun), each seat's bowl fixed with the
# three others, so a placement matters only by which of the two kinds is sweet (5) for it.
_SWEET_NOSE_IN_PLAY = ("mung_bean_cake", "longevity_peach_bun")
# The placements the variant offers, in kind order (mung bean, peach bun, peanut brittle,
# zhuangyuan cake, candied haws): the three fixed kinds take 2, 3, 4.
SWEET_NOSE_PLACEMENTS = ((1, 5, 2, 3, 4), (5, 1, 2, 3, 4))


def _sweet_nose_place(table: dict[str, Any], hands: list[list[str]], rest: list[str]) -> None:
    # a tray of one sweet each; the bag's last sweet goes to the market, as at a 3-player setup
    table["trays"] = [{hand[0]: 1} for hand in hands]
    market = dict(table["market"])
    for sweet in rest:
        market[sweet] = market.get(sweet, 0) + 1
    table["market"] = market


def _sweet_nose_allow(action: Action) -> bool:
    values = getattr(action, "values", None)  # only AssignSweetness has values
    return values is None or tuple(values) in SWEET_NOSE_PLACEMENTS


SWEET_NOSE_TINY = TinyVariant(
    game="sweet-nose",
    players=3,
    deck=_SWEET_NOSE_IN_PLAY * 2,
    hand_size=1,
    table={
        "players": 3,
        "options": {"phase2_turn_limit": 3},
        "phase": "set_sweetness",
        "round": 3,
        "start_player": 0,
        "bowls": [{"peanut_brittle": 3, "zhuangyuan_cake": 2, "candied_haws": 2}] * 3,
        "market": {"mung_bean_cake": 1, "longevity_peach_bun": 1},
    },
    place=_sweet_nose_place,
    allow=_sweet_nose_allow,
    description=(
        "3 players, the last round, scores 0, no shop tiles, phase 2 ends after 3 turns (option "
        "phase2_turn_limit); every bowl holds 3 peanut brittle, 2 zhuangyuan cakes and 2 candied "
        "haws; 2 mung bean cakes and 2 peach buns are shuffled, 1 dealt to each tray and the last "
        "into the market beside 1 of each; a seat places its cards secretly choosing only which "
        "of mung bean cake and peach bun is 5 (the other 1; brittle, zhuangyuan and haws 2, 3, 4)"
    ),
)

VARIANTS: dict[str, TinyVariant] = {
    "mamma-mia": MAMMA_MIA_TINY,
    "sweet-nose": SWEET_NOSE_TINY,
    "mottainai": MOTTAINAI_TINY,
}
