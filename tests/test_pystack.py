"""CircuitPython's pystack, counted on the desktop (tanbo_tools.play.pystack).

Every Python call's frame sits on a pystack of 1536 bytes in CircuitPython 9
(2048 in 10); a call past it raises "pystack exhausted" on the board, where
CPython, Blinka and the unix port run on. The frames read from the .mpy are
checked against the MicroPython VM's own allocations, and the app's deepest
calls, a hard search's included, against the smaller pystack.
"""

import contextlib
import os
import sys

import pytest

from tanbo_tools import vm
from tanbo_tools.play import pystack
from tanbo_tools.mpy import compile_source
from tanbo_sim.simulator import DEVICE_DIR

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORE = os.path.join(ROOT, "core", "tanbo")
# What the app may use: CircuitPython 9's default, less the calls the count
# cannot see (pystack.ALLOWANCE).
LIMIT = pystack.DEFAULT_SIZE[9] - pystack.ALLOWANCE


@pytest.fixture(scope="module")
def sizes():
    return pystack.app_sizes(ROOT)


@pytest.fixture(scope="module")
def base(sizes):
    """Bytes under App.step on the board: code.py's frame and App.run's."""
    return pystack.app_base(sizes, ROOT)


def _source_of_frames(path):
    """A module of functions with 11 to 39 locals and with handlers, each
    returning gc.mem_alloc() from inside its own frame."""
    lines = ["import gc"]
    for k in range(11, 40):
        lines.append("def f%d(x):\n    %s = x\n    return gc.mem_alloc()\n"
                     % (k, " = ".join("v%d" % i for i in range(k))))
    body = "    a = b = c = d = e = f = g = h = i = j = k = x\n"
    lines.append("def one_try(x):\n" + body + "    try:\n        return gc.mem_alloc()\n"
                 "    except ValueError:\n        return 0\n")
    lines.append("def two_tries(x):\n" + body + "    try:\n        try:\n            return gc.mem_alloc()\n"
                 "        finally:\n            a = 1\n    except ValueError:\n        return 0\n")
    lines.append("import sys\n"
                 "def measure(fn):\n    gc.collect()\n    gc.disable()\n    before = gc.mem_alloc()\n"
                 "    after = fn(0)\n    gc.enable()\n    return after - before\n"
                 "print([(n, measure(f)) for n, f in sorted(globals().items()) if type(f) is type(measure) and n != 'measure'])\n")
    with open(path, "w") as f:
        f.write("\n".join(lines))


