"""The list of puzzles: number, band and a solved mark, a window of rows scrolling over the collection.

UP/DOWN move the selection (held: repeats), LEFT/RIGHT a page, A opens the
selected puzzle, B goes back. The line above the footer shows the
selected puzzle's goal. Entries are read from the open book as rows come
into view, one at a time (never the whole collection on the heap); their
bands are kept, a byte each.
"""

from tanbo.puzzles import BANDS

from app.menu import ScrollMenu

UNREAD = 255


class PuzzleList(ScrollMenu):
    """The puzzles of ``book`` (an open :class:`tanbo.puzzles.PuzzleBook`, closed when
    the list is left), ``progress`` (:class:`app.progress.Progress`) marking the
    solved; puzzle ``first`` (from 1) selected; ``open(n)`` and ``back()`` run on A and B."""

    def __init__(self, app, book, progress, first, open, back):
        self.book = book
        self.progress = progress
        self.open = open
        self.leave = back
        self.bands = bytearray(bytes((UNREAD,)) * len(book))
        title = "Puzzles %d/%d" % (progress.count(), len(book))
        ScrollMenu.__init__(self, app, title, len(book), "A:open <>:page")
        self.select(min(max(first, 1), self.count) - 1)

    def _band(self, i):
        if self.bands[i] == UNREAD:
            self.bands[i] = self.book.load(i).band
        return self.bands[i]

    def row_text(self, i):
        """Row of entry ``i`` (0-based): number, band, the solved mark."""
        n = i + 1
        return "%3d %-6s %s" % (n, BANDS[self._band(i)], "solved" if self.progress.solved(n) else "")

    def select(self, i):
        """Select entry ``i`` (0-based), scrolling it into view."""
        self.scroll_to(i)
        p = self.book.load(i)
        self.bands[i] = p.band
        self.goal.text = p.goal

    def chosen(self, i):
        self.book.close()
        self.open(i + 1)

    def left(self):
        self.book.close()
        self.leave()
