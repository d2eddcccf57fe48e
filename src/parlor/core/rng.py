"""The seeded random generator that every game state carries.

Why not ``random.Random``: its state is 625 machine words, so copying it costs
microseconds, and bots clone states thousands of times per move. SplitMix64 keeps
its whole state in one integer (a clone is free), is fully specified here (so a
record made today replays identically on any future Python), and is plenty for
shuffling cards.
"""

from __future__ import annotations

import random as _random
from collections.abc import Callable, MutableSequence
from typing import Final, TypeVar

from mypy_extensions import i64

# Final: compiled, a module constant is a load, where a plain global is a dict lookup at every
# use (``Rng.__init__`` runs at every clone of a state, ``below`` at every random bot's move)
_MASK: Final = (1 << 64) - 1
_TWO_64: Final = 1 << 64
_GOLDEN: Final = 0x9E3779B97F4A7C15

T = TypeVar("T")


# ---- drawing in machine words -----------------------------------------------------------------
# SplitMix64 on Python integers: its 64-bit values do not fit the compiled build's tagged machine
# integers, so every ``next64`` there goes through arbitrary-size integer arithmetic (1-1.5 us a
# draw, and a deal makes 40-300 of them). ``Rng.shuffle`` makes exactly the same draws with the
# 64-bit state split into two 32-bit halves held in native ``i64``s: no intermediate value ever
# reaches 2**63, so the compiled build and pure Python compute the same numbers, 20-30x faster
# compiled. tests/test_core.py checks it against the plain Fisher-Yates over ``below``.
#
# Layout: a 64-bit word ``x`` is ``(hi, lo)`` with ``x = hi * 2**32 + lo``, both in ``[0, 2**32)``.
# A product with a 64-bit constant keeps its low 64 bits; the constant's halves are split once
# more into 16-bit pieces, so that each partial product stays below 2**49.

_M32: Final = 0xFFFFFFFF
_M16: Final = 0xFFFF
# SplitMix64's increment and its two multipliers (core/rng.py), as 32-bit halves and the
# halves' 16-bit pieces: (hi, lo_hi16, lo_lo16, hi_hi16, hi_lo16).
_G_HI: Final = 0x9E3779B9
_G_LO: Final = 0x7F4A7C15
_A_LO1: Final = 0x1CE4  # 0xBF58476D1CE4E5B9: lo = 0x1CE4E5B9, hi = 0xBF58476D
_A_LO0: Final = 0xE5B9
_A_HI1: Final = 0xBF58
_A_HI0: Final = 0x476D
_B_LO1: Final = 0x1331  # 0x94D049BB133111EB: lo = 0x133111EB, hi = 0x94D049BB
_B_LO0: Final = 0x11EB
_B_HI1: Final = 0x94D0
_B_HI0: Final = 0x49BB


def _times(hi: i64, lo: i64, c_hi1: i64, c_hi0: i64, c_lo1: i64, c_lo0: i64) -> tuple[i64, i64]:
    """``(hi, lo) * c mod 2**64`` for the constant ``c`` given as four 16-bit pieces."""
    # lo * c_lo, exactly: (lo * c_lo1) * 2**16 + lo * c_lo0, each part below 2**48.
    p0 = lo * c_lo0
    p1 = lo * c_lo1
    low = p0 + ((p1 & _M16) << 16)  # below 2**49
    carry = (low >> 32) + (p1 >> 16)  # the product's bits 32 and up
    # The cross terms hi * c_lo + lo * c_hi matter only below 2**32.
    cross = hi * c_lo0 + ((hi * c_lo1) & _M16) * 65536 + lo * c_hi0 + ((lo * c_hi1) & _M16) * 65536
    return (carry + cross) & _M32, low & _M32


