"""The whole table as one tensor, hidden cards included: the input of a centralized critic.

**Privileged.** This is what no seat may see. It is for training only (a MAPPO / QMIX style
critic or value function that sees the table while the actors see their observations); a
policy fed with it would play with knowledge nobody has at a real table.

``PrivilegedState(game, players)`` builds ``encode(state, out=None)`` -> float32 ``(size,)``:

1. every seat's observation (the game's encoding, ``LAYOUT.size`` floats each) in seat order
   (seat 0 first, absolute, not relative to anyone), so every hand and every card some seat
   knows is in it;
2. the cards nobody sees (or only some seats may not see), per zone:

   - face-down stacks, card by card from the top, the first ``HORIZON`` cards, one-hot over
     the stack's card kinds (all zero past the stack's end): Mamma Mia!'s supply (5 toppings
     and the Mamma Mia! card) and each seat's waiter (its face-down orders); Mottainai's deck;
   - face-down sets, a count per card kind: Mottainai's face-down starting task of each seat
     (not even its owner knows it) and each seat's waiting area (hidden from its owner too
     unless ``waiting_area_visible_to_owner``).

   In Sweet Nose nothing is dealt face down ahead of time: a hidden shop tile or a tie is
   drawn from the state's generator when it is needed, and every secret (a seat's sweetness
   cards) is its owner's, so part 1 holds it all.

The zones are what no observation holds, and the stacks' order decides the next draws:
two deals that every seat observes identically differ here (``tests/rl/test_privileged.py``).
Only the first ``HORIZON`` cards are shown so the size stays moderate; a deeper card is still
counted in the observations' stack sizes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from parlor import games
from parlor.core.game import Game, State
from parlor.rl import encoding

HORIZON = 8  # cards shown of each face-down stack, from the top


@dataclass(frozen=True, slots=True)
class HiddenZone:
    """Cards some seat does not see: a stack (``ordered``: its first ``HORIZON`` cards, one-hot
    per position, top first) or a set (a count per kind); ``kinds`` card kinds."""

    name: str
    kinds: int
    cards: Callable[[State], Sequence[int]]
    ordered: bool = True

    @property
    def size(self) -> int:
        return HORIZON * self.kinds if self.ordered else self.kinds


def _mamma_mia_zones(players: int) -> list[HiddenZone]:
    from parlor.games.mamma_mia.data import MAMMA_MIA_CARD, ORDERS

    zones = [HiddenZone("supply", MAMMA_MIA_CARD + 1, lambda s: s.supply[::-1])]  # type: ignore[attr-defined]
    for seat in range(players):
        zones.append(HiddenZone(f"waiter[{seat}]", len(ORDERS), lambda s, seat=seat: s.waiters[seat]))  # type: ignore[attr-defined,misc]
    return zones


def _mottainai_zones(players: int) -> list[HiddenZone]:
    from parlor.games.mottainai.data import NUM_TYPES

    def face_down_task(state: Any, seat: int) -> Sequence[int]:
        task = state.tasks[seat]
        return (task,) if task >= 0 and not state.task_up[seat] else ()

    zones = [HiddenZone("deck", NUM_TYPES, lambda s: s.deck[::-1])]  # type: ignore[attr-defined]
    for seat in range(players):
        zones.append(
            HiddenZone(f"face_down_task[{seat}]", NUM_TYPES, lambda s, seat=seat: face_down_task(s, seat), False)
        )
        zones.append(HiddenZone(f"waiting[{seat}]", NUM_TYPES, lambda s, seat=seat: s.waiting[seat], False))  # type: ignore[attr-defined,misc]
    return zones


ZONES: dict[str, Callable[[int], list[HiddenZone]]] = {
    "mamma-mia": _mamma_mia_zones,
    "sweet-nose": lambda players: [],
    "mottainai": _mottainai_zones,
}


class PrivilegedState:
    """The privileged state tensor of one game at one table size (see the module docstring)."""

    def __init__(self, game: str | Game, players: int) -> None:
        self.game = games.get(game) if isinstance(game, str) else game
        self.players = self.game.check_players(players)
        self.encoder = encoding(self.game).ENCODER
        self.observation_size = self.encoder.size
        self.zones = ZONES[self.game.name](self.players)
        self.zones_offset = self.players * self.observation_size
        self.size = self.zones_offset + sum(zone.size for zone in self.zones)

    def slices(self) -> list[tuple[int, int, str]]:
        """``(offset, size, name)`` of each part, for documentation and for slicing a batch."""
        parts = [
            (seat * self.observation_size, self.observation_size, f"observation[{seat}]")
            for seat in range(self.players)
        ]
        offset = self.zones_offset
        for zone in self.zones:
            parts.append((offset, zone.size, f"{zone.name} (top {HORIZON})" if zone.ordered else zone.name))
            offset += zone.size
        return parts

    def encode(self, state: State, out: np.ndarray | None = None) -> np.ndarray:
        if state.game is not self.game or state.players != self.players:
            raise ValueError(
                f"a {state.players}-player {state.game.name} state, not {self.players}-player {self.game.name}"
            )
        if out is None:
            out = np.zeros(self.size, np.float32)
        elif out.shape != (self.size,) or out.dtype != np.float32:
            raise ValueError(f"out must be float32 of shape ({self.size},), got {out.dtype} {out.shape}")
        else:
            out.fill(0.0)
        # the game's writer stores one observation at any offset of a zeroed float32 buffer
        view = memoryview(out).cast("B").cast("f")
        for seat in range(self.players):
            self.encoder.write(state, seat, view, seat * self.observation_size)
        offset = self.zones_offset
        for zone in self.zones:
            if zone.ordered:
                for depth, card in enumerate(zone.cards(state)[:HORIZON]):
                    out[offset + depth * zone.kinds + card] = 1.0
            else:
                for card in zone.cards(state):
                    out[offset + card] += 1.0
            offset += zone.size
        return out
