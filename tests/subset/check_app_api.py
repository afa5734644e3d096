"""What the device app asks of a game beyond play and undo: a root's stones
walked with no list made (Game.root_chain), a game set back to its setup
in its own tables (Game.restart) and room made ahead in its stacks
(Game.make_room). A ply an exception broke off: check_replay.py.

Engine checks in the MicroPython subset (tests/subset/run.py runs them on
CPython and the MicroPython unix port). Plain asserts, no pytest.
"""

import gc

from tanbo import Game
from tanbo.game import NIL
from tanbo.rng import Rng


def _play(g, seed, plies):
    """``plies`` seeded random plies on ``g`` (fewer if the game ends)."""
    rng = Rng(seed)
    for _ in range(plies):
        if g.winner is not None:
            return
        g.play(g.legal_move_at(rng.below(g.legal_count())))


def _chain(g, r):
    p, nxt = g.root_chain(r)
    out = []
    while p != NIL:
        out.append(p)
        p = nxt[p]
    return out


def test_root_chain_walks_each_live_root_once():
    for variant, seed in (("9x9", 3), ("hexbo-5-3p", 5)):
        g = Game(variant)
        rng = Rng(seed)
        while g.winner is None and (all(g.alive) or g.ply < 30):  # past a removal
            g.play(g.legal_move_at(rng.below(g.legal_count())))
        removed = 0
        for r in range(len(g.alive)):
            if not g.alive[r]:
                removed += 1
                continue
            stones = _chain(g, r)
            assert sorted(stones) == g.root_stones(r), (variant, r)
            for p in stones:
                assert g.root_at(p) == r
        assert removed, variant
        g.undo()
        g.undo()
        for r in range(len(g.alive)):
            if g.alive[r]:
                assert sorted(_chain(g, r)) == g.root_stones(r)
        # a fast copy's chain is the same walk
        f = g.copy(fast=True)
        for r in range(len(f.alive)):
            if f.alive[r]:
                assert _chain(f, r) == _chain(g, r)


def _tables(g):
    return [g.board, g.root_of, g.nxt, g._moves, g._rem] + g.touch_count[1:] + g.legal_index[1:]


def test_restart_is_the_setup_again_in_the_same_tables():
    for variant, seed, plies in (("9x9", 1, 2000), ("hexbo-5-6p", 2, 2000), ("4p", 4, 160)):
        g = Game(variant)
        tables = _tables(g)
        _play(g, seed, plies)  # 9x9 and hexbo-5-6p to the end: removals, the stacks grown
        assert g.winner is not None or g.ply == plies
        room = len(g._moves), len(g._rem)
        assert g.restart() is g
        again = _tables(g)
        for i in range(len(tables)):
            assert again[i] is tables[i], (variant, i)
        assert (len(g._moves), len(g._rem)) == room  # the stacks keep their room
        gc.collect()  # (a 4p game and another in the unix port's 136 KB)
        fresh = Game(variant)
        assert g.state_key() == fresh.state_key(), variant
        assert g.moves() == [] and g.start is None and g.last_move() is None
        for name in ("touch_count", "space_root", "legal_points"):
            for k in g.pids:
                assert list(getattr(g, name)[k]) == list(getattr(fresh, name)[k]), (variant, name, k)
        # the same seeded game from there, undo included
        a, b = Rng(seed + 10), Rng(seed + 10)
        for _ in range(50):
            if g.winner is not None:
                break
            assert g.play(g.legal_move_at(a.below(g.legal_count()))) == \
                fresh.play(fresh.legal_move_at(b.below(fresh.legal_count())))
        for _ in range(20):
            g.undo()
            fresh.undo()
            assert g.state_key() == fresh.state_key()
        fresh = None


def test_restart_of_a_game_under_way_and_of_a_position():
    g = Game("9x9")
    _play(g, 7, 12)
    g.restart()
    assert g.state_key() == Game("9x9").state_key()
    p = Game.from_position("........./.O.....X./.......X./........./........./........./........./.X.....O./......... O")
    assert p.start is not None
    p.restart()  # the variant's setup, not the position it began from
    assert p.start is None and p.position() == Game("9x9").position()


def test_make_room_grows_the_stacks_before_the_plies_not_during_them():
    g = Game("19x19")
    g.make_room(90, 300)
    cells = len(g._moves), len(g._rem)
    _play(g, 2, 90)
    assert g.ply == 90 and (len(g._moves), len(g._rem)) == cells
    g.make_room(10, 0)  # room enough already: nothing grows
    assert (len(g._moves), len(g._rem)) == cells
    while g.ply:
        g.undo()
    assert g.state_key() == Game("19x19").state_key()

