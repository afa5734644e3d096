"""Board-time workload: presses that change the screen, run by the MicroPython unix port under
``tanbo_tools.board_time.count_units`` with tests/device_stubs first on MICROPYPATH and the app
and engine as ``.mpy``; ``BOARD_TIME_WORK`` is ``BOARD_ID WIDTH HEIGHT VARIANT PRESS...``, a PRESS
``label/keys before/key`` (keys joined by ``+``, none: empty), e.g. ``title>games/DOWN+DOWN/A``,
or ``label/keys before/key/steps``: the player looks at the screen ``steps`` steps, not ``DWELL``.

Set up (not counted): a finished game of VARIANT (random moves, a fixed
seed) kept in the library, a new game of VARIANT saved (the title's
Continue), the title on show. Then ``BOARD_TIME_N`` rounds of the presses,
each after ``DWELL`` steps of the app's loop (the player looks at the screen;
a menu loads what a game's start runs then: ``Menu.warm``),
each a unit from the key's handling to the end of the display's first
refresh (the screen drawn; the refresh's SPI is the display's, counted apart
in pixels by the simulator); a press that refreshes again ("Opening..."
first, then the screen) has a unit ``LABEL+`` up to each further refresh;
the keys before it and the rest of its step (the last screen's collection)
segments of their own.

Prints one JSON line: ``{"segments": [label of each count between two marks,
in order], "screens": [the class of the screen each press ended on]}``.
"""

import os

import board, displayio, microcontroller  # noqa: E401

board_id, width, height, variant, *presses = os.getenv("BOARD_TIME_WORK").split()
board.board_id = board_id
board.DISPLAY = displayio.Display(int(width), int(height))
units = int(os.getenv("BOARD_TIME_N") or "1")
# An NVM that keeps what is written (the stubs' keeps nothing): the library is read back.
microcontroller.nvm = bytearray(b"\xff" * len(microcontroller.nvm))

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
        unit[0] = unit[0].rstrip("+") + "+"  # a further refresh of the same press
    return r


display.refresh = drawn


def press(name):
    app.act(app.screen.key(getattr(common, name)))


DWELL = 6  # steps of the app's loop before each counted key (60 ms at its pace)
screens = []
divmod(0, 1)
for _ in range(units):
    for press_ in presses:
        label, before, key, *look = press_.split("/")
        for k in before.split("+") if before else ():
            press(k)
            app.step()
        for _ in range(int(look[0]) if look else DWELL):  # the player looks at the screen before the key
            app.step()
        mark("keys")
        unit[0] = label
        press(key)
        app.step()
        if unit[0] == label:  # (a game asked for: shown in the next step)
            app.step()
        unit[0] = None
        mark("after")
        screens.append(type(app.screen).__name__)
print('{"segments": [%s], "screens": [%s]}' % (", ".join('"%s"' % x for x in segments),
                                               ", ".join('"%s"' % x for x in screens)))
