"""Heap probe of the device app, run by the MicroPython unix port with tests/device_stubs first
on MICROPYPATH: ``micropython device_memory.py BOARD_ID WIDTH HEIGHT``.

Prints one JSON line of ``gc.mem_alloc()`` figures (after a collection) in
bytes of this 64-bit port: ``imports`` (boards + app.start, as code.py),
``title`` (App built, title menu up), ``game`` (a 9x9 game against the
computer on screen), ``search`` (the largest live heap seen during a hard
search from that screen, beyond ``game``), ``ponder`` (the same while the
app's loop steps the search on the person's turn, issue 24); each from the interpreter's start
with the built-in modules' stand-ins already imported (on a board they are
in flash). ``displayio_board``/``displayio_here``: what the displayio objects
made up to the game screen take on a board (C structs and buffers) and here.
"""

import gc
import sys

import analogio, audiocore, audioio, audiopwmio, bitmaptools, board, digitalio  # noqa
import displayio, keypad, microcontroller, supervisor  # noqa
import array, math, struct, time  # noqa

board.board_id = sys.argv[1]
board.DISPLAY = displayio.Display(int(sys.argv[2]), int(sys.argv[3]))
gc.collect()
base = gc.mem_alloc()


def used():
    gc.collect()
    return gc.mem_alloc() - base


# As device/code.py does.
import boards  # noqa: E402
from app import drop_modules  # noqa: E402
from app.start import start  # noqa: E402

out = {"imports": used()}
now = [0]
app = start(boards, clock=lambda: now[0], sleep=lambda s: None)
del start
drop_modules("start")
app.step()
out["title"] = used()

from tanbo import Game  # noqa: E402

app.play(Game("9x9"), (2,))
app.step()
out["game"] = used()
out["displayio_board"] = displayio.BOARD_BYTES[0]
out["displayio_here"] = displayio.UNIX_BYTES[0]

from tanbo.ai import choose_move  # noqa: E402

game = app.screen.game
game.play(game.legal_moves()[0])
peak = [0]


def progress(done, total):
    peak[0] = max(peak[0], used())
    return False


choose_move(game, "hard", 0, progress)
out["search"] = peak[0] - out["game"]

# Pondering (issue 24): the game screen's own search, its reply played, then
# stepped on the person's turn as the app's loop does.
screen = app.screen
peak[0] = 0
screen.play(screen.choose("hard", progress))
screen.start_pondering("hard")
steps = 0
while screen.pondering() and steps < 3000:
    screen.ponder_step()
    steps += 1
    if steps % 25 == 0:
        progress(0, 0)
out["ponder"] = peak[0] - out["game"]
out["ponder_steps"] = steps
print("{" + ", ".join('"%s": %d' % (k, out[k]) for k in sorted(out)) + "}")
