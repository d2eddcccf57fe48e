"""Mamma Mia! (Uwe Rosenberg, 1999), 2-5 players.

Players put toppings and pizza orders face up onto one shared oven pile, but only the
top card stays visible. When the supply runs out, the Mamma Mia! card's holder turns
the oven over and reveals it card by card: each order is checked the moment it shows,
against the toppings revealed before it; its owner may add the missing toppings from
hand. Three rounds; most completed orders wins, ties go to the most toppings in hand.

Options (``Options``): every numbered ambiguity of the spec, defaults = revised rules;
``ruleset="cs1999"`` switches on the Czech readings. Actions: ``PlayToppings``,
``SkipToppings``, ``PlayOrder``, ``NoOrder``, ``Draw`` / ``DrawCount`` in a turn;
``ChooseJoker``, ``ChooseRarest``, ``CompleteFromHand``, ``Decline`` when the oven opens.
"""

from .actions import (
    ChooseJoker,
    ChooseRarest,
    CompleteFromHand,
    Decline,
    Draw,
    DrawCount,
    NoOrder,
    PlayOrder,
    PlayToppings,
    SkipToppings,
)
from .game import GAME, MammaMia
from .options import Options
from .rules import MammaMiaState

__all__ = [
    "GAME",
    "ChooseJoker",
    "ChooseRarest",
    "CompleteFromHand",
    "Decline",
    "Draw",
    "DrawCount",
    "MammaMia",
    "MammaMiaState",
    "NoOrder",
    "Options",
    "PlayOrder",
    "PlayToppings",
    "SkipToppings",
]
