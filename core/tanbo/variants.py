"""Board topologies, setups and point notation of every Tanbo variant.

A :class:`Variant` is pure data: the board graph as a neighbour table, the
initial stones, the player count and the notation. The rules in
:mod:`tanbo.game` are written once over that graph, so 1D, 2D and 3D boards
share every line of rule code.

Point indices (what the engine uses everywhere):

- 2D: ``p = y * width + x``, ``x`` from the left, ``y`` from the **top**
  (so row number ``height - y`` in notation, row 1 at the bottom).
- 1D: ``p = x``, notation ``1`` .. ``size`` from the left.
- 3D (5x5x5): ``p = z * 25 + y * 5 + x``; notation ``XYZ`` with
  ``X = x + 1``, ``Y = 5 - y`` (rows drawn top to bottom like a 2D board),
  ``Z = z + 1`` (layer).
- Hexbo (a hexagon of side N, RULES.md "Hexbo"): the cells only, row by
  row from the top, each row from the left: ``p = row_start[r] + c -
  row_first_col[r]`` for row ``r`` (0-based from the top) and column ``c``
  (1-based, along the down-left diagonals); notation the row letter
  (``A`` at the top, ``I`` included) and the column number, ``E5``.
"""

import sys

# Go board letters: no I, as on every figure of the 1995 rules.
COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

# Characters of the position text, indexed by player number (0 = empty).
PLAYER_CHARS = ".XOYZUV"

# The players' names, by player number from 1: the colours of their stones
# on the handheld's screen (app.view.theme.PLAYER_COLORS), whatever the variant.
# One string, not six: a game's heap keeps this module (six took 0.3 KB more).
PLAYER_NAMES = "Black White Red Blue Yellow Grey"



def loaded(name):
    """The module ``name`` (whole, e.g. ``"tanbo.point_text"``), imported first
    if it is not loaded: for the code a method loads on first use
    (:mod:`tanbo.point_text`, :mod:`tanbo.game_make`). On MicroPython an
    import statement resolves the module's name at each run, where a
    lookup of it (a constant) is a dict's: import statements would cost
    opening a puzzle (one ``Game`` made, one point read) 5 ms more of an
    RP2040's board time (``tests/test_puzzle_board_time.py``)."""
    m = sys.modules.get(name)
    return m if m is not None else __import__(name, None, None, ("_",))


def player_name(player):
    """The name of ``player`` (1..6) in every variant: its stones' colour on
    a board's screen. Every message, record and answer of the text protocol
    names a player by it, as the handheld's screens do."""
    return PLAYER_NAMES.split()[player - 1]


