"""Where things go on a display of any size: board cells, status chips, text scale.

All numbers are pixels. The board is a grid of square cells; 2D boards map
point (x, y) to cell (x, y); the 1D line is one row; the 3D cube is its
five 5x5 layers laid out as slices with one empty cell between them and
one empty row above each row of slices for its labels ("Z=1".."Z=5"). The
status goes to the right of the board (landscape screens) or below it,
whichever leaves the bigger cells. The 1D line snakes through rows when
that gives bigger cells, its turns drawn as links in the gap rows.
"""

from array import array

NO_POINT = 0xFFFF
MAX_CELL = 24
CHIP_CHARS = 4  # "24/3": stones/roots of one player
PANEL_MIN = 34  # px: an icon and 4 characters (DESIGN: 9x9 -> 14 px on 160x128)


def text_scale(width, height):
    """1 on 160x128 screens, 2 on 240x240 (6x12 glyphs would be too small there)."""
    return 2 if min(width, height) >= 200 else 1


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
        self.width, self.height = width, height
        self.links = ()
        self.label_cells = ()
        if variant.dims == 1:
            best = None
            for per_row in (31, 16, 11, 8):
                self._snake(variant, per_row)
                self._fit(variant)
                if best is None or self.cell > best:
                    best = self.cell
                    best_per_row = per_row
            self._snake(variant, best_per_row)
        elif variant.dims == 3:
            # Most cells win: one row of 5 slices or rows of 3 (then 2).
            best = None
            for per_row in (5, 3):
                self._slices(variant, per_row)
                self._fit(variant)
                if best is None or self.cell > best:
                    best = self.cell
                    best_per_row = per_row
            self._slices(variant, best_per_row)
        else:
            self.cols, self.rows = variant.width, variant.height
            self.cell_of = array("H", range(variant.size))
        self._fit(variant)
        self.point_at = array("H", [NO_POINT] * (self.cols * self.rows))
        for p in range(variant.size):
            self.point_at[self.cell_of[p]] = p
        self.labels = tuple((text, self.x0 + (i % self.cols) * self.cell,
                             self.y0 + (i // self.cols) * self.cell) for text, i in self.label_cells)
        self._arms(variant)

    def _arms(self, variant):
        # Each point draws half-lines only towards neighbours in the next cell
        # (or across a 1D link cell): the grid stops at the outer points, the
        # 1D line turns into its links, 3D layer neighbours draw none.
        # ``arm_masks``: the masks in use, the usual one first;
        # ``arm_set[p]``: index of p's mask in it (see tiles.tile_of).
        cols = self.cols
        cell_of, links = self.cell_of, self.links
        nb = variant.neighbours  # builds a tuple per point: 28 ms a 19x19 board on a SAMD51
        usual = 15 if variant.dims != 1 else 3  # tiles.ARMS_2D / ARMS_1D
        masks = [usual]
        slot = bytearray([255] * 16)
        slot[usual] = 0
        sets = bytearray(variant.size)
        flat = variant.dims == 2  # grid neighbours: the arms follow from the cell alone
        for p in range(variant.size):
            i = cell_of[p]
            col = i % cols
            if flat:
                arms = ((col > 0) | (col < cols - 1) << 1 | (i >= cols) << 2
                        | (i < len(self.point_at) - cols) << 3)
                if slot[arms] == 255:
                    slot[arms] = len(masks)
                    masks.append(arms)
                sets[p] = slot[arms]
                continue
            arms = 0
            for q in nb[p]:
                j = cell_of[q]
                if j == i - 1 and col > 0:
                    arms |= 1
                elif j == i + 1 and col < cols - 1:
                    arms |= 2
                elif j == i - cols or (j == i - 2 * cols and i - cols in links):
                    arms |= 4
                elif j == i + cols or (j == i + 2 * cols and i + cols in links):
                    arms |= 8
            if slot[arms] == 255:
                slot[arms] = len(masks)
                masks.append(arms)
            sets[p] = slot[arms]
        self.arm_masks = tuple(masks)
        self.arm_set = sets

    def _snake(self, variant, per_row):
        # The line in rows of per_row points, every other row right to left,
        # an empty row between rows; ``links`` are the gap cells joining the
        # ends of consecutive rows (the view draws the line through them).
        n = variant.size
        lines = (n + per_row - 1) // per_row
        self.cols, self.rows = per_row, 2 * lines - 1
        cells = array("H", [0] * n)
        for p in range(n):
            r, i = divmod(p, per_row)
            col = i if r % 2 == 0 else per_row - 1 - i
            cells[p] = 2 * r * per_row + col
        self.cell_of = cells
        links = []
        for r in range(lines - 1):
            col = per_row - 1 if r % 2 == 0 else 0
            links.append((2 * r + 1) * per_row + col)
        self.links = tuple(links)

    def _slices(self, variant, per_row):
        n = variant.depth
        # Each row of slices has a label row above it (the gap between rows of
        # slices is that row); the label "Z=k" starts over the slice's first column.
        rows_of_slices = (n + per_row - 1) // per_row
        w, h = variant.width, variant.height
        self.cols = per_row * (w + 1) - 1
        self.rows = rows_of_slices * (h + 1)
        cells = array("H", [0] * variant.size)
        for p in range(variant.size):
            z, rest = divmod(p, w * h)
            y, x = divmod(rest, w)
            col = (z % per_row) * (w + 1) + x
            row = (z // per_row) * (h + 1) + 1 + y
            cells[p] = row * self.cols + col
        self.cell_of = cells
        self.label_cells = tuple(("Z=%d" % (z + 1), (z // per_row) * (h + 1) * self.cols
                                  + (z % per_row) * (w + 1)) for z in range(n))

    def _fit(self, variant):
        W, H = self.width, self.height
        best = None
        # (cell, text scale, side?) for each place and scale; the biggest cell
        # wins, then the bigger text, then the side panel.
        for scale in (text_scale(W, H), 1):
            side = min((W - PANEL_MIN * scale) // self.cols, H // self.rows, MAX_CELL)
            below = min(W // self.cols, (H - 12 * scale) // self.rows, MAX_CELL)
            for option in ((side, scale, 1), (below, scale, 0)):
                if best is None or option > best:
                    best = option
        self.cell, self.scale, self.side = best[0], best[1], bool(best[2])
        c = self.cell
        bw, bh = c * self.cols, c * self.rows
        if self.side:
            self.x0, self.y0 = 0, (H - bh) // 2
            # 2 px of gap: glyphs with ink in their first column (p, l, 1)
            # would otherwise touch the board's wood.
            self.status_x, self.status_y = bw + 2, 0
            self.status_w, self.status_h = W - bw - 2, H
        else:
            self.x0, self.y0 = (W - bw) // 2, 0
            # Under the board, clear of the screen's edges (a wider margin
            # would cost the info text characters on 9x9 at 240x240).
            sx = 2 * self.scale
            self.status_x, self.status_y = sx, bh + 1
            self.status_w, self.status_h = W - 2 * sx, H - bh - 1

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
