"""Whole sessions of the device app on a board's heap, fragmentation included (tests/device_sessions.py).

Issue 22: on CircuitPython firmware with a PyBadge's heap (131,296 bytes
free at ``code.py`` start) 19x19 hard died at its second search, and with
less, 9x9 hard at its transposition table and a game's start at its tile
bitmap: each time the bytes were free but no block of them was large
enough. A total does not show that; a session does. Each test plays two
games in a row of hard, through the app, under the MicroPython unix port
(the engine and the app as ``.mpy``, as on a board) with the heap cut to
the board's free heap at start, converted to this port's bytes by the
calibrated factor of tests/test_device_memory.py (a board needs 0.744 of
what the 64-bit port reports; 0.747 until issue 33's probe round).

``python tests/test_device_sessions.py [BOARD VARIANT ...]`` bisects the
smallest free heap at start each session needs, in board bytes.
"""

import json
import os
import subprocess
import sys

import pytest

TESTS = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(TESTS)
sys.path.insert(0, TESTS)
from test_device_memory import BOARD_PER_PORT_BYTE, BOARDS, compiled  # noqa: E402

# Free heap at ``code.py`` start on CircuitPython 10.2.1 firmware: the
# PicoSystem's as measured (issue 12), the PyBadge's as issue 22 held it.
FREE_AT_START = {"pybadge": 131296, "picosystem": 185376}
VARIANTS = ("9x9", "13x13", "19x19", "3d", "4p")
GAMES = 2
# The search's node budget in the sessions: the PicoSystem's (4.4, the
# default), whose moves are what every seed replays; a PyBadge's 1.0 would
# allocate the same blocks in 4.4 times the nodes (and the CI's time).
SLOWNESS = 4.4


def session(exe, lib, board, variant, board_free, games=GAMES, slowness=SLOWNESS, degrade=False, menu=False):
    """The JSON of tests/device_sessions.py: ``games`` games of hard on ``variant`` with
    ``board_free`` board bytes free at start (converted to the port's); ``degrade``: with the
    app's MemoryError handler; ``menu``: START pressed now and then (see the script)."""
    board_id, w, h = BOARDS[board]
    port_free = int(board_free / BOARD_PER_PORT_BYTE)
    # Run as a module (-m) from ``lib``, so that modules load by relative
    # paths: each keeps its path (``__file__``) on the heap, so absolute
    # ones would make the need depend on where the temporary folder lies
    # (run by its path, the script put its folder's real path first on
    # sys.path: pytest's folder took ~1 KB more than the script's /tmp/tmp...).
    proc = subprocess.run([exe, "-X", "heapsize=1M", "-m", "device_sessions", board_id, str(w),
                           str(h), variant, str(games), str(port_free), str(slowness)] + (["degrade"] if degrade else []) + (["menu"] if menu else []),
                          capture_output=True, text=True, timeout=600, cwd=lib,
                          env=dict(os.environ, MICROPYPATH=os.pathsep.join(("device_stubs", "."))))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


def smallest_free(exe, lib, board, variant, low=40000, high=None, step=1024):
    """The least board bytes free at start (to ``step``) with which the session runs to its end."""
    high = high or FREE_AT_START[board] + 64 * 1024
    if session(exe, lib, board, variant, high)["ok"] is not True:
        return None
    while high - low > step:
        mid = (low + high) // 2
        if session(exe, lib, board, variant, mid)["ok"] is True:
            high = mid
        else:
            low = mid
    return high


