"""Position text (the project's "FEN") and board diagrams.

Format (RULES.md): rows from top to bottom separated by ``/``, one
character a point (``.`` empty, ``X`` player 1/Black, ``O`` player 2/White,
``Y`` player 3, ``Z`` player 4, ``U`` player 5, ``V`` player 6), a space,
the side to move. 3D boards are five layers (``z = 1`` first) separated by
``|``. Hexbo boards are their rows of cells, N, N+1 .. 2N-1 .. N of them
(the shape names the side; the stones, 2, 3 or 6 players: pass the
variant when a 6-player game has only players 1-3 left). On input ``#`` means
``X``, ``,`` and ``+`` mean ``.``, letters may be lower case and spaces
inside the board are ignored, so a diagram copied from the 1995 rules
parses.
"""

from .variants import COLUMNS, PLAYER_CHARS

_CELL = {".": 0, ",": 0, "+": 0, "X": 1, "#": 1, "O": 2, "Y": 3, "Z": 4, "U": 5, "V": 6}
# _CELL by byte (its letters in either case), 255 for any other byte (a
# non-ASCII character's bytes too): what the parser reads a row's bytes with.
_CODES = bytearray(b"\xff" * 256)
for _ch in _CELL:
    _CODES[ord(_ch)] = _CODES[ord(_ch.lower())] = _CELL[_ch]
