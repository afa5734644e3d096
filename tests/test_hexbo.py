"""Hexbo: the hexagonal boards of RULES.md ("Hexbo"), their setups, notation,
position text, and games of 3 and 6 players.

The rules themselves are the engine's, written once over the board graph;
here the graph, the start and the text are checked against RULES.md's own
formulas, written again independently."""

import pytest

import tanbo
from tanbo import Game, get_variant
from tanbo.hexbo_make import corners

# pbmserv's small board, two players, as RULES.md copies it from its page.
SMALL_BOARD = """\
       . . . . .
      . # . . O .
     . . . . . . .
    . . . . . . . .
   . O . . . . . # .
    . . . . . . . .
     . . . . . . .
      . # . . O .
       . . . . .
"""

HEXBO = ("hexbo-5", "hexbo", "hexbo-5-3p", "hexbo-3p", "hexbo-5-6p", "hexbo-6p")
LETTERS = "ABCDEFGHIJKLMNOPQRS"


def columns(n, r):
    """RULES.md: row r (0-based from the top) holds columns max(1, r-N+2) .. min(2N-1, N+r)."""
    return range(max(1, r - n + 2), min(2 * n - 1, n + r) + 1)


def cells(n):
    return [(r, c) for r in range(2 * n - 1) for c in columns(n, r)]


def test_the_small_boards_diagram_is_hexbo_5s_setup():
    text = "/".join(SMALL_BOARD.splitlines()) + " X"
    g = Game.from_position(text)
    assert g.variant.name == "hexbo-5"
    assert g.position() == Game("hexbo-5").position()
    assert g.start is None  # the variant's own setup
    # and RULES.md's table in notation: Black B2 E8 H5, White B5 E2 H8
    v = g.variant
    assert sorted((v.format_point(p), k) for p, k in v.setup) == sorted(
        [("B2", 1), ("E8", 1), ("H5", 1), ("B5", 2), ("E2", 2), ("H8", 2)])


@pytest.mark.parametrize("n", range(4, 11))
def test_rows_columns_and_neighbours_follow_rules_md(n):
    v = get_variant("hexbo-%d" % n)
    board = cells(n)
    assert v.size == len(board) == 3 * n * (n - 1) + 1
    assert v.hex_side == n and v.rows == 2 * n - 1
    where = {}
    for r, c in board:
        p = v.cell(r, c)
        assert v.row_col(p) == (r, c)
        assert v.format_point(p) == "%s%d" % (LETTERS[r], c)
        assert v.parse_point(("%s%d" % (LETTERS[r], c)).lower()) == p
        where[(r, c)] = p
    assert sorted(where.values()) == list(range(v.size))
    for r in range(v.rows):
        assert v.row_first_col[r] == columns(n, r)[0] and v.row_len[r] == len(columns(n, r))
        assert v.row_start[r] == where[(r, columns(n, r)[0])]
    for (r, c), p in where.items():
        want = {where[q] for q in ((r, c - 1), (r, c + 1), (r - 1, c - 1), (r - 1, c), (r + 1, c), (r + 1, c + 1))
                if q in where}
        assert set(v.neighbours[p]) == want and len(v.neighbours[p]) == len(want)
    assert v.cell(-1, 1) is None and v.cell(0, n + 1) is None and v.cell(v.rows, n) is None


def test_corner_of_the_middle_row():
    v = get_variant("hexbo-5")
    assert v.format_point(v.cell(4, 5)) == "E5"  # the centre
    assert [v.format_point(q) for q in v.neighbours[v.parse_point("E5")]] == ["D4", "D5", "E4", "E6", "F5", "F6"]
    assert sorted(v.format_point(q) for q in v.neighbours[v.parse_point("A1")]) == ["A2", "B1", "B2"]
    assert sorted(v.format_point(q) for q in v.neighbours[v.parse_point("I9")]) == ["H8", "H9", "I8"]


def owner(players, d):
    if players == 2:
        return 1 if d % 2 == 0 else 2
    return 1 + d % 3 if players == 3 else 1 + d


@pytest.mark.parametrize("name", HEXBO)
def test_setups_are_the_rings_of_rules_md(name):
    v = get_variant(name)
    n = v.hex_side
    assert n == (5 if name.startswith("hexbo-5") else 9)
    assert v.players == (6 if name.endswith("6p") else 3 if name.endswith("3p") else 2)
    # RULES.md's corners at distance k, counter-clockwise from the east
    m = n - 1
    want = []
    for i, k in enumerate((3, 6) if n == 9 else (3,)):
        ring = ((m, n + k), (m - k, n), (m - k, n - k), (m, n - k), (m + k, n), (m + k, n + k))
        assert corners(n, k) == ring
        for d in range(6):
            want.append((v.cell(*ring[d]), owner(v.players, (d + 3 * i) % 6)))
    assert v.setup == sorted(want)
    # every player has as many roots as every other: the start is fair
    counts = [sum(1 for _, k in v.setup if k == player) for player in range(1, v.players + 1)]
    assert len(set(counts)) == 1


