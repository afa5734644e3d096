"""Cell tiles of the board renderer, drawn once per cell size into one bitmap.

Tile numbers (constants below) index a strip of ``cell`` x ``cell`` tiles;
their pixels are slots of the board palette (:mod:`app.theme`). Drawing
costs cell*cell*TILES pixel writes once when a game screen is built.
"""

import displayio

from app import theme

T_OFF = 0
T_EMPTY = 1
T_HINT = 2
T_SPACE = 3
T_SPACE_HINT = 4
T_STONE = 5  # 5..8: players 1..4
T_RING = 9  # 9..12: stones of the root under the cursor
T_LAST = 13  # 13..16: the last stone placed
T_FLASH = 17
T_LINK = 18  # the 1D line passing through a gap row
TILES = 19  # then 4 tiles (T_EMPTY..T_SPACE_HINT) for each extra arm mask

# Arms: which half-lines leave a cell's centre (bit set = drawn). Edge
# points draw none outward, so the grid stops at the outer points.
ARM_L = 1
ARM_R = 2
ARM_U = 4
ARM_D = 8
ARMS_2D = ARM_L | ARM_R | ARM_U | ARM_D
ARMS_1D = ARM_L | ARM_R


def board_palette():
    pal = displayio.Palette(theme.SLOTS)
    for i, c in enumerate(theme.BOARD_COLORS):
        pal[i] = c
    return pal


def _disc(bm, x0, c, fill, edge, edge_width):
    """A stone of diameter ``c`` at tile column ``x0``: ``fill`` inside, ``edge`` on its rim."""
    # Small cells: a rounded square (a true circle of 6 px reads as a plus sign).
    r = c / 2 - 0.25 if c >= 9 else c / 2 + 0.15
    inner = r - edge_width
    for y in range(c):
        for x in range(c):
            dx, dy = x + 0.5 - c / 2, y + 0.5 - c / 2
            d = (dx * dx + dy * dy) ** 0.5
            if d <= r:
                bm[x0 + x, y] = edge if d > inner else fill


def _square(bm, x0, c, size, color):
    a = (c - size) // 2
    for y in range(a, a + size):
        for x in range(a, a + size):
            bm[x0 + x, y] = color


def tile_of(base, arm_set):
    """Tile number of ``base`` (T_EMPTY..T_SPACE_HINT) with arm mask number ``arm_set``."""
    if arm_set == 0:
        return base
    return TILES + (arm_set - 1) * 4 + base - T_EMPTY


def _on_line(x, y, mid, arms):
    if y == mid and (x == mid or (x < mid and arms & ARM_L) or (x > mid and arms & ARM_R)):
        return True
    return x == mid and ((y < mid and arms & ARM_U) or (y > mid and arms & ARM_D))


def tile_bitmap(cell, arm_masks=(ARMS_2D,)):
    """The strip of tiles for ``cell`` px: TILES tiles whose lines follow
    ``arm_masks[0]``, then T_EMPTY..T_SPACE_HINT again for each further mask
    (see :func:`tile_of`). Stones cover their cell's lines, so only those
    four tiles need variants. Costs cell*cell/2 bytes per tile (4 bits a px)."""
    c = cell
    extra = len(arm_masks) - 1
    bm = displayio.Bitmap(c * (TILES + 4 * extra), c, theme.SLOTS)
    mid = c // 2
    mark = max(2, c // 4)
    rim = 1 if c >= 9 else 0
    ring = 2 if c >= 12 else 1
    for y in range(c):
        for x in range(c // 4, c - c // 4):
            bm[T_LINK * c + x, y] = theme.LINE if x == mid else theme.WOOD
    kinds = [(t, t, arm_masks[0]) for t in range(1, T_LINK)]
    for k in range(extra):
        for t in range(T_EMPTY, T_SPACE_HINT + 1):
            kinds.append((tile_of(t, k + 1), t, arm_masks[k + 1]))
    for n, t, arms in kinds:
        x0 = n * c
        back = theme.SPACE if t in (T_SPACE, T_SPACE_HINT) else theme.WOOD
        for y in range(c):
            for x in range(c):
                bm[x0 + x, y] = theme.LINE if _on_line(x, y, mid, arms) else back
        if t in (T_HINT, T_SPACE_HINT):
            _square(bm, x0, c, max(2, c // 5), theme.HINT)
        elif t == T_FLASH:
            _disc(bm, x0, c, theme.FLASH, theme.FLASH, 0)
        elif t >= T_STONE:
            player = (t - T_STONE) % 4
            fill = theme.PLAYER + player
            if T_RING <= t < T_LAST:
                _disc(bm, x0, c, fill, theme.RING, ring)
            else:
                _disc(bm, x0, c, fill, theme.RIM, rim)
            if t >= T_LAST:
                _square(bm, x0, c, mark, theme.LAST)
    return bm


def icon_bitmap(size):
    """Four stone icons of ``size`` px side by side (players 1..4), board palette."""
    bm = displayio.Bitmap(size * 4, size, theme.SLOTS)
    for p in range(4):
        _disc(bm, p * size, size, theme.PLAYER + p, theme.RIM, 1)
    return bm


CURSOR_OUT = 2  # px the cursor sprite reaches outside its cell


def cursor_bitmap(cell):
    """The cursor: a bright square outline just outside the cell (2 px thick from
    12 px cells, its inner px on the cell's rim) ringed by 1 px of dark, so it
    shows on wood, green, every stone colour and the dark screen alike.
    ``cell`` + 4 px wide; 0 = clear, 1 = bright, 2 = dark."""
    s = cell + 2 * CURSOR_OUT
    t = 2 if cell >= 12 else 1
    bm = displayio.Bitmap(s, s, 3)
    for y in range(s):
        for x in range(s):
            edge = min(x, y, s - 1 - x, s - 1 - y)
            if edge == 0:
                bm[x, y] = 2
            elif edge <= t:
                bm[x, y] = 1
    return bm
