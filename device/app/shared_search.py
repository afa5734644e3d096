"""A search that plays on the caller's game, not on a copy: :class:`SharedSearch`.

On a PyBadge a 4p game, its search and its screen fit only without the
search's own copy of the game (11 KB of the board's heap) and with fewer
Zobrist words (app.screens.game.kept_search picks this class there). The
search then plays its plies on the app's game and takes them back. Undo
gives back every stone and table but not the order of each player's legal
list (a deletion swaps the last member into the hole; undo appends), on
which the next search's move order and every seeded pick depend:
:meth:`SharedSearch.run` keeps that order and puts it back, after the
search or after an exception (a MemoryError) broke it off. A subclass in a
module of its own, so that neither its code nor any work of its hashing
reaches the heap or the hot path of any other search; in the app, not in
tanbo, because only the app's small heap wants it (and the bundle's check,
tanbo_tools.ship.verify, imports every engine module at once on a heap that
has no room for 3 KB more of them). It reads the game's removal records
(``_nrem``, ``_rem``: tanbo.game's interface for a search) as tanbo.ai does.
"""


from tanbo.ai import DEFAULT_SLOWNESS, PUSH_COST, REMOVAL_COST, TT_BITS, WIN, Search
from tanbo.rng import Rng

if __import__("sys").implementation.name == "cpython":  # (MicroPython folds const() when it compiles)
    from tanbo.game import const

# SharedSearch.kept's cells (see SharedSearch.__init__); a search under
# way's base is -1 when none is.
_VARIANT = const(0)
_BASE = const(1)
_ORDER = const(2)
_PAUSE_AT = const(9)  # Search.held's cell: the node count at which tick pauses (tanbo.ai's _PAUSE_AT)

# Cells of removed roots' records (2 bytes each) that a search makes room
# for before it starts: nearly every hard 4p search removes fewer. A search
# that removes more grows the stack within a ply, where a MemoryError would
# leave half a ply on the game. More costs the game's stack its next 0.5 KB
# step sooner, near a game's end, where the heap is at its most fragmented
# (docs/board-costs.md#4p-on-a-pybadge-the-search-on-the-game-itself).
REMOVAL_CELLS = 128

# Cells of the legal lists' order kept at first (a point each: 2 bytes, a
# byte on boards of up to 256 points, Hexbo's): more than 4p's lists hold
# together at a search (docs/board-costs.md#4p-on-a-pybadge-the-search-on-the-game-itself),
# far below their bound (order_cells, 723); grown to the bound, at a
# search's start, if ever they hold more.
ORDER_CELLS = 256


def order_cells(g):
    """Cells the legal lists' order needs in ``g``: at most the largest degree
    times half the board (a legal point of k is an empty point with one k
    stone beside it, so the lists' lengths add up to at most the stones'
    empty neighbours and to at most the empty points' stone neighbours)."""
    degree = 0
    for ds in g.steps:
        if len(ds) > degree:
            degree = len(ds)
    return degree * g.variant.size // 2 + 1


def points(size, n):
    """``n`` cells of zeros for points of a board of ``size`` points: a byte
    each up to 256 points (3- and 6-player Hexbo's order 256 B of a board's
    heap less), else 2."""
    return bytearray(n) if size <= 256 else Search.zeros("H", n)


