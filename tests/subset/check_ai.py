"""AI checks in the MicroPython subset: run by tests/subset/run.py on CPython,
the MicroPython unix port and the CircuitPython VM alike.

Plain asserts, no pytest. The full set is tests/test_ai.py; these are the
few that must also hold on a board's interpreter (small ints, 32-bit
floats, capped heap): legality, the two tactics, stopping, determinism.
"""

from tanbo import Game
from tanbo.ai import LEVELS, PLAYED_COST, Search, choose_move, step
from tanbo.perf import random_position

WIN_IN_ONE = "OX......./........./X......../........./........./........./........./........./......... X"
SELF_REMOVAL = "XO......./.O......./O......../........./....X..../........./........./........./......... X"

# hard's answers to a few seeded 9x9 positions, as CPython computes them:
# every interpreter must agree (tanbo.Rng and integer-only scoring).
# Retuning the AI changes these: recompute with expected_moves().
EXPECTED = "G6 E4 H6"


position = random_position


def hard_moves(cases):
    """hard's moves, in notation, in the random positions of ``cases``:
    ``(variant, plies, seed)`` each (also check_hexbo_ai's)."""
    out = []
    for variant, plies, seed in cases:
        g = position(variant, plies, seed)
        out.append(g.name(choose_move(g, "hard", seed=seed)))
    return " ".join(out)


def expected_moves():
    return hard_moves([("9x9", 10 + 12 * seed, seed) for seed in range(3)])


def levels_play_legal(variants, plies):
    """Every level's move is legal in a random position of each of ``variants``."""
    for variant in variants:
        g = position(variant, plies, 1)
        for level in LEVELS:
            assert g.is_legal(choose_move(g, level, seed=2)), (variant, level)


def test_levels_play_legal_moves():
    levels_play_legal(("9x9", "1d", "3d"), 12)


def test_win_in_one_and_no_self_removal():
    win = Game.from_position(WIN_IN_ONE)
    trap = Game.from_position(SELF_REMOVAL)
    for level in LEVELS[1:]:
        assert win.name(choose_move(win, level)) == "A8", level
        assert trap.name(choose_move(trap, level)) != "A8", level


def test_stop_and_untouched_game():
    g = position("13x13", 20, 3)
    before = g.position()
    stats = {}
    m = choose_move(g, "hard", progress=lambda done, total: True, stats=stats)
    # a stop request waits for depth 2 searched whole, then stops
    assert stats["depth"] == 2 and stats["iterations"] < stats["budget"] and g.is_legal(m)
    assert g.position() == before and g.ply == 20


def test_same_answers_as_cpython():
    assert expected_moves() == EXPECTED, expected_moves()


def test_zero_movetime_stops_at_the_first_clock_check():
    # Exercises the interpreter's clock (ticks_ms / monotonic_ns).
    g = position("9x9", 10, 4)
    stats = {}
    m = choose_move(g, "hard", movetime_ms=0, stats=stats)
    assert stats["depth"] <= 1 and stats["iterations"] <= PLAYED_COST * g.legal_count() and g.is_legal(m)


def test_search_allocates_nothing_per_node():
    # The heap a search leaves allocated (collections off) must not grow
    # with its node budget: four times the nodes, the same garbage give or
    # take the root's lists, which each deepening iteration makes anew
    # (~3.2 KB on this port: a finished one, and the one the budget cut).
    # One object a node would be 16+ bytes times thousands of nodes.
    import gc
    if not hasattr(gc, "mem_alloc"):
        return
    from tanbo import ai
    g = position("9x9", 14, 5)
    used = []
    last_pass, ai.LAST_PASS = ai.LAST_PASS, 0  # every pass begun: the nodes scale with the budget
    try:
        for slowness in (12.0, 3.0):
            gc.collect()
            gc.disable()
            before = gc.mem_alloc()
            stats = {}
            choose_move(g, "hard", seed=1, stats=stats, slowness=slowness)
            used.append((gc.mem_alloc() - before, stats["iterations"], stats["depth"]))
            gc.enable()
    finally:
        ai.LAST_PASS = last_pass
    (small, n1, d1), (large, n2, d2) = used
    assert n2 >= 3 * n1, used
    assert large - small < 4000 * (1 + d2 - d1), used


def same_as_fresh(variant, level, plies, slowness):
    """Searches of one game's positions with one reused Search against a
    fresh one each: (move, nodes, depth, score) alike, or an assertion.
    The fresh searches first, then the reused one over the same game: one
    search at a time on the heap (a capped one lacks room for two)."""
    import gc
    answers = []
    for reuse in (False, True):
        g = position(variant, 6, 2)
        search = None
        for i in range(plies):
            gc.collect()
            stats = {}
            if reuse and search is None:
                search = Search(g, level, slowness=slowness)
            m = choose_move(g, level, seed=g.ply, stats=stats, slowness=slowness, search=search)
            if reuse:
                assert answers[i] == (m, stats), (variant, i, answers[i], m, stats)
            else:
                answers.append((m, stats))
            g.play(m)
            if g.winner is not None:
                break
            g.play(g.legal_moves()[g.ply % g.legal_count()])  # the other side, any legal move
            if g.winner is not None:
                break
        search = None


def test_a_reused_search_plays_as_fresh_ones():
    # A search's arrays are allocated once a game and reused: its moves,
    # nodes, depths and values must equal a fresh search's move after
    # move (a fast copy on 9x9, a compact one on 13x13; tests/test_ai.py
    # has the larger boards, which a capped heap holding two searches lacks).
    same_as_fresh("9x9", "hard", 3, 12.0)
    same_as_fresh("13x13", "hard", 2, 40.0)
    same_as_fresh("9x9", "medium", 2, 4.4)
    g = position("9x9", 6, 2)
    search = Search(g, "hard", slowness=12.0)
    other = Game("13x13")
    try:
        search.start(other)
        assert False, "a 13x13 game loaded into a 9x9 search"
    except ValueError as e:
        assert "13x13" in str(e) and "9x9" in str(e), e
    try:
        choose_move(g, "medium", search=search, slowness=12.0)
        assert False, "a hard search played medium"
    except ValueError as e:
        assert "hard" in str(e), e


def test_attributes_fit_a_37_slot_table():
    # On the interpreter whose dict it is (see tests/test_ai.py's
    # MAX_ATTRIBUTES): hard with reach (9x9) and without (13x13), easy,
    # made and paused at each step of a walk.
    for variant, level in (("9x9", "hard"), ("13x13", "hard"), ("9x9", "easy")):
        s = Search(position(variant, 8, 1), level, 1, slowness=12.0)
        most = len(s.__dict__)
        while not step(s, 41):
            n = len(s.__dict__)
            most = n if n > most else most
        assert most <= 37, (variant, level, most)
