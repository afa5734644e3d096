"""The list of puzzles: number, band and a solved mark, a window of rows scrolling over the collection.

UP/DOWN move the selection (held: repeats), LEFT/RIGHT a page, A opens the
selected puzzle, B goes back. The line above the footer shows the
selected puzzle's goal. Entries are read from the open book as rows come
into view, one at a time (never the whole collection on the heap); their
bands are kept, a byte each.
"""

from tanbo.puzzles import BANDS

from app import theme
from app.menu import Menu, Row
from boards.common import A, B, DOWN, LEFT, RIGHT, UP

UNREAD = 255


class PuzzleList(Menu):
    """The puzzles of ``book`` (an open :class:`tanbo.puzzles.PuzzleBook`, closed when
    the list is left), ``progress`` (:class:`app.progress.Progress`) marking the
    solved; puzzle ``first`` (from 1) selected; ``open(n)`` and ``back()`` run on A and B."""

    def __init__(self, app, book, progress, first, open, back):
        self.book = book
        self.progress = progress
        self.open = open
        self.leave = back
        self.count = len(book)
        self.bands = bytearray(bytes((UNREAD,)) * self.count)
        s, lh = app.scale, 12 * app.scale
        # Title, its gap, the rows, the goal line and the footer.
        shown = max(1, min(self.count, (app.height - 4 * s - 3 * lh) // lh))
        rows = [Row("") for _ in range(shown)]
        title = "Puzzles %d/%d" % (progress.count(), self.count)
        Menu.__init__(self, app, title, rows, None, footer="A:open <>:page")
        self.goal = self._line(app.height - 2 * lh, theme.DIM, None, "")
        self.top = 0
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
        shown = len(self.labels)
        top = self.top
        if i < top:
            top = i
        elif i >= top + shown:
            top = i - shown + 1
        if top != self.top or not self.rows[0].label:
            self.top = top
            for k, row in enumerate(self.rows):
                row.label = self.row_text(top + k) if top + k < self.count else ""
            self.refresh_rows()
        k = i - top
        if k != self.index:
            self._mark(self.index, False)
            self.index = k
            self._mark(k, True)
        p = self.book.load(i)
        self.bands[i] = p.band
        self.goal.text = p.goal

    def selected(self):
        """The selected entry, 0-based."""
        return self.top + self.index

    def key(self, k):
        i = self.selected()
        if k == UP or k == DOWN:
            self.select((i + (1 if k == DOWN else self.count - 1)) % self.count)
        elif k == LEFT or k == RIGHT:
            page = len(self.labels)
            self.select(max(0, i - page) if k == LEFT else min(self.count - 1, i + page))
        elif k == A:
            self.book.close()
            self.open(i + 1)
        elif k == B:
            self.book.close()
            self.leave()
        else:
            return False
        return True
