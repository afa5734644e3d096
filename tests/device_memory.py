"""Heap probe of the device app, run by the MicroPython unix port with tests/device_stubs first
on MICROPYPATH: ``micropython device_memory.py BOARD_ID WIDTH HEIGHT [PUZZLE]``.

Prints one JSON line of ``gc.mem_alloc()`` figures (after a collection) in
bytes of this 64-bit port: ``imports`` (boards + app.start, as code.py),
``title`` (App built, title menu up), ``game`` (a 9x9 game against the
computer on screen), ``search`` (the largest live heap seen during a hard
search from that screen, beyond ``game``); each from the interpreter's start
with the built-in modules' stand-ins already imported (on a board they are
in flash). ``displayio_board``/``displayio_here``: what the displayio objects
made up to the game screen take on a board (C structs and buffers) and here.

With PUZZLE (a number from 1), the puzzles instead of the game and search:
``list`` (the puzzle list on screen, its book open) and ``puzzle`` (puzzle
PUZZLE on screen, opened from the list, after a wrong move taken back and
the hint shown).
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

if len(sys.argv) > 4:
    from boards.common import A, B  # noqa: E402
    app.act(app.screen.key(1))  # DOWN: the title's Puzzles row
    app.act(app.screen.key(A))
    app.step()
    out["list"] = used()
    from app.puzzle_menus import open_puzzle  # noqa: E402
    open_puzzle(app, int(sys.argv[4]))
    app.step()
    screen = app.screen
    g = screen.game
    wrong = [p for p in g.legal_moves() if p != screen.puzzle.line[0]]
    if wrong:
        screen._try(wrong[0])
        screen._take_back()
        app.act(screen.key(B))  # the hint
    app.step()
    out["puzzle"] = used()
    print("{" + ", ".join('"%s": %d' % (k, out[k]) for k in sorted(out)) + "}")
    sys.exit(0)

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
print("{" + ", ".join('"%s": %d' % (k, out[k]) for k in sorted(out)) + "}")
