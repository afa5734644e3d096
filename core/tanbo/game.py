"""The rules of Tanbo over any board graph, with incremental bookkeeping.

How the state stays cheap to update (no flood fill per move):

- ``touch_count[k][p]``: how many stones of player ``k`` touch point ``p``.
  A move by ``k`` is legal exactly where ``p`` is empty and the count is 1.
- ``space_root[k][p]``: for such a point, the root credited with it as root
  space (the root of that single touching stone), else :data:`NO_ROOT`. It
  turns "which root loses space here" into an array read.
- ``space[r]``: the root-space count of root ``r``; bounded means 0.
- ``legal_points[k]``/``legal_index[k]``/``legal_total[k]``: the legal
  points of ``k`` as an index set, so insertion, deletion and a uniform
  random pick are O(1) (membership is ``space_root[k][p] != NO_ROOT``;
  ``legal_index`` of a non-member is stale).
- ``root_of[p]`` for a stone (stale on an empty point: nothing reads it
  there, and not clearing it spares removal and undo a write a stone), and
  per root a chain of its stones (``head``/``nxt``) so a removal touches
  only that root; ``root_player[r]`` owns root ``r``.

Every derived table is a function of the board and the root ids.
Placement, lifting (undo), removal and restoration update them inline, in
one order that is part of the behaviour: the order of ``legal_points``
decides which move a seeded random pick takes (``random_playout``,
``legal_move_at``), the same on every interpreter. A change of that order
changes seeded games (never their rules): say so in its commit.

Deleting point ``q`` from player ``k``'s legal set is the same six steps
everywhere; they stay written out, a method call on these paths costing
more than the steps::

    i = legal_index[k][q]            # where q sits (its low byte on a
    while legal_points[k][i] != q:   # compact game of over 256 points)
        i += 256
    n = legal_total[k] - 1           # the last member
    last = legal_points[k][n]
    legal_points[k][i] = last        # moves into q's place
    legal_index[k][last] = i & 255   # (legal_total[k] = n afterwards)

The search's interface (see :mod:`tanbo.ai`): the tables above, read only;
``board``, ``to_move``, ``winner``, ``players``, ``others[k]`` (the players
but ``k``), ``steps`` (the variant's: the neighbours of ``p`` are ``p + d``
for ``d`` in ``steps[p]``), ``alive[r]``, ``root_count[k]`` (a player with
no root is out), ``_nrem`` and ``_rem`` (the removal stack and its
height: a ply that removed roots raised it by a record each, the root's
stones, the root and their count, the latest on top; a search tells a
removal by one read, and what it took off); and to move,
:meth:`Game.play_unchecked` (an undoable ply, :meth:`Game.undo` takes it
back), :meth:`Game.place_unrecorded` (on a scratch game reloaded with
:meth:`Game.load_state`) and :meth:`Game.random_playout`.
"""

from array import array

from .variants import VARIANTS, Variant, _cache, loaded, player_name

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

NO_ROOT = const(255)  # no root (bytearray cells)
NIL = const(0xFFFF)  # end of a stone chain / not in a legal list

# The largest board, in points, whose search copy and scratch games are
# fast (list tables, see Game.copy: 7% fewer board instructions a ply of
# the search, 9% a playout): 9x9, 3D, the small dense boards, at 28 bytes
# a point of a board's heap, 2.3 KB at 9x9. A 13x13 copy would take 4.7 KB
# and a 19x19 one 10 KB of the search's 30 KB, where the budgets already
# keep a move within its time.
FAST_COPY_POINTS = const(125)
_BLANK = object()

# Why a move is illegal (Game.illegal_reason): the code, for a UI that picks
# its own wording; the text is why_illegal's.
OCCUPIED = const(1)  # the point holds a stone
NOT_CONNECTED = const(2)  # no stone of the mover touches it
TOUCHES_SEVERAL = const(3)  # two or more stones of the mover touch it
GAME_OVER = const(4)  # one player is left

# The state of a game, field by field, by how copy() and load_state() treat
# them (the one list of them: a new field goes here).
# Read only, or scratch within one ply (_bounded): copies share them.
_SHARED = ("variant", "players", "pids", "succ", "others", "steps", "_bounded")
_SCALARS = ("to_move", "winner", "over", "ply", "start")
_TABLES = ("board", "root_of", "nxt", "head", "space", "alive", "root_player")  # a cell a point or a root
_PLAYER_TABLES = ("touch_count", "space_root", "legal_points", "legal_index")  # [None, player 1's, ...]
_COUNTS = ("legal_total", "root_count")  # an int a player, index 0 unused
_HISTORY = ("_moves", "_rem")  # undo stacks: copy() keeps them, load_state() drops them

def _writable(tables):
    """Slice-assignable views of ``tables``: on MicroPython assigning into an
    array's slice allocates, into a memoryview of it does not."""
    views = []
    for t in tables:
        views.append(memoryview(t) if isinstance(t, array) else t)
    return tuple(views)




