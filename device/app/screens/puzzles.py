"""The list of puzzles: number, band and a solved mark, a window of rows scrolling over the collection.

UP/DOWN move the selection (held: repeats), LEFT/RIGHT a page, A opens the
selected puzzle, B goes back. The line above the footer shows the
selected puzzle's goal. Entries are read from the open book as rows come
into view, one at a time (never the whole collection on the heap); their
bands are kept, a byte each.

A damaged entry (the file cut short by an interrupted copy, or edited) reads as "damaged", is refused by A, and the goal line asks for
a copy of the game again (:data:`COPY_AGAIN`); the others play on.
"""

from tanbo.puzzles import BANDS

from app.screens.menu import Menu, Row, ScrollMenu
from app.store.progress import of, open_book

UNREAD = 255
DAMAGED = 254  # an entry that cannot be read or played
COPY_AGAIN = "Copy the game again"  # 19 characters: the goal line's width on 240x240


def screen(app, first=0, refused=False):
    """The list of puzzles, ``first`` (from 1; 0: the one to resume at) selected;
    ``refused``: it was, as damaged (:func:`app.screens.puzzle.screen`). A
    collection that cannot be read: a menu that says so."""
    try:
        book = open_book(app)
    except (OSError, ValueError) as e:
        print("puzzles:", e)
        return Menu(app, "Puzzles", [Row("Back", app.title)], app.title,
                    ["cannot read the", "puzzle collection.", "Copy the game again"])
    p = of(app)
    return PuzzleList(app, book, p, first or p.resume or 1, lambda n: app.go("puzzle", n), app.title, refused)


class PuzzleList(ScrollMenu):
    """The puzzles of ``book`` (an open :class:`tanbo.puzzles.PuzzleBook`, closed when
    the list is left), ``progress`` (:class:`app.store.progress.Progress`) marking the
    solved; puzzle ``first`` (from 1) selected; ``open(n)`` and ``back()`` run on A and B;
    ``refused``: true when puzzle ``first`` was refused as it opened (damaged)."""

    def __init__(self, app, book, progress, first, open, back, refused=False):
        self.book = book
        self.progress = progress
        self.open = open
        self.leave = back
        count = len(book)
        self.bands = bytearray(bytes((UNREAD,)) * count)
        title = "Puzzles %d/%d" % (progress.count(count), count)
        ScrollMenu.__init__(self, app, title, count, "A:open <>:page")
        first = min(max(first, 1), self.count)
        if refused:
            self.bands[first - 1] = DAMAGED
        self.select(first - 1)

    def _load(self, i):
        """Entry ``i`` (0-based), its band kept; None if it cannot be read (marked damaged)."""
        try:
            p = self.book.load(i)
        except (ValueError, OSError) as e:
            print("puzzles:", e)
            self.bands[i] = DAMAGED
            return None
        if self.bands[i] != DAMAGED:  # one refused as it opened stays so
            self.bands[i] = p.band
        return p

    def _band(self, i):
        if self.bands[i] == UNREAD:
            self._load(i)
        return self.bands[i]

    def row_text(self, i):
        """Row of entry ``i`` (0-based): number, band (or "damaged"), the solved mark."""
        n = i + 1
        b = self._band(i)
        return "%3d %-6s %s" % (n, "damaged" if b == DAMAGED else BANDS[b],
                                "solved" if self.progress.solved(n) else "")

    def select(self, i):
        """Select entry ``i`` (0-based), scrolling it into view."""
        self.scroll_to(i)
        p = self._load(i)
        self.goal.text = COPY_AGAIN if p is None or self.bands[i] == DAMAGED else p.goal

    def chosen(self, i):
        if self.bands[i] == DAMAGED:
            self.goal.text = COPY_AGAIN  # refused: the list stays
            return
        self.book.close()
        self.open(i + 1)

    def left(self):
        self.book.close()
        self.leave()
