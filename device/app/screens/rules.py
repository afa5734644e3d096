"""Rules help: a few short pages in the app's own words, with small diagrams.

Each page: a title, up to 8 lines of at most 16 characters beside a diagram
or 19 without one (20 columns of 2x text fill PicoSystem's 240 px), and an optional
5x5 diagram (``.`` empty, ``X``/``O`` stones, ``*`` legal point for X,
``+`` root space of the X root, ``!`` a root about to be removed).
LEFT/RIGHT turn pages, B goes back.
"""

import displayio

from app.view import theme, tile_art, tiles
from app.view.text import Label
from boards.common import A, B, LEFT, RIGHT

PAGES = (
    ("Tanbo", ("By Mark Steere.", "Take turns to", "place a stone;", "Black first. No",
               "passing. Stones", "never move. The", "last player with", "stones wins."), None),
    ("Placing", ("Play on an empty", "point next to", "EXACTLY ONE of", "your stones", "(up, down, left,",
                 "right). Dots on", "the board show", "legal points."),
     (".....", ".**..", "*XX*.", ".**.O", "...OO")),
    ("Roots", ("Root: a chain of", "your stones.", "Its root space:", "empty points",
               "touching exactly", "one of your", "stones, and that", "one in the root."),
     (".....", ".++..", "+XX+.", ".++.O", "...OO")),
    ("Removal", ("No root space =", "bounded root.", "If the root you", "grew is bounded,",
                 "only it is taken", "off; else every", "bounded root of", "any colour goes."),
     ("!!O..", "OO...", ".....", "..XO.", ".XX.O")),
    ("Players", ("3-6 players: turns", "go 1,2,3..., but", "a player with no", "stones is out.",
                 "Resign (START", "menu): all your", "roots are taken", "off at once."), None),
    ("Hexbo", ("Tanbo on a hexagon", "of cells, six", "neighbours each.", "2, 3 or 6 players.",
               "<>: along the row.", "^v: next row, left", "and right in turn:", "held, straight on."),
     None),
    ("Keys", ("D-pad: cursor", "A: place  B: undo", "B as AI thinks:", " it plays sooner",
              "START: menu, resign", "SELECT: hints", "9/2: stones/roots", "Green: root space"),
     None),
)
CHARS = 16  # a text line beside a diagram
WIDE = 19  # a text line on a page without one

_TILE = {".": tiles.T_EMPTY, "X": tiles.stone_tile(1), "O": tiles.stone_tile(1) + 1, "*": tiles.T_HINT,
         "+": tiles.T_SPACE, "!": tiles.T_FLASH}


def screen(app, back):
    """The rules pages; ``back()`` runs on B."""
    return Help(app, back)


class Help:
    """The rules pages; ``back()`` runs on B."""

    keeps = ("app.", "tanbo.game_make")  # as a menu's

    def __init__(self, app, back):
        self.app = app
        self.back = back
        s, W, H = app.scale, app.display.width, app.display.height
        lh = 12 * s
        x0 = 2 * s  # the same margin left, right and above the title
        self.group = displayio.Group()
        self.title = Label(x0, x0, 20, theme.ACCENT, scale=s)
        self.group.append(self.title.group)
        foot_y = H - lh
        top = x0 + lh
        # Text lines a little closer than lh where 10 rows of lh would fill
        # the screen (240 px at 2x): descenders (glyph row 11) must stay clear
        # of the footer. Labels have no background, so the rows may overlap.
        pitch = min(lh, (foot_y - 2 * s - top) // 8)
        self.lines = []
        for i in range(8):
            label = Label(x0, top + pitch * i, WIDE, theme.TEXT, scale=s)
            self.group.append(label.group)
            self.lines.append(label)
        foot = Label(x0, foot_y, 20, theme.DIM, scale=s, text="<  >:page  B:back")
        self.group.append(foot.group)
        cell = min(8 * s, (W - 2 * x0 - CHARS * 6 * s - 2) // 5)
        self.spot = (cell, W - 5 * cell - x0, top + pitch)
        self.diagram = None  # made with the first page that has one (the first has none)
        self.page = -1
        self.show(0)

    def make_diagram(self):
        """The diagram's 5x5 tiles: its tile strip drawn (~20 ms of an RP2040), not before a page shows one."""
        cell, x, y = self.spot
        pal = tile_art.board_palette()
        pal[theme.HINT] = theme.HINT_COLORS[0]
        self.diagram = displayio.TileGrid(tile_art.tile_bitmap(cell, 2), pixel_shader=pal, width=5,
                                          height=5, tile_width=cell, tile_height=cell, x=x, y=y)
        self.group.append(self.diagram)

    def show(self, n):
        self.page = n
        title, text, diagram = PAGES[n]
        self.title.text = "%s  %d/%d" % (title, n + 1, len(PAGES))
        for i, label in enumerate(self.lines):
            label.text = text[i] if i < len(text) else ""
        if self.diagram is None and diagram is not None:
            self.make_diagram()
        if self.diagram is not None:
            self.diagram.hidden = diagram is None
        if diagram is not None:
            for y in range(5):
                for x in range(5):
                    self.diagram[x, y] = _TILE[diagram[y][x]]

    def key(self, k):
        if k in (LEFT, RIGHT, A):
            n = len(PAGES)
            self.show((self.page + (n - 1 if k == LEFT else 1)) % n)
            return True
        if k == B:
            self.back()
            return True
        return False

    def tick(self, now):
        return False
