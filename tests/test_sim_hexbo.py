"""Hexbo on the handheld: the hexagon of hex cells on both screens, the D-pad on hex rows, six
colours, saves, review and whole games in the headless simulator on every board profile."""

import pytest
from tanbo import Game, get_variant

from tanbo_sim.simulator import Simulator

DISPLAYS = ((160, 128), (240, 240))
HEXBO = ("hexbo-5", "hexbo-5-3p", "hexbo-5-6p", "hexbo", "hexbo-3p", "hexbo-6p")
# Title -> New game; rows: Board, Opponent, Level, You play, Start; Level medium -> random.
BOARD_KEYS = {"hexbo-5": 7, "hexbo-5-3p": 8, "hexbo-5-6p": 9, "hexbo": 10, "hexbo-3p": 11, "hexbo-6p": 12}


def new_game_keys(name, opponent="computer"):
    """The key script from the title to a new ``name`` game against random moves (or people)."""
    keys = "A,RIGHT*%d,DOWN" % BOARD_KEYS[name]
    if opponent == "person":
        return keys + ",RIGHT,DOWN*3,A"
    return keys + ",DOWN,LEFT*2,DOWN*2,A"


@pytest.fixture(scope="module")
def layout_class():
    s = Simulator("pybadge")  # puts device/ on sys.path
    from app.view.layout import BoardLayout
    s.close()
    return BoardLayout


def half_cells(lay, p):
    """(row, column in half cells from the widest row's left edge) of point ``p``'s cell."""
    r, k = divmod(lay.cell_of[p], lay.cols)
    return r, 2 * k + lay.cols - lay.row_len[r]


def rgb(colour):
    return colour >> 16, colour >> 8 & 255, colour & 255


def near(c1, c2, tol=12):
    return all(abs(a - b) <= tol for a, b in zip(c1, c2))


