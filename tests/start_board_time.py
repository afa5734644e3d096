"""Board-time workload: Start on the new-game menu to the game's board drawn, run by the
MicroPython unix port under ``tanbo_tools.board_time.count_units`` with tests/device_stubs
first on MICROPYPATH and the app and engine as ``.mpy``; ``BOARD_TIME_WORK`` is
``BOARD_ID WIDTH HEIGHT VARIANT LEVEL MODE``.

Before Start the new-game menu is on show for ``DWELL`` steps of the app's loop,
as a player looks at it (where a PicoSystem loads what Start runs:
``Menu.warm``). A unit is what the Start row runs (``app.screens.new_game.start_game``: the game
against the computer, the person playing the first seat) and the app's next
step, up to the end of the display's first refresh: the board fully drawn
(the refresh's SPI is the display's, counted apart in pixels). Then the
rest of that step (after the board), and the title again (the game menu's
"Main menu") before the next unit: ``BOARD_TIME_N`` units, the first the
first game after the app's start (the AI's code and the search not yet
made), the next ones games after a game.

MODE ``whole`` marks only there. MODE ``parts`` also marks where the unit
changes part, to say where its time goes: ``imports`` (every module load,
wherever), ``engine`` (``tanbo.Game``), ``search`` (``kept_search``), ``screen``
(``GameScreen.__init__``), ``refresh`` (the display's refresh) and ``other``
(dropping the last screen and code, collections, showing); its unit ends at
``drawn``. The wrappers add a few calls per part: its total is a little
above ``whole``'s.

Prints one JSON line: ``{"segments": [label of each count between two marks,
in order], "screen": the last unit's screen class, "search": its search's
class after that step}``.
"""

import os

import board, displayio  # noqa: E401

board_id, width, height, variant, level, mode = os.getenv("BOARD_TIME_WORK").split()
board.board_id = board_id
board.DISPLAY = displayio.Display(int(width), int(height))
units = int(os.getenv("BOARD_TIME_N") or "1")

segments = []  # the label of each count between two marks (what ran since the last mark)
phase = ["other"]


def mark(label):
    segments.append(label)
    divmod(0, 1)


import boards  # noqa: E402
from app import forget  # noqa: E402
from app.start import start  # noqa: E402

app = start(boards, clock=lambda: 0, sleep=lambda s: None)
del start, boards
forget("app.start")
app.step()
from app.store.settings import GAME_VARIANTS, LEVELS  # noqa: E402

s = app.settings
s.variant, s.level, s.opponent, s.seat = GAME_VARIANTS.index(variant), LEVELS.index(level), 0, 1
DWELL = 6  # steps the player spends on the new-game menu before Start (60 ms at the loop's pace)
app.go("new_game")  # the player's way to Start: the new-game menu on show
for _ in range(DWELL):
    app.step()
display = app.display
refresh = display.refresh
unit = [None]  # "start" inside a unit, until its board is drawn


def drawn(**kwargs):
    """The display's refresh; the unit's first one ends it (the board on the panel)."""
    if mode == "parts":
        enter("refresh")
    r = refresh(**kwargs)
    if mode == "parts":
        leave()
    if unit[0] == "start":
        mark("drawn" if mode == "parts" else "start")
        unit[0] = "after"
    return r


display.refresh = drawn


def enter(part):
    if phase[-1] != part:
        mark(phase[-1])
    phase.append(part)


def leave():
    part = phase.pop()
    if phase[-1] != part:
        mark(part)


def wrap(f, part):
    def wrapped(*args, **kwargs):
        enter(part)
        try:
            return f(*args, **kwargs)
        finally:
            leave()
    return wrapped


if mode == "parts":
    import builtins
    import tanbo
    from app.screens import game as game_screen
    builtins.__import__ = wrap(builtins.__import__, "imports")
    tanbo.Game = wrap(tanbo.Game, "engine")  # as app.between.start_next_game finds it
    # as the app finds it: on the module (app.main.game_screen()), which no review drops here
    game_screen.kept_search = wrap(game_screen.kept_search, "search")
    game_screen.GameScreen.__init__ = wrap(game_screen.GameScreen.__init__, "screen")

divmod(0, 1)
for _ in range(units):
    unit[0] = "start"
    __import__("app.screens.new_game").screens.new_game.start_game(app)  # the Start row's action (its menu on show)
    app.step()
    mark("after")
    unit[0] = None
    screen = type(app.screen).__name__
    search = type(app.screen.search).__name__  # made once the board was drawn
    app.go("new_game")  # back to the new-game menu, as from the game's menu and the title
    for _ in range(DWELL):
        app.step()
    mark("title")
print('{"segments": [%s], "screen": "%s", "search": "%s"}' % (", ".join('"%s"' % x for x in segments),
                                                             screen, search))
