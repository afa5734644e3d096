"""The memory target: a 19x19 game with its undo history (its own process, so its own heap).

Engine checks in the MicroPython subset: run by tests/subset/run.py on
CPython, the MicroPython unix port and the CircuitPython VM alike.

Plain asserts, no pytest, no sets of tuples, nothing CircuitPython lacks.
"""

import tanbo
from tanbo import Game, IllegalMove, get_variant


def raises(exc, fn, *args):
    """The message of the ``exc`` that ``fn(*args)`` raises (AssertionError if none)."""
    try:
        fn(*args)
    except exc as e:
        return str(e)
    raise AssertionError("%s not raised" % exc.__name__)


def test_full_19x19_game_with_history():
    # The memory target: a whole 19x19 game with its undo history.
    import gc
    g = Game("19x19")
    rng = tanbo.Rng(3)
    while not g.over:
        g.play(g.legal_move_at(rng.below(g.legal_count())))
    gc.collect()
    assert g.ply > 300 and g.winner is not None
    g.undo()
    assert g.winner is None