@pytest.mark.parametrize("size", DISPLAYS, ids=lambda d: "%dx%d" % d)
@pytest.mark.parametrize("name", HEXBO)
def test_cells_lie_in_offset_rows_whose_touching_cells_are_the_engines_neighbours(layout_class, size, name):
    v = get_variant(name)
    lay = layout_class(v, *size)
    c = lay.cell
    W, H = size
    status = (lay.status_x, lay.status_y, lay.status_x + lay.status_w, lay.status_y + lay.status_h)
    seen = set()
    for p in range(v.size):
        r, x = half_cells(lay, p)
        assert (r, x) not in seen
        seen.add((r, x))
        # On screen: half a cell a half column, a cell a row.
        px, py = lay.cell_xy(p)
        assert abs(px - (lay.x0 + x * c / 2)) <= 1 and py == lay.y0 + r * c
        assert 0 <= px and px + c <= W and 0 <= py and py + c <= H
        assert px + c <= status[0] or py + c <= status[1] or px >= status[2] or py >= status[3]
        touching = set()
        for q in range(v.size):
            r2, x2 = half_cells(lay, q)
            if (r2 == r and abs(x2 - x) == 2) or (abs(r2 - r) == 1 and abs(x2 - x) == 1):
                touching.add(q)
        assert touching == set(v.neighbours[p]), v.format_point(p)
    # The middle row is the widest and unshifted: the hexagon is as wide as it.
    assert max(lay.row_len) == lay.cols == v.rows and lay.shift[v.rows // 2] == 0


@pytest.mark.parametrize("size", DISPLAYS, ids=lambda d: "%dx%d" % d)
@pytest.mark.parametrize("name", ("hexbo-5", "hexbo"))
def test_the_dpad_moves_along_rows_and_zigzags_up_and_down(layout_class, size, name):
    v = get_variant(name)
    lay = layout_class(v, *size)
    nb = v.neighbours
    for p in range(v.size):
        r, x = half_cells(lay, p)
        for dx in (-1, 1):
            q = lay.step(p, dx, 0)
            if q == p:  # only at a row's end
                assert all(half_cells(lay, n)[0] != r or (half_cells(lay, n)[1] - x) * dx < 0 for n in nb[p])
            else:
                assert q in nb[p] and half_cells(lay, q) == (r, x + 2 * dx)
        for dy in (-1, 1):
            q = lay.step(p, 0, dy)
            if not 0 <= r + dy < lay.rows:
                assert q == p
                continue
            r2, x2 = half_cells(lay, q)
            assert q in nb[p] and r2 == r + dy
            # Left from an even row (A, C, ...), right from an odd one, where that cell is.
            want = x - 1 if r % 2 == 0 else x + 1
            on_board = any(half_cells(lay, n) == (r + dy, want) for n in nb[p])
            assert (x2 == want) == on_board, v.format_point(p)
            if on_board:
                assert lay.step(q, 0, -dy) == p  # the way back
    # Held UP from the bottom row's middle: straight up to the top, never a cell off course.
    p = v.cell(v.rows - 1, v.rows - 1 - (v.hex_side - 1) // 2)
    _, x0 = half_cells(lay, p)
    for _ in range(v.rows - 1):
        p = lay.step(p, 0, -1)
        assert abs(half_cells(lay, p)[1] - x0) <= 1
    assert half_cells(lay, p)[0] == 0


def walk(sim, gs, p):
    """Move the game screen's cursor to ``p`` with the D-pad: rows first, then along the row."""
    lay = gs.view.layout
    for _ in range(4 * lay.rows):
        if gs.cursor == p:
            return
        (r, x), (r2, x2) = half_cells(lay, gs.cursor), half_cells(lay, p)
        sim.press("DOWN" if r2 > r else "UP" if r2 < r else "RIGHT" if x2 > x else "LEFT")
    assert gs.cursor == p


def stone_pixel(sim, gs, p):
    """A pixel inside the stone at ``p``, clear of the last-move mark at its centre."""
    x, y = gs.view.layout.cell_xy(p)
    c = gs.view.layout.cell - 1
    return x + c // 2, y + max(1, c // 2 - c // 4 - 1) + (1 if c >= 9 else 0)


def test_a_hexbo_game_against_the_computer_to_its_end(sim):
    from app.screens.game import GameScreen
    from app.view.theme import PLAYER_COLORS
    name = "hexbo-5-3p"
    sim.run_keys(new_game_keys(name))
    gs = sim.app.screen
    assert isinstance(gs, GameScreen) and gs.game.variant.name == name and gs.ai == (2, 3)
    g = gs.game
    for p, player in g.variant.setup:
        assert near(sim.pixel(*stone_pixel(sim, gs, p)), rgb(PLAYER_COLORS[player - 1])), g.name(p)
    assert len(gs.status.chips) == 3
    assert g.is_legal(gs.cursor)
    while g.winner is None:
        assert g.to_move == 1
        p = g.legal_moves()[g.ply * 5 % len(g.legal_moves())]
        walk(sim, gs, p)
        sim.press("A")
        sim.frames(1500)  # a removal's flash, the two computers' replies
        if g.winner is None and g.board[p]:
            assert near(sim.pixel(*stone_pixel(sim, gs, p)), rgb(PLAYER_COLORS[0]))
    assert type(sim.app.screen).__name__ == "Menu"
    assert sim.app.screen.title.text == ("Black", "White", "Red")[g.winner - 1] + " wins!"
    assert sim.app.saved_game is None
    # Review: LEFT steps back through the plies on the hexagon, B leaves it whole.
    plies = g.ply
    sim.run_keys("DOWN,A")
    assert type(sim.app.screen).__name__ == "ReviewScreen"
    sim.run_keys("LEFT*3")
    assert g.ply == plies - 3
    sim.run_keys("B")
    assert g.ply == plies and g.winner is not None


@pytest.mark.parametrize("board", ("pybadge", "picosystem"))
def test_six_players_show_six_colours_and_six_chips(tmp_path, board):
    from app.view.theme import PLAYER_COLORS
    s = Simulator(board, nvm_path=str(tmp_path / "nvm"))
    try:
        s.run_keys(new_game_keys("hexbo-6p"))
        gs = s.app.screen
        g = gs.game
        assert gs.ai == (2, 3, 4, 5, 6) and len(gs.status.chips) == 6
        seen = set()
        for p, player in g.variant.setup:
            colour = s.pixel(*stone_pixel(s, gs, p))
            assert near(colour, rgb(PLAYER_COLORS[player - 1])), g.name(p)
            seen.add(player)
        assert seen == {1, 2, 3, 4, 5, 6}
        assert [c.text for c in gs.status.chips] == ["2/2"] * 6
        # Each chip's icon on screen, in its player's colour.
        lay = gs.view.layout
        for k, chip in enumerate(gs.status.chips):
            icon = s.pixel(lay.status_x + chip.group.x - 4 * lay.scale - 2,
                           lay.status_y + chip.group.y + 6 * lay.scale)
            assert near(icon, rgb(PLAYER_COLORS[k]), 40), k
    finally:
        s.close()


def test_a_hexbo_game_between_people_resumes_after_a_reset(sim):
    sim.run_keys(new_game_keys("hexbo-6p", "person"))
    gs = sim.app.screen
    g = gs.game
    assert gs.ai == ()
    for _ in range(8):
        gs.cursor = g.legal_moves()[0]
        sim.press("A")
    sim.run_keys("UP,UP,LEFT,B")  # undo the last one
    history = g.moves()
    assert len(history) == 7
    sim.close()
    again = Simulator(sim.profile.name, nvm_path=sim.nvm_path)
    try:
        again.press("A")  # Continue
        gs2 = again.app.screen
        assert gs2.game.variant.name == "hexbo-6p" and gs2.game.moves() == history and gs2.ai == ()
        assert gs2.game.to_move == 2
    finally:
        again.close()


def test_the_seat_choice_offers_the_games_players(sim):
    sim.run_keys("A,RIGHT*9,DOWN*3")  # New game: Board hexbo-5-6p; the "You play" row
    menu = sim.app.screen
    seat = menu.rows[3]
    names = [seat.choices[seat.get()]]
    for _ in range(6):
        sim.press("RIGHT")
        names.append(seat.choices[seat.get()])
    assert names == ["Black", "White", "Red", "Blue", "Yellow", "Grey", "Black"]
    sim.run_keys("LEFT*3,UP*3,LEFT*2")  # Blue; Board: hexbo-5, two players
    assert menu.rows[0].choices[sim.app.settings.variant] == "hexbo-5"
    assert seat.choices[seat.get()] == "White"  # the seat within the game's players


def stone_refreshes(tmp_path, board, variant, turns=10):
    """The pixels of every refresh from a person's stone to the computers' last reply, for
    ``turns`` turns of ``variant`` against easy on ``board``, turns with a removal left out
    (a removal redraws the roots it takes)."""
    from tanbo.ai import LEVELS
    s = Simulator(board, nvm_path=str(tmp_path / ("nvm-" + variant)))
    try:
        s.app.settings.level = LEVELS.index("easy")
        g = Game(variant)
        s.app.play(g, tuple(range(2, g.variant.players + 1)))
        s.frames(100)
        gs = s.app.screen
        found = []
        for turn in range(turns):
            if g.winner is not None:
                break
            moves = g.legal_moves()
            p = moves[turn * 7 % len(moves)]
            gs.cursor = p
            gs.update()
            s.app.dirty = True
            s.frames(20)
            stones = sum(g.stones(k) for k in range(1, g.variant.players + 1))
            n = len(s.events)
            s.press("A")
            s.frames(400 * g.variant.players)
            if sum(g.stones(k) for k in range(1, g.variant.players + 1)) == stones + g.variant.players:
                found += [e["pixels"] for e in s.log.since(n, "refresh")]
        return sorted(found)
    finally:
        s.close()


@pytest.mark.parametrize("board", ("pybadge", "picosystem"))  # 160x128 and 240x240
def test_a_hexbo_stone_refreshes_about_what_a_9x9_stone_does(tmp_path, board):
    # A hex cell shares two neighbours with the stone it grows from: those
    # two turn illegal, in the rows above and below, where a square board
    # changes the stone's row only. The large board's smaller cells pay
    # less than 9x9's; the small board's are 5/6 of what would fit
    # (app.view.cell_plan.HEX_CELL) so that they pay no more (docs/board-costs.md).
    square = stone_refreshes(tmp_path, board, "9x9")
    for variant in HEXBO:
        hexes = stone_refreshes(tmp_path, board, variant)
        assert len(hexes) >= 10, variant
        assert hexes[-1] <= 6000, (variant, hexes)  # test_sim_refresh's budget of a stone
        assert hexes[len(hexes) // 2] <= square[len(square) // 2], (variant, hexes, square)
        assert hexes[-1] <= square[-1], (variant, hexes, square)
        print(board, variant, "stone refreshes: median %d px, worst %d (9x9: %d, %d)" % (
            hexes[len(hexes) // 2], hexes[-1], square[len(square) // 2], square[-1]))