def get_variant(name):
    """The :class:`tanbo.variants.Variant` called ``name`` (one of
    :data:`tanbo.variants.VARIANTS`, any case).

    Variants are built once and shared: their tables are read-only. The
    builder (:mod:`tanbo.variant_make`, Hexbo's :mod:`tanbo.hexbo_make`) is
    imported for a build and dropped after it (see those modules).
    """
    if isinstance(name, Variant):
        return name
    key = str(name).strip().lower()
    v = _cache.get(key)
    if v is None:
        if key in VARIANTS or key.startswith("hexbo-"):
            # The builder, imported for the build and then let go (out of
            # sys.modules and the package): on a board its code would
            # otherwise stay on the heap under every game. Here, not in a
            # function of its own: a puzzle list builds its variants deep in
            # the app's calls, a frame from CircuitPython 9's pystack.
            import sys  # (here: a global more in this module slows every lookup of its globals)
            module = "hexbo_make" if key.startswith("hexbo") else "variant_make"
            try:
                if module == "hexbo_make":
                    from .hexbo_make import make
                else:
                    from .variant_make import make
                v = make(key)
            finally:
                sys.modules.pop("tanbo." + module, None)
                getattr(sys.modules.get("tanbo"), "__dict__", {}).pop(module, None)
        if v is None:
            raise ValueError("%r: unknown variant (known: %s, hexbo-N)" % (name, ", ".join(VARIANTS)))
        v = _cache.setdefault(v.name, v)  # one variant however named (hexbo-9 is hexbo)
        _cache[key] = v
    return v


class IllegalMove(ValueError):
    """A move the rules forbid; the game is unchanged."""


