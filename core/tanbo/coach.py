"""The coach: how a move played compares with hard's, in the words chess apps use.

Shared by the handheld's Review (app.screens.review) and the desktop's
``tanbo analyse``: the same verdicts from the same code.

A move is judged by three searches of :class:`tanbo.ai.Search`, all from
the position before it, for the side to move there (its scores, in the
evaluation's points: a root is worth ``ROOT`` = 1,000, a won game ``WIN``
less its length):

1. the position, at the level and budget: hard's move there (the "best");
2. the best move alone, to the depth search 1 finished (D): its score;
3. the played move alone, to depth D: its score (skipped when it is the best).

Searches 2 and 3 give both moves the same depth and the full window (an
alpha-beta search knows exactly only the best move's score, the others'
only as bounds), so their difference is a loss at equal depth, never a
parity effect. All three without the root's random noise (so a verdict
does not depend on a seed), the same reach as hard's. A move searched
alone costs a few percent of search 1, whose budget dominates: a
verdict takes about one hard move's time (3 s on 9x9, 6 s on 19x19 on a
board, its ``node_budget``).

The loss is ``best score - played score``, clamped at 0 (a played move
that search 3 finds better than search 2's is good). The verdict is the
largest threshold it reaches, each times ``players - 1`` (hard's
paranoid evaluation weighs the mover's own roots that many times, 3 in
4p, so a root of one's own lost costs as much in every variant):

- ``INACCURACY`` 300: a few points of root space or reach given away;
- ``MISTAKE`` 800: most of a root's worth (a root with room is 1,300-1,900);
- ``BLUNDER`` 1,600: a root with its room, or more.

Won and lost games (scores at or beyond ``DECIDED`` = WIN - 10,000 either
way) are judged by their side, not by the difference: a move from a won
position (the best won) to one not won, or from one not lost to a lost
one, is a blunder; when the best is lost too, or both are won, no mark
(a lost position has no good move, and among lost moves the scores are
plies to the end or a search's bounds: -999,998 against -998,841 was a
"mistake" of nothing; -998,841 is -WIN - 1 less the move's reach, the
root's full window shifted by it, where a lost move fails low). A resignation played is scored as lost (``-WIN``):
a blunder unless hard finds the position lost as well.

A verdict is a function of the position (the board, the side to move and
the game's root ids), not of the way to it: each search runs on its copy
with the legal lists and stone chains put in point order
(:func:`settle_order`). Those lists are swap-removed and
appended to by every ply, so a position played forward (``tanbo
analyse``) and the same one reached by undo (Review) held them in other
orders, and a search budgeted in nodes breaks ties, fills its beams and
runs out in that order: 4 of 91 plies of two 9x9 games were judged
otherwise (one verdict). Hard's own play is unchanged (its search reads
the game's order as before). Every figure is a search's, not a
proof: a deeper search may judge otherwise.

Use: ``judge(game, move)`` at once (``tanbo analyse``), or a
:class:`Coach` stepped (the handheld: a spinner between steps, B drops
it). ``tanbo analyse`` replays a record and, before each ply, calls::

    search = None
    for k in range(plies):
        move = game_at_end.move_at(k)    # (or from the record's moves)
        coach = Coach(game, move, "hard", budget, search=search)
        coach.run()
        search = coach.search            # the arena, reused for the game's plies
        print(coach.best, coach.best_score, coach.played_score, coach.verdict)
        game.play(move)  # or game.resign(-move)

with ``game`` positioned before the ply (never mutated by the coach).
"""

from .ai import DEFAULT_SLOWNESS, LEVELS, WIN, Search, step
from .game import NIL, NO_ROOT

INACCURACY = 300
MISTAKE = 800
BLUNDER = 1600
VERDICTS = ("inaccuracy", "mistake", "blunder")
# A score within this of WIN is a won (lost) game: the search's own line (tanbo.ai's root noise
# leaves such scores alone); searches' bounds on lost moves land anywhere in it.
DECIDED = WIN - 10000
# Nodes a Coach.run step searches (any: a step only bounds the time between pauses).
RUN_STEP = 100000


def verdict(best_score, played_score, players):
    """``"inaccuracy"``, ``"mistake"``, ``"blunder"`` or None (a good move) for a move of
    ``played_score`` where the best scored ``best_score``, with ``players`` players.

    Scores at or beyond ``DECIDED`` either way are won or lost games: both
    lost (or both won) is no mark whatever their difference (a lost
    position has no good move; a slower win is still a win), one decided
    and the other not is a blunder when the played move is the worse."""
    best_lost, played_lost = best_score <= -DECIDED, played_score <= -DECIDED
    if best_lost and played_lost or best_score >= DECIDED and played_score >= DECIDED:
        return None
    if played_lost or best_score >= DECIDED:
        return "blunder" if played_score < best_score else None
    loss = best_score - played_score
    unit = players - 1
    if loss >= BLUNDER * unit:
        return "blunder"
    if loss >= MISTAKE * unit:
        return "mistake"
    if loss >= INACCURACY * unit:
        return "inaccuracy"
    return None


