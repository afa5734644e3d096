"""The computer opponent: four levels, from random moves to a small search.

Where to start reading: :func:`choose_move` at the bottom picks the level;
:meth:`Search.run` is the search loop (iterative deepening over the root
moves); :meth:`Search.minimax` the tree walk (paranoid alpha-beta: every
other player is assumed to play against the mover, so 2 and 4 players share
the code); :meth:`Search.evaluate` the evaluation (root space per root,
tempo-aware danger, mobility); :meth:`Search.order` the cheap move ordering
that lets the walk look only at the most forcing replies.

Every tunable is named in the block below, with the level table beside it.
All randomness comes from :class:`tanbo.rng.Rng`, so a level with a seed
plays the same move on CPython, MicroPython and CircuitPython.

Budgets are counted in *nodes* (one stone placed on the search's private
copy of the game, plus its evaluation), which is deterministic; a wall
clock cap (``movetime_ms``) can only shorten a search. ``tanbo bench``
measures what a node costs on each interpreter and on the emulated board.

Memory: the search plays and undoes moves on one copy of the game, and
evaluates leaves on a second, scratch copy reloaded in place
(``load_state``: a quarter fewer board instructions than an undo); move
buffers are preallocated per depth. The one per-node garbage is the slice
objects of ``load_state`` (measured: ~100 bytes a node on the CircuitPython
VM, ~200 on the 64-bit MicroPython unix port), i.e. a collection or two per
move on a board, already inside the emulator's instruction counts. Two
copies of a 19x19 game are ~13 KB on the unix port (less on a board).
"""

import time
from array import array

from .rng import Rng

NONE = 255  # the engine's "no root" cell value

LEVELS = ("random", "easy", "medium", "hard")

# One line per level, for menus and help text.
DESCRIPTIONS = {
    "random": "any legal move, uniformly at random",
    "easy": "one ply: takes roots, keeps its own, likes room; otherwise chance",
    "medium": "looks two plies ahead at the most forcing replies",
    "hard": "searches up to six plies ahead; never bounds its own root while a safe move exists",
}

# -- the level table ----------------------------------------------------------
# level: (max depth in plies, beam: replies searched below the root (0 = all),
#         node budget on boards of <= 125 points, node budget on larger boards,
#         root noise: random points added to each root move's score)
# Board time per move ~= nodes x node cost; `tanbo bench` reports both.
# Measured (tanbo bench; nodes and board time are the mean/worst over its
# four positions; board = emulated SAMD51 at 120 MHz, IPC 0.75; heap = the
# search's own share on the 64-bit MicroPython unix port):
#
#   level   board  nodes/move  CPython ms  MicroPython ms  board ms (worst)  heap
#   easy    9x9        19          0.3          0.4             19 (22)        10 KB
#   easy    19x19      66          1.7          1.1             63 (76)        23 KB
#   medium  9x9        47          1.2          1.8             56 (64)        10 KB
#   medium  19x19     145          4.1          4.9            279 (354)       21 KB
#   hard    9x9      1500         22.5         37.6           1887 (2246)      11 KB
#   hard    13x13    1600         42.5         53.2           3119 (3274)      16 KB
#   hard    19x19    1600         47.6         52.5           3377 (3826)      22 KB
LEVEL_TABLE = {
    "random": (0, 0, 0, 0, 0),
    "easy": (1, 0, 400, 400, 30),
    "medium": (2, 8, 300, 400, 6),
    "hard": (6, 6, 1500, 1600, 2),
}

# -- evaluation weights (points; a root is worth ROOT) ---------------------------
WIN = 1000000  # a won game, minus its length so quicker wins come first
ROOT = 1000  # each live root
# SPACE[s]: value of a root with root space s (capped at the last entry):
# concave, because the first few points decide whether a root survives.
SPACE = (0, 0, 140, 240, 310, 360, 400, 430, 455, 475, 490, 500)
ROOM = 30  # each point of root space, beyond the concave SPACE table: mobility
HANGING = 450  # a root with space 1 whose owner is not to move: likely lost
EASY_REMOVE = 100  # easy level: per opposing root a move removes (own: minus)
EASY_HANGING = 50  # easy level: per own root a move leaves with root space 1
EASY_ROOM = 10  # easy level: per legal point (= own root space) after the move

# -- move ordering keys (small ints: they share a word with the point) ---------
KEY_CAPTURE = 64  # the move fills an opposing root's last root space
KEY_ATTACK = (0, 0, 24, 12, 6, 3)  # ... takes a point of a root with space s
KEY_RESCUE = (0, 20, 10)  # ... extends an own root with space s
ORDER_EXPAND = True  # also count the empty neighbours a move opens (+1) or closes (-1)
KEY_BASE = 8  # keeps keys >= 0 after the per-neighbour adjustments

# Nodes between progress callbacks and clock reads: a node costs ~1.3 ms
# (9x9) to ~2 ms (19x19) of board time, so the UI hears from the search
# every 30-50 ms.
PROGRESS_EVERY = 24


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


