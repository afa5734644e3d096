"""Heap probe of the device app, run by the MicroPython unix port from the compiled app's folder
with tests/device_stubs first on MICROPYPATH (as a module, so that modules load by relative
paths: tests/test_device_memory.py): ``micropython -m device_memory BOARD_ID WIDTH HEIGHT [PUZZLE]``.

Prints one JSON line of ``gc.mem_alloc()`` figures (after a collection) in
bytes of this 64-bit port: ``imports`` (boards + app.start, as code.py),
``title`` (App built, title menu up), ``game`` (a 9x9 game against the
computer on screen, without the AI's code and the search's arrays, which
the app makes with the screen), ``search`` (those two, plus the largest
live heap seen beyond them during a hard search from that screen),
``ponder`` (the same while the app's loop steps the search on the
person's turn, issue 24, tanbo.ponder's code included); ``review`` (the
game played out and kept in the library, then its Review's coach stepped
at a ply: the peak, issue 36, all of the heap from the start) and
``last_search`` (the game screen's peak with a hard search half way
through that game, with its whole history, the same way); each from the
interpreter's start
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
from app import forget  # noqa: E402
from app.start import start  # noqa: E402

out = {"imports": used()}
now = [0]
app = start(boards, clock=lambda: now[0], sleep=lambda s: None)
del start, boards
forget("app.start")
app.step()
out["title"] = used()

if len(sys.argv) > 4:
    from boards.common import A, B  # noqa: E402
    app.act(app.screen.key(1))  # DOWN: the title's Puzzles row
    app.act(app.screen.key(A))
    app.step()
    out["list"] = used()
    app.go("puzzle", int(sys.argv[4]))
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

# The app makes the computer's search when the game starts (App.play): the
# AI's code and the search's arrays, counted apart from the screen.
from app.store.settings import LEVELS  # noqa: E402

app.settings.level = LEVELS.index("hard")
import tanbo.ai  # noqa: E402,F401
from app.screens.game import kept_search  # noqa: E402
ai_code = used() - out["title"]
app.play(Game("9x9"), (2,))
app.step()
with_search = used()
app.screen.search = app.search = None
arena = with_search - used()
app.screen.search = app.search = kept_search(None, app.screen.game, (2,), "hard", app.hw.slowness,
                                             app.small_heap)
del kept_search  # (its module leaves the heap under Review, as on a board: held here, it would not)
out["game"] = with_search - ai_code - arena
out["displayio_board"] = displayio.BOARD_BYTES[0]
out["displayio_here"] = displayio.UNIX_BYTES[0]

game = app.screen.game
game.play(game.legal_moves()[0])
peak = [0]


def progress(done, total):
    peak[0] = max(peak[0], used())
    return False


move = app.screen.choose("hard", progress)
out["search"] = ai_code + arena + peak[0] - with_search

# Pondering (issue 24): the reply played, then the game's search stepped on
# the person's turn as the app's loop does.
screen = app.screen
peak[0] = 0
screen.play(move)
screen.ponder = __import__("tanbo.ponder").ponder.start(screen.search, screen.game)  # as App.think
steps = 0
while screen.ponder.step() and steps < 5000:  # as App.step
    steps += 1
    if steps % 25 == 0:
        progress(0, 0)
out["ponder"] = ai_code + arena + peak[0] - with_search
out["ponder_steps"] = steps

# Issue 36: the game played out and kept in the library (App.keep_game, as on
# OVER), the game-over menu, then Review with the coach asked at a ply and
# stepped as the app's loop does (ReviewScreen.tick), B read between steps.
from boards.common import A, LEFT  # noqa: E402
screen.ponder = None
while game.winner is None:
    game.play(game.legal_moves()[0])
# The game screen's peak with a hard search half way through that game, where
# the review below asks its coach (the review's peak is held to it: the same
# game, position, board and search).
tail = []
for _ in range(game.ply // 2):
    tail.append(game.last_move())
    game.undo()
peak[0] = 0
screen.choose("hard", progress)
out["last_search"] = peak[0]
while tail:
    game.play(tail.pop())
__import__("app.between").between.keep_game(app, game, screen.ai)  # as app.between.show_result
app.go("result", game)
app.step()
screen = None
screen = None
app.screen.key(1)  # DOWN: the game-over menu's Review row
app.screen.key(A)
app.step()
review = app.screen
for _ in range(game.ply // 2):
    review.key(LEFT)
peak[0] = 0
review.key(A)
steps = 0
while review.coach is not None and steps < 5000:
    review.tick(0)
    steps += 1
    progress(0, 0)
out["review"] = peak[0]
out["review_steps"] = steps
print("{" + ", ".join('"%s": %d' % (k, out[k]) for k in sorted(out)) + "}")
