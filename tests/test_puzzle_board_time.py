"""Opening a puzzle on the handheld takes under half a second of board time (counted, not timed).

The board-time instrument (tanbo_tools.board_time, valgrind) counts the
instructions the MicroPython unix port runs for tests/puzzle_open_time.py
with the app and the engine compiled to .mpy, as on a board; the display
and the rest of the hardware are tests/device_stubs (Python stand-ins for
C on the board, so the figure leans high). The screen's own refresh is
counted in pixels by the simulator's tests.
"""

import os
import shutil

import pytest

from tanbo_tools import board_time
from tanbo_tools.lab import bench_start

TESTS = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(TESTS)
LIMIT_MS = 500


@pytest.mark.skipif(board_time.unavailable() is not None, reason="board time: %s" % board_time.unavailable())
@pytest.mark.parametrize("board_id,w,h", [("pybadge", 160, 128), ("pimoroni_picosystem", 240, 240)])
def test_opening_a_puzzle_takes_under_half_a_second_of_board_time(tmp_path, board_id, w, h):
    lib = tmp_path / "lib"
    bench_start.compile_app(str(lib))  # puzzles.txt beside app/, as a bundle ships it
    script = tmp_path / "puzzle_open_time.py"  # beside no package: the .mpy tree is found
    shutil.copy(os.path.join(TESTS, "puzzle_open_time.py"), str(script))
    from tanbo.puzzles import PuzzleBook
    with PuzzleBook(os.path.join(REPO, "device", "app", "puzzles.txt")) as book:
        n = max(range(len(book)), key=lambda i: len(book.load(i).position)) + 1  # the largest board
    counts, out = board_time.count_units(str(script), 3, path=[os.path.join(TESTS, "device_stubs"), str(lib)],
                                         work="%s %d %d %d" % (board_id, w, h, n))
    assert out.split()[-2:] == ["PuzzleScreen", str(n)]
    assert len(counts) == 3
    worst = board_time.estimate(max(counts[1:]))  # the first unit loads the screen's code once
    rp2040 = board_id == "pimoroni_picosystem"
    ms = worst["rp2040_ms"] if rp2040 else worst["samd51_ms"]
    print("%s: opening puzzle %d takes %.0f ms of board time (%d Cortex-M4 instructions; first %.0f ms)"
          % (board_id, n, ms, worst["cortex_m4_instructions"],
             board_time.estimate(counts[0])["rp2040_ms" if rp2040 else "samd51_ms"]))
    assert ms < LIMIT_MS
