"""The tiles of the board renderer, drawn once per cell size into one bitmap (see :mod:`app.view.tiles`).

Tiles are drawn as rectangles and disc rows with ``bitmaptools.fill_region``
(C on the boards): drawing them pixel by pixel in Python took 2.76 s of a
PicoSystem's start of a 9x9 game. Needed only while a screen is built:
:func:`app.screens.game.board_parts` drops this module afterwards.
"""

import bitmaptools
import displayio

from app.view import theme
from app.view.tiles import (ARM_D, ARM_L, ARM_R, ARM_U, ARMS_2D, ARMS_HEX, CURSOR_OUT, T_EMPTY, T_FLASH,
                       T_HINT, T_LINK, T_SPACE, T_SPACE_HINT, ink, stone_tile, tile_of)


def board_palette():
    pal = displayio.Palette(theme.SLOTS)
    for i, c in enumerate(theme.BOARD_COLORS):
        pal[i] = c
    return pal


def _fill(bm, x1, y1, x2, y2, color):
    if x1 < x2 and y1 < y2:
        bitmaptools.fill_region(bm, x1, y1, x2, y2, color)


def _half(m, c):
    """The largest x of a ``c`` px row with (2x + 1 - c)^2 <= ``m``, or -1 if none."""
    if m < 0:
        return -1
    k = int(m ** 0.5)
    while k * k > m:
        k -= 1
    while (k + 1) * (k + 1) <= m:
        k += 1
    if (k + c + 1) % 2:  # 2x + 1 - c has the parity of c + 1
        k -= 1
    return -1 if k < 0 else (k + c - 1) // 2


def disc_rows(c, edge_width):
    """A stone of diameter ``c`` as rectangles ``(y0, y1, outer, inner)``: rows
    y0..y1-1 hold pixels ``c-1-outer .. outer`` (``inner`` likewise for the fill;
    -1: none). A pixel is inside when its centre is within the radius, in whole
    numbers: (2x+1-c)^2 + (2y+1-c)^2 <= (2r)^2."""
    # Small cells: a rounded square (a true circle of 6 px reads as a plus sign).
    d = c - 0.5 if c >= 9 else c + 0.3  # the diameter 2r
    di = d - 2 * edge_width
    out, inn = d * d, di * di if di >= 0 else -1
    rects = []
    for y in range(c):
        dy = (2 * y + 1 - c) * (2 * y + 1 - c)
        row = (_half(out - dy, c), _half(inn - dy, c))
        if rects and rects[-1][2:] == row:
            rects[-1] = (rects[-1][0], y + 1) + row
        else:
            rects.append((y, y + 1) + row)
    return rects


def _disc(bm, x0, c, rects, fill, edge):
    """A stone at tile column ``x0`` from ``rects`` (:func:`disc_rows`)."""
    for y0, y1, outer, inner in rects:
        if outer >= 0:
            _fill(bm, x0 + c - 1 - outer, y0, x0 + outer + 1, y1, edge)
            if inner >= 0 and fill != edge:
                _fill(bm, x0 + c - 1 - inner, y0, x0 + inner + 1, y1, fill)


def _square(bm, x0, c, size, color):
    a = (c - size) // 2
    _fill(bm, x0 + a, a, x0 + a + size, a + size, color)


def _hexagon(bm, x0, d, color):
    """A pointy-topped hexagon filling ``d`` x ``d`` px at tile column ``x0``: its
    top and bottom thirds narrow to a tip of about a third of ``d``. Drawn from
    :func:`hexagon_rows`, worked out once a strip (a board draws ~18)."""
    rows = _HEXAGONS.get(d)
    if rows is None:
        rows = _HEXAGONS[d] = hexagon_rows(d)
    for y0, y1, a in rows:
        bitmaptools.fill_region(bm, x0 + a, y0, x0 + d - a, y1, color)  # (a < d / 2: never empty)


_HEXAGONS = {}  # side (px) -> hexagon_rows(side), while this module is loaded (a screen's build)


