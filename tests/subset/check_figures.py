"""Seed figures E and G-N of the 1995 rules, checked in the MicroPython subset.

Run by tests/subset/run.py on CPython, the MicroPython unix port and the
CircuitPython VM. The positions are copies of tests/data/figures/*.txt
(``position:`` lines; tests/test_figures.py checks they stay equal), kept
as literals so no interpreter needs file access. The full figure tests,
with their reasons, are in tests/test_figures.py.
"""

from tanbo import Game, IllegalMove

FIGURES = {
    "E": "X.....O.....XX.OOOO/X.....O......XX.O../X.....O......X...../X.....O..XXXXX...../OOOOO.O......X...../O.O..X.......X...../OO..XXXXXX..O.XXXXX/O.....X.....O.X.X../O...........OO..X../OOO..........O...../OXX..........O...../.X.OOOOO.....O..O../XXOO..O.....XO.OOOO/OOO...O.....X....../..OOOO...XXXX....../......X............/XXXX..X............/.O.X..X............/OOXXXXXXX.OOO...XXX O",
    "G": ".O.OOX..X/OOOOXXXXX/O.O.X.X../.OOOX..X./OO.OXXXXX/XXOOOOOOO/.X.XOX.../XXXXXXOOO/.X..XOO.. O",
    "H": ".O.OOX..X/OOOOXXXXX/O.O.X.X../.OOOX..X./OO.OXXXXX/XXOOOOOOO/.X.XOX.../XXXXXX.../.X..X.... X",
    "I": "OOXX.XX../.OOX..XXX/O.OXXX.X./OOOOOXXXX/XXX..OOOO/..X.OOXO./X.XXXXXO./XXX.OOOOO/XOOOO.O.O O",
    "J": "..XX.XX../...X..XXX/...XXX.X./.....XXXX/XXX..OOOO/..X.OOXO./X.XXXXXO./XXX.OOOOO/XOOOO.O.O X",
    "K": "OOXX..X../.OOX..XXX/..OXXX.X./OOOOOXXXX/XXX..OOOO/..X.OOXO./X.XXXXXO./XXX.OOOOO/XOOOO.O.O O",
    "L": "OOXX..X../.OOX..XXX/..OXXX.X./OOOOOXXXX/...O...../........./........./........./......... X",
    "M": "OOXX.XX../.OOX..XXX/O.OXXX.X./OOOOOXXXX/O..O..X../OO.OOOXXX/O...OXX.X/O...O.X.X/O...OXXX. X",
    "N": "OO......./.OO....../O.O....../OOOOO..../O..O...../OO.OOO.../O...O..../O...O..../O...O.... O",
}

# Figure -> (marked move, figure it gives), from the data files' move: lines.
MOVES = {"G": ("J1", "H"), "I": ("D5", "J"), "K": ("D5", "L"), "M": ("J9", "N")}

# Figure E, as the text lists them (White to move).
E_LEGAL = ["T18", "P19", "R9", "M12"]
E_NO_CONNECTION = ["N4", "J12", "K8", "K2"]
E_TWO_OR_MORE = ["F15", "G5", "B14", "B12"]


def _names(g, pts):
    out = [g.variant.format_point(p) for p in pts]
    out.sort()
    return out


def _rejects(g, name):
    before = g.position()
    try:
        g.play_move(name)
    except IllegalMove as e:
        assert g.position() == before
        return str(e)
    raise AssertionError("%s was accepted" % name)


def test_figure_e_moves():
    g = Game.from_position(FIGURES["E"])
    for name in E_LEGAL:
        assert g.is_legal(g.variant.parse_point(name)), name
    for name in E_NO_CONNECTION + E_TWO_OR_MORE:
        assert not g.is_legal(g.variant.parse_point(name)), name
        assert name in _rejects(g, name).upper(), name


def test_figure_e_d9_removes_the_small_black_root():
    g = Game.from_position(FIGURES["E"])
    assert _names(g, g.root_space(g.variant.parse_point("B9"))) == ["D9"]
    assert _names(g, g.play_move("D9")) == ["A7", "B7", "B8", "B9", "C9"]


def test_figure_e_c2_removes_only_the_small_white_root():
    g = Game.from_position(FIGURES["E"])
    assert _names(g, g.root_space(g.variant.parse_point("B2"))) == ["C2"]
    assert _names(g, g.play_move("C2")) == ["A1", "B1", "B2", "C2"]
    assert len(g.roots(1)) == 8 and len(g.roots(2)) == 7


def test_marked_moves_give_the_printed_figures():
    for name in ("G", "I", "K", "M"):
        move, result = MOVES[name]
        g = Game.from_position(FIGURES[name])
        g.play_move(move)
        assert g.position() == FIGURES[result], name
        g.undo()
        assert g.position() == FIGURES[name], name


def test_figure_m_j9_is_the_only_move_and_white_wins():
    g = Game.from_position(FIGURES["M"])
    assert _names(g, g.legal_moves()) == ["J9"]
    g.play_move("J9")
    assert g.winner == 2 and g.stones(1) == 0
