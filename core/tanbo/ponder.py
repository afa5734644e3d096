"""Thinking on the opponent's time ("pondering").

After the computer moves, it searches on while the opponent thinks, one
candidate reply after another: first the reply its own search expected
(:func:`expected`, the next move of its principal variation), then the
best ``WIDE`` replies of the root's scan from the opponent's side (``RANK``
= 1 ply, ~10 nodes on 9x9, its sorted moves caught by :meth:`Ponder.sort`)
that are not pondered already.
Each candidate gets the search the computer would run if that reply came,
to its node budget, run in steps small enough for the app to read its
buttons between them (:func:`step`); a finished candidate leaves its move
(and the reply that move expects), the search's arena goes on to the next.

When the opponent plays a candidate (a guess), :meth:`Ponder.reply`
answers at once if its search is finished, else spends only what is
left of its budget. Any other reply (a miss) is searched with a full
budget. Every one of these searches starts from the transposition table
the searches before it left (``KEEP``), and once every candidate is done
each is searched again to ``EXTEND`` budgets, so pondering changes what
the computer plays as well as when: with ``KEEP`` off and ``EXTEND`` 0
each search is the one a fresh search would run, seed and all
(tests/test_ponder.py checks both). A reply with a single legal move, or
a win found at the root, needs no pondering: the search ends at once in
any case.

Measured with ``tanbo match --ponder-ms`` (docs/ai.md, plain hard against
uct:5000 on 9x9): the expected reply alone is the opponent's move ~26% of
the time, with the scan's best two ~48%; with hard's passes that cannot
finish not begun (tanbo.ai.LAST_PASS), a player taking 5 s a move gets
43% of hard's replies within 0.3 s on a PicoSystem (39-46%). Not
stronger at 5 s: 199 of 400 games against hard without pondering, which
won 205 of 400 against itself on the same seeds; at 20 s 222 of 400.
"""

from .ai import DEFAULT_SLOWNESS, PLAYED_COST, WIN, Search, node_budget