class SharedSearch(Search):
    """A :class:`tanbo.ai.Search` on ``game`` itself (the app's): the same
    levels and budgets, no copy. Its Zobrist words and transposition table
    are smaller (see :meth:`hashing`), so it may play another move than a
    Search in a few positions (none of 100 4p searches did); without
    pondering (between its steps the game would hold its plies)."""

    shared = True

    def __init__(self, game, level="medium", seed=0, progress=None, movetime_ms=None,
                 slowness=DEFAULT_SLOWNESS):
        # The variant's name (the game is let go between games: release), a
        # search under way's base: the game's plies before it (see restore),
        # and the legal lists' order: one attribute, as Search groups its own
        # (its instance dict's size, see Search.__init__'s end).
        self.kept = [game.variant.name, -1, points(game.variant.size, ORDER_CELLS)]
        Search.__init__(self, game, level, seed, progress, movetime_ms, slowness)

    def own(self, game, compact=False):
        return game

    def hashing(self, players, size):
        """Search's table and words, smaller. The words: one row of 27-bit
        words, times the colour (1-6: still a small int), then the side to
        move's words at ``zob[-c]``: 4p's 1.5 KB where a row a colour took
        5.8. A multiple, not the word XORed with a colour's constant: those
        would cancel in pairs (Black on a and White on b hashing as White on
        a and Black on b). Drawn as Search draws its rows, the first row's
        words kept. The table: half of Search's entries (1 KB), so each
        word's low byte is below 32 (the side's below 128): times 4 at most,
        XORed, a key's TT_BITS low bits then pick one of the first half.
        With 5 or 6 players (Hexbo) below 16: times 6 at most, still
        below 128 (below 32, a key past the table's end)."""
        zob = self.zob = self.zeros("i", size + players)
        low = 0x7FFFF1F if players <= 4 else 0x7FFFF0F
        if self.tt:
            zr = Rng(0x7A0B)
            for i in range(2 * size):
                w = (zr.below(65536) << 13) ^ zr.below(65536)
                if i >= size:
                    zob[i - size] = (w >> 2) & low
                elif 0 < i <= players:
                    zob[-i] = w & 0x1FFFFF7F
            n = 1 << (TT_BITS - 1)
            self.table = (self.zeros("H", n), self.zeros("i", n), self.zeros("H", n))

    def fits(self, game):
        return game.variant.name == self.kept[_VARIANT] and len(game.alive) == len(self.terms[1])

    def release(self):
        """Let the game go (the app's, when its next game starts: 4p's 11-15 KB
        would stay on the heap while the next is made); :meth:`start` gives
        the next."""
        self.game = None

    def start(self, game, seed=0, progress=None, movetime_ms=None, load=True):
        if load and not self.fits(game):
            raise ValueError("Search.start: %s with %d roots is not the game this search was made for"
                             " (%s, %d roots)" % (game.variant.name, len(game.alive), self.kept[_VARIANT],
                                                  len(self.terms[1])))
        self.game = game
        size = game.variant.size
        # Search.start hashes the stones by its rows of words, from size: none here; its one row below.
        self.size = 0
        Search.start(self, game, seed, progress, movetime_ms, False)
        zob, board = self.zob, game.board
        h = 0
        for p in range(size):
            if board[p]:
                h ^= zob[p] * board[p]
        self.h = h

    def run(self):
        """Search.run on the game itself, which is then as it was (its plies
        taken back, its legal lists in their order), also when an exception
        broke the search off."""
        self.game.make_room(self.max_depth + 1, REMOVAL_CELLS)
        self.keep_order()
        self.kept[_BASE] = self.game.ply
        try:
            self.held[_PAUSE_AT] = WIN  # (never paused: Search.run's loop, not a call of it: a frame less on the pystack)
            for _ in self.walk():
                pass
            return self.move
        finally:
            self.restore()

    def keep_order(self):
        """Note the game's legal lists in their order (:meth:`restore` puts them back).
        Apart from :meth:`run`, whose frame stays under the search on the pystack:
        its loops' locals and iterators would take 56 bytes there, more than
        hexbo-3p's search on a PyBadge leaves of the 1,472."""
        g = self.game
        order = self.kept[_ORDER]
        if sum(g.legal_total) > len(order):
            order = self.kept[_ORDER] = points(g.variant.size, order_cells(g))
        i = 0
        for k in g.pids:
            lk = g.legal_points[k]
            for j in range(g.legal_total[k]):
                order[i] = lk[j]
                i += 1

    def restore(self):
        """The game as it was at :meth:`run`'s start: its plies taken back (played
        again to it after a ply broken off), its legal lists in their order
        (``legal_index`` of each member with them)."""
        g = self.game
        kept = self.kept
        if kept[_BASE] < 0:
            return
        if g.broken():  # an exception broke a ply off: undo cannot read it
            g.replay(kept[_BASE])
        while g.ply > kept[_BASE]:
            g.undo()
        kept[_BASE] = -1
        order = kept[_ORDER]
        i = 0
        for k in g.pids:
            lk, pk = g.legal_points[k], g.legal_index[k]
            for j in range(g.legal_total[k]):
                p = order[i]
                lk[j] = p
                pk[p] = j & 255
                i += 1

    def push(self, m):
        """Search.push with this class's words (see :meth:`hashing`): only
        here, so that the hot path of every other search is as it was."""
        g = self.game
        zob = self.zob
        h = self.h ^ zob[m] * g.to_move
        mark = g._nrem
        g.play_unchecked(m)
        if g._nrem == mark:
            self.count(PUSH_COST)
        else:
            rem, rplayer = g._rem, g.root_player
            i = g._nrem - 4  # (below the ply's block's ply and start: tanbo.game)
            while i > mark:
                k = rem[i - 1]
                c = rplayer[rem[i - 2]]
                i -= k + 2
                for j in range(i, i + k):
                    h ^= zob[rem[j]] * c
            self.count(PUSH_COST + REMOVAL_COST)
        self.h = h

