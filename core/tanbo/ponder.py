"""Thinking on the opponent's time ("pondering").

After the computer moves, it searches on while the opponent thinks, one
candidate reply after another: first the reply its own search expected
(:func:`expected`, the next move of its principal variation), then the
best ``WIDE`` replies of the root's scan from the opponent's side (``RANK``
= 1 ply, ~10 nodes on 9x9, its root moves as the search leaves them sorted)
that are not pondered already.
Each candidate gets the search the computer would run if that reply came,
to its node budget, run in steps small enough for the app to read its
buttons between them (:func:`tanbo.ai.step`); a finished candidate leaves its move
(and the reply that move expects), the search's arena goes on to the next.
Once every candidate is done, each is searched again, afresh, to
``EXTEND`` budgets: the player who thinks longer meets a deeper reply.

When the opponent plays a candidate (a guess), :meth:`Ponder.reply`
answers at once if its search is finished, else spends only what is
left of its budget. Any other reply (a miss) is searched afresh with a full
budget. Each search is the one a fresh search would run, seed and all
(to its budget, or to ``EXTEND`` budgets), so with ``EXTEND`` 0 pondering
changes when the computer replies, never what it plays
(tests/test_ponder.py). A reply with a single legal move, or a win found
at the root, needs no pondering: the search ends at once in any case.

Measured with ``tanbo match --ponder-ms`` (docs/ai.md, plain hard against
uct:5000 on 9x9): the expected reply alone is the opponent's move ~26% of
the time, with the scan's best two ~48%; with hard's passes that cannot
finish not begun (tanbo.ai.LAST_PASS), a player taking 5 s a move gets
43% of hard's replies within 0.3 s on a PicoSystem (40-47%). Stronger
only for a player who thinks longer: at 20 s a move, 56.1% of 800 games
against hard without pondering (see ``EXTEND``).
"""

from .ai import PLAYED_COST, WIN, nodes_in, step

if __import__("sys").implementation.name == "cpython":  # (MicroPython folds const() when it compiles)
    from .game import const

# The cells of a finished candidate in Ponder.found, the first two also
# those of a search's expected (tanbo.ai.Search.expected): its move, the
# reply that move expects, its search's depth.
_MOVE = const(0)
_REPLY = const(1)
_DEPTH = const(2)

# Candidates pondered after the expected reply: the ranking's best that many.
WIDE = 2
# Board time of one step of the search on the person's turn in the app
# (app.main.App.step): a press waits for at most a step before the app's
# loop reads it. 6 ms is 12 nodes on an RP2040 (NODE_US x 4.4 = 0.46 ms a
# node); a step stops at the first point past that where the search can
# resume, at most a real play and a reach's count (18 + 5 nodes) later: 35
# nodes, 16.2 ms (16.7 ms at the slowest node measured on the firmware,
# 0.477 ms), within the 20 ms from press to refresh the app is held to.
STEP_MS = 6
# A search's set-up (Search.start: its table emptied, the position hashed)
# in nodes' time: 2.9 ms on a SAMD51 (board-time instrument, 9x9), 12 ms on
# an RP2040. It gets a step of its own (see Ponder.step), within 20 ms too.
SETUP = 28
# Once every candidate is done and the player still thinks, each is searched
# again, in the same order, afresh to EXTEND budgets (0: never); a finished
# one's move replaces the first search's, and a candidate played while its
# search again has finished a deeper pass than the first gets that pass's
# move, at once in both cases. At most EXTEND budgets each: the pondering
# ends there (battery). Hard 9x9 at an RP2040's budget against itself
# without pondering, a player taking 20 s a move (tanbo match --ponder-ms
# 20000 --ponder-only A --opening 4, seeds 0-3): 449 of 800 games won
# against 408 without (paired: +5.1 points, 1.1-9.2); with the table kept
# across the searches as well, 443. At 5 s no time is left for them.
EXTEND = 3
# The ranking search's depth: the root's scan alone (with hard's noise and
# reach-less), which names the player's move more often than medium's two
# plies, for ~100 nodes less
# (docs/ai.md#thinking-on-the-players-time-coretanboponderpy).
RANK = 1


def expected(search):
    """The reply ``search``, finished, expects to its move: the opponent's
    best move at ply 1 of the deepest pass that searched it (-1: none,
    when no pass went past depth 2)."""
    e = search.expected  # (the root move, its reply)
    return e[_REPLY] if e[_MOVE] == search.move else -1