# Candidates pondered after the expected reply: the ranking's best that many.
WIDE = 2
# Board time a node takes on a SAMD51 (us): hard's 26,376 nodes in 2,765 ms
# (board-time instrument, means of tanbo bench --ai's positions); a board
# of slowness s takes s times that (RP2040, 4.4: 0.46 ms; its firmware
# measured 0.42-0.477).
NODE_US = 105
# Board time of one step of the search on the person's turn in the app
# (app.main.App.ponder): a press waits for at most a step before the app's
# loop reads it. 6 ms is 12 nodes on an RP2040 (NODE_US x 4.4 = 0.46 ms a
# node); a step stops at the first point past that where the search can
# resume, at most a real play and a reach's count (18 + 5 nodes) later: 35
# nodes, 16.2 ms (16.7 ms at the slowest node measured on the firmware,
# 0.477 ms), within issue 24's 20 ms from press to refresh.
STEP_MS = 6
# A search's set-up (Search.start: its table emptied, the position hashed)
# in nodes' time: 2.9 ms on a SAMD51 (board-time instrument, 9x9), 12 ms on
# an RP2040. It gets a step of its own (see Ponder.step), within 20 ms too.
SETUP = 28
# Searches on the player's time keep the transposition table (Search.start's
# keep): each candidate's search starts from the entries of the searches
# before it (the computer's own, the other candidates'), and so does the
# search after the player's stone, hit or miss. In Tanbo placements commute:
# P + c + y + x is P + x + y + c, so a candidate's tree holds positions of
# the reply's. 256 entries: most of what a search leaves is its own last
# pass. Hard 9x9 at an RP2040's budget, 40 games against hard at 5 s:
# the candidates' searches finished depth 5 or more 16.0% of the time
# (13.2% with an empty table each; 2,529 and 2,519 searches).
KEEP = True
# Once every candidate is done and the player still thinks, each is searched
# again, in the same order, to EXTEND budgets, from the kept table; a
# finished one's move replaces the first search's, and a candidate played
# while its search again has finished a deeper pass than the first gets
# that pass's move, at once in both cases. At most EXTEND budgets each:
# the pondering ends there (battery).
EXTEND = 3
NEVER = WIN  # step's nodes for a search to its end (more than any search counts)
# The ranking search's depth: the root's scan alone (with hard's noise and
# reach-less; it writes no entry of the kept table). Against
# uct:5000 (9x9, 30 games replayed at 5 s) its best was the player's move
# 161 times where medium's two plies' was 143, for ~100 nodes less.
RANK = 1


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
    opponent to move; kept, not copied: the app's game, whose position
    each search is set up from, and whose next move ends the pondering): the searches of the positions after ``guess`` and the
    later candidates, each seeded with ``seed`` (the seed the search of
    that ply gets). :meth:`step` advances them; ``done`` once all are
    finished (or there was nothing to search). ``spent``: nodes searched
    so far.
    """

    def __init__(self, search, game, guess, seed, nodes=1):
        self.search = search
        self.nodes = nodes  # a step's, unless step is told
        self.seed = seed
        self.ply = game.ply + 1
        self.guesses = [guess]  # the candidates, in the order pondered
        self.found = []  # per finished candidate: (its move, the reply that move expects, its search's depth)
        self.ranked = None  # the ranking search's sorted moves (see sort); () once used
        self.ranking = False  # the arena holds the ranking search
        self.done = False
        self.walker = None  # the search's paused walk (see step)
        self.current = -1  # the candidate (index in guesses) whose search is in the arena
        self.due = False  # the next search is to be set up (by the next step)
        # The table is kept (KEEP) while every search that writes it is for
        # the computer's side, as its values are (with more than two
        # players a removal can make another side move after a guess).
        self.me = search.me
        self.keep = KEEP
        self.ext = 0  # the candidate searched again to EXTEND budgets (see begin)
        self.spent = SETUP
        self.game = game
        self.begin()

    def begin(self):
        """Set the arena up for the next candidate (or the ranking, after
        the first); ``done`` when there is none left."""
        s = self.search
        g = s.game
        found = self.found
        if self.game.ply + 1 != self.ply:
            self.done = True  # the opponent has moved (the app's game, not a copy)
            return
        n = len(self.guesses)
        while True:
            k = len(found)
            if k == n:  # each candidate searched: each again (EXTEND), once ranked
                k = self.ext
                if self.ranked != () or not EXTEND or k == n:
                    break
                if found[k][0] < 0:
                    self.ext += 1
                    continue
            # From the position itself each time: a move taken back leaves
            # the legal lists in another order, and the search another one.
            g.load_state(self.game)
            g.play(self.guesses[k])
            if g.winner is None:
                self.keep = self.keep and g.to_move == self.me
                s.start(g, self.seed, load=False, keep=self.keep)
                if k < len(found):
                    s.end = EXTEND * s.budget - PLAYED_COST + 1
                self.current = k
                return
            found.append((-1, -1, 0))  # the guess ends the game: no reply to search
        g.load_state(self.game)
        self.done = self.ranked is not None
        if not self.done:
            self.ranking = True
            s.start(g, self.seed, load=False, keep=self.keep)  # the opponent's side (its scan writes no entry)
            s.end = node_budget("medium", s.size, s.slowness) - PLAYED_COST + 1

    def step(self, nodes=0):
        """Search about ``nodes`` nodes (``self.nodes`` if 0; see :func:`step`)
        or up to the end of a candidate's search, whichever comes first (the
        next step sets the next one up, counted as ``SETUP`` nodes); True
        once done. :meth:`think` steps for a given time.

        A MemoryError (a fragmented heap) ends the pondering, nothing else:
        the reply is then searched afresh on the computer's turn, whose own
        MemoryError the app handles (app.main.App.out_of_memory).
        """
        s = self.search
        s.walker = self.walker
        left = nodes or self.nodes
        try:
            while left > 0 and not self.done:
                if self.due:
                    self.due = False
                    self.begin()
                    left -= SETUP
                    self.spent += SETUP
                    continue
                n = s.iterations
                if self.ranking:
                    # RANK plies, no reach, in the arena only within the
                    # step (hard's between steps, whatever happens).
                    d, r = s.max_depth, s.with_reach
                    s.max_depth, s.with_reach, s.sorted_by = RANK, False, self.sort
                    try:
                        finished = step(s, left)
                    finally:
                        s.max_depth, s.with_reach = d, r
                        del s.sorted_by
                else:
                    finished = step(s, left)
                n = s.iterations - n
                left -= n
                self.spent += n
                if not finished:
                    break
                if self.ranking:
                    self.ranking = False
                    for m in self.ranked or ():
                        if m not in self.guesses and len(self.guesses) <= WIDE:
                            self.guesses.append(m)
                    self.ranked = ()
                elif self.current < len(self.found):  # searched again
                    self.found[self.current] = (s.move, expected(s), s.depth)
                    self.ext += 1
                else:
                    self.found.append((s.move, expected(s), s.depth))
                self.current = -1
                self.due = True
                break  # (a step ends where a search ends: the next one sets the next up)
        except MemoryError:
            self.guesses = []
            self.done = True
        # Held here between steps, not by the game's search: a pondering
        # dropped (its game left, a move taken back) takes its paused walk
        # and the root lists it holds with it (1.4 KB on 19x19).
        self.walker, s.walker = s.walker, None
        return self.done

    def think(self, nodes):
        """Steps until ``spent`` reaches ``nodes`` (the opponent's time, as
        ``tanbo match --ponder-ms`` models it) or done; True once done."""
        while not self.done and self.spent < nodes:
            self.step(nodes - self.spent)
        return self.done

    def sort(self, moves, noise, scores, done):
        """The ranking search's ``Search.sorted_by``: the same, its moves kept."""
        out = Search.sorted_by(moves, noise, scores, done)
        self.ranked = out[0]
        return out

    def tick(self, screen):
        """The app's loop on the person's turn (app.main.App.step): a step of
        ``STEP_MS``, unless done or ``screen``'s game is over; True if it searched."""
        if self.done or screen.game.winner is not None:
            return False
        self.step()
        return True

    def hit(self, game):
        """The candidate the opponent played in ``game``, its index in
        ``guesses``, if its search has begun; else -1."""
        m = game.last_move()
        if game.ply != self.ply or m not in self.guesses:
            return -1
        k = self.guesses.index(m)
        return k if k < len(self.found) or k == self.current else -1

    def over(self, game, level="hard"):
        """True if the search of the computer's reply at ``level`` in ``game``
        is over: its reply needs no more search (the settings may have
        changed the level since)."""
        k = self.hit(game)
        s = self.search
        return s.level == level and k >= 0 and (k < len(self.found) or s.iterations >= s.end)

    def reply(self, game, progress=None, movetime_ms=None):
        """The computer's move in ``game``, where the opponent has just
        moved: a finished candidate's move; the candidate being searched
        searched to its budget; else (a miss) the search of ``game`` afresh.
        ``progress`` and ``movetime_ms`` (a miss's only) as choose_move's.
        """
        s = self.search
        s.walker = self.walker
        k = self.hit(game)
        self.done = True
        if k == self.current and k < len(self.found) and s.depth > self.found[k][2] and expected(s) >= 0:
            return s.move  # its search again has finished a deeper pass than its first
        if 0 <= k < len(self.found):
            s.me = game.to_move  # (the search's side, for the next pondering: see keep)
            s.move = s.reply_to = self.found[k][0]
            s.reply = self.found[k][1]  # what the next pondering guesses first
            return s.move
        if k < 0:
            s.start(game, self.seed, progress, movetime_ms, keep=self.keep and game.to_move == self.me)
        s.progress = progress
        return finish(s)


def start(search, game, ms=STEP_MS):
    """A :class:`Ponder` on the replies to ``search``'s move in ``game``,
    the reply it expected (:func:`expected`) first, in steps of ``ms``
    milliseconds of its board; None when the game is over or no reply is
    known."""
    guess = expected(search)
    if game.winner is not None or guess < 0 or not game.is_legal(guess):
        return None
    return Ponder(search, game, guess, game.ply + 1, max(1, nodes_in(ms, search.slowness)))


def finish(search):
    """``search``'s move, searched to its end (see Ponder.reply)."""
    if search.walker is not None or search.move is None:
        step(search, NEVER)
    return search.move
