"""Reading a point's notation on a box of points (``D4``, ``17``, ``333``):
the body of :meth:`tanbo.variants.Variant.parse_point` (Hexbo's cells are
:mod:`tanbo.hexbo_text`'s).

Apart from :mod:`tanbo.variants` because a game on a board never reads
text (the app speaks point indices; a save holds them): that module stays
on a board's heap under every game, this one loads only for the text
formats (records, GTP, position text, a puzzle's line), 0.9 KB of ``.mpy``
less under a game. A puzzle on a board loads it and keeps it (dropped with
the position parser, each puzzle opened would import it again: 11 ms of an
RP2040, over the half second a puzzle may take to open). Notation:
:mod:`tanbo.variants`.
"""

from .numerals import is_digits, small_int


def parse_point(v, text):
    """The point of ``text`` on the box board ``v`` (:meth:`tanbo.variants.Variant.parse_point`)."""
    if not isinstance(text, str):
        raise ValueError("point must be text like 'D4', got %r" % (text,))
    s = text.strip().upper()
    if v.dims == 1:
        if not is_digits(s):
            raise ValueError("%r: malformed point (1D points are numbers 1-%d)" % (text, v.size))
        n = small_int(s, v.size + 1)
        if not 1 <= n <= v.size:
            raise ValueError("%r: not on the %s board (1-%d)" % (text, v.name, v.size))
        return n - 1
    if v.dims == 3:
        if len(s) != 3 or not is_digits(s):
            raise ValueError("%r: malformed point (3D points are three digits XYZ, each 1-5, e.g. 333)" % (text,))
        x, y, z = int(s[0]), int(s[1]), int(s[2])
        if not (1 <= x <= v.width and 1 <= y <= v.height and 1 <= z <= v.depth):
            raise ValueError("%r: not on the %s board (each digit 1-5)" % (text, v.name))
        return (z - 1) * v.width * v.height + (v.height - y) * v.width + (x - 1)
    if len(s) < 2 or not is_digits(s[1:]) or not ("A" <= s[0] <= "Z"):
        raise ValueError("%r: malformed point (expected a column letter and a row number, e.g. D4)" % (text,))
    if s[0] == "I":
        raise ValueError("%r: there is no column I (Go notation skips it)" % (text,))
    x = v.letters.index(s[0])
    row = small_int(s[1:], v.height + 1)
    if x >= v.width or not 1 <= row <= v.height:
        raise ValueError("%r: not on the %s board (%s1-%s%d)" % (
            text, v.name, v.letters[0], v.letters[v.width - 1], v.height))
    return (v.height - row) * v.width + x
