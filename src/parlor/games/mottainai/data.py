"""Mottainai card data, loaded once from the ``cards.json`` / ``materials.json`` shipped here.

A card is referred to by its *type*, an int 0..53 (its position in ``cards.json``); with two
decks both copies share the type. Materials are 0..4 in the order paper, stone, cloth, clay,
metal, and each material's role (task) has the same index.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, Final

_CARDS: list[dict[str, Any]] = json.loads(
    resources.files("parlor.games.mottainai").joinpath("cards.json").read_text("utf-8")
)
_MATERIALS: list[dict[str, Any]] = json.loads(
    resources.files("parlor.games.mottainai").joinpath("materials.json").read_text("utf-8")
)

MATERIALS: Final[tuple[str, ...]] = tuple(m["material"] for m in _MATERIALS)  # paper stone cloth clay metal
ROLES: Final[tuple[str, ...]] = tuple(m["role"] for m in _MATERIALS)  # clerk monk tailor potter smith
MATERIAL_INDEX = {m: i for i, m in enumerate(MATERIALS)}
ROLE_INDEX = {r: i for i, r in enumerate(ROLES)}
PAPER: Final = 0
STONE: Final = 1
CLOTH: Final = 2
CLAY: Final = 3
METAL: Final = 4
CLERK: Final = 0
MONK: Final = 1
TAILOR: Final = 2
POTTER: Final = 3
SMITH: Final = 4
MATERIAL_VALUE: Final[tuple[int, ...]] = tuple(m["value"] for m in _MATERIALS)

CARD_IDS: Final[tuple[str, ...]] = tuple(c["id"] for c in _CARDS)
CARD_INDEX: dict[str, int] = {c: i for i, c in enumerate(CARD_IDS)}
NAMES: Final[tuple[str, ...]] = tuple(c["name"] for c in _CARDS)
MAT: Final[tuple[int, ...]] = tuple(MATERIAL_INDEX[c["material"]] for c in _CARDS)
VAL: Final[tuple[int, ...]] = tuple(c["value"] for c in _CARDS)
TIMING: Final[tuple[str, ...]] = tuple(c["timing"] for c in _CARDS)
EFFECT_TEXT: Final[tuple[str, ...]] = tuple(c["effect"] for c in _CARDS)
NUM_TYPES: Final = 54  # len(cards.json), checked below

WINGS: Final[tuple[str, ...]] = ("gallery", "gift_shop")  # not tuple[str, str]: WINGS[i] would build it
GALLERY: Final = 0
GIFT_SHOP: Final = 1
HAND_LIMIT: Final = 5
HAND_DEALT: Final = 5


def card(name: str) -> int:
    return CARD_INDEX[name]


# Every card id as a constant, e.g. ``POEM``, ``GO_SET`` (rules code names cards this way).
# Literal ints, so that mypyc puts the number itself into the compiled rules (a name would
# be a dict lookup at every use); ``_check_card_constants`` below ties them to cards.json.
CRANE: Final = 0  # crane
CURTAIN: Final = 1  # curtain
DECK_OF_CARDS: Final = 2  # deck_of_cards
DOLL: Final = 3  # doll
FAN: Final = 4  # fan
LAMPSHADE: Final = 5  # lampshade
PINWHEEL: Final = 6  # pinwheel
PLANE: Final = 7  # plane
POEM: Final = 8  # poem
SCROLL: Final = 9  # scroll
SKETCH: Final = 10  # sketch
STRAW: Final = 11  # straw
AMULET: Final = 12  # amulet
BENCH: Final = 13  # bench
DAITORO: Final = 14  # daitoro
FOUNTAIN: Final = 15  # fountain
FROG: Final = 16  # frog
GO_SET: Final = 17  # go_set
PILLAR: Final = 18  # pillar
STATUE: Final = 19  # statue
STOOL: Final = 20  # stool
TABLET: Final = 21  # tablet
TOWER: Final = 22  # tower
CLOAK: Final = 23  # cloak
FLAG: Final = 24  # flag
HANDKERCHIEF: Final = 25  # handkerchief
KITE: Final = 26  # kite
MASK: Final = 27  # mask
PUPPET: Final = 28  # puppet
QUILT: Final = 29  # quilt
ROBE: Final = 30  # robe
SOCKS: Final = 31  # socks
TAPESTRY: Final = 32  # tapestry
UMBRELLA: Final = 33  # umbrella
BANGLE: Final = 34  # bangle
BOWL: Final = 35  # bowl
BRICK: Final = 36  # brick
CUP: Final = 37  # cup
DICE: Final = 38  # dice
FIGURINE: Final = 39  # figurine
HANIWA: Final = 40  # haniwa
JAR: Final = 41  # jar
TEAPOT: Final = 42  # teapot
VASE: Final = 43  # vase
BELL: Final = 44  # bell
CHOPSTICKS: Final = 45  # chopsticks
COIN: Final = 46  # coin
FLUTE: Final = 47  # flute
GONG: Final = 48  # gong
PIN: Final = 49  # pin
RING: Final = 50  # ring
SHURIKEN: Final = 51  # shuriken
SWORD: Final = 52  # sword
TURTLE: Final = 53  # turtle

MORNING_CARDS: Final[tuple[int, ...]] = tuple(
    i for i, t in enumerate(TIMING) if t == "morning"
)  # daitoro kite umbrella bowl pin


def decks_for(players: int) -> int:
    """One deck for 2-3 players, two decks (shuffled together) for 4-6."""
    return 1 if players <= 3 else 2


def _check_card_constants() -> None:
    """The literal card constants above must name the cards.json position of their id."""
    names = globals()
    wrong = [cid for i, cid in enumerate(CARD_IDS) if names.get(cid.upper()) != i]
    if wrong or len(_CARDS) != NUM_TYPES:
        raise ImportError(f"mottainai/data.py card constants disagree with cards.json: {wrong}")


_check_card_constants()
