"""Whole random games: undo to the start, records.

Engine checks in the MicroPython subset: run by tests/subset/run.py on
CPython, the MicroPython unix port and the CircuitPython VM alike.

Plain asserts, no pytest, no sets of tuples, nothing CircuitPython lacks.
"""

import tanbo
import tanbo.position  # loaded before any game: a module loaded mid-test fragments the heap
import tanbo.record
import tanbo.replay
from tanbo import Game, IllegalMove, get_variant


def raises(exc, fn, *args):
    """The message of the ``exc`` that ``fn(*args)`` raises (AssertionError if none)."""
    try:
        fn(*args)
    except exc as e:
        return str(e)
    raise AssertionError("%s not raised" % exc.__name__)


def _game_undone_and_replayed(name):
    g = Game(name)
    # position text and legal moves, not state_key(): its many small objects
    # would stay alive through the game and fragment a 64 KB heap
    start = g.position()
    start_moves = g.legal_moves()
    rng = tanbo.Rng(11)
    while not g.over:
        g.play(g.legal_move_at(rng.below(g.legal_count())))
    assert g.winner is not None
    record = g.record()
    while g.ply:
        g.undo()
    assert g.position() == start and g.legal_moves() == start_moves
    g = None
    again = Game.from_record(record)
    assert again.winner is not None and again.ply > 0


def test_9x9_game_undo_and_record():
    _game_undone_and_replayed("9x9")


def test_1d_game_undo_and_record():
    _game_undone_and_replayed("1d")


def test_3d_game_undo_and_record():
    _game_undone_and_replayed("3d")


def test_dense_7_game_undo_and_record():
    _game_undone_and_replayed("dense-7")