del _ch
_STONE_BYTES = PLAYER_CHARS.encode()  # PLAYER_CHARS by player, as bytes
# The one map from a player's letter or digit (upper case) to its number, for
# position text, records and the text protocol: the stone letters of RULES.md
# (X/# black, O white, Y, Z, U, V), the colour initials B/W and the digits 1-6.
PLAYER_CODES = {"X": 1, "#": 1, "B": 1, "O": 2, "W": 2, "Y": 3, "Z": 4, "U": 5, "V": 6,
                "1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6}

# Rows of a square board -> its variant name (a 19x19 board with players 3
# or 4 is "4p" in position text; the text protocol's boardsize uses it too).
VARIANT_BY_ROWS = {19: "19x19", 13: "13x13", 9: "9x9", 7: "dense-7", 11: "dense-11", 15: "dense-15"}


def quote(text, limit=40):
    """``text`` quoted for an error message, cut at ``limit`` characters."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


def parse_position(text, get_variant, variant=None):
    """``(variant, board, to_move)`` from position text; ValueError names the problem.

    ``variant`` (a name or a variant) is what the text must be a board of;
    None infers it from the board's shape. ``get_variant`` is
    :func:`tanbo.game.get_variant` (passed in: that module loads this one).

    ``board`` is a fresh ``bytearray`` of player numbers. Rule checks
    (loops, bounded roots) are :class:`tanbo.game.Game`'s job.
    """
    if not isinstance(text, str):
        raise ValueError("position must be text, got %r" % (text,))
    parts = text.split()
    if len(parts) < 2:
        raise ValueError("position %s: expected the board, a space, then the side to move (X, O, Y, Z, U, V)"
                         % quote(text))
    if len(parts[-1]) != 1:
        raise ValueError("position: missing the side to move (X, O, Y, Z, U, V) after the board, got %s"
                         % quote(parts[-1]))
    side = PLAYER_CODES.get(parts[-1].upper())
    if side is None:
        raise ValueError("position: side to move %r is not one of X, O, Y, Z, U, V" % parts[-1])
    layers = [layer.split("/") for layer in "".join(parts[:-1]).split("|")]
    depth = len(layers)
    height = len(layers[0])
    v = get_variant(variant if variant is not None else _infer(layers, text, side))
    if depth != v.depth:
        raise ValueError("position: %s has %d layers separated by '|', got %d" % (v.name, v.depth, depth))
    board = bytearray(v.size)
    codes, players = _CODES, v.players
    p = 0
    for z in range(depth):
        rows = layers[z]
        if len(rows) != v.height:
            raise ValueError("position%s: %s has %d rows separated by '/', got %d"
                             % (_layer(v, z), v.name, v.height, len(rows)))
        for y in range(v.height):
            row = rows[y]
            width = v.row_len[y] if v.hex_side else v.width
            if len(row) != width:
                raise ValueError("position%s row %s: expected %d %s, got %d: %s" % (
                    _layer(v, z), _row(v, y), width, "cells" if v.hex_side else "points", len(row), quote(row)))
            # The row's bytes through a table: indexing a str makes a
            # one-character string, interned (a search of every qstr on a
            # board) twice a point with upper(): 60 ms of an RP2040's time
            # on 19x19, a puzzle's opening (tests/test_puzzle_board_time.py).
            for ch in row.encode():  # (its bytes: no index a point)
                c = codes[ch]
                if c > players:  # an unknown character (255), or a stone this board has no player for
                    raise _bad_cell(v, z, y, row)
                board[p] = c
                p += 1
    if side > v.players:
        raise ValueError("position: side to move %r, but %s has %d players" % (parts[-1], v.name, v.players))
    return v, board, side


def _bad_cell(v, z, y, row):
    # The ValueError naming the first character of ``row`` that is no point of ``v``.
    for x in range(len(row)):
        c = _CELL.get(row[x].upper())
        if c is None:
            return ValueError("position%s row %s, column %s: unknown character %r (use ., X, O, Y, Z, U, V)"
                              % (_layer(v, z), _row(v, y), _col(v, x, y), row[x]))
        if c > v.players:
            from .variants import player_name
            return ValueError("position%s row %s, column %s: %r is a %s stone, but %s has %d players"
                              % (_layer(v, z), _row(v, y), _col(v, x, y), row[x], player_name(c), v.name,
                                 v.players))
    return ValueError("position%s row %s: %s is not a row of points" % (_layer(v, z), _row(v, y), quote(row)))


def _infer(layers, text, side):
    # The name of the variant whose board has the shape of ``layers``.
    depth, height, width = len(layers), len(layers[0]), len(layers[0][0])
    if depth == 5:
        return "3d"
    if depth != 1:
        raise ValueError("position %s: %d layers, but only 3d (5 layers) has layers" % (quote(text), depth))
    if height > 2 and len(layers[0][-1]) < height and width < height:  # short rows at both ends: a hexagon
        from .hexbo import SIDES
        from .hexbo_text import variant_name
        return variant_name(layers[0], side, _CELL, quote(text), SIDES)
    if height == 1:
        if width == 31:
            return "1d"
        raise ValueError("position %s: a single row of %d points; 1d has 31" % (quote(text), width))
    name = VARIANT_BY_ROWS.get(height)
    if name is None:
        raise ValueError("position %s: %d rows; no variant has that size (19, 13, 9, 7, 11, 15)"
                         % (quote(text), height))
    if height == 19 and _has_34(layers):
        return "4p"
    return name


def _has_34(layers):
    for row in layers[0]:
        r = row.upper()
        if "Y" in r or "Z" in r:
            return True
    return False


def _layer(v, z):
    return " layer %d" % (z + 1) if v.dims == 3 else ""


def _row(v, y):
    return v.format_point(v.row_start[y])[0] if v.hex_side else str(v.height - y)


def _col(v, x, y=0):
    if v.hex_side:
        return str(v.row_first_col[y] + x)
    return str(x + 1) if v.dims != 2 else COLUMNS[x]


def _row_text(cell, start, count, sep):
    """``cell(p)`` for ``count`` points from ``start``, joined by ``sep``.

    Loops, not generator expressions: each of those is one more code object
    on a board's heap."""
    out = []
    for p in range(start, start + count):
        out.append(cell(p))
    return sep.join(out)


def format_position(v, board, to_move):
    """The position text of ``board`` with ``to_move`` to play."""
    chars = _STONE_BYTES
    layers = []
    p = 0  # rows follow each other in point order, Hexbo's too
    for z in range(v.depth):
        rows = []
        for y in range(v.height):
            n = v.row_len[y] if v.hex_side else v.width
            row = bytearray(n)  # bytes, not PLAYER_CHARS[...]: no one-character string interned a point
            for i in range(n):
                row[i] = chars[board[p + i]]
            rows.append(str(row, "ascii"))
            p += n
        layers.append("/".join(rows))
    return "|".join(layers) + " " + PLAYER_CHARS[to_move]


def diagram(v, board, marks=None):
    """A multi-line drawing with coordinates, like the figures of the 1995 rules.

    ``marks`` optionally maps points to a character drawn instead of the stone.
    """
    def cell(p):
        if marks and p in marks:
            return marks[p]
        return PLAYER_CHARS[board[p]]

    if v.dims == 1:
        nums, ones = [], []
        for x in range(1, v.width + 1):
            nums.append(str(x // 10) if x % 5 == 0 and x >= 10 else " ")
            ones.append(str(x % 10) if x % 5 == 0 or x == 1 else " ")
        return "\n".join(("".join(nums), "".join(ones), _row_text(cell, 0, v.width, "")))
    if v.hex_side:
        from .hexbo_text import diagram as hexagon
        return hexagon(v, cell, _row_text)
    letters = COLUMNS[: v.width]
    plane = v.width * v.height
    lines = []
    if v.dims == 3:
        heads = []
        for z in range(v.depth):
            heads.append("Z=%d %s" % (z + 1, " " * (2 * v.width - 4)))
        lines.append("   " + "    ".join(heads).rstrip())
        for y in range(v.height):
            parts = []
            for z in range(v.depth):
                parts.append(_row_text(cell, z * plane + y * v.width, v.width, " "))
            lines.append("%2d " % (v.height - y) + "    ".join(parts))
        lines.append("   " + "    ".join([_row_text(str, 1, v.width, " ")] * v.depth))
        return "\n".join(lines)
    header = "   " + " ".join(letters)
    lines.append(header)
    for y in range(v.height):
        n = v.height - y
        lines.append("%2d %s %d" % (n, _row_text(cell, y * v.width, v.width, " "), n))
    lines.append(header)
    return "\n".join(lines)

