"""Rules, setups, notation and bad input.

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


def _black_stones(name):
    v = get_variant(name)
    g = Game(v)
    return sorted([v.format_point(p) for p in range(v.size) if g.board[p] == 1])


def test_setups():
    # The 19x19 game is built and dropped inside the helper, so the position
    # module loads into a heap without it (64 KB on a 64-bit build is tight).
    assert _black_stones("19x19") == sorted(["A19", "N19", "G13", "T13", "A7", "N7", "G1", "T1"])
    assert Game("9x9").position() == \
        "........./.O.....X./........./........./........./........./........./.X.....O./......... X"
    assert Game("1d").position() == "X.....O.....X.....O.....X.....O X"
    assert Game("3d").position().split("|")[0] == "X...O/...../...../...../O...X"


def test_four_player_setup():
    g = Game("4p")
    assert [g.stones(k) for k in (1, 2, 3, 4)] == [4, 4, 4, 4]
    assert g.board[g.point("A13")] == 3 and g.board[g.point("G13")] == 4


def test_notation():
    v = get_variant("9x9")
    assert v.parse_point("h8") == 16 and v.format_point(16) == "H8"
    assert "not on the 9x9 board" in raises(ValueError, v.parse_point, "J10")
    assert "no column I" in raises(ValueError, v.parse_point, "I4")
    assert get_variant("3d").parse_point("333") == 62
    assert get_variant("1d").format_point(30) == "31"


def test_illegal_moves_leave_state():
    g = Game("9x9")
    before = g.state_key()
    assert "occupied" in raises(IllegalMove, g.play_move, "H8")
    assert "does not connect" in raises(IllegalMove, g.play_move, "E5")
    assert g.state_key() == before


def test_removal_and_win():
    g = Game.from_position("OX......./.X......./........./........./........./"
                           "........./........./........./......... X")
    assert g.root_space(g.point("A9")) == [g.point("A8")]
    assert g.play_move("A8") == [g.point("A9")]
    assert g.winner == 1
    g.undo()
    assert g.winner is None and g.to_move == 1


def test_current_root_goes_alone():
    g = Game.from_position("........X/........./........./........./........./"
                           "........./O......../.O......./XO....... X")
    removed = g.play_move("A2")
    assert sorted(removed) == sorted([g.point("A1"), g.point("A2")])
    assert g.stones(1) == 1 and g.to_move == 2


def test_bad_positions():
    msg = raises(ValueError, Game.from_position,
                 "........./.O.....X./........./...XX..../...XX..../........./........./.X.....O./......... X")
    assert "loop or clump" in msg and "row 6" in msg
    assert "bounded" in raises(ValueError, Game.from_position,
                               "OX......./X......../........./........./........./"
                               "........./........./........./........O X")


def test_rng_is_the_same_everywhere():
    rng = tanbo.Rng(42)
    # Values fixed by the generator's definition (29-bit LCG, top 16 bits).
    seq = [rng.below(1000) for _ in range(5)]
    rng2 = tanbo.Rng(42)
    assert seq == [rng2.below(1000) for _ in range(5)]
    x = tanbo.Rng(0)
    for n in (1, 2, 7, 65536):
        for _ in range(250):
            assert 0 <= x.below(n) < n and 0 <= x.x < (1 << 29)


def test_random_playout_picks_as_below_does():
    # The playout inlines Rng.below's step: the same game, the same state after.
    for name in ("9x9", "4p"):
        base = Game(name)
        g = base.copy()
        a, b = tanbo.Rng(9), tanbo.Rng(9)
        g.random_playout(a, 40)
        while base.ply < 40 and not base.over:
            base.play(base.legal_move_at(b.below(base.legal_count())))
        assert g.position() == base.position() and a.x == b.x
        assert g.legal_moves() == base.legal_moves()


def test_fast_copy_plays_and_undoes_as_the_game_does():
    # A fast copy (list tables: the search's) must be the same game move for
    # move: the same legal lists in the same order, removals, undo, playouts.
    for name in ("9x9", "3d"):
        g = Game(name)
        f = g.copy(fast=True)
        assert f.fast and not g.fast and f.copy().fast
        assert isinstance(f.board, list) and isinstance(f.touch_count[1], list)
        assert isinstance(f.legal_points[2], list) and isinstance(f.nxt, list)
        rng = tanbo.Rng(5)
        seen = []  # (ply, position) every 15 plies
        while not g.over:
            if g.ply % 15 == 0:
                seen.append((g.ply, g.position()))
            p = g.legal_move_at(rng.below(g.legal_count()))
            removed = g.play(p)
            f.play_unchecked(p)
            assert f.legal_moves() == g.legal_moves() and f.to_move == g.to_move
            assert f.legal_move_at(0) == g.legal_move_at(0) and f.winner == g.winner
            if removed:
                assert f.position() == g.position() and list(f.root_count) == list(g.root_count)
        while f.ply:
            f.undo()
            g.undo()
            if seen[-1][0] == f.ply:
                assert f.position() == seen.pop()[1]
            assert f.legal_moves() == g.legal_moves()
        assert not seen and f.position() == g.position()
        # seeded playouts pick the same moves from either kind
        g.random_playout(tanbo.Rng(3))
        f.random_playout(tanbo.Rng(3))
        assert f.position() == g.position() and f.winner == g.winner
        g = f = None  # (a capped heap holds one variant's pair at a time)


def test_load_state_loads_a_fast_game_from_either_kind_and_a_compact_one_from_its_own():
    g = Game("9x9")
    f = g.copy(fast=True)
    scratch = f.copy()
    scratch.random_playout(tanbo.Rng(1), 30)
    scratch.load_state(f)
    assert scratch.position() == g.position() and scratch.legal_moves() == g.legal_moves()
    # a search's fast copy, loaded from the compact game on screen: the same
    # tables cell by cell (legal lists in the same order), so the same playout
    g.play(g.legal_moves()[3])
    scratch.random_playout(tanbo.Rng(1), 30)
    scratch.load_state(g)
    assert scratch.position() == g.position() and scratch.legal_moves() == g.legal_moves()
    assert scratch.fast and scratch._tables() == g.copy(fast=True)._tables()
    before = scratch.position()
    assert "a compact game cannot load a fast one" in raises(ValueError, g.copy().load_state, f)
    assert scratch.position() == before


def _lists_hold(g):
    """Each player's legal list is exactly the empty points one of their stones
    alone touches, and each member's index is its place's low byte."""
    for k in g.pids:
        lk, pk, n = g.legal_points[k], g.legal_index[k], g.legal_total[k]
        for i in range(n):
            p = lk[i]
            assert g.board[p] == 0 and g.touch_count[k][p] == 1, (k, p)
            assert pk[p] == i & 255, (k, p, i, pk[p])
        expected = 0
        for p in range(g.variant.size):
            if g.board[p] == 0 and g.touch_count[k][p] == 1:
                expected += 1
        assert n == expected, (k, n, expected)


def test_a_legal_list_past_256_points_plays_and_undoes():
    # 19x19 with Black's stones on every point with (row + 2 column) % 5 == 0:
    # every empty point touches at most one, so Black's list passes 256 and
    # the indexes, a byte each on a board's heap, keep only their low byte.
    from tanbo.rng import Rng
    v = get_variant("19x19")
    board = bytearray(v.size)
    for p in range(v.size):
        r, c = divmod(p, 19)
        if (r + 2 * c) % 5 == 0:
            board[p] = 1
    board[17 * 19 + 10] = 2  # (White grows into the far end of Black's list)
    g = Game("19x19", board, 1)
    assert g.legal_total[1] > 256
    _lists_hold(g)
    before = g.position()
    rng = Rng(5)
    for _ in range(60):
        if g.winner is not None:
            break
        n = g.legal_count()
        # the list's far end first, where places pass 255 (and so do the
        # places of the move's neighbours: the list began in point order)
        g.play(g.legal_move_at(n - 1 - rng.below(30) if n > 256 else rng.below(n)))
        _lists_hold(g)
    assert g.ply > 20
    after = Game.from_position(g.position())
    for k in g.pids:
        assert g.legal_moves(k) == after.legal_moves(k)
    after = None
    while g.ply:
        g.undo()
        _lists_hold(g)
    assert g.position() == before


def _removal_records_undo_to_the_start(variant, seed):
    """A seeded random game of ``variant`` past ply 256 and 256 cells of
    removal records, a resignation there, undone to its setup (checked every
    100 plies) and replayed."""
    from tanbo.rng import Rng
    g = Game(variant)
    rng = Rng(seed)
    marks = []
    resigned = False
    while g.winner is None:
        if g.ply % 100 == 0:
            marks.append((g.ply, g.state_key()))
        if not resigned and g.ply >= 270 and g._nrem > 256:
            assert g.resign()
            resigned = True
            continue
        g.play(g.legal_move_at(rng.below(g.legal_count())))
    assert resigned and g.ply > 270 and g._nrem > 256
    final = g.state_key()
    plies = g._moves[:g._nh]  # (an array: moves() would be a list of words)
    while marks:
        ply, key = marks.pop()
        while g.ply > ply:
            g.undo()
        assert g.state_key() == key, ply
    assert g.ply == 0 and g._nrem == 0
    # and its plies again: the same game (the legal lists' order may differ)
    for m in plies:
        if m < 0:
            g.resign(-m)
        else:
            g.play(m)
    assert g.state_key() == final
    return g


def test_removal_records_past_ply_and_cell_255_undo_to_the_start():
    # A block's ply and start take two cells each (high byte, low byte): a
    # byte a cell on a board of up to 256 points (3-player Hexbo, 217), two
    # bytes on 19x19.
    g = _removal_records_undo_to_the_start("hexbo-3p", 12)
    assert type(g._rem) is bytearray
    g = None
    g = _removal_records_undo_to_the_start("19x19", 3)
    assert type(g._rem) is not bytearray
