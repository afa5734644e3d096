"""What ``code.py`` does, as one function the simulator runs too: the app for
this board, or the unknown-board screen; and the app's set-up. All of it
runs once: :func:`start` drops this module from ``sys.modules`` as it returns the app."""

import time

import board
import displayio

from app import forget
from app.view import theme
from app.clock import Clock
from app.input import Repeater
from app.view.sizes import text_scale
from app.main import App, LowMemory
from app.store.save import Saves
from app.store.settings import SIZE, Settings
from app.view.text import Label

# Boards where "Think on my time" (tanbo.ponder) starts off. Its
# peak fits the search's 30 KB beside a 9x9 game screen on the probe
# (tests/test_device_memory.py: 29.9 KB, within 0.1 KB), but whole sessions
# with it on are not tested on a SAMD51's ~131 KB (a PicoSystem has ~35 KB
# more), so the player turns it on there (a MemoryError in a step ends the
# pondering only).
SMALL_HEAP = ("pybadge", "pygamer")
UNSUPPORTED = ("Tanbo cannot run", "on this board:", None, "", "Supported:", "PyBadge, PyGamer,",
               "PicoSystem")


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


LOW_MEMORY = "Low memory. Press A"  # 19 characters: fits 160 px at 1x and 240 px at 2x


def last_resort(app):
    """The :class:`app.main.LowMemory` screen, first: made while the heap is whole,
    held for the app's life, so that showing it allocates nothing."""
    s = app.scale
    group = displayio.Group()
    label = None
    try:
        label = Label(2 * s, app.display.height // 2 - 6 * s, len(LOW_MEMORY), theme.TEXT, scale=s, text=LOW_MEMORY)
        group.append(label.group)
    except MemoryError:
        pass  # the background alone; a key still brings the title
    return LowMemory(app, group, label)


def set_up(app, hw, clock, sleep):
    """What :class:`app.main.App` on ``hw`` starts with: its screen and
    settings, the saved game to resume; then the title menu."""
    app.hw = hw
    app.clock = clock or Clock().now
    app.sleep = sleep or time.sleep
    d = app.display = hw.display
    # (its size is the display's: d.width, d.height; not on the app, whose table grows past 29)
    app.scale = text_scale(d.width, d.height)
    app.root = displayio.Group()
    app.root.append(background(d.width, d.height))
    d.root_group = app.root
    # The glyphs first, in a call of their own: built inside the last
    # resort's Label, the font's table (dropped once drawn) stayed on the
    # probe's heap through a stale slot, 3.4 KB under a game (tests/device_memory.py).
    from app.view.text import glyph_bitmap
    glyph_bitmap()
    app.last_resort = last_resort(app)
    # The board's default, on the class: nothing more on the settings' own table.
    Settings.ponder = hw.name not in SMALL_HEAP
    App.small_heap = hw.name in SMALL_HEAP
    app.settings = Settings()
    app.puzzle_record = b""  # the puzzle progress, packed (app.progress)
    app.saves = Saves(hw.storage) if hw.storage is not None else None
    app.repeat = Repeater()
    app.screen = None
    app.dirty = True
    app.busy = False  # a slow step ran: the presses queued meanwhile are stale
    app.collect = False  # a new screen is up: collect the last one after the refresh
    app.stop_search = False
    app.stop_from = 0  # clock ms from which B stops the search (see App.progress)
    app.searching = None  # the level of the search under way (see App.out_of_memory)
    app.fallback = None  # the level the next search takes after a MemoryError
    app.next_game = None  # (game or variant name, computer seats) to start (see App.play_next)
    app.search = None  # the computer's search, kept from game to game (see game_screen.kept_search)
    app.search_until = 0  # clock (ms) at which the search in progress stops: its move's time limit
    app.notice = None  # lines the title shows once (a damaged save, a MemoryError)
    app.saved_game = None  # the game a resume continues (None: none)
    app.save_full_shown = False
    app.games = 0  # games in the library (app.store.library)
    if app.saves is not None:
        from app.store.save_load import load, unpack  # read once: dropped below
        settings, game, problem = load(app.saves, SIZE)
        if settings is not None:
            unpack(app.settings, settings)
            app.puzzle_record = bytes(app.saves.progress)
        if game is not None and game.winner is None:
            app.saved_game = game
        if problem is not None:
            app.notice = ("Bad save discarded.",)  # one line: the title's rows come first
            print("save discarded:", problem)
        else:
            games(app)
        forget("app.store.save_load")
    app.apply_settings()
    app.last = app.clock()  # idle from now (app.power_due)
    app.title()


def games(app):
    """Count the library's games (:mod:`app.store.library`); a damaged one is reported once and
    dropped with the older ones (one write), the record (the game in progress) kept."""
    from app.store.library import repair, scan
    ends, damaged = scan(app.saves.storage, app.saves.reach)
    if damaged:
        repair(app.saves, ends)
        app.notice = ("Bad games: %d kept." % len(ends),)  # one line, as the title has room for
        print("library: a damaged game dropped, with the older ones;", len(ends), "kept")
    app.games = len(ends)
    forget("app.store.library")


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


def start(boards, clock=None, sleep=None, on_problem=print):
    """The App for the board :mod:`boards` finds, or None after telling
    ``on_problem`` why not and showing it on the board's display if it has one."""
    try:
        hw = boards.hardware()
    except boards.UnknownBoard as e:
        on_problem(str(e))
        display = getattr(board, "DISPLAY", None)
        if display is not None:
            show_message(display, [boards.board_id() if line is None else line for line in UNSUPPORTED])
        return None
    app = App()
    set_up(app, hw, clock, sleep)
    forget("app.start")  # it ran once: the game gets its heap (the caller lets go of start too)
    return app
