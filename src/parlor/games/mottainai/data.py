"""Mottainai card data, loaded once from the ``cards.json`` / ``materials.json`` shipped here.

A card is referred to by its *type*, an int 0..53 (its position in ``cards.json``); with two
decks both copies share the type. Materials are 0..4 in the order paper, stone, cloth, clay,
metal, and each material's role (task) has the same index.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

_CARDS: list[dict[str, Any]] = json.loads(resources.files(__package__).joinpath("cards.json").read_text("utf-8"))
_MATERIALS: list[dict[str, Any]] = json.loads(
    resources.files(__package__).joinpath("materials.json").read_text("utf-8")
)

MATERIALS: tuple[str, ...] = tuple(m["material"] for m in _MATERIALS)  # paper stone cloth clay metal
ROLES: tuple[str, ...] = tuple(m["role"] for m in _MATERIALS)  # clerk monk tailor potter smith
MATERIAL_INDEX = {m: i for i, m in enumerate(MATERIALS)}
ROLE_INDEX = {r: i for i, r in enumerate(ROLES)}
PAPER, STONE, CLOTH, CLAY, METAL = range(5)
CLERK, MONK, TAILOR, POTTER, SMITH = range(5)
MATERIAL_VALUE: tuple[int, ...] = tuple(m["value"] for m in _MATERIALS)

CARD_IDS: tuple[str, ...] = tuple(c["id"] for c in _CARDS)
CARD_INDEX: dict[str, int] = {c: i for i, c in enumerate(CARD_IDS)}
NAMES: tuple[str, ...] = tuple(c["name"] for c in _CARDS)
MAT: tuple[int, ...] = tuple(MATERIAL_INDEX[c["material"]] for c in _CARDS)
VAL: tuple[int, ...] = tuple(c["value"] for c in _CARDS)
TIMING: tuple[str, ...] = tuple(c["timing"] for c in _CARDS)
EFFECT_TEXT: tuple[str, ...] = tuple(c["effect"] for c in _CARDS)
NUM_TYPES = len(_CARDS)  # 54

WINGS = ("gallery", "gift_shop")
GALLERY, GIFT_SHOP = 0, 1
HAND_LIMIT = 5
HAND_DEALT = 5


def card(name: str) -> int:
    return CARD_INDEX[name]


# Every card id as a constant, e.g. ``POEM``, ``GO_SET`` (rules code names cards this way).
globals().update({cid.upper(): i for i, cid in enumerate(CARD_IDS)})
CRANE = CARD_INDEX["crane"]
CURTAIN = CARD_INDEX["curtain"]
DECK_OF_CARDS = CARD_INDEX["deck_of_cards"]
DOLL = CARD_INDEX["doll"]
FAN = CARD_INDEX["fan"]
LAMPSHADE = CARD_INDEX["lampshade"]
PINWHEEL = CARD_INDEX["pinwheel"]
PLANE = CARD_INDEX["plane"]
POEM = CARD_INDEX["poem"]
SCROLL = CARD_INDEX["scroll"]
SKETCH = CARD_INDEX["sketch"]
STRAW = CARD_INDEX["straw"]
AMULET = CARD_INDEX["amulet"]
BENCH = CARD_INDEX["bench"]
DAITORO = CARD_INDEX["daitoro"]
FOUNTAIN = CARD_INDEX["fountain"]
FROG = CARD_INDEX["frog"]
GO_SET = CARD_INDEX["go_set"]
PILLAR = CARD_INDEX["pillar"]
STATUE = CARD_INDEX["statue"]
STOOL = CARD_INDEX["stool"]
TABLET = CARD_INDEX["tablet"]
TOWER = CARD_INDEX["tower"]
CLOAK = CARD_INDEX["cloak"]
FLAG = CARD_INDEX["flag"]
HANDKERCHIEF = CARD_INDEX["handkerchief"]
KITE = CARD_INDEX["kite"]
MASK = CARD_INDEX["mask"]
PUPPET = CARD_INDEX["puppet"]
QUILT = CARD_INDEX["quilt"]
ROBE = CARD_INDEX["robe"]
SOCKS = CARD_INDEX["socks"]
TAPESTRY = CARD_INDEX["tapestry"]
UMBRELLA = CARD_INDEX["umbrella"]
BANGLE = CARD_INDEX["bangle"]
BOWL = CARD_INDEX["bowl"]
BRICK = CARD_INDEX["brick"]
CUP = CARD_INDEX["cup"]
DICE = CARD_INDEX["dice"]
FIGURINE = CARD_INDEX["figurine"]
HANIWA = CARD_INDEX["haniwa"]
JAR = CARD_INDEX["jar"]
TEAPOT = CARD_INDEX["teapot"]
VASE = CARD_INDEX["vase"]
BELL = CARD_INDEX["bell"]
CHOPSTICKS = CARD_INDEX["chopsticks"]
COIN = CARD_INDEX["coin"]
FLUTE = CARD_INDEX["flute"]
GONG = CARD_INDEX["gong"]
PIN = CARD_INDEX["pin"]
RING = CARD_INDEX["ring"]
SHURIKEN = CARD_INDEX["shuriken"]
SWORD = CARD_INDEX["sword"]
TURTLE = CARD_INDEX["turtle"]

MORNING_CARDS = tuple(i for i, t in enumerate(TIMING) if t == "morning")  # daitoro kite umbrella bowl pin


def decks_for(players: int) -> int:
    """One deck for 2-3 players, two decks (shuffled together) for 4-6."""
    return 1 if players <= 3 else 2
