"""The app: owns the hardware, the current screen, settings and saves; runs the loop.

``App(hw).run()`` on the board. The simulator builds the same App with a
virtual ``clock`` (ms) and calls :meth:`App.step` itself. Screens have
``group`` (a displayio Group), ``key(k) -> changed`` and
``tick(now_ms) -> changed``; the display refreshes only when one of them
reports a change (``auto_refresh`` is off: no flicker, no wasted SPI time).
"""

import gc
import time

import displayio
from tanbo import Game
from tanbo.ai import LEVELS

from app import VERSION, theme
from app.clock import Clock
from app.game_screen import GameScreen
from app.help import Help
from app.input import Repeater
from app.layout import text_scale
from app.menu import Menu, Row
from app.save import Saves
from app.settings import GAME_VARIANTS, OPPONENTS, SIZE, Settings
from app.text import Label
from app.theme import PLAYER_NAMES_2, PLAYER_NAMES_4

LOOP_MS = 10  # main loop period: keypad scans in the background meanwhile
LOOP_S = LOOP_MS / 1000


def background(width, height):
    """A SCREEN-coloured backdrop: one pixel, tiled and scaled up (no full-screen bitmap in RAM).

    CircuitPython keeps a group's per-pixel step in 8 signed bits: at a scale
    of 128 or more it draws nothing (Blinka draws it; the simulator's twin
    refuses it). So the pixel is tiled n x n at a scale below 128.
    """
    pal = displayio.Palette(1)
    pal[0] = theme.SCREEN
    side = max(width, height)
    n = (side + 126) // 127
    g = displayio.Group(scale=(side + n - 1) // n)
    g.append(displayio.TileGrid(displayio.Bitmap(1, 1, 1), pixel_shader=pal, width=n, height=n))
    return g


def show_message(display, lines):
    """Show ``lines`` of text (e.g. the unknown-board message) on ``display``."""
    s = text_scale(display.width, display.height)
    root = displayio.Group()
    root.append(background(display.width, display.height))
    for i, line in enumerate(lines):
        root.append(Label(2, 2 + 12 * s * i, display.width // (6 * s), theme.TEXT, scale=s,
                          text=line).group)
    display.root_group = root
    display.refresh()


def seat_names(players):
    return PLAYER_NAMES_4 if players == 4 else PLAYER_NAMES_2


class App:
    """The Tanbo app on hardware ``hw``; ``clock()`` returns ms, ``sleep(s)`` waits."""

    def __init__(self, hw, clock=None, sleep=None):
        self.hw = hw
        self.clock = clock or Clock().now
        self.sleep = sleep or time.sleep
        d = self.display = hw.display
        self.width, self.height = d.width, d.height
        self.scale = text_scale(self.width, self.height)
        self.root = displayio.Group()
        self.root.append(background(self.width, self.height))
        d.root_group = self.root
        self.settings = Settings()
        self.saves = Saves(hw.storage) if hw.storage is not None else None
        self.repeat = Repeater()
        self.screen = None
        self.dirty = True
        self.refreshes = 0
        self.notice = None
        self.saved_game = None
        self.save_full_shown = False
        self.ai = ()
        if self.saves is not None:
            settings, game, problem = self.saves.load(SIZE)
            if settings is not None:
                self.settings.unpack(settings)
            if game is not None and game.winner is None:
                self.saved_game = game
            if problem is not None:
                self.notice = problem
                print("save discarded:", problem)
        self._apply_sound()
        self.title()

    # -- plumbing ---------------------------------------------------------------

    def show(self, screen):
        if self.screen is not None:
            self.root.remove(self.screen.group)
        self.screen = screen
        self.root.append(screen.group)
        self.dirty = True
        gc.collect()

    def refresh(self):
        self.display.refresh()
        self.refreshes += 1
        self.dirty = False

    def step(self):
        """One pass of the loop: keys, auto-repeat, the screen's timers, refresh if changed."""
        now = self.clock()
        b = self.hw.buttons
        while b.read():
            if b.pressed:
                self.repeat.press(b.key, now)
                if self.screen.key(b.key):
                    self.dirty = True
            else:
                self.repeat.release(b.key)
        k = self.repeat.due(now)
        if k >= 0 and self.screen.key(k):
            self.dirty = True
        if self.screen.tick(self.clock()):
            self.dirty = True
        if self.dirty:
            self.refresh()

    def run(self):
        while True:
            self.step()
            self.sleep(LOOP_S)

    def sound(self, name):
        s = self.hw.sound
        if s is not None:
            if name == "chord":
                s.chord()
            else:
                s.click()

    def _apply_sound(self):
        if self.hw.sound is not None:
            self.hw.sound.enabled = self.settings.sound

    def save_game(self):
        """Save settings and the game in progress (a finished game is not resumed)."""
        if self.saves is None:
            return
        g = self.screen.game if isinstance(self.screen, GameScreen) else self.saved_game
        if g is not None and g.winner is not None:
            g = None
        self.saved_game = g
        if not self.saves.save(self.settings.pack(), g) and not self.save_full_shown:
            # The NVM keeps the last save that fitted; say so once per game.
            self.save_full_shown = True
            if isinstance(self.screen, GameScreen):
                self.screen.notify("game too long to save", "not saved", "unsaved")

    def save_settings(self):
        self.save_game()

    def free_memory(self):
        gc.collect()
        return gc.mem_free() if hasattr(gc, "mem_free") else -1

    # -- screens --------------------------------------------------------------

    def title(self):
        rows = []
        if self.saved_game is not None:
            rows.append(Row("Continue", self.resume))
        rows.append(Row("New game", self.new_game_menu))
        rows.append(Row("Rules", lambda: self.show(Help(self, self.title))))
        rows.append(Row("Settings", self.settings_menu))
        lines = ["by Mark Steere", "version " + VERSION]
        if self.notice:
            lines.append("Save damaged,")
            lines.append("discarded.")
            self.notice = None  # reported once
        self.show(Menu(self, "T A N B O", rows, None, lines, footer="A:choose"))

    def new_game_menu(self):
        s = self.settings

        def variant():
            return GAME_VARIANTS[s.variant]

        def seats():
            return seat_names(4 if variant() == "4p" else 2)

        def get_seat():
            return min(s.seat, len(seats())) - 1

        def set_seat(i):
            s.seat = i + 1

        def set_variant(i):
            s.variant = i

        rows = [
            Row("Board", choices=GAME_VARIANTS, get=lambda: s.variant, set=set_variant),
            Row("Opponent", choices=OPPONENTS, get=lambda: s.opponent,
                set=lambda i: setattr(s, "opponent", i)),
            Row("Level", choices=LEVELS, get=lambda: s.level, set=lambda i: setattr(s, "level", i)),
            Row("You play", choices=PLAYER_NAMES_4, get=get_seat, set=lambda i: set_seat(i % len(seats()))),
            Row("Start", self.start_game),
        ]
        self.show(Menu(self, "New game", rows, self.title))

    def start_game(self):
        s = self.settings
        game = Game(GAME_VARIANTS[s.variant])
        players = game.variant.players
        seat = min(s.seat, players)
        if OPPONENTS[s.opponent] == "Person":
            ai = ()
        else:
            ai = tuple(p for p in range(1, players + 1) if p != seat)
        self.play(game, ai)

    def play(self, game, ai):
        self.ai = ai
        self.save_full_shown = False
        self.show(GameScreen(self, game, ai))
        self.save_game()

    def resume(self):
        g = self.saved_game
        players = g.variant.players
        ai = ()
        if OPPONENTS[self.settings.opponent] != "Person":
            seat = min(self.settings.seat, players)
            ai = tuple(p for p in range(1, players + 1) if p != seat)
        self.play(g, ai)

    def settings_menu(self, back=None):
        s = self.settings
        back = back or self.title

        def toggle(name):
            def set(i):
                setattr(s, name, i == 0)
                self._apply_sound()
                self.save_settings()
            return set

        onoff = ("on", "off")
        free = self.free_memory()
        heap = "free %d B" % free if free >= 0 else "free: n/a"
        info = [heap, "board: " + self.hw.name]
        if self.hw.battery is not None:
            info.append("battery %.2f V" % self.hw.battery.volts())
        rows = [
            Row("Sound", choices=onoff, get=lambda: 0 if s.sound else 1, set=toggle("sound")),
            Row("Hints", choices=onoff, get=lambda: 0 if s.hints else 1, set=toggle("hints")),
            Row("AI level", choices=LEVELS, get=lambda: s.level,
                set=lambda i: setattr(s, "level", i)),
            Row("Back", back),
        ]
        menu = Menu(self, "Settings", rows, back)
        y = menu.labels[-1].group.y + 12 * self.scale + 6 * self.scale
        for i, line in enumerate(info):
            label = Label(menu.labels[0].group.x, y + i * 12 * self.scale, menu.cols, theme.DIM,
                          scale=self.scale, text=line)
            menu.group.append(label.group)
        self.show(menu)

    def game_menu(self, screen):
        def back():
            self.show(screen)
            screen.update()

        def undo():
            screen.undo()
            back()

        def resign():
            screen.game.resign()
            self.save_game()
            back()

        def confirm_resign():
            # One press must not end a game: a second screen whose first
            # row (where the selection starts) keeps playing.
            name = seat_names(screen.game.variant.players)[screen.game.to_move - 1]
            rows = [Row("No, play on", back), Row("Yes, resign", resign)]
            self.show(Menu(self, "Resign?", rows, menu, [name + " gives up"]))

        rows = [
            Row("Resume", back),
            Row("Undo", undo),
            Row("Resign", confirm_resign),
            Row("Rules", lambda: self.show(Help(self, back))),
            Row("Settings", lambda: self.settings_menu(back)),
            Row("Main menu", self.title),
        ]

        def menu():
            self.show(Menu(self, "Game", rows, back))

        menu()

    def game_over(self, game):
        v = game.variant
        names = seat_names(v.players)
        if game.winner is not None:
            headline = "%s wins!" % names[game.winner - 1]
        else:
            headline = "Game stopped"
        lines = ["after %d plies" % game.ply, "(%s)" % v.name]

        def review():
            self.show(GameScreen(self, game, (), review=True))

        rows = [Row("New game", self.new_game_menu), Row("Review", review),
                Row("Main menu", self.title)]
        self.saved_game = None
        self.show(Menu(self, headline, rows, self.title, lines))
