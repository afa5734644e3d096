"""The game screen: cursor, moves, hints, root highlight, removal flash, undo, the computer's turn.

Keys: D-pad moves the cursor (auto-repeat comes from the app); A places a
stone; B undoes (the computer's reply too); START asks for the game menu;
SELECT toggles hints.

The screen changes only its game and its drawing. What needs the app (a
sound, a save, another screen, the computer's search while the app reads
the buttons) it asks for by what :meth:`GameScreen.key` and
:meth:`GameScreen.tick` return: 0 (nothing), CHANGED (redraw) or one of the
events below, which the app acts on.
"""

import gc

from tanbo import NOT_CONNECTED, OCCUPIED

from app.view.board import SPIN, board_parts
from boards.common import A, B, DOWN, LEFT, RIGHT, SELECT, START, UP

CHANGED = 1  # redraw, nothing else
PLACED = 2  # a stone was placed (the app: click, save if a person is to move)
REMOVED = 3  # ... and roots were removed (the app: chord, save if a person is to move)
UNDONE = 4  # moves were taken back (the app: save)
HINTS = 5  # hints were switched (the app: keep the setting)
MENU = 6  # START: the app shows the game menu
OVER = 7  # the game is over, its last flash shown: the app shows the result
THINK = 8  # the computer is to move: the app runs think() with its own input

# What a game's screen keeps on the heap (app.let_go): its board's drawing
# and its thinking on the player's time; the menus' code, the theme and the
# sizes (the board keeps the names it uses) and what set the game up go, for
# the search.
KEEPS = ("app.screens.game", "app.view.board", "app.view.layout", "app.view.tiles", "tanbo.ponder")

FLASH_MS = 110  # one on or off phase of a removal flash
FLASH_PHASES = 6
SPIN_MS = 100  # thinking indicator: at most this long between turns of the spinner...
# ...counted in search nodes as well, where the clock says nothing (the
# simulator's virtual time stands still during a search): tanbo.ai's nodes
# are time-normalised, at most NODE_MS of SAMD51 time each (board-time
# measurements of hard moves: 0.198 ms a node on 9x9, 0.154 ms on 19x19,
# means of 4 positions), times the board's slowness. Progress comes every
# tanbo.ai.PROGRESS_EVERY (24) nodes, so the spinner turns every 168 nodes
# on an RP2040 (~113 ms on 9x9) and every 504 on a SAMD51 (~100 ms),
# within the 150 ms that keeps it seen turning.
NODE_MS = 0.2
THINKING = ("think %s B:now", "%s B:now")  # longest first; %s: the spinner
STEPS = {UP: (0, -1), DOWN: (0, 1), LEFT: (-1, 0), RIGHT: (1, 0)}


# On a board of small heap (app.main.App.small_heap), a game of more cells than
# this (points times players) is searched on the game itself, not on a copy
# (app.shared_search.SharedSearch): the copy and the game's screen do not fit
# a SAMD51's heap together. Such a game does not ponder (its search plays on
# the game on show). Two players (19x19's 722), then more (4p, Hexbo of 3 and 6:
# docs/board-costs.md#shared-searches).
SHARE_ABOVE = 400
SHARE_ABOVE_MANY = 360
# A shared search's game of more points than this has its undo stacks, and
# the records of REMOVED_CELLS removed cells, made for a long game at its
# start (Game.reserve), while the heap has big blocks: grown mid-game they
# find none (docs/board-costs.md#shared-searches).
RESERVE_ABOVE = 128
REMOVED_CELLS = 512


