"""Puzzle progress: which puzzles are solved and the one to resume at, packed for the save record.

Kept in RAM from start to power-off (a few dozen bytes) and written with
the save record (:mod:`app.save`): solving a puzzle is the only thing that
writes it by itself, so a collection of N puzzles costs at most N NVM
writes however often they are opened, skipped or retried.
"""


class Progress:
    """``resume``: the 1-based number of the puzzle to resume at (0: none yet);
    ``bits``: bit ``(n - 1) % 8`` of byte ``(n - 1) // 8`` is set once puzzle n is solved."""

    def __init__(self):
        self.resume = 0
        self.bits = bytearray()

    def solved(self, n):
        i = n - 1
        return 0 <= i < 8 * len(self.bits) and bool(self.bits[i >> 3] & 1 << (i & 7))

    def mark(self, n):
        """Record puzzle ``n`` (from 1) as solved; True if it was not before."""
        if self.solved(n):
            return False
        i = n - 1
        if i >> 3 >= len(self.bits):
            self.bits.extend(bytes((i >> 3) + 1 - len(self.bits)))
        self.bits[i >> 3] |= 1 << (i & 7)
        return True

    def count(self):
        """How many puzzles are solved."""
        n = 0
        for b in self.bits:
            while b:
                n += b & 1
                b >>= 1
        return n

    def pack(self):
        """The record's progress section: resume (2 bytes, little-endian) and the solved
        bits without trailing zero bytes; b"" while no puzzle was opened (at most 255 bytes)."""
        bits = self.bits
        n = len(bits)
        while n and not bits[n - 1]:
            n -= 1
        if not self.resume and not n:
            return b""
        return bytes((self.resume & 255, self.resume >> 8)) + bytes(bits[:min(n, 253)])

    def unpack(self, data):
        """Take the values of a progress section (:meth:`pack`); a short one leaves the defaults."""
        if len(data) >= 2:
            self.resume = data[0] | data[1] << 8
            self.bits = bytearray(data[2:])
