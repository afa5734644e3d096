"""Review of a finished game: step through its plies, ask the coach, send its record.

LEFT/RIGHT step back and forth through the plies. A asks the coach
(:mod:`tanbo.coach`: hard at the board's budget) about the position on
show: its move there is marked with the cursor, and the status says how
the move the game played next compares (``inaccuracy``, ``mistake``,
``blunder``, or ``good``). DOWN looks for the next mistake (or blunder) of
the player to move on show, a ply of theirs at a time, the board following
and the spinner turning; it stops on the position before it, hard's move
marked. B stops the coach at once (nothing else changes); otherwise it
leaves. START sends the game's record on the USB console (:mod:`app.send`).

The coach searches in steps, one a loop of the app (:meth:`ReviewScreen.tick`,
``STEP_MS`` of the board's time each), so B is read between them; its
search is the game's (the app's, taken over when it fits) or one made for
the review, hard's arena. Its peak is held to the game screen's searching
at the same position (tests/test_device_memory.py): the review's code and
the coach's take the place of the game screen's, which leaves the heap
with the menus' (``KEEPS``) and comes back with the next game
(app.main.game_screen).
"""

from app import let_go
from app.view.board import SPIN, board_parts
from boards.common import A, B, DOWN, LEFT, RIGHT, START

STEP_MS = 50  # board time a step of the coach's search (B waits at most this for the next read)
SPIN_MS = 100  # board time between turns of the spinner
HUNTED = ("mistake", "blunder")  # what DOWN stops at
# What the review keeps on the heap (app.let_go): its board's drawing and
# the coach; the game screen's code (6.2 KB of the port's heap) and the
# menus' go, and the thinking on the player's time (the coach steps its
# searches with tanbo.ai.step).
KEEPS = ("app.screens.review", "app.view.board", "app.view.layout", "app.view.tiles", "tanbo.coach")
# A verdict where its word does not fit a line (9x9's 5 characters at
# 160x128: "blund" "er"): the chess sign of it.
SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def screen(app, game, who=None, keeps=None):
    """The review of finished ``game`` (``who``: its library byte, for a game of the
    library; B then goes back to the games list, else to the game's result);
    ``keeps``: the code it keeps until its coach is first asked (None: KEEPS)."""
    return ReviewScreen(game, app.display.width, app.display.height, None, app, who, keeps)