def _step(s_hi: i64, s_lo: i64) -> tuple[i64, i64, i64, i64]:
    """One SplitMix64 draw in halves: the next state ``(s_hi, s_lo)`` and its output ``(z_hi, z_lo)``."""
    # state += golden ratio (mod 2**64)
    s_lo += _G_LO
    s_hi = (s_hi + _G_HI + (s_lo >> 32)) & _M32
    s_lo &= _M32
    # z = mix(state)
    z_hi, z_lo = s_hi, s_lo
    z_lo ^= ((z_lo >> 30) | (z_hi << 2)) & _M32  # z ^= z >> 30
    z_hi ^= z_hi >> 30
    z_hi, z_lo = _times(z_hi, z_lo, _A_HI1, _A_HI0, _A_LO1, _A_LO0)
    z_lo ^= ((z_lo >> 27) | (z_hi << 5)) & _M32  # z ^= z >> 27
    z_hi ^= z_hi >> 27
    z_hi, z_lo = _times(z_hi, z_lo, _B_HI1, _B_HI0, _B_LO1, _B_LO0)
    z_lo ^= ((z_lo >> 31) | (z_hi << 1)) & _M32  # z ^= z >> 31
    z_hi ^= z_hi >> 31
    return s_hi, s_lo, z_hi, z_lo


def _below_halves(s_hi: i64, s_lo: i64, n: i64) -> tuple[i64, i64, i64]:
    """``Rng.below(n)`` for ``0 < n < 2**32`` from the state in halves: the next state and the draw."""
    # Rng.below(n) rejects x >= 2**64 - (2**64 % n); with n < 2**32 that is only ever the top
    # word hi == 2**32 - 1 with lo >= 2**32 - (2**64 % n).
    wrap: i64 = (((_M32 % n) + 1) % n * (((_M32 % n) + 1) % n)) % n  # 2**64 % n
    while True:
        s_hi, s_lo, z_hi, z_lo = _step(s_hi, s_lo)
        if z_hi != _M32 or wrap == 0 or z_lo < _M32 + 1 - wrap:
            break
    # z % n, with 2**32 % n folded in
    return s_hi, s_lo, ((z_hi % n) * ((_M32 % n + 1) % n) + z_lo) % n


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


class ChanceNeeded(Exception):
    """A scripted generator was asked for a draw its script does not hold yet.

    ``bound``: the draw is a uniform integer in ``[0, bound)``. Raised from inside the rules,
    so the state being played is left half-changed: play on a clone (parlor.rl.openspiel's
    explicit chance mode does).
    """

    def __init__(self, bound: int) -> None:
        super().__init__(f"a chance draw below {bound} is needed")
        self.bound = bound


class ChanceScript:
    """The outcomes of a state's random draws, given from outside (explicit chance nodes).

    With ``rng.script`` set, every ``below``, ``shuffle`` and ``choice`` of that generator takes
    its uniform draws from ``outcomes`` in order (a Fisher-Yates shuffle is its ``below`` draws,
    last position first) instead of from SplitMix64, and raises ``ChanceNeeded`` when they
    run out. Nothing else changes: the rules make exactly the draws they always make, so a
    script holding the draws a seed would make deals that seed's game.
    """

    __slots__ = ("outcomes", "cursor")

    # (``outcomes`` has a default because a copy of a compiled (mypyc) instance, as OpenSpiel's
    # serialization and ``copy.deepcopy`` make, calls the class with no arguments and then sets
    # its attributes.)
    def __init__(self, outcomes: list[int] | None = None) -> None:
        self.outcomes: list[int] = [] if outcomes is None else outcomes
        self.cursor = 0

    def draw(self, n: int) -> int:
        at = self.cursor
        if at >= len(self.outcomes):
            raise ChanceNeeded(n)
        value = self.outcomes[at]
        if not 0 <= value < n:
            raise ValueError(f"scripted chance outcome {value} is not below {n}")
        self.cursor = at + 1
        return value


