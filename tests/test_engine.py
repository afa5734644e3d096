"""Rules, setups, notation, position text, records and undo of core/tanbo."""

import pytest

import tanbo
from tanbo import Game, IllegalMove, get_variant

# -- setups (RULES.md "Setups") ---------------------------------------------------


def stones_by_name(variant):
    v = get_variant(variant)
    g = Game(v)
    return {v.format_point(p): g.board[p] for p in range(v.size) if g.board[p]}


def test_standard_setup_is_figure_a():
    assert stones_by_name("19x19") == {
        "A19": 1, "N19": 1, "G13": 1, "T13": 1, "A7": 1, "N7": 1, "G1": 1, "T1": 1,
        "G19": 2, "T19": 2, "A13": 2, "N13": 2, "G7": 2, "T7": 2, "A1": 2, "N1": 2,
    }


def test_beginner_setup_is_figure_o():
    assert stones_by_name("9x9") == {"H8": 1, "B2": 1, "B8": 2, "H2": 2}


def test_13x13_grid_step_4_checkerboard():
    s = stones_by_name("13x13")
    assert len(s) == 16
    assert s["A13"] == 1 and s["E13"] == 2 and s["A9"] == 2 and s["E9"] == 1 and s["N1"] == 1


@pytest.mark.parametrize("n", [7, 11, 15, 19])
def test_dense_setup_every_even_point(n):
    v = get_variant("dense-%d" % n)
    g = Game(v)
    for p in range(v.size):
        x, y, _ = v.coords(p)
        if x % 2 == 0 and y % 2 == 0:
            assert g.board[p] == (1 if x % 4 == y % 4 else 2)
        else:
            assert g.board[p] == 0


def test_four_player_setup_and_colours():
    v = get_variant("4p")
    g = Game(v)
    assert v.players == 4
    expected = {"A19": 1, "G19": 2, "A13": 3, "G13": 4, "N19": 1, "T19": 2, "A7": 1, "T1": 4}
    for name, player in expected.items():
        assert g.board[v.parse_point(name)] == player
    assert sorted(g.stones(k) for k in (1, 2, 3, 4)) == [4, 4, 4, 4]


def test_1d_setup_matches_the_1995_line():
    # "# . . . . . O . . . . . # . . . . . O . . . . . # . . . . . O"
    line = "#.....O.....#.....O.....#.....O"
    g = Game("1d")
    assert g.position() == line.replace("#", "X") + " X"


def test_3d_setup_corners_alternate():
    v = get_variant("3d")
    g = Game(v)
    corners = [p for p in range(v.size) if g.board[p]]
    assert len(corners) == 8
    for p in corners:
        x, y, z = v.coords(p)
        assert {x, y, z} <= {0, 4}
        # edge-adjacent corners differ in colour
        for q in corners:
            qx, qy, qz = v.coords(q)
            if abs(x - qx) + abs(y - qy) + abs(z - qz) == 4:
                assert g.board[p] != g.board[q]


def test_3d_centre_has_six_neighbours():
    v = get_variant("3d")
    assert len(v.neighbours[v.parse_point("333")]) == 6
    assert len(v.neighbours[v.parse_point("111")]) == 3


def test_unknown_variant_is_named():
    with pytest.raises(ValueError, match="'10x10': unknown variant"):
        Game("10x10")


# -- notation ---------------------------------------------------------------------


@pytest.mark.parametrize("variant,text,index", [
    ("19x19", "A19", 0), ("19x19", "T1", 360), ("19x19", "j10", 9 * 19 + 8),
    ("9x9", "H8", 16), ("1d", "31", 30), ("1d", "1", 0),
    ("3d", "151", 0), ("3d", "333", 2 * 25 + 2 * 5 + 2), ("3d", "515", 4 * 25 + 4 * 5 + 4),
])
def test_parse_and_format_points(variant, text, index):
    v = get_variant(variant)
    assert v.parse_point(text) == index
    assert v.format_point(index) == text.upper()


def test_every_point_round_trips_in_every_variant():
    for name in tanbo.VARIANTS:
        v = get_variant(name)
        for p in range(v.size):
            assert v.parse_point(v.format_point(p).lower()) == p


