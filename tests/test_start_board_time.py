"""Start on the new-game menu to the board drawn takes under 0.7 s of board time on every
board (issue 33; counted, not timed).

The board-time instrument (tanbo_tools.board_time, valgrind) counts the
instructions the MicroPython unix port runs for tests/start_board_time.py
(tanbo_tools.lab.bench_start: the app and the engine as .mpy, the hardware
as tests/device_stubs, Python stand-ins for C on the board, so the figure
leans high): the Start row's action and the app's step up to the display's
refresh, for the first game after the app's start (the AI's code and the
tile strip not yet made) and a game after it. The panel's own refresh is
counted in pixels by the simulator's tests. ``tanbo bench --start`` gives
every family's rows with their parts.
"""

import pytest

from tanbo_tools import board_time
from tanbo_tools.lab import bench_start

LIMIT_MS = 700
PYBADGE, PICOSYSTEM = bench_start.BOARDS
# The slowest of each kind on the board it is slowest on (tanbo bench --start,
# docs/board-costs.md): the first game pays the screen's module loads and its
# tile strip; a PicoSystem makes the search after the board is drawn (the
# level does not count there), a PyBadge before its screen (hard's is the
# larger). At a7ef783: PicoSystem 9x9 hard 723 ms, 19x19 hard 1,123, 3d 875,
# 4p 930, hexbo 841; PyBadge 19x19 hard 276, 4p hard 260.
CASES = [(PICOSYSTEM, "9x9", "hard"), (PICOSYSTEM, "9x9", "medium"), (PICOSYSTEM, "19x19", "hard"),
         (PICOSYSTEM, "3d", "medium"), (PICOSYSTEM, "4p", "medium"), (PICOSYSTEM, "hexbo", "medium"),
         (PICOSYSTEM, "hexbo-6p", "medium"), (PYBADGE, "19x19", "hard"), (PYBADGE, "4p", "hard")]
# Over the limit, each with its count (RP2040 ms, first game / a game after a
# game; docs/board-costs.md, Start -> board), as an xfail (not strict: a count
# moves by a few ms with the folders the bundle is built in). None now.
OVER = {}


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("start") / "lib")
    bench_start.compile_app(path)
    return path


@pytest.mark.skipif(board_time.unavailable() is not None, reason="board time: %s" % board_time.unavailable())
@pytest.mark.parametrize("board,variant,level", [
    pytest.param(b, v, lv, marks=pytest.mark.xfail(strict=False, reason=OVER[(b, v, lv)]) if (b, v, lv) in OVER else ())
    for b, v, lv in CASES], ids=["%s-%s-%s" % (b[0], v, lv) for b, v, lv in CASES])
def test_start_to_the_board_drawn_takes_under_0_7_s_of_board_time(lib, board, variant, level):
    segments, screen = bench_start.count(lib, board, variant, level)
    # The game is on screen, and its search made by the end of that step (after the
    # refresh on a PicoSystem).
    expected = "SharedSearch" if board is PYBADGE and variant in ("4p", "19x19") else "Search"
    assert screen == "GameScreen " + expected
    first, after = (bench_start.ms(n, board) for n in bench_start.units_of(segments))
    print("%s %s %s: Start -> board %.0f ms (first game), %.0f ms (a game after a game)"
          % (board[0], variant, level, first, after))
    assert after < first < LIMIT_MS


@pytest.mark.skipif(board_time.unavailable() is not None, reason="board time: %s" % board_time.unavailable())
def test_the_benchs_parts_cover_the_first_game_and_each_is_counted(lib):
    # tanbo bench --start's breakdown wraps where the app finds each part (a
    # merge once moved kept_search off app.main and left the wrap failing).
    # On a PyBadge the search is made before the screen: every part is in the unit.
    whole, _ = bench_start.count(lib, PYBADGE, "9x9", "medium", units=1)
    parts, screen = bench_start.count(lib, PYBADGE, "9x9", "medium", "parts", 1)
    assert screen == "GameScreen Search"
    counted = bench_start.parts_of(parts)
    assert all(counted[p] > 0 for p in bench_start.PARTS), counted
    # the wrappers add a few calls per part (each import's the most), and their
    # garbage moves the collections and the allocator's searches; the parts'
    # run imports the game screen's module before the unit (to wrap it), which
    # the unmarked run imports in it: within 5% below and 12% above the
    # unmarked unit, by the heap's layout (a part missed or counted twice is more)
    first = bench_start.units_of(whole)[0]
    assert first * 0.95 <= sum(counted.values()) <= first * 1.12, (first, counted)
