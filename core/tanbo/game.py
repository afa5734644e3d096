"""The rules of Tanbo over any board graph, with incremental bookkeeping.

How the state stays cheap to update (no flood fill per move):

- ``cnt[k][p]``: how many stones of player ``k`` touch point ``p``. A move
  by ``k`` is legal exactly where ``p`` is empty and ``cnt[k][p] == 1``.
- ``own[k][p]``: for such a point, the root credited with it as root space
  (the root of that single touching stone), else ``NONE``. It is what turns
  "which root loses space here" into an array read.
- ``space[r]``: the root-space count of root ``r``; bounded means 0.
- ``lst[k]``/``pos[k]``/``nlegal[k]``: the legal points of ``k`` as an
  index set, so insertion, deletion and a uniform random pick are O(1)
  (membership is ``own[k][p] != NONE``; ``pos`` of a non-member is stale).
- ``root_of[p]``, and per root a chain of its stones (``head``/``nxt``) so
  a removal touches only that root.

Every derived array is a function of the board and the root ids, and
:meth:`Game._refresh` recomputes one point of it; placement updates the
neighbours inline (the hot path), removals and undo use ``_refresh``.
Undo restores removed roots from a stack, then lifts the placed stone.
"""

from array import array

from .variants import get_variant, player_name

NONE = 255  # no root (bytearray cells)
NIL = 0xFFFF  # end of a stone chain / not in a legal list
MAX_ROOTS = 254

# Why a move is illegal (Game.illegal_reason): the code, for a UI that picks
# its own wording; the text is why_illegal's.
OCCUPIED = 1  # the point holds a stone
NOT_CONNECTED = 2  # no stone of the mover touches it
TOUCHES_SEVERAL = 3  # two or more stones of the mover touch it
GAME_OVER = 4  # one player is left
_BLANK = object()

try:
    from sys import implementation as _impl
    _LISTS = _impl.name == "cpython"
except ImportError:  # pragma: no cover
    _LISTS = False


def _cells_of(values):
    """The 16-bit table holding ``values`` (a list on CPython, see :func:`_cells`)."""
    return list(values) if _LISTS else array("H", values)


def _writable(tables):
    """Slice-assignable views of ``tables``: on MicroPython assigning into an
    array's slice allocates, into a memoryview of it does not."""
    if _LISTS:
        return tables
    return tuple(t if isinstance(t, bytearray) else memoryview(t) for t in tables)


def _cells(n, fill, wide=False):
    """``n`` cells of ``fill`` for the per-point tables.

    CPython specialises list indexing but not bytearray/array indexing, so
    lists make the hot path about a quarter faster there; a board needs the
    memory more (1-2 bytes a cell instead of 4), so MicroPython and
    CircuitPython get bytearrays and 16-bit arrays. The code using them is
    the same.
    """
    if _LISTS:
        return [fill] * n
    if fill == NIL or wide:
        return array("H", (b"\xff\xff" if fill == NIL else bytes(2)) * n)
    return bytearray((b"\xff" if fill == NONE else b"\x00") * n)


class IllegalMove(ValueError):
    """A move the rules forbid; the game is unchanged."""


