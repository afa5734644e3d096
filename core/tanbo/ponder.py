"""Thinking on the opponent's time ("pondering").

After the computer moves, it searches on while the opponent thinks: on the
reply its own search expected (:meth:`tanbo.ai.Search.expected`, the next
move of its principal variation), as the search it would run if that reply
came, in steps small enough for the app to read its buttons between them
(:meth:`tanbo.ai.Search.step`).

When the opponent plays the guessed reply, :meth:`Ponder.reply` hands that
search over: if it has reached its node budget the computer answers at
once (with what the extra nodes found: a pondering search goes on to
``STRETCH`` budgets while the opponent thinks), else it spends only what is
left of its budget, and plays what a search started then would have
played. Any other reply (a miss) is searched afresh with a full budget. A
reply with a single legal move, or a win found at the root, needs no
pondering: the search ends at once in any case.
"""

from .ai import DEFAULT_SLOWNESS, NEVER, PLAYED_COST, Search

# A pondering search may go on to STRETCH node budgets (measured with
# `tanbo match --ponder-ms`: more nodes make hard stronger, see docs/ai.md);
# then it stops and the board idles until the opponent moves.
STRETCH = 3
# Board time a node takes on a SAMD51 (us): hard's 26,376 nodes in 2,765 ms
# (board-time instrument, means of tanbo bench --ai's positions); a board
# of slowness s takes s times that (RP2040, 4.4: 0.46 ms; its firmware
# measured 0.42-0.477).
NODE_US = 105


def nodes_in(ms, slowness=DEFAULT_SLOWNESS):
    """Nodes a board of ``slowness`` searches in ``ms`` milliseconds."""
    return int(ms * 1000 // (NODE_US * slowness))


def ms_of(nodes, slowness=DEFAULT_SLOWNESS):
    """Board milliseconds of ``nodes`` nodes on a board of ``slowness``."""
    return nodes * NODE_US * slowness / 1000


class Ponder:
    """The search for the position after ``guess`` in ``game`` (the
    computer's move just played, the opponent to move; ``game`` is not
    kept), at ``level`` with ``seed`` (the seed the search of that ply would
    get) on a board of ``slowness``. :meth:`step` advances it; ``done`` once
    it has nothing left to search (or nothing to search: a guess that ends
    the game).
    """

    def __init__(self, game, guess, level, seed, slowness=DEFAULT_SLOWNESS):
        self.guess = guess
        self.ply = game.ply + 1
        g = game.copy()
        g.play(guess)
        self.search = None
        self.done = True
        if g.winner is None:
            s = self.search = Search(g, level, seed, slowness=slowness)
            s.end = STRETCH * s.budget - PLAYED_COST + 1
            self.done = False

    def step(self, nodes):
        """Search about ``nodes`` nodes (see Search.step); True once done."""
        if not self.done:
            self.done = self.search.step(nodes)
        return self.done

    def nodes(self):
        """Nodes searched so far."""
        return 0 if self.search is None else self.search.iterations

    def reply(self, game, progress=None):
        """The search to finish for ``game`` (the opponent has just moved),
        or None if its move was not the guess (a miss: search afresh).

        Finish it with :func:`finish`: at once if it has reached its budget
        (it stops where it is), else after what is left of that budget.
        ``progress`` is then the search's callback, as choose_move's.
        """
        s = self.search
        if s is None or game.ply != self.ply or game.last_move() != self.guess:
            return None
        self.search = None
        if not self.done:
            end = s.budget - PLAYED_COST + 1
            if s.iterations >= end:
                s.stopped = True  # its next step only unwinds the search
            else:
                s.end = end
        s.progress = progress
        return s


def finish(search):
    """``search``'s move, searched to its end (see Ponder.reply)."""
    if search.walker is not None or search.move is None:
        search.step(NEVER)
    return search.move