@pytest.mark.parametrize("variant,text,message", [
    ("9x9", "J10", "'J10': not on the 9x9 board"),
    ("9x9", "I5", "'I5': there is no column I"),
    ("9x9", "K1", "'K1': not on the 9x9 board"),
    ("9x9", "D", "'D': malformed point"),
    ("9x9", "4D", "'4D': malformed point"),
    ("9x9", "", "'': malformed point"),
    ("1d", "0", "'0': not on the 1d board"),
    ("1d", "A1", "'A1': malformed point"),
    ("3d", "336", "'336': not on the 3d board"),
    ("3d", "33", "'33': malformed point"),
    # ASCII digits only, and no number too long for int() leaks its message
    ("1d", "\u00b2", "malformed point (1D points"),
    ("9x9", "D\u0661\u0669", "malformed point"),
    ("3d", "3\u00b23", "malformed point"),
    ("1d", "1" * 5000, "not on the 1d board"),
    ("9x9", "D" + "9" * 5000, "not on the 9x9 board"),
])
def test_bad_points_are_named(variant, text, message):
    assert get_variant("9x9").parse_point("d04") == get_variant("9x9").parse_point("D4")
    with pytest.raises(ValueError) as e:
        get_variant(variant).parse_point(text)
    assert message in str(e.value)


# -- moves and the removal rule -----------------------------------------------------


def pos(*rows, side="X"):
    """A 9x9 position from rows written top (row 9) to bottom (row 1)."""
    assert len(rows) == 9
    return Game.from_position("/".join(rows) + " " + side)


def names(g, points):
    return [g.name(p) for p in points]


def test_legal_moves_touch_exactly_one_own_stone():
    g = Game("9x9")
    assert names(g, g.legal_moves()) == ["H9", "G8", "J8", "H7", "B3", "A2", "C2", "B1"]
    g.play_move("H7")
    assert names(g, g.legal_moves()) == ["B9", "A8", "C8", "B7", "H3", "G2", "J2", "H1"]


def test_illegal_moves_name_the_reason_and_change_nothing():
    # Black H8-H7-G7: G8 touches H8 and G7.
    g = pos(".........", ".O.....X.", "......XX.", ".........", ".........",
            ".........", ".........", ".X.....O.", ".........")
    before = g.state_key()
    cases = [("H8", "H8 is occupied"), ("E5", "E5 does not connect to any Black stone"),
             ("G8", "G8 connects to 2 Black stones")]
    for point, message in cases:
        with pytest.raises(IllegalMove, match=message):
            g.play_move(point)
        assert g.state_key() == before
    for bad in ("J10", "pass", "", "I3"):
        with pytest.raises(ValueError):
            g.play_move(bad)
        assert g.state_key() == before
    for bad in (-1, 81, "D4", None, 2.0, True):
        with pytest.raises(ValueError):
            g.play(bad)
        assert g.state_key() == before


def test_illegal_reason_gives_a_code_and_why_illegals_text():
    g = pos(".........", ".O.....X.", "......XX.", ".........", ".........",
            ".........", ".........", ".X.....O.", ".........")
    before = g.state_key()
    for point, code in (("H8", tanbo.OCCUPIED), ("E5", tanbo.NOT_CONNECTED), ("G8", tanbo.TOUCHES_SEVERAL)):
        p = g.point(point)
        assert g.illegal_reason(p) == (code, g.why_illegal(p))
    assert g.illegal_reason(g.point("G6")) is None and g.why_illegal(g.point("G6")) is None
    assert (g.touching(g.point("G8")), g.touching(g.point("E5")), g.touching(g.point("G6"))) == (2, 0, 1)
    assert g.touching(g.point("A9"), 2) == 0 and g.touching(g.point("A8"), 2) == 1 and g.touching(g.point("B9"), 2) == 1
    assert g.growing_root(g.point("G6")) == g.root_at(g.point("H8"))
    assert g.growing_root(g.point("G8")) is None and g.growing_root(g.point("H8")) is None
    for bad in (-1, 81, "D4", None):
        for ask in (g.illegal_reason, g.touching, g.growing_root):
            with pytest.raises(ValueError):
                ask(bad)
    with pytest.raises(ValueError, match="no such player"):
        g.touching(0, 3)
    assert g.state_key() == before
    assert tanbo.game.GAME_OVER == tanbo.GAME_OVER == 4
    g.resign()
    assert g.illegal_reason(g.point("E5")) == (tanbo.GAME_OVER, "the game is over (White won)")
    assert g.growing_root(g.point("B9")) is None


