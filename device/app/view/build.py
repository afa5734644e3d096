"""Building the board and status views (see :mod:`app.view.board`): needed while a
screen is built only, so :func:`app.screens.game.board_parts` drops this module
(and :mod:`app.view.tile_art`, :mod:`app.view.cell_plan`) afterwards."""

import gc

import displayio

from app.view import theme, tile_art, tiles
from app.view.layout import BoardLayout
from app.view.sizes import CHIP_CHARS, chip_width
from app.view.text import Label

UNSET = 255  # BoardView.shown: no tile drawn yet


def kept_tiles(kept, cell, players, arm_masks):
    """The tile strip (:func:`app.view.tile_art.tile_bitmap`) of a board of ``cell``
    px, ``players`` and ``arm_masks``: the last board's if it is the same
    kind (kept in ``kept``, :data:`app.view.board.KEPT_TILES`), else drawn anew once
    the last one is dropped. Its 4-12 KB block is then allocated at the
    first game of a kind only, not at each game's start on a heap the
    menus and the last game have fragmented."""
    key = (cell, players, arm_masks)
    if kept[0] != key:
        kept[0] = kept[1] = None
        gc.collect()
        kept[1] = tile_art.tile_bitmap(cell, players, arm_masks)
        kept[0] = key
    return kept[1]


def strip_ahead(variant, width, height, kept):
    """The tile strip of ``variant``'s board on a ``width`` x ``height`` screen made (or
    kept) in ``kept`` now, a game's largest block (4.3 KB on 9x9): on a SAMD51's
    start, before the search's ~1 KB arrays split the heap it would need."""
    lay = BoardLayout(variant, width, height)
    kept_tiles(kept, lay.cell, variant.players, lay.arm_masks)


def build_board(view, variant, width, height, kept):
    """Fill in :class:`app.view.board.BoardView` ``view``; ``kept``: see :func:`kept_tiles`."""
    # Every attribute first: the view's dict grows to its full size (17
    # slots) now, before the layout and the tiles, not in a 136 B block
    # at the end, on the build's most fragmented heap (19x19's second game
    # on a PyBadge's 123,000 B found none).
    view.layout = view.palette = view.stone = view.ring = view.group = view.rows = None
    view.mark = view.mark_at = view.cursor = view.shown = view.want = view.hint_player = None
    view.variant = variant
    lay = view.layout = BoardLayout(variant, width, height)
    c = lay.cell
    view.palette = tile_art.board_palette()
    bitmap = kept_tiles(kept, c, variant.players, lay.arm_masks)
    # render(): stone + s and ring + s are player s's tiles
    view.stone = tiles.stone_tile(len(lay.arm_masks)) - 1
    view.ring = view.stone + variant.players
    view.group = displayio.Group()
    view.rows = [None] * lay.rows  # one block, not a list grown (and moved) a row at a time
    for r in range(lay.rows):
        w = lay.cols if lay.row_len is None else lay.row_len[r]  # (Hexbo's rows: their cells)
        row = displayio.TileGrid(bitmap, pixel_shader=view.palette, width=w, height=1,
                                 tile_width=c, tile_height=c, default_tile=tiles.T_OFF,
                                 x=lay.x0 + lay.shift[r], y=lay.y0 + r * c)
        view.rows[r] = row
        view.group.append(row)
    for i in lay.links:
        view.rows[i // lay.cols][i % lay.cols] = tiles.T_LINK
    # Captions in empty cells (3D layers): 1x text, its 8 px of ink
    # (glyph rows 2-9) centred in the cell row.
    for text, x, y in lay.labels:
        view.group.append(Label(x, y + (c - 8) // 2 - 2, len(text), theme.DIM,
                                text=text).group)
    m = tiles.mark_size(tiles.ink(c, lay.arm_masks))
    mpal = displayio.Palette(1)
    mpal[0] = theme.BOARD_COLORS[theme.LAST]
    view.mark = displayio.TileGrid(displayio.Bitmap(m, m, 1), pixel_shader=mpal)
    view.mark.hidden = True
    view.mark_at = -1
    view.group.append(view.mark)
    cpal = displayio.Palette(3)
    cpal[1] = theme.CURSOR
    cpal[2] = theme.CURSOR_EDGE
    cpal.make_transparent(0)
    view.cursor = displayio.TileGrid(tile_art.cursor_bitmap(tiles.ink(c, lay.arm_masks)), pixel_shader=cpal)
    view.group.append(view.cursor)
    n = variant.size
    shown = view.shown = bytearray(n)  # (no bytes temporary as long: see cell_plan.cells)
    for i in range(n):
        shown[i] = UNSET
    view.want = bytearray(n)
    view.hint_player = 0


def build_status(view, layout, players):
    """Fill in :class:`app.view.board.StatusView` ``view``."""
    s = layout.scale
    line, icon, gap = 12 * s, 10 * s, 2
    text_w = 6 * s * CHIP_CHARS - s  # the last glyph's blank column may be cut
    if icon + gap + text_w > layout.status_w:
        # A narrow side panel (9x9 on 160x128: 33 px): smaller icon, 1 px gap.
        gap = 1
        icon = max(6, layout.status_w - text_w - gap)
    view.group = displayio.Group(x=layout.status_x, y=layout.status_y)
    icons = tile_art.icon_bitmap(icon, players)
    pal = tile_art.board_palette()
    pal.make_transparent(theme.OFF)
    pal[theme.RIM] = theme.DIM  # a light rim: a black stone must show on the dark panel
    view.chips = []
    chip_w = chip_width(s, icon, gap)
    per_row = 1 if layout.side else max(1, min(players, layout.status_w // chip_w))
    # The bar: glyph rows 10-11 (descenders), which "24/3" leaves empty.
    bpal = displayio.Palette(1)
    bpal[0] = theme.ACCENT
    view.bar = displayio.TileGrid(displayio.Bitmap(text_w, 2 * s, 1), pixel_shader=bpal)
    view.bar.hidden = True
    view.bar_at = []
    for k in range(players):
        col, row = k % per_row, k // per_row
        x, y = col * chip_w, row * line
        t = displayio.TileGrid(icons, pixel_shader=pal, width=1, height=1, tile_width=icon,
                               tile_height=icon, default_tile=k, x=x, y=y + (line - icon) // 2)
        view.group.append(t)
        label = Label(x + icon + gap, y, CHIP_CHARS, theme.TEXT, scale=s)
        view.group.append(label.group)
        view.chips.append(label)
        view.bar_at.append((x + icon + gap, y + line - 2 * s))
    view.group.append(view.bar)
    rows = (players + per_row - 1) // per_row
    below = rows * line + (4 if layout.side else 0)
    if layout.side or layout.status_h - below >= line:
        # Info lines under the chips.
        ix, iy = 0, below
        chars = layout.status_w // (6 * s)
        view.info_lines = max(1, min(3, (layout.status_h - iy) // line))
    else:
        # One info line after the chips of the last row.
        ix, iy = (players - (rows - 1) * per_row) * chip_w, (rows - 1) * line
        chars = (layout.status_w - ix) // (6 * s)
        view.info_lines = 1
    view.info = []
    for i in range(view.info_lines):
        label = Label(ix, iy + i * line, max(1, chars), theme.DIM, scale=s)
        view.group.append(label.group)
        view.info.append(label)
    view.chars = chars
    view.turn = 0
