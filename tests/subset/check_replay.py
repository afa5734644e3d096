"""A ply an exception broke off midway (a MemoryError of a board's full heap, where a
removal's records grow) and the game mended: Game.broken, Game.replay, which the
device app calls on its way back to the title and a search on its game calls
before it gives the game back (app.low_memory, app.shared_search).

Engine checks in the MicroPython subset (tests/subset/run.py runs them on
CPython and the MicroPython unix port). Plain asserts, no pytest.
"""

import gc

from check_app_api import _play
from tanbo import Game
from tanbo.rng import Rng


def _boom(*args):
    raise MemoryError("memory allocation failed, allocating 512 bytes")


def _break(g, move, where):
    """Play ``move`` with the game's ``where`` (a step of a removal) raising as a full
    heap's stack step would, inside the ply; True if the ply reached it."""
    setattr(g, where, _boom)
    try:
        g.play(move)
        return False
    except MemoryError:
        return True
    finally:
        delattr(g, where)


def test_a_ply_broken_off_is_mended_by_a_replay():
    for variant, seed, where in (("9x9", 5, "_remove_root"), ("4p", 6, "_close_block"),
                                 ("hexbo-5-3p", 7, "_check_winner")):
        g, twin = Game(variant), Game(variant)
        rng = Rng(seed)
        broke = 0
        while g.winner is None and broke < 2:
            move = g.legal_move_at(rng.below(g.legal_count()))
            assert not g.broken()
            if _break(g, move, where):
                assert g.broken() and g.moves()[-1] == move  # its stone recorded, its tables half changed
                assert g.replay() is g  # the ply played whole
                broke += 1
            twin.play(move)
            assert not g.broken() and g.state_key() == twin.state_key(), (variant, g.ply)
        assert broke == 2, variant
        g.undo()
        twin.undo()
        assert g.state_key() == twin.state_key()
        gc.collect()


def test_a_replay_to_fewer_plies_and_one_broken_off_in_turn():
    g = Game("9x9")
    _play(g, 11, 40)
    moves = g.moves()
    first = Game("9x9")
    for m in moves[:25]:
        first.play(m)
    # a replay broken off keeps the game broken and its record whole, for a replay later
    g.place = _boom
    try:
        g.replay(25)
        assert False, "the replay did not raise"
    except MemoryError:
        pass
    del g.place
    assert g.broken() and g.moves() == moves[:25]
    g.replay()
    assert not g.broken() and g.state_key() == first.state_key()
    for bad in (-1, 26, "3"):
        try:
            g.replay(bad)
            assert False, bad
        except ValueError as e:
            assert "replay" in str(e)
    assert g.state_key() == first.state_key()
    p = Game.from_position("........./.O.....X./.......X./........./........./........./........./.X.....O./......... O")
    try:
        p.replay()
        assert False
    except ValueError as e:
        assert "position" in str(e)