# Sessions that do not fit the board's free heap yet, each held to the free
# heap (board bytes) it needs now, so that it cannot get worse unseen: none.
# 4p on a PyBadge was the last (147,822 B): it needs 126,992 since its search
# plays on the app's game (app.shared_search) and this script's frame no
# longer holds the last game (docs/board-costs.md). Near its need a
# session's fate turns on where the heap fragments, which the unix port's
# conservative collector moves with its stack (under pytest 4p once failed
# 1.7 KB above a bisected need): the board's figure leaves 4.3 KB.
# hexbo-6p on a PyBadge: bisected 131,280 (16 B under the board's), yet it
# failed under pytest at 131,296: held to its need and 4.3 KB, as 4p was
# (docs/board-costs.md, Hexbo).
# Issue 36 (the library, the coach, Send: ~1 KB more of the app's code stays
# loaded during a game): 4p on a PyBadge failed its second game at ply ~380
# on the board's 131,296 (a 1 KB block of the game's history), with the NVM
# stub at 4 or 8 KB alike, and ran at 136,000 (not bisected).
# Until then a MemoryError outside a search went unseen here: App.recover
# caught what the script's handler raised and showed its LowMemory screen
# (device_sessions.py now reports it). Seen so, and with 4p's stacks made at
# its start (app.screens.game.RESERVE_ABOVE) and fewer per-move lists:
# 4p bisected 131,280, yet under pytest its second game found no 616 B block
# for a search's root scores at ply 376 on 131,296; hexbo-6p bisected 134,344.
# Both held to their need and ~4.3 KB.
# Since a search's root lists are its arena's (made at the game's start, cut
# in place: docs/board-costs.md, "A search's root lists made at the game's
# start") no search allocates such a block; the needs bisect about as before
# (4p 130,668, hexbo-6p 134,956), failing now outside a search (the second
# game's screen, GameScreen.__init__, 192-368 B; hexbo-6p's removal records'
# 1 KB step), which the holds still cover.
# hexbo-3p on a PyBadge: after this round's merge (the root lists, the
# library's write at the result) it failed under pytest at the board's
# 131,296 at ply 376 of its second game (1 KB of the game's history stack)
# and passed there outside pytest: held as 4p is.
# Since the many-player games' own blocks (docs/board-costs.md: no stack of
# marks, 6p Hexbo's byte indexes, the next game in the last one's tables,
# every shared game's stacks made at its start, the cursor's root drawn
# without a list) the engine and the search make no block late in these
# games: hexbo-3p bisects to 125,000 (was 130,500: off the list), hexbo-6p
# to 131,000 (was 134,000), 4p to 129,875 (129,500-130,668 before); the
# last two fail at their second game's screen (GameScreen, 128-368 B),
# less than 1.5 KB under the board's figure: held to need and ~4.3 KB
# until that screen takes less.
# Issue 33's round (bytecode without line numbers, a screen built without
# its search when there is no room beside it): 4p bisects to 125,767 and
# hexbo-6p to 126,992, and both pass at every 1 KB step from 127,000 to
# 132,000 B, 4.3-5.5 KB under the board's: none is held.
SHORT_OF_HEAP = {}


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    return compiled(str(tmp_path_factory.mktemp("bundle")))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("board", sorted(FREE_AT_START))
def test_two_games_of_hard_in_a_row_fit_the_boards_heap(micropython_exe, lib, board, variant):
    out = session(micropython_exe, lib, board, variant, SHORT_OF_HEAP.get((board, variant), FREE_AT_START[board]))
    assert out["ok"] is True, out
    assert len(out["plies"]) == GAMES and min(out["plies"]) > 10, out
    # the games ended with a winner, not by a stuck loop: both were played out
    print("%s %s: plies %s, least free at a move %.1f KB (board)" % (
        board, variant, out["plies"], out["min_free"] * BOARD_PER_PORT_BYTE / 1024))


HEXBO = ("hexbo-5", "hexbo", "hexbo-5-3p", "hexbo-3p", "hexbo-5-6p", "hexbo-6p")


@pytest.mark.parametrize("variant", HEXBO)
def test_two_hexbo_games_of_hard_in_a_row_fit_a_pybadges_heap(micropython_exe, lib, variant):
    # The smaller heap of the two boards (a PicoSystem has 54 KB more).
    test_two_games_of_hard_in_a_row_fit_the_boards_heap(micropython_exe, lib, "pybadge", variant)


# Room to spare on a PyBadge: with 8 KB less than a PyBadge has free at
# start, two games of hard in a row of every variant the app offers must
# meet no MemoryError (no "Low memory" screen); below that the app plays
# lighter or saves the game and shows the title, never stops.
# The firmware leaves less room than this port with the same free figure
# (CircuitPython 10.2.1 on a PyBadge-sized heap: 4p, 19x19 and hexbo-6p
# failed at 123.9-125 KB free where the port passed them at 123,000 B, and
# passed at 129.7 KB): its heap is split in areas that no block spans, and
# displayio's objects and gc.mem_free()'s ~4 KB steps move the figure. So
# the port is held 8 KB under the firmware's own 8 KB to spare: 131,296 B
# less 16 KB, the ~6-7 KB the firmware fell short by and a margin
# (docs/board-costs.md, "8 KB less than a PyBadge, on the firmware").
SPARE_FREE = 115000
# Variants that do not play two hard games at SPARE_FREE yet, each held at
# the free heap it passes at now (board bytes), so that it cannot get worse
# unseen; their bisected needs and where they fail at 115,000 B are in
# docs/board-costs.md. A variant put here must say why.
SHORT_OF_SPARE = {
    # Where each passes now (a sweep by 1,000 B from 113,000 to 121,000; a heap
    # it fails at between two it passes at is the layout's luck, not a need):
    # docs/board-costs.md#sessions-at-8-kb-less-than-a-pybadge.
    "hexbo-6p": 116000,  # 116,000 up: at 115,000 its first search finds no 868 B block
    "4p": 119000,  # 119,000 up: below, its first game's screen and its search do not fit together
}
ALL_VARIANTS = ("9x9", "13x13", "19x19", "dense-11", "1d", "3d", "4p", "hexbo-5", "hexbo-5-3p", "hexbo-5-6p",
                "hexbo", "hexbo-3p", "hexbo-6p")


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_two_games_of_hard_with_8_kb_less_than_a_pybadge(micropython_exe, lib, variant):
    free = SHORT_OF_SPARE.get(variant, SPARE_FREE)
    out = session(micropython_exe, lib, "pybadge", variant, free)
    assert out["ok"] is True, out
    assert len(out["plies"]) == GAMES and min(out["plies"]) > 10, out
    assert out["screens"] == ["Menu"] * GAMES, out  # each game's result shown
    print("pybadge %s at %d B: least free at a move %.1f KB (board)" % (
        variant, free, out["min_free"] * BOARD_PER_PORT_BYTE / 1024))