def test_frames_read_from_the_mpy_are_the_vms_own(micropython_exe, tmp_path):
    # The unix port has no pystack: a frame of more than 11 words goes on
    # its heap instead, sized by the same prelude counts (64-bit: a 40-byte
    # header, 8 bytes a state slot, 24 a handler slot, in 32-byte blocks).
    # The measured allocations pin n_state to its 4-slot block and
    # n_exc_stack exactly: a misread prelude moves some function's block.
    src = str(tmp_path / "frames.py")
    _source_of_frames(src)
    tree = pystack.raw_codes(compile_source(src, "frames.py"))
    counts = {name: (n_state, n_exc) for name, _, n_state, n_exc, _ in tree[4]}
    rc, out, err = vm.run(micropython_exe, [src], heap="1M")
    assert rc == 0, err
    measured = dict(eval(out.strip().splitlines()[-1]))
    assert len(measured) == 31
    for name, got in measured.items():
        n_state, n_exc = counts[name]
        want = -(-(40 + 8 * n_state + 24 * n_exc) // 32) * 32
        assert got == want, (name, n_state, n_exc, got)
    assert counts["one_try"][1] == 1 and counts["two_tries"][1] == 2
    # And on the board: 20 + 4 a slot + 12 a handler, in 8-byte steps.
    assert pystack.frame_bytes(*counts["f11"]) == (20 + 4 * counts["f11"][0] + 7) // 8 * 8
    assert pystack.frame_bytes(*counts["two_tries"]) == (20 + 4 * counts["two_tries"][0] + 24 + 7) // 8 * 8


def test_the_meter_refuses_a_call_past_the_limit_as_the_firmware_does(tmp_path):
    path = tmp_path / "deep.py"
    path.write_text("def down(n):\n    if n:\n        return down(n - 1) + 1\n    return 0\n")
    sizes = pystack.frame_sizes(str(path))
    frame = sizes[(os.path.realpath(str(path)), 1, "down")]
    sys.path.insert(0, str(tmp_path))
    try:
        import deep
        with pystack.Meter(sizes, base=100) as m:
            assert deep.down(9) == 9  # ten frames
        assert m.peak == 100 + 10 * frame and m.chain == ["down"] * 10
        with pytest.raises(RuntimeError, match="pystack exhausted"):
            with pystack.Meter(sizes, base=100, limit=100 + 10 * frame):
                deep.down(10)  # the eleventh frame does not fit
        assert sys.getprofile() is None
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("deep", None)


def test_pairing_names_a_function_the_mpy_does_not_hold(tmp_path, monkeypatch):
    path = tmp_path / "two.py"
    path.write_text("def a():\n    return 1\n\ndef b():\n    return [i for i in range(3)]\n")
    real = compile_source(str(path), "two.py")
    # The .mpy of another version of the file: b without its comprehension.
    other = tmp_path / "other.py"
    other.write_text("def a():\n    return 1\n\ndef b():\n    return 2\n")
    monkeypatch.setattr(pystack, "compile_source", lambda p, n: compile_source(str(other), n))
    with pytest.raises(ValueError, match="b holds 1 functions, its .mpy 0"):
        pystack.frame_sizes(str(path))
    assert pystack.raw_codes(real)[4][1][0] == "b"
    with pytest.raises(ValueError, match="not a bytecode-only .mpy"):
        pystack.raw_codes(b"M\x05\x00\x1f")


@pytest.mark.parametrize("variant,plies", [("9x9", 24), ("9x9", 52), ("19x19", 40), ("4p", 60),
                                           ("hexbo-5", 20), ("hexbo-3p", 40), ("hexbo-6p", 60)])
def test_a_hard_search_in_the_app_fits_the_smallest_pystack(sim, sizes, base, variant, plies):
    # A PyBadge's budget (the deepest searches), from the app's own call
    # chain: App.step, think, the search, its progress callback and the
    # spinner. A search that recursed a frame a ply would need ~150 bytes
    # more for each.
    import random

    from tanbo import Game
    from tanbo.ai import LEVELS
    g = Game(variant)
    rnd = random.Random(plies)
    for _ in range(plies):
        g.play(rnd.choice(g.legal_moves()))
    sim.app.settings.level = LEVELS.index("hard")
    with pystack.Meter(sizes, base=base, limit=LIMIT) as m:
        sim.app.play(g, (g.to_move,))
        sim.frames(100)
    assert g.ply == plies + 1, (m.peak, m.chain)  # the computer moved, under the count
    ai = os.path.realpath(os.path.join(CORE, "ai.py"))
    search = sum(v for (f, _, name), v in sizes.items() if f == ai and name in ("run", "minimax", "scan"))
    assert m.peak >= base + search  # its frames were counted
    print("hard %s: pystack peak %d bytes: %s" % (variant, m.peak, " ".join(m.chain)))
    assert m.peak <= LIMIT, (m.peak, m.chain)


def test_menus_games_and_reviews_fit_the_smallest_pystack(sim, sizes, base):
    # A session's other deep paths: building screens, menus, the rules,
    # saving, undo and the end of a game.
    script = ("A,DOWN*2,LEFT*2,DOWN*2,A,"  # a 9x9 game against random
              "A,wait:600,RIGHT,A,wait:600,DOWN,A,wait:600,B,wait:600,"
              "START,wait:300,DOWN,A,wait:300,B,wait:300,START,wait:300,UP,A,wait:300")
    with pystack.Meter(sizes, base=base, limit=LIMIT) as m:
        sim.run_keys(script)
    assert m.peak <= LIMIT, (m.peak, m.chain)
    assert m.peak > base + 400  # the session ran under the count


def test_puzzles_fit_the_smallest_pystack(sim, sizes, base):
    # The list, a puzzle opened, a wrong move taken back, the hint, the
    # solution with its forced replies and the one save, the next puzzle,
    # the puzzle menu and back to the list.
    from test_sim_puzzles import first_lesson_and_puzzle, move_cursor_to, settle
    _, puzzle = first_lesson_and_puzzle()
    with pystack.Meter(sizes, base=base, limit=LIMIT) as m:
        sim.run_keys("DOWN,A" + ",DOWN" * (puzzle - 1) + ",A")
        screen = sim.app.screen
        g = screen.game
        move_cursor_to(sim, next(q for q in g.legal_moves() if q != screen.puzzle.line[0]))
        sim.press("A")
        settle(sim)
        sim.press("B")
        for step in range(0, len(screen.puzzle.line), 2):
            move_cursor_to(sim, screen.puzzle.line[step])
            sim.press("A")
            settle(sim)
        assert screen.solved
        sim.run_keys("A,wait:300,START,wait:300,DOWN*3,A,wait:300")
    assert type(sim.app.screen).__name__ == "PuzzleList"
    assert m.peak <= LIMIT, (m.peak, m.chain)
    assert m.peak > base + 400  # the session ran under the count
    print("puzzles: pystack peak %d bytes: %s" % (m.peak, " ".join(m.chain)))


def test_a_review_with_its_coach_fits_the_smallest_pystack(sim, sizes, base):
    # Issue 36: the coach's hard search stepped from the app's loop
    # (ReviewScreen.tick), the hunt for the next mistake, Send, the game
    # kept in the library at its end.
    import contextlib
    import io

    from test_sim_library import blunder_game
    full = blunder_game()
    sim.run_keys("A,DOWN*2,LEFT*2,DOWN*2,A")  # a 9x9 game against random
    g = sim.app.screen.game
    with pystack.Meter(sizes, base=base, limit=LIMIT) as m:
        for p in full.moves():
            g.play(p)
        sim.frames(300)
        sim.run_keys("DOWN,A,LEFT*30,A")
        sim.frames(3000)
        sim.run_keys("DOWN")
        sim.frames(3000)
        with contextlib.redirect_stdout(io.StringIO()):
            sim.run_keys("B,START")
    assert type(sim.app.screen).__name__ == "ReviewScreen"
    ai = os.path.realpath(os.path.join(CORE, "ai.py"))
    search = sum(v for (f, _, name), v in sizes.items() if f == ai and name in ("minimax", "scan"))
    assert m.peak >= base + search  # the coach's search ran under the count
    print("review's coach: pystack peak %d bytes: %s" % (m.peak, " ".join(m.chain)))
    assert m.peak <= LIMIT, (m.peak, m.chain)


@contextlib.contextmanager
def new_board():
    """The engine as a board's reset leaves it, for the block: no module of it
    imported, so its variants and their tables are built anew and every
    module's body runs under the count (the process's own modules come back
    after)."""
    def ours():
        return [n for n in sys.modules if n == "tanbo" or n.startswith("tanbo.")]
    kept = {n: sys.modules.pop(n) for n in ours()}
    try:
        yield
    finally:
        for n in ours():
            del sys.modules[n]
        sys.modules.update(kept)


if DEVICE_DIR not in sys.path:
    sys.path.insert(0, DEVICE_DIR)
from app.store.settings import GAME_VARIANTS  # noqa: E402


def _new_game(variant):
    i = GAME_VARIANTS.index(variant)
    return "A," + ("RIGHT*%d," % i if i else "") + "DOWN*4,A,wait:500"


RESIGN = "START,wait:300,DOWN*2,A,DOWN,A,wait:500"  # the game menu's Resign, then Yes

# A screen's first opening from a new save: (keys from the title, the screen
# class it ends on, whether the library must hold a game first). The title's
# rows: New game, (Games,) Puzzles, Rules, Settings.
FIRST_OPENINGS = {
    "title": ("wait:100", "Menu", False),
    "new game": ("A", "Menu", False),
    "settings": ("DOWN*3,A", "Menu", False),
    "rules": ("DOWN*2,A", "Help", False),
    "puzzle list": ("DOWN,A,wait:500", "PuzzleList", False),
    "a puzzle": ("DOWN,A,wait:500,A,wait:500", "PuzzleScreen", False),
    "game menu": (_new_game("9x9") + ",START,wait:300", "Menu", False),
    "result": (_new_game("9x9") + "," + RESIGN, "Menu", False),
    "games list": ("DOWN,A,wait:300", "GamesList", True),
    "review": ("DOWN,A,wait:300,A,wait:500", "ReviewScreen", True),
}
for _v in GAME_VARIANTS:
    FIRST_OPENINGS["game " + _v] = (_new_game(_v), "GameScreen", False)


@pytest.mark.parametrize("board", ("pybadge", "pygamer", "picosystem"))
@pytest.mark.parametrize("screen", tuple(FIRST_OPENINGS))
def test_every_screens_first_opening_from_a_new_save_fits_the_smallest_pystack(board, screen, sizes, base,
                                                                               tmp_path):
    # The budget counts what a board does once after its reset: import the
    # engine's modules, build a variant and its tables (a puzzle list
    # builds its first entry's deep in its calls).
    from tanbo_sim.simulator import Simulator
    keys, name, library = FIRST_OPENINGS[screen]
    path = str(tmp_path / "nvm.bin")
    if library:  # a game resigned, kept in the library
        sim = Simulator(board, nvm_path=path)
        sim.run_keys(_new_game("9x9") + "," + RESIGN)
        assert sim.app.games == 1
        sim.close()
    with new_board():
        with pystack.Meter(sizes, base=base, limit=LIMIT) as m:
            sim = Simulator(board, nvm_path=path)
            try:
                sim.run_keys(keys)
            finally:
                sim.close()
        assert "tanbo.variants" in sys.modules  # imported anew, under the count
    print("%s, %s: pystack peak %d bytes: %s" % (board, screen, m.peak, " ".join(m.chain)))
    assert m.peak <= LIMIT, (m.peak, m.chain)
    assert type(sim.app.screen).__name__ == name, screen
