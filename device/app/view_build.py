"""Building the board and status views (see :mod:`app.board_view`) from the parts of
their kind (:mod:`app.board_kit`): needed while a screen is built only, so
:func:`app.game_screen.board_parts` drops this module afterwards."""

import displayio

from app import drop_modules, theme, tiles
from app.board_view import KEPT
from app.layout import CHIP_CHARS, chip_width
from app.text import Label

UNSET = 255  # BoardView.shown: no tile drawn yet


def board_kit(variant, width, height):
    """The parts of a board of ``variant`` on ``width`` x ``height`` that no
    game changes (:func:`app.board_kit.make`: its layout, palettes, small
    bitmaps, tile strip), kept in :data:`app.board_view.KEPT`: the last
    board's if it was of this kind, else made anew.

    Issue 33: a game after one of its kind then loads neither
    :mod:`app.cell_plan` nor :mod:`app.tile_art` (6 KB of the unix port's
    heap) and makes none of these objects, where its screen is built beside
    the kept search on the most fragmented heap of a session (3d, dense-11,
    hexbo and 19x19 failed there for blocks of 160-690 bytes at 123,000 B
    free); a game of a new kind makes them before its screen and search
    (:meth:`app.main.App.play`), the strip's block first.
    """
    if KEPT[0] != (variant.name, width, height):
        try:
            from app.board_kit import make
            make(KEPT, variant, width, height)
        finally:  # (also after a MemoryError: their code is needed no more)
            drop_modules("board_kit", "tile_art", "cell_plan")
    return KEPT[1]


def build_board(view, variant, width, height):
    """Fill in :class:`app.board_view.BoardView` ``view`` from the parts of its kind
    (:func:`app.board_view.board_kit`)."""
    view.variant = variant
    parts = board_kit(variant, width, height)
    lay, view.palette, cursor, cursor_pal, mark, mark_pal, _, _, _, _, _, dim, _ = parts
    view.layout = lay
    c = lay.cell
    bitmap = KEPT[3]
    # render(): stone + s and ring + s are player s's tiles
    view.stone = tiles.stone_tile(len(lay.arm_masks)) - 1
    view.ring = view.stone + variant.players
    view.group = displayio.Group()
    view.rows = []
    for r in range(lay.rows):
        w = lay.cols if lay.row_len is None else lay.row_len[r]  # (Hexbo's rows: their cells)
        row = displayio.TileGrid(bitmap, pixel_shader=view.palette, width=w, height=1,
                                 tile_width=c, tile_height=c, default_tile=tiles.T_OFF,
                                 x=lay.x0 + lay.shift[r], y=lay.y0 + r * c)
        view.rows.append(row)
        view.group.append(row)
    for i in lay.links:
        view.rows[i // lay.cols][i % lay.cols] = tiles.T_LINK
    # Captions in empty cells (3D layers): 1x text, its 8 px of ink
    # (glyph rows 2-9) centred in the cell row.
    for text, x, y in lay.labels:
        view.group.append(Label(x, y + (c - 8) // 2 - 2, len(text), theme.DIM,
                                text=text, palette=dim).group)
    view.mark = displayio.TileGrid(mark, pixel_shader=mark_pal)
    view.mark.hidden = True
    view.mark_at = -1
    view.group.append(view.mark)
    view.cursor = displayio.TileGrid(cursor, pixel_shader=cursor_pal)
    view.group.append(view.cursor)
    n = variant.size
    shown = view.shown = bytearray(n)  # (no bytes temporary as long: see cell_plan.cells)
    for i in range(n):
        shown[i] = UNSET
    view.want = bytearray(n)
    view.hint_player = 0


def build_status(view, layout, players, parts):
    """Fill in :class:`app.board_view.StatusView` ``view``; ``parts``: the board's
    (:func:`app.board_view.board_kit`)."""
    s = layout.scale
    line = 12 * s
    _, _, _, _, _, _, icons, pal, bar, bar_pal, text, dim, gap = parts
    icon = icons.height  # (app.board_kit.status_sizes)
    view.group = displayio.Group(x=layout.status_x, y=layout.status_y)
    view.chips = []
    chip_w = chip_width(s, icon, gap)
    per_row = 1 if layout.side else max(1, min(players, layout.status_w // chip_w))
    # The bar: glyph rows 10-11 (descenders), which "24/3" leaves empty.
    view.bar = displayio.TileGrid(bar, pixel_shader=bar_pal)
    view.bar.hidden = True
    view.bar_at = []
    for k in range(players):
        col, row = k % per_row, k // per_row
        x, y = col * chip_w, row * line
        t = displayio.TileGrid(icons, pixel_shader=pal, width=1, height=1, tile_width=icon,
                               tile_height=icon, default_tile=k, x=x, y=y + (line - icon) // 2)
        view.group.append(t)
        label = Label(x + icon + gap, y, CHIP_CHARS, theme.TEXT, scale=s, palette=text)
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
        label = Label(ix, iy + i * line, max(1, chars), theme.DIM, scale=s, palette=dim)
        view.group.append(label.group)
        view.info.append(label)
    view.chars = chars
    view.turn = 0
