"""Mottainai (Carl Chudyk, Asmadi Games 2015), 2-5 players (6 under the v0.84 rules).

Every card is at once a task (its material's role), a helper, a material, a sale and a
work with an effect. On your turn: Morning (hand limit, morning effects, clear the old
task, choose a new task or none), Noon (perform each opponent's task clockwise with your
own helpers, then your own task — or one Prayer), Night (night effects, pick up the face-
down waiting area). Works in the Gallery cover helpers, works in the Gift Shop cover
sales. The game ends at once when the deck runs out or someone has five works in a wing;
works, covered sales and backorders (hand cards of materials you lead in sales) score.

Options (``Options``): every numbered ambiguity of spec §17 with the v1.0 default;
``ruleset="v0.84"`` switches on the print-and-play readings together; ``extended_game``
(six works) and ``team_play`` (4 players) are the variants. Actions: each decision is one
small action naming card ids — ``ChooseTask``/``NoTask`` in the morning; per task action
``Sell``, ``Hire``, ``Refill``, ``Collect``, ``Complete`` (the roles), ``Craft``, ``Pray``;
card effects use ``UseEffect``, ``Decline``, ``PickCard``, ``PickWing`` and friends
(see ``actions.py``).
"""

from .actions import (
    ChooseTask,
    Collect,
    Complete,
    Craft,
    Decline,
    Done,
    Hire,
    NoTask,
    Pass,
    PickCard,
    PickWing,
    Pray,
    Refill,
    ReturnCard,
    Reveal,
    Sell,
    UseEffect,
)
from .game import GAME, Mottainai
from .options import Options
from .rules import MottainaiState

__all__ = [
    "GAME",
    "ChooseTask",
    "Collect",
    "Complete",
    "Craft",
    "Decline",
    "Done",
    "Hire",
    "Mottainai",
    "MottainaiState",
    "NoTask",
    "Options",
    "Pass",
    "PickCard",
    "PickWing",
    "Pray",
    "Refill",
    "ReturnCard",
    "Reveal",
    "Sell",
    "UseEffect",
]
