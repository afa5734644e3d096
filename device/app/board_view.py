"""Draws a game: the board as one TileGrid per row of cells, a last-move mark
and a cursor sprite, and the status chips.

:meth:`BoardView.render` computes the wanted tile of every point into a
scratch bytearray and writes only the tiles that changed. CircuitPython
(unlike Blinka) refreshes ONE bounding rectangle of the changed tiles per
TileGrid, and a whole TileGrid when its palette changes: so the board is
split into rows (a stone and the hint/tint changes of its neighbours cost
a few cells, not the rectangle between them and the last move), the last
move is a small sprite that moves (two small squares) instead of tiles
changing far apart, and the hints keep one player and one colour while a
game against the computer lasts.
"""

import displayio

from app import theme, tiles
from app.layout import CHIP_CHARS, BoardLayout
from app.text import Label

UNSET = 255


class BoardView:
    """The board of ``variant`` laid out for ``width`` x ``height``; ``group`` holds it."""

    def __init__(self, variant, width, height):
        self.variant = variant
        lay = self.layout = BoardLayout(variant, width, height)
        c = lay.cell
        self.palette = tiles.board_palette()
        bitmap = tiles.tile_bitmap(c, lay.arm_masks)
        self.group = displayio.Group()
        self.rows = []
        for r in range(lay.rows):
            row = displayio.TileGrid(bitmap, pixel_shader=self.palette, width=lay.cols, height=1,
                                     tile_width=c, tile_height=c, default_tile=tiles.T_OFF,
                                     x=lay.x0, y=lay.y0 + r * c)
            self.rows.append(row)
            self.group.append(row)
        for i in lay.links:
            self.rows[i // lay.cols][i % lay.cols] = tiles.T_LINK
        # Captions in empty cells (3D layers): 1x text, its 8 px of ink
        # (glyph rows 2-9) centred in the cell row.
        for text, x, y in lay.labels:
            self.group.append(Label(x, y + (c - 8) // 2 - 2, len(text), theme.DIM,
                                    text=text).group)
        m = tiles.mark_size(c)
        mpal = displayio.Palette(1)
        mpal[0] = theme.BOARD_COLORS[theme.LAST]
        self.mark = displayio.TileGrid(displayio.Bitmap(m, m, 1), pixel_shader=mpal)
        self.mark.hidden = True
        self.mark_at = -1
        self.group.append(self.mark)
        cpal = displayio.Palette(3)
        cpal[1] = theme.CURSOR
        cpal[2] = theme.CURSOR_EDGE
        cpal.make_transparent(0)
        self.cursor = displayio.TileGrid(tiles.cursor_bitmap(c), pixel_shader=cpal)
        self.group.append(self.cursor)
        n = variant.size
        self.shown = bytearray(bytes((UNSET,)) * n)  # MicroPython has no bytearray * int
        self.want = bytearray(n)
        self.hint_player = 0

    def move_cursor(self, p):
        x, y = self.layout.cell_xy(p)
        x -= tiles.CURSOR_OUT
        y -= tiles.CURSOR_OUT
        if self.cursor.x != x or self.cursor.y != y:
            self.cursor.x = x
            self.cursor.y = y

    def _show_mark(self, p):
        """The last-move mark on point ``p`` (-1: none). Moving a sprite refreshes
        its old and new place only; hidden/shown refreshes its own few pixels."""
        if p == self.mark_at:
            return
        mark = self.mark
        if p < 0:
            mark.hidden = True
        else:
            x, y = self.layout.cell_xy(p)
            a = (self.layout.cell - tiles.mark_size(self.layout.cell)) // 2
            mark.x, mark.y = x + a, y + a
            if self.mark_at < 0:
                mark.hidden = False  # the firmware redraws on every hidden = False: only on a change
        self.mark_at = p

    def _hints(self, game, player):
        """Legal points of ``player`` (the side to move when None)."""
        if player is None or player == game.to_move:
            return game.legal_moves()
        return [p for p in range(self.variant.size) if game.is_legal(p, player)]

    def render(self, game, hints=True, root_stones=None, root_space=None, last=None,
               flash=None, flash_on=False, hint_player=None):
        """Show ``game``: legal-move dots of ``hint_player`` (default: the side to
        move) if ``hints``, the highlighted root (``root_stones``, ``root_space``:
        lists of points), the ``last`` point played, and ``flash``:
        ``[(point, player), ...]`` of stones being removed (drawn as flashes when
        ``flash_on``). Returns the number of tiles changed.

        Hints of one player in one colour for a whole game (against the
        computer) change near each move only; hints following the side to move
        change all over the board, and their recolouring (a palette change)
        redraws all of it on CircuitPython."""
        board, want = game.board, self.want
        for p in range(len(want)):
            s = board[p]
            want[p] = tiles.T_STONE + s - 1 if s else tiles.T_EMPTY
        if hints and game.winner is None:
            who = hint_player or game.to_move
            if who != self.hint_player:
                self.hint_player = who
                self.palette[theme.HINT] = theme.HINT_COLORS[who - 1]
            for p in self._hints(game, hint_player):
                want[p] = tiles.T_HINT
        if root_space:
            for p in root_space:
                want[p] = tiles.T_SPACE_HINT if want[p] == tiles.T_HINT else tiles.T_SPACE
        if root_stones:
            for p in root_stones:
                if board[p]:
                    want[p] = tiles.T_RING + board[p] - 1
        self._show_mark(last if last is not None and last >= 0 and board[last] else -1)
        if flash:
            for p, player in flash:
                want[p] = tiles.T_FLASH if flash_on else tiles.T_STONE + player - 1
        changed = 0
        shown, rows, cell_of, cols = self.shown, self.rows, self.layout.cell_of, self.layout.cols
        arm_set = self.layout.arm_set
        for p in range(len(want)):
            t = want[p]
            if arm_set[p] and t <= tiles.T_SPACE_HINT:  # bare lines of an edge point
                t = tiles.tile_of(t, arm_set[p])
            if shown[p] != t:
                shown[p] = t
                i = cell_of[p]
                rows[i // cols][i % cols] = t
                changed += 1
        return changed


class StatusView:
    """Stones/roots of each player ("24/3") beside a stone icon, the side to move
    marked by a light bar under its numbers (a sprite that moves: recolouring a
    chip would redraw all of it on CircuitPython), and one line of info text
    (ply, thinking, messages)."""

    def __init__(self, layout, players):
        s = layout.scale
        line, icon, gap = 12 * s, 10 * s, 2
        text_w = 6 * s * CHIP_CHARS - s  # the last glyph's blank column may be cut
        if icon + gap + text_w > layout.status_w:
            # A narrow side panel (9x9 on 160x128: 33 px): smaller icon, 1 px gap.
            gap = 1
            icon = max(6, layout.status_w - text_w - gap)
        self.group = displayio.Group(x=layout.status_x, y=layout.status_y)
        icons = tiles.icon_bitmap(icon)
        pal = tiles.board_palette()
        pal.make_transparent(theme.OFF)
        pal[theme.RIM] = theme.DIM  # a light rim: a black stone must show on the dark panel
        self.chips = []
        chip_w = icon + gap + 6 * s * CHIP_CHARS + 4
        per_row = 1 if layout.side else max(1, min(players, layout.status_w // chip_w))
        # The bar: glyph rows 10-11 (descenders), which "24/3" leaves empty.
        bpal = displayio.Palette(1)
        bpal[0] = theme.ACCENT
        self.bar = displayio.TileGrid(displayio.Bitmap(text_w, 2 * s, 1), pixel_shader=bpal)
        self.bar.hidden = True
        self.bar_at = []
        for k in range(players):
            col, row = k % per_row, k // per_row
            x, y = col * chip_w, row * line
            t = displayio.TileGrid(icons, pixel_shader=pal, width=1, height=1, tile_width=icon,
                                   tile_height=icon, default_tile=k, x=x, y=y + (line - icon) // 2)
            self.group.append(t)
            label = Label(x + icon + gap, y, CHIP_CHARS, theme.TEXT, scale=s)
            self.group.append(label.group)
            self.chips.append(label)
            self.bar_at.append((x + icon + gap, y + line - 2 * s))
        self.group.append(self.bar)
        rows = (players + per_row - 1) // per_row
        below = rows * line + (4 if layout.side else 0)
        if layout.side or layout.status_h - below >= line:
            # Info lines under the chips.
            ix, iy = 0, below
            chars = layout.status_w // (6 * s)
            self.info_lines = max(1, min(3, (layout.status_h - iy) // line))
        else:
            # One info line after the chips on the same row.
            ix, iy = per_row * chip_w, 0
            chars = (layout.status_w - ix) // (6 * s)
            self.info_lines = 1
        self.info = []
        for i in range(self.info_lines):
            label = Label(ix, iy + i * line, max(1, chars), theme.DIM, scale=s)
            self.group.append(label.group)
            self.info.append(label)
        self.chars = chars
        self.turn = 0

    def update(self, game):
        n = len(self.chips)
        for k in range(n):
            p = k + 1
            self.chips[k].text = "%d/%d" % (game.stones(p), len(game.roots(p)))
        turn = 0 if game.winner is not None else game.to_move
        if turn != self.turn:
            bar = self.bar
            if turn:
                bar.x, bar.y = self.bar_at[turn - 1]
            if bool(turn) != bool(self.turn):
                bar.hidden = not turn
            self.turn = turn

    def wrap(self, lines):
        """``lines`` broken at spaces into info lines of at most ``chars``
        (a longer word is cut); may return more lines than the area holds."""
        out = []
        n = self.chars
        for text in lines:
            while len(text) > n:
                cut = text.rfind(" ", 0, n + 1)
                if cut <= 0:
                    cut = n
                out.append(text[:cut])
                text = text[cut:].lstrip()
            out.append(text)
        return out

    def fits(self, *lines):
        """True when ``lines`` show whole in the info area (see :meth:`say`)."""
        for text in lines:
            for word in text.split():
                if len(word) > self.chars:
                    return False
        return len(self._layout(lines)) <= self.info_lines

    def _layout(self, lines):
        out = self.wrap(lines)
        if len(out) > self.info_lines and len(lines) > 1:
            # One short info line (status below the board): all on it if it fits.
            joined = self.wrap(("  ".join(lines),))
            if len(joined) <= self.info_lines:
                return joined
        return out

    def say(self, *lines):
        """Show ``lines`` in the info area, wrapped at spaces; what does not fit is dropped."""
        out = self._layout(lines)
        for i in range(self.info_lines):
            self.info[i].text = out[i] if i < len(out) else ""
