"""The puzzle screen: a game screen on a puzzle's position, its goal in two text lines under the board.

Keys as in a game: the D-pad moves the cursor, A places a stone, SELECT
toggles the legal-move dots, START asks for the puzzle menu. B shows the
region of the solution once a try has failed (in a game B undoes; here a
wrong move is taken back by itself). After solving, A opens the next one.

A right move is answered by the puzzle's forced replies, played as the
computer's moves are (the app's turn, :meth:`app.main.App.think`; the
stone and its removal flash) after a short pause; a wrong one is shown,
its "No: ..." said, and taken back after WRONG_MS or at the next key.
Events above :data:`app.screens.game.THINK` are this screen's requests,
which :func:`serve` carries out for the app.
"""


import displayio
from tanbo.puzzles import BANDS

from app.screens.game import CHANGED, KEEPS, THINK, GameScreen
from app.store.progress import keep, of, open_book
from app.view import theme
from app.view.board import wrap
from app.view.text import Label
from boards.common import A, B, START

SOLVED = THINK + 1  # the last move of the line was played: the app records it (one save)
PUZZLE_MENU = THINK + 2  # START: the app shows the puzzle menu
NEXT_PUZZLE = THINK + 3  # A after solving: the app opens the next puzzle

REPLY_MS = 400  # pause between the player's stone (its flash) and the forced reply
WRONG_MS = 1200  # how long a wrong move stays before it is taken back
TEXT_LINES = 2  # the goal, then what the last move did
# 1x text, as the status of 13x13 and 19x19 games: a line of 2x text on
# the PicoSystem (24 px high) would refresh 240 x 24 px for each change,
# more than a move's 6,000-pixel budget with the stone.
MAX_CHARS = 32
HINT_CELLS = 3  # the hint region: 3 x 3 cells holding the next move


def screen(app, n):
    """Puzzle ``n`` (from 1); it becomes the one to resume at (saved with the next
    write: opening one never writes). A damaged one (it cannot be read, its
    position parsed or its line played) is refused: the list shows it as
    damaged, asking for a copy of the game again; the progress is kept."""
    try:
        book = open_book(app)
    except (OSError, ValueError):
        return app.go("puzzles")  # (which says the collection cannot be read)
    try:
        count = len(book)
        puzzle = book.load(n - 1)
    except (ValueError, OSError) as e:
        return refuse(app, n, e)
    finally:
        book.close()
    p = of(app)
    p.resume = n
    keep(app, p)
    p = None
    if isinstance(app.screen, PuzzleScreen):
        # Next puzzle: let go of the last board before building one (two at
        # once would be a second tile strip and row grids on the heap).
        app.drop_screen()
    try:
        return PuzzleScreen(puzzle, count, app.display.width, app.display.height, app.settings.hints, app.hw.slowness)
    except ValueError as e:
        return refuse(app, n, e)


def refuse(app, n, problem):
    """Puzzle ``n`` cannot be played (``problem``, said on the serial console): the list, at it."""
    print("puzzles:", problem)
    app.go("puzzles", n, True)


def serve(app, screen, event):
    """What puzzle screen ``screen`` asked for with ``event``."""
    n = screen.puzzle.number
    if event == SOLVED:
        p = of(app)
        p.mark(n)
        p.resume = n % screen.count + 1
        keep(app, p)
        app.save_game(app.saved_game)  # the one write a solved puzzle costs
    elif event == NEXT_PUZZLE:
        app.go("puzzle", n % screen.count + 1)
    elif event == PUZZLE_MENU:
        app.go("puzzle_menu", screen)


