"""How a board is laid out (see :class:`app.view.layout.BoardLayout`): only needed while a
screen is built, so :func:`app.screens.game.board_parts` drops this module afterwards."""

from array import array

from app.view.sizes import NO_POINT, chip_width, text_scale

MAX_CELL = 24
# Hexbo's cells of 13 px or more (hexbo-5's 14 and 24: 9x9's) are 5/6 of
# the cell that would fit: a hex stone changes up to six cells (its own,
# its row's two, two neighbours it shares with the stone it grows from
# turning illegal above and below) where a square stone changes four or
# five, so a stone refreshes no more than a 9x9 stone (docs/board-costs.md
# "Hexbo"). The large board's 7 and 12 px cells already do.
HEX_CELL = (5, 6, 13)
PANEL_MIN = 34  # px: an icon and 4 characters (DESIGN: 9x9 -> 14 px on 160x128)


def cells(n):
    """A 16-bit array of ``n`` cells (values to be written), allocated in one
    piece: from a ``range``, not a list of ``n`` words (on a board 4 bytes a
    cell, twice the array, all in one block while the screen is built)."""
    return array("H", range(n))


def plan(lay, variant, width, height):
    """Fill in :class:`app.view.layout.BoardLayout` ``lay`` for ``variant`` on ``width`` x ``height``."""
    lay.width, lay.height = width, height
    lay.links = ()
    lay.label_cells = ()
    lay.row_len = None  # Hexbo: each row's cells (see _hexagon)
    if getattr(variant, "hex_side", 0):
        _hexagon(lay, variant)
    elif variant.dims == 1:
        _most_cells(lay, variant, _snake, (31, 16, 11, 8))
    elif variant.dims == 3:
        # Most cells win: one row of 5 slices or rows of 3 (then 2).
        _most_cells(lay, variant, _slices, (5, 3))
    else:
        lay.cols, lay.rows = variant.width, variant.height
        lay.cell_of = cells(variant.size)
    _fit(lay, variant)
    if lay.row_len is not None:
        # A row of 2N-1 cells fills the width; row r's n cells start
        # (2N-1-n)/2 cells in: the offset rows of a hexagon.
        lay.shift = bytearray(lay.rows)
        for r in range(lay.rows):
            lay.shift[r] = (lay.cols - lay.row_len[r]) * lay.cell // 2
    else:
        lay.shift = bytes(lay.rows)
    if variant.dims == 2 and lay.row_len is None:
        # Cell i holds point i: both tables are the identity, one block for
        # both (read only; 722 bytes less on a 19x19 screen).
        lay.point_at = lay.cell_of
    else:
        point_at = lay.point_at = cells(lay.cols * lay.rows)
        for i in range(len(point_at)):
            point_at[i] = NO_POINT
        for p in range(variant.size):
            point_at[lay.cell_of[p]] = p
    lay.labels = tuple((text, lay.x0 + (i % lay.cols) * lay.cell,
                        lay.y0 + (i // lay.cols) * lay.cell) for text, i in lay.label_cells)
    _arms(lay, variant)


def _most_cells(lay, variant, arrange, options):
    """``arrange(lay, variant, per_row)`` with the ``per_row`` of ``options``
    that gives the biggest cells (the first of equals); ``arrange(lay, variant,
    per_row, True)`` sets the grid's ``cols`` and ``rows`` only."""
    best = None
    for per_row in options:
        # The grid's size decides (_fit): the cells are laid out for the best only
        # (3D's three layouts of 125 points each were 100 ms of an RP2040's start).
        arrange(lay, variant, per_row, True)
        _fit(lay, variant)
        if best is None or lay.cell > best:
            best, best_per_row = lay.cell, per_row
    arrange(lay, variant, best_per_row)


def _arms(lay, variant):
    # Each point draws half-lines only towards neighbours in the next cell
    # (or across a 1D link cell): the grid stops at the outer points, the
    # 1D line turns into its links, 3D layer neighbours draw none.
    # ``arm_masks``: the masks in use, the usual one first;
    # ``arm_set[p]``: index of p's mask in it (see tiles.tile_of).
    if lay.row_len is not None:
        lay.arm_masks = (64,)  # tiles.ARMS_HEX: no lines, a hexagon a cell
        lay.arm_set = bytes(variant.size)
        return
    cols = lay.cols
    cell_of, links = lay.cell_of, lay.links
    usual = 15 if variant.dims != 1 else 3  # tiles.ARMS_2D / ARMS_1D
    masks = [usual]
    slot = bytearray([255] * 16)
    slot[usual] = 0
    sets = bytearray(variant.size)
    if variant.dims == 2:
        # Grid neighbours: the arms follow from the cell alone; a row's
        # inner points share its middle's (set in one slice).
        for r in range(lay.rows):
            i = r * cols
            ends = (r > 0) << 2 | (r < lay.rows - 1) << 3
            for col in (0, 1, cols - 1) if cols > 2 else range(cols):
                arms = ends | (col > 0) | (col < cols - 1) << 1
                if slot[arms] == 255:
                    slot[arms] = len(masks)
                    masks.append(arms)
                if col == 1 and cols > 2:
                    sets[i + 1:i + cols - 1] = bytes((slot[arms],)) * (cols - 2)
                else:
                    sets[i + col] = slot[arms]
        lay.arm_masks = tuple(masks)
        lay.arm_set = sets
        return
    # 3D: a layer is a grid (its neighbours in the next layers draw none):
    # the arms follow from the point's place in its layer, as in 2D, without
    # the neighbours' tuples (3D's were ~50 ms of an RP2040's start).
    w, h = variant.width, variant.height
    layer = w * h if variant.dims == 3 else 0
    nb = None if layer else variant.neighbours  # a tuple per point: 28 ms a 19x19 board on a SAMD51
    for p in range(variant.size):
        if layer:
            r = p % layer
            x, y = r % w, r // w
            arms = (x > 0) | (x < w - 1) << 1 | (y > 0) << 2 | (y < h - 1) << 3
        else:
            i = cell_of[p]
            col = i % cols
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
    lay.arm_masks = tuple(masks)
    lay.arm_set = sets

def _hexagon(lay, variant):
    # Hexbo: grid row r holds the engine's row r, its k-th cell from the
    # left in grid column k (the view shifts each row: see plan).
    lay.cols = lay.rows = variant.rows
    lay.row_len = variant.row_len  # (the engine's tuple, shared)
    cell_of = cells(variant.size)
    for r in range(lay.rows):
        p = variant.row_start[r]
        for k in range(lay.row_len[r]):
            cell_of[p + k] = r * lay.cols + k
    lay.cell_of = cell_of


def _snake(lay, variant, per_row, size_only=False):
    # The line in rows of per_row points, every other row right to left,
    # an empty row between rows; ``links`` are the gap cells joining the
    # ends of consecutive rows (the view draws the line through them).
    n = variant.size
    lines = (n + per_row - 1) // per_row
    lay.cols, lay.rows = per_row, 2 * lines - 1
    if size_only:
        return
    cell_of = cells(n)
    for p in range(n):
        # (// and %, not divmod: no tuple a point, and the board-time
        # workloads mark their units with divmod: tests/start_board_time.py)
        r, i = p // per_row, p % per_row
        col = i if r % 2 == 0 else per_row - 1 - i
        cell_of[p] = 2 * r * per_row + col
    lay.cell_of = cell_of
    links = []
    for r in range(lines - 1):
        col = per_row - 1 if r % 2 == 0 else 0
        links.append((2 * r + 1) * per_row + col)
    lay.links = tuple(links)

def _slices(lay, variant, per_row, size_only=False):
    n = variant.depth
    # Each row of slices has a label row above it (the gap between rows of
    # slices is that row); the label "Z=k" starts over the slice's first column.
    rows_of_slices = (n + per_row - 1) // per_row
    w, h = variant.width, variant.height
    lay.cols = per_row * (w + 1) - 1
    lay.rows = rows_of_slices * (h + 1)
    if size_only:
        return
    cell_of = cells(variant.size)
    wh = w * h
    for p in range(variant.size):
        z, rest = p // wh, p % wh  # (not divmod: see _snake)
        y, x = rest // w, rest % w
        col = (z % per_row) * (w + 1) + x
        row = (z // per_row) * (h + 1) + 1 + y
        cell_of[p] = row * lay.cols + col
    lay.cell_of = cell_of
    lay.label_cells = tuple(("Z=%d" % (z + 1), (z // per_row) * (h + 1) * lay.cols
                              + (z % per_row) * (w + 1)) for z in range(n))

def _fit(lay, variant):
    W, H = lay.width, lay.height
    best = None
    # (cell, text scale, side?) for each place and scale; the biggest cell
    # wins, then the bigger text, then the side panel.
    for scale in (text_scale(W, H), 1):
        side = min((W - PANEL_MIN * scale) // lay.cols, H // lay.rows, MAX_CELL)
        # Below the board: the rows of chips, the info text taking a chip's place.
        per_row = max(1, (W - 4 * scale) // chip_width(scale))
        lines = (variant.players + per_row) // per_row
        below = min(W // lay.cols, (H - 12 * scale * lines) // lay.rows, MAX_CELL)
        for option in ((side, scale, 1, 0), (below, scale, 0, lines)):
            if best is None or option > best:
                best = option
    lay.cell, lay.scale, lay.side = best[0], best[1], bool(best[2])
    lines = best[3]
    c = lay.cell
    bw, bh = c * lay.cols, c * lay.rows
    if lay.side:
        lay.x0, lay.y0 = 0, (H - bh) // 2
        # 2 px of gap: glyphs with ink in their first column (p, l, 1)
        # would otherwise touch the board's wood.
        lay.status_x, lay.status_y = bw + 2, 0
        lay.status_w, lay.status_h = W - bw - 2, H
    else:
        lay.x0, lay.y0 = (W - bw) // 2, 0
        # Under the board, clear of the screen's edges (a wider margin
        # would cost the info text characters on 9x9 at 240x240).
        sx = 2 * lay.scale
        # A pixel of gap, where a line of text still fits below it: 19x19 on
        # 240x240 leaves 12 px, and a descender (g, p, y: the glyph's last
        # row) would fall off the screen (tests/test_sim_fit.py).
        # Not where the status's lines need every pixel (hexbo-5-6p on 240x240:
        # two rows of chips in 24 px).
        gap = 1 if H - bh > 12 * lay.scale * lines else 0
        lay.status_x, lay.status_y = sx, bh + gap
        lay.status_w, lay.status_h = W - 2 * sx, H - bh - gap
    if lay.row_len is not None and c >= HEX_CELL[2]:
        # Smaller hex cells in the middle of the board's place: the status
        # keeps the place, lines and width the fitted cell gives it.
        small = c * HEX_CELL[0] // HEX_CELL[1]
        lay.x0 += (c - small) * lay.cols // 2
        lay.y0 += (c - small) * lay.rows // 2
        lay.cell = small