class Game:
    """A game of Tanbo.

    ``Game("9x9")`` starts a variant from its setup; see
    :meth:`from_position` and :meth:`from_record` for the other ways in.
    Players are numbered 1..6 (1 = Black ``X``, 2 = White ``O``, 3 ``Y``,
    4 ``Z``, 5 ``U``, 6 ``V``); points are indices of :attr:`variant` (see
    :mod:`tanbo.variants`).

    State is plain attributes: ``to_move``, ``winner`` (None while two or
    more players have stones), ``over`` (``winner is not None``) and ``ply``.
    No properties, on purpose: under MicroPython one property on a class
    makes every attribute store on its instances look the class up first,
    which cost ~4,600 board instructions a ply on each of play and undo.
    """

    def __init__(self, variant="19x19", board=None, to_move=1):
        """Start ``variant`` from its setup, or from ``board`` (a bytearray of
        player numbers, see :mod:`tanbo.variants` for point indices) with
        ``to_move`` to play. Raises ValueError if ``board`` is no Tanbo
        position or ``to_move`` no player of the variant."""
        if variant is _BLANK:
            return  # copy() fills every field itself
        v = get_variant(variant)
        if type(to_move) is not int or not 1 <= to_move <= v.players:
            raise ValueError("to_move %r: no such player in %s (1-%d)" % (to_move, v.name, v.players))
        if board is None:
            board = bytearray(v.size)
            for p, player in v.setup:
                board[p] = player
            stones = v.setup_points  # every root of a setup is one stone: no scan
        elif len(board) != v.size:
            raise ValueError("board has %d points, %s has %d" % (len(board), v.name, v.size))
        else:
            board = bytearray(board)
            stones = range(v.size)
        loaded("tanbo.game_make").set_up(self, v, board, to_move, stones)  # (off a board's heap under a game)

    def restart(self):
        """This game back at its variant's setup, the first player to move, in
        place: its tables and undo stacks are refilled and keep their room,
        so the next game of a variant makes no block anew (a board's
        fragmented heap may have none for a new game's). Returns the game."""
        return loaded("tanbo.game_make").restart(self)  # (off a board's heap under a game)

    def _bind(self):
        """The tables the hot paths unpack in one go (one attribute read, not fifteen)."""
        mine = [None]
        for k in self.pids:
            mine.append((self.space_root[k], self.legal_points[k], self.legal_index[k], self.touch_count[k]))
        # theirs[c]: each other player's tables and number, for loops that
        # unpack them in the loop header (cheaper than others[c], then mine[k])
        theirs = [()]
        for c in self.pids:
            row = []
            for k in self.others[c]:
                row.append(mine[k] + (k,))
            theirs.append(tuple(row))
        self._hot = (self.board, self.root_of, self.nxt, self.head, self.space, tuple(mine), self.legal_total,
                     self.root_count, tuple(theirs), self.succ, self.steps)
        self._targets = self._tables_cache = None  # for load_state, built on first use

    @classmethod
    def from_position(cls, text, variant=None):
        """A game at the position ``text`` (RULES.md "Position text").

        The variant is inferred from the board's shape (a 19x19 board with
        only ``X``/``O`` is ``19x19``, with ``Y``/``Z`` ``4p``; pass
        ``variant`` for ``dense-19`` or to check the shape). Raises
        ``ValueError`` naming the row and column of the first problem.
        """
        from .position import parse_position
        v, board, to_move = parse_position(text, get_variant, variant)
        g = cls(v, board, to_move)
        if not loaded("tanbo.game_make").is_setup(v, board, to_move):
            g.start = g.position()
        return g

    @classmethod
    def from_record(cls, text):
        """Replay a game record (see :mod:`tanbo.record`); ValueError names the line."""
        from .replay import load_record
        return load_record(cls, text, get_variant)

    def position(self):
        """The position text of RULES.md, e.g. ``'...X/.O.../... X'``."""
        from .position import format_position
        return format_position(self.variant, self.board, self.to_move)

    def record(self, **headers):
        """This game as a plain-text record (variant, players, result, moves)."""
        from .record import format_record
        return format_record(self, headers)

    def copy(self, fast=False):
        """An independent game with the same position and history.

        ``fast=True`` makes every table of the copy a list, a word a cell
        (a copy of a fast game is fast anyway). On MicroPython and
        CircuitPython a fast game plays 7-9% fewer instructions a ply (9x9:
        a random playout 0.99e6 Cortex-M4 instructions against 1.09e6) for
        about 28 bytes more heap a point on a board (2.3 KB a 9x9 game,
        10 KB a 19x19 one): for a search's private copy and scratch games
        (see :data:`FAST_COPY_POINTS`). On CPython, where compact
        games have lists already but for ``board`` and ``root_of``, it
        changes little. A game and its copies play the same moves and
        seeded picks either way.
        """
        g = Game(_BLANK)
        for name in _SHARED + _SCALARS + ("_nh", "_room", "_nrem", "_top"):
            setattr(g, name, getattr(self, name))
        lists = g.fast = fast or self.fast
        for name in _TABLES:
            t = getattr(self, name)
            setattr(g, name, list(t) if lists else t[:])
        for name in _HISTORY + _COUNTS:
            setattr(g, name, getattr(self, name)[:])
        for name in _PLAYER_TABLES:
            tables = [None]
            for t in getattr(self, name)[1:]:
                tables.append(list(t) if lists else t[:])
            setattr(g, name, tables)
        g._bind()
        return g

    def _tables(self):
        """Every table load_state copies, in a fixed order: :data:`_TABLES`,
        each player's :data:`_PLAYER_TABLES`, then :data:`_COUNTS`."""
        t = []
        for name in _TABLES:
            t.append(getattr(self, name))
        for name in _PLAYER_TABLES:
            t.extend(getattr(self, name)[1:])
        for name in _COUNTS:
            t.append(getattr(self, name))
        return tuple(t)

    def load_state(self, other):
        """Copy ``other``'s position into this game in place, allocating nothing.

        Both games must share a variant and root count (e.g. this game is a
        :meth:`copy` of ``other`` or of the same game). History is not
        copied: this game cannot undo past the loaded position. Meant for
        search: reset a scratch game before each playout, or a search's
        fast copy before each move. Between games of one kind (both fast or
        both compact, see :meth:`copy`) a table is copied at once (between
        fast games MicroPython allocates a little a table: a list's slice
        assignment builds its slice on the heap, a memoryview's does not);
        a fast game loads a compact one cell by cell, and a compact game
        cannot load a fast one (ValueError: a list's ints may not fit its
        byte cells).
        """
        if other.variant is not self.variant and other.variant.name != self.variant.name:
            raise ValueError("load_state: a %s game cannot load a %s one (another board and players)"
                             % (self.variant.name, other.variant.name))
        if other.fast and not self.fast:
            raise ValueError("load_state: a compact game cannot load a fast one's tables (see Game.copy)")
        sources = other._tables_cache
        if sources is None:
            sources = other._tables_cache = other._tables()
        if other.fast == self.fast:
            targets = self._targets
            if targets is None:
                targets = self._targets = _writable(self._tables())
            for i in range(len(targets)):
                targets[i][:] = sources[i]
        else:
            targets = self._tables_cache
            if targets is None:
                targets = self._tables_cache = self._tables()
            for i in range(len(targets)):
                t, f = targets[i], sources[i]
                for j in range(len(f)):
                    t[j] = f[j]
        self.to_move = other.to_move
        self.winner = other.winner
        self.over = other.over
        self.ply = other.ply
        self._nh = 0
        self._nrem = 0
        self._top = -1

    # -- queries ------------------------------------------------------------
    def legal_moves(self, player=None):
        """The legal points of ``player`` (default: the side to move), sorted (empty when over);
        ValueError naming ``player`` when it is no player of the variant (1 to ``players``)."""
        if player is None:
            k = self.to_move
        else:
            self._check_player(player)
            k = player
        if self.winner is not None:
            return []
        moves = list(self.legal_points[k][: self.legal_total[k]])
        moves.sort()
        return moves

    def legal_count(self):
        """How many legal moves the side to move has."""
        return 0 if self.winner is not None else self.legal_total[self.to_move]

    def legal_move_at(self, i):
        """The ``i``-th legal move (0 <= i < :meth:`legal_count`) in internal order: O(1)."""
        return self.legal_points[self.to_move][i]

    def is_legal(self, point, player=None):
        """True if ``player`` (default: side to move) may place a stone on ``point``
        (False for a value that is no point); ValueError naming ``player`` if it is none."""
        if player is None:
            player = self.to_move
        else:
            self._check_player(player)
        if self.winner is not None or not (isinstance(point, int) and 0 <= point < self.variant.size):
            return False
        return self.space_root[player][point] != NO_ROOT

    def root_at(self, point):
        """The root id of the stone on ``point``, or None if it is empty."""
        return self.root_of[point] if self.board[point] else None

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

    def root_chain(self, root):
        """``(first, nxt)``: the stones of live root ``root`` as a chain, for a
        walk that makes no list (a screen's, each redraw): ``first`` is one
        of them, ``nxt[p]`` the one after ``p``, :data:`NIL` after the last.
        Read only; valid until the next ply or undo."""
        return self.head[root], self.nxt

    def root_space(self, point):
        """The root space of the root holding the stone on ``point``, sorted.

        Raises ValueError if ``point`` is empty.
        """
        self._check_point(point)
        r = self.root_of[point]
        if not self.board[point]:
            raise ValueError("%s is empty: root space is asked of a stone" % self.variant.format_point(point))
        steps = self.steps
        own = self.space_root[self.root_player[r]]
        out = []
        s = self.head[r]
        while s != NIL:
            for d in steps[s]:
                q = s + d
                if own[q] == r and q not in out:
                    out.append(q)
            s = self.nxt[s]
        out.sort()
        return out

    def roots(self, player):
        """Root ids of ``player`` still on the board."""
        out = []
        for r in range(len(self.alive)):
            if self.alive[r] and self.root_player[r] == player:
                out.append(r)
        return out

    def stones(self, player=None):
        """How many stones ``player`` (default: every player) has on the board.

        Counted, not kept: no move pays for a tally that only a display reads.
        """
        n = 0
        if player is None:
            for k in self.board:
                if k:
                    n += 1
        else:
            for k in self.board:  # one test a point: the display asks per redraw
                if k == player:
                    n += 1
        return n

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
        if not (type(point) is int and 0 <= point < self.variant.size):  # no bool either
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
            return GAME_OVER, "the game is over (%s won)" % player_name(self.winner)
        name = v.format_point(point)
        if self.board[point]:
            return OCCUPIED, "%s is occupied" % name
        k = self.to_move
        c = self.touch_count[k][point]
        who = player_name(k)
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
        self._check_player(player)
        return self.touch_count[player][point]

    def growing_root(self, point):
        """The root id that the side to move grows by playing ``point``, or
        None if that move is not legal."""
        self._check_point(point)
        if self.winner is not None:
            return None
        r = self.space_root[self.to_move][point]
        return None if r == NO_ROOT else r

    def play(self, point):
        """Place a stone of the side to move on ``point``.

        Returns the list of points whose stones the move removed (empty if
        none). Raises :class:`IllegalMove` (a ValueError) naming the problem
        and leaves the game unchanged.
        """
        mark = self._nrem
        if not self.place(point):  # most plies: no list walk, no sort call
            return []
        return self._rem_points(mark)

    def place(self, point):
        """:meth:`play` without the list of removed points: True if the move removed
        stones (a caller that compares boards needs no list: 4p's last removals
        made a 0.5 KB one on a PyBadge's heap with no such block left)."""
        if (self.winner is not None or type(point) is not int or not 0 <= point < self.variant.size
                or self.space_root[self.to_move][point] == NO_ROOT):
            raise IllegalMove(self.why_illegal(point))  # or its ValueError for no point
        mark = self._nrem
        self._place_loop(point)
        return self._nrem != mark

    def place_unrecorded(self, point):
        """Place the side to move's stone on legal ``point`` (unchecked), keeping
        nothing for undo: for a scratch game reset with :meth:`load_state`."""
        self._place_loop(point, False)

    def _push_ply(self, move):
        n = self._nh
        if n == self._room:
            self._grow_history()
        self._moves[n] = move
        self._nh = n + 1

    def _close_block(self, mark):
        """End the removal block of the last ply, begun at ``mark`` (see tanbo.game_make.allocate):
        its ply and ``mark`` on top (_remove_root left room for both)."""
        n = self._nrem
        rem = self._rem
        ply = self._top = self._nh - 1
        rem[n] = ply >> 8
        rem[n + 1] = ply & 255
        rem[n + 2] = mark >> 8
        rem[n + 3] = mark & 255
        self._nrem = n + 4

    def _extend_rem(self, n):
        """``n`` more cells on the removal records, with no temporary but their
        own (``array("H", bytes(k))`` first makes the ``bytes``, a second block
        as big); not zero (a cell past ``_nrem`` is written before
        it is read)."""
        rem = self._rem
        rem.extend(bytearray(n) if type(rem) is bytearray else array("H", range(n)))

    def _grow_rem(self):
        """The removal records' step when a root's record finds them full
        (_remove_root, app.shared_search's reserve): doubled up to 256 cells,
        then 256 more at a time, as _grow_history grows its stacks."""
        n = len(self._rem)
        self._extend_rem(n if n < 256 else 256)

    def _grow_history(self):
        # Its own method: a deep expression stack in _push_ply would put the
        # frame of every push on MicroPython's heap (frames of more than 11
        # words are allocated there), several times the cost of the push.
        # Grow by up to 128 plies, not one cell at a time: MicroPython's
        # array append reallocates every 8 items, which fragments a small
        # heap; and not by doubling past 128: a 19x19 game's 1,024-ply
        # stack needs a free 2 KB block where 640 plies fit in 1.3 KB (a
        # whole 19x19 game with its history ran out of a 64 KB heap so).
        n = self._room
        extra = n if n < 128 else 128
        self._moves.extend(array("h", bytes(2 * extra)))
        self._room = n + extra

    def reserve(self, plies, cells=0):
        """Room now, in one step each, for ``plies`` plies in the undo stack (2 bytes a
        ply) and ``cells`` cells of removed roots' records
        (2 bytes each): for a caller that knows the game will be long and that the
        heap has larger free blocks now than later in it (a 4p game's 1 KB steps of
        either, made during a search, found no block on a PyBadge)."""
        extra = plies - self._room
        if extra > 0:
            self._moves.extend(array("h", bytes(2 * extra)))
            self._room = plies
        extra = cells - len(self._rem)
        if extra > 0:
            self._extend_rem(extra)

    def make_room(self, plies, cells):
        """Room for ``plies`` more plies and ``cells`` more cells of removed
        roots' records, grown by the stacks' own steps (see
        :meth:`_grow_history`): the plies that follow grow no stack, so a
        MemoryError cannot break one off halfway (a search that plays on
        the game itself makes room so before it starts)."""
        while self._room < self._nh + plies:
            self._grow_history()
        while len(self._rem) - 6 < self._nrem + cells:
            self._grow_rem()

    def broken(self):
        """True while a ply that an exception broke off midway is on the game (a
        MemoryError on a board's full heap, where a removal's records grow): its
        stone is recorded and its tables half changed, which neither play nor
        undo can read; :meth:`replay` makes the game sound again. (A search's
        scratch game, loaded with :meth:`load_state`, never says so.)"""
        return self.ply < self._nh

    def replay(self, plies=None):
        """Play this game again from its setup, in place, through its first
        ``plies`` recorded plies (None: all of them, a ply :meth:`broken` off
        played whole); returns the game. The way back to a sound game after an
        exception broke a ply off. Its tables and stacks keep their room (see
        :meth:`restart`). Should an exception break the replay off in turn, the
        game stays :meth:`broken`, its record cut to ``plies``, for a replay
        later. ValueError, the game unchanged, for ``plies`` it has not played
        or a game begun at a position (``from_position``)."""
        return loaded("tanbo.game_make").replay(self, plies)  # (off a board's heap under a game)

    def last_move(self):
        """The last ply (a point, or ``-player`` for a resignation), or None
        before the first: what a redraw asks, without listing every ply."""
        n = self._nh
        return self._moves[n - 1] if n else None

    def moves(self):
        """The plies played, oldest first: points, or ``-player`` for a resignation."""
        return list(self._moves[:self._nh])

    def move_at(self, i):
        """Ply ``i`` of :meth:`moves` (0: the first), without building their list;
        IndexError past the plies played."""
        if not 0 <= i < self._nh:
            raise IndexError("ply %r: %d plies played" % (i, self._nh))
        return self._moves[i]

    def play_move(self, text):
        """Like :meth:`play`, from notation (``'D4'``)."""
        return self.play(self.variant.parse_point(text))

    def _rem_points(self, mark):
        """Stones removed by the last ply, whose block's roots begin at stack index ``mark``, sorted."""
        out = []
        rem = self._rem
        i = self._nrem - 4  # (below the block's ply and start)
        while i > mark:
            count = rem[i - 1]
            i -= count + 2
            for j in range(i, i + count):  # no slice: no temporary array
                out.append(rem[j])
        out.sort()
        return out

    def _check_player(self, player):
        if type(player) is not int or player not in self.pids:
            raise ValueError("%r: no such player in %s (1-%d)" % (player, self.variant.name, self.players))

    def resign(self, player=None):
        """Remove every root of ``player`` (default: side to move), as a ply.

        RULES.md 7: a player who resigns or leaves has all roots removed.
        Returns the removed points. Undo restores them.
        """
        if player is None:
            player = self.to_move
        self._check_player(player)
        if self.winner is not None:
            raise IllegalMove("the game is over (%s won)" % player_name(self.winner))
        if self.root_count[player] == 0:
            raise IllegalMove("%s is already out" % player_name(player))
        self._push_ply(-player)  # (first: a stack's step that finds no room changes nothing)
        rem = self._rem
        start = self._nrem
        if start >= len(rem) - 2:
            self._extend_rem(len(rem))
        rem[start] = self.to_move  # for undo, below the roots
        mark = start + 1
        self._nrem = mark
        for r in range(len(self.alive)):
            if self.alive[r] and self.root_player[r] == player:
                self._remove_root(r, True)
        self._close_block(start)
        self.ply += 1
        self._check_winner()
        if self.winner is not None:
            self.to_move = self.winner
        elif self.to_move == player:  # the turn passes to the next player with stones
            k = self.succ[player]
            while not self.root_count[k]:
                k = self.succ[k]
            self.to_move = k
        return self._rem_points(mark)

    def undo(self):
        """Take back the last ply (move or resignation). Returns its point (or -player).

        Raises ValueError when there is nothing to undo.
        """
        n = self._nh - 1
        if n < 0:
            raise ValueError("nothing to undo")
        self._nh = n
        e = self._moves[n]
        if self._top == n:  # the ply removed roots: put them back, latest first
            rem = self._rem
            i = self._nrem
            mark = rem[i - 2] << 8 | rem[i - 1]
            i -= 4
            if e < 0:
                mark += 1  # (a resignation's block begins with the side to move)
            while i > mark:
                count = rem[i - 1]
                r = rem[i - 2]
                i -= count + 2
                self._restore_root(r, i, count)
            if e < 0:  # a resignation: the side to move before it is below its roots
                i -= 1
                self.to_move = rem[i]
            self._nrem = i
            self._top = rem[i - 4] << 8 | rem[i - 3] if i else -1  # the block below
        if self.over:
            self.winner = None
            self.over = False
        self.ply -= 1
        if e < 0:
            return e
        # Lift c's stone from e (the head of its root's chain). e rejoins the
        # legal set of each player it touches once (c always: it was legal);
        # a neighbour it alone touched leaves c's; one it touched with a
        # second c stone joins it, credited to that stone's root.
        board, root_of, nxt, head, space, mine, legal_total, roots, theirs, succ, steps = self._hot
        c = board[e]  # the mover (its root, if removed, is back)
        self.to_move = c
        r = root_of[e]
        board[e] = 0
        head[r] = nxt[e]
        nxt[e] = NIL
        ds = steps[e]
        for ownk, lk, pk, cntk, k in theirs[c]:
            if cntk[e] == 1:  # e joins k's set, credited to the one k stone it touches
                for d in ds:
                    t = e + d
                    if board[t] == k:
                        break
                t = root_of[t]
                ownk[e] = t
                space[t] += 1
                n = legal_total[k]
                lk[n] = e
                pk[e] = n & 255
                legal_total[k] = n + 1
        ownc, lc, pc, cntc = mine[c]
        ownc[e] = r
        sr = space[r] + 1
        n = legal_total[c]
        lc[n] = e
        pc[e] = n & 255
        n += 1
        for d in ds:
            q = e + d
            m = cntc[q] - 1
            cntc[q] = m
            if board[q] == 0:
                if m == 0:  # r's root space through e alone
                    ownc[q] = NO_ROOT
                    sr -= 1
                    # q leaves the legal set, inlined: a call here would cost more than its steps
                    i = pc[q]
                    while lc[i] != q:  # the place's low byte (see tanbo.game_make.allocate)
                        i += 256
                    n -= 1
                    last = lc[n]
                    lc[i] = last
                    pc[last] = i & 255
                elif m == 1:  # touched by e and one more c stone, now that one alone
                    for d in steps[q]:
                        t = q + d
                        if board[t] == c:
                            t = root_of[t]
                            break
                    ownc[q] = t
                    if t == r:
                        sr += 1
                    else:
                        space[t] += 1
                    lc[n] = q
                    pc[q] = n & 255
                    n += 1
        space[r] = sr
        legal_total[c] = n
        return e

    # -- the hot path -------------------------------------------------------------
    def _place_loop(self, e, record=True, rng=None, limit=1):
        """Place the side to move's stone on legal point ``e`` and apply removals.

        ``record`` keeps the ply and the removed stones for undo (a scratch
        game passes False). With ``rng``, ``e`` is ignored: each ply places
        a uniformly random legal stone of the side to move instead, ``limit``
        plies in all (-1: to the end of the game), so a playout runs in one
        call with its tables in locals (on MicroPython a call with this many
        locals allocates its frame).
        """
        board, root_of, nxt, head, space, mine, legal_total, roots, theirs, succ, steps = self._hot
        c = self.to_move
        if record:  # _push_ply, inlined: a call costs as much as the push
            n = self._nh
            if n == self._room:
                self._grow_history()
            self._moves[n] = e
            self._nh = n + 1
        ply = self.ply
        stop = ply + limit  # never reached with limit -1
        pick = rng is not None  # (a bool tests cheaper than "is not None")
        if pick:
            x = rng.x
        while True:
            ownc, lc, pc, cntc = mine[c]
            n = legal_total[c] - 1
            if pick:
                # rng.below(n + 1), inlined (a call costs more than the
                # ply's whole pick): the same 29-bit step as tanbo.rng.Rng.
                t = (30069 * (x & 0x7FFF) + 12345) & 0x1FFFFFFF
                x = (t + (((30069 * (x >> 15)) & 0x3FFF) << 15)) & 0x1FFFFFFF
                e = lc[(x >> 13) % (n + 1)]
            r = ownc[e]
            # e leaves the mover's legal set (the swap-remove of the module
            # docstring) and its root's space (sr: space[r], written once)...
            ownc[e] = NO_ROOT
            sr = space[r] - 1
            # e leaves the legal set, inlined: a call here would cost more than its steps
            i = pc[e]
            while lc[i] != e:  # the place's low byte (see tanbo.game_make.allocate)
                i += 256
            last = lc[n]
            lc[i] = last
            pc[last] = i & 255
            # ...and the root space of any other colour's root it served.
            # Space only falls during a placement, so a root that reaches 0
            # here is bounded at the end of it: collect those (rarely any), in
            # the game's own cells (_bounded), so that no allocation, and no
            # MemoryError of a full heap, can break a ply off halfway.
            nb = 0  # roots bounded so far, the first nb cells of _bounded
            for ownk, lk, pk, _, k in theirs[c]:
                o = ownk[e]
                if o != NO_ROOT:
                    ownk[e] = NO_ROOT
                    so = space[o] - 1
                    space[o] = so
                    # e leaves the legal set, inlined: a call here would cost more than its steps
                    i = pk[e]
                    while lk[i] != e:  # the place's low byte (see tanbo.game_make.allocate)
                        i += 256
                    m = legal_total[k] - 1
                    last = lk[m]
                    lk[i] = last
                    pk[last] = i & 255
                    legal_total[k] = m
                    if so == 0:  # (o is k's root at e: no other k's, none seen twice)
                        self._bounded[nb] = o
                        nb += 1
            board[e] = c
            root_of[e] = r
            nxt[e] = head[r]
            head[r] = e
            for d in steps[e]:
                q = e + d
                m = cntc[q] + 1
                cntc[q] = m
                if board[q] == 0:
                    if m == 1:
                        ownc[q] = r
                        sr += 1
                        lc[n] = q
                        pc[q] = n & 255
                        n += 1
                    elif m == 2:
                        o = ownc[q]
                        ownc[q] = NO_ROOT
                        n -= 1
                        # q leaves the legal set, inlined: a call here would cost more than its steps
                        i = pc[q]
                        while lc[i] != q:  # the place's low byte (see tanbo.game_make.allocate)
                            i += 256
                        last = lc[n]
                        lc[i] = last
                        pc[last] = i & 255
                        if o == r:
                            sr -= 1
                        else:
                            so = space[o] - 1
                            space[o] = so
                            if so == 0:
                                b = self._bounded
                                i = 0
                                while i < nb and b[i] != o:
                                    i += 1
                                if i == nb:
                                    b[nb] = o
                                    nb += 1
            space[r] = sr
            legal_total[c] = n
            ply += 1
            if not sr or nb:
                mark = self._nrem
                if sr == 0:
                    # RULES.md 5: the current root bounded -> it alone goes.
                    self._remove_root(r, record)
                else:
                    # Otherwise every bounded root goes, all at once (collected
                    # above, since one removal can give space back to another).
                    b = self._bounded
                    i = 0
                    while i < nb:
                        self._remove_root(b[i], record)
                        i += 1
                if record:
                    self._close_block(mark)
                if self._check_winner() is not None:
                    c = self.winner
                    break
            # the next player who still has stones
            c = succ[c]
            while not roots[c]:
                c = succ[c]
            if ply == stop:
                break
        self.to_move = c
        self.ply = ply
        if pick:
            rng.x = x

    def _check_winner(self):
        """Set and return the winner (None while two or more players have stones)."""
        left = 0
        last = None
        for k in self.pids:
            if self.root_count[k]:
                left += 1
                last = k
        if left == 1:
            self.winner = last
            self.over = True
        elif left == 0:
            raise ValueError("position: there are no stones on the board")
        return self.winner

    # -- removal and restoration: the rare paths ------------------------------------
    def _remove_root(self, r, record):
        """Take root ``r`` off the board; ``record`` keeps its stones for undo."""
        board, root_of, nxt, head, space, mine, legal_total, roots, theirs, succ, steps = self._hot
        c = self.root_player[r]
        ownc, lc, pc, cntc = mine[c]
        if record:
            rem = self._rem
            nrem = self._nrem
            room = len(rem) - 6  # the root's stones, its two trailing cells, the block's four
        # The first walk takes r's touches off its outer neighbours' counts and
        # settles colour c's side, which only r's outer neighbours can
        # change: one r alone touched (r's root space, if r had any left)
        # leaves c's legal set; one now touching a single c stone will join
        # it, credited to that stone's root, once r's stones are off the
        # board. Those wait at the top of c's legal list, below the end:
        # each is an empty point outside the set, so they fit.
        top = len(lc)
        s = head[r]
        while s != NIL:
            for d in steps[s]:
                q = s + d
                k = board[q]
                if k == 0:  # r's stones still show: q is outside r
                    m = cntc[q] - 1
                    cntc[q] = m
                    if m == 1:
                        top -= 1
                        lc[top] = q
                    elif m == 0 and ownc[q] != NO_ROOT:  # (r's space is not kept: r is gone)
                        ownc[q] = NO_ROOT
                        # q leaves the legal set, inlined: a call here would cost more than its steps
                        i = pc[q]
                        while lc[i] != q:  # the place's low byte (see tanbo.game_make.allocate)
                            i += 256
                        m = legal_total[c] - 1
                        last = lc[m]
                        lc[i] = last
                        pc[last] = i & 255
                        legal_total[c] = m
                elif k != c:  # another colour's stone; a stone of c next to s is r's
                    cntc[q] -= 1
            cntc[s] = 0  # its c neighbours were all r's
            if record:
                if nrem >= room:  # grown as _grow_history grows its stacks: rarely
                    self._grow_rem()
                    room = len(rem) - 6
                rem[nrem] = s
                nrem += 1
            s = nxt[s]
        if record:
            rem[nrem] = r
            rem[nrem + 1] = nrem - self._nrem  # the stone count
            self._nrem = nrem + 2
        # Off the board; each freed point touching one stone of another
        # colour k becomes root space of that stone's root (its counts of k
        # are unchanged): a walk a colour, so each legal set gains its
        # points in stone order and pays for its tables once.
        for ownk, lk, pk, cntk, k in theirs[c]:
            m = legal_total[k]
            s = head[r]
            while s != NIL:
                board[s] = 0
                if cntk[s] == 1:
                    for d in steps[s]:
                        t = s + d
                        if board[t] == k:
                            break
                    t = root_of[t]
                    ownk[s] = t
                    space[t] += 1
                    lk[m] = s
                    pk[s] = m & 255
                    m += 1
                s = nxt[s]
            legal_total[k] = m
        # The waiting points of c, latest first (an append never reaches
        # one still waiting: it lands at or below the one just read). The
        # crediting steps are the walk's above, written again: one loop over
        # every colour's waiting points (the others' parked at the top of
        # their lists too) cost 5% more a removed stone, about 1% of a 9x9
        # playout (measured per stone: the order change replays other games).
        m = legal_total[c]
        for i in range(top, len(lc)):
            q = lc[i]
            if cntc[q] == 1:
                for d in steps[q]:
                    t = q + d
                    if board[t] == c:
                        break
                t = root_of[t]
                ownc[q] = t
                space[t] += 1
                lc[m] = q
                pc[q] = m & 255
                m += 1
        legal_total[c] = m
        self.alive[r] = 0
        roots[c] -= 1

    def _restore_root(self, r, i, count):
        """Put back root ``r``, whose ``count`` stones are ``_rem[i:i + count]``
        (undo of its removal; the game is as the removal left it)."""
        board, root_of, nxt, head, space, mine, legal_total, roots, theirs, succ, steps = self._hot
        rem = self._rem
        c = self.root_player[r]
        ownc, lc, pc, cntc = mine[c]
        prev = NIL
        j = i + count
        while j > i:  # the chain in its old order: rem holds it head first
            j -= 1
            s = rem[j]
            board[s] = c
            root_of[s] = r
            nxt[s] = prev
            prev = s
            for d in steps[s]:
                cntc[s + d] += 1
        head[r] = prev
        # Each stone leaves the other colours' legal sets it had joined.
        for ownk, lk, pk, _, k in theirs[c]:
            n = legal_total[k]
            s = prev
            while s != NIL:
                o = ownk[s]
                if o != NO_ROOT:
                    ownk[s] = NO_ROOT
                    space[o] -= 1
                    n -= 1
                    # s leaves the legal set, inlined: a call here would cost more than its steps
                    t = pk[s]
                    while lk[t] != s:  # the place's low byte (see tanbo.game_make.allocate)
                        t += 256
                    last = lk[n]
                    lk[t] = last
                    pk[last] = t & 255
                s = nxt[s]
            legal_total[k] = n
        # c's empty neighbours, on their final counts: r's root space where
        # r alone touches them; out of c's set where two c stones now do.
        n = legal_total[c]
        sr = 0
        s = prev
        while s != NIL:
            for d in steps[s]:
                q = s + d
                if board[q] == 0:
                    o = ownc[q]
                    if cntc[q] == 1:
                        if o == NO_ROOT:
                            ownc[q] = r
                            sr += 1
                            lc[n] = q
                            pc[q] = n & 255
                            n += 1
                    elif o != NO_ROOT:
                        ownc[q] = NO_ROOT
                        space[o] -= 1
                        n -= 1
                        # q leaves the legal set, inlined: a call here would cost more than its steps
                        j = pc[q]
                        while lc[j] != q:  # the place's low byte (see tanbo.game_make.allocate)
                            j += 256
                        last = lc[n]
                        lc[j] = last
                        pc[last] = j & 255
            s = nxt[s]
        legal_total[c] = n
        space[r] = sr
        self.alive[r] = 1
        roots[c] += 1

    # -- playouts -------------------------------------------------------------------
    def random_playout(self, rng, limit=-1):
        """Play uniformly random moves until the game ends (or ``limit`` plies).

        Each ply picks ``legal_move_at(rng.below(legal_count()))``. Records
        nothing for undo: call it on a scratch game (see :meth:`load_state`).
        Returns the winner (None if ``limit`` stopped it first).
        """
        if self.winner is None and limit != 0:
            self._place_loop(0, False, rng, limit)
        return self.winner

    # -- equality for tests and tools -----------------------------------------------
    def state_key(self):
        """Everything that defines the position, as comparable text and numbers."""
        legal = self.legal_moves()
        roots, spaces = [], []
        for r in range(len(self.alive)):
            roots.append(tuple(self.root_stones(r)))
            spaces.append(self.space[r] if self.alive[r] else 0)
        return (self.position(), self.to_move, self.winner, self.ply, tuple(legal), tuple(roots), tuple(spaces),
                self._stone_counts(), tuple(self.root_count))

    def _stone_counts(self):
        out = []
        for k in self.pids:
            out.append(self.stones(k))
        return tuple(out)

    # :meth:`play` for the search: ``play_unchecked(point)`` plays legal
    # ``point`` (nothing checks it) as a ply undo takes back; returns nothing.
    # The hot function itself, under its public name: one call a ply less.
    play_unchecked = _place_loop
