"""Whole random games in the MicroPython subset: undo to the start, records.

Run by tests/subset/run.py on CPython, MicroPython and the CircuitPython VM.
"""

import tanbo
import tanbo.position  # loaded before any game: a module loaded mid-test fragments the heap
import tanbo.record
import tanbo.replay
from tanbo import Game


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
