"""What a board of one kind (variant, screen size) needs that no game changes: its
layout, tile strip, palettes and small bitmaps, made once and kept from game to
game (:func:`app.view_build.board_kit`, which loads this module, with
:mod:`app.tile_art` and :mod:`app.cell_plan`, only for a kind not kept and
drops all three afterwards)."""

import gc

import displayio

from app import theme, tiles
from app.layout import CHIP_CHARS, BoardLayout
from app.text import label_palette


def status_sizes(layout):
    """(icon, gap, text) px of a status chip of ``layout``: a narrow side panel
    (9x9 on 160x128: 33 px) takes a smaller icon and 1 px of gap."""
    s = layout.scale
    icon, gap = 10 * s, 2
    text_w = 6 * s * CHIP_CHARS - s  # the last glyph's blank column may be cut
    if icon + gap + text_w > layout.status_w:
        gap = 1
        icon = max(6, layout.status_w - text_w - gap)
    return icon, gap, text_w


def tile_strip(kept, cell, players, arm_masks):
    """Make the tile strip (:func:`app.tile_art.tile_bitmap`) of a board of
    ``cell`` px, ``players`` and ``arm_masks`` in ``kept``
    (:data:`app.board_view.KEPT`: its key at 2, the bitmap at 3) unless the
    last board's is the same, once the last one is dropped. Its 4-12 KB
    block is then allocated at the first game of a kind only, not at each
    game's start on a heap the menus and the last game have fragmented
    (issue 22: a game could not start for want of 12,384 bytes in one piece)."""
    key = (cell, players, arm_masks)
    if kept[2] != key:
        kept[2] = kept[3] = None
        gc.collect()
        from app.tile_art import tile_bitmap
        kept[3] = tile_bitmap(cell, players, arm_masks)
        kept[2] = key


def make(kept, variant, width, height):
    """Make in ``kept`` (:data:`app.board_view.KEPT`) the parts of a board of
    ``variant`` on ``width`` x ``height``: at 0 the key (variant name, width,
    height), at 1 (its :class:`app.layout.BoardLayout`, the board's palette,
    the cursor's bitmap and palette, the last-move mark's, the status's
    stone icons and their palette, the turn bar's bitmap and palette, the
    palettes of the status's text and of its dim text, the px between a
    chip's icon and its text), and its tile strip
    (:func:`tile_strip`), the strip's block before the small parts'."""
    kept[0] = kept[1] = None
    from app import tile_art
    lay = BoardLayout(variant, width, height)
    tile_strip(kept, lay.cell, variant.players, lay.arm_masks)
    ink = tiles.ink(lay.cell, lay.arm_masks)
    m = tiles.mark_size(ink)
    mark_pal = displayio.Palette(1)
    mark_pal[0] = theme.BOARD_COLORS[theme.LAST]
    cursor_pal = displayio.Palette(3)
    cursor_pal[1] = theme.CURSOR
    cursor_pal[2] = theme.CURSOR_EDGE
    cursor_pal.make_transparent(0)
    icon, gap, text_w = status_sizes(lay)
    icon_pal = tile_art.board_palette()
    icon_pal.make_transparent(theme.OFF)
    icon_pal[theme.RIM] = theme.DIM  # a light rim: a black stone must show on the dark panel
    bar_pal = displayio.Palette(1)
    bar_pal[0] = theme.ACCENT
    kept[1] = (lay, tile_art.board_palette(), tile_art.cursor_bitmap(ink), cursor_pal,
               displayio.Bitmap(m, m, 1), mark_pal, tile_art.icon_bitmap(icon, variant.players), icon_pal,
               displayio.Bitmap(text_w, 2 * lay.scale, 1), bar_pal, label_palette(theme.TEXT),
               label_palette(theme.DIM), gap)
    kept[0] = (variant.name, width, height)