def test_hexbo_9_is_hexbo_and_sides_share_their_tables():
    assert get_variant("hexbo-9") is not None and get_variant("hexbo-9").name == "hexbo"
    assert get_variant("HEXBO-9-6P").name == "hexbo-6p"
    a, b, c = get_variant("hexbo"), get_variant("hexbo-3p"), get_variant("hexbo-6p")
    assert a.steps is b.steps is c.steps and a.row_start is c.row_start
    # a row's inner cells share one tuple: at most three a row
    assert len({id(t) for t in a.steps}) <= 3 * a.rows
    for name in ("hexbo-3", "hexbo-11", "hexbo-5-4p", "hexbo-05", "hexbo-", "hexbo-x", "hexbo-5-6p-3p"):
        with pytest.raises(ValueError, match="unknown variant"):
            get_variant(name)


def test_the_square_boards_have_no_rows():
    v = get_variant("9x9")
    assert v.hex_side == 0 and v.node_cost == 100 and not hasattr(v, "row_start") and not hasattr(v, "cell")


@pytest.mark.parametrize("text,message", [
    ("J1", "'J1': not on the hexbo-5 board (rows A-I, columns 1-9)"),
    ("A6", "'A6': not on the hexbo-5 board (row A holds columns 1-5)"),
    ("I4", "'I4': not on the hexbo-5 board (row I holds columns 5-9)"),
    ("E0", "'E0': not on the hexbo-5 board"),
    ("E10", "not on the hexbo-5 board"),
    ("E", "'E': malformed cell"),
    ("5E", "'5E': malformed cell"),
    ("E５", "malformed cell"),
])
def test_cells_off_the_board_are_named(text, message):
    with pytest.raises(ValueError) as e:
        get_variant("hexbo-5").parse_point(text)
    assert message in str(e.value)


@pytest.mark.parametrize("name", HEXBO + ("hexbo-4", "hexbo-10-6p", "hexbo-7-3p"))
def test_position_text_round_trips_and_names_its_variant(name):
    g = Game(name)
    text = g.position()
    rows = text.split()[0].split("/")
    n = g.variant.hex_side
    assert [len(row) for row in rows] == list(range(n, 2 * n)) + list(range(2 * n - 2, n - 1, -1))
    again = Game.from_position(text)
    assert again.variant is g.variant and again.position() == text
    assert again.legal_moves() == g.legal_moves()


def test_six_player_stones_are_u_and_v():
    text = Game("hexbo-5-6p").position()
    assert "U" in text and "V" in text
    g = Game.from_position(text.replace("U", "u").replace("V", "v"))
    assert g.variant.name == "hexbo-5-6p" and g.stones(5) == g.stones(6) == 1


SETUP_5 = Game("hexbo-5").position()


@pytest.mark.parametrize("text,message", [
    (SETUP_5.replace("/.X..O./", "/.X..O../", 1), "position row B: expected 6 cells, got 7"),
    (SETUP_5.replace("...../", "..../", 1), "position row A: expected 5 cells, got 4"),
    (SETUP_5.replace(".X..O./......./", ".X..O./", 1), "8 rows, shorter at both ends; a Hexbo board"),
    (SETUP_5.replace("/.X..O./", "/.X..Q./", 1), "row B, column 5: unknown character 'Q'"),
    (SETUP_5.replace("/.X..O./", "/.X..7./", 1), "row B, column 5: unknown character '7'"),
    (SETUP_5[:-1] + "7", "side to move '7' is not one of X, O, Y, Z, U, V"),
    (SETUP_5[:-1] + "U", "position: Yellow is to move but has no stones"),  # read as hexbo-5-6p
    ("..../.....X/....../......./....../...../O... X", "position row B: expected 5 cells, got 6"),
    ("/".join(["." * 11] + ["." * 21] * 19 + ["." * 11]) + " X", "21 rows, shorter at both ends"),
    ("........... X", "a single row of 11 points"),
])
def test_malformed_hexbo_positions_are_named(text, message):
    with pytest.raises(ValueError) as e:
        Game.from_position(text)
    assert message in str(e.value)


@pytest.mark.parametrize("text,message", [
    (SETUP_5.replace(".X..O./......./", ".X..O./", 1), "hexbo-5 has 9 rows separated by '/', got 8"),
    (SETUP_5[:-1] + "U", "side to move 'U', but hexbo-5 has 2 players"),
    (SETUP_5.replace("/.X..O./", "/.X..Y./", 1), "row B, column 5: 'Y' is a Red stone, but hexbo-5 has 2 players"),
    (Game("9x9").position(), "position row A: expected 5 cells, got 9"),
])
def test_positions_not_of_the_variant_given_are_named(text, message):
    with pytest.raises(ValueError) as e:
        Game.from_position(text, "hexbo-5")
    assert message in str(e.value)


def test_a_six_player_board_is_checked_against_the_variant_given():
    with pytest.raises(ValueError, match="'Z' is a Blue stone, but hexbo-5-3p has 3 players"):
        Game.from_position(Game("hexbo-5-6p").position(), "hexbo-5-3p")
    # a 6-player game with only players 1-3 left reads as 3 players unless told
    text = Game("hexbo-5-6p").position()
    for ch in "ZUV":
        text = text.replace(ch, ".")
    assert Game.from_position(text).variant.name == "hexbo-5-3p"
    assert Game.from_position(text, "hexbo-5-6p").variant.name == "hexbo-5-6p"


