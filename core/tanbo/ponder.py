"""Thinking on the opponent's time ("pondering").

After the computer moves, it searches on while the opponent thinks: on the
reply its own search expected (:func:`expected`, the next
move of its principal variation), as the search it would run if that reply
came, in steps small enough for the app to read its buttons between them
(:func:`step`).

When the opponent plays the guessed reply, :meth:`Ponder.reply` hands that
search over: if it has reached its node budget the computer answers at
once (with what the extra nodes found: a pondering search goes on to
``STRETCH`` budgets while the opponent thinks), else it spends only what is
left of its budget, and plays what a search started then would have
played. Any other reply (a miss) is searched afresh with a full budget. A
reply with a single legal move, or a win found at the root, needs no
pondering: the search ends at once in any case.
"""

from .ai import DEFAULT_SLOWNESS, PLAYED_COST, WIN

# A pondering search may go on to STRETCH node budgets (measured with
# `tanbo match --ponder-ms`: more nodes make hard stronger, see docs/ai.md);
# then it stops and the board idles until the opponent moves.
STRETCH = 3
# Board time a node takes on a SAMD51 (us): hard's 26,376 nodes in 2,765 ms
# (board-time instrument, means of tanbo bench --ai's positions); a board
# of slowness s takes s times that (RP2040, 4.4: 0.46 ms; its firmware
# measured 0.42-0.477).
NODE_US = 105
NEVER = WIN  # step's nodes for a search to its end (more than any search counts)


def step(search, nodes):
    """Search about ``nodes`` more nodes of ``search`` (a :class:`tanbo.ai.Search`
    set up by its ``start``), then pause; True once the search is done.

    The move is then ``search.move``. A pause comes at the first point
    that can resume after ``nodes`` (a node's entry, a scan's next move, a
    root move), so a step overshoots by at most one real play
    (``PUSH_COST + REMOVAL_COST`` or ``PLAYED_COST`` nodes) or, on boards
    of at most 125 points, one root move's reach (see ``Search.reach``). A
    search run in steps plays the same move as ``Search.run``: the same
    nodes in the same order. Here, not in tanbo.ai, so that its code is on
    a board's heap only while the computer ponders.
    """
    if search.walker is None:
        search.walker = search.walk()
    search.paused = False
    search.pause_at = search.iterations + nodes
    if search.next_tick > search.pause_at:
        search.next_tick = search.pause_at  # tick is where the pause is noticed
    try:
        next(search.walker)
    except StopIteration:
        search.walker = None
        return True
    return False


def expected(search):
    """The reply ``search``, finished, expects to its move: the opponent's
    best move at ply 1 of the deepest pass that searched it (-1: none,
    when no pass went past depth 2)."""
    return search.reply if search.reply_to == search.move else -1


def nodes_in(ms, slowness=DEFAULT_SLOWNESS):
    """Nodes a board of ``slowness`` searches in ``ms`` milliseconds."""
    return int(ms * 1000 // (NODE_US * slowness))


class Ponder:
    """Pondering on ``search``, the game's :class:`tanbo.ai.Search` (its
    arena), whose last search chose the move just played in ``game`` (the
    opponent to move; ``game`` is not kept): the search of the position
    after ``guess``, seeded with ``seed`` (the seed the search of that ply
    gets). :meth:`step` advances it; ``done`` once it has nothing left to
    search (or nothing to search: a guess that ends the game).
    """

    def __init__(self, search, game, guess, seed, nodes=1):
        self.search = search
        self.nodes = nodes  # a step's, unless step is told
        self.guess = guess
        self.seed = seed
        self.ply = game.ply + 1
        g = search.game
        g.load_state(game)
        g.play(guess)
        self.done = g.winner is not None
        if not self.done:
            search.start(g, seed, load=False)
            search.end = STRETCH * search.budget - PLAYED_COST + 1

    def step(self, nodes=0):
        """Search about ``nodes`` nodes (``self.nodes`` if 0; see step); True once done."""
        if not self.done:
            self.done = step(self.search, nodes or self.nodes)
        return self.done

    def ours(self, search, level):
        """True if this pondering is on ``search`` (the game's) searching at ``level``
        (the settings may have changed the level since)."""
        return self.search is search and search.level == level

    def hit(self, game):
        """True if the opponent's move in ``game`` is the guess."""
        return game.ply == self.ply and game.last_move() == self.guess

    def at_once(self, game):
        """True if the computer's reply in ``game`` needs no more search."""
        s = self.search
        return self.hit(game) and (self.done or s.iterations >= s.budget - PLAYED_COST + 1)

    def reply(self, game, progress=None, movetime_ms=None):
        """The search to finish (:func:`finish`) for ``game``, where the
        opponent has just moved: on a guess the pondering search, which
        stops where it is if it has reached its budget and else spends what
        is left of it; on a miss the search of ``game`` afresh, with the
        transposition table's entries kept. ``progress`` and
        ``movetime_ms`` (a miss's only) as choose_move's.
        """
        s = self.search
        if not self.hit(game):
            s.start(game, self.seed, progress, movetime_ms, keep_table=True)
            return s
        if not self.done:
            end = s.budget - PLAYED_COST + 1
            if s.iterations >= end:
                s.stopped = True  # its next step only unwinds the search
            else:
                s.end = end
        s.progress = progress
        return s


def start(search, game, ms, slowness):
    """A :class:`Ponder` on the reply ``search`` expected after its move in
    ``game`` (:func:`expected`), in steps of ``ms`` milliseconds of a board of
    ``slowness``; None when no reply is known."""
    guess = expected(search)
    if guess < 0 or not game.is_legal(guess):
        return None
    return Ponder(search, game, guess, game.ply + 1, max(1, nodes_in(ms, slowness)))


def finish(search):
    """``search``'s move, searched to its end (see Ponder.reply)."""
    if search.walker is not None or search.move is None:
        step(search, NEVER)
    return search.move