class Game:
    """A game of Tanbo.

    ``Game("9x9")`` starts a variant from its setup; see
    :meth:`from_position` and :meth:`from_record` for the other ways in.
    Players are numbered 1..4 (1 = Black ``X``, 2 = White ``O``, 3 ``Y``,
    4 ``Z``); points are indices of :attr:`variant` (see
    :mod:`tanbo.variants`).
    """

    def __init__(self, variant="19x19", board=None, to_move=1):
        """Start ``variant`` from its setup, or from ``board`` (a bytearray of
        player numbers, see :mod:`tanbo.variants` for point indices) with
        ``to_move`` to play. Raises ValueError if ``board`` is no Tanbo
        position."""
        if variant is _BLANK:
            return  # copy() fills every field itself
        v = get_variant(variant)
        if board is None:
            board = bytearray(v.size)
            for p, player in v.setup:
                board[p] = player
        elif len(board) != v.size:
            raise ValueError("board has %d points, %s has %d" % (len(board), v.name, v.size))
        self._setup(v, bytearray(board), to_move)

    # -- construction -----------------------------------------------------
    def _setup(self, v, board, to_move):
        """Build every derived array from ``board``; raise ValueError if no Tanbo position."""
        n = v.size
        self.variant = v
        self.players = v.players
        self.pids = tuple(range(1, v.players + 1))
        # succ[k]: the player after k; others[k]: everyone but k.
        self.succ = tuple([0] + [k % v.players + 1 for k in self.pids])
        self.others = tuple([()] + [tuple(j for j in self.pids if j != k) for k in self.pids])
        self.nbr = v.nbr
        self.off = v.nbr_off
        self.board = board
        self.root_of = bytearray(b"\xff" * n)
        self.nxt = _cells(n, NIL)
        self.cnt = [None]
        self.own = [None]
        self.lst = [None]
        self.pos = [None]
        self.nlegal = [0] * (v.players + 1)
        self.stone_count = [0] * (v.players + 1)
        self.root_count = [0] * (v.players + 1)
        for _ in self.pids:
            self.cnt.append(_cells(n, 0))
            self.own.append(_cells(n, NONE))
            self.lst.append(_cells(n, 0, True))
            self.pos.append(_cells(n, NIL))
        heads = []
        rplayer = bytearray()
        nbr, off = self.nbr, self.off
        # Find roots (iterative flood fill: construction only), checking
        # each is a tree: a loop or clump can never arise in Tanbo.
        stack = []
        for start in range(n):
            c = board[start]
            if c == 0:
                continue
            if c > v.players:
                raise ValueError("position: %s is a stone of player %d, but %s has %d players"
                                 % (self._where(start), c, v.name, v.players))
            self.stone_count[c] += 1
            if self.root_of[start] != NONE:
                continue
            r = len(heads)
            if r >= MAX_ROOTS:
                raise ValueError("position: more than %d roots" % MAX_ROOTS)
            heads.append(NIL)
            rplayer.append(c)
            self.root_count[c] += 1
            self.root_of[start] = r
            stack.append(start)
            links = 0
            chain = NIL
            stones = 0
            while stack:
                s = stack.pop()
                self.nxt[s] = chain
                chain = s
                stones += 1
                for j in range(off[s], off[s + 1]):
                    q = nbr[j]
                    if board[q] == c:
                        links += 1
                        if self.root_of[q] == NONE:
                            self.root_of[q] = r
                            stack.append(q)
            heads[r] = chain
            if links // 2 != stones - 1:
                raise ValueError("position: the %s root at %s has a loop or clump (a root must be a tree)"
                                 % (player_name(c, v.players), self._where(self._cycle_point(start))))
        nroots = len(heads)
        # Per-root data is small (a few dozen roots) and hot: plain lists,
        # whose indexing CPython specialises, unlike array's.
        self.head = _cells_of(heads)
        self.rplayer = rplayer
        self.space = _cells(nroots, 0, True)
        self.alive = bytearray(b"\x01" * nroots)
        for p in range(n):
            c = board[p]
            if c:
                for j in range(off[p], off[p + 1]):
                    q = nbr[j]
                    self.cnt[c][q] += 1
        for p in range(n):
            if board[p] == 0:
                for k in self.pids:
                    self._refresh(p, k)
        for r in range(nroots):
            if self.space[r] == 0:
                raise ValueError("position: the %s root at %s is bounded (no root space); "
                                 "no bounded root can remain after a turn"
                                 % (player_name(rplayer[r], v.players), self._where(self.head[r])))
        self.ply = 0
        # Undo stacks: arrays of 2-byte cells with explicit lengths, so a
        # long game costs 2 bytes a field a ply and popping allocates nothing.
        # Room for 64 plies up front, doubled when full (see _push_ply).
        self._moves = array("h", bytes(128))  # point, or -player for a resignation
        self._prevs = bytearray(64)  # side to move before the ply
        self._marks = array("H", bytes(128))  # _nrem before the ply
        self._nh = 0
        self._rem = array("H", bytes(64))  # removed roots: stones..., root id, count
        self._nrem = 0
        self.winner = None
        self.to_move = to_move
        self.start = None  # position text when not started from the setup
        self._targets = self._tables_cache = None  # for load_state, built on first use
        self._check_winner()
        if self.winner is None and self.stone_count[to_move] == 0:
            raise ValueError("position: %s is to move but has no stones"
                             % player_name(to_move, v.players))

    def _where(self, p):
        """Row and column of ``p`` for error messages."""
        v = self.variant
        x, y, z = v.coords(p)
        if v.dims == 1:
            return "point %d" % (p + 1)
        if v.dims == 3:
            return "%s (layer %d, row %d, column %d)" % (v.format_point(p), z + 1, v.height - y, x + 1)
        return "%s (row %d, column %s)" % (v.format_point(p), v.height - y, v.format_point(p)[0])

    def _cycle_point(self, start):
        """A stone on a cycle of the (non-tree) root containing ``start``."""
        # Repeatedly strip leaves (degree <= 1); what survives lies on a cycle.
        board, nbr, off = self.board, self.nbr, self.off
        c = board[start]
        members = [p for p in range(len(board)) if board[p] == c and self.root_of[p] == self.root_of[start]]
        deg = {}
        for p in members:
            deg[p] = sum(1 for j in range(off[p], off[p + 1]) if board[nbr[j]] == c)
        leaves = [p for p in members if deg[p] <= 1]
        while leaves:
            p = leaves.pop()
            if deg[p] < 0:
                continue
            deg[p] = -1
            for j in range(off[p], off[p + 1]):
                q = nbr[j]
                if board[q] == c and deg.get(q, -1) > 0:
                    deg[q] -= 1
                    if deg[q] == 1:
                        leaves.append(q)
        cyc = [p for p in members if deg[p] > 1]
        return min(cyc) if cyc else start

    @classmethod
    def from_position(cls, text, variant=None):
        """A game at the position ``text`` (RULES.md "Position text").

        The variant is inferred from the board's shape (a 19x19 board with
        only ``X``/``O`` is ``19x19``, with ``Y``/``Z`` ``4p``; pass
        ``variant`` for ``dense-19`` or to check the shape). Raises
        ``ValueError`` naming the row and column of the first problem.
        """
        from .position import parse_position
        v, board, to_move = parse_position(text, variant)
        g = cls(v, board, to_move)
        if not g._is_setup():
            g.start = g.position()
        return g

    def _is_setup(self):
        """True if the position is the variant's setup with Black to move."""
        setup = self.variant.setup
        if self.to_move != 1 or sum(self.stone_count) != len(setup):
            return False
        for p, player in setup:
            if self.board[p] != player:
                return False
        return True

    @classmethod
    def from_record(cls, text):
        """Replay a game record (see :mod:`tanbo.record`); ValueError names the line."""
        from .replay import load_record
        return load_record(cls, text)

    def position(self):
        """The position text of RULES.md, e.g. ``'...X/.O.../... X'``."""
        from .position import format_position
        return format_position(self.variant, self.board, self.to_move)

    def record(self, **headers):
        """This game as a plain-text record (variant, players, result, moves)."""
        from .record import format_record
        return format_record(self, headers)

    def copy(self):
        """An independent game with the same position and history."""
        g = Game(_BLANK)
        for name in ("variant", "players", "pids", "succ", "others", "nbr", "off", "to_move", "winner", "ply",
                     "start"):
            setattr(g, name, getattr(self, name))
        for name in ("board", "root_of", "rplayer", "alive"):
            setattr(g, name, bytearray(getattr(self, name)))
        g.nxt = self.nxt[:]
        g.head = self.head[:]
        g.space = self.space[:]
        g.cnt = [None] + [a[:] for a in self.cnt[1:]]
        g.own = [None] + [a[:] for a in self.own[1:]]
        g.lst = [None] + [a[:] for a in self.lst[1:]]
        g.pos = [None] + [a[:] for a in self.pos[1:]]
        for name in ("nlegal", "stone_count", "root_count"):
            setattr(g, name, list(getattr(self, name)))
        g._moves = array("h", self._moves)
        g._prevs = bytearray(self._prevs)
        g._marks = array("H", self._marks)
        g._rem = array("H", self._rem)
        g._nh = self._nh
        g._nrem = self._nrem
        g._targets = g._tables_cache = None
        return g

    def _tables(self):
        """Every per-point and per-root table, in a fixed order (see load_state)."""
        t = [self.board, self.root_of, self.nxt, self.head, self.space, self.alive]
        for k in self.pids:
            t.extend((self.cnt[k], self.own[k], self.lst[k], self.pos[k]))
        return tuple(t)

    def load_state(self, other):
        """Copy ``other``'s position into this game in place, allocating nothing.

        Both games must share a variant and root count (e.g. this game is a
        :meth:`copy` of ``other`` or of the same game). History is not
        copied: this game cannot undo past the loaded position. Meant for
        search: reset a scratch game before each playout.
        """
        targets = self._targets
        if targets is None:
            targets = self._targets = _writable(self._tables())
        sources = other._tables_cache
        if sources is None:
            sources = other._tables_cache = other._tables()
        for i in range(len(targets)):
            targets[i][:] = sources[i]
        for k in self.pids:
            self.nlegal[k] = other.nlegal[k]
            self.stone_count[k] = other.stone_count[k]
            self.root_count[k] = other.root_count[k]
        self.to_move = other.to_move
        self.winner = other.winner
        self.ply = other.ply
        self._nh = 0
        self._nrem = 0

    # -- queries ------------------------------------------------------------
    @property
    def over(self):
        """True once one player is left."""
        return self.winner is not None

    def legal_moves(self):
        """The legal points of the side to move, sorted (empty when over)."""
        if self.winner is not None:
            return []
        k = self.to_move
        moves = list(self.lst[k][: self.nlegal[k]])
        moves.sort()
        return moves

    def legal_count(self):
        """How many legal moves the side to move has."""
        return 0 if self.winner is not None else self.nlegal[self.to_move]

    def legal_move_at(self, i):
        """The ``i``-th legal move (0 <= i < :meth:`legal_count`) in internal order: O(1)."""
        return self.lst[self.to_move][i]

    def is_legal(self, point, player=None):
        """True if ``player`` (default: side to move) may place a stone on ``point``."""
        if self.winner is not None or not (isinstance(point, int) and 0 <= point < self.variant.size):
            return False
        return self.own[self.to_move if player is None else player][point] != NONE

    def root_at(self, point):
        """The root id of the stone on ``point``, or None if it is empty."""
        r = self.root_of[point]
        return None if r == NONE else r

    def root_stones(self, root):
        """The stones of root id ``root``, sorted (empty once removed)."""
        out = []
        if self.alive[root]:
            s = self.head[root]
            while s != NIL:
                out.append(s)
                s = self.nxt[s]
        out.sort()
        return out

    def root_space(self, point):
        """The root space of the root holding the stone on ``point``, sorted.

        Raises ValueError if ``point`` is empty.
        """
        self._check_point(point)
        r = self.root_of[point]
        if r == NONE:
            raise ValueError("%s is empty: root space is asked of a stone" % self.variant.format_point(point))
        nbr, off = self.nbr, self.off
        own = self.own[self.rplayer[r]]
        out = []
        s = self.head[r]
        while s != NIL:
            for j in range(off[s], off[s + 1]):
                q = nbr[j]
                if own[q] == r and q not in out:
                    out.append(q)
            s = self.nxt[s]
        out.sort()
        return out

    def root_player(self, root):
        """The player owning root id ``root``."""
        return self.rplayer[root]

    def roots(self, player):
        """Root ids of ``player`` still on the board."""
        return [r for r in range(len(self.alive)) if self.alive[r] and self.rplayer[r] == player]

    def stones(self, player):
        """How many stones ``player`` has on the board."""
        return self.stone_count[player]

    def point(self, text):
        """Parse notation on this game's board (see :meth:`Variant.parse_point`)."""
        return self.variant.parse_point(text)

    def name(self, point):
        """Notation of ``point`` on this game's board."""
        return self.variant.format_point(point)

    def __str__(self):
        from .position import diagram
        return diagram(self.variant, self.board)

    def __repr__(self):
        return "Game.from_position(%r)" % self.position()

    # -- moves ----------------------------------------------------------------
    def _check_point(self, point):
        if not (isinstance(point, int) and not isinstance(point, bool) and 0 <= point < self.variant.size):
            raise ValueError("%r: not a point of the %s board" % (point, self.variant.name))

    def why_illegal(self, point):
        """Why the side to move may not play ``point``, or None if it may."""
        reason = self.illegal_reason(point)
        return None if reason is None else reason[1]

    def illegal_reason(self, point):
        """None if the side to move may play ``point``, else ``(code, text)``:
        code one of :data:`OCCUPIED`, :data:`NOT_CONNECTED`,
        :data:`TOUCHES_SEVERAL`, :data:`GAME_OVER`; text as :meth:`why_illegal`.
        Raises ValueError if ``point`` is not a point of the board."""
        self._check_point(point)
        v = self.variant
        if self.winner is not None:
            return GAME_OVER, "the game is over (%s won)" % player_name(self.winner, v.players)
        name = v.format_point(point)
        if self.board[point]:
            return OCCUPIED, "%s is occupied" % name
        k = self.to_move
        c = self.cnt[k][point]
        who = player_name(k, v.players)
        if c == 0:
            return NOT_CONNECTED, "%s does not connect to any %s stone" % (name, who)
        if c > 1:
            return TOUCHES_SEVERAL, "%s connects to %d %s stones (a new stone must touch exactly one)" % (name, c, who)
        return None

    def touching(self, point, player=None):
        """How many stones of ``player`` (default: side to move) are next to ``point``."""
        self._check_point(point)
        if player is None:
            player = self.to_move
        elif player not in self.pids:
            raise ValueError("%r: no such player in %s" % (player, self.variant.name))
        return self.cnt[player][point]

    def growing_root(self, point):
        """The root id that the side to move grows by playing ``point``, or
        None if that move is not legal."""
        self._check_point(point)
        if self.winner is not None:
            return None
        r = self.own[self.to_move][point]
        return None if r == NONE else r

    def play(self, point):
        """Place a stone of the side to move on ``point``.

        Returns the list of points whose stones the move removed (empty if
        none). Raises :class:`IllegalMove` (a ValueError) naming the problem
        and leaves the game unchanged.
        """
        why = self.why_illegal(point)
        if why is not None:
            raise IllegalMove(why)
        mark = self._nrem
        self._push_ply(point)
        self._place(point, True)
        return self._rem_points(mark)

    def _push_ply(self, move):
        n = self._nh
        if n == len(self._moves):
            # Grow by doubling, not one cell at a time: MicroPython's array
            # append reallocates every 8 items, which fragments a small heap.
            extra = n if n > 16 else 16
            self._moves.extend(array("h", bytes(2 * extra)))
            self._prevs.extend(bytes(extra))
            self._marks.extend(array("H", bytes(2 * extra)))
        self._moves[n] = move
        self._prevs[n] = self.to_move
        self._marks[n] = self._nrem
        self._nh = n + 1

    def _push_rem(self, value):
        n = self._nrem
        if n == len(self._rem):
            self._rem.extend(array("H", bytes(2 * (n if n > 32 else 32))))
        self._rem[n] = value
        self._nrem = n + 1

    @property
    def history(self):
        """The plies played, oldest first: points, or ``-player`` for a resignation."""
        moves = self._moves
        return [moves[i] for i in range(self._nh)]

    def play_move(self, text):
        """Like :meth:`play`, from notation (``'D4'``)."""
        return self.play(self.variant.parse_point(text))

    def _rem_points(self, mark):
        """Stones removed since stack index ``mark``, sorted."""
        out = []
        rem = self._rem
        i = self._nrem
        while i > mark:
            count = rem[i - 1]
            i -= count + 2
            for j in range(i, i + count):  # no slice: no temporary array
                out.append(rem[j])
        out.sort()
        return out

    def resign(self, player=None):
        """Remove every root of ``player`` (default: side to move), as a ply.

        RULES.md 7: a player who resigns or leaves has all roots removed.
        Returns the removed points. Undo restores them.
        """
        if player is None:
            player = self.to_move
        if player not in self.pids:
            raise ValueError("%r: no such player in %s" % (player, self.variant.name))
        if self.winner is not None:
            raise IllegalMove("the game is over (%s won)" % player_name(self.winner, self.players))
        if self.stone_count[player] == 0:
            raise IllegalMove("%s is already out" % player_name(player, self.players))
        mark = self._nrem
        self._push_ply(-player)
        for r in range(len(self.alive)):
            if self.alive[r] and self.rplayer[r] == player:
                self._remove_root(r, True)
        self.ply += 1
        self._check_winner()
        if self.to_move == player or self.winner is not None:
            self._advance()
        return self._rem_points(mark)

    def undo(self):
        """Take back the last ply (move or resignation). Returns its point (or -player).

        Raises ValueError when there is nothing to undo.
        """
        n = self._nh - 1
        if n < 0:
            raise ValueError("nothing to undo")
        self._nh = n
        move = self._moves[n]
        prev = self._prevs[n]
        mark = self._marks[n]
        rem = self._rem
        i = self._nrem
        while i > mark:
            count = rem[i - 1]
            r = rem[i - 2]
            i -= count + 2
            self._restore_root(r, rem[i:i + count])
        self._nrem = i
        if move >= 0:
            self._lift(move, prev)
        self.to_move = prev
        self.winner = None
        self.ply -= 1
        return move

    # -- the hot path -------------------------------------------------------------
    def _place(self, e, record):
        """Place the side to move's stone on legal point ``e`` and apply removals.

        ``record`` keeps removed stones for undo (search playouts pass False).
        Returns the number of roots removed.
        """
        c = self.to_move
        board = self.board
        own = self.own
        space = self.space
        nl = self.nlegal
        ownc = own[c]
        lc = self.lst[c]
        pc = self.pos[c]
        cntc = self.cnt[c]
        nbr, off = self.nbr, self.off
        r = ownc[e]
        # e leaves the mover's legal list and its root's space...
        ownc[e] = NONE
        space[r] -= 1
        n = nl[c] - 1
        i = pc[e]
        last = lc[n]
        lc[i] = last
        pc[last] = i
        # ...and the root space of any other colour's root it served.
        # Space only falls during a placement, so a root that reaches 0
        # here is bounded at the end of it: collect those (rarely any).
        bounded = None
        for k in self.others[c]:
            o = own[k][e]
            if o != NONE:
                own[k][e] = NONE
                space[o] -= 1
                lk = self.lst[k]
                pk = self.pos[k]
                i = pk[e]
                m = nl[k] - 1
                last = lk[m]
                lk[i] = last
                pk[last] = i
                nl[k] = m
                if space[o] == 0:
                    if bounded is None:
                        bounded = [o]
                    else:
                        bounded.append(o)
        board[e] = c
        self.root_of[e] = r
        self.nxt[e] = self.head[r]
        self.head[r] = e
        self.stone_count[c] += 1
        for j in range(off[e], off[e + 1]):
            q = nbr[j]
            m = cntc[q] + 1
            cntc[q] = m
            if board[q] == 0:
                if m == 1:
                    ownc[q] = r
                    space[r] += 1
                    lc[n] = q
                    pc[q] = n
                    n += 1
                elif m == 2:
                    o = ownc[q]
                    ownc[q] = NONE
                    space[o] -= 1
                    n -= 1
                    i = pc[q]
                    last = lc[n]
                    lc[i] = last
                    pc[last] = i
                    if o != r and space[o] == 0:
                        if bounded is None:
                            bounded = [o]
                        elif o not in bounded:
                            bounded.append(o)
        nl[c] = n
        self.ply += 1
        removed = 0
        if space[r] == 0:
            # RULES.md 5: the current root bounded -> it alone goes.
            self._remove_root(r, record)
            removed = 1
        elif bounded is not None:
            # Otherwise every bounded root goes, all at once (collected
            # above, since one removal can give space back to another).
            for t in bounded:
                self._remove_root(t, record)
            removed = len(bounded)
        if removed:
            self._check_winner()
            if self.winner is not None:
                self.to_move = self.winner
                return removed
        # _advance, inlined: this runs every ply of every playout
        succ = self.succ
        sc = self.stone_count
        k = succ[c]
        while not sc[k]:
            k = succ[k]
        self.to_move = k
        return removed

    def _advance(self):
        """Pass the turn to the next player who still has stones."""
        if self.winner is not None:
            self.to_move = self.winner
            return
        k = self.succ[self.to_move]
        while not self.stone_count[k]:
            k = self.succ[k]
        self.to_move = k

    def _check_winner(self):
        left = 0
        last = None
        for k in self.pids:
            if self.stone_count[k]:
                left += 1
                last = k
        if left == 1:
            self.winner = last
        elif left == 0:
            raise ValueError("position: there are no stones on the board")

    # -- removal, restoration, lifting: the rare paths ------------------------------
    def _refresh(self, q, k):
        """Recompute whether empty-or-not point ``q`` is root space of a ``k`` root."""
        board = self.board
        nbr, off = self.nbr, self.off
        new = NONE
        if board[q] == 0 and self.cnt[k][q] == 1:
            for j in range(off[q], off[q + 1]):
                t = nbr[j]
                if board[t] == k:
                    new = self.root_of[t]
                    break
        own = self.own[k]
        old = own[q]
        if old == new:
            return
        own[q] = new
        if old != NONE:
            self.space[old] -= 1
        if new != NONE:
            self.space[new] += 1
        if old == NONE:
            n = self.nlegal[k]
            self.lst[k][n] = q
            self.pos[k][q] = n
            self.nlegal[k] = n + 1
        elif new == NONE:
            lk = self.lst[k]
            pk = self.pos[k]
            i = pk[q]
            n = self.nlegal[k] - 1
            last = lk[n]
            lk[i] = last
            pk[last] = i
            self.nlegal[k] = n

    def _remove_root(self, r, record):
        c = self.rplayer[r]
        board, nxt, cntc = self.board, self.nxt, self.cnt[c]
        nbr, off = self.nbr, self.off
        count = 0
        s = self.head[r]
        while s != NIL:
            board[s] = 0
            self.root_of[s] = NONE
            for j in range(off[s], off[s + 1]):
                q = nbr[j]
                cntc[q] -= 1
            if record:
                self._push_rem(s)
            count += 1
            s = nxt[s]
        if record:
            self._push_rem(r)
            self._push_rem(count)
        # What changed: each freed point may become root space of another
        # colour's root (its counts of those colours are unchanged), and
        # each empty neighbour lost a colour-c stone. Only points where a
        # count is 1, or that were credited, can change their credit.
        cnt = self.cnt
        ownc = self.own[c]
        others = self.others[c]
        refresh = self._refresh
        s = self.head[r]
        while s != NIL:
            for k in others:
                if cnt[k][s] == 1:
                    refresh(s, k)
            for j in range(off[s], off[s + 1]):
                q = nbr[j]
                if board[q] == 0 and (cntc[q] == 1 or ownc[q] != NONE):
                    refresh(q, c)
            s = nxt[s]
        self.alive[r] = 0
        self.stone_count[c] -= count
        self.root_count[c] -= 1

    def _restore_root(self, r, stones):
        c = self.rplayer[r]
        board, nxt, cntc = self.board, self.nxt, self.cnt[c]
        nbr, off = self.nbr, self.off
        prev = NIL
        for i in range(len(stones) - 1, -1, -1):
            s = stones[i]
            board[s] = c
            self.root_of[s] = r
            nxt[s] = prev
            prev = s
            for j in range(off[s], off[s + 1]):
                q = nbr[j]
                cntc[q] += 1
        self.head[r] = prev
        pids = self.pids
        for s in stones:
            for k in pids:
                self._refresh(s, k)
            for j in range(off[s], off[s + 1]):
                q = nbr[j]
                if board[q] == 0:
                    self._refresh(q, c)
        self.alive[r] = 1
        self.stone_count[c] += len(stones)
        self.root_count[c] += 1

    def _lift(self, e, c):
        """Undo the placement of ``c``'s stone on ``e`` (the head of its root's chain)."""
        nbr, off = self.nbr, self.off
        r = self.root_of[e]
        board = self.board
        board[e] = 0
        self.root_of[e] = NONE
        self.head[r] = self.nxt[e]
        self.nxt[e] = NIL
        self.stone_count[c] -= 1
        cntc = self.cnt[c]
        for j in range(off[e], off[e + 1]):
            q = nbr[j]
            cntc[q] -= 1
        for k in self.pids:
            self._refresh(e, k)
        for j in range(off[e], off[e + 1]):
            q = nbr[j]
            if board[q] == 0:
                self._refresh(q, c)

    # -- playouts -------------------------------------------------------------------
    def random_playout(self, rng, limit=-1):
        """Play uniformly random moves until the game ends (or ``limit`` plies).

        ``rng.below(n)`` picks an index in ``range(n)``. Records nothing for
        undo: call it on a scratch game (see :meth:`load_state`). Returns
        the winner (None if ``limit`` stopped it first).
        """
        lst, nlegal, place, below = self.lst, self.nlegal, self._place, rng.below
        while self.winner is None and limit != 0:
            k = self.to_move
            place(lst[k][below(nlegal[k])], False)
            limit -= 1
        return self.winner

    # -- equality for tests and tools -----------------------------------------------
    def state_key(self):
        """Everything that defines the position, as comparable text and numbers."""
        legal = self.legal_moves()
        roots = tuple(tuple(self.root_stones(r)) for r in range(len(self.alive)))
        spaces = tuple(self.space[r] if self.alive[r] else 0 for r in range(len(self.alive)))
        return (self.position(), self.to_move, self.winner, self.ply, tuple(legal), roots, spaces,
                tuple(self.stone_count), tuple(self.root_count))
