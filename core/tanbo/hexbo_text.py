"""Hexbo's text: reading a cell's notation (``E5``, the body of
:meth:`tanbo.hexbo.HexVariant.parse_point`), the Hexbo variant named by a board in
position text and its diagram (what :mod:`tanbo.position` asks of a hexagon).

Apart from :mod:`tanbo.hexbo` because a game on a board never reads text
(the app speaks point indices; a save holds them): that module stays on a
board's heap under every Hexbo game, this one loads only for the text
formats (records, GTP, position text), 1 KB of ``.mpy`` less under a Hexbo
game. Notation: :mod:`tanbo.hexbo`.
"""

from .numerals import is_digits, small_int


def parse_point(v, text):
    """The point of cell ``text`` on the Hexbo board ``v`` (:meth:`tanbo.hexbo.HexVariant.parse_point`)."""
    if not isinstance(text, str):
        raise ValueError("point must be text like 'E5', got %r" % (text,))
    s = text.strip().upper()
    n = v.rows
    if len(s) < 2 or not is_digits(s[1:]) or not ("A" <= s[0] <= "Z"):
        raise ValueError("%r: malformed cell (expected a row letter and a column number, e.g. E5)" % (text,))
    r = v.letters.find(s[0])
    c = small_int(s[1:], n + 1)
    p = v.cell(r, c) if r >= 0 else None
    if p is None:
        if 0 <= r < n and 1 <= c <= n:
            first = v.row_first_col[r]
            raise ValueError("%r: not on the %s board (row %s holds columns %d-%d)"
                             % (text, v.name, s[0], first, first + v.row_len[r] - 1))
        raise ValueError("%r: not on the %s board (rows A-%s, columns 1-%d)"
                         % (text, v.name, v.letters[n - 1], n))
    return p


def variant_name(rows, side, stones, quoted, sides):
    """The name of the Hexbo variant of position text whose board is
    ``rows`` (short at both ends), ``side`` to move: the side from the row
    count, 2, 3 or 6 players from the highest player among ``side`` and the
    stones (``stones``: the character to player map); ValueError naming
    the text (``quoted``) for a row count no hexagon has (``sides``: the smallest and largest,
    :data:`tanbo.hexbo.SIDES`)."""
    height = len(rows)
    n = (height + 1) // 2
    if not sides[0] <= n <= sides[1] or height % 2 == 0:
        raise ValueError("position %s: %d rows, shorter at both ends; a Hexbo board of side N has"
                         " 2N-1 rows, N from %d to %d" % (quoted, height, sides[0], sides[1]))
    most = side
    for row in rows:
        for ch in row.upper():
            k = stones.get(ch, 0)
            if k > most:
                most = k
    return "hexbo-%d%s" % (n, "" if most <= 2 else ("-3p" if most == 3 else "-6p"))


def diagram(v, cell, row_text):
    """A Hexbo board as offset rows, ``cell(p)`` each, the row letters on the
    left; each column's number stands where it would continue up-right
    from its first cell (columns run down-left): columns 1-N above row A,
    the others after the row above their first cell."""
    n = v.hex_side
    lines = [" " * (n + 2) + row_text(str, 1, n, " ")]
    for r in range(v.rows):
        line = "%s %s%s" % (v.letters[r], " " * abs(n - 1 - r), row_text(cell, v.row_start[r], v.row_len[r], " "))
        if r < n - 1:
            line += " %d" % (n + r + 1)
        lines.append(line)
    return "\n".join(lines)
