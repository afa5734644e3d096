"""Board-time workload: the presses that change a whole screen in the library and around a
game's settings, run by the MicroPython unix port under ``tanbo_tools.board_time.count_units``
with tests/device_stubs first on MICROPYPATH and the app and engine as ``.mpy``;
``BOARD_TIME_WORK`` is ``BOARD_ID WIDTH HEIGHT VARIANT``.

Set up (not counted): a finished game of VARIANT (random moves, a fixed seed)
kept in the library, the title on show; then ``BOARD_TIME_N`` rounds of the
presses of :data:`PRESSES`, each a unit from the key's handling to the end of
the display's first refresh (the screen drawn; the refresh's SPI is the
display's, counted apart in pixels by tests/test_sim_refresh.py), the rest of
that step (the last screen's collection) a segment of its own.

Prints one JSON line: ``{"segments": [label of each count between two marks,
in order], "screens": [the class of the screen each press ended on]}``.
"""

import os

import board, displayio, microcontroller  # noqa: E401

board_id, width, height, variant = os.getenv("BOARD_TIME_WORK").split()
board.board_id = board_id
board.DISPLAY = displayio.Display(int(width), int(height))
units = int(os.getenv("BOARD_TIME_N") or "1")
# An NVM that keeps what is written (the stubs' keeps nothing): the library is read back.
microcontroller.nvm = bytearray(b"\xff" * len(microcontroller.nvm))

# (label, the keys before it (not counted), the key counted): from the title
# with Continue (a game saved), New game, Games, ... on show.
PRESSES = (("title>games", "DOWN DOWN", "A"), ("games>review", "", "A"), ("review>games", "", "B"),
           ("games>title", "", "B"), ("title>game", "", "A"), ("game>menu", "", "START"),
           ("menu>settings", "DOWN DOWN DOWN DOWN", "A"), ("settings>game", "", "B"),
           ("game>menu", "", "START"), ("menu>title", "DOWN DOWN DOWN DOWN DOWN", "A"))

segments = []
unit = [None]


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

from boards import common  # noqa: E402


def set_up():
    from tanbo import Game
    from tanbo.rng import Rng
    g = Game(variant)
    rng = Rng(5)
    while g.winner is None:
        moves = g.legal_moves()
        g.play(moves[rng.below(len(moves))])
    __import__("app.between").between.keep_game(app, g, (2,))
    app.save_game(Game(variant))  # a game to continue, the title's first row
    forget("app.between")


set_up()
app.title()
app.step()
app.step()
display = app.display
refresh = display.refresh


def drawn(**kwargs):
    r = refresh(**kwargs)
    if unit[0] is not None:
        mark(unit[0])
        unit[0] = None
    return r


display.refresh = drawn


def press(name):
    app.act(app.screen.key(getattr(common, name)))


screens = []
divmod(0, 1)
for _ in range(units):
    for label, before, key in PRESSES:
        for k in before.split():
            press(k)
            app.step()
        mark("keys")
        unit[0] = label
        press(key)
        app.step()
        if unit[0] is not None:  # (a game asked for: shown in the next step)
            app.step()
        mark("after")
        screens.append(type(app.screen).__name__)
print('{"segments": [%s], "screens": [%s]}' % (", ".join('"%s"' % x for x in segments),
                                               ", ".join('"%s"' % x for x in screens)))
