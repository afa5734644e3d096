"""Board-time workload: opening a puzzle, run by the MicroPython unix port under
``tanbo_tools.board_time.count_units`` with tests/device_stubs first on MICROPYPATH
and the app and engine as ``.mpy``; ``BOARD_TIME_WORK`` is ``BOARD_ID WIDTH HEIGHT PUZZLE``.

Each unit (between two marks) is what A on the puzzle list runs: the
collection opened and one entry read, the puzzle's game set up, its screen
built and shown, the app's next step; ``BOARD_TIME_N`` units. The screen's
refresh (SPI) is the display's, not Python's: counted apart in pixels.
"""

import os

import board, displayio  # noqa: E401

board_id, width, height, n = os.getenv("BOARD_TIME_WORK").split()
board.board_id = board_id
board.DISPLAY = displayio.Display(int(width), int(height))
n = int(n)
units = int(os.getenv("BOARD_TIME_N") or "1")

import boards  # noqa: E402
from app import forget  # noqa: E402
from app.start import start  # noqa: E402

app = start(boards, clock=lambda: 0, sleep=lambda s: None)
del start, boards
forget("app.start")
app.step()

divmod(0, 1)
for _ in range(units):
    app.go("puzzle", n)
    app.step()
    divmod(0, 1)
print(type(app.screen).__name__, app.screen.puzzle.number)
