"""The engine's shuffle, drawn in machine words: the same cards in the same order, faster.

``Rng.shuffle`` (core/rng.py) is SplitMix64 on Python integers. Its 64-bit values do not fit
the compiled build's tagged machine integers, so every draw there goes through arbitrary-size
integer arithmetic (about 1.5 µs a draw, some 300 draws a game). :func:`shuffle` makes exactly
the same draws with the 64-bit state split into two 32-bit halves held in native ``i64``s: no
intermediate value ever reaches 2**63, so the compiled build and pure Python (``PARLOR_PURE=1``)
compute the same numbers, and the generator's state afterwards is the one ``Rng.shuffle`` leaves.
``tests/games/mamma_mia/test_speed_paths.py`` checks that against ``Rng`` itself.

Layout: a 64-bit word ``x`` is ``(hi, lo)`` with ``x = hi * 2**32 + lo``, both in ``[0, 2**32)``.
A product with a 64-bit constant keeps its low 64 bits; the constant's halves are split once
more into 16-bit pieces, so that each partial product stays below 2**49.
"""

from __future__ import annotations

from typing import Any, Final

from mypy_extensions import i64

from parlor.core.rng import Rng

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


def shuffle(rng: Any, items: list[Any]) -> None:
    """``rng.shuffle(items)``: the same permutation and the same generator state afterwards."""
    if type(rng) is not Rng:  # a search's own generator (determinize) shuffles by its own rules
        rng.shuffle(items)
        return
    state: int = rng.state
    s_hi: i64 = state >> 32
    s_lo: i64 = state & _M32
    i: i64 = len(items) - 1
    while i > 0:
        n: i64 = i + 1
        # Rng.below(n) rejects x >= 2**64 - (2**64 % n); with n < 2**32 that is only ever
        # the top word hi == 2**32 - 1 with lo >= 2**32 - (2**64 % n).
        wrap: i64 = (((_M32 % n) + 1) % n * (((_M32 % n) + 1) % n)) % n  # 2**64 % n
        while True:
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
            if z_hi != _M32 or wrap == 0 or z_lo < _M32 + 1 - wrap:
                break
        # z % n, with 2**32 % n folded in
        j = ((z_hi % n) * ((_M32 % n + 1) % n) + z_lo) % n
        items[i], items[j] = items[j], items[i]
        i -= 1
    hi: int = s_hi  # back to unbounded ints before shifting
    lo: int = s_lo
    rng.state = (hi << 32) | lo
