"""A small deterministic random number generator, the same on every interpreter.

MicroPython's ``random`` has no ``Random`` class and its sequence differs
from CPython's, so games and searches that must replay identically (tests,
GTP answers compared across interpreters, "deterministic for a seed") use
this. It is a 29-bit linear congruential generator whose arithmetic stays
below 2**30, so on a 32-bit board every value is a small int: no heap
allocation per call. :meth:`tanbo.game.Game.random_playout` runs the
same step inlined (a call costs more than the step): a test keeps the two
identical.
"""

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

_MASK = const(0x1FFFFFFF)  # 29 bits
_A = const(30069)  # = 1 mod 4, so the period is the full 2**29 (with an odd increment)
_C = const(12345)


class Rng:
    """``Rng(seed)``; ``below(n)`` returns an int in ``range(n)`` for ``1 <= n <= 65536``."""

    def __init__(self, seed=0):
        self.x = (seed * 2654435 + 1013) & _MASK

    def below(self, n):
        """Uniform-ish int in ``range(n)`` (top 16 bits, modulo bias < n / 65536)."""
        x = self.x
        t = (_A * (x & 0x7FFF) + _C) & _MASK
        x = (t + (((_A * (x >> 15)) & 0x3FFF) << 15)) & _MASK
        self.x = x
        return (x >> 13) % n
