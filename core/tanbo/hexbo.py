"""Hexbo's boards: a hexagon of side N (RULES.md "Hexbo"), its setups, notation and drawing.

Tanbo on hexagonal cells, each with up to six neighbours; the rules are
:mod:`tanbo.game`'s, unchanged. Only what a hexagon has of its own lives
here, loaded when a Hexbo variant is first asked for (a square board's
game never carries this code on a board's heap); what builds a variant
(its tables and setup) is :mod:`tanbo.hexbo_make`'s, dropped from the
heap once the variant is built; what reads a hexagon's text (a cell's
notation, a board in position text, the diagram) is :mod:`tanbo.hexbo_text`'s,
which a game on a board never loads.

Point indices: the cells only, row by row from the top, each row from the
left: ``p = row_start[r] + c - row_first_col[r]`` for row ``r`` (0-based
from the top) and column ``c`` (1-based, along the down-left diagonals).
Row ``r`` holds columns ``max(1, r-N+2) .. min(2N-1, N+r)``. Notation: the
row letter (``A`` at the top, ``I`` included) and the column number,
``E5`` the centre of the side-5 board.
"""

from .variants import Variant, loaded

SIDES = (4, 10)  # the smallest and largest side of hexbo-N
# The row letters, from the top (I included, as pbmserv's hex games write
# them); a side-10 board has 19 rows, A-S.
ROWS = "ABCDEFGHIJKLMNOPQRS"

# The board time of a search node, in percent of a square board's, with 2
# or 3 players and with 6 (each scanned move walks six neighbours, and
# every other player's tables): tanbo.ai divides its node budgets by it,
# so that hexbo's hard keeps an RP2040 under 6 s (`tanbo bench --ai`'s
# probes: docs/ai.md#budgets).
NODE_COST = (140, 160)
# The weight of tanbo.ai's SPACE table (a root's first points of root
# space: whether it survives) on a two-player board, percent of a square
# board's. Twice, so that hard beats medium on hexbo-5 at a PicoSystem's
# budget (docs/ai.md#strength); medium plays with it too. With more
# players not measured: as on the square boards.
SPACE_WEIGHT = 200


class HexVariant(Variant):
    """A Hexbo board and setup; :class:`tanbo.variants.Variant`'s interface,
    with the rows tables, :meth:`cell` and :meth:`row_col` (see there)."""

    letters = ROWS  # a cell's letter names its row (tanbo.hexbo_text reads them here)

    def __init__(self, name, n, tables, setup, players, description):
        """``tables``: :func:`tanbo.hexbo_make._tables_of`'s of side ``n``."""
        rows = 2 * n - 1
        self.hex_side = n
        self.rows = rows
        self.row_start, self.row_first_col, self.row_len, steps = tables
        self.node_cost = NODE_COST[1] if players > 3 else NODE_COST[0]
        if players == 2:
            self.space_weight = SPACE_WEIGHT
        Variant.__init__(self, name, rows, rows, 1, setup, steps, players, description, 3 * n * (n - 1) + 1)

    def cell(self, r, c):
        """The point of row ``r`` (0-based from the top) and column ``c``
        (1-based), or None if that cell is off the board."""
        if not 0 <= r < self.rows:
            return None
        i = c - self.row_first_col[r]
        if not 0 <= i < self.row_len[r]:
            return None
        return self.row_start[r] + i

    def row_col(self, point):
        """``(r, c)`` of ``point``: its row (0-based from the top) and column (1-based)."""
        starts = self.row_start
        r = self.rows - 1
        while starts[r] > point:  # (19 rows at most: a scan, no table a point)
            r -= 1
        return r, self.row_first_col[r] + point - starts[r]

    def parse_point(self, text):
        """The point of cell ``text`` (``E5``, any case); ValueError quoting
        ``text`` when it is malformed or off this board (:mod:`tanbo.hexbo_text`)."""
        return loaded("tanbo.hexbo_text").parse_point(self, text)

    def format_point(self, point):
        """The notation of point index ``point``: row letter, column number."""
        if not (isinstance(point, int) and 0 <= point < self.size):
            raise ValueError("%r: not a point index of the %s board (0-%d)" % (point, self.name, self.size - 1))
        r, c = self.row_col(point)
        return "%s%d" % (ROWS[r], c)

    def coords(self, point):
        """``(x, y, 0)``: the cell's place in its row and its row, 0-based."""
        r, c = self.row_col(point)
        return c - self.row_first_col[r], r, 0