def test_bounding_an_opposing_root_removes_it():
    # White A9 has one point of root space, A8; Black B9-B8 can take it.
    g = pos("OX.......", ".X.......", ".........", ".........", ".........",
            ".........", ".........", ".........", "........O")
    assert names(g, g.root_space(g.point("A9"))) == ["A8"]
    before = g.state_key()
    removed = g.play_move("A8")
    assert names(g, removed) == ["A9"]
    assert g.board[g.point("A9")] == 0 and g.board[g.point("A8")] == 1
    assert g.to_move == 2 and g.winner is None
    assert g.stones(2) == 1 and len(g.roots(2)) == 1
    # A9 now touches two black stones (A8, B9): no one's root space
    assert not g.is_legal(g.point("A9"), 1) and not g.is_legal(g.point("A9"), 2)
    g.undo()
    assert g.state_key() == before


def test_removing_the_last_root_wins():
    g = pos("OX.......", ".X.......", ".........", ".........", ".........",
            ".........", ".........", ".........", ".........")
    g.play_move("A8")
    assert g.winner == 1 and g.over
    assert g.legal_moves() == [] and g.legal_count() == 0
    with pytest.raises(IllegalMove, match="the game is over"):
        g.play_move("C9")
    g.undo()
    assert g.winner is None and g.to_move == 1


def test_current_root_bounded_goes_alone():
    # Black A1 has root space A2 only (B1 and B2-A3 are White). Black A2
    # bounds its own current root: it alone is removed.
    g = pos("........X", ".........", ".........", ".........", ".........",
            ".........", "O........", ".O.......", "XO.......")
    before = g.state_key()
    removed = g.play_move("A2")
    assert sorted(names(g, removed)) == ["A1", "A2"]
    assert g.stones(1) == 1 and g.to_move == 2 and g.winner is None
    # White's roots kept their stones and regained A1/A2 as space
    assert g.board[g.point("B1")] == 2
    assert g.point("A1") in g.legal_moves()
    g.undo()
    assert g.state_key() == before


def test_a_move_can_bound_another_root_of_the_mover():
    # Black A3 joins A4; then A2 touches A1 and A3, so Black A1 (whose only
    # space was A2) is bounded while the current root is not: A1 goes.
    g = pos("........O", ".........", ".........", ".........", ".........",
            "X........", ".........", ".........", "XO.......")
    assert names(g, g.root_space(g.point("A1"))) == ["A2"]
    removed = g.play_move("A3")
    assert names(g, removed) == ["A1"]
    assert sorted(names(g, g.root_stones(g.root_at(g.point("A4"))))) == ["A3", "A4"]


def test_root_space_of_an_empty_point_is_an_error():
    g = Game("9x9")
    with pytest.raises(ValueError, match="E5 is empty"):
        g.root_space(g.point("E5"))


def test_undo_with_nothing_to_undo():
    g = Game("13x13")
    with pytest.raises(ValueError, match="nothing to undo"):
        g.undo()


# -- players, turns, resignation --------------------------------------------------------


def test_four_players_move_in_order_and_resigned_players_are_skipped():
    g = Game("4p")
    seen = []
    for _ in range(4):
        seen.append(g.to_move)
        g.play(g.legal_moves()[0])
    assert seen == [1, 2, 3, 4] and g.to_move == 1
    g.play(g.legal_moves()[0])
    assert g.to_move == 2
    before = g.state_key()
    removed = g.resign(3)  # player 3 leaves while player 2 is to move
    assert len(removed) == 5 and g.stones(3) == 0 and g.roots(3) == []
    assert g.to_move == 2
    g.play(g.legal_moves()[0])
    assert g.to_move == 4  # 3 is out
    g.undo()
    g.undo()
    assert g.state_key() == before
    with pytest.raises(ValueError, match="no such player"):
        g.resign(5)