class Variant:
    """One board and setup. Build them with :func:`get_variant`.

    Attributes: ``name``, ``players`` (2, 3, 4 or 6), ``width``,
    ``height``, ``depth`` (1 unless 3D), ``dims`` (1, 2 or 3), ``size``
    (points), ``steps`` (``steps[p]``: the offsets from ``p`` to its
    neighbours; see :meth:`neighbours` for the points), ``setup`` (list of
    ``(point, player)`` sorted by point), ``setup_points`` (its points),
    ``max_plies`` (no game is longer), ``node_cost`` (a search node's
    board time in percent of a square board's, which :mod:`tanbo.ai`
    divides its node budgets by: 100 but on Hexbo), ``space_weight``
    (percent: the weight of :mod:`tanbo.ai`'s ``SPACE`` in a root's value,
    100 but on two-player Hexbo).

    Hexbo boards (:class:`tanbo.hexbo.HexVariant`, what a screen needs to
    lay out the hexagon): ``hex_side`` (N, the cells on each edge; 0 on
    every other board, which has none of what follows), ``rows`` (2N - 1, also ``width`` and
    ``height``: the widest row and the row count; ``dims`` is 2), and per
    row ``r`` (0-based from the top) the tuples ``row_start[r]`` (the
    point of its leftmost cell), ``row_first_col[r]`` (that cell's column
    number, 1-based) and ``row_len[r]`` (its cells: N .. 2N-1 .. N).
    ``cell(r, c)`` (None off the board) and ``row_col(p)`` convert between
    a point and ``(r, c)``. On screen, cell ``(r, c)`` sits ``N - 1 - r + 2 * (c - 1)`` half
    cells from the left edge: rows are offset by half a cell, and a column
    runs down-left. The tables are shared by every variant of one side.
    """

    hex_side = 0  # (class attributes: the other boards have no rows tables)
    letters = COLUMNS  # a point's letter names its column (tanbo.point_text reads them here)
    node_cost = 100  # a search node's board time, percent of a square board's (tanbo.ai's budgets)
    space_weight = 100  # the weight of tanbo.ai's SPACE table in a root's value, percent (more on Hexbo)

    def __init__(self, name, width, height, depth, setup, steps, players=2, description="", size=0):
        """``steps``: the neighbours table (:func:`tanbo.variant_make._steps`'s
        on a box of points); ``size``: a board's own (Hexbo's cells), by
        default the box of ``width`` x ``height`` x ``depth`` points. The
        builders make them (:func:`get_variant`)."""
        self.name = name
        self.width = width
        self.height = height
        self.depth = depth
        self.dims = 3 if depth > 1 else (2 if height > 1 else 1)
        self.size = size or width * height * depth
        self.players = players
        self.description = description
        # The neighbours of p are p + d for d in steps[p] (see tanbo.variant_make._steps).
        self.steps = steps
        self.setup = sorted(setup)
        points = []
        for p, _ in self.setup:
            points.append(p)
        self.setup_points = tuple(points)
        # Between two removals every ply adds a stone and a removal takes at
        # least one root, of which there are len(setup): a hard bound.
        self.max_plies = (len(self.setup) + 1) * self.size

    def __repr__(self):
        return "Variant(%r)" % self.name

    @property
    def neighbours(self):
        """``neighbours[p]``: the orthogonal neighbours of point ``p`` as a tuple."""
        return _Neighbours(self.steps)

    # -- notation -------------------------------------------------------
    def parse_point(self, text):
        """The point index of ``text`` (``D4``, ``17``, ``333``; any case).

        Raises ``ValueError`` quoting ``text`` when it is malformed or off
        this board. (Read by :mod:`tanbo.point_text`, which a game on a
        board never loads: the app speaks point indices.)
        """
        return loaded("tanbo.point_text").parse_point(self, text)

    def format_point(self, point):
        """The notation of point index ``point`` (upper case)."""
        if not (isinstance(point, int) and 0 <= point < self.size):
            raise ValueError("%r: not a point index of the %s board (0-%d)" % (point, self.name, self.size - 1))
        if self.dims == 1:
            return str(point + 1)
        x = point % self.width
        y = (point // self.width) % self.height
        if self.dims == 3:
            z = point // (self.width * self.height)
            return "%d%d%d" % (x + 1, self.height - y, z + 1)
        return "%s%d" % (COLUMNS[x], self.height - y)

    def coords(self, point):
        """``(x, y, z)`` of ``point``: 0-based, ``y`` from the top, ``z`` the layer."""
        plane = self.width * self.height
        return point % self.width, (point % plane) // self.width, point // plane


class _Neighbours:
    """A read-only sequence view of a steps table: tuples of points."""

    def __init__(self, steps):
        self.steps = steps

    def __len__(self):
        return len(self.steps)

    def __getitem__(self, p):
        if not 0 <= p < len(self.steps):
            raise IndexError("point %r out of range" % (p,))
        return tuple(p + d for d in self.steps[p])


# The steps tables (and Hexbo's rows), one a board shape, shared by every
# variant of that shape (19x19, 4p and dense-19): the builders fill it
# (tanbo.variant_make, tanbo.hexbo_make), which leave the heap after each
# build while this dict keeps what they made.
_tables = {}


# Every variant built, by each name it was asked by (hexbo-9 and hexbo: one),
# by tanbo.game.get_variant.
_cache = {}

# The offered variants. Append only: a save on a board keeps its game's
# variant as an index of this tuple. Also welcome: hexbo-N, N from 4 to 10
# (hexbo-9 is hexbo), each with -3p or -6p.
VARIANTS = ("19x19", "13x13", "9x9", "dense-7", "dense-11", "dense-15", "dense-19", "4p", "1d", "3d",
            "hexbo-5", "hexbo", "hexbo-5-3p", "hexbo-3p", "hexbo-5-6p", "hexbo-6p")
