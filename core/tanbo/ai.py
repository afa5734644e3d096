"""The computer opponent: four levels, from random moves to a small search.

Where to start reading: :func:`choose_move` at the bottom picks the level;
:meth:`Search.run` is the search loop (iterative deepening over the root
moves); :meth:`Search.minimax` the tree walk (paranoid alpha-beta: every
other player is assumed to play against the mover, so 2, 3, 4 and 6 players share
the code; a loop over per-ply arrays, not a recursion, which CircuitPython's
1.5 KB pystack would not hold); :meth:`Search.scan` values every move of a position at once:
it is the whole last ply, and it ranks an inner node's moves for the beam
(by forcing keys, without valuing them: the beam's children are searched).
A transposition table keeps each minimax result, so a position that two
move orders reach is searched once (see TT_BITS).

Every tunable is named in the block below, with the level table beside it.
All randomness comes from :class:`tanbo.rng.Rng`, so a level with a seed
plays the same move on CPython, MicroPython and CircuitPython.

Budgets are counted in *nodes*, which is deterministic: a move valued by
:meth:`Search.scan` is one node, a stone really placed and taken back costs
``PUSH_COST`` (``PLAYED_COST`` with its evaluation), in proportion to their
board time, so a node budget is a time budget. The budget depends on the
board (``slowness``: an RP2040 is budgeted at 4.4 times a SAMD51's time a
node); a wall clock cap (``movetime_ms``) can only shorten a search.

Why a node is cheap: the evaluation is a sum over roots of a value of the
root's root space, and a stone changes the root space of at most a few
roots, all found from the engine's per-point tables (the own-neighbour
counts and the root credited with each point). So :meth:`Search.scan`
values a move by adjusting the parent's sum, without playing it; only a
move that bounds a root (a removal: the tactics) is really played and taken
back on the search's one copy of the game.

What root space misses: a root with room now may be walled in, and a
walled root dies once it has to grow (measured: hard lost to a plain UCT
from "won" positions, a root up, whose roots had nowhere left to go). So
hard also values each root's *reach* (:meth:`Search.reach`, the empty
points it gets to before any other colour) after each of its own moves,
and adds it to every value found under that move. Valued at the leaves
instead, it cost a ply of depth and lost more games (12 of 20 against
uct:5000 won, against 19 of 20 this way).

In pieces: :func:`step` runs a search a few nodes at a time, for an app
that reads its buttons between pieces (thinking on the opponent's time,
tanbo.ponder; Review's coach, tanbo.coach). :meth:`Search.walk`, the loop of :meth:`Search.run`,
is a generator that yields where :meth:`Search.tick` has paused the
search: at a node's entry (minimax keeps every ply's state in arrays, so
it only needs the ply to go on), at a scan's next move, at a root move or
a reach's next 8 points; a stepped search searches the same nodes in the
same order as one run at once, and plays the same move.

Memory: one copy of the game (a fast one, with list tables, on boards of
up to ``FAST_COPY_POINTS`` points), the move buffers of each depth, one
copy of a legal list, the transposition table (2 KB) and its hash words
(4 bytes a point and colour) and a few per-point and per-root arrays: a
:class:`Search`, made once a game and reused for each move
(:meth:`Search.start`), with the root's lists (moves, noise, scores: a
word a root move each, sorted in C: they cost less board time than
arrays sorted in Python), cut to each search's moves in place. A move's
search allocates its random generator, its walk (a generator) and the
lists' 16-byte cuts; the walk allocates nothing else (the engine's
removals a little).
"""

import time
from array import array

from .game import FAST_COPY_POINTS, NO_ROOT

if __import__("sys").implementation.name == "cpython":  # (MicroPython folds const() when it compiles)
    from .game import const

# The cells of Search's grouped attributes (one attribute a group: see the
# end of Search.__init__), by name; a leading underscore makes each a
# literal in the compiled code, with no global.
# held: where a paused search stands (see step).
_AT_PLY = const(0)  # the ply whose node minimax re-enters (0: none; -ply-1: before the next move of ply's node)
_SCAN_NEXT = const(1)  # a paused scan's next move (0: none paused)
_SCAN_TOP = const(2)  # its kept entries
_SCAN_BEST = const(3)  # its best
_SCAN_FROZEN = const(4)  # whether it reads the copy of its list
_REACH_TAIL = const(5)  # label_reach's queue's end (0: not paused)
_REACH_HEAD = const(6)  # its head
_REACH_MARK = const(7)  # its next count
_REACH_COUNTED = const(8)  # the nodes it has counted
_PAUSE_AT = const(9)  # the node count at which tick pauses
_LIMIT = const(10)  # the next search's node limit (Search.limit; 0: the level's budget)
# frames: minimax's state a ply (see minimax).
_LO = const(0)  # alpha
_HI = const(1)  # beta
_LO0 = const(2)  # alpha on entry
_HI0 = const(3)  # beta on entry
_INDEX = const(4)  # the next move's index in the ply's buffer
_COUNT = const(5)  # its move count
_BEST = const(6)  # its best move
_HASH = const(7)  # its hash
_SLOT = const(8)  # its transposition-table entry
_CHECK = const(9)  # that entry's check
_KILLER = const(10)  # the ply's killer move
# work: reach's work space (see label_reach).
_LABEL = const(0)  # per point its label
_DIST = const(1)  # per point its distance
_QUEUE = const(2)  # the labelled points
_REACHED = const(3)  # per root its count
from .rng import Rng


LEVELS = ("random", "easy", "medium", "hard")

# What each level does: docs/ai.md's table (Levels). Not here: no menu shows it,
# and its lines would take 0.45 KB of a board's heap beside every search.

# -- boards -----------------------------------------------------------------------
# ``slowness``: board time per instruction relative to a SAMD51 at 120 MHz
# (PyBadge, PyGamer = 1.0; the PicoSystem's RP2040 = 4.4). Budgets below are
# a SAMD51's; a slower board gets proportionally fewer nodes, so a move takes
# about the same time everywhere. The default is the slowest board's, so a
# seed gives the same move on every board unless told otherwise.
# The RP2040's 4.4 carries a margin over the ~4.1 its firmware runs at,
# so that hard stays 11-13% under its limits (3 s, 6 s), which the app's
# wall-clock cap enforces (docs/ai.md#budgets).
SLOWNESS = {"samd51": 1.0, "rp2040": 4.4}
DEFAULT_SLOWNESS = 4.4

# -- the level table ----------------------------------------------------------
# level: (max depth in plies, beam: moves searched deeper at an inner node
#         (0 = all), node budget on boards of <= 125 points, node budget on
#         larger boards, root noise: random points added to each root
#         move's score, reach: the largest board, in points, whose root
#         moves are valued with their reach, see Search.reach: on 19x19
#         it would take most of an RP2040's budget). Budgets are a
#         SAMD51's (see SLOWNESS).
# Board time per move ~= nodes x node cost. Measured with `tanbo bench --ai`
# (its last lines, as printed: the mean over its four probe positions; board
# time from exact instruction counts, tanbo_tools.board_time; each board
# with its own budget; CPython wall clock on a loaded machine):
#
# | level | board | nodes (SAMD51 / RP2040) | CPython ms | SAMD51 ms | RP2040 ms |
# |---|---|---|---|---|---|
# | easy | 9x9 | 58 | 0.2 | 19 | 77 |
# | easy | 13x13 | 195 | 0.8 | 42 | 171 |
# | easy | 19x19 | 198 | 0.7 | 61 | 249 |
# | medium | 9x9 | 95 | 0.2 | 28 | 114 |
# | medium | 13x13 | 351 / 256 | 0.6 / 0.5 | 86 | 295 |
# | medium | 19x19 | 379 / 257 | 2.2 / 2.6 | 110 | 387 |
# | hard | 9x9 | 10964 / 4201 | 13.1 / 5.4 | 1188 | 1967 |
# | hard | 13x13 | 40806 / 8125 | 39.4 / 7.4 | 4244 | 3850 |
# | hard | 19x19 | 43998 / 8127 | 39.9 / 11.2 | 4839 | 4184 |
#
# A hard search often ends below its budget (LAST_PASS), so the budget
# is the worst case, not the mean. Worst of the four positions: hard 9x9
# 1334 ms SAMD51, 2394 ms RP2040; 13x13 5284 and 4664 ms; 19x19 5281 and
# 5438 ms (the limits: 3 s and 6 s on every board). Each includes a fresh
# Search's set-up (the app's reused one skips it). The table's history:
# docs/ai.md#what-a-move-costs.
LEVEL_TABLE = {
    "random": (0, 0, 0, 0, 0, 0),
    "easy": (1, 0, 3400, 3400, 30, 0),
    "medium": (2, 0, 1700, 1200, 6, 0),
    "hard": (8, 6, 26500, 48000, 2, 125),
}

