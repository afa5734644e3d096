"""The app: owns the hardware, the buttons, the current screen, settings and saves; runs the loop.

``App(hw).run()`` on the board. The simulator builds the same App with a
virtual ``clock`` (ms) and calls :meth:`App.step` itself. Screens have
``group`` (a displayio Group), ``key(k)`` and ``tick(now_ms)``, which return
0 (nothing), CHANGED (True) or, from the game screen, an event asking the
app for a service (:mod:`app.screens.game`); menus, rules and review run the
actions they were built with. The display refreshes only when something
changed (``auto_refresh`` is off: no flicker, no wasted SPI time).

Input flows one way: only the app reads the buttons, also while the
computer searches (B, pressed STOP_AFTER_MS into it, has it play sooner).
Presses queued while the app was busy (building and drawing a new screen,
the computer's turn) are dropped, so none acts later as a surprise.
"""

import gc
import sys

from app import forget
# The game screen's events only (ints): no name here holds its code, which
# Review drops while its coach searches (app.screens.review; see game_screen).
from app.screens.game import CHANGED, HINTS, MENU, OVER, PLACED, REMOVED, THINK, UNDONE
from boards.common import B, CHORD, CLICK

# B stops the computer's search only this long (clock ms) after it began:
# the second press of a double tap (seen on the firmware 100-170 ms after
# the placing A, the search starting 70-90 ms after it) or a bounce (under
# keypad's 20 ms scan) lands inside; human double taps are mostly under
# 300 ms apart. A is never a stop: it places stones.
STOP_AFTER_MS = 350


class LowMemory:
    """The app's last line of defence: one line, "Low memory. Press A", shown by
    :meth:`App.last_stand` when not even the title menu can be built; any key
    asks for the title again.

    Showing it imports and allocates nothing, whatever the heap: its
    ``group`` (the text already in its tiles) is built at start by
    :func:`app.start.set_up` and held for the app's life, and this class
    lives in the module the app runs in (~0.25 KB of a board's heap,
    docs/board-costs.md#heap). A restart through ``supervisor.reload()``
    would show CircuitPython's own console between two runs of code.py.
    """

    def __init__(self, app, group, label):
        self.app = app
        self.group = group
        self.label = label  # app.view.text.Label (None: it could not be made; the background alone)

    def key(self, k):
        self.app.title()
        return 0

    def tick(self, now):
        return 0


def game_screen():
    """:mod:`app.screens.game`, imported again after a review let it go (taken from
    ``sys.modules`` while it is there: an import would make its room's package again)."""
    return sys.modules.get("app.screens.game") or __import__("app.screens.game").screens.game


def between():
    """:mod:`app.between`, imported at a game's end and at the next one's start (dropped
    during a game): the result shown, the next game's search and screen made."""
    from app import between
    return between


def low_memory():
    """:mod:`app.low_memory`, imported after an exception reached the app's loop only."""
    from app import low_memory
    return low_memory