class PuzzleScreen(GameScreen):
    """Plays ``puzzle`` (:class:`tanbo.puzzles.Puzzle`), number ``puzzle.number`` of
    ``count``, on a ``width`` x ``height`` screen; ``hints``, ``slowness`` as for
    :class:`app.screens.game.GameScreen`. ValueError, before anything is built, for a
    puzzle that cannot be played (a damaged file: :func:`screen` refuses it)."""

    searches = False  # the defender's replies are the puzzle's line: no tanbo.ai, no search
    # A game screen's code, and what a puzzle's opening reads each time: the
    # theme and sizes its text uses, the screen change, the setup of a game and
    # the position's parser (3.7 KB of a board's heap; imported again at each
    # opening, it would be a quarter of the opening's time).
    keeps = KEEPS + ("app.screens.puzzle", "app.view.theme", "app.view.sizes", "app.store.progress",
                     "app.held", "tanbo.game_make", "tanbo.position")

    def __init__(self, puzzle, count, width, height, hints=True, slowness=1.0):
        self.puzzle = puzzle
        self.count = count
        game = puzzle.game()  # ValueError for a damaged position, before anything is built
        puzzle.check(game)  # and for a line that does not play
        self.start_ply = game.ply
        self.player = game.to_move
        self.solved = False
        self.failed = 0  # wrong tries so far
        self.wrong = None  # what the last wrong move did, until the next key
        self.back_at = 0  # clock (ms) to take a wrong move back; 0: none shown, -1: from the next tick
        self.reply_at = 0  # clock (ms) of the forced reply; -1: from the next tick
        self.hint_step = -1  # the step whose hint region is shown
        self.region = None  # the hint region's sprite, made at the first hint
        h = 12 * TEXT_LINES
        chars = min(MAX_CHARS, (width - 4) // 6)
        self.text = [Label(2, height - h + 12 * i, chars, theme.TEXT) for i in range(TEXT_LINES)]
        defenders = tuple(p for p in range(1, game.variant.players + 1) if p != self.player)
        GameScreen.__init__(self, game, defenders, width, height - h, hints, slowness)
        for label in self.text:
            self.group.append(label.group)

    def step(self):
        """Plies of the solution played so far."""
        return self.game.ply - self.start_ply

    # -- drawing --------------------------------------------------------------

    def update(self):
        GameScreen.update(self)
        r = self.region
        if r is not None:
            hide = self.hint_step != self.step() or self.solved
            if r.hidden != hide:  # the firmware redraws at every hidden = False
                r.hidden = hide

    def show_status(self):
        p = self.puzzle
        st = self.status
        number, band = "#%d" % p.number, BANDS[p.band]
        keys = "A:next" if self.solved else "B:hint" if self.failed else ""
        # The most that fits the info area (dense-7 on the PicoSystem: 5 characters).
        options = ((number, band, keys), (number, keys), (number,)) if keys else ((number, band), (number,))
        for info in options:
            if st.fits(*info):
                break
        st.say(*info)
        top, below = self.text
        n = top.width
        if self.solved:
            lines = wrap(("Solved! " + p.why,), n) if p.why else ["Solved!", "A: next puzzle"]
            if len(lines) > TEXT_LINES:
                lines = ["Solved!"] + wrap((p.why,), n)
            top.set_color(theme.ACCENT)
            top.text = lines[0]
            below.text = lines[1] if len(lines) > 1 else ""
            return
        top.set_color(theme.TEXT)
        top.text = p.goal
        if self.message:  # a refused point: the longest reason that fits
            for text in self.message:
                if len(text) <= n:
                    break
        else:
            text = self.wrong or ""
            if keys and keys not in info and len(text) + 2 + len(keys) <= n:
                text += "  " + keys  # the info area is too narrow for it
        below.text = text

    def show_hint(self):
        """The HINT_CELLS x HINT_CELLS cells holding the next move of the line, framed:
        where in them the move is differs from puzzle to puzzle."""
        lay = self.view.layout
        c = lay.cell
        side = HINT_CELLS * c + 4
        if self.region is None:
            # Four bars, not one frame-sized sprite: moved or shown, a sprite
            # refreshes its whole rectangle (a 70 px square on the PicoSystem).
            pal = displayio.Palette(1)
            pal[0] = theme.ACCENT
            across, down = displayio.Bitmap(side, 2, 1), displayio.Bitmap(2, side, 1)
            self.region = displayio.Group()
            for bm, x, y in ((across, 0, 0), (across, 0, side - 2), (down, 0, 0), (down, side - 2, 0)):
                self.region.append(displayio.TileGrid(bm, pixel_shader=pal, x=x, y=y))
            self.view.group.append(self.region)
        i = lay.cell_of[self.puzzle.line[self.step()]]
        n = self.puzzle.number
        col = _clamp(i % lay.cols - n * 7 % HINT_CELLS, lay.cols - HINT_CELLS)
        row = _clamp(i // lay.cols - n * 5 % HINT_CELLS, lay.rows - HINT_CELLS)
        self.region.x = lay.x0 + col * c - 2
        self.region.y = lay.y0 + row * c - 2
        self.hint_step = self.step()

    # -- playing --------------------------------------------------------------

    def person_to_move(self):
        """Never the moment to save the game: a puzzle is not the game in progress
        (its progress is saved once, when solved: :data:`SOLVED`)."""
        return False

    def start_thinking(self, now):
        self.thinking = True  # a forced reply: no search, no spinner

    def choose(self, level, progress):
        """The line's next (forced) reply: the app plays it as the computer's move."""
        return self.puzzle.line[self.step()]

    def _take_back(self):
        self.game.undo()
        self.flash = None
        self.back_at = 0
        self.update()

    def key(self, k):
        if self.flash is not None or self.thinking:
            return 0
        if self.back_at:  # a key takes the wrong move back at once
            self._take_back()
            return CHANGED
        if self.solved:
            if k == A:
                return NEXT_PUZZLE
            return PUZZLE_MENU if k == START else 0
        if k == START:
            return PUZZLE_MENU
        if self.game.to_move != self.player:
            return 0  # the reply is due
        self.message = None
        self.wrong = None
        if k == B:
            if self.failed:
                self.show_hint()
                self.message = ("Hint: play inside the box", "Hint: inside the box")
            else:
                self.message = ("A hint after a try", "hint after a try")
        elif k == A:
            return self._try(self.cursor)
        else:
            return GameScreen.key(self, k)  # the cursor; SELECT: hints on/off
        self.update()
        return CHANGED

    def _try(self, p):
        """Play ``p``: the line goes on, or it is wrong (shown, then taken back)."""
        g, puzzle = self.game, self.puzzle
        why = self._why_not(p)
        if why is not None:
            self.message = why
            self.update()
            return CHANGED
        event = self.play(p)
        if puzzle.accepts(g):
            self.reply_at = -1
        else:
            self.failed += 1
            self.wrong = puzzle.wrong(g)
            self.back_at = -1
            self.update()
        return event

    def tick(self, now):
        """Advance a flash, take a wrong move back, play the reply (THINK) after
        REPLY_MS; SOLVED once, when the line is played out."""
        if self.flash is not None:
            return GameScreen.tick(self, now)
        if self.back_at:
            if self.back_at < 0:
                self.back_at = now + WRONG_MS
            if now < self.back_at:
                return 0
            self._take_back()
            return CHANGED
        if self.solved:
            return 0
        if self.step() >= len(self.puzzle.line):
            self.solved = True
            self.update()
            return SOLVED
        if self.game.to_move != self.player:
            if self.reply_at < 0:
                self.reply_at = now + REPLY_MS
            if now < self.reply_at:
                return 0
            return THINK
        return 0


def _clamp(v, top):
    return 0 if v < 0 else top if v > top else v
