"""What sets a new :class:`tanbo.game.Game` up: its tables allocated, its
roots found and chained, their root space credited and the legal sets
filled (``Game(...)``'s work), and what sets one up again in its own
tables (:meth:`tanbo.game.Game.restart`).

Apart from :mod:`tanbo.game` because a game's plies never need it once it
is set up: on a board the app drops it when a game's screen comes up
(:meth:`app.main.App.show`), so that its code (1.1 KB of ``.mpy``,
about as much of a board's heap) does not stay under the game's screen
and search; the next game imports it again (a puzzle, whose screen opens
in under half a second, keeps it). Fields: :mod:`tanbo.game`.
"""

from array import array

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

# tanbo.game's NIL and NO_ROOT, folded here (this module does not import the one
# that loads it; tests/test_engine.py checks the values agree).
_NIL = const(0xFFFF)
_NO_ROOT = const(255)

# CPython's tables are lists (see _cells). (sys by __import__: each global
# more in a module lengthens every lookup of the others and of builtins,
# which MicroPython looks for in the module's table first.)
_LISTS = __import__("sys").implementation.name == "cpython"


def _filled(cells, fill):
    """``cells`` (a list, bytearray or array) with every cell set to ``fill``, allocating
    no temporary as long as it: ``array("H", b"\xff\xff" * n)`` would first
    make the bytes, a second block of the table's size while a board's heap
    is fragmented. Doubles a filled prefix through a memoryview
    (a copy a power of two, not a Python loop over the cells); a list
    (CPython's tables, a fast game's) cell by cell."""
    n = len(cells)
    if type(cells) is list:
        for i in range(n):
            cells[i] = fill
    elif n:
        cells[0] = fill
        view = memoryview(cells)
        k = 1
        while k < n:
            c = k if 2 * k <= n else n - k
            view[k:k + c] = view[:c]
            k += c
    return cells


def set_up(g, v, board, to_move, stones):
    """Build every derived table from ``board``, whose roots each have a
    point in ``stones`` (ascending); raise ValueError if no Tanbo position."""
    allocate(g, v, board)
    find_roots(g, stones)
    credit_root_space(g)
    check_bounded(g)
    g.to_move = to_move
    g._check_winner()
    if g.winner is None and g.root_count[to_move] == 0:
        from .variants import player_name  # (here: no global more, see _LISTS)
        raise ValueError("position: %s is to move but has no stones"
                         % player_name(to_move))


def is_setup(v, board, to_move):
    """True if ``board`` (a bytearray of player numbers) with ``to_move`` to
    play is ``v``'s setup, Black to move."""
    if to_move != 1 or len(board) - board.count(b"\0") != len(v.setup):  # (count: C's loop, not Python's)
        return False
    for p, player in v.setup:
        if board[p] != player:
            return False
    return True


