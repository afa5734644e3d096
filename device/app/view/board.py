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

from app import GAUGE, forget
from app.view import tiles
from tanbo.game import NIL
from app.view.theme import HINT, HINT_COLORS, MARK_COLORS  # (names, not the module: a game screen drops it)

SPIN = "-\\|/"  # the spinner's turns: the computer's search (app.screens.game), the coach's (app.screens.review)

# The last board's tile strip, (key, displayio.Bitmap), kept from game to
# game (see app.view.build.kept_tiles; here, in a module the game screen
# keeps, since view_build is dropped once a screen is built).
KEPT_TILES = [None, None]  # type: list


def board_parts(variant, width, height):
    """(board view, status view, a Group holding both) for ``variant`` on a ``width`` x ``height`` screen.

    Here, not in app.screens.game: Review builds its board so too, and drops
    the game screen's code while its coach searches (app.screens.review)."""
    view = BoardView(variant, width, height)
    status = StatusView(view.layout, variant.players)
    group = displayio.Group()
    group.append(view.group)
    group.append(status.group)
    forget("app.view.build", "app.view.tile_art", "app.view.cell_plan")  # built: the screen needs no more of their code
    return view, status, group


class BoardView:
    """The board of ``variant`` laid out for ``width`` x ``height``; ``group`` holds it."""

    def __init__(self, variant, width, height):
        from app.view.build import build_board
        build_board(self, variant, width, height, KEPT_TILES)

    def move_cursor(self, p):
        x, y = self.layout.cell_xy(p)
        x -= tiles.CURSOR_OUT
        y -= tiles.CURSOR_OUT
        if self.cursor.x != x or self.cursor.y != y:
            self.cursor.x = x
            self.cursor.y = y

    def _show_mark(self, p, player):
        """The last-move mark on point ``p`` (-1: none), a stone of ``player``'s, in the
        mark's colour on that player's stones (theme.MARK_COLORS). Moving a sprite
        refreshes its old and new place only; hidden/shown and its one-colour
        palette refresh its own few pixels."""
        at = p * 8 + player if p >= 0 else -1  # (point and player in one int: the view's dict keeps its size)
        if at == self.mark_at:
            return
        mark = self.mark
        if p < 0:
            mark.hidden = True
        else:
            lay = self.layout
            x, y = lay.cell_xy(p)
            c = tiles.ink(lay.cell, lay.arm_masks)
            a = (c - tiles.mark_size(c)) // 2
            mark.x, mark.y = x + a, y + a
            mark.pixel_shader[0] = MARK_COLORS[player - 1]
            if self.mark_at < 0:
                mark.hidden = False  # the firmware redraws on every hidden = False: only on a change
        self.mark_at = at

    def render(self, game, hints=True, root=None, last=None,
               flash=None, flash_on=False, hint_player=None):
        """Show ``game``: legal-move dots of ``hint_player`` (default: the side to
        move) if ``hints``, the highlighted ``root`` (a live root's id: its stones
        and root space, read from the game's tables, no list made: a list of a
        large root's stones would be a 0.5 KB block late in a game), the ``last``
        point played, and ``flash``:
        ``(points, board, mover)`` of stones being removed (points None: those of
        ``board`` the game no longer has), their players in
        ``board`` (the board before the move: 0 for ``mover``'s new stone),
        drawn as flashes when ``flash_on``. Returns the number of tiles changed.

        Hints of one player in one colour for a whole game (against the
        computer) change near each move only; hints following the side to move
        change all over the board, and their recolouring (a palette change)
        redraws all of it on CircuitPython."""
        board, want, stone = game.board, self.want, self.stone
        for p in range(len(want)):
            s = board[p]
            want[p] = stone + s if s else tiles.T_EMPTY
        if hints and game.winner is None:
            who = hint_player or game.to_move
            if who != self.hint_player:
                self.hint_player = who
                self.palette[HINT] = HINT_COLORS[who - 1]
            legal = game.legal_points[who]  # (not legal_moves: a sorted list each render)
            for i in range(game.legal_total[who]):
                want[legal[i]] = tiles.T_HINT
        if root is not None:
            own = game.space_root[game.root_player[root]]  # a point credited to the root: its space
            for p in range(len(want)):
                if own[p] == root:
                    want[p] = tiles.T_SPACE_HINT if want[p] == tiles.T_HINT else tiles.T_SPACE
            p, nxt = game.root_chain(root)
            while p != NIL:  # the root's chain of stones
                want[p] = self.ring + board[p]
                p = nxt[p]
        if last is not None and last >= 0 and board[last]:
            self._show_mark(last, board[last])
        else:
            self._show_mark(-1, 0)
        if flash:
            points, before, mover = flash
            # None: the stones of ``before`` the board no longer has
            for p in (points if points is not None else range(len(want))):
                if points is not None or (before[p] and not board[p]):
                    want[p] = tiles.T_FLASH if flash_on else stone + (before[p] or mover)
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


def wrap(lines, n):
    """``lines`` broken at spaces into lines of at most ``n`` characters (a
    longer word is cut); as many lines as that takes."""
    out = []
    for text in lines:
        while len(text) > n:
            cut = text.rfind(" ", 0, n + 1)
            if cut <= 0:
                cut = n
            out.append(text[:cut])
            text = text[cut:].lstrip()
        out.append(text)
    return out


class StatusView:
    """Stones/roots of each player ("24/3") beside a stone icon, the side to move
    marked by a light bar under its numbers (a sprite that moves: recolouring a
    chip would redraw all of it on CircuitPython), and one line of info text
    (ply, thinking, messages), the battery gauge after it where there is room."""

    def __init__(self, layout, players):
        from app.view.build import build_status
        build_status(self, layout, players)

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

    def fits(self, *lines):
        """True when ``lines`` show whole in the info area (see :meth:`say`)."""
        for text in lines:
            for word in text.split():
                if len(word) > self.chars:
                    return False
        return len(self._layout(lines)) <= self.info_lines

    def _layout(self, lines):
        out = wrap(lines, self.chars)
        if len(out) > self.info_lines and len(lines) > 1:
            # One short info line (status below the board): all on it if it fits.
            joined = wrap(("  ".join(lines),), self.chars)
            if len(joined) <= self.info_lines:
                return joined
        return out

    def say(self, *lines):
        """Show ``lines`` in the info area, wrapped at spaces; what does not fit is dropped.
        The battery gauge stands still where there is room for it (a changed text moves no
        cell of it): on the last line of several, at the right end of a single one."""
        out = self._layout(lines)
        n, g = self.info_lines, GAUGE[0]
        if len(out) < n:
            out = out + [""] * (n - 1 - len(out)) + [g]
        elif n == 1 and len(out[0]) + len(g) < self.chars:
            out = [out[0] + " " * (self.chars - len(out[0]) - len(g)) + g]
        for i in range(n):
            self.info[i].text = out[i] if i < len(out) else ""