# START at every 7th move of the person (pressed through App.step), with the
# app's own handler, on heaps where the game's search is short at most moves
# and START's menu finds no block until the search and its code are let go
# (docs/board-costs.md#sessions-at-8-kb-less-than-a-pybadge).
# (4p at 115,000 B cannot start a game at all: the title says so.)
@pytest.mark.parametrize("variant,board_free", [("4p", 116000), ("4p", 118000), ("hexbo-6p", 115000),
                                                ("hexbo-6p", 117000), ("19x19", 115000), ("19x19", 116000)])
def test_start_opens_the_game_menu_at_any_heap_and_a_lighter_move_says_so(micropython_exe, lib, variant,
                                                                           board_free):
    out = session(micropython_exe, lib, "pybadge", variant, board_free, degrade=True, menu=True)
    assert out["ok"] is True, out
    assert out.get("menus", 0) >= 3 and "no_menu" not in out, out  # every START showed the game menu
    # a lighter move than the level set is said, in words, with why
    assert set(out.get("levels", ())) <= {"low memory: easy move", "low memory: random move"}, out


# Heaps where each variant's search is short at most moves.
@pytest.mark.parametrize("variant,board_free", [("19x19", 110000), ("4p", 116000), ("4p", 100000),
                                                ("9x9", 100000)])
def test_below_that_the_app_degrades_and_never_stops(micropython_exe, lib, variant, board_free):
    """With the app's own handler: the session runs to its end (no MemoryError
    escapes), the handler met at least one, and after each game the app shows
    a menu (the result, or the title after "Low memory: saved.")."""
    out = session(micropython_exe, lib, "pybadge", variant, board_free, degrade=True)
    assert out["ok"] is True, out
    assert out.get("low_memory", 0) >= 1, out  # the heap was short: the handler ran
    assert out["screens"] and set(out["screens"]) <= {"Menu", "LowMemory"}, out


def main(argv):
    """Print, per board and variant, the smallest free heap at start (board bytes) of a session.

    ``--repo PATH`` measures another checkout's app and engine (e.g. the
    code before a change) with this script; ``--at BYTES`` runs each session
    once with that free heap at start and prints its outcome (where it failed)
    instead of bisecting; ``--step`` sets the bisection's step (1024 B).
    """
    import argparse
    import tempfile
    from tanbo_tools.vm import micropython_path
    parser = argparse.ArgumentParser(description=main.__doc__.splitlines()[0])
    parser.add_argument("--repo", default=REPO)
    parser.add_argument("--boards", default=",".join(sorted(FREE_AT_START)))
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--at", type=int, default=None)
    parser.add_argument("--step", type=int, default=1024)
    args = parser.parse_args(argv)
    exe = micropython_path()
    with tempfile.TemporaryDirectory() as tmp:
        lib = compiled(tmp, args.repo)
        for board in args.boards.split(","):
            for variant in args.variants.split(","):
                if args.at is not None:
                    out = session(exe, lib, board, variant, args.at)
                    print(json.dumps({"board": board, "variant": variant, "free": args.at, "ok": out["ok"],
                                      "plies": out["plies"], "screens": out.get("screens")}), flush=True)
                    continue
                need = smallest_free(exe, lib, board, variant, step=args.step)
                print(json.dumps({"board": board, "variant": variant, "smallest_free": need,
                                  "free_at_start": FREE_AT_START[board]}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