def hexagon_rows(d):
    """The rows of a ``d`` px hexagon as rectangles ``(y0, y1, inset)``: rows y0..y1-1
    span ``inset`` .. ``d - inset`` - 1, equal rows merged (its middle third is one)."""
    t = max(1, d // 3)
    half = d // 2
    out = []
    for y in range(d):
        e = min(y, d - 1 - y)
        a = (t - e) * half // (t + 1) if e < t else 0
        if out and out[-1][2] == a:
            out[-1] = (out[-1][0], y + 1, a)
        else:
            out.append((y, y + 1, a))
    return out


def _lines(bm, x0, c, arms, back):
    if arms == ARMS_HEX:
        _hexagon(bm, x0, c - 1, back)
        return
    mid = c // 2
    _fill(bm, x0, 0, x0 + c, c, back)
    _fill(bm, x0 + (0 if arms & ARM_L else mid), mid, x0 + (c if arms & ARM_R else mid + 1), mid + 1,
          theme.LINE)
    _fill(bm, x0 + mid, 0 if arms & ARM_U else mid, x0 + mid + 1, c if arms & ARM_D else mid + 1,
          theme.LINE)


def tile_bitmap(cell, players, arm_masks=(ARMS_2D,)):
    """The strip of tiles for ``cell`` px: TILES tiles whose lines follow
    ``arm_masks[0]``, then T_EMPTY..T_SPACE_HINT again for each further mask
    (see :func:`tile_of`), then the stones and rings of ``players`` players
    (see :func:`app.view.tiles.stone_tile`). Stones cover their cell's lines, so
    only those four tiles need variants. Costs cell*cell/2 bytes per tile
    (4 bits a px)."""
    c = cell
    d = ink(c, arm_masks)  # a stone's diameter, at the tile's top-left
    extra = len(arm_masks) - 1
    first = stone_tile(extra + 1)
    bm = displayio.Bitmap(c * (first + 2 * players), c, theme.SLOTS)  # all theme.OFF (0)
    mid = c // 2
    _fill(bm, T_LINK * c + c // 4, 0, T_LINK * c + c - c // 4, c, theme.WOOD)
    _fill(bm, T_LINK * c + mid, 0, T_LINK * c + mid + 1, c, theme.LINE)
    for k in range(extra + 1):
        for t in range(T_EMPTY, T_SPACE_HINT + 1):
            x0 = tile_of(t, k) * c
            _lines(bm, x0, c, arm_masks[k], theme.SPACE if t >= T_SPACE else theme.WOOD)
            if t in (T_HINT, T_SPACE_HINT):
                _square(bm, x0, d, max(2, d // 5), theme.HINT)
    # Stones hide their cell's lines but not its corners: wood behind them.
    # Hexbo's have a rim at every size: a stone must not read as a cell
    # for a colour-blind player (red or yellow on wood).
    stone = disc_rows(d, 1 if d >= 9 or d < c else 0)
    ring = disc_rows(d, 2 if d >= 12 else 1)
    x0 = T_FLASH * c
    _lines(bm, x0, c, arm_masks[0], theme.WOOD)
    _disc(bm, x0, d, stone, theme.FLASH, theme.FLASH)
    for k in range(2 * players):
        x0 = (first + k) * c
        _lines(bm, x0, c, arm_masks[0], theme.WOOD)
        if k >= players:
            _disc(bm, x0, d, ring, theme.PLAYER_SLOTS[k - players], theme.RING)
        else:
            _disc(bm, x0, d, stone, theme.PLAYER_SLOTS[k], theme.RIM)
    return bm


def icon_bitmap(size, players=4):
    """Stone icons of ``size`` px side by side (players 1..``players``, at least
    four: a 2-player board's strip is 4p's), board palette."""
    n = max(4, players)
    bm = displayio.Bitmap(size * n, size, theme.SLOTS)
    rows = disc_rows(size, 1)
    for p in range(n):
        _disc(bm, p * size, size, rows, theme.PLAYER_SLOTS[p], theme.RIM)
    return bm


def cursor_bitmap(cell):  # (Hexbo: its ink, the cell less its gap)
    """The cursor: a bright square outline just outside the cell (2 px thick from
    12 px cells, its inner px on the cell's rim) ringed by 1 px of dark, so it
    shows on wood, green, every stone colour and the dark screen alike.
    ``cell`` + 4 px wide; 0 = clear, 1 = bright, 2 = dark."""
    s = cell + 2 * CURSOR_OUT
    t = 2 if cell >= 12 else 1
    bm = displayio.Bitmap(s, s, 3)
    _fill(bm, 0, 0, s, s, 2)
    _fill(bm, 1, 1, s - 1, s - 1, 1)
    _fill(bm, 1 + t, 1 + t, s - 1 - t, s - 1 - t, 0)
    return bm
