"""What builds a Hexbo variant: the hexagon's rows and steps tables and its
setup (:func:`make`, which :func:`tanbo.game.get_variant` calls once a
variant).

Apart from :mod:`tanbo.hexbo` because a game never needs it once its
variant is built: :func:`tanbo.game.get_variant` drops this module from
``sys.modules`` (and the package) once it has built one, so that its code
(1.3 KB of a board's heap) does not stay under a Hexbo game's screen and
search (as :mod:`tanbo.variant_make`, the other boards' builder). Point
indices and notation: :mod:`tanbo.hexbo`.
"""

from .hexbo import SIDES, HexVariant
from .numerals import is_digits, small_int
from .variants import _tables


def _tables_of(n):
    """The rows and steps of the hexagon of side ``n``.

    The neighbours of ``(r, c)`` are ``(r, c-1)``, ``(r, c+1)``, ``(r-1,
    c-1)``, ``(r-1, c)``, ``(r+1, c)``, ``(r+1, c+1)`` where they exist.
    Between two rows the offset of each of those is the same for every
    cell, so, as in :func:`tanbo.variant_make._steps`, a row's inner cells
    share one tuple and the table holds at most three a row; each tuple's
    steps ascend (the row above, the row's own, the row below)."""
    rows = 2 * n - 1
    first, length, start = [], [], []
    p = 0
    for r in range(rows):
        a = 1 if r < n else r - n + 2
        b = n + r if r < n else rows
        first.append(a)
        length.append(b - a + 1)
        start.append(p)
        p += b - a + 1
    steps = [None] * p
    kinds = {}
    for r in range(rows):
        a, b = first[r], first[r] + length[r] - 1
        for c in (a, a + 1, b):
            d = []
            here = start[r] + c - a
            for dr, dc in ((-1, -1), (-1, 0), (0, -1), (0, 1), (1, 0), (1, 1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < rows and first[rr] <= cc < first[rr] + length[rr]:
                    d.append(start[rr] + cc - first[rr] - here)
            d = tuple(d)
            d = kinds.setdefault(d, d)
            if c == a + 1:  # (every row has 4 cells or more)
                for q in range(here, here + b - a - 1):
                    steps[q] = d
            else:
                steps[here] = d
    return tuple(start), tuple(first), tuple(length), steps


def corners(n, k):
    """The six corners ``(r, c)`` of the ring at distance ``k`` around the
    centre of the side-``n`` hexagon, ``d = 0..5`` counter-clockwise from
    the east (RULES.md: E, NE, NW, W, SW, SE)."""
    m = n - 1
    return ((m, n + k), (m - k, n), (m - k, n - k), (m, n - k), (m + k, n), (m + k, n + k))


def _setup(n, players, tables):
    """The rings at distance 3, 6, ... that fit (one on hexbo-5, two on
    hexbo): corner ``d`` of the ``i``-th ring belongs to ``P((d + 3i) mod 6)``,
    ``P(d)`` Black for even ``d`` and White for odd with 2 players,
    ``1 + d mod 3`` with 3, ``1 + d`` with 6. ``tables``: :func:`_tables_of`'s."""
    start, first = tables[:2]
    setup = []
    i = 0
    while 3 * (i + 1) <= n - 1:
        ring = corners(n, 3 * (i + 1))
        for d in range(6):
            r, c = ring[d]
            e = (d + 3 * i) % 6
            setup.append((start[r] + c - first[r], (1 + e % 2) if players == 2 else 1 + e % players))
        i += 1
    return setup


def make(name):
    """The Hexbo variant ``name`` (``hexbo``, ``hexbo-N``, each with ``-3p``
    or ``-6p``), or None if no side from 4 to 10 and player count fits.
    Its tables (:func:`_tables_of`) are one set a side (hexbo, hexbo-3p and
    hexbo-6p share it), kept in :data:`tanbo.variants._tables` (which
    outlives this module); built here, a frame less deep (as
    :func:`tanbo.variant_make.make`)."""
    rest = name[5:]
    players = 2
    if rest.endswith("-3p") or rest.endswith("-6p"):
        players = int(rest[-2])
        rest = rest[:-3]
    if rest == "":
        n = 9
    elif rest[:1] == "-" and is_digits(rest[1:]) and rest[1:2] != "0":
        n = small_int(rest[1:], 99)
    else:
        return None
    if not SIDES[0] <= n <= SIDES[1]:
        return None
    canonical = ("hexbo" if n == 9 else "hexbo-%d" % n) + ("" if players == 2 else "-%dp" % players)
    who = "two players" if players == 2 else "%d players" % players
    key = ("hex", n)
    tables = _tables.get(key)
    if tables is None:
        tables = _tables[key] = _tables_of(n)
    return HexVariant(canonical, n, tables, _setup(n, players, tables), players,
                      "Hexbo, side %d (%d cells), %s" % (n, 3 * n * (n - 1) + 1, who))
