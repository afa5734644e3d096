"""What builds the variants on a box of points (the square boards, 1D, 3D
and 4p): their steps tables and setups (:func:`make`, which
:func:`tanbo.game.get_variant` calls once a variant; Hexbo's are
:mod:`tanbo.hexbo_make`'s).

Apart from :mod:`tanbo.variants` because a game never needs it once its
variant is built: :func:`tanbo.game.get_variant` drops this module from
``sys.modules`` (and the package) once it has built one, so that its code
(1.3 KB of ``.mpy``, about as much of a board's heap) does not stay under a
game's screen and search; the next variant built imports it again (once a
variant: they are kept). Point indices: :mod:`tanbo.variants`.
"""

from .variants import Variant, _tables


def _steps(width, height, depth):
    """``steps[p]``: the offsets from point ``p`` of a box of points
    to its orthogonal neighbours (up, left, right, down, then the layers).

    Each is one of at most 27 shared tuples (one a kind of point: corner,
    edge, inside...), so the table costs a word a point, less than a flat
    table of the neighbours with its offsets (5 cells a point). The hot
    loops walk it (``for d in steps[p]: q = p + d``): on MicroPython that is
    42% fewer board instructions a point than the flat table's ``for j in
    range(off[p], off[p + 1]): q = nbr[j]`` (1,080 against 1,870 for four
    neighbours, measured), and a 4-tuple a point would cost 2.5 KB more on
    a 9x9 board for 350 fewer a point."""
    plane = width * height
    steps = [None] * (plane * depth)  # a list of its final size: no regrowth on a small heap
    kinds = {}
    # A row's inner points share one tuple: 3 made a row, not one a point
    # (point by point a 19x19 table would take 160 ms of an RP2040).
    xs = (0, 1, width - 1) if width > 2 else range(width)
    for z in range(depth):
        for y in range(height):
            row = z * plane + y * width
            for x in xs:
                d = []
                if y > 0:
                    d.append(-width)
                if x > 0:
                    d.append(-1)
                if x < width - 1:
                    d.append(1)
                if y < height - 1:
                    d.append(width)
                if z > 0:
                    d.append(-plane)
                if z < depth - 1:
                    d.append(plane)
                d = tuple(d)
                d = kinds.setdefault(d, d)
                if x == 1 and width > 2:
                    for p in range(row + 1, row + width - 1):
                        steps[p] = d
                else:
                    steps[row + x] = d
    return steps


def _grid_setup(size, coords, owner):
    """Stones at every ``(x, y)`` with both in ``coords``; ``owner(i, j)`` by grid index."""
    setup = []
    for j in range(len(coords)):
        for i in range(len(coords)):
            setup.append((coords[j] * size + coords[i], owner(i, j)))
    return setup


def _checker(i, j):
    return 1 if (i + j) % 2 == 0 else 2


def make(name):
    """The variant ``name`` (lower case, one of :data:`tanbo.variants.VARIANTS`
    but Hexbo's), or None if it is none of them. Its steps table is one a
    board shape (19x19, 4p and dense-19 share one), kept in
    :data:`tanbo.variants._tables` (which outlives this module). One frame
    over :func:`_steps`: a puzzle list builds its first variant deep in the
    app's calls (docs/puzzles.md, the pystack)."""
    # The setups of RULES.md ("Setups"). Coordinates: x from the left, y
    # from the top, 0-based.
    n, height, depth, players = 19, 0, 1, 2
    if name == "19x19":
        setup, description = _grid_setup(19, (0, 6, 12, 18), _checker), "standard 19x19, 16 seeds (Fig. A)"
    elif name == "13x13":
        n = 13
        setup, description = _grid_setup(13, (0, 4, 8, 12), _checker), "13x13, 16 seeds, faster and more tactical"
    elif name == "9x9":
        # Fig. O: Black H8 B2, White B8 H2.
        n = 9
        setup = [(1 * 9 + 7, 1), (7 * 9 + 1, 1), (1 * 9 + 1, 2), (7 * 9 + 7, 2)]
        description = "beginner 9x9, 4 seeds (Fig. O)"
    elif name.startswith("dense-") and name[6:] in ("7", "11", "15", "19"):
        n = int(name[6:])
        setup = []
        for y in range(0, n, 2):
            for x in range(0, n, 2):
                setup.append((y * n + x, 1 if x % 4 == y % 4 else 2))
        description = "%dx%d, a seed on every other point" % (n, n)
    elif name == "4p":
        setup = _grid_setup(19, (0, 6, 12, 18), lambda i, j: 1 + (i % 2) + 2 * (j % 2))
        description, players = "four players on 19x19", 4
    elif name == "1d":
        n, height = 31, 1
        setup = [(x, 1 if (x // 6) % 2 == 0 else 2) for x in range(0, 31, 6)]
        description = "31 points in a line"
    elif name == "3d":
        n, depth = 5, 5
        setup = []
        for z in (0, 4):
            for y in (0, 4):
                for x in (0, 4):
                    setup.append((z * 25 + y * 5 + x, 1 if (x // 4 + y // 4 + z // 4) % 2 == 0 else 2))
        description = "5x5x5 cube, 8 corner seeds"
    else:
        return None
    height = height or n
    key = (n, height, depth)
    steps = _tables.get(key)
    if steps is None:
        steps = _tables[key] = _steps(n, height, depth)
    return Variant(name, n, height, depth, setup, steps, players, description)