# -- evaluation weights (points; a root is worth ROOT) ---------------------------
WIN = 1000000  # a won game, minus its length so quicker wins come first
# ROOT: each live root. SPACE[s]: a root with root space s (capped at the
# last entry), concave: the first few points decide whether it survives.
# ROOM: each point of root space beyond SPACE (mobility). HANGING: a root
# with space 1 whose owner is not to move (likely lost). REACH[t]: what a
# root gains from the t empty points it reaches first (see Search.reach;
# capped at the last entry): a walled root dies once it must grow. A table
# in tanbo.weights, which `tanbo train` fits to game outcomes; imported
# here, among the tables, so that the module's globals keep their order:
# where a global sits in the module's table sets what each lookup of it
# costs (two globals more cost easy 7% more board time).
from .weights import ROOT, SPACE, ROOM, HANGING, REACH  # noqa: E402
EASY_REMOVE = 100  # easy level: per opposing root a move removes (own: minus)
EASY_HANGING = 50  # easy level: per own root a move leaves with root space 1
EASY_ROOM = 10  # easy level: per legal point (= own root space) after the move

# Ordering keys of an inner node's moves (the beam keeps the most forcing:
# a quiet expansion often looks better statically than an attack, and a
# beam by value alone would not see the fights).
FORCING = 1  # 1: order inner nodes by these keys; 0: by the value after the move
KEY_CAPTURE = 64  # the move fills an opposing root's last root space
KEY_ATTACK = (0, 0, 24, 12, 6, 3)  # ... takes a point of a root with space s
KEY_RESCUE = (0, 20, 10)  # ... extends an own root with space s
KEY_BASE = 8  # keeps keys >= 0 after the per-neighbour adjustments (+1 an empty
# neighbour the move opens, -1 one it closes)

# Move buffers hold (value << SHIFT | point) in one small int: the value is
# clamped to KEY_MAX in magnitude (ordering only needs it roughly; wins are
# at the clamp), points fit in SHIFT bits (boards up to 25x25 = 625).
SHIFT = 10
KEY_MAX = (1 << 18) - 1

# A stone really placed and taken back costs several scanned moves of
# board time: it counts as PUSH_COST nodes, REMOVAL_COST more if it removed
# a root (removal and restoration walk the root's stones), and a move of a
# scan that had to be played (always a removal, plus an evaluation) as
# PLAYED_COST, so that a node budget stays a time budget in the fights of
# the late game too (a scanned move is ~12k Cortex-M4 instructions, a
# removal played and taken back 16-18 times that).
PUSH_COST = 6
REMOVAL_COST = 12
PLAYED_COST = 18
# Search.reach costs REACH_COST nodes plus REACH_EIGHTHS eighths of a node
# per point it labels (measured: 26k Cortex-M4 instructions plus 7.2k a
# point; a scanned move costs ~12.3k).
REACH_COST = 2
REACH_EIGHTHS = 5
CONTESTED = 255  # Search.reach's label of a point two colours reach at once

# The transposition table (levels searching 3 plies or more, at most 15):
# 2**TT_BITS entries of 8 bytes, each the result of one minimax call, keyed
# by a hash of the stones and the side to move (Zobrist: the XOR of a
# random 29-bit word per colour and point, kept by Search.push). The same
# position reached by two move orders is searched once, and a shallower
# search's best move there goes first. TT_BITS of the hash pick the entry,
# its next 16 bits check it. 256 entries: hard's searches make ~2,000
# minimax calls on 9x9 (more entries found 1-4% fewer nodes to a depth,
# each 256 costing 2 KB of the search's 30 KB).
TT_BITS = 8
EXACT, LOWER, UPPER = 1, 2, 3  # an entry's value is the value, at least it, at most it
NO_VALUE = -2 * WIN  # minimax: a node's value not known yet (below every value)

# Nodes between progress callbacks and clock reads: a node costs about
# 0.1 ms of SAMD51 time, so the UI hears from the search every ~2.5 ms
# (~8.5 ms on an RP2040). The longest gap is one root move's reach: on an
# empty 19x19 board ~230 nodes, ~30 ms (~100 ms on an RP2040), still
# inside the 150 ms the spinner needs.
PROGRESS_EVERY = 24
# A deeper pass begins only if the budget left holds LAST_PASS times the
# nodes the last pass's first root move took. A pass stopped within its
# first root move plays the pass before's move, and one stopped after it
# the same unless a later root move also finishes above it: the nodes
# before such a stop were mostly wasted. At 10 hard 9x9 saves 28% of its
# nodes for 5% of its moves changed and no strength lost, and a second
# pondered candidate finishes within 0.3 s of a player's stone more often
# (docs/ai.md#how-hard-searches).
LAST_PASS = 10
# Plies from the setup within which a search with a book (Search.book) asks it: tanbo.book.
BOOK_PLIES = 8


def _now_ms():
    """Milliseconds from a fixed point, as an int, on any interpreter.

    MicroPython: ``ticks_ms`` (wraps; compared with :func:`_passed`).
    CPython and CircuitPython: ``monotonic_ns`` (CircuitPython's float
    ``monotonic`` loses millisecond precision after hours of uptime).
    """
    if hasattr(time, "ticks_ms"):
        return time.ticks_ms()
    if hasattr(time, "monotonic_ns"):
        return time.monotonic_ns() // 1000000
    return int(time.monotonic() * 1000)


def _passed(deadline):
    """True once the clock of :func:`_now_ms` has reached ``deadline``."""
    if hasattr(time, "ticks_diff"):
        return time.ticks_diff(time.ticks_ms(), deadline) >= 0
    return _now_ms() >= deadline


def _root_room(n, size):
    """Cells of the root's lists for ``n`` root moves on a board of ``size``
    points: ``n`` and 8 more, never past the board's points."""
    return n + 8 if n + 8 < size else size


def node_budget(level, size, slowness=DEFAULT_SLOWNESS, cost=100):
    """The node budget of ``level`` on a variant of ``size`` points, on a board of ``slowness``,
    whose node costs ``cost`` percent of a square board's (the variant's
    ``node_cost``: Hexbo's nodes cost more, see :mod:`tanbo.hexbo`).

    Integer arithmetic on the slowness in tenths, so every interpreter
    (CircuitPython's floats are 32-bit) gets the same budget.
    """
    if level not in LEVEL_TABLE:
        raise ValueError("%r: unknown level (known: %s)" % (level, ", ".join(LEVELS)))
    if not (isinstance(slowness, (int, float)) and 0.1 <= slowness <= 100):
        raise ValueError("slowness %r: must be a number from 0.1 to 100 (SAMD51 = 1.0, RP2040 = 4.4)"
                         % (slowness,))
    small, large = LEVEL_TABLE[level][2:4]
    return (small if size <= 125 else large) * 1000 // (int(slowness * 10 + 0.5) * cost)


# Board time a node takes on a SAMD51 (us): hard's 26,376 nodes in 2,765 ms
# (board-time instrument, means of tanbo bench --ai's positions); a board
# of slowness s takes s times that (RP2040, 4.4: 0.46 ms; its firmware
# measured 0.42-0.477).
NODE_US = 105


