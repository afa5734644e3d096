"""A press that changes the screen is drawn within 0.45 s on a PicoSystem (issue 46; counted,
not timed): the Python's board time (tanbo_tools.board_time, valgrind, the MicroPython unix
port running tests/press_board_time.py) plus the pixels the refresh sends (the simulator's
displayio twin, the same presses from the same library) at 6.1 µs a pixel, as measured on
the firmware (docs/board-costs.md#screen-refreshes). The port's count is scaled to the
firmware's (:data:`FIRMWARE`), which ran these presses slower than the port counts them.
"""

import os

import pytest

from tanbo import Game
from tanbo.rng import Rng
from tanbo_sim.simulator import Simulator
from tanbo_tools import board_time, vm
from tanbo_tools.lab import bench_start

LIMIT_MS = 450
WIRE_US = 6.1  # µs a refreshed pixel on a PicoSystem's panel (firmware)
# The firmware's Python time over the port's count, from CircuitPython 10.2.1 on a
# PicoSystem at 546dbfa, less the wire: title -> Games 460 - 313 = 147 ms against 112,
# Settings -> a 19x19 game 471 - 351 = 120 against 92 (Review -> Games: 188 against 202).
FIRMWARE = 1.31
PICOSYSTEM = bench_start.BOARDS[1]
WORKLOAD = os.path.join(vm.REPO, "tests", "press_board_time.py")
# (label, keys before it, the key): from the title with Continue, New game and Games.
PRESSES = (("title>games", "DOWN+DOWN", "A"), ("games>review", "", "A"), ("review>games", "", "B"),
           ("games>title", "", "B"), ("title>game", "", "A"), ("game>menu", "", "START"),
           ("menu>settings", "DOWN+DOWN+DOWN+DOWN", "A"), ("settings>game", "", "B"))
SCREENS = ["GamesList", "ReviewScreen", "GamesList", "Menu", "GameScreen", "Menu", "Menu", "GameScreen"]
# Allowed over the limit, each with its estimates (9x9 / 19x19; before: at 6f3d6c4).
# (The games list's A answers with its "Opening..." line; the review's board
# follows, 1.2 / 2.0 s: the game replayed ply by ply, the panel sent. The game
# menu's Settings so too: the settings follow in 0.6 s, a whole menu of 11 labels.)
OVER = {
    # The list's labels made anew beside the panel: 428 / 447 ms (615 / 625 before), near the
    # limit at the menus' scale; the firmware ran this press at 0.93 of the port's count
    # (539 ms for 201 counted): held at the port's own count below.
    "review>games": "428 / 447 ms",
    # Continue: a game's start, held to 0.7 s of board time by tests/test_start_board_time.py.
    "title>game": "699 / 819 ms (794 / 907 before; the title loads a game's code for Continue meanwhile)",
}


def sim_pixels(tmp_path, variant):
    """The pixels each of :data:`PRESSES` sends in the simulator, set up as the workload is."""
    s = Simulator("picosystem", nvm_path=str(tmp_path / "nvm"))
    try:
        app = s.app
        g = Game(variant)
        rng = Rng(5)
        while g.winner is None:
            moves = g.legal_moves()
            g.play(moves[rng.below(len(moves))])
        __import__("app.between").between.keep_game(app, g, (2,))
        app.save_game(Game(variant))
        app.title()
        s.frames(300)
        sent = []
        for label, before, key in PRESSES:
            s.run_keys(",".join(before.split("+") + ["wait:300"]) if before else "wait:10")
            n = len(s.events)
            s.run_keys(key + ",wait:300")
            pixels = [e["pixels"] for e in s.log.since(n, "refresh")]
            # The press's answer: its first refresh (the only one but for the games
            # list's A and the game menu's Settings, whose "Opening..." comes
            # before the whole screen).
            opened = label in ("games>review", "menu>settings")
            assert len(pixels) == (2 if opened else 1), (label, pixels)
            if opened:
                assert pixels[0] < 6000 and pixels[1] == 240 * 240, pixels
            sent.append(pixels[0])
        assert [type(app.screen).__name__] == SCREENS[-1:]
        return sent
    finally:
        s.close()


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("press") / "lib")
    bench_start.compile_app(path)
    return path


@pytest.mark.skipif(board_time.unavailable() is not None, reason="board time: %s" % board_time.unavailable())
@pytest.mark.parametrize("variant", ("9x9", "19x19"))
def test_every_press_of_the_library_and_the_settings_is_drawn_within_0_45_s(lib, tmp_path, variant):
    _, board_id, w, h, chip = PICOSYSTEM
    work = "%s %d %d %s %s" % (board_id, w, h, variant, " ".join("/".join(p) for p in PRESSES))
    counts, out = board_time.count_units(WORKLOAD, 1, path=[bench_start.STUBS, lib], work=work)
    report = vm.last_json(out)
    assert report["screens"] == SCREENS
    python = dict((label, board_time.estimate(n)[chip]) for label, n in zip(report["segments"], counts)
                  if label not in ("keys", "after"))
    pixels = dict(zip([p[0] for p in PRESSES], sim_pixels(tmp_path, variant)))
    over = []
    for label, _, _ in PRESSES:
        ms = python[label] * FIRMWARE + pixels[label] * WIRE_US / 1000
        print("%s %-13s %6.0f ms of Python (port) + %6d px = %5.0f ms" % (variant, label, python[label],
                                                                       pixels[label], ms))
        if ms >= LIMIT_MS:
            over.append(label)
    # The rest within the limit; those over it are the ones named, with their reasons.
    assert set(over) <= set(OVER), (over, python, pixels)
    assert "title>games" not in over and "settings>game" not in over and "games>title" not in over
    # Back to the list from a review: within the limit at the port's own count.
    assert python["review>games"] + pixels["review>games"] * WIRE_US / 1000 < LIMIT_MS