def test_errors_of_a_bounded_root_name_the_row_and_column():
    # White A1 in the corner, walled in by Black A2 B1 B2: no root space
    text = "OX.../XX..../......./......../........./......../......./....../..... X"
    with pytest.raises(ValueError, match=r"the White root at A1 \(row A, column 1\) is bounded"):
        Game.from_position(text)


def play(g, *cells):
    for c in cells:
        g.play_move(c)


def test_three_players_take_turns_and_skip_one_who_is_out():
    g = Game("hexbo-5-3p")
    assert [g.to_move] == [1]
    order = []
    for _ in range(6):
        order.append(g.to_move)
        g.play(g.legal_moves()[0])
    assert order == [1, 2, 3, 1, 2, 3]
    g.resign(2)
    assert g.root_count[2] == 0 and g.winner is None
    seen = []
    for _ in range(4):
        seen.append(g.to_move)
        g.play(g.legal_moves()[0])
    assert 2 not in seen and seen[:2] == [1, 3]
    g.resign(3)
    assert g.winner == 1 and g.over
    record = g.record()
    assert "Players: Black White Red" in record and "Result: Black" in record and "resign:White" in record
    # A record of before the names (digits) reads the same.
    old = record.replace("Black White Red", "1 2 3").replace("Black\n", "1\n").replace("resign:White", "resign:2")
    assert "Players: 1 2 3" in old and Game.from_record(old).state_key() == g.state_key()
    assert Game.from_record(record).state_key() == g.state_key()


def test_six_players_resign_in_turn_to_a_winner():
    g = Game("hexbo-6p")
    assert g.players == 6 and len(tanbo.PLAYER_CHARS) == 7
    for k in range(1, 7):
        assert g.to_move == k
        g.play(g.legal_moves()[-1])
    for k in (6, 2, 4, 1, 3):
        before = g.to_move
        g.resign(k)
        if k == before:
            assert g.to_move != k
    assert g.winner == 5 and g.to_move == 5
    with pytest.raises(tanbo.IllegalMove, match="the game is over"):
        g.resign(5)
    while g.ply:
        g.undo()
    assert g.state_key() == Game("hexbo-6p").state_key()


def test_a_seventh_player_is_refused_and_the_game_kept():
    g = Game("hexbo-5-6p")
    key = g.state_key()
    with pytest.raises(ValueError, match="7: no such player in hexbo-5-6p"):
        g.resign(7)
    with pytest.raises(ValueError, match="7: no such player"):
        g.legal_moves(7)
    assert g.state_key() == key
    record = "Variant: hexbo-5-6p\nPlayers: 1 2 3 4 5 6 7\nMoves:\n"
    with pytest.raises(ValueError, match="players '1 2 3 4 5 6 7' do not match hexbo-5-6p"):
        Game.from_record(record)
    with pytest.raises(ValueError, match="'7': unknown player"):
        Game.from_record("Variant: hexbo-5-6p\nMoves: resign:7\n")


@pytest.mark.parametrize("name", HEXBO)
def test_random_games_end_with_one_player_and_replay_from_their_records(name):
    g = Game(name)
    rng = tanbo.Rng(11)
    while not g.over:
        assert g.ply < g.variant.max_plies
        g.play(g.legal_move_at(rng.below(g.legal_count())))
    assert sum(1 for k in range(1, g.players + 1) if g.stones(k)) == 1
    again = Game.from_record(g.record())
    assert again.state_key() == g.state_key()
    assert again.record() == g.record()


def test_the_diagram_draws_the_hexagon_with_its_rows_and_columns():
    text = str(Game("hexbo-5"))
    lines = text.splitlines()
    assert lines[0].split() == ["1", "2", "3", "4", "5"]
    assert lines[1].split() == ["A", ".", ".", ".", ".", ".", "6"]
    assert lines[5].split() == ["E", ".", "O", ".", ".", ".", ".", ".", "X", "."]
    assert lines[9].split() == ["I", ".", ".", ".", ".", "."]
    # each cell stands N - 1 - r + 2 (c - 1) half cells from the left edge
    v = get_variant("hexbo-5")
    for r in range(v.rows):
        first = lines[r + 1].index(".", 2) if r != 4 else 2
        assert first - 2 == abs(4 - r)
        assert lines[r + 1][2 + 4 - r + 2 * (v.row_first_col[r] - 1)] in ".XO"


def test_the_builder_is_dropped_and_a_variant_built_after_it_is_whole():
    import sys
    before = get_variant("hexbo-8")
    assert "tanbo.hexbo_make" not in sys.modules and not hasattr(tanbo, "hexbo_make")
    after = get_variant("hexbo-8-6p")  # the builder imported again
    assert "tanbo.hexbo_make" not in sys.modules
    assert after.steps is before.steps and after.row_start is before.row_start
    assert after.size == 3 * 8 * 7 + 1 and after.players == 6 and len(after.setup) == 12
    assert Game(after).legal_count() > 0