def nodes_in(ms, slowness):
    """Nodes a board of ``slowness`` searches in ``ms`` milliseconds."""
    return int(ms * 1000 // (NODE_US * slowness))


# A round of the computer's replies: against several computer players in a
# row (6-player Hexbo's five against one person) the person waits for them
# all, so their searches share ROUND_MS of board time, each move a share of
# what the round has left (the app's App.set_up_search), never more than its
# level's budget. The round's drawing comes on top (an RP2040 draws a move in
# ~0.2 s, a removal's flash in 0.66 s): 5 s of search keep a round of five
# replies within 6 s. (Each hexbo-6p reply at hard took 1.2-2.7 s on the
# firmware, its round 7.3-8.9 s.)
ROUND_MS = 5000


def round_nodes(slowness, cost=100):
    """The nodes a round of computer moves shares (``ROUND_MS``) on a board of
    ``slowness``, in a variant whose node costs ``cost`` percent of a square board's."""
    return nodes_in(ROUND_MS, slowness) * 100 // cost


def step(search, nodes):
    """Search about ``nodes`` more nodes of ``search`` (a :class:`tanbo.ai.Search`
    set up by its ``start``), then pause; True once the search is done.

    The move is then ``search.move``. A pause comes at the first point
    that can resume after ``nodes`` (a node's entry, a scan's next move, a
    root move), so a step overshoots by at most one real play
    (``PUSH_COST + REMOVAL_COST`` or ``PLAYED_COST`` nodes) or, on boards
    of at most 125 points, one root move's reach (see ``Search.reach``). A
    search run in steps plays the same move as ``Search.run``: the same
    nodes in the same order. Here, not in tanbo.ponder: Review's coach
    (tanbo.coach) steps its searches too, and the review drops
    tanbo.ponder's 3 KB (app.screens.review); its 0.2 KB here cost less than
    a module of their own (0.4 KB, beside pondering's peak at its 30 KB).
    """
    if search.walker is None:
        search.walker = search.walk()
    search.paused = False
    at = search.held[_PAUSE_AT] = search.iterations + nodes  # (the count at which tick pauses)
    if search.next_tick > at:
        search.next_tick = at  # tick is where the pause is noticed
    try:
        next(search.walker)
    except StopIteration:
        search.walker = None
        return True
    return False


class Search:
    """Move decisions for one game: its arena, allocated once, reused for every move.

    ``Search(game, level, seed).run()`` returns a point for ``game``'s
    position. For the next move of the same game, ``start(game, seed)``
    then ``run()``: the search keeps every array it made (its game copy,
    move buffers, transposition table, hash words, reach work space), so a
    game's searches allocate their big blocks once, on the heap as it was
    when the game began, not anew on a heap fragmented by the moves before
    (a second 19x19 search wants 4.3 KB in one piece, which a PyBadge's
    heap no longer has). A reused search plays exactly as a fresh one: the same
    nodes, the same move.

    ``game`` is copied once, and loaded again by :meth:`start`; the
    original is never touched. After :meth:`run`, ``iterations`` holds the
    nodes searched, ``depth`` the deepest finished iteration and ``score``
    the chosen move's value. ``limit_ms`` is the move's time limit on the
    boards (3 s on boards of up to 125 points, 6 s beyond): node budgets
    keep within it; the app caps its wall clock there as well.
    """

    forcing = FORCING  # (a class attribute: not in the instance's table, see __init__'s end)
    book = None  # path of an opening book (tanbo.book) that hard plays from, set by the caller
    book_error = None  # why a book was refused (then no longer asked)

    def __init__(self, game, level="medium", seed=0, progress=None, movetime_ms=None, slowness=DEFAULT_SLOWNESS,
                 compact=False):
        size = game.variant.size
        self.budget = node_budget(level, size, slowness, game.variant.node_cost)
        self.level = level
        self.slowness = slowness
        self.limit_ms = 3000 if size <= 125 else 6000  # (the boards of node_budget's two budgets)
        self.max_depth, beam, _, _, self.noise, reach_max = LEVEL_TABLE[level]
        self.with_reach = size <= reach_max
        g = self.game = self.own(game, compact)
        zeros = self.zeros
        # Per-depth move buffers, as wide as the beam: 4 bytes a cell. The
        # root's is its scores' list, as wide as the root's moves; then the
        # root's moves (bufs[-2]) and their noise (bufs[-1]): see below.
        width = beam or size
        # The root's lists: its scan's buffer, then its scores (bufs[0]), its
        # moves (bufs[-2]) and their noise (bufs[-1]), a word a root move each
        # (the first two sorted in C as lists), made here, on the heap as it is
        # at the game's start, and cut to each search's moves in place (see
        # cut): made anew each search, late in a game they would be blocks a
        # fragmented heap has none of (a PyBadge's 4p search near its end has
        # no 616-byte block for its scores). In bufs, not attributes of their
        # own: the instance's members' layout sets every search's board time
        # within 1-2%.
        # Root moves its lists hold from the start (bufs[-1]'s length): the most
        # seen (hard against random moves, 3-4 games each: 9x9 26, 13x13 59,
        # dense-11 60, 3d 46, 19x19 110, 4p 71, hexbo 61, hexbo-3p 42,
        # hexbo-6p 35), fewer the more players share the board; with room on
        # the large boards, whose heap is short (13x13 71, 19x19 143, 4p 98,
        # hexbo 89, hexbo-3p 73, hexbo-6p 48; hexbo-5-6p 19, whose 8 a grown
        # list would cost 1.2 KB between games), none on the small boards of
        # two, where a 9x9 search and its pondering stay within 30 KB so
        # (tests/test_device_memory.py; 9x9 26, dense-11 41, 3d 42). A root
        # with more grows them to its moves and 8 more (walk), not to the
        # board's points: 3d's 125 are a block too large late in a game.
        cells = size * 3 // (2 * g.players + 4) + (-4 if size <= 125 and g.players == 2 else 8)
        cells = cells if cells < size else size
        if self.max_depth < 2:
            cells = 0  # (random and easy never scan a root: walk)
        elif max(g.legal_total) > cells:
            # Grown now, as walk would grow them at the first search (dense-11's
            # setup has 60 moves a side, its lists 41 cells): not there, late,
            # beside the 41 cells' lists left as holes (a search made after
            # dense-11's board found no 968 B block at 123,000 B).
            cells = _root_room(max(g.legal_total), size)
        bufs = self.bufs = [None] * (self.max_depth + 3)  # (at its length: no regrowth)
        for d in range(1, self.max_depth + 1):
            bufs[d] = zeros("i", width)
        bufs[0] = [0] * cells
        bufs[-2] = [0] * cells
        bufs[-1] = zeros("i", cells)  # (never sorted: an array, its first len(moves) read)
        # The copy of the legal list being scanned, taken once a move is
        # really played (see frozen). One for all depths: a scan plays and
        # takes back its moves before the next scan starts. It shares its
        # block with root_moves' value of each root move, by point, which is
        # written after the root's scan and read before the next scan: 4
        # bytes a cell for both, where two tables would take 6. (One attribute, as
        # every group below: see the dict's size at the end of __init__.)
        self.snap = zeros("i", size)
        plies = self.max_depth + 1
        # Per ply, minimax's state of the node being searched there: its
        # bounds (now and on entry), its next move's index in its buffer,
        # its move count, its best move, its hash, its transposition-table
        # entry (whether its mover is ``me`` is the game's side to move).
        # In one tuple (one block: a list is two), read into locals where
        # minimax starts (once a root move, not a node): alpha, beta, their
        # values on entry, index, count, best, hash, slot, check; then per
        # depth the killer move (see minimax).
        self.frames = (zeros("i", plies), zeros("i", plies), zeros("i", plies), zeros("i", plies),
                       zeros("h", plies), zeros("h", plies), zeros("h", plies), zeros("i", plies),
                       zeros("H", plies), zeros("H", plies), zeros("h", plies))
        self.size = size
        self.tt = self.max_depth >= 3
        self.hashing(g.players, size)
        # VALUE[s]: a live root with root space s, before the hanging penalty.
        last = len(SPACE) - 1
        value = zeros("h", size + 1)  # at most 1,500 (2,000 on Hexbo) + 30 a point: 20,250 on 625 points
        w = game.variant.space_weight  # (percent: Hexbo's roots weigh their first points more)
        for s in range(size + 1):
            value[s] = ROOT + SPACE[s if s < last else last] * w // 100 + ROOM * s
        # Per root: its weight in the sum (own roots count for the others
        # together when 4 play; set by start), and its current term during a
        # scan. With VALUE, one tuple: terms.
        nroots = len(g.alive)
        self.terms = (value, zeros("h", nroots), zeros("i", nroots))
        self.unsafe = bytearray(size)  # root moves that remove one of the mover's roots
        # Ordering keys by root space, as tables (a root's space <= board
        # size): attack, rescue.
        attack = bytearray(size + 1)
        rescue = bytearray(size + 1)
        for s in range(1, size + 1):
            attack[s] = KEY_CAPTURE if s == 1 else (KEY_ATTACK[s] if s < len(KEY_ATTACK) else 1)
            rescue[s] = KEY_RESCUE[s] if s < len(KEY_RESCUE) else 0
        self.keys = (attack, rescue)
        # Search.reach's work space (levels that use it): per point its
        # label (root + 1, or CONTESTED; all 0 between calls) and distance,
        # the queue of labelled points, per root its count.
        if self.with_reach:
            self.work = (bytearray(size), bytearray(size), zeros("h", size), zeros("h", nroots))
        # Where a paused search stands (see step): the ply whose node minimax
        # re-enters; a scan's next move (0: none paused), its kept entries,
        # its best and whether it reads the copy of its list (frozen);
        # label_reach's queue's end (0: not paused), head, next count and
        # the nodes it has counted; the count at which tick pauses. Set by
        # start, but for label_reach's; the next search's node limit (limit,
        # 0: the budget). A root move and the reply the search expects to it
        # (see start).
        self.held = [0] * 11
        self.expected = [-1, -1]
        # The instance's attributes live in a hash table that MicroPython
        # grows, when full, through 29, 37, 47, 59, 73 slots (8 bytes each on
        # a board): each group here is one attribute, so a search's table is
        # 37 slots (296 B) where 63-70 attributes would take 73 (584 B, a
        # block a 6-player Hexbo game's second search finds no room for),
        # after a 59-slot one freed as it grew; and a miss (each method call
        # looks in it first) searches fewer slots. tests/test_ai.py holds
        # them to 37: a new one joins a group read with it.
        self.start(game, seed, progress, movetime_ms, False)

    def own(self, game, compact=False):
        """The game this search plays on: a copy of ``game`` (app.shared_search's
        search plays on ``game`` itself), fast on boards of up to
        ``FAST_COPY_POINTS`` points unless ``compact`` (a SAMD51's heap: 28
        bytes a point less, 3.4 KB on dense-11, for 7% more instructions a
        ply; the same moves)."""
        return game.copy(fast=not compact and game.variant.size <= FAST_COPY_POINTS)

    def hashing(self, players, size):
        """The transposition table and its hash (see TT_BITS), for levels that
        search 3 plies or more (the others keep a hash of zeros). Zobrist
        words, 4 bytes each: ``zob[(c - 1) * size + p]`` for a stone of
        colour c on p, then the side to move's word at ``zob[-c]``. (A row
        of words for "no stone" held those few: 1.4 KB of 19x19's arena
        unused.) The words are drawn as they were for that layout, row 0
        first."""
        zob = self.zob = self.zeros("i", players * size + players)
        if self.tt:
            zr = Rng(0x7A0B)
            for i in range((players + 1) * size):
                w = (zr.below(65536) << 13) ^ zr.below(65536)  # 29 bits: a small int
                if i >= size:
                    zob[i - size] = w
                elif 0 < i <= players:
                    zob[-i] = w
            n = 1 << TT_BITS
            # The entries' checks, values and infos (depth | flag << 4 | (best move + 1) << 6; 0: empty).
            self.table = (self.zeros("H", n), self.zeros("i", n), self.zeros("H", n))

    @staticmethod
    def zeros(typecode, n):
        """An array of ``n`` zeros, allocated in one piece with no temporary.

        ``array(t, bytes(k))`` first makes the ``bytes``, as big as the
        array: twice the block at once. From a ``range`` the
        array is made at its length and filled in place (MicroPython and
        CircuitPython take the length of a ``range``), then zeroed.
        """
        a = array(typecode, range(n))
        for i in range(n):
            a[i] = 0
        return a

    def limit(self, nodes):
        """At most ``nodes`` nodes for the next search :meth:`start` sets up (a move's
        share of a round's, :func:`round_nodes`), when fewer than the level's
        budget; None: the budget. Held in ``held``, not passed down: every
        argument of the calls under a search counts on a board's pystack."""
        self.held[_LIMIT] = nodes or 0

    def fits(self, game):
        """True if this search can search ``game``'s positions: the variant and roots it was made for."""
        g = self.game
        return game.variant.name == g.variant.name and len(game.alive) == len(g.alive)

    def start(self, game, seed=0, progress=None, movetime_ms=None, load=True):
        """Set up the search of ``game``'s position, a position of the game
        this search was made for (the same variant and roots: ValueError
        otherwise), for :meth:`run`; allocates only its random generator
        and the clock's deadline. ``seed``, ``progress`` and
        ``movetime_ms`` as :func:`choose_move`'s. (``load=False``: the
        search's game already holds the position, as just copied.)
        """
        g = self.game
        if load:
            if not self.fits(game):
                raise ValueError("Search.start: %s with %d roots is not the game this search was made for"
                                 " (%s, %d roots)" % (game.variant.name, len(game.alive), g.variant.name,
                                                      len(g.alive)))
            g.load_state(game)
        self.me = me = game.to_move
        self.rng = Rng(seed)
        self.progress = progress
        if movetime_ms is None:
            self.deadline = None
        elif hasattr(time, "ticks_add"):
            self.deadline = time.ticks_add(time.ticks_ms(), movetime_ms)
        else:
            self.deadline = _now_ms() + movetime_ms
        self.iterations = 0
        self.next_tick = PROGRESS_EVERY
        # The count at which the search stops: past it no real play fits. Its
        # nodes: the budget, or fewer if limit() asked so for this search.
        held = self.held
        n = self.budget
        if 0 < held[_LIMIT] < n:
            n = held[_LIMIT] if held[_LIMIT] > 2 * PLAYED_COST else 2 * PLAYED_COST
        held[_LIMIT] = 0
        self.end = n - PLAYED_COST + 1
        self.depth = 0
        self.score = 0
        self.best = 0  # the best value of the last scan, for the side to move there
        self.stopped = False
        # Pausing (see step): the count at which tick pauses, the flag it
        # sets, and where the search stands when paused (held, see __init__).
        # The finished search's move.
        held[_PAUSE_AT] = WIN  # (never)
        self.paused = False
        for i in range(_REACH_TAIL):  # the ply's and the scan's cells
            held[i] = 0
        self.walker = None
        self.move = None
        expected = self.expected
        expected[0] = -1  # the root move whose expected reply is expected[1] (see tanbo.ponder.expected)
        expected[1] = -1
        if held[_REACH_TAIL]:
            # A reach paused in a search given up: its labels back to 0.
            label = self.work[_LABEL]
            queue = self.work[_QUEUE]
            for i in range(held[_REACH_TAIL]):
                label[queue[i]] = 0
            held[_REACH_TAIL] = 0
        killer = self.frames[_KILLER]
        for i in range(len(killer)):
            killer[i] = -1
        if self.tt:
            tcheck, tval, tinfo = self.table
            for i in range(len(tinfo)):
                tcheck[i] = 0
                tval[i] = 0
                tinfo[i] = 0
        zob, size = self.zob, self.size
        h = 0
        board = g.board
        for p in range(size):
            if board[p]:
                h ^= zob[(board[p] - 1) * size + p]
        self.h = h
        weight, rplayer = self.terms[1], g.root_player
        others = g.players - 1
        for r in range(len(weight)):
            weight[r] = others if rplayer[r] == me else -1

    # -- the search loop --------------------------------------------------------
    def run(self):
        """The chosen point (the game must not be over): the whole search at once."""
        self.held[_PAUSE_AT] = WIN  # pause never: no search counts that many nodes
        for _ in self.walk():
            pass
        return self.move

    def walk(self):
        """:meth:`run`'s loop as a generator: it yields each time :meth:`tick`
        has paused the search, at a point it resumes from, and sets
        ``self.move`` when done. Iterative deepening over the root moves:
        depth 1 is the root's scan (:meth:`root_moves`); each deeper pass
        re-sorts the root moves by their values.
        """
        g = self.game
        if g.winner is not None:
            raise ValueError("the game is over: no move to choose")
        if self.book and g.ply < BOOK_PLIES:
            from .book import play
            m = play(self)
            if m is not None:
                self.move = m
                return
        n = g.legal_count()
        if self.level in ("random", "easy") or n == 1:
            # The sorted list only for these: a deeper search makes its own
            # (root_moves), and a list of every legal move made here for
            # nothing is a 0.5 KB block a search on a PyBadge (4p, late in a
            # game) finds no room for.
            moves = g.legal_moves()
            self.move = self.easy(moves) if self.level == "easy" and n > 1 else moves[self.rng.below(n)]
            return
        if n > len(self.bufs[-1]):
            # More root moves than ever: the root's lists grown to them and 8
            # more, not to the board's points (3d's 125 cells are a 500 B
            # block a PyBadge's second game may find no room for with 26 KB
            # free). (A MemoryError leaves each as it was or made: the next
            # search tries again.)
            n = _root_room(n, g.variant.size)  # (n: the scan's below; no other local in this frame)
            self.bufs[-2] = [0] * n
            self.bufs[0] = [0] * n
            self.bufs[-1] = self.zeros("i", n)  # (last: its length is the lists' room)
        buf = self.cut(self.bufs[0], len(self.bufs[-1]))  # (the last search's scores)
        held = self.held
        while True:
            n = self.scan(buf, len(buf), None, True, 0)
            if not held[_SCAN_NEXT]:
                break
            yield
        moves, noise = self.root_moves(n)
        if self.with_reach and not self.stopped:
            # Each root move's reach joins its noise: a term added to every
            # value found under the move (see the module docstring); all
            # moves or none (a search stopped here keeps the scan's order).
            reach = self.cut(buf, len(moves))  # (root_moves has read the scan's)
            h = self.h
            for i in range(len(moves)):
                if self.paused:
                    yield
                reach[i] = 0  # (a move that ends the game has none)
                self.push(moves[i])
                while g.winner is None:
                    reach[i] = self.reach(g)
                    if not held[_REACH_TAIL]:
                        break
                    yield
                g.undo()
                self.h = h
                if self.stopped:
                    break
            if not self.stopped:
                for i in range(len(moves)):
                    noise[i] += reach[i]
            # The scores take the reach's list, each entry written below.
            scores, reach = reach, None
        else:
            scores = self.cut(buf, len(moves))
        values = self.snap  # (the root's values, by point: see __init__)
        for i in range(len(moves)):
            scores[i] = self.noisy(values[moves[i]], noise[i])
        moves, noise, scores = self.sorted_by(moves, noise, scores, len(moves))
        self.score = scores[0]
        self.move = moves[0]
        if self.stopped:
            return
        self.depth = 1
        if scores[0] >= WIN - 10000:
            return  # a win at once: no deeper pass finds a quicker one
        h = self.h
        best_reply = self.frames[_BEST]
        first = 0  # the nodes the last pass's first root move took
        for depth in range(2, self.max_depth + 1):
            if self.end - self.iterations < LAST_PASS * first:
                break  # (see LAST_PASS)
            alpha = -WIN - 1
            done = 0
            for i in range(len(moves)):
                if self.paused:
                    yield
                if i == 0:
                    first = self.iterations
                self.push(moves[i])
                best_reply[1] = -1
                while True:
                    s = self.minimax(depth - 1, alpha - noise[i], WIN + 1, 1)
                    if not held[_AT_PLY]:
                        break
                    yield
                reply = best_reply[1]
                s = self.noisy(s, noise[i])
                g.undo()
                self.h = h
                if self.stopped:
                    break
                if i == 0:
                    first = self.iterations - first
                scores[i] = s
                done += 1
                if s > alpha:
                    alpha = s
                    # The best so far: the best of the pass once sorted
                    # (ties keep the first). A reply from a deeper pass only.
                    if reply >= 0 or self.expected[0] != moves[i]:
                        self.expected[0] = moves[i]
                        self.expected[1] = reply
            if done == 0:
                break
            moves, noise, scores = self.sorted_by(moves, noise, scores, done)
            self.score = scores[0]
            self.move = moves[0]
            if self.stopped:
                break
            self.depth = depth
            if scores[0] >= WIN - 10000:
                break  # a forced win (an exhausted budget has set ``stopped`` above)

    def root_moves(self, n):
        """Depth 1 of the search, after the root's scan of ``n`` moves into
        ``bufs[0]``: the root's moves (:meth:`safe`) and their root noise, in
        the scan's order, their values in ``values`` by point (the reach and
        the sort are :meth:`walk`'s, which may pause between moves).
        """
        rng = self.rng
        buf = self.bufs[0]
        moves = self.cut(self.bufs[-2], n)
        for i in range(n):
            moves[i] = buf[i] & 0x3FF
        moves = self.safe(moves)
        values = self.snap  # by point (see __init__) (a dict of 361 entries would take a 3 KB block a search)
        for i in range(n):
            v = buf[i] >> SHIFT
            # a clamped value is a game won (lost) at once
            values[buf[i] & 0x3FF] = WIN - 1 if v >= KEY_MAX else (-WIN + 1 if v <= -KEY_MAX else v)
        noise = self.bufs[-1]
        for i in range(len(moves)):
            noise[i] = rng.below(self.noise + 1)
        return moves, noise

    @staticmethod
    def cut(lst, n):
        """``lst`` with ``n`` entries (those past its old length 0), in place:
        within the length it was made with, a board allocates no block for
        it (MicroPython keeps a list's room when it is cut; only the cut's
        16-byte slice)."""
        del lst[n:]
        while len(lst) < n:
            lst.append(0)
        return lst

    @staticmethod
    def noisy(score, noise):
        """``score`` plus the root noise (and reach), unless it is a won or lost game (quickest win first)."""
        return score if score >= WIN - 10000 or score <= -WIN + 10000 else score + noise

    @staticmethod
    def sorted_by(moves, noise, scores, done):
        """The three lists re-sorted in place by descending score, ties by index; entries from ``done`` on
        are unfinished (behind every finished one). Allocates nothing: ``sorted(range(n), key=...)``
        makes three lists (the order, grown a block at a time, then the sorted moves and noise), a
        0.8 KB block that a PyBadge's heap, fragmented by a 19x19 game, does not have."""
        n = len(moves)
        for i in range(n):
            # (-score, index) as one int, sorted ascending: MicroPython's sort
            # is not stable, and ties must break the same way on every
            # interpreter. |score| <= WIN + 2, index < 1024: a small int (31
            # bits) on a board.
            scores[i] = ((WIN + 2 if i >= done else -scores[i]) << 10) | i
        scores.sort()
        # Each cycle of the permutation moved along in place; a move put in
        # its place is stored as ~move (points are >= 0) until the end.
        for j in range(n):
            if moves[j] < 0:
                continue
            m = moves[j]
            z = noise[j]
            k = j
            i = scores[k] & 1023
            while i != j:
                moves[k] = ~moves[i]
                noise[k] = noise[i]
                k = i
                i = scores[k] & 1023
            moves[k] = ~m
            noise[k] = z
        for k in range(n):
            moves[k] = ~moves[k]
            scores[k] = -(scores[k] >> 10)
        return moves, noise, scores

    def safe(self, moves):
        """``moves`` without those that remove a root of the mover's own, unless all do.

        A person never throws a root away while a move keeps them all; the
        search might, when every safe move looks lost deeper down. Only a
        move that bounds some root can remove one: :meth:`scan` marks them.
        """
        unsafe = self.unsafe
        k = 0
        for m in moves:
            if not unsafe[m]:
                k += 1
        if k == 0 or k == len(moves):
            return moves
        k = 0
        for m in moves:  # (kept in place: the root's list, made in start)
            if not unsafe[m]:
                moves[k] = m
                k += 1
        return self.cut(moves, k)

    def minimax(self, depth, alpha, beta, ply):
        """The value for ``self.me`` of the position, searched ``depth`` more plies.

        A loop, not a recursion: CircuitPython keeps each Python call's
        frame on a pystack of 1.5-2 KB, where a frame a ply (150 bytes)
        below the app's own calls would not fit; here one frame walks the
        whole tree, each ply's state (bounds, the move being searched, the
        hash) in the arrays that ``__init__`` allocates. A node is entered
        with ``alpha`` and ``beta`` at ``ply``; its value ``v`` goes back up
        to its parent, which searches its next move or is done in turn.
        """
        g = self.game
        me = self.me
        tt = self.tt
        zob = self.zob
        killer = self.frames[_KILLER]
        bufs = self.bufs
        # One name a line: a tuple assignment of 3 or more builds a tuple (an
        # allocation a call) on CircuitPython.
        # (No local for the lists: a local is 4 bytes more of the pystack, at
        # its deepest, where hexbo-3p's search in the app has none to spare.)
        lo = self.frames[_LO]
        hi = self.frames[_HI]
        lo0 = self.frames[_LO0]
        hi0 = self.frames[_HI0]
        index = self.frames[_INDEX]
        count = self.frames[_COUNT]
        best = self.frames[_BEST]
        hashes = self.frames[_HASH]
        slots = self.frames[_SLOT]
        checks = self.frames[_CHECK]
        table = self.table if tt else None  # checks, values, infos (see hashing)
        top = ply
        leaves = ply + depth - 1  # the ply whose nodes are scanned, not expanded
        if self.held[_AT_PLY]:
            # The same call again after a pause: on at the node it paused in,
            # whose bounds are its parent's (the plies above are as they were).
            ply = self.held[_AT_PLY]
            self.held[_AT_PLY] = 0
            if ply < 0:  # paused before entering the next move of the node at -ply - 1
                ply = -ply - 1
                self.push(bufs[ply][index[ply]] & 0x3FF)
                ply += 1
            if ply > top:
                alpha = lo[ply - 1]
                beta = hi[ply - 1]
        while True:
            # -- enter the node at ``ply``: its value ``v``, or its first move searched
            v = NO_VALUE
            if self.paused and not self.stopped:
                self.held[_AT_PLY] = ply
                return 0
            if g.winner is not None:
                v = WIN - ply if g.winner == me else -WIN + ply
            elif self.stopped:
                v = 0  # discarded by the caller
                self.held[_SCAN_NEXT] = 0  # (a scan paused there is abandoned)
            else:
                c = g.to_move
                maximise = c == me
                first = killer[ply]
                if tt:
                    key = self.h ^ zob[-c]
                    slot = key & ((1 << TT_BITS) - 1)
                    check = (key >> TT_BITS) & 0xFFFF
                    if table[0][slot] == check:
                        info = table[2][slot]
                        if info & 15 >= leaves - ply + 1:
                            tv = table[1][slot]
                            flag = (info >> 4) & 3
                            if flag == EXACT or (tv >= beta if flag == LOWER else tv <= alpha):
                                v = tv
                        if info >> 6:
                            first = (info >> 6) - 1
                if v != NO_VALUE:
                    pass
                elif ply == leaves:
                    # The last ply: every move valued at once; stop at the
                    # first one that refutes the caller's bound.
                    self.scan(None, 0, beta if maximise else -alpha, False, ply)
                    if self.held[_SCAN_NEXT]:
                        self.held[_AT_PLY] = ply  # paused inside the scan
                        return 0
                    if maximise:
                        v = self.best
                        flag = LOWER if v >= beta else EXACT
                    else:
                        v = -self.best
                        flag = UPPER if v <= alpha else EXACT
                    if tt and not self.stopped:
                        table[0][slot] = check
                        table[1][slot] = v
                        table[2][slot] = 1 | flag << 4
                else:
                    buf = bufs[ply]
                    n = self.scan(buf, len(buf), None, False, ply)
                    if self.held[_SCAN_NEXT]:
                        self.held[_AT_PLY] = ply  # paused inside the scan
                        return 0
                    if self.stopped:
                        v = 0
                    else:
                        # The best move of a shallower search of this
                        # position goes first, else the last move that
                        # refuted a sibling of this node (the killer
                        # heuristic: the refutation of one move often
                        # refutes its neighbours), when the beam holds it.
                        for i in range(1, n):
                            if buf[i] & 0x3FF == first:
                                m = buf[i]
                                while i > 0:
                                    buf[i] = buf[i - 1]
                                    i -= 1
                                buf[0] = m
                                break
                        lo[ply] = lo0[ply] = alpha
                        hi[ply] = hi0[ply] = beta
                        index[ply] = 0
                        count[ply] = n
                        best[ply] = -1
                        hashes[ply] = self.h
                        if tt:
                            slots[ply] = slot
                            checks[ply] = check
                        if self.paused:
                            self.held[_AT_PLY] = -ply - 1
                            return 0
                        self.push(buf[0] & 0x3FF)
                        ply += 1
                        continue  # its first move, with the same bounds
            # -- ``v`` is the value of the node at ``ply``: back to its parent
            while ply > top:
                ply -= 1
                g.undo()
                self.h = hashes[ply]
                if self.stopped:
                    continue  # the value goes up unchanged, to be discarded
                i = index[ply]
                buf = bufs[ply]
                m = buf[i] & 0x3FF
                alpha = lo[ply]
                beta = hi[ply]
                maximise = g.to_move == me  # the undo gave it back its side to move
                if maximise:
                    if v > alpha:
                        lo[ply] = alpha = v
                        best[ply] = m
                elif v < beta:
                    hi[ply] = beta = v
                    best[ply] = m
                i += 1
                if alpha >= beta:
                    killer[ply] = m
                elif i < count[ply]:
                    index[ply] = i
                    if self.paused:
                        self.held[_AT_PLY] = -ply - 1
                        return 0
                    self.push(buf[i] & 0x3FF)
                    ply += 1
                    break  # enter its next move
                v = alpha if maximise else beta
                if tt:
                    slot = slots[ply]
                    table[0][slot] = checks[ply]
                    table[1][slot] = v
                    a0 = lo0[ply]
                    b0 = hi0[ply]
                    table[2][slot] = (leaves - ply + 1) | (
                        LOWER if v >= b0 else (UPPER if v <= a0 else EXACT)) << 4 | (best[ply] + 1) << 6
            else:
                return v

    def push(self, m):
        """Play legal point ``m`` on the private game and count the node.

        ``self.h`` follows; the caller takes the ply back with
        ``g.undo()`` and puts back the hash it had (cheaper than a call).
        """
        g = self.game
        size = self.size
        zob = self.zob
        h = self.h ^ zob[(g.to_move - 1) * size + m]
        mark = g._nrem  # the removal stack: a ply that removes a root raises it
        g.play_unchecked(m)
        if g._nrem == mark:
            self.count(PUSH_COST)
        else:
            # Each removed root's record: its stones, the root, their count;
            # on top the ply's block's cells (tanbo.game: its ply, its start).
            rem, rplayer = g._rem, g.root_player
            i = g._nrem - 4
            while i > mark:
                k = rem[i - 1]
                row = (rplayer[rem[i - 2]] - 1) * size
                i -= k + 2
                for j in range(i, i + k):
                    h ^= zob[row + rem[j]]
            self.count(PUSH_COST + REMOVAL_COST)
        self.h = h

    def count(self, n):
        """Count ``n`` nodes; report progress and check the limits every PROGRESS_EVERY."""
        self.iterations += n
        if self.iterations >= self.end:
            self.stopped = True  # no room left for a real play: stop within the budget
        if self.iterations >= self.next_tick:
            self.next_tick += PROGRESS_EVERY
            self.tick()

    def due(self):
        """The node count at which :meth:`count` next has work: a tick or the end.

        :meth:`scan` counts its moves in a local up to it (an attribute's
        read and write cost a scanned move ~5% more).
        """
        t = self.next_tick
        return t if t < self.end else self.end

    def tick(self):
        """Report progress (until stopped: a stopped search only finishes its
        root scan or reach); stop on request (once depth 2 is searched whole:
        a stop never plays a shallower move) or on the clock; pause (see step)."""
        at = self.held[_PAUSE_AT]  # (the count at which to pause)
        if self.iterations >= at:
            self.paused = True
        elif self.next_tick > at:
            self.next_tick = at  # (steps need not be whole ticks)
        if self.progress is not None and not self.stopped and self.progress(self.iterations, self.budget) \
                and self.depth >= 2:
            self.stopped = True
        if self.deadline is not None and _passed(self.deadline):
            self.stopped = True

    # -- the evaluation ---------------------------------------------------------
    def evaluate(self, g):
        """Static value of game ``g`` for ``self.me``: own roots minus the others'.

        Each live root adds ``weight x (VALUE[space] - HANGING if its space
        is 1 and its owner is not to move)``; :meth:`scan` keeps the same sum
        move by move.
        """
        to_move = g.to_move
        space, alive, rplayer = g.space, g.alive, g.root_player
        value = self.terms[0]  # (no local for the tuple: evaluate's frame is deep on the pystack)
        weight = self.terms[1]
        total = 0
        for r in range(len(alive)):
            if alive[r]:
                s = space[r]
                v = value[s]
                if s == 1 and rplayer[r] != to_move:
                    v -= HANGING
                total += weight[r] * v
        return total

    def reach(self, g):
        """Value for ``self.me`` of what each root of ``g`` can still grow into.

        A breadth-first search from every root space at once, growing
        through empty points that touch no stone of the root's colour (a
        stone there would touch only the one placed before it): a point
        goes to the root that reaches it first, to none if two colours
        reach it at the same distance (a function of the position, not of
        the order of its legal lists). Each live root adds ``weight x
        REACH[points it got]``. Too dear for every position searched: hard
        adds it to each root move's values (see :meth:`run`).
        """
        tail = self.label_reach(g)
        if tail < 0:
            return 0  # paused (see label_reach): called again to go on
        work = self.work
        label, queue = work[_LABEL], work[_QUEUE]
        for i in range(tail):
            label[queue[i]] = 0  # (only labelled points are queued)
        reached, weight, cap = work[_REACHED], self.terms[1], len(REACH) - 1
        total = 0
        for r in range(len(reached)):
            t = reached[r]
            total += weight[r] * REACH[t if t < cap else cap]
        self.count(REACH_COST + tail * REACH_EIGHTHS // 8 - self.held[_REACH_COUNTED])
        return total

    def label_reach(self, g):
        """:meth:`reach`'s search: ``label[p]`` the root + 1 that gets ``p``
        (or CONTESTED), ``reached[r]`` its count (``work``: label, dist,
        queue, reached); returns how many points it labelled, the first
        ones of ``queue`` (the caller clears them).

        Its nodes are counted as it goes, REACH_EIGHTHS each 8 points taken
        from the queue (``held[_REACH_COUNTED]``: :meth:`reach` counts the rest), so
        that a paused search (see step) pauses here too: it then returns -1
        with its queue's end, head and next count in ``held`` (``_REACH_TAIL``
        to ``_REACH_MARK``), and goes
        on from there when called again.
        """
        work = self.work
        label, dist = work[_LABEL], work[_DIST]  # (pairs: a 4-name unpack allocates on MicroPython)
        queue, reached = work[_QUEUE], work[_REACHED]
        board, rplayer, tc = g.board, g.root_player, g.touch_count
        steps = g.steps
        held = self.held
        tail = held[_REACH_TAIL]
        if tail:
            head = held[_REACH_HEAD]
            mark = held[_REACH_MARK]
            held[_REACH_TAIL] = 0
        else:
            head = 0
            mark = 8
            for r in range(len(reached)):
                reached[r] = 0
        for c in () if tail else g.pids:
            lp, own = g.legal_points[c], g.space_root[c]
            for i in range(g.legal_total[c]):
                q = lp[i]
                k = label[q]
                if k == 0:
                    r = own[q]
                    label[q] = r + 1
                    reached[r] += 1
                    dist[q] = 0
                    queue[tail] = q
                    tail += 1
                elif k != CONTESTED and rplayer[k - 1] != c:
                    label[q] = CONTESTED
                    reached[k - 1] -= 1
        while head < tail:
            if head >= mark:
                mark += 8
                self.count(REACH_EIGHTHS)
                if self.paused:
                    held[_REACH_HEAD] = head
                    held[_REACH_TAIL] = tail
                    held[_REACH_MARK] = mark
                    return -1
            q = queue[head]
            head += 1
            l = label[q]
            if l == CONTESTED:
                continue
            c = rplayer[l - 1]
            cnt = tc[c]
            d = dist[q] + 1
            for dp in steps[q]:
                p = q + dp
                if board[p] or cnt[p]:
                    continue
                k = label[p]
                if k == 0:
                    label[p] = l
                    dist[p] = d
                    reached[l - 1] += 1
                    queue[tail] = p
                    tail += 1
                elif k != CONTESTED and k != l and dist[p] == d:
                    # A tie (p is queued once, still unexpanded): settled
                    # alike in any order of the legal lists.
                    if rplayer[k - 1] != c:
                        label[p] = CONTESTED
                        reached[k - 1] -= 1
                    elif l < k:  # two roots of one colour: the first in number
                        label[p] = l
                        reached[k - 1] -= 1
                        reached[l - 1] += 1
        held[_REACH_COUNTED] = (mark // 8 - 1) * REACH_EIGHTHS
        return tail

    def played(self, m, root, ply):
        """The value for ``self.me`` after really playing ``m`` (a removal) at
        search depth ``ply``, taken back. At the ``root``, marks ``m`` unsafe
        if it removes one of the mover's roots. The caller counts its
        ``PLAYED_COST`` nodes (a progress callback from here would stack one
        more frame on the pystack at the search's deepest point).
        """
        g = self.game
        me = self.me
        roots = g.root_count[me]
        g.play_unchecked(m)
        w = g.winner
        if w is None:
            v = self.evaluate(g)
            if root and g.root_count[me] < roots:
                self.unsafe[m] = 1
        else:
            v = WIN - ply - 1 if w == me else -WIN + ply + 1
        g.undo()
        return v

    def frozen(self, lst, n):
        """The list a scan reads, as a copy that a real play leaves alone.

        ``lst`` is the live legal list (first ``n`` points) or already the
        copy. A play and its undo give back the same set of legal points,
        not the same order: the scan goes on in the order it started with.
        Copied cell by cell (a slice of a list allocates on MicroPython),
        only in scans that play a move, each already 18 nodes.
        """
        snap = self.snap
        if lst is not snap:
            for i in range(n):
                snap[i] = lst[i]
        return snap

    def scan(self, buf, cap, cut, root, ply):
        """Value every legal move of the side to move; keep the ``cap`` best in ``buf``.

        A move's value is the evaluation after it, for ``self.me``; "best"
        is from the mover's side. ``self.best`` gets the best value from
        the mover's side (negated for the others). With ``cut`` (same
        side), stops at the first move reaching it. Returns the moves kept.
        Moves that bound no root are valued by adjusting the evaluation's
        sum for the few roots whose space they change; the others are
        played (:meth:`played`) at search depth ``ply``. At an inner node
        (not the ``root``, a buffer to fill, FORCING) the moves are kept by
        their forcing keys instead and not valued: one node each, nothing
        played, ``self.best`` left meaningless.
        """
        g = self.game
        c = g.to_move
        sign = 1 if c == self.me else -1
        # Who moves next when nothing is removed (the next player with a
        # root left): decides what "hanging" is.
        succ, roots = g.succ, g.root_count
        nx = succ[c]
        while not roots[nx]:
            nx = succ[nx]
        space, alive, rplayer = g.space, g.alive, g.root_player
        value, weight, term = self.terms
        # The root's buffer is sorted by value; inner ones by forcing keys,
        # which need no value (a last ply's scan keeps no buffer: no keys).
        forcing = self.forcing and not root and cap
        total = 0
        for r in range(0 if forcing else len(alive)):
            if alive[r]:
                s = space[r]
                v = value[s]
                if s == 1 and rplayer[r] != nx:
                    v -= HANGING
                v *= weight[r]
                term[r] = v
                total += v
        # The moves are read from the live legal list until one is really
        # played (see frozen). A copy for every scan would cost a slice
        # assignment, which allocates on MicroPython when the list is a list
        # (the fast copy's) and not an array.
        lst, n = g.legal_points[c], g.legal_total[c]
        own, board = g.space_root, g.board  # (two at a time: a 4-tuple unpack allocates on MicroPython)
        ownc, cntc = own[c], g.touch_count[c]
        others = g.others[c]
        steps = g.steps
        best = -WIN - 10
        top = 0  # entries kept in buf, sorted by descending key
        attack, rescue = self.keys
        start = self.held[_SCAN_NEXT]  # (no local for held: scan's frame is the deepest on the pystack)
        if start:
            # On after a pause (see step), where it stopped, on the list it read.
            held = self.held
            held[_SCAN_NEXT] = 0
            top = held[_SCAN_TOP]
            best = held[_SCAN_BEST]
            if held[_SCAN_FROZEN]:
                lst = self.snap
        elif root:
            unsafe = self.unsafe
            for i in range(len(unsafe)):
                unsafe[i] = 0
        it, due = self.iterations, self.due()  # (see due; written back at due and at the end)
        hold = False  # paused by the last count: stop before the next move
        for i in range(start, n):
            if hold:
                held = self.held
                held[_SCAN_NEXT] = i
                held[_SCAN_TOP] = top
                held[_SCAN_BEST] = best
                held[_SCAN_FROZEN] = lst is self.snap
                self.iterations = it
                return top
            e = lst[i]
            r = ownc[e]
            # The mover's root r loses e and gains the empty neighbours that
            # touch no stone of the mover; a neighbour touching one stone
            # leaves its root's space (a second root of the mover: rare,
            # played out).
            d = -1
            hit = False
            opened = 0  # empty neighbours opened minus closed, for the ordering key
            for dq in steps[e]:
                q = e + dq
                if board[q] == 0:
                    k = cntc[q]
                    if k == 0:
                        d += 1
                        opened += 1
                    else:
                        opened -= 1
                        if k == 1:
                            if ownc[q] == r:
                                d -= 1
                            else:
                                hit = True
            s = space[r] + d
            if forcing:
                # Keys only: an inner node's values would go unused (its
                # children are searched), so nothing is played here. A move
                # that bounds a root of the mover's gets no attack keys.
                key = KEY_BASE + rescue[space[r]] + opened
                if s > 0 and not hit:
                    for k in others:
                        o = own[k][e]
                        if o != NO_ROOT:
                            key += attack[space[o]]
                            if space[o] == 1:
                                break  # a removal: the next colour's root space is not looked at
                if key < 0:
                    key = 0
                it += 1
            else:
                if s <= 0 or hit:
                    lst = self.frozen(lst, n)
                    v = self.played(e, root, ply)
                    it += PLAYED_COST
                else:
                    v = value[s]
                    if s == 1:
                        v -= HANGING  # r's owner is not next: it just moved
                    v = total - term[r] + weight[r] * v
                    # e leaves the root space of whatever other colour had it.
                    for k in others:
                        o = own[k][e]
                        if o != NO_ROOT:
                            s = space[o] - 1
                            if s == 0:
                                lst = self.frozen(lst, n)
                                v = self.played(e, root, ply)
                                it += PLAYED_COST
                                break
                            t = value[s]
                            if s == 1 and rplayer[o] != nx:
                                t -= HANGING
                            v += weight[o] * t - term[o]
                    else:
                        it += 1
                key = sign * v
                if key > best:
                    best = key
                    if cut is not None and key >= cut:
                        break  # (its nodes go to count() after the loop)
                if key > KEY_MAX:
                    key = KEY_MAX
                elif key < -KEY_MAX:
                    key = -KEY_MAX
            # The one place the moves' nodes go to count(): each move adds
            # its own to the local ``it``, and only at ``due`` (a tick or the
            # end, see due) is count() called, with none left to add. The
            # moves in between pay a local add and compare, no call.
            if it >= due:
                self.iterations = it
                self.count(0)
                due = self.due()
                hold = self.paused
                if self.stopped and not root:
                    break  # the caller discards this scan
            if cap:
                v = (key << SHIFT) | e
                # Insertion into the top ``cap`` only: most moves fall off the end.
                if top == cap:
                    if v <= buf[top - 1]:
                        continue
                    j = top - 1
                else:
                    j = top
                    top += 1
                while j > 0 and buf[j - 1] < v:
                    buf[j] = buf[j - 1]
                    j -= 1
                buf[j] = v
        self.iterations = it
        if it >= due:
            self.count(0)  # the move that reached ``cut``
        self.best = best
        return top

    # -- the easy level -------------------------------------------------------------
    def easy(self, moves):
        """One ply: remove opposing roots, keep own ones, otherwise chance.

        One pass over the moves, each played and taken back: a move that
        loses one of the mover's roots (and does not win) only counts while
        no safe move has been seen, as :meth:`safe` would have it.
        """
        g = self.game
        me, rng = self.me, self.rng
        mine, total = g.root_count[me], sum(g.root_count)
        best, best_score, best_safe = moves[0], -WIN - 1, False
        h = self.h
        for m in moves:
            self.push(m)
            counts = g.root_count
            lost = mine - counts[me]
            safe = lost == 0 or g.winner == me
            if safe or not best_safe:
                taken = total - sum(counts) - lost
                hanging = 0
                for r in range(len(g.alive)):
                    if g.alive[r] and g.space[r] == 1 and g.root_player[r] == me:
                        hanging += 1
                s = (EASY_REMOVE * (taken - lost) - EASY_HANGING * hanging + EASY_ROOM * g.legal_total[me]
                     + rng.below(self.noise + 1))
                if g.winner == me:
                    s += WIN
                if s > best_score or (safe and not best_safe):
                    best, best_score, best_safe = m, s, safe
            g.undo()
            self.h = h
        self.score = best_score
        return best


def choose_move(game, level="medium", seed=0, progress=None, movetime_ms=None, stats=None,
                slowness=DEFAULT_SLOWNESS, search=None):
    """The point ``level`` plays in ``game`` (never mutated).

    ``slowness`` is the board's time per instruction relative to a SAMD51
    (see :data:`SLOWNESS`; default 4.4, the RP2040, the slowest board): the
    node budget is divided by it, so a hard move takes at most about 3 s
    (9x9) or 6 s (19x19) on any board. The same seed and slowness give the
    same move on every interpreter. ``progress(done, total)`` is called
    each time the node count passes a multiple of ``PROGRESS_EVERY`` (done
    and total in nodes); returning True stops the search once it has
    searched depth 2 whole (easy and medium, which go no deeper, run to
    their end), which then returns its best move so far. ``movetime_ms``
    caps the wall time too. ``stats``, if a dict, receives
    ``iterations``, ``budget``, ``depth`` and ``score``. ``search``: a
    :class:`Search` made for this game at this level and slowness, reused
    (its arrays allocated once a game; the same move as a fresh one).
    Raises ValueError for an unknown level, a bad slowness, a finished
    game or a ``search`` made for another game, level or slowness.
    """
    if search is None:
        s = Search(game, level, seed, progress, movetime_ms, slowness)
    else:
        if search.level != level or search.slowness != slowness:
            raise ValueError("choose_move: a search made for %s at slowness %s cannot play %s at %s"
                             % (search.level, search.slowness, level, slowness))
        s = search
        s.start(game, seed, progress, movetime_ms)
    move = s.run()
    if stats is not None:
        stats["iterations"] = s.iterations
        stats["budget"] = s.budget
        stats["depth"] = s.depth
        stats["score"] = s.score
    return move
