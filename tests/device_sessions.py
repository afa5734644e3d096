"""Whole sessions of the device app on a board-sized heap, run by the MicroPython unix port from
the compiled app's folder with tests/device_stubs first on MICROPYPATH (as a module, so that
modules load by relative paths: tests/test_device_sessions.py):
``micropython -m device_sessions BOARD_ID WIDTH HEIGHT VARIANT GAMES FREE SLOWNESS``.

Plays ``GAMES`` games in a row of ``VARIANT`` against the computer at hard,
through the app as a player would (title, new game, the game screen, the
game-over menu, the next new game), with the heap cut to ``FREE`` bytes
free once the built-in modules' stand-ins are imported: a bytearray is
held below everything the app makes, as the firmware run of issue 22 held
one before the app's imports. So the heap fragments as the board's does,
not only fills: a MemoryError means no free block was large enough.
``SLOWNESS`` sets the search's node budget (the board's, or larger for a
quick run: the same allocations, fewer nodes); a last argument ``degrade``
keeps the app's MemoryError handler (see DEGRADE), ``menu`` opens the game
menu with START at every MENU_EVERY-th move of the person and goes back to
the game with its first row (Resume). The person's moves are seeded random
legal points, placed with the A button.

Prints one JSON line: ``ok`` (true, or the error and where), ``plies`` a
game (a game the app gave up on, its plies so far), ``screens`` (what was
on show after each game), ``low_memory`` (degrade: the handler's calls),
``min_free`` (the least ``gc.mem_free()`` seen after a collection
at each computer move), ``start_free`` (what the cut left); with ``menu``,
``menus`` (START presses that showed the game menu) and ``no_menu`` (the
others: what was on show instead); ``levels`` (degrade: the levels the app
fell back to, each with the status line it showed).
"""

import gc
import sys

import analogio, audiocore, audioio, audiopwmio, bitmaptools, board, digitalio  # noqa
import displayio, keypad, microcontroller, supervisor  # noqa
import array, math, struct, time  # noqa

board.board_id = sys.argv[1]
board.DISPLAY = displayio.Display(int(sys.argv[2]), int(sys.argv[3]))
# The board's NVM size: a game's end writes one block of it (app.store.library.keep, issue 36).
microcontroller.nvm = microcontroller._Nvm(8192 if sys.argv[1] in ("pybadge", "pygamer") else 4096)
VARIANT = sys.argv[4]
GAMES = int(sys.argv[5])
FREE = int(sys.argv[6])
SLOWNESS = float(sys.argv[7])
# "degrade": the app's own MemoryError handler stays (a lighter search, or the
# game saved and the title), each of its calls counted in ``low_memory``;
# without it any MemoryError ends the session.
DEGRADE = "degrade" in sys.argv[8:]
MENU = "menu" in sys.argv[8:]
MENU_EVERY = 7
gc.collect()
# The cut: one block, allocated first (the heap's low end), held to the end.
hold = bytearray(max(0, gc.mem_free() - FREE - 64))
gc.collect()
out = {"start_free": gc.mem_free(), "plies": [], "min_free": gc.mem_free()}


def report(ok):
    out["ok"] = ok
    items = []
    for k in sorted(out):
        v = out[k]
        items.append('"%s": %s' % (k, ('"%s"' % v) if isinstance(v, str) else
                                   ("true" if v is True else str(v).replace("'", '"'))))
    print("{" + ", ".join(items) + "}")


def session():
    import boards
    from app import forget
    from app.start import start
    from tanbo import Rng
    from boards.common import A, DOWN, START, UP
    now = [0]
    app = start(boards, clock=lambda: now[0], sleep=lambda s: None)
    del start, boards
    forget("app.start")
    app.hw.slowness = SLOWNESS

    def out_of_memory():
        # The app's handler (App.step) would play on lighter or go to the
        # title: a session must meet no MemoryError at all, so raise it on,
        # saying where the app met it.
        # App.recover catches what this raises (it then shows its LowMemory
        # screen): the first one is kept to be reported as the session's end.
        e = MemoryError("caught by App.step from %s (searching: %s, screen: %s, plies: %s)" % (
            where(sys.exc_info()[1]), app.searching, type(app.screen).__name__,
            getattr(getattr(app.screen, "game", None), "ply", None)))
        out.setdefault("caught", str(e))
        raise e
    handler = app.out_of_memory

    def degrade():
        out["low_memory"] = out.get("low_memory", 0) + 1
        if out["low_memory"] <= 3:  # (where the first few met it: the report stays small)
            out.setdefault("low_where", []).append("%s (searching: %s, screen: %s, plies: %s)" % (
                where(sys.exc_info()[1]).replace("'", ""), app.searching, type(app.screen).__name__,
                getattr(getattr(app.screen, "game", None), "ply", None)))
        return handler()  # (True: the search plays on lighter; False: the title)
    app.out_of_memory = degrade if DEGRADE else out_of_memory
    app.step()
    from app.store.settings import GAME_VARIANTS, LEVELS, OPPONENTS
    s = app.settings
    s.variant = GAME_VARIANTS.index(VARIANT)
    s.level = LEVELS.index("hard")
    s.opponent = OPPONENTS.index("Computer")
    s.seat = 1
    rng = Rng(7)
    for _ in range(GAMES):
        to_new_game(app, A, DOWN)
        press(app, UP)  # the new-game menu: its last row, Start
        press(app, A)
        app.step()  # (the game starts in the next step)
        app.step()
        if on_show(app) != "GameScreen":
            # (degrade: the game could not be built; the app shows the title)
            out.setdefault("screens", []).append(on_show(app))
            continue
        out["plies"].append(play_out(app, rng, now, A, START))
        gc.collect()
        out.setdefault("free_between", []).append(gc.mem_free())
        out.setdefault("screens", []).append(on_show(app))


