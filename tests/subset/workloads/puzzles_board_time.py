"""Opening a puzzle, for tools/tanbo_tools/board_time.py (issue 25, item 4).

    python3 -m tanbo_tools.board_time --path core tests/subset/workloads/puzzles_board_time.py

(or ``count_units`` with ``BOARD_TIME_N`` = 1 + a multiple of 4). A unit
opens the shipped collection, reads one entry, builds its start position
as a Game and closes the file: what the puzzle screen does to show a
puzzle. The units cycle over four entries (ENTRIES: the first lesson, a
9x9, a 13x13 and a dense-11 puzzle, the largest kinds of position); the
first round of units also pays one-time costs. Run with CPython and
``--heap`` to print the heap an open puzzle holds (MicroPython's
``gc.mem_alloc``, after a collection) and the entries it measures.
"""

import gc
import os
import sys

from tanbo.puzzles import PuzzleBook


def _here():
    path = (globals().get("__file__") or "").replace("\\", "/")
    i = path.rfind("/")
    return path[:i] if i > 0 else "."


FILE = _here() + "/../../../device/app/puzzles.txt"


def _entries():
    # the first lesson, then the first 9x9, 13x13 and dense-11 puzzles
    book = PuzzleBook(FILE)
    out = [0]
    for variant in ("9x9", "13x13", "dense-11"):
        for i in range(len(book)):
            p = book.load(i)
            if p.band and p.variant == variant:
                out.append(i)
                break
    book.close()
    return out


ENTRIES = _entries()


def unit(i):
    book = PuzzleBook(FILE)
    p = book.load(ENTRIES[i % len(ENTRIES)])
    g = p.game()
    book.close()
    return p, g


if "--heap" in sys.argv:
    for i in range(len(ENTRIES)):
        gc.collect()
        before = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
        held = unit(i)
        gc.collect()
        after = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
        print("entry", ENTRIES[i] + 1, held[0].variant, "heap bytes held", after - before)
        held = None
else:
    n = int(os.getenv("BOARD_TIME_N") or "1")
    divmod(0, 1)
    for i in range(n):
        unit(i)
        divmod(0, 1)