def settle_order(g):
    """Put game ``g``'s tables whose order is history into ascending point order, in place,
    allocating nothing (here, not in tanbo.game: its code stays off a game screen's heap).

    Each player's legal list (swap-removed and appended to by every ply,
    so its order is the way the position was reached: played forward, or
    taken back from later) and each live root's stone chain (the latest
    stone first) then depend on the board and the root ids alone. A search
    reads both in that order: its ties, beams and node counts follow them.
    The position and every legal set are unchanged. Only for a game with no
    ply to undo (a search's copy, loaded by ``Game.load_state``: lifting a
    stone takes its chain's head as the stone last placed): ValueError
    otherwise.
    """
    if g._nh:
        raise ValueError("settle_order: the game has %d plies to undo (their stones' chains would break)"
                         % g._nh)
    n = g.variant.size
    for k in g.pids:
        own, lk, pk = g.space_root[k], g.legal_points[k], g.legal_index[k]
        i = 0
        for p in range(n):
            if own[p] != NO_ROOT:
                lk[i] = p
                pk[p] = i & 255
                i += 1
    board, root_of, nxt, head = g.board, g.root_of, g.nxt, g.head
    for r in range(len(head)):
        head[r] = NIL  # (a removed root's stays so: only live roots are walked)
    p = n
    while p > 0:  # the highest point first, each one pushed on its root's chain's head
        p -= 1
        if board[p]:
            r = root_of[p]
            nxt[p] = head[r]
            head[r] = p


class Coach:
    """The judgement of ``move`` (a point, or ``-player`` for a resignation) in
    ``game`` (positioned before it, not over; never mutated), by ``level``
    (default hard) with ``budget`` nodes a search (None: the level's
    :func:`tanbo.ai.node_budget` at ``slowness``).

    :meth:`step` searches a few nodes at a time (True once done); then
    ``best`` (hard's move), ``best_score``, ``played_score`` (scores for
    the side to move, see the module docstring), ``verdict`` and
    ``depth`` (the plies both moves were searched to). ``search``: a
    :class:`tanbo.ai.Search` to reuse (its arena; one made for another
    variant or level is replaced), left as found (its noise, depth cap,
    budget); ``self.search`` is the one used. ``done, total`` of
    :meth:`progress`: nodes, for a progress line. ValueError for a
    finished game, an unknown level or a move not legal there.
    """

    def __init__(self, game, move, level="hard", budget=None, slowness=DEFAULT_SLOWNESS, seed=0,
                 search=None):
        if game.winner is not None:
            raise ValueError("coach: the game is over, no move to judge")
        if level not in LEVELS:
            raise ValueError("coach: %r: unknown level (known: %s)" % (level, ", ".join(LEVELS)))
        if move >= 0 and not game.is_legal(move):
            raise ValueError("coach: %s is not legal in this position" % game.variant.format_point(move))
        if budget is not None and not (isinstance(budget, int) and budget > 0):
            raise ValueError("coach: budget %r: must be a whole number of nodes above 0" % (budget,))
        if (search is None or search.level != level or search.slowness != slowness or not search.fits(game)
                or getattr(search, "shared", False)):
            search = None  # (the old one's arena let go before the new one is made)
            search = Search(game, level, seed, None, None, slowness)
        self.search = search
        self.game = game
        self.move = move
        self.seed = seed
        self.budget = budget or search.budget
        self.players = game.variant.players
        self.best = -1
        self.best_score = 0
        self.played_score = 0
        self.verdict = None
        self.depth = 0
        self.phase = 0  # the search under way: 0, 1, 2 as in the module docstring; 3: done
        self.spent = 0  # nodes of the finished searches
        self.target = -1  # the move searched alone (phases 1, 2)
        self.begin()

    def begin(self):
        """Set the search of this phase up."""
        s = self.search
        keep = s.budget
        s.budget = self.budget
        try:
            s.start(self.game, self.seed)
        finally:
            s.budget = keep
        # The search's copy in the order of its position alone: a verdict is the
        # same whether Review reached the position by undo or analyse played to it.
        settle_order(s.game)
        s.walker = None

    def only(self, moves):
        """(Search.safe, in phases 1 and 2): the root's moves, the target alone."""
        return [self.target]

    def step(self, nodes):
        """Search about ``nodes`` more nodes (see :func:`tanbo.ai.step`); True once judged."""
        if self.phase == 3:
            return True
        s = self.search
        noise, depth = s.noise, s.max_depth
        s.noise = 0
        if self.phase:
            s.max_depth = self.depth
            s.safe = self.only
        try:
            finished = step(s, nodes)
        finally:
            s.noise, s.max_depth = noise, depth
            if self.phase:
                # None first: MicroPython's table keeps a deleted entry's
                # value, which would hold this Coach until the search's
                # table next grows (a Ponder so held cost 3.2 KB of the
                # port's heap under a review, tests/device_memory.py).
                s.safe = None
                del s.safe
        if not finished:
            return False
        self.spent += s.iterations
        if self.phase == 0:
            self.best = s.move
            self.depth = s.depth if s.depth > 1 else 1
            self.target = s.move
        elif self.phase == 1:
            self.best_score = s.score
        else:
            self.played_score = s.score
        self.phase += 1
        if self.phase == 2:
            if self.move == self.best:
                self.played_score = self.best_score
                self.phase = 3
            elif self.move < 0:
                self.played_score = -WIN
                self.phase = 3
            else:
                self.target = self.move
        if self.phase == 3:
            if self.played_score > self.best_score:
                self.best, self.best_score = self.move, self.played_score  # (search 3 found it better)
            self.verdict = verdict(self.best_score, self.played_score, self.players)
            self.search.walker = None
            return True
        self.begin()
        return False

    def run(self):
        """All at once; returns self."""
        while not self.step(RUN_STEP):
            pass
        return self

    def progress(self):
        """(nodes searched, an upper bound of the nodes the three searches take)."""
        return self.spent + (0 if self.phase == 3 else self.search.iterations), 3 * self.budget


def judge(game, move, level="hard", budget=None, slowness=DEFAULT_SLOWNESS, search=None):
    """(best move, its score, the played move's score, verdict) of ``move`` in ``game``
    (positioned before it): :class:`Coach` run at once."""
    c = Coach(game, move, level, budget, slowness, 0, search).run()
    return c.best, c.best_score, c.played_score, c.verdict
