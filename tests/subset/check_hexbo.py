"""Hexbo in the MicroPython subset: the small board's diagram, whole games of
two, three and six players with undo and records (the computer's moves:
check_hexbo_ai.py).

Run by tests/subset/run.py on CPython and the MicroPython unix port (its
own process: a fresh heap under the runner's cap, tests/interpreters.py).
"""

import tanbo
import tanbo.position  # loaded before any game: a module loaded mid-test fragments the heap
import tanbo.record
import tanbo.replay
import tanbo.hexbo
from tanbo import Game

# RULES.md's copy of pbmserv's small board, rows joined by '/'.
SMALL_BOARD = ("       . . . . .    /      . # . . O .   /     . . . . . . .  /    . . . . . . . . /"
               "   . O . . . . . # ./    . . . . . . . . /     . . . . . . .  /      . # . . O .   /"
               "       . . . . .     X")

def test_the_small_boards_diagram_is_its_setup():
    g = Game.from_position(SMALL_BOARD)
    assert g.variant.name == "hexbo-5" and g.position() == Game("hexbo-5").position()
    assert g.name(g.variant.cell(4, 5)) == "E5" and g.variant.row_col(g.point("I9")) == (8, 9)


def _game_undone_and_replayed(name, seed, record=True):
    g = Game(name)
    start = g.position()
    rng = tanbo.Rng(seed)
    while not g.over:
        if g.players > 2 and g.ply == 30:
            g.resign(g.players)  # the last player leaves: the turn order skips it
        else:
            g.play(g.legal_move_at(rng.below(g.legal_count())))
    assert g.winner is not None and g.stones(g.winner) > 0 and (g.players == 2 or g.winner != g.players)
    # (a whole game's record text on a big board needs a block this heap's
    # fragments may not hold: the square boards' checks write small boards' too)
    text = g.record() if record else None
    while g.ply:
        g.undo()
    assert g.position() == start
    g = None
    if record:
        again = Game.from_record(text)
        assert again.over and again.winner is not None


def test_hexbo_5_6p_game_undo_and_record():
    _game_undone_and_replayed("hexbo-5-6p", 5)


def test_hexbo_5_3p_game_undo_and_record():
    _game_undone_and_replayed("hexbo-5-3p", 6)


def test_whole_hexbo_6p_game_with_history():
    _game_undone_and_replayed("hexbo-6p", 7, False)


def test_whole_hexbo_game_with_history():
    _game_undone_and_replayed("hexbo", 8, False)


def test_the_builder_leaves_the_heap_once_the_variant_is_built():
    # tanbo.hexbo_make's code is needed only while a variant is built: a
    # game's heap on a board should not hold it (docs/board-costs.md)
    import sys
    v = tanbo.get_variant("hexbo-7-3p")
    assert v.size == 127 and len(v.setup) == 12
    assert "tanbo.hexbo_make" not in sys.modules and "hexbo_make" not in tanbo.__dict__
    g = Game("hexbo-7-6p")  # built again after the drop: the same shared tables
    assert g.variant.steps is v.steps and "tanbo.hexbo_make" not in sys.modules
