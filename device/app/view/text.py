"""Text as displayio TileGrids over one glyph bitmap (6x12 px cells, ASCII 32-126).

The glyph bitmap is built once from :mod:`app.view.font` (about 860 bytes at
1 bit a pixel). A :class:`Label` is a fixed number of character cells;
setting ``text`` changes only the tiles that differ. CircuitPython then
redraws one rectangle from the first to the last changed cell ("ply 9" ->
"ply 10": two cells); a colour change (:meth:`Label.set_color`, a palette
change) redraws the whole label.
"""

import displayio

from app import forget
from app.view.font import FIRST, HEIGHT, LAST, WIDTH

_bitmap = None


def glyph_bitmap():
    """The shared 1-bit bitmap of all glyphs side by side (built on first use)."""
    global _bitmap
    if _bitmap is None:
        from app.view.font import GLYPHS as data
        count = LAST - FIRST + 1
        w, h = WIDTH, HEIGHT
        bm = displayio.Bitmap(w * count, h, 2)
        for c in range(count):
            for y in range(h):
                row = data[c * h + y]
                if row:
                    for x in range(w):
                        if row & (0x20 >> x):
                            bm[c * w + x, y] = 1
        _bitmap = bm
        forget("app.view.font")  # the bitmap holds the glyphs now
    return _bitmap


class Label:
    """``width`` character cells at pixel (x, y), each cell ``6*scale`` x ``12*scale`` px.

    ``fg``/``bg`` are 0xRRGGBB; ``bg=None`` leaves the background visible.
    ``group`` is the displayio Group to add to a parent. Text longer than
    ``width`` is cut; shorter is padded with spaces.
    """

    def __init__(self, x, y, width, fg, bg=None, scale=1, text=""):
        pal = displayio.Palette(2)
        pal[0] = 0 if bg is None else bg
        pal[1] = fg
        if bg is None:
            pal.make_transparent(0)
        self.palette = pal
        self.fg = fg
        self.bg = bg
        self.width = width
        self.grid = displayio.TileGrid(glyph_bitmap(), pixel_shader=pal, width=width, height=1,
                                       tile_width=WIDTH, tile_height=HEIGHT,
                                       default_tile=0)
        self.group = displayio.Group(x=x, y=y, scale=scale)
        self.group.append(self.grid)
        self._text = ""
        self.text = text

    @property
    def text(self):
        return self._text

    @text.setter
    def text(self, value):
        if value == self._text:
            return
        # Bytes, not characters: a one-character string made by indexing is
        # looked up among the interned strings, ~3,500 x86 instructions each.
        # (ASCII: a character beyond it shows a '?' a byte.)
        new = value.encode()
        old = self._text.encode()
        n, m = len(new), len(old)
        grid = self.grid
        # Past both texts every cell stays a space: a menu's labels are
        # mostly that, and each turn here costs ~1,500 Cortex-M4 instructions.
        for i in range(min(self.width, max(n, m))):
            c = new[i] if i < n else 32
            o = old[i] if i < m else 32
            if c != o:
                if c < FIRST or c > LAST:
                    c = 63  # '?'
                grid[i] = c - FIRST
        self._text = value

    def set_color(self, fg):
        if self.fg != fg:
            self.fg = fg
            self.palette[1] = fg

    @property
    def hidden(self):
        return self.group.hidden

    @hidden.setter
    def hidden(self, value):
        self.group.hidden = value
