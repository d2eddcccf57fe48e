"""Sweet Nose (好鼻師; 劉忠岳 and 林傑森, Taiwan 2016), 3-5 players.

Five kinds of Taiwanese sweets, eight in each player's tray. Every round each player
secretly rates the five kinds 1-5 (how sweet each is *for them*), then players take
turns trading: take a sweet from another player's tray into their own bowl while
pushing one of a different kind into that player's bowl, or swap with the 3-sweet
market. The moment a tray is empty, cards are revealed and everyone scores card value
plus market sweets of the kind, times sweets held. High scorers pick stronger one-shot
shop tiles for the next round. Three rounds; the lowest total sweetness wins, ties share.

Options (``Options``): every numbered ambiguity of the spec (A1-A21) with the spec's
defaults, and the variants ``ascension`` (play until a total reaches 100) and
``shopkeeper`` (an opening auction of tiles paid in sweetness).

Actions: ``AssignSweetness`` (phase 1, all seats at once); ``ExchangeWithPlayer``,
``ExchangeWithMarket``, the ten ``Use*`` tile abilities and ``EndTurn`` (phase 2);
``ChooseShop`` / ``ChooseShopLevel`` / ``Decline`` (phase 4); ``Bid`` / ``Pass`` (Shopkeeper).
"""

from .actions import (
    AssignSweetness,
    Bid,
    ChooseShop,
    ChooseShopLevel,
    Decline,
    EndTurn,
    ExchangeWithMarket,
    ExchangeWithPlayer,
    Pass,
    UseBowlSwap,
    UseChangeTaste,
    UseDoubleTrade,
    UseIgnoreMarket,
    UseMarketToBowl,
    UseRearrange,
    UseSendBack,
    UseStash,
    UseTakeBack,
    UseTwinTrade,
)
from .game import GAME, SweetNose
from .options import Options
from .rules import SweetNoseState

__all__ = [
    "GAME",
    "AssignSweetness",
    "Bid",
    "ChooseShop",
    "ChooseShopLevel",
    "Decline",
    "EndTurn",
    "ExchangeWithMarket",
    "ExchangeWithPlayer",
    "Options",
    "Pass",
    "SweetNose",
    "SweetNoseState",
    "UseBowlSwap",
    "UseChangeTaste",
    "UseDoubleTrade",
    "UseIgnoreMarket",
    "UseMarketToBowl",
    "UseRearrange",
    "UseSendBack",
    "UseStash",
    "UseTakeBack",
    "UseTwinTrade",
]
