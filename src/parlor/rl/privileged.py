"""The whole table as one tensor, hidden cards included: the input of a centralized critic.

**Privileged.** This is what no seat may see. It is for training only (a MAPPO / QMIX style
critic or value function that sees the table while the actors see their observations); a
policy fed with it would play with knowledge nobody has at a real table.

``PrivilegedState(game, players)`` builds ``encode(state, out=None)`` -> float32 ``(size,)``:

1. every seat's observation (the game's encoding, ``LAYOUT.size`` floats each) in seat order
   (seat 0 first, absolute, not relative to anyone), so every hand and every card some seat
   knows is in it;
2. the face-down stacks nobody has seen, card by card from the top, the first ``HORIZON``
   cards of each, one-hot over the stack's card kinds (all zero past the stack's end):
   Mamma Mia!'s supply (5 toppings and the Mamma Mia! card) and each seat's waiter (its
   face-down orders); Mottainai's deck. In Sweet Nose nothing is dealt face down ahead of
   time: a hidden shop tile or a tie is drawn from the state's generator when it is needed,
   so no stack exists to show (its privileged state is part 1 alone).

The stacks' order is what a seat's observation cannot hold and what decides the next draws:
two deals that every seat observes identically differ here (``tests/rl/test_privileged.py``).
Only the first ``HORIZON`` cards are shown so the size stays moderate; a deeper card is still
counted in the observations' stack sizes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from parlor import games
from parlor.core.game import Game, State
from parlor.rl import encoding

HORIZON = 8  # cards shown of each face-down stack, from the top


@dataclass(frozen=True, slots=True)
class HiddenStack:
    """A face-down stack: its name, the number of card kinds, and its cards top first."""

    name: str
    kinds: int
    cards: Callable[[State], Sequence[int]]


def _mamma_mia_stacks(players: int) -> list[HiddenStack]:
    from parlor.games.mamma_mia.data import MAMMA_MIA_CARD, ORDERS

    stacks = [HiddenStack("supply", MAMMA_MIA_CARD + 1, lambda s: s.supply[::-1])]  # type: ignore[attr-defined]
    for seat in range(players):
        stacks.append(HiddenStack(f"waiter[{seat}]", len(ORDERS), lambda s, seat=seat: s.waiters[seat]))  # type: ignore[attr-defined,misc]
    return stacks


def _mottainai_stacks(players: int) -> list[HiddenStack]:
    from parlor.games.mottainai.data import NUM_TYPES

    return [HiddenStack("deck", NUM_TYPES, lambda s: s.deck[::-1])]  # type: ignore[attr-defined]


STACKS: dict[str, Callable[[int], list[HiddenStack]]] = {
    "mamma-mia": _mamma_mia_stacks,
    "sweet-nose": lambda players: [],
    "mottainai": _mottainai_stacks,
}


class PrivilegedState:
    """The privileged state tensor of one game at one table size (see the module docstring)."""

    def __init__(self, game: str | Game, players: int) -> None:
        self.game = games.get(game) if isinstance(game, str) else game
        self.players = self.game.check_players(players)
        self.encoder = encoding(self.game).ENCODER
        self.observation_size = self.encoder.size
        self.stacks = STACKS[self.game.name](self.players)
        self.stacks_offset = self.players * self.observation_size
        self.size = self.stacks_offset + sum(HORIZON * stack.kinds for stack in self.stacks)

    def slices(self) -> list[tuple[int, int, str]]:
        """``(offset, size, name)`` of each part, for documentation and for slicing a batch."""
        parts = [
            (seat * self.observation_size, self.observation_size, f"observation[{seat}]")
            for seat in range(self.players)
        ]
        offset = self.stacks_offset
        for stack in self.stacks:
            parts.append((offset, HORIZON * stack.kinds, f"{stack.name} (top {HORIZON})"))
            offset += HORIZON * stack.kinds
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
        offset = self.stacks_offset
        for stack in self.stacks:
            for depth, card in enumerate(stack.cards(state)[:HORIZON]):
                out[offset + depth * stack.kinds + card] = 1.0
            offset += HORIZON * stack.kinds
        return out