def test_resigning_until_one_player_is_left():
    g = Game("4p")
    g.resign()  # player 1, to move
    assert g.to_move == 2
    g.resign(4)
    g.resign(2)
    assert g.winner == 3 and g.over
    with pytest.raises(IllegalMove):
        g.resign(3)


def test_two_player_resignation_ends_the_game():
    g = Game("9x9")
    g.play_move("H7")
    g.resign()
    assert g.winner == 1
    assert g.moves() == [g.point("H7"), -2]


def test_last_move_follows_play_resign_and_undo():
    g = Game("9x9")
    assert g.last_move() is None
    g.play_move("H7")
    assert g.last_move() == g.point("H7") == g.moves()[-1]
    g.resign()
    assert g.last_move() == -2
    g.undo()
    assert g.last_move() == g.point("H7")
    g.undo()
    assert g.last_move() is None and g.moves() == []


# -- position text -----------------------------------------------------------------------


@pytest.mark.parametrize("name", tanbo.VARIANTS)
def test_position_round_trips(name):
    g = Game(name)
    text = g.position()
    again = Game.from_position(text, name)
    assert again.position() == text
    assert again.legal_moves() == g.legal_moves()


def test_variant_is_inferred_from_the_shape():
    for name in ("19x19", "13x13", "9x9", "dense-7", "dense-11", "dense-15", "4p", "1d", "3d"):
        assert Game.from_position(Game(name).position()).variant.name == name
    # dense-19 and 19x19 share a shape: the name says which
    text = Game("dense-19").position()
    assert Game.from_position(text).variant.name == "19x19"
    assert Game.from_position(text, "dense-19").variant.name == "dense-19"


def test_seed_diagram_characters_parse():
    # Figure O as printed in the 1995 rules, spaces, '#' and ',' included.
    fig_o = (". . . . . . . . . / . O . . . . . # . / . . , . , . , . . / "
             ". . . . . . . . . / . . , . , . , . . / . . . . . . . . . / "
             ". . , . , . , . . / . # . . . . . O . / . . . . . . . . . #")
    assert Game.from_position(fig_o).position() == Game("9x9").position()


def test_3d_position_layers():
    text = Game("3d").position()
    assert text.count("|") == 4
    layer1 = text.split("|")[0]
    assert layer1 == "X...O/...../...../...../O...X"


@pytest.mark.parametrize("text,message", [
    ("........./.O.....X./........./........./........./........./........./.X.....O./........", "expected the board, a space, then the side to move"),
    ("./. XO", "missing the side to move"),
    ("........./.O.....X./......../........./........./........./........./.X.....O./......... X",
     "position row 7: expected 9 points, got 8"),
    ("........./.O..Q..X./........./........./........./........./........./.X.....O./......... X",
     "position row 8, column E: unknown character 'Q'"),
    ("........./.O..Y..X./........./........./........./........./........./.X.....O./......... X",
     "row 8, column E: 'Y' is a Red stone, but 9x9 has 2 players"),
    ("........./.O.....X./........./........./........./........./........./.X.....O./......... Q",
     "side to move 'Q'"),
    ("......... X", "a single row of 9 points"),
    ("../.. X", "2 rows; no variant"),
    ("", "expected the board"),
])
def test_malformed_positions_are_named(text, message):
    with pytest.raises(ValueError) as e:
        Game.from_position(text)
    assert message in str(e.value)


def test_clumps_and_loops_are_rejected_with_their_place():
    clump = ("........./.O.....X./........./...XX..../...XX..../........./........./.X.....O./......... X")
    with pytest.raises(ValueError, match=r"Black root at D6 \(row 6, column D\) has a loop or clump"):
        Game.from_position(clump)
    loop = ("........./.O.....X./..OOO..../..O.O..../..OOO..../........./........./.X.....O./......... X")
    with pytest.raises(ValueError, match=r"White root at .* loop or clump"):
        Game.from_position(loop)