class App:
    """The Tanbo app on hardware ``hw``; ``clock()`` returns ms, ``sleep(s)`` waits."""

    # Built by :func:`app.start.start` (App(), then set_up): that code runs
    # once, so code.py drops it from the heap afterwards.

    finished = None  # a game over whose result is shown in the next step (see game_over)
    # The board's heap is a SAMD51's (app.start.SMALL_HEAP; set by app.start): see
    # app.screens.game.SHARE_ABOVE. Here, not on the game screen's class: its module
    # leaves the heap under a review.
    small_heap = False
    # The power service's state (app.power_due; docs/power.md), on the class until it changes.
    lit = 0  # the backlight: 0 on, 1 dimmed, 2 off (asleep)
    last = 0  # clock ms of the last key or change on screen (set at start)
    due = 0  # clock ms at which app.power_due has something to do
    swallow = -1  # clock ms until which a press only wakes (after the board's sleep)
    low = False  # the low battery was said (and the game saved)
    # The nodes a round of several computer replies has not yet searched (see round_share).
    round_left = None

    # -- plumbing ---------------------------------------------------------------

    def show(self, screen):
        """Put ``screen`` (built whole) on the display, the code it does not keep let go
        (:func:`app.held.show`: that code is loaded for a screen's change only)."""
        __import__("app.held").held.show(self, screen)

    def go(self, name, *args):
        """Show the screen ``name``: :mod:`app.screens` ``.name``'s ``screen(app, *args)``
        builds it (None: it showed another itself), and the code the last one
        ran leaves the heap unless the new one keeps it (:meth:`show`)."""
        __import__("app.screens." + name)
        screen = sys.modules["app.screens." + name].screen(self, *args)
        if screen is not None:
            self.show(screen)

    def refresh(self):
        self.display.refresh()
        self.dirty = False

    def step(self):
        """One pass of the loop: keys, auto-repeat, the screen's timers, refresh if changed.

        A MemoryError anywhere in it (a search, a screen being built), or
        any other exception a screen raises (a damaged file, a bug: issue
        34), goes to :meth:`recover`: the app's one handler, here, where it adds 12 bytes to every call chain's pystack
        and no frame. Neither reaches CircuitPython's traceback console:
        whatever fails on their way back to the title ends at
        :meth:`last_stand` (see :meth:`recover`).
        """
        now = self.clock()
        b = self.hw.buttons
        try:
            # A game asked for, or over, in the last step: in a step of its own,
            # whose frame holds no screen that step read (the collector scans a
            # frame's spent slots too), so the last screen leaves the heap.
            if self.next_game is not None:
                between().start_next_game(self)
            elif self.finished is not None:
                between().show_result(self)
            while not self.busy and b.read():
                if b.pressed:
                    if self.lit or now < self.swallow:
                        self.power("wake", now)
                        continue  # the first press after a dim or a sleep only wakes
                    self.repeat.press(b.key, now)
                    self.act(self.screen.key(b.key))
                else:
                    self.repeat.release(b.key)
            if not self.busy:
                k = self.repeat.due(now)
                if k >= 0:
                    self.act(self.screen.key(k))
            event = self.screen.tick(self.clock())
            if event == THINK:
                # Straight to the search, not through act and game_event: two
                # frames less under it on CircuitPython's pystack (1.5 KB, and
                # the search's deepest calls take 1.1 KB of it).
                self.dirty = True
                self.think(self.screen)
            else:
                self.act(event)
            now = self.clock()
            if self.dirty:  # a key's change, the computer's move, a flash: not idle
                self.last = now
            if now >= self.due:  # a dim, a sleep or a battery reading (app.power_due)
                self.power("tick", now)
        except MemoryError:
            self.recover(None)
        except Exception as e:
            self.recover(e)
        if self.dirty and self.next_game is None and self.finished is None:
            self.refresh()  # (else the next step's screen change draws it all, once)
        if self.collect:
            # Before the next step: the computer's search (its first move
            # follows in the next step) finds the heap collected.
            self.collect = False
            # A new game's search (kept_search; None between people), made
            # once its board is on the panel (see play), unless the
            # computer's first move made it (think); the presses made
            # meanwhile are dropped, as while a screen is built. No block
            # for it: that move tries again, lighter after a MemoryError
            # (out_of_memory).
            try:
                self.make_search()
            except MemoryError:
                pass
            gc.collect()
        if self.busy:
            self.drop_keys()
        elif getattr(self.screen, "ponder", None):
            # On the person's turn, a step of the search started by think
            # (never under a menu: the game screen is not on screen then).
            try:
                return self.screen.ponder.step()
            except Exception as e:  # its MemoryError ends the pondering (tanbo.ponder): a bug
                self.recover(e)

    def make_search(self):
        """The search of the game on show, if it searches and has none yet. In a call
        of its own: with the screen in a local of :meth:`step`, 1d's second
        game at 123,000 B failed for a 3,968 B block under pytest
        (tests/test_device_sessions.py), likely a stale slot that the unix port's
        conservative collector read as the last game's screen."""
        s = self.screen
        # (a review has a search too, and no ``searches``; a puzzle's is False)
        if getattr(s, "searches", False) and s.search is None:
            s.search = self.search = game_screen().kept_search(None, s.game, s.ai, self.settings.level_name(),
                                                               self.hw.slowness, self.small_heap)

    def recover(self, error):
        """After ``error`` (None: a MemoryError) reached :meth:`step`: a lighter search
        (:meth:`out_of_memory`) or :func:`app.low_memory.back_to_title` (the game
        saved, the title). If that raises in turn (a MemoryError on the way back
        to the title, its module's import too), :meth:`last_stand`, which
        allocates nothing. The way back's code is loaded only then: not on the
        heap under a game."""
        try:
            if error is None and self.out_of_memory():
                return
            low_memory().back_to_title(self, error)
        except Exception:
            self.last_stand()

    def drop_keys(self):
        """Drop the presses queued while the app was busy; a held D-pad key stops repeating.

        On the boards ``keypad`` scans in the background and queues every
        press while Python works (a screen change takes 0.5-3 s there, a
        stone's refresh 0.3 s): without this they would act afterwards,
        e.g. a queued A stopping the next search at once.
        """
        b = self.hw.buttons
        while b.read():
            pass
        self.repeat.cancel()
        self.busy = False

    def act(self, event):
        """Mark the screen changed for a true ``event``; serve a game screen's request."""
        if event:
            self.dirty = True
            if event == OVER:
                self.game_over()  # not through game_event, whose argument would hold the screen
            elif event > CHANGED:
                self.game_event(self.screen, event)

    def game_event(self, screen, event):
        """What game screen ``screen`` asked for with ``event`` (see :mod:`app.screens.game`)."""
        if event == PLACED or event == REMOVED:
            self.sound(CHORD if event == REMOVED else CLICK)
            if screen.person_to_move() and screen.game.winner is None:  # one save per full turn
                self.save_turn(screen)  # (a game's end writes on OVER, with the library)
        elif event == UNDONE:
            self.save_turn(screen)
        elif event == HINTS:
            self.settings.hints = screen.hints  # saved with the next move
        elif event == MENU:
            self.game_menu(screen)
        elif event > THINK:  # a puzzle screen's request (app.screens.puzzle)
            from app.screens.puzzle import serve
            serve(self, screen, event)

    def game_menu(self, screen):
        """START's menu over game screen ``screen``. Without a block for it, the game's
        search (6-25 KB, a game's largest blocks after its tile strip) and the
        search's code (~8 KB) are let go and the menu built again: it opens
        wherever the game could be played, and the computer's next move loads
        and makes its search anew (lighter, said in words, if that fails:
        :func:`app.low_memory.lighter_move`)."""
        try:
            self.go("game_menu", screen)
        except MemoryError:
            if screen.ponder is not None:  # (set on the instance only then: a new slot grows its dict)
                screen.ponder = None
            screen.search = self.search = None
            # The menu's code is small blocks, as the search's code is.
            forget("tanbo.ai", "app.shared_search")
            gc.collect()
            self.go("game_menu", screen)

    def game_over(self, screen=None):
        """The game on show (or on ``screen``, under a menu) is over: it is saved, and its
        result shown, in the next step (:func:`app.between.show_result`), once the
        game's screen has left the heap."""
        screen = screen or self.screen
        self.finished = (screen.game, screen.ai)
        self.busy = True  # presses made until the result is up are stale

    def think(self, screen):
        """The computer's turn on ``screen``: search (the buttons read by :meth:`progress`), play;
        then, at hard with "Think on my time" on, search on during the person's turn
        (a step each loop: :meth:`step`).

        After a MemoryError in this move's search, :func:`app.low_memory.lighter_move`
        (and no pondering). Its frame is on the deepest call chain (a hard
        search's): no more locals here.
        """
        self.searching = self.fallback or self.settings.level_name()
        if not (screen.ponder and screen.ponder.over(screen.game, self.searching)):
            screen.start_thinking(self.clock())
            self.refresh()
        self.drop_keys()  # only a press made after the search began stops it
        self.stop_search = False
        if self.fallback is None:
            self.set_up_search(screen)
            p = screen.choose(self.searching, self.progress)
        else:
            p = low_memory().lighter_move(self, screen)
        self.act(screen.play(p))
        self.busy = True  # presses made while the reply is drawn are stale as well
        if (self.searching == "hard" and self.settings.ponder and screen.search
                and not getattr(screen.search, "shared", False) and screen.person_to_move()):
            # "Think on my time": the search goes on during the person's turn
            # (tanbo.ponder, loaded only then; after act, which saves the game).
            screen.ponder = __import__("tanbo.ponder").ponder.start(screen.search, screen.game)
        self.searching = None

    def set_up_search(self, screen):
        """The game's search for this move (:func:`app.screens.game.kept_search`), if
        the screen searches, and its clocks. Apart from :meth:`think`, whose frame
        stays under the search on the pystack: this one returns before the search
        starts."""
        if screen.searches:
            share = self.round_share(screen)
            screen.search = self.search = game_screen().kept_search(self.search, screen.game, screen.ai,
                                                                    self.searching, self.hw.slowness,
                                                                    self.small_heap)
            self.search.limit(share)
        now = self.clock()
        self.stop_from = now + STOP_AFTER_MS
        # The board's wall clock caps the search at the move's limit (3 s,
        # 6 s on larger boards), should a chip run slower than its slowness
        # says; the node budget ends it first on the boards as measured.
        # The simulator's clock stands still during a search: its moves
        # stay the node budget's, deterministic. (A puzzle's search: none.)
        self.search_until = now + (self.search.limit_ms if screen.searches else 0)

    def round_share(self, screen):
        """This move's nodes when several computer players reply in a row to a person (a
        round: tanbo.ai.ROUND_MS, shared by its moves), else None (its level's
        budget). The round's nodes left are counted down by each of its searches."""
        g, ai = screen.game, screen.ai
        n, p = 0, g.to_move
        while n < g.players and p in ai:  # the computer's moves before a person's
            n += 1
            p = p % g.players + 1
        if n == g.players:  # no person waits
            return None
        if g.ply and (g.to_move - 2) % g.players + 1 in ai and self.round_left is not None:
            # a round under way: less what the last reply searched
            self.round_left -= self.search.iterations if self.search is not None else 0
        elif n < 2:  # one reply to a person: its level's budget
            return None
        else:  # a person moved last: a new round
            from tanbo.ai import round_nodes
            self.round_left = round_nodes(self.hw.slowness, g.variant.node_cost)
        return self.round_left // n if self.round_left > n else 1

    def progress(self, done, total):
        """The search's callback (``done`` of ``total`` nodes): turn the spinner; True
        (stop: tanbo.ai then finishes depth 2 and plays its best move) once B
        was pressed STOP_AFTER_MS or more into the search."""
        b = self.hw.buttons
        while b.read():
            if not b.pressed:
                self.repeat.release(b.key)
            elif b.key == B and self.clock() >= self.stop_from:
                self.stop_search = True
        now = self.clock()
        if now >= self.search_until:
            self.stop_search = True
        if self.screen.spin_due(done, now):
            self.refresh()
        return self.stop_search

    def out_of_memory(self):
        """A MemoryError reached :meth:`step`: on the board the heap had no block
        that big (fragmented), though free memory was there.

        Collects, then: during the computer's search, the next try of the
        same move (the game is as it was: the search works on a copy, or
        takes back its plies, app.shared_search.SharedSearch.run)
        searches lighter: "easy" after "hard" or "medium" (same seed),
        after that a legal move without the AI, said in the status line;
        True then; False for anything else (a screen that cannot be built),
        which :func:`app.low_memory.back_to_title` serves.
        """
        gc.collect()
        failed = self.searching
        self.searching = None
        # print's arguments, not a formatted string: nothing allocated here.
        print("MemoryError; the search:", failed)
        g = getattr(self.screen, "game", None)
        if failed and failed != "any" and not (g is not None and g.broken()):  # (broken: the move's own ply)
            self.fallback = "easy" if failed in ("hard", "medium") else "any"
            self.dirty = self.busy = True
            return True
        return False

    def last_stand(self):
        """Put up the :class:`LowMemory` screen, made at start, allocating nothing:
        no import, no object, no list grown (the root group drops
        to its background, then takes the one group). Raises nothing; any
        key on it tries the title again, with the game kept in ``saved_game``
        (and saved in the NVM as of its last full turn)."""
        self.searching = self.fallback = self.next_game = None
        try:
            self.hold_game()
            d = self.display
            d.root_group = None
            root = self.root
            while len(root) > 1:  # the background (app.start.background) stays
                root.pop()
            self.screen = screen = self.last_resort
            root.append(screen.group)
            d.root_group = root
            self.dirty = self.busy = True
        except Exception:
            pass  # nothing left to try: the loop runs on, a key tries the title again

    def hold_game(self):
        """Keep the game on show in ``saved_game``, to save and resume (a puzzle's
        position is no game). Allocates nothing (:meth:`last_stand`)."""
        if getattr(self.screen, "searches", False):  # a game's screen (a puzzle's: False)
            self.saved_game = self.screen.game

    def run(self):
        while True:
            if not self.step():  # a step of the search on the person's turn is the wait
                self.wait()  # (in a call of its own: this frame is under every search's)

    # -- power (the rest is app.power_due, loaded when due) ------------------------

    def wait(self):
        """Wait for the next step as :meth:`pause` says; asleep, until a button (boards.sleep)."""
        ms = self.pause()
        if ms < 0:
            self.power("sleep", 0)
        else:
            self.sleep(ms / 1000)

    def pause(self):
        """ms until the loop's next step (the simulator asks it too); -1: asleep until a key.

        10 ms (keypad scans in the background meanwhile) for 1.5 s after a
        key or a change on screen, while a D-pad key repeats and while a
        review's coach searches; then 100 ms: keypad queues the presses
        meanwhile, none is lost, the first waits at most that long. (Numbers,
        not names: a name more in this module is heap under a game.)"""
        if self.lit == 2:
            return -1
        if self.clock() - self.last < 1500 or self.repeat.key >= 0 or getattr(self.screen, "coach", None):
            return 10
        return 100

    def power(self, name, now):
        """:func:`app.power_due`'s ``name`` (tick, wake, sleep); if the heap has no room for
        its code, tried again later."""
        try:
            getattr(__import__("app.power_due").power_due, name)(self, now)
        except MemoryError:
            self.due = now + 10000
        forget("app.power_due")

    def sound(self, which):
        """Play ``which`` (boards.common.CLICK or CHORD) if the board has a speaker."""
        if self.hw.sound is not None:
            self.hw.sound.play(which)

    def apply_settings(self):
        if self.hw.sound is not None:
            self.hw.sound.enabled = self.settings.sound

    # -- saves ------------------------------------------------------------------

    def save_game(self, game):
        """Save the settings, ``game`` (a finished game is not resumed) and the puzzle
        progress; False if too long.

        Saves.save writes nothing when the NVM already holds the same.
        """
        if game is not None and game.winner is not None:
            game = None
        self.saved_game = game
        return self.saves is None or self.saves.save(self.settings.pack(), game, self.puzzle_record)

    def save_turn(self, screen):
        if not self.save_game(screen.game) and not self.save_full_shown:
            # The NVM keeps the last save that fitted; say so once per game.
            self.save_full_shown = True
            screen.notify("game too long to save", "not saved", "unsaved")

    # -- screens ------------------------------------------------------------------

    def title(self):
        """Show the title menu. After a MemoryError (on a board: no block that big)
        or another exception while it is built, the screen on show is let go,
        the heap collected and the title tried once more, then
        :meth:`last_stand`'s one line stands in, whose keys try again: never
        the traceback console, also at start, before :meth:`step`'s handler
        runs."""
        for attempt in (1, 2):
            try:
                self.go("title")
                return
            except Exception:
                pass
            try:
                self.drop_screen()
            except Exception:
                break
        self.last_stand()

    def drop_screen(self):
        """Let the screen on show go (the next :meth:`show` puts one up), then collect."""
        self.display.root_group = None
        __import__("app.held").held.remove(self, self.screen)
        self.screen = None
        gc.collect()

    def play_next(self, game, ai):
        """Start ``game`` (a Game, or a variant's name for a new one; ``ai``:
        the players the computer moves) once the key that asked for it is
        handled: see :func:`app.between.start_next_game`. For the menus."""
        self.next_game = (game, ai)
        self.busy = True  # presses made until the game is up are stale

    def play(self, game, ai):
        """Put ``game`` on the screen, the computer moving the players ``ai``
        (:func:`app.between.play`)."""
        between().play(self, game, ai)
