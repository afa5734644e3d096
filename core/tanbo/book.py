"""An opening book: moves for early positions, computed on the desktop
(``tanbo book``), read from flash one line at a time.

The file is text, one entry a line after a header::

    TANBO-BOOK 1 <what made it>\\n
    9x9 ........./.O.....X./.../.X.....O./......... X G7\\n
    ...

An entry is the variant, the position text with the side to move (RULES.md)
and the move, separated by spaces. Entries are sorted by their bytes up to
the move's space (the key), so :func:`lookup` finds a position by a binary
search over byte offsets: it seeks to the middle of a range, skips to the
next line and compares, reading about log2(entries) lines of at most
``MAX_LINE`` bytes; a board never holds more than one line.

A position is stored in one form only: of its images under the board's
symmetries (:func:`images`: the 8 of a square board, 4 of a rectangle, 2 of
a line; a 3D board's identity only) the one whose key sorts first. The
rules do not change under those maps, so the book's move, mapped back, is
as good in every image. :func:`lookup` tries the same canonical form.

The module is loaded for a lookup and dropped after it (:func:`play`), so a
book costs a board's heap nothing between moves.
"""

from .position import format_position

MAGIC = b"TANBO-BOOK 1"
MAX_LINE = 420  # bytes: a 19x19 entry is about 390


def images(v):
    """How many symmetries of ``v``'s board :func:`image` knows (1, 2, 4 or 8)."""
    if v.depth > 1 or v.hex_side:  # (a hexagon's symmetries are not these)
        return 1
    if v.height == 1:
        return 2
    return 8 if v.width == v.height else 4


def image(v, t, p):
    """Where symmetry ``t`` (``0 <= t < images(v)``) takes point ``p``:
    bit 0 mirrors x, bit 1 mirrors y, bit 2 swaps x and y (square boards)."""
    w = v.width
    x, y = p % w, p // w
    if t & 1:
        x = w - 1 - x
    if t & 2:
        y = v.height - 1 - y
    if t & 4:
        x, y = y, x
    return y * w + x


def canonical(game):
    """``(key, t)``: the key (bytes) of ``game``'s position in the book's form
    and the symmetry ``t`` that takes the position there."""
    v = game.variant
    board = game.board
    out = bytearray(v.size)
    best = None
    for t in range(images(v)):
        for p in range(v.size):
            out[image(v, t, p)] = board[p]
        key = (v.name + " " + format_position(v, out, game.to_move)).encode()
        if best is None or key < best:
            best, bt = key, t
    return best, bt


def check_head(head, path):
    """ValueError naming ``path`` unless ``head``, its first line (read up to
    ``MAX_LINE`` bytes), is a book's: ``MAGIC``, a space, what made it, a newline."""
    if not head.startswith(MAGIC + b" ") or head[-1:] != b"\n":
        raise ValueError("%s: no opening book (made by tanbo book; its first line starts with %r)"
                         % (path, MAGIC.decode()))


def lookup(path, game):
    """The book's move (a point) for ``game``'s position, or None if the book
    at ``path`` has none.

    Raises OSError if the file cannot be read, ValueError naming the file
    and the problem if it is no book, or if the entry found is malformed or
    its move is not legal in the position.
    """
    key, t = canonical(game)
    with open(path, "rb") as f:
        head = f.readline(MAX_LINE)
        check_head(head, path)
        line = _find(f, path, key, len(head), f.seek(0, 2))
    if line is None:
        return None
    v = game.variant
    word = line[len(key) + 1:].decode()
    try:
        point = v.parse_point(word)
    except ValueError as e:
        raise ValueError("%s: the entry of %s: %s" % (path, key.decode(), e))
    for p in range(v.size):
        if image(v, t, p) == point:
            if not game.is_legal(p):
                raise ValueError("%s: the entry of %s plays %s, not a legal move there"
                                 % (path, key.decode(), word))
            return p
    return None  # (not reached: every symmetry is a permutation)


def _find(f, path, key, lo, end):
    """The line (bytes, no newline) whose key is ``key`` among the entries
    starting at byte offsets ``lo`` to ``end``, or None."""
    hi = end  # the entry sought, if any, starts in [lo, hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2  # lo < mid < hi
        f.seek(mid - 1)  # from the byte before: an entry starting at mid is not skipped
        at = mid - 1 + len(_line(f, path, mid - 1))  # the first entry starting at mid or after
        if at >= hi:
            break
        line = _line(f, path, at)
        k = _key(line, path, at)
        if k == key:
            return line[:-1]
        if k < key:
            lo = at + len(line)
        else:
            hi = mid  # no entry starts in [mid, at)
    f.seek(lo)
    while lo < hi:
        line = _line(f, path, lo)
        if not line:
            break
        if _key(line, path, lo) == key:
            return line[:-1]
        lo += len(line)
    return None


def _line(f, path, at):
    line = f.readline(MAX_LINE)
    if line and line[-1:] != b"\n":
        raise ValueError("%s: the line at byte %d has no end within %d bytes" % (path, at, MAX_LINE))
    return line


def _key(line, path, at):
    cut = line.rfind(b" ")
    if cut <= 0:
        raise ValueError("%s: the line at byte %d is no entry (variant, position, move)" % (path, at))
    return line[:cut]


def play(search):
    """The book's move for ``search``'s position (a :class:`tanbo.ai.Search`
    whose ``book`` is a path), or None: not hard, no entry, or a bad book.

    A bad book (unreadable, malformed, an illegal move) is not asked again
    by this search (``search.book`` = None) and its message is kept in
    ``search.book_error``: the search goes on without it. This module is
    dropped from ``sys.modules`` on the way out, so it leaves nothing on
    the heap.
    """
    try:
        if search.level != "hard":
            return None
        return lookup(search.book, search.game)
    except (OSError, ValueError) as e:
        search.book = None
        search.book_error = str(e)
        return None
    finally:
        _drop()


def _drop():
    import sys
    import tanbo
    sys.modules.pop(__name__, None)
    if "book" in tanbo.__dict__:
        del tanbo.book
