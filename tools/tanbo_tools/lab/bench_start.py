"""``tanbo bench``'s start rows: Start on the new-game menu to the board fully drawn, in board time.

The workload is ``tests/start_board_time.py`` (the app and the engine
compiled to ``.mpy``, the hardware as ``tests/device_stubs``), counted by
:func:`tanbo_tools.board_time.count_units`: for each variant and level
against the computer, on each board, the first game after the app's start
(the AI's code not yet loaded, no search made) and the next one (a game
after a game), with the first game's parts (imports, engine, search,
screen, refresh, other: see the workload's docstring). The panel's own
refresh (SPI, about 6 µs a pixel on a PicoSystem) is the display's: counted
in pixels by the simulator's tests, not here.
"""

import json
import os

from .. import board_time, mpy, vm

WORKLOAD = os.path.join(vm.REPO, "tests", "start_board_time.py")
STUBS = os.path.join(vm.REPO, "tests", "device_stubs")
# The boards' screens: (name in the report, board_id, width, height, the board-time figure it runs at).
BOARDS = (("pybadge", "pybadge", 160, 128, "samd51_ms"),
          ("picosystem", "pimoroni_picosystem", 240, 240, "rp2040_ms"))
# A family each: the square sizes, 3d, 4p and Hexbo's two sizes.
VARIANTS = ("9x9", "13x13", "19x19", "3d", "4p", "hexbo-5", "hexbo")
# easy makes no search tables of its own beyond medium's (tanbo.ai.LEVEL_TABLE):
# medium and hard, whose searches differ (hard's beam, its reach).
LEVELS = ("medium", "hard")
UNITS = 2  # the first game after the app's start, then a game after a game
PARTS = ("imports", "engine", "search", "screen", "refresh", "other")


def compile_app(lib, repo=vm.REPO):
    """The app, its boards and the engine (of the checkout at ``repo``) as ``.mpy`` in ``lib``
    (as a board loads them), with the data files a bundle ships beside them (the puzzles)."""
    for src in (os.path.join(repo, "device", "app"), os.path.join(repo, "device", "boards"),
                os.path.join(repo, "core", "tanbo")):
        mpy.compile_package(src, os.path.join(lib, os.path.basename(src)))


def count(lib, board, variant, level, mode="whole", units=UNITS):
    """``(segments, screen)`` of one run: ``[(label, x86 instructions), ...]`` in order and the
    class names of the last unit's screen and of its search once that step ended ("GameScreen
    Search"). ``board``: one of :data:`BOARDS`."""
    _, board_id, w, h, _ = board
    counts, out = board_time.count_units(
        WORKLOAD, units, path=[STUBS, lib], work="%s %d %d %s %s %s" % (board_id, w, h, variant, level, mode))
    report = vm.last_json(out)
    labels = report["segments"]
    if len(labels) != len(counts):  # a divmod of the app's own between two marks
        raise board_time.BoardTimeError("start workload %s %s: %d segments named, %d counted (does the app "
                                        "call divmod, the marks' function?)" % (variant, level, len(labels),
                                                                                 len(counts)))
    return list(zip(labels, counts)), "%s %s" % (report["screen"], report["search"])


def units_of(segments):
    """The x86 count of each unit (Start to the board drawn) of a ``whole`` run's ``segments``."""
    return [n for label, n in segments if label == "start"]


def parts_of(segments):
    """The first unit's x86 count per part (:data:`PARTS`) of a ``parts`` run."""
    out = dict((p, 0) for p in PARTS)
    for label, n in segments:
        if label == "drawn":  # the wrapper's own few instructions after the refresh
            out["refresh"] += n
            break
        out[label] += n
    return out


def ms(x86, board):
    return round(board_time.estimate(x86)[board[4]], 1)


def measure(lib, variant, level, board):
    """The row of ``variant`` at ``level`` on ``board``: ms of its board's chip."""
    whole, screen = count(lib, board, variant, level)
    first, after = units_of(whole)[:2]
    parts, _ = count(lib, board, variant, level, "parts", 1)
    return {"first_game_ms": ms(first, board), "next_game_ms": ms(after, board), "screen": screen,
            "first_game_parts_ms": dict((p, ms(n, board)) for p, n in parts_of(parts).items()),
            # the rest of that step: the last screen's collection, a new search made
            "first_game_after_board_ms": ms([n for label, n in whole if label == "after"][0], board)}


def measure_all(tmp, variants=VARIANTS, levels=LEVELS, progress=None):
    """``{board: {variant: {level: row}}}`` (see :func:`measure`); ``progress(text)`` after each."""
    lib = os.path.join(tmp, "start-lib")
    compile_app(lib)
    out = {"what": "Start on the new-game menu to the board drawn (the display's refresh called, "
                   "its SPI not counted), the person to move first",
           "boards": board_time.BOARDS}
    for board in BOARDS:
        rows = out[board[0]] = {}
        for v in variants:
            for level in levels:
                rows.setdefault(v, {})[level] = row = measure(lib, v, level, board)
                if progress:
                    progress("%s %s %s: %s" % (board[0], v, level, json.dumps(row)))
    return out