def test_a_bounded_root_is_rejected():
    # White A9 hemmed in by Black B9 and A8: no root space.
    text = "OX......./X......../........./........./........./........./........./........./........O X"
    with pytest.raises(ValueError, match=r"the White root at A9 \(row 9, column A\) is bounded"):
        Game.from_position(text)


def test_side_to_move_without_stones_is_rejected_unless_the_game_is_over():
    with pytest.raises(ValueError, match="Red is to move but has no stones"):
        Game.from_position(Game("4p").position().replace("Y", ".")[:-1] + "Y")
    over = Game.from_position("........./.X......./........./........./........./........./........./........./......... O")
    assert over.winner == 1


# -- records --------------------------------------------------------------------------------


def random_game(name, seed, plies=60):
    g = Game(name)
    rng = tanbo.Rng(seed)
    while not g.over and g.ply < plies:
        g.play(g.legal_move_at(rng.below(g.legal_count())))
    return g


@pytest.mark.parametrize("name", tanbo.VARIANTS)
def test_records_replay_every_position(name):
    g = random_game(name, 7)
    if not g.over and name == "4p":
        g.resign(2)
    text = g.record(event="test")
    assert "Variant: " + name in text and "Mark Steere" in text
    again = Game.from_record(text)
    assert again.state_key() == g.state_key()
    assert again.moves() == g.moves()
    assert again.headers["event"] == "test"


def test_record_from_a_custom_position_keeps_it():
    start = "OX......./.X......./........./........./........./........./........./........./........O X"
    g = Game.from_position(start)
    g.play_move("A8")
    text = g.record()
    assert "Position: " + start in text
    assert Game.from_record(text).state_key() == g.state_key()


@pytest.mark.parametrize("text,message", [
    ("Moves:\n1. H7", "no 'Variant:' line"),
    ("Variant: 10x10\nMoves:", "record line 1: '10x10': unknown variant"),
    ("Variant: 9x9\nMoves:\n1. H7 B7\n2. E5", "record line 4: move 3 (E5): E5 does not connect"),
    ("Variant: 9x9\nMoves:\n1. H7 Z99", "record line 3: move 2 (Z99)"),
    ("Variant: 9x9\nResult: W\nMoves:\n1. H7 B7", "record line 2: result W, but the moves give *"),
    ("Variant: 9x9\nResult: White\nMoves:\n1. H7 B7", "record line 2: result WHITE, but the moves give *"),
    ("Variant: 9x9\nResult: Purple\nMoves:", "record line 2: unknown result 'PURPLE' (a player's name, B, W,"),
    ("Variant: 9x9\nMoves:\n1. H7 resign:Red", "record line 3: move 2 (resign:Red): 'Red': unknown player"),
    ("Variant: 9x9\nthis is not a header\nMoves:", "record line 2: expected 'Key: value'"),
    ("Variant: 9x9\nVariant: 9x9\nMoves:", "record line 2: header 'variant' given twice"),
    ("Variant: 9x9\nPosition: ... X\nMoves:", "record line 2: position"),
    ("Variant: 4p\nPlayers: B W\nMoves:", "record line 2: players 'B W' do not match 4p (Black White Red Blue)"),
    ("Variant: 9x9\nPlayers: White Black\nMoves:", "record line 2: players 'White Black' do not match 9x9"),
])
def test_corrupt_records_name_the_line(text, message):
    with pytest.raises(ValueError) as e:
        Game.from_record(text)
    assert message in str(e.value)


# -- copies and state --------------------------------------------------------------------------


def test_copy_is_independent():
    g = random_game("13x13", 3, plies=40)
    c = g.copy()
    assert c.state_key() == g.state_key() and c.moves() == g.moves()
    c.play(c.legal_moves()[0])
    assert c.state_key() != g.state_key()
    c.undo()
    assert c.state_key() == g.state_key()


def test_load_state_copies_the_position_in_place():
    g = random_game("19x19", 5, plies=80)
    scratch = Game("19x19")
    board_id = id(scratch.board)
    scratch.load_state(g)
    assert id(scratch.board) == board_id
    assert scratch.position() == g.position() and scratch.legal_moves() == g.legal_moves()
    assert scratch.moves() == []


