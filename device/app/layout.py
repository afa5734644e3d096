"""Where things go on a display of any size: board cells, status chips, text scale.

All numbers are pixels. The board is a grid of square cells; 2D boards map
point (x, y) to cell (x, y); the 1D line is one row; the 3D cube is its
five 5x5 layers laid out as slices with one empty cell between them and
one empty row above each row of slices for its labels ("Z=1".."Z=5"). The
status goes to the right of the board (landscape screens) or below it,
whichever leaves the bigger cells. The 1D line snakes through rows when
that gives bigger cells, its turns drawn as links in the gap rows.
"""

from app import drop_modules
from app.sizes import NO_POINT

CHIP_CHARS = 4  # "24/3": stones/roots of one player


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
        from app.cell_plan import plan
        plan(self, variant, width, height)
        # Planned: its code leaves the heap before the screen's bitmaps and
        # labels are made, the peak of a game's start (issue 22: 19x19's
        # second game failed there on a PyBadge's heap).
        drop_modules("cell_plan")

    def cell_xy(self, p):
        """Top-left pixel of point ``p``'s cell."""
        i = self.cell_of[p]
        return self.x0 + (i % self.cols) * self.cell, self.y0 + (i // self.cols) * self.cell

    def step(self, p, dx, dy):
        """The point reached from ``p`` moving (dx, dy) cells, jumping gaps; ``p`` at the edge."""
        i = self.cell_of[p]
        col, row = i % self.cols, i // self.cols
        while True:
            col += dx
            row += dy
            if col < 0 or row < 0 or col >= self.cols or row >= self.rows:
                return p
            q = self.point_at[row * self.cols + col]
            if q != NO_POINT:
                return q