def on_show(app):
    """The class name of the screen on show. Read in a frame of its own: a slot of the
    session's frame that read ``app.screen`` would hold the screen after the read (a
    frame's spent value slots are not cleared, and the collector scans them) through
    the next game, as no frame on a board does."""
    return type(app.screen).__name__


def play_out(app, rng, now, A, START):
    """The game on ``app``'s screen played to its end (its plies): a function of its own, so that
    no slot of the session's frame still points at the game once it is over."""
    # The screen is not held here (a mark on it says it is still on show):
    # on a board nothing but the app holds a game's screen, which the app lets
    # go at the game's end, before the result is built.
    app.screen.played_out = False
    game = app.screen.game
    moves = 0
    while getattr(app.screen, "played_out", True) is False:
        screen = app.screen
        if game.winner is None and not screen.thinking and screen.flash is None \
                and game.to_move not in screen.ai:
            screen = None
            gc.collect()
            free = gc.mem_free()
            if free < out["min_free"]:
                out["min_free"] = free
            moves += 1
            if MENU and moves % MENU_EVERY == 0 and not game_menu(app, now, A, START):
                return game.ply  # (degrade: the app went to the title, the game saved)
            app.screen.cursor = game.legal_move_at(rng.below(game.legal_count()))
            press(app, A)  # the app then runs the computer's replies
        screen = None
        app.step()
        now[0] += 120
        said = getattr(app.screen, "message", None)
        if said and said[0].startswith("low memory") and said[0] not in out.setdefault("levels", []):
            out["levels"].append(said[0])
    return game.ply


def press(app, key):
    """``key`` pressed and released, queued for the board's keypad (tests/device_stubs):
    the next App.step reads it and runs its handler, in its frame, as on a board."""
    codes = app.hw.buttons.codes
    n = 0
    while codes[n] != key:
        n += 1
    keypad._Queue.pending.append((n, True))
    keypad._Queue.pending.append((n, False))


def to_new_game(app, A, DOWN):
    """From the menu on show (the title, the last game's result) to the new-game menu, by its
    "New game" row; from the one-line low-memory screen (degrade), a key first, to the title."""
    for _ in range(3):
        rows = getattr(app.screen, "rows", None) or ()
        for i in range(len(rows)):
            if rows[i].label == "New game":
                for _ in range(i):
                    press(app, DOWN)
                press(app, A)
                app.step()
                return
        press(app, A)
        app.step()


def game_menu(app, now, A, START):
    """START on the game's screen, a step, then A on the menu's first row (Resume) and a
    step: True if the game menu showed and the game is back on screen."""
    press(app, START)
    app.step()
    now[0] += 120
    title = getattr(getattr(app.screen, "title", None), "text", None)
    if title != "Game":
        out.setdefault("no_menu", []).append("%s %s" % (type(app.screen).__name__, title))
        return False
    out["menus"] = out.get("menus", 0) + 1
    press(app, A)
    app.step()
    now[0] += 120
    return type(app.screen).__name__ == "GameScreen"


def where(e):
    """The innermost line of ``e``'s traceback and its message (JSON-safe)."""
    if e is None:
        return "?"
    import io
    buf = io.StringIO()
    sys.print_exception(e, buf)
    lines = [ln.strip() for ln in buf.getvalue().splitlines() if ln.strip().startswith("File")]
    return (lines[-1].replace('"', "'") if lines else "?") + ": " + str(e)


try:
    session()
    report("MemoryError " + out.pop("caught") if "caught" in out else True)
except MemoryError as e:
    report("MemoryError at " + where(e))