def test_package_docstring_example_runs():
    import doctest
    result = doctest.testmod(tanbo)
    assert result.attempted >= 3 and result.failed == 0


# -- hostile input at the API's edges (issue 15.9) --------------------------------------


@pytest.mark.parametrize("to_move", [-1, 0, 3, 5, 1.0, True, "X", None])
def test_a_bad_side_to_move_is_a_value_error(to_move):
    with pytest.raises(ValueError, match="to_move %r: no such player in 9x9" % (to_move,)):
        Game("9x9", None, to_move)
    with pytest.raises(ValueError, match="no such player"):
        Game("4p", bytearray(361), 9)


@pytest.mark.parametrize("player", [1.0, 0, 3, -1, True, "B"])
def test_resigning_a_bad_player_is_a_value_error_and_changes_nothing(player):
    g = Game("9x9")
    g.play_move("H7")
    before = g.state_key()
    with pytest.raises(ValueError, match="no such player in 9x9"):
        g.resign(player)
    assert g.state_key() == before and g.moves() == [g.point("H7")]


@pytest.mark.parametrize("ends", ["\r\n", "\r"])
def test_records_with_a_bom_or_other_line_ends_are_read(ends):
    g = random_game("9x9", 3, 20)
    text = g.record()
    again = Game.from_record("\ufeff" + text.replace("\n", ends))
    assert again.state_key() == g.state_key() and again.moves() == g.moves()
    # the line numbers of errors count those line ends too
    with pytest.raises(ValueError, match="record line 4: move 3 "):
        Game.from_record(ends.join(["\ufeffVariant: 9x9", "Moves:", "1. H7 B7", "2. E5"]))


@pytest.mark.parametrize("shape", [(19, 19, 1), (9, 9, 1), (31, 1, 1), (5, 5, 5), (2, 3, 1), (1, 4, 2), (3, 1, 1)])
def test_steps_tables_hold_each_points_neighbours_in_order_as_shared_tuples(shape):
    from tanbo.variant_make import _steps
    w, h, d = shape
    steps = _steps(w, h, d)
    plane = w * h
    for p in range(plane * d):
        z, rest = divmod(p, plane)
        y, x = divmod(rest, w)
        want = [q - p for ok, q in ((y > 0, p - w), (x > 0, p - 1), (x < w - 1, p + 1),
                                    (y < h - 1, p + w), (z > 0, p - plane), (z < d - 1, p + plane)) if ok]
        assert steps[p] == tuple(want), (shape, p)
    assert len({id(t) for t in steps}) == len(set(steps)) <= 27  # one tuple a kind of point


def test_move_at_reads_each_ply_of_moves_without_the_list():
    # app.save writes a record ply by ply from move_at: the same plies as
    # moves(), resignations included, and an IndexError past the last.
    g = Game("4p")
    for _ in range(9):
        g.play(g.legal_moves()[g.ply % g.legal_count()])
    g.resign()
    assert [g.move_at(i) for i in range(g.ply)] == g.moves() and g.moves()[-1] < 0
    for bad in (g.ply, -1):
        with pytest.raises(IndexError, match="ply %d: 10 plies played" % bad):
            g.move_at(bad)


def test_undo_takes_back_removals_and_resignations_ply_by_ply():
    # (a removal's block on the undo stack ends with its ply: a ply that removed none leaves none)
    from tanbo import Rng
    g = Game("4p")
    rng = Rng(1)
    keys = [g.state_key()]
    while g.winner is None:
        if g.ply % 97 == 96:
            g.resign()
        else:
            g.play(g.legal_move_at(rng.below(g.legal_count())))
        keys.append(g.state_key())
    assert g._nrem < 4 * g.ply  # (blocks for removals only)
    while keys:
        assert g.state_key() == keys.pop()
        if keys:
            g.undo()


def test_what_sets_a_game_up_folds_the_games_own_marks():
    # tanbo.game_make keeps its own copies of tanbo.game's NIL and NO_ROOT (it does not
    # import the module that loads it): they must be the same values.
    from tanbo import game, game_make
    assert (game_make._NIL, game_make._NO_ROOT) == (game.NIL, game.NO_ROOT)