class Search:
    """One move decision: ``Search(game, level, seed).run()`` returns a point.

    ``game`` is copied once; the original is never touched. After
    :meth:`run`, ``iterations`` holds the nodes searched, ``depth`` the
    deepest finished iteration and ``score`` the chosen move's value.
    """

    def __init__(self, game, level="medium", seed=0, progress=None, movetime_ms=None):
        if level not in LEVEL_TABLE:
            raise ValueError("%r: unknown level (known: %s)" % (level, ", ".join(LEVELS)))
        self.level = level
        self.max_depth, self.beam, small, large, self.noise = LEVEL_TABLE[level]
        self.budget = small if game.variant.size <= 125 else large
        self.game = game.copy()
        self.leaf = self.game.copy()  # scratch for leaves (see visit)
        self.me = game.to_move
        self.rng = Rng(seed)
        self.progress = progress
        if movetime_ms is None:
            self.deadline = None
        elif hasattr(time, "ticks_add"):
            self.deadline = time.ticks_add(time.ticks_ms(), movetime_ms)
        else:
            self.deadline = _now_ms() + movetime_ms
        self.iterations = 0
        self.depth = 0
        self.score = 0
        self.stopped = False
        # Per-depth move buffers (key << 16 | point, sorted in place): as
        # wide as the beam, 4 bytes a cell, so 19x19 "hard" needs ~200 bytes.
        width = self.beam or game.variant.size
        self.bufs = [array("i", bytes(4 * width)) for _ in range(self.max_depth + 1)]
        # Ordering keys by root space, as tables (a root's space <= board size).
        n = game.variant.size + 1
        self.attack = bytearray(n)
        self.rescue = bytearray(n)
        for s in range(1, n):
            self.attack[s] = KEY_CAPTURE if s == 1 else (KEY_ATTACK[s] if s < len(KEY_ATTACK) else 1)
            self.rescue[s] = KEY_RESCUE[s] if s < len(KEY_RESCUE) else 0

    # -- the search loop --------------------------------------------------------
    def run(self):
        """The chosen point (the game must not be over)."""
        g = self.game
        if g.winner is not None:
            raise ValueError("the game is over: no move to choose")
        moves = g.legal_moves()
        rng = self.rng
        if self.level == "random" or len(moves) == 1:
            return moves[rng.below(len(moves))]
        moves = self.safe(moves)
        if self.stopped:
            return moves[rng.below(len(moves))]
        if self.level == "easy":
            return self.easy(moves)
        # Shuffle first so equal scores break ties by the seed.
        for i in range(len(moves) - 1, 0, -1):
            j = rng.below(i + 1)
            moves[i], moves[j] = moves[j], moves[i]
        noise = [rng.below(self.noise + 1) for _ in moves]
        scores = [0] * len(moves)
        best = moves[0]
        for depth in range(1, self.max_depth + 1):
            alpha = -WIN - 1
            done = 0
            for i in range(len(moves)):
                m = moves[i]
                self.push(m)
                s = self.minimax(depth - 1, alpha - noise[i], WIN + 1, 1) + noise[i]
                g.undo()
                if self.stopped:
                    break
                scores[i] = s
                done += 1
                if s > alpha:
                    alpha = s
            if done == 0:
                break
            # Finished moves keep their new score; the rest sort behind them.
            for i in range(done, len(moves)):
                scores[i] = -WIN - 2
            # (score, index): MicroPython's sort is not stable, and ties must
            # break the same way on every interpreter.
            order = sorted(range(len(moves)), key=lambda i: (-scores[i], i))
            moves = [moves[i] for i in order]
            noise = [noise[i] for i in order]
            scores = [scores[i] for i in order]
            best = moves[0]
            self.score = scores[0]
            if self.stopped:
                break
            self.depth = depth
            if scores[0] >= WIN - 10000 or self.iterations >= self.budget:
                break  # a forced win, or no budget left for a deeper pass
        return best

    def safe(self, moves):
        """``moves`` without those that remove a root of the mover's own, unless all do.

        A person never throws a root away while a move keeps them all; the
        search might, when every safe move looks lost deeper down.
        """
        g = self.game
        me = self.me
        roots = g.root_count[me]
        leaf = self.leaf
        keep = []
        for m in moves:
            self.visit(g, m)
            if leaf.winner == me or leaf.root_count[me] == roots:
                keep.append(m)
            if self.stopped:
                break  # told to stop: choose among the moves checked so far
        return keep if keep else moves

    def minimax(self, depth, alpha, beta, ply):
        """The value for ``self.me`` of the position, searched ``depth`` more plies."""
        g = self.game
        if g.winner is not None:
            return WIN - ply if g.winner == self.me else -WIN + ply
        if depth == 0 or self.stopped:
            return self.evaluate(g)
        buf = self.bufs[ply]
        n = self.order(buf, len(buf))
        maximise = g.to_move == self.me
        leaf = self.leaf
        for i in range(n):
            m = buf[i] & 0xFFFF
            if depth == 1:
                # Most nodes are leaves: a fresh copy is cheaper than undo.
                self.visit(g, m)
                if leaf.winner is None:
                    s = self.evaluate(leaf)
                else:
                    s = WIN - ply - 1 if leaf.winner == self.me else -WIN + ply + 1
            else:
                self.push(m)
                s = self.minimax(depth - 1, alpha, beta, ply + 1)
                g.undo()
            if self.stopped:
                return s
            if maximise:
                if s > alpha:
                    alpha = s
            elif s < beta:
                beta = s
            if alpha >= beta:
                break
        return alpha if maximise else beta

    def visit(self, g, m):
        """Load ``g`` into the scratch game ``self.leaf`` and play ``m`` there; count the node."""
        leaf = self.leaf
        leaf.load_state(g)
        leaf._place(m, False)
        self.count()

    def push(self, m):
        """Play legal point ``m`` on the private game (undoable) and count the node."""
        g = self.game
        g._push_ply(m)
        g._place(m, True)
        self.count()

    def count(self):
        """Count a node; report progress and check the limits every PROGRESS_EVERY."""
        self.iterations += 1
        if self.iterations % PROGRESS_EVERY == 0:
            self.tick()
        elif self.iterations >= self.budget:
            self.stopped = True

    def tick(self):
        """Report progress; stop on request, on the clock or at the budget."""
        if self.iterations >= self.budget:
            self.stopped = True
        if self.progress is not None and self.progress(self.iterations, self.budget):
            self.stopped = True
        if self.deadline is not None and _passed(self.deadline):
            self.stopped = True

    # -- the evaluation ---------------------------------------------------------
    def evaluate(self, g):
        """Static value of game ``g`` for ``self.me``: own roots minus the others'."""
        me, to_move = self.me, g.to_move
        space, alive, rplayer = g.space, g.alive, g.rplayer
        mine = theirs = 0
        last = len(SPACE) - 1
        for r in range(len(alive)):
            if alive[r]:
                s = space[r]
                v = ROOT + SPACE[s if s < last else last] + ROOM * s
                if s == 1 and rplayer[r] != to_move:
                    v -= HANGING
                if rplayer[r] == me:
                    mine += v
                else:
                    theirs += v
        # With 4 players the others' total is shared among three.
        return mine * (g.players - 1) - theirs if g.players > 2 else mine - theirs

    # -- move ordering ------------------------------------------------------------
    def order(self, buf, cap):
        """Put the side to move's ``cap`` most forcing moves first in ``buf``; return how many."""
        g = self.game
        c = g.to_move
        lst, n = g.lst[c], g.nlegal[c]
        own, space, board, cntc = g.own, g.space, g.board, g.cnt[c]
        others = g.others[c]
        other = own[3 - c] if g.players == 2 else None  # the common case, unrolled
        ownc = own[c]
        nbr, off = g.nbr, g.off
        expand = ORDER_EXPAND
        attack, rescue, none = self.attack, self.rescue, NONE
        top = 0  # entries kept in buf, sorted by descending key
        for i in range(n):
            e = lst[i]
            key = KEY_BASE + rescue[space[ownc[e]]]
            if other is not None:
                o = other[e]
                if o != none:
                    key += attack[space[o]]
            else:
                for k in others:
                    o = own[k][e]
                    if o != none:
                        key += attack[space[o]]
            if expand:
                for j in range(off[e], off[e + 1]):
                    q = nbr[j]
                    if board[q] == 0:
                        key += 1 if cntc[q] == 0 else -1
            if key < 0:
                key = 0
            v = (key << 16) | e
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
        return top

    # -- the easy level -------------------------------------------------------------
    def easy(self, moves):
        """One ply: remove opposing roots, keep own ones, otherwise chance."""
        g = self.game
        me, rng = self.me, self.rng
        leaf = self.leaf
        mine, total = g.root_count[me], sum(g.root_count)
        best, best_score = moves[0], -WIN - 1
        for m in moves:
            self.visit(g, m)
            counts = leaf.root_count
            lost = mine - counts[me]
            taken = total - sum(counts) - lost
            hanging = 0
            for r in range(len(leaf.alive)):
                if leaf.alive[r] and leaf.space[r] == 1 and leaf.rplayer[r] == me:
                    hanging += 1
            s = (EASY_REMOVE * (taken - lost) - EASY_HANGING * hanging + EASY_ROOM * leaf.nlegal[me]
                 + rng.below(self.noise + 1))
            if leaf.winner == me:
                s += WIN
            if s > best_score:
                best, best_score = m, s
        self.score = best_score
        return best


def choose_move(game, level="medium", seed=0, progress=None, movetime_ms=None, stats=None):
    """The point ``level`` plays in ``game`` (never mutated).

    ``progress(done, total)`` is called every ``PROGRESS_EVERY`` nodes
    (done and total in nodes); returning True stops the search, which then
    returns its best move so far. ``movetime_ms`` caps the wall time too.
    ``stats``, if a dict, receives ``iterations``, ``budget``, ``depth``
    and ``score``. Raises ValueError for an unknown level or a finished game.
    """
    s = Search(game, level, seed, progress, movetime_ms)
    move = s.run()
    if stats is not None:
        stats["iterations"] = s.iterations
        stats["budget"] = s.budget
        stats["depth"] = s.depth
        stats["score"] = s.score
    return move
