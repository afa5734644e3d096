"""Where things go on a display of any size: board cells, status chips, text scale.

All numbers are pixels. The board is a grid of square cells; 2D boards map
point (x, y) to cell (x, y); the 1D line is one row; the 3D cube is its
five 5x5 layers laid out as slices with one empty cell between them and
one empty row above each row of slices for its labels ("Z=1".."Z=5"). The
status goes to the right of the board (landscape screens) or below it,
whichever leaves the bigger cells. The 1D line snakes through rows when
that gives bigger cells, its turns drawn as links in the gap rows.
"""

from app import forget
from app.view.sizes import NO_POINT


class BoardLayout:
    """Cell grid of ``variant`` on a ``width`` x ``height`` display.

    ``cell``: cell size; ``cols``/``rows``: grid size in cells;
    ``x0``/``y0``: top-left of the grid; ``cell_of[p]``: grid index
    (row * cols + col) of point p; ``point_at[i]``: point of grid index i or
    NO_POINT; ``side``: True when the status panel is at the right
    (``status_x``, ``status_y``, ``status_w``, ``status_h``); ``scale``:
    text scale of the status; ``labels``: ``(text, x, y)`` of small captions
    in the board's empty cells (the 3D layer numbers), pixels of the cell's top-left.
    """

    def __init__(self, variant, width, height):
        from app.view.cell_plan import plan
        plan(self, variant, width, height)
        # Planned: its code leaves the heap before the screen's bitmaps and
        # labels are made, the peak of a game's start.
        forget("app.view.cell_plan")

    def cell_xy(self, p):
        """Top-left pixel of point ``p``'s cell."""
        i = self.cell_of[p]
        r = i // self.cols
        return self.x0 + self.shift[r] + (i % self.cols) * self.cell, self.y0 + r * self.cell

    def step(self, p, dx, dy):
        """The point reached from ``p`` moving (dx, dy) cells, jumping gaps; ``p`` at the edge.

        Hexbo (rows of ``row_len`` cells, shifted half a cell a row): dx
        along the row; dy to the row above or below, to its neighbour on
        the left from an even row (A, C, ...), on the right from an odd one
        (or the other where that one is off the board), so that a held UP
        or DOWN zigzags straight up or down, and DOWN undoes UP.
        """
        i = self.cell_of[p]
        if self.row_len is not None:
            r, k = divmod(i, self.cols)
            if dy == 0:
                k += dx
                return p if k < 0 or k >= self.row_len[r] else self.point_at[i + dx]
            t = r + dy
            if t < 0 or t >= self.rows:
                return p
            # Half-cell columns: cell k of row r is at 2k + cols - row_len[r].
            x = 2 * k + self.row_len[t] - self.row_len[r]
            for side in ((-1, 1) if r % 2 == 0 else (1, -1)):
                j = x + side
                if 0 <= j < 2 * self.row_len[t]:
                    return self.point_at[t * self.cols + j // 2]
            return p
        col, row = i % self.cols, i // self.cols
        while True:
            col += dx
            row += dy
            if col < 0 or row < 0 or col >= self.cols or row >= self.rows:
                return p
            q = self.point_at[row * self.cols + col]
            if q != NO_POINT:
                return q