class ReviewScreen:
    """Steps through ``game`` (undone and replayed in place, whole again on leaving); ``back()`` runs on B
    (None: the games list for a game of the library, ``who`` given, else
    ``app.go("result", game)``, the game's result, made anew: no menu stays on
    the heap under the review, nor its code once the coach is asked).
    ``keeps``: the code kept until then (None: :data:`KEEPS`; the games list's
    on a board of large heap, which B would load again).

    ``app``: the app (its board's slowness and the computer's search, which
    the coach takes over); None: no coach (the keys A and DOWN do nothing).
    ``who``: the game's :func:`app.store.library.who` byte, for the sent record.
    """

    keeps = KEEPS

    def __init__(self, game, width, height, back, app=None, who=None, keeps=None):
        if app is not None:
            if keeps:
                self.keeps = keeps
            # The coach's search ahead: the menus' and the game screen's code
            # go before the board is built, not once it is shown.
            let_go(self.keeps)
        self.game = game
        self.back = back
        self.app = app
        self.who = who
        # (What building the board loaded, the theme and the sizes, goes as the
        # screen is shown: App.show lets go what KEEPS does not hold.)
        self.view, self.status, self.group = board_parts(game.variant, width, height)
        self.view.cursor.hidden = True
        self.redo = []  # plies stepped back over, the latest last
        self.coach = None  # a tanbo.coach.Coach at work
        self.hunt = 0  # the player whose next mistake DOWN looks for (0: none)
        self.said = None  # the coach's last words, until the next step
        self.search = None
        self.spin = 0
        self.spun = 0  # the coach's nodes at the spinner's last turn
        if app is not None:
            self.search = app.search  # (the review's now: the next game makes its own)
            app.search = None
            self.slowness = app.hw.slowness
        self.update()

    def update(self):
        g = self.game
        self.view.render(g, False, None, g.last_move(), None, True)
        self.status.update(g)
        self.show_status()

    def show_status(self):
        g = self.game
        st = self.status
        if self.coach is not None:
            lines = ("ply %d %s B:stop" % (g.ply, SPIN[self.spin % 4]), "%d %s" % (g.ply, SPIN[self.spin % 4]))
        elif self.said is not None:
            lines = self.said
        else:
            lines = ("ply %d  A:coach" % g.ply, "ply %d" % g.ply)
        for text in lines:  # the longest that fits
            if st.fits(text):
                break
        st.say(text)

    def _forward(self):
        m = self.redo.pop()
        if m < 0:
            self.game.resign(-m)
        else:
            self.game.play(m)

    def _ask(self):
        """Start the coach on the position on show and the move played there."""
        let_go(KEEPS)  # what the review kept besides (the games list's code) goes before the coach's search
        from tanbo.coach import Coach
        from tanbo.ai import nodes_in  # (the search's code, loaded with the coach: not before the board shows)
        self.step_nodes = nodes_in(STEP_MS, self.slowness)
        self.spin_nodes = nodes_in(SPIN_MS, self.slowness)
        g = self.game
        s = self.search
        if s is not None and not (s.level == "hard" and s.slowness == self.slowness and s.fits(g)
                                  and not getattr(s, "shared", False)):
            s = self.search = None  # (let go before the coach makes its own)
        self.coach = Coach(g, self.redo[-1], "hard", None, self.slowness, 0, s)
        self.search = self.coach.search
        self.spun = 0

    def _judged(self):
        """The coach is done: hard's move marked, the verdict said."""
        c = self.coach
        self.coach = None
        g = self.game
        view = self.view
        best = g.variant.format_point(c.best)
        word = c.verdict or "good"
        sign = SIGNS.get(word, word)
        self.said = ("ply %d %s, hard %s" % (g.ply, word, best), "%s hard %s" % (word, best),
                     "%s hard %s" % (sign, best), word, sign)
        view.move_cursor(c.best)
        view.cursor.hidden = False
        return c.verdict

    def key(self, k):
        g = self.game
        if self.coach is not None:
            if k == B:
                self.coach = None  # (its search is kept for the next question)
                self.hunt = 0
                self.update()
                return True
            return False
        if self.said is not None:
            self.said = None
            self.view.cursor.hidden = True
        if k == LEFT and g.last_move() is not None:
            self.redo.append(g.last_move())
            g.undo()
        elif k == RIGHT and self.redo:
            self._forward()
        elif (k == A or k == DOWN) and self.redo and self.app is not None and g.winner is None:
            self.hunt = g.to_move if k == DOWN else 0
            self._ask()
        elif k == START:
            self.send()
            return True
        elif k == B:
            while self.redo:  # leave the game as it ended: its result and a later review hold
                self._forward()
            if self.back is not None:
                self.back()
            elif self.who is not None:
                self.app.go("games")
            else:
                self.app.go("result", g)
            return True
        else:
            return False
        self.update()
        return True

    def send(self):
        """The whole game's record on the console (app.send), the ply on show kept."""
        n = len(self.redo)
        while self.redo:
            self._forward()
        from app.send import send
        send(self.game, self.who)
        for _ in range(n):
            self.redo.append(self.game.last_move())
            self.game.undo()
        self.said = ("record sent", "sent")
        self.show_status()

    def tick(self, now):
        c = self.coach
        if c is None:
            return False
        if not c.step(self.step_nodes):
            done = c.progress()[0]
            if done - self.spun < self.spin_nodes:
                return False
            self.spun = done
            self.spin += 1
            self.show_status()
            return True
        verdict = self._judged()
        if self.hunt and verdict not in HUNTED:
            # On to the player's next move, the board following.
            g = self.game
            self._forward()
            while self.redo and g.winner is None and g.to_move != self.hunt:
                self._forward()
            self.view.cursor.hidden = True
            self.said = None
            if self.redo and g.winner is None:
                self._ask()
            else:
                self.hunt = 0
                self.said = ("no more mistakes", "none left", "none")
        else:
            self.hunt = 0
        self.update()
        return True
