"""The seeded random generator that every game state carries.

Why not ``random.Random``: its state is 625 machine words, so copying it costs
microseconds, and bots clone states thousands of times per move. SplitMix64 keeps
its whole state in one integer (a clone is free), is fully specified here (so a
record made today replays identically on any future Python), and is plenty for
shuffling cards.
"""

from __future__ import annotations

import random as _random
from collections.abc import MutableSequence
from typing import TypeVar

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15

T = TypeVar("T")


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def derive_seed(seed: int, *parts: int) -> int:
    """A seed derived from ``seed`` and ``parts`` (e.g. game index, seat): reproducible,
    independent streams for the games and seats of a simulation or tournament."""
    rng = Rng(seed)
    for p in parts:
        rng = Rng(state=_mix(rng.next64() ^ (p & _MASK)))
    return rng.next64() >> 2


class Rng:
    """SplitMix64 with unbiased bounded draws and Fisher-Yates shuffles."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0, *, state: int | None = None) -> None:
        # A seed is mixed once so that nearby seeds (1, 2, 3...) start far apart.
        self.state = (state if state is not None else _mix(seed & _MASK)) & _MASK

    def next64(self) -> int:
        self.state = (self.state + _GOLDEN) & _MASK
        return _mix(self.state)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling: no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = _MASK - (_MASK + 1) % n
        while True:
            x = self.next64()
            if x <= limit:
                return x % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: "list[T] | tuple[T, ...]") -> T:
        return items[self.below(len(items))]

    def random(self) -> float:
        """A float in ``[0, 1)`` with 53 random bits."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def fork(self) -> "Rng":
        """An independent generator derived from this one (advances this one)."""
        return Rng(state=self.next64())

    def clone(self) -> "Rng":
        return Rng(state=self.state)


class FastRng:
    """The search bots' own generator: ``Rng``'s interface drawn from CPython's C Mersenne Twister.

    A search draws millions of numbers per game (determinizations, untried moves, playouts) and
    none of them reaches a record, so it need not be the records' fully specified SplitMix64:
    ``random.Random`` is several times cheaper per draw here and just as deterministic for a seed.
    ``below`` scales a 53-bit float (a bias under 2**-40 for any realistic bound: harmless for a
    search). ``fork`` hands a sampled world a records-grade ``Rng`` of its own.
    """

    __slots__ = ("_random", "random", "shuffle")

    def __init__(self, seed: int = 0) -> None:
        self._random = _random.Random(seed)
        self.random = self._random.random  # a float in [0, 1)
        self.shuffle = self._random.shuffle  # Fisher-Yates, in C's draws

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        return int(self.random() * n)

    def choice(self, items: "list[T] | tuple[T, ...]") -> T:
        return items[int(self.random() * len(items))]

    def next64(self) -> int:
        return self._random.getrandbits(64)

    def fork(self) -> Rng:
        """An independent records-grade generator for a sampled world (advances this one)."""
        return Rng(state=self._random.getrandbits(64))


# What ``State.determinize`` accepts: the records' generator or the search's (compiled code checks it).
AnyRng = Rng | FastRng