def allocate(g, v, board):
    """Every field, empty: no stone counted, no root found, no legal point."""
    n = v.size
    g.variant = v
    g.players = v.players
    pids = g.pids = tuple(range(1, v.players + 1))
    # succ[k]: the player after k; others[k]: everyone but k.
    succ, others = [0], [()]
    for k in pids:
        succ.append(k % v.players + 1)
        others.append(pids[:k - 1] + pids[k:])
    g.succ, g.others = tuple(succ), tuple(others)
    g.steps = v.steps
    g.fast = False  # (see Game.copy)
    g.board = board
    g.root_of = _filled(bytearray(n), _NO_ROOT)
    g.nxt = _cells(n, _NIL)
    # one table of each kind, then copies (a slice is no Python call)
    counts = g.touch_count = [None, _cells(n, 0)]
    roots = g.space_root = [None, _cells(n, _NO_ROOT)]
    # (a point in a byte up to 256 points: a player's list is 6p Hexbo's
    # 1.3 KB of a PyBadge's heap less. A place in the list is a byte on
    # every board: an index of a point off the list is stale, never read,
    # so no NIL marks it; every table, lists too, keeps a place's low
    # byte (``& 255``: CircuitPython refuses a larger int in a bytearray
    # cell), and a read adds 256 until the list holds the point there:
    # the lower candidates are other points of the list. 6p Hexbo's
    # indexes 1.3 KB less, 4p's 1.4 KB, 19x19's 0.7 KB)
    points = g.legal_points = [None, _cells(n, 0, n > 256)]
    index = g.legal_index = [None, _cells(n, 0)]
    for _ in range(1, v.players):
        for t in (counts, roots, points, index):
            t.append(t[1][:])
    g.legal_total = [0] * (v.players + 1)
    g.root_count = [0] * (v.players + 1)
    g.ply = 0
    g.winner = None
    g.over = False  # winner is not None (an attribute: see Game's docstring)
    g.start = None  # position text when not started from the setup
    # Undo stacks: arrays of 2-byte cells with explicit lengths, so a
    # long game costs 2 bytes a ply and popping allocates nothing.
    # Room for 64 plies up front, grown when full (see Game._grow_history).
    g._moves = array("h", bytes(128))  # point, or -player for a resignation
    g._nh = 0
    g._room = 64  # plies the stack holds (a len() call costs more than this read)
    # Removed roots, a block for each ply that removed any: each root's
    # record (its stones..., its id, their count), then the ply's index
    # in _moves and where its block begins (_nrem before it): undo tells
    # a ply that removed roots by the top block's ply (_top, -1 with no
    # block), with no cell for the plies that removed none (most). A
    # resignation's block begins with the side to move before it (a
    # move's mover is its stone's colour, so only resignations keep it).
    # The block's ply and start take two cells each (high byte, low
    # byte), so that a cell is a byte up to 256 points (a point, a root
    # id, a count fit one): half the bytes, dense-11's records 0.5 KB at
    # ply 150, where a 1 KB step of them found no block on a PyBadge.
    g._rem = array("H", bytes(64)) if n > 256 else bytearray(64)
    g._nrem = 0
    g._top = -1


def find_roots(g, stones):
    """Number the roots (in the order of their first point in ``stones``),
    chain their stones and count every stone's touches; ValueError if a
    stone has no player of the variant or a root is no tree (a loop or
    clump can never arise in Tanbo)."""
    v, board, root_of, nxt = g.variant, g.board, g.root_of, g.nxt
    steps = g.steps
    heads = []
    root_player = []
    stack = []  # iterative flood fill: construction only
    for start in stones:
        c = board[start]
        if c == 0 or root_of[start] != _NO_ROOT:
            continue
        if c > v.players:
            from .faults import stone_of_no_player
            raise stone_of_no_player(g, start)
        r = len(heads)
        if r >= _NO_ROOT - 1:  # (root ids are bytes below NO_ROOT)
            raise ValueError("position: more than %d roots" % (_NO_ROOT - 1))
        root_player.append(c)
        root_of[start] = r
        stack.append(start)
        cnt = g.touch_count[c]
        links = 0
        chain = _NIL
        stones = 0
        while stack:
            s = stack.pop()
            nxt[s] = chain
            chain = s
            stones += 1
            for d in steps[s]:
                q = s + d
                cnt[q] += 1
                if board[q] == c:
                    links += 1
                    if root_of[q] == _NO_ROOT:
                        root_of[q] = r
                        stack.append(q)
        heads.append(chain)
        g.root_count[c] += 1
        if links // 2 != stones - 1:
            from .faults import not_a_tree
            raise not_a_tree(g, start)
    nroots = len(heads)
    # Per-root tables are lists on every interpreter, compact games too:
    # a list cell is read and written without conversion (see _cells),
    # and there are few roots.
    g.head = heads
    g.root_player = root_player
    g.space = [0] * nroots
    g.alive = [1] * nroots
    if len(getattr(g, "_bounded", ())) != nroots:  # (restart keeps its own)
        g._bounded = bytearray(nroots)  # a ply's bounded roots (Game._place_loop): at most every root


