"""The game screen: cursor, moves, hints, root highlight, removal flash, undo, the AI's turn.

Keys: D-pad moves the cursor (auto-repeat comes from the app); A places a
stone; B undoes (the computer's reply too); START opens the game menu;
SELECT toggles hints. In review mode (after a game) LEFT/RIGHT step
through the plies and B leaves.
"""

import displayio

from app.board_view import BoardView, StatusView
from boards.common import A, B, DOWN, LEFT, RIGHT, SELECT, START, UP

try:
    from tanbo.ai import choose_move
except ImportError:  # the engine without its AI: random legal moves
    choose_move = None

FLASH_MS = 110  # one on or off phase of a removal flash
FLASH_PHASES = 6
PROGRESS_MS = 100  # thinking indicator: at most this long between turns of the spinner...
SPIN_NODES = 72  # ...or this many nodes searched (~100 ms of board time; virtual time stands still)
SPIN = "-\\|/"
STEPS = {UP: (0, -1), DOWN: (0, 1), LEFT: (-1, 0), RIGHT: (1, 0)}


class GameScreen:
    """Plays ``game``; ``ai`` is a tuple of players the computer moves (empty: all people)."""

    def __init__(self, app, game, ai=(), review=False):
        self.app = app
        self.game = game
        self.ai = ai
        self.review = review
        v = game.variant
        self.view = BoardView(v, app.width, app.height)
        self.status = StatusView(self.view.layout, v.players)
        self.group = displayio.Group()
        self.group.append(self.view.group)
        self.group.append(self.status.group)
        self.flash = None
        self.flash_phase = 0
        self.flash_next = 0
        self.redo = []
        self.thinking = False
        self.spin = 0
        self.last_progress = 0
        self.spin_done = 0
        self.message = None  # texts, longest first, for the info area until the next key
        self.cursor = self._start_cursor()
        self.view.cursor.hidden = review
        self.highlight = None
        # Against the computer the hints stay the one person's: they then change
        # near each move only, a cheap refresh on the boards (see BoardView.render).
        people = [p for p in range(1, v.players + 1) if p not in ai]
        self.hint_player = people[0] if len(people) == 1 else None
        self.update()

    # -- drawing --------------------------------------------------------------

    def _start_cursor(self):
        """The legal point nearest the board's middle (the middle if none)."""
        g = self.game
        lay = self.view.layout
        mid_c, mid_r = lay.cols // 2, lay.rows // 2
        best, best_d = 0, 1 << 30
        moves = g.legal_moves() if g.winner is None else range(g.variant.size)
        for p in moves:
            i = lay.cell_of[p]
            d = abs(i % lay.cols - mid_c) + abs(i // lay.cols - mid_r)
            if d < best_d:
                best, best_d = p, d
        return best

    def _root_under_cursor(self):
        """(stones, space) of the root at the cursor, or of the root a move there would grow."""
        g, p = self.game, self.cursor
        if self.review or g.winner is not None:
            return None, None
        q = -1
        if g.board[p]:
            q = p
        elif g.is_legal(p):
            for n in g.variant.neighbours[p]:
                if g.board[n] == g.to_move:
                    q = n
                    break
        if q < 0:
            return None, None
        return g.root_stones(g.root_at(q)), g.root_space(q)

    def update(self):
        """Redraw board, cursor and status from the game state."""
        g = self.game
        stones, space = self._root_under_cursor()
        hist = g.history
        last = hist[-1] if hist else None
        self.view.render(g, self.app.settings.hints and not self.review, stones, space, last,
                         self.flash, self.flash_phase % 2 == 0, self.hint_player)
        self.view.move_cursor(self.cursor)
        self.status.update(g)
        self._say()

    def _say(self):
        g = self.game
        st = self.status
        if self.thinking:
            st.say("think " + SPIN[self.spin % 4], "B:now")
        elif self.message:
            for text in self.message:  # the longest that fits
                if st.fits(text):
                    break
            st.say(text)
        elif self.review:
            st.say("ply %d" % g.ply, "<>:ply")
        elif g.winner is not None:
            self.status.say("over")
        else:
            self.status.say("ply %d" % (g.ply + 1))

    # -- playing --------------------------------------------------------------

    def play(self, p):
        """Play point ``p`` for the side to move: sound, flash of removed roots, save."""
        g = self.game
        before = bytes(g.board)
        mover = g.to_move
        removed = g.play(p)
        self.redo = []
        app = self.app
        if removed:
            self.flash = [(q, before[q] or mover) for q in removed]
            self.flash_phase = 0
            self.flash_next = app.clock() + FLASH_MS
            app.sound("chord")
        else:
            app.sound("click")
        app.save_game()
        self.update()

    def undo(self):
        """Take back the last person's move (and the computer's replies after it)."""
        g = self.game
        if not g.history:
            self.message = ("nothing to undo", "no undo")
            return
        g.undo()
        while self.ai and g.history and g.to_move in self.ai:
            g.undo()
        self.flash = None
        self.app.save_game()

    def ai_move(self):
        """Let the computer choose (buttons stay live: A or B stops it early) and play."""
        app = self.app
        self.thinking = True
        self.stop = False
        self.spin_done = 0
        self.last_progress = app.clock()
        self.update()
        app.refresh()
        if choose_move is None:
            moves = self.game.legal_moves()
            p = moves[(self.game.ply * 7919) % len(moves)]
        else:
            p = choose_move(self.game, app.settings.level_name(), self.game.ply, self.progress)
        self.thinking = False
        self.play(p)

    def progress(self, done, total):
        """AI callback (``done`` nodes of ``total``): True (stop) after a press of A or B.

        The spinner turns after SPIN_NODES more nodes or PROGRESS_MS, whichever
        comes first: the node count keeps it turning where the clock stands
        still during a search (the simulator's virtual time).
        """
        app = self.app
        buttons = app.hw.buttons
        while buttons.read():
            if buttons.pressed and buttons.key in (A, B):
                self.stop = True
        now = app.clock()
        if done - self.spin_done >= SPIN_NODES or now - self.last_progress >= PROGRESS_MS:
            self.last_progress = now
            self.spin_done = done
            self.spin += 1
            self._say()
            app.refresh()
        return self.stop

    # -- screen protocol ------------------------------------------------------

    def key(self, k):
        if self.flash is not None or self.thinking:
            return False
        g = self.game
        self.message = None
        if k in STEPS:
            if self.review:
                return self._review_step(k)
            dx, dy = STEPS[k]
            self.cursor = self.view.layout.step(self.cursor, dx, dy)
        elif self.review:
            if k == B:
                self.app.game_over(g)
            return True
        elif k == A:
            if g.winner is not None or g.to_move in self.ai:
                return False
            why = self._why_not(self.cursor)
            if why:
                self.message = why
            else:
                self.play(self.cursor)
                return True
        elif k == B:
            self.undo()
        elif k == SELECT:
            self.app.settings.hints = not self.app.settings.hints
            self.app.save_settings()
        elif k == START:
            self.app.game_menu(self)
            return True
        self.update()
        return True

    def _why_not(self, p):
        """Why the side to move may not play ``p``: texts longest first, or None.

        The short form fits 3 lines of 5 characters (9x9 on 160x128) and one
        line of 7 (9x9 on 240x240).
        """
        g = self.game
        if g.is_legal(p):
            return None
        if g.board[p]:
            return ("occupied", "taken")
        own = 0
        for n in g.variant.neighbours[p]:
            if g.board[n] == g.to_move:
                own += 1
        if own == 0:
            return ("not next to own", "no own near", "no own")
        return ("touches %d own" % own, "touch %d own" % own, "%d own" % own)

    def notify(self, *texts):
        """Show the longest of ``texts`` that fits the info area until the next key."""
        self.message = texts
        self._say()

    def _review_step(self, k):
        g = self.game
        if k == LEFT and g.history:
            self.redo.append(g.history[-1])
            g.undo()
        elif k == RIGHT and self.redo:
            m = self.redo.pop()
            if m < 0:
                g.resign(-m)
            else:
                g.play(m)
        else:
            return False
        self.update()
        return True

    def tick(self, now):
        """Advance a flash; start the computer's move; True if the screen changed."""
        g = self.game
        if self.flash is not None:
            if now < self.flash_next:
                return False
            self.flash_phase += 1
            self.flash_next = now + FLASH_MS
            if self.flash_phase >= FLASH_PHASES:
                self.flash = None
            self.update()
            return True
        if self.review:
            return False
        if g.winner is not None:
            self.app.game_over(g)
            return True
        if g.to_move in self.ai:
            self.ai_move()
            return True
        return False