class Ponder:
    """Pondering on ``search``, the game's :class:`tanbo.ai.Search` (its
    arena), whose last search chose the move just played in ``game`` (the
    opponent to move; kept, not copied: the app's game, whose position
    each search is set up from, and whose next move ends the pondering):
    the searches of the positions after ``guess`` and the later
    candidates, each seeded with ``seed`` (the seed the search of that ply
    gets). :meth:`step` advances them; ``done`` once all are finished (or
    there was nothing to search). ``spent``: nodes searched so far, the
    set-ups' ``SETUP`` each included.
    """

    def __init__(self, search, game, guess, seed):
        self.search = search
        self.seed = seed
        self.ply = game.ply + 1
        self.game = game
        self.guesses = [guess]  # the candidates, in the order pondered
        self.found = []  # per finished candidate: (its move, the reply that move expects, its search's depth)
        self.done = False
        self.walker = None  # the search's paused walk (see step)
        # The candidate (index in guesses) whose search is in the arena,
        # -2 (the ranking's), or -1: none, the next step sets the next search up.
        self.current = -1
        self.turn = 0  # searches set up: the first candidate, the ranking, the others, each again
        self.spent = 0

    def begin(self):
        """Set the arena up for the next search: the first candidate, the
        ranking, the other candidates, then each again (``EXTEND``);
        ``done`` when there is none left."""
        s = self.search
        g = s.game
        found = self.found
        while self.game.ply + 1 == self.ply:  # (else the opponent has moved: the app's game, not a copy)
            j = self.turn
            self.turn += 1
            n = len(self.guesses)
            if j == 1:
                g.load_state(self.game)
                s.start(g, self.seed, load=False)  # the opponent's side (its budget hard's: RANK plies end it first)
                self.current = -2  # (the ranking)
                return
            k = j - 1 if j else 0
            if k >= n:  # each candidate searched: each again
                k -= n
                if k >= n or not EXTEND:
                    break
                if found[k][_MOVE] < 0:
                    continue
            # From the position itself each time: a move taken back leaves
            # the legal lists in another order, and the search another one.
            g.load_state(self.game)
            g.play(self.guesses[k])
            if g.winner is None:
                s.start(g, self.seed, load=False)
                if k < len(found):
                    s.end = EXTEND * s.budget - PLAYED_COST + 1
                self.current = k
                return
            found.append((-1, -1, 0))  # the guess ends the game: no reply to search
        g.load_state(self.game)
        self.done = True

    def step(self, nodes=0):
        """Search about ``nodes`` nodes (if 0, ``STEP_MS`` of the board's time; see
        :func:`step`) or up to the end of a search, whichever comes first
        (the next step sets the next one up, counted as ``SETUP`` nodes);
        True if it searched: False once done or once the game is over (the
        app's loop then sleeps, app.main.App.step).

        A MemoryError (a fragmented heap) ends the pondering, nothing else:
        the reply is then searched afresh on the computer's turn, whose own
        MemoryError the app handles (app.main.App.out_of_memory).
        """
        if self.done or self.game.winner is not None:
            return False
        s = self.search
        s.walker = self.walker
        left = nodes or max(1, nodes_in(STEP_MS, s.slowness))
        try:
            while left > 0 and not self.done:
                k = self.current
                if k == -1:
                    self.begin()
                    left -= SETUP
                    self.spent += SETUP
                    continue
                n = s.iterations
                if k == -2:  # the ranking
                    # RANK plies, no reach, in the arena only within the
                    # step (hard's between steps, whatever happens).
                    d, r = s.max_depth, s.with_reach
                    s.max_depth, s.with_reach = RANK, False
                    try:
                        finished = step(s, left)
                    finally:
                        s.max_depth, s.with_reach = d, r
                    if finished and s.depth:
                        # Its root moves, best first (Search.walk sorts them in
                        # place, in bufs[-2]: a depth's pass, no pass after):
                        # the best not pondered yet join the candidates.
                        guesses = self.guesses
                        for m in s.bufs[-2]:
                            if len(guesses) > WIDE:
                                break
                            if m not in guesses:
                                guesses.append(m)
                else:
                    finished = step(s, left)
                n = s.iterations - n
                left -= n
                self.spent += n
                if finished:
                    self.current = -1
                    if k >= 0:
                        f = (s.move, expected(s), s.depth)
                        if k < len(self.found):
                            self.found[k] = f  # searched again
                        else:
                            self.found.append(f)
                break  # (a step ends where a search ends: the next one sets the next up)
        except MemoryError:
            self.guesses = []
            self.done = True
        # Held here between steps, not by the game's search: a pondering
        # dropped (its game left, a move taken back) takes its paused walk
        # and the root lists it holds with it (1.4 KB on 19x19).
        self.walker, s.walker = s.walker, None
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
        moved: a finished candidate's move, or its search again's once that
        has finished a deeper pass; the candidate being searched searched
        to its budget; else (a miss) the search of ``game`` afresh.
        ``progress`` and ``movetime_ms`` (a miss's only) as choose_move's.
        """
        s = self.search
        s.walker = self.walker
        k = self.hit(game)
        self.done = True
        found = self.found
        if 0 <= k < len(found):
            if k == self.current and s.depth > found[k][_DEPTH] and expected(s) >= 0:
                return s.move  # (its search again's deeper pass)
            s.move = s.expected[_MOVE] = found[k][_MOVE]
            s.expected[_REPLY] = found[k][_REPLY]  # what the next pondering guesses first
            return s.move
        if k < 0:
            s.start(game, self.seed, progress, movetime_ms)
        s.progress = progress
        return finish(s)


def start(search, game):
    """A :class:`Ponder` on the replies to ``search``'s move in ``game``,
    the reply it expected (:func:`expected`) first; None when the game is
    over or no reply is known."""
    guess = expected(search)
    if game.winner is not None or guess < 0 or not game.is_legal(guess):
        return None
    return Ponder(search, game, guess, game.ply + 1)


def finish(search):
    """``search``'s move, searched to its end (see Ponder.reply)."""
    if search.walker is not None or search.move is None:
        step(search, WIN)  # (more nodes than any search counts)
    return search.move