def credit_root_space(g):
    """Credit every root with its root space and fill the legal sets.

    A point touching exactly one stone of ``k`` is found from that stone,
    once; each set is filled in ascending point order (the order seeded
    picks depend on)."""
    board, root_of, space, nxt = g.board, g.root_of, g.space, g.nxt
    steps = g.steps
    for k in g.pids:
        cnt, own = g.touch_count[k], g.space_root[k]
        found = []
        for r in range(len(g.head)):
            if g.root_player[r] != k:
                continue
            s = g.head[r]
            while s != _NIL:
                for d in steps[s]:
                    q = s + d
                    if board[q] == 0 and cnt[q] == 1:
                        found.append(q)
                        own[q] = r
                        space[r] += 1
                s = nxt[s]
        found.sort()
        lk, pk = g.legal_points[k], g.legal_index[k]
        for i in range(len(found)):
            q = found[i]
            lk[i] = q
            pk[q] = i & 255
        g.legal_total[k] = len(found)
    g._bind()


def check_bounded(g):
    """ValueError if a root has no root space: no bounded root outlasts a turn."""
    for r in range(len(g.head)):
        if g.space[r] == 0:
            from .faults import bounded_root
            raise bounded_root(g, r)


def _cells(n, fill, wide=False):
    """``n`` cells of ``fill`` for a per-point table of a compact game.

    A list is the fastest table on every interpreter: CPython specialises
    its indexing; on MicroPython a bytearray or array cell is converted on
    every read and write, a list cell is not (measured: lists for every
    table take 9% off a 9x9 playout's board instructions). But a list
    costs a word a cell where a board's heap would rather spend 1-2 bytes,
    so on MicroPython and CircuitPython a game's per-point tables are
    bytearrays and 16-bit arrays; only CPython gets lists. A *fast* game
    (:meth:`Game.copy`) has lists everywhere: the search's own copy. The
    code using them is the same.
    """
    if _LISTS:
        return [fill] * n
    if fill == _NIL or wide:
        return _filled(array("H", range(n)), fill)
    return _filled(bytearray(n), fill) if fill else bytearray(n)


def restart(g):
    """:meth:`tanbo.game.Game.restart`: ``g``'s tables and undo stacks, which
    keep their room, refilled as :func:`allocate` fills them, its setup
    placed and its roots found again."""
    v = g.variant
    board = _filled(g.board, 0)
    for p, player in v.setup:
        board[p] = player
    _filled(g.root_of, _NO_ROOT)
    _filled(g.nxt, _NIL)
    for name, fill in (("touch_count", 0), ("space_root", _NO_ROOT), ("legal_points", 0), ("legal_index", 0)):
        for t in getattr(g, name)[1:]:
            _filled(t, fill)
    _filled(g.legal_total, 0)
    _filled(g.root_count, 0)
    g.ply = g._nh = g._nrem = 0
    g._top = -1
    g.winner = g.start = None
    g.over = False
    g.to_move = 1
    find_roots(g, v.setup_points)
    credit_root_space(g)
    return g


def replay(g, plies):
    """:meth:`tanbo.game.Game.replay`: ``g`` restarted and its first ``plies`` recorded
    plies played again (the stack keeps them: each push writes the ply it reads)."""
    n = g._nh if plies is None else plies
    if type(n) is not int or not 0 <= n <= g._nh:
        raise ValueError("replay: %r plies; the game has played %d" % (plies, g._nh))
    if g.start is not None:
        raise ValueError("replay: the game began at a position, not at its setup")
    g._nh = n
    g.ply = -1  # broken until the replay is done
    moves = g._moves
    try:
        restart(g)
        for i in range(n):
            m = moves[i]
            if m < 0:
                g.resign(-m)
            else:
                g.place(m)
    except BaseException:
        g._nh = n
        g.ply = -1  # broken still, its record whole: a later replay starts again
        raise
    return g