def kept_search(search, game, ai, level, slowness, small_heap=False, make=True):
    """The search the computer's moves in ``game`` at ``level`` use (a
    ``tanbo.ai.Search``, 6-25 KB of arrays on a board): ``search`` itself
    if it was made for such a game (variant, roots, level, slowness: a new
    game of the same kind loads into it), else a new one, made once
    ``search`` is dropped and the heap collected (with ``make`` False: None
    then); None in a game between people (which never loads the AI, about
    8 KB of code on a board). ``small_heap``: the board's heap is a
    SAMD51's (see ``SHARE_ABOVE``).

    Kept from game to game: its big blocks are allocated once, not at a
    move, when the heap is most fragmented. Made at a game's start, before its
    screen, on a board of small heap; elsewhere once the game's board is
    on the panel (:meth:`app.main.App.play`).
    """
    if not ai:
        return None
    shared = small_heap and game.players * game.variant.size > (
        SHARE_ABOVE if game.players == 2 else SHARE_ABOVE_MANY)
    if shared and len(game.board) > RESERVE_ABOVE:
        # The search plays on ``game``, whose undo stacks then grow during
        # searches, on the game's most fragmented heap: room for a long game
        # (4p's ran to 480 plies of its 361 cells) made now, while blocks are large.
        game.reserve((len(game.board) * 3 // 2 + 127) // 64 * 64, REMOVED_CELLS)
    if (search is not None and search.level == level and search.slowness == slowness
            and getattr(search, "shared", False) == shared and search.fits(game)):
        return search
    search = None
    if not make:
        return None
    gc.collect()
    if shared:
        from app.shared_search import SharedSearch
        return SharedSearch(game, level, game.ply, slowness=slowness)
    from tanbo.ai import Search
    return Search(game, level, game.ply, slowness=slowness, compact=small_heap)


class GameScreen:
    """Plays ``game``; ``ai`` is a tuple of players the computer moves (empty: all people).

    ``hints``: legal-move dots shown; ``slowness``: the board's CPU time
    relative to a SAMD51 (it paces the spinner in nodes); ``search``: the
    computer's search for this game, if made, and ``small_heap``, the
    board's heap is a SAMD51's (see :func:`kept_search`).
    """

    searches = True  # its computer's moves come from tanbo.ai (App.set_up_search makes the search)
    keeps = KEEPS
    # A tanbo.ponder.Ponder on the person's turn (set by app.main.App.think):
    # on the object only while there is one, its table no larger till then.
    ponder = None

    def __init__(self, game, ai, width, height, hints=True, slowness=1.0, search=None, small_heap=False):
        self.game = game
        self.ai = ai
        self.hints = hints
        self.view, self.status, self.group = board_parts(game.variant, width, height)
        self.slowness = slowness
        self.spin_nodes = max(1, int(SPIN_MS / (NODE_MS * slowness)))
        self.flash = None  # (removed points, the board before, the mover) of a removal being flashed
        self.before = bytearray(game.variant.size)
        self.flash_phase = 0
        self.flash_next = 0
        self.thinking = False
        self.spin = 0
        self.spun_at = 0  # clock (ms) of the last turn of the spinner
        self.spun_done = 0  # nodes searched at the last turn
        self.spin_cell = None  # (label, index) of the spinner's character while thinking
        self.search = search  # the computer's tanbo.ai.Search (see kept_search)
        self.small_heap = small_heap
        self.message = None  # texts, longest first, for the info area until the next key
        self.cursor = self._start_cursor()
        # Against the computer the hints stay the one person's: they then change
        # near each move only, a cheap refresh on the boards (see BoardView.render).
        people = [p for p in range(1, game.variant.players + 1) if p not in ai]
        self.hint_player = people[0] if len(people) == 1 else None
        self.update()

    # -- drawing --------------------------------------------------------------

    def _start_cursor(self):
        """The legal point nearest the board's middle (the middle if none)."""
        g = self.game
        lay = self.view.layout
        # (In pixels: Hexbo's rows are shifted; the middle row is not.)
        mid_x, mid_y = lay.x0 + lay.cols // 2 * lay.cell, lay.y0 + lay.rows // 2 * lay.cell
        best, best_d = 0, 1 << 30
        # The legal points in the engine's order, read in place (legal_moves'
        # sorted list would take a 512 B block of 19x19's heap); of equals the
        # lowest point.
        over = g.winner is not None
        for i in range(g.variant.size if over else g.legal_count()):
            p = i if over else g.legal_move_at(i)
            x, y = lay.cell_xy(p)
            d = abs(x - mid_x) + abs(y - mid_y)
            if d < best_d or d == best_d and p < best:
                best, best_d = p, d
        return best

    def _root_under_cursor(self):
        """The root at the cursor, or the root a move there would grow (an id), or None."""
        g, p = self.game, self.cursor
        if g.winner is not None:
            return None
        return g.root_at(p) if g.board[p] else g.growing_root(p)

    def update(self):
        """Redraw board, cursor and status from the game state."""
        g = self.game
        self.view.render(g, self.hints, self._root_under_cursor(), g.last_move(), self.flash,
                         self.flash_phase % 2 == 0, self.hint_player)
        self.view.move_cursor(self.cursor)
        self.status.update(g)
        self.show_status()

    def show_status(self):
        """The status line again: thinking, a message, the game over, or whose move it is."""
        st = self.status
        if self.thinking:
            # B (after the app's STOP_AFTER_MS) has it play sooner: said on every
            # board, in the 7 characters of 9x9 on 240x240 if need be.
            for text in THINKING:
                text = text % SPIN[self.spin % 4]
                if st.fits(text):
                    break
            st.say(text)
        elif self.message:
            for text in self.message:  # the longest that fits
                if st.fits(text):
                    break
            st.say(text)
        elif self.game.winner is not None:
            st.say("over")
        else:
            st.say("ply %d" % (self.game.ply + 1))

    def notify(self, *texts):
        """Show the longest of ``texts`` that fits the info area until the next key."""
        self.message = texts
        self.show_status()

    # -- playing --------------------------------------------------------------

    def play(self, p):
        """Play point ``p`` for the side to move; PLACED, or REMOVED (the removed roots flash)."""
        g = self.game
        before = self.before
        before[:] = g.board  # in place: a copy a move, or a pair a removed stone, takes blocks
        mover = g.to_move
        removed = g.place(p)
        self.thinking = False
        if removed:
            # (the removed stones are those of ``before`` gone from the board: no
            # list, which a 4p game's last removals would make on a full heap)
            self.flash = (None, before, mover)
            self.flash_phase = 0
            self.flash_next = -1  # the next tick starts the clock
        self.update()
        return REMOVED if removed else PLACED

    def undo(self):
        """Take back the last person's move (and the computer's replies after it): UNDONE or CHANGED."""
        g = self.game
        if g.last_move() is None:
            self.message = ("nothing to undo", "no undo")
            return CHANGED
        self.ponder = None  # its guess followed the move taken back
        g.undo()
        while self.ai and g.last_move() is not None and g.to_move in self.ai:
            g.undo()
        self.flash = None
        return UNDONE

    def person_to_move(self):
        """True when the game waits for a person (or is over): the moment to save."""
        g = self.game
        return g.winner is not None or g.to_move not in self.ai

    # -- the computer's turn (run by the app, which reads the buttons meanwhile) --

    def start_thinking(self, now):
        """Show the spinner: the computer's search starts at ``now`` (ms)."""
        self.thinking = True
        self.spun_at = now
        self.spun_done = 0
        self.show_status()
        # The cell the spinner turns in (label, index), found once: each
        # turn then writes that one character (see spin_due).
        self.spin_cell = None
        ch = SPIN[self.spin % 4]
        for label in self.status.info:
            i = label.text.find(ch)
            if i >= 0:
                self.spin_cell = (label, i)
                break

    def choose(self, level, progress):
        """The computer's choice at ``level`` (not yet played); ``progress(done, total)``
        is the app's callback, True to stop early with the best move so far.

        ``tanbo.ai.choose_move`` with the node budget of this board, seeded
        with the ply, on the game's search (:func:`kept_search`). Called
        straight from here, no wrapper: every frame under the search counts
        on CircuitPython's pystack (see tanbo_tools.play.pystack).
        """
        p = self.ponder
        if p is not None:
            self.ponder = None
            if p.search.level == level:
                return p.reply(self.game, progress)  # what it pondered (tanbo.ponder)
        self.search = kept_search(self.search, self.game, self.ai, level, self.slowness, self.small_heap)
        from tanbo.ai import choose_move
        return choose_move(self.game, level, self.game.ply, progress, slowness=self.slowness, search=self.search)

    def spin_due(self, done, now):
        """Turn the spinner if SPIN_MS or its node count passed since the last turn; True if it did."""
        if done - self.spun_done < self.spin_nodes and now - self.spun_at < SPIN_MS:
            return False
        self.spun_at = now
        self.spun_done = done
        self.spin += 1
        # One character, not the status text laid out anew: this runs at
        # the search's deepest point (CircuitPython's pystack, 1.5 KB). The
        # label's setter redraws only the cell that changed.
        if self.spin_cell is not None:
            label, i = self.spin_cell
            t = label.text
            label.text = t[:i] + SPIN[self.spin % 4] + t[i + 1:]
        return True

    # -- screen protocol ------------------------------------------------------

    def key(self, k):
        if self.flash is not None or self.thinking:
            return 0
        g = self.game
        self.message = None
        event = CHANGED
        if k in STEPS:
            dx, dy = STEPS[k]
            self.cursor = self.view.layout.step(self.cursor, dx, dy)
        elif k == A:
            if g.winner is not None or g.to_move in self.ai:
                return 0
            why = self._why_not(self.cursor)
            if why is None:
                return self.play(self.cursor)
            self.message = why
        elif k == B:
            event = self.undo()
        elif k == SELECT:
            self.hints = not self.hints
            event = HINTS
        elif k == START:
            return MENU
        self.update()
        return event

    def _why_not(self, p):
        """Why the side to move may not play ``p``: texts longest first, or None.

        The engine says why; this picks words that fit: the short form fits
        3 lines of 5 characters (9x9 on 160x128) and one line of 7 (9x9 on
        240x240).
        """
        why = self.game.illegal_reason(p)
        if why is None:
            return None
        if why[0] == OCCUPIED:
            return ("occupied", "taken")
        if why[0] == NOT_CONNECTED:
            return ("not next to own", "no own near", "no own")
        own = self.game.touching(p)
        return ("touches %d own" % own, "touch %d own" % own, "%d own" % own)

    def tick(self, now):
        """Advance a flash; then OVER or THINK when that is next; CHANGED if the screen changed."""
        if self.flash is not None:
            if self.flash_next < 0:
                self.flash_next = now + FLASH_MS
            if now < self.flash_next:
                return 0
            self.flash_phase += 1
            self.flash_next = now + FLASH_MS
            if self.flash_phase >= FLASH_PHASES:
                self.flash = None
            self.update()
            return CHANGED
        g = self.game
        if g.winner is not None:
            return OVER
        if g.to_move in self.ai:
            return THINK
        return 0