class Rng:
    """SplitMix64 with unbiased bounded draws and Fisher-Yates shuffles."""

    __slots__ = ("state", "script")

    def __init__(self, seed: int = 0, *, state: int | None = None) -> None:
        # A seed is mixed once so that nearby seeds (1, 2, 3...) start far apart.
        self.state = (state if state is not None else _mix(seed & _MASK)) & _MASK
        self.script: ChanceScript | None = None  # explicit chance: draws come from outside

    def next64(self) -> int:
        if self.script is not None:  # a raw word has no finite list of outcomes
            raise ValueError("a scripted generator draws only bounded integers (below, shuffle, choice)")
        self.state = (self.state + _GOLDEN) & _MASK
        return _mix(self.state)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling: no modulo bias)."""
        # Every bound a game uses is in [1, 2**32): checked first, in machine words (compiled, a
        # comparison with 2**64 is one of arbitrary-size integers), then drawn in machine words,
        # the same number as the plain loop below.
        small = 0 < n <= _M32
        if not small and (n <= 0 or n > _TWO_64):  # above 2**64 every draw would be rejected
            raise ValueError(f"below() needs a bound in [1, 2**64], got {n}")
        script = self.script
        if script is not None:
            return script.draw(n)
        if small:
            state: int = self.state
            s_hi, s_lo, j = _below_halves(state >> 32, state & _M32, n)
            hi: int = s_hi
            lo: int = s_lo
            self.state = (hi << 32) | lo
            return j
        limit = _MASK - _TWO_64 % n
        while True:
            x = self.next64()
            if x <= limit:
                return x % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates: for i from the end down to 1, swap item i with item ``below(i + 1)``.

        The draws are computed in 32-bit halves (see above): the same permutation and the
        same generator state afterwards as the plain loop over ``below``.
        """
        script = self.script
        if script is not None:
            k = len(items) - 1
            while k > 0:
                m = script.draw(k + 1)
                items[k], items[m] = items[m], items[k]
                k -= 1
            return
        state: int = self.state
        s_hi: i64 = state >> 32
        s_lo: i64 = state & _M32
        i: i64 = len(items) - 1
        j: i64 = 0
        if type(items) is list:
            # Every deal shuffles a list: typed as one, the compiled build swaps two pointers
            # in place of four generic item calls with boxed indices (a third of a deal's cost).
            cards: list[T] = items
            while i > 0:
                s_hi, s_lo, j = _below_halves(s_hi, s_lo, i + 1)
                cards[i], cards[j] = cards[j], cards[i]
                i -= 1
        else:
            while i > 0:
                s_hi, s_lo, j = _below_halves(s_hi, s_lo, i + 1)
                items[i], items[j] = items[j], items[i]
                i -= 1
        hi: int = s_hi  # back to unbounded ints before shifting
        lo: int = s_lo
        self.state = (hi << 32) | lo

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

    __slots__ = ("_random", "_getrandbits", "random")

    def __init__(self, seed: int = 0) -> None:
        self._random = _random.Random(seed)
        self.random = self._random.random  # a float in [0, 1)
        self._getrandbits = self._random.getrandbits

    def shuffle(self, items: MutableSequence[T]) -> None:
        """``random.Random.shuffle``, draw for draw: the same permutation for the same seed.

        The standard library's shuffle is a Python loop over ``_randbelow`` (about 1 us an item, a
        fifth of a Mamma Mia! search's time in its determinizations); compiled, this one makes the
        same ``getrandbits`` calls at a fraction of that. tests/bots/test_ismcts.py compares them.
        """
        getrandbits = self._getrandbits
        i: i64 = len(items) - 1
        j: i64 = 0
        if type(items) is list:
            cards: list[T] = items
            while i > 0:
                j = _randbelow(getrandbits, i + 1)
                cards[i], cards[j] = cards[j], cards[i]
                i -= 1
        else:
            while i > 0:
                j = _randbelow(getrandbits, i + 1)
                items[i], items[j] = items[j], items[i]
                i -= 1

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


def _randbelow(getrandbits: Callable[[int], int], n: i64) -> i64:
    """``random.Random._randbelow`` for ``n > 0``: ``bit_length(n)`` random bits, redrawn until below ``n``."""
    k: i64 = 0
    m: i64 = n
    while m:
        k += 1
        m >>= 1
    r: i64 = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


# What ``State.determinize`` accepts: the records' generator or the search's (compiled code checks it).
AnyRng = Rng | FastRng
