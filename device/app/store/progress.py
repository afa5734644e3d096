"""Puzzle progress: which puzzles are solved and the one to resume at, packed for the save record.

Kept in RAM from start to power-off, packed (``app.puzzle_record``, a few
dozen bytes: this module's code is needed only while the puzzles are
shown, and is dropped during a game), and written with the save record
(:mod:`app.store.save`): solving a puzzle is the only thing that
writes it by itself, so a collection of N puzzles costs at most N NVM
writes however often they are opened, skipped or retried. Progress is by
entry number, so it holds the collection's identity
(:attr:`tanbo.puzzles.PuzzleBook.ident`) and starts afresh with another
collection (an update of the game).
"""

MAX_BITS = 249  # bytes of solved bits: the section's length is one byte (6 + 249 = 255)


class Progress:
    """``resume``: the 1-based number of the puzzle to resume at (0: none yet);
    ``ident``: the identity of the collection it counts (0: none yet);
    ``bits``: bit ``(n - 1) % 8`` of byte ``(n - 1) // 8`` is set once puzzle n is solved."""

    def __init__(self):
        self.resume = 0
        self.ident = 0
        self.bits = bytearray()

    @classmethod
    def unpacked(cls, data):
        """A Progress holding the values of progress section ``data`` (:meth:`pack`)."""
        p = cls()
        p.unpack(data)
        return p

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

    def count(self, size=8 * MAX_BITS):
        """How many of puzzles 1 to ``size`` (the collection's) are solved: bits past
        it (a save of a larger collection, or damaged with a valid CRC) are
        not counted."""
        n = 0
        bits = self.bits
        for i in range(min(len(bits), (size + 7) >> 3)):
            b = bits[i]
            if size < (i + 1) << 3:  # the last byte: only the collection's bits
                b &= (1 << (size & 7)) - 1
            while b:
                n += b & 1
                b >>= 1
        return n

    def of(self, ident):
        """Count the collection whose identity is ``ident`` (8 hex digits): another
        collection's progress is forgotten. True if it was."""
        k = int(ident, 16)
        if k == self.ident:
            return False
        if self.ident == 0:  # packed before any collection was opened: this one's
            self.ident = k
            return False
        forgot = self.ident != 0 and (self.resume != 0 or self.count() != 0)
        self.ident = k
        self.resume = 0
        self.bits = bytearray()
        return forgot

    def pack(self):
        """The record's progress section: resume (2 bytes), the collection's identity
        (4), the solved bits without trailing zero bytes (at most MAX_BITS: 1,992
        puzzles); b"" while no collection was opened."""
        bits = self.bits
        n = len(bits)
        while n and not bits[n - 1]:
            n -= 1
        if not self.resume and not n and not self.ident:
            return b""
        r, k = self.resume, self.ident
        return bytes((r & 255, r >> 8, k & 255, k >> 8 & 255, k >> 16 & 255, k >> 24)) + bytes(bits[:min(n, MAX_BITS)])

    def unpack(self, data):
        """Take the values of a progress section (:meth:`pack`); a short one leaves the defaults."""
        if len(data) >= 6:
            self.resume = data[0] | data[1] << 8
            self.ident = data[2] | data[3] << 8 | data[4] << 16 | data[5] << 24
            self.bits = bytearray(data[6:])


def book_path():
    """Path of the puzzle collection: ``puzzles.txt`` in the app package's folder
    (``/lib/app/puzzles.txt`` on a board, ``device/app/puzzles.txt`` in the simulator)."""
    import app
    f = app.__file__
    return f[:max(f.rfind("/"), f.rfind("\\")) + 1] + "puzzles.txt"


def open_book(app):
    """The collection, open (:class:`tanbo.puzzles.PuzzleBook`), its progress made the
    app's (by number: of this collection only); OSError or ValueError if it cannot be read."""
    from tanbo.puzzles import PuzzleBook
    book = PuzzleBook(book_path())
    p = of(app)
    p.of(book.ident)
    keep(app, p)
    return book


def of(app):
    """The app's puzzle progress, unpacked from ``app.puzzle_record``; :func:`keep` packs it back."""
    return Progress.unpacked(app.puzzle_record)


def keep(app, p):
    """Progress ``p`` becomes the app's (written with the next save)."""
    app.puzzle_record = p.pack()
