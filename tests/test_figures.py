"""The figures of Mark Steere's 1995 rules (seed 000) against the engine.

Data: tests/data/figures/ (format in its README.md): each figure's board as
position text, the marked move of G, I, K, M, Figure E's move lists and
Figure F's formations. Every expectation below is taken from the figures
and the prose of the 1995 document, not from the engine's output.
"""

import os
import re

import pytest

import tanbo
from tanbo import Game, IllegalMove

FIGURES_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "figures")
ALL = "ABCDEFGHIJKLMNO"
# Figures that are positions a game can reach (F is the "impossible formations").
REACHABLE = [f for f in ALL if f != "F"]
BLACK, WHITE = 1, 2


def load(name):
    """A figure file as a dict: one key per ``key: value`` line, ``formation`` a list."""
    data = {"formation": []}
    with open(os.path.join(FIGURES_DIR, name + ".txt")) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, sep, value = line.partition(":")
            assert sep, "%s.txt line %d: expected 'key: value', got %r" % (name, number, line)
            if key == "formation":
                data["formation"].append(value.strip())
            else:
                assert key not in data, "%s.txt line %d: %s given twice" % (name, number, key)
                data[key] = value.strip()
    return data


def position(name):
    return load(name)["position"]


def board_part(text):
    return text.split()[0]


def points(game, names):
    """Point indices of notation names (a space- or comma-separated string)."""
    return [game.variant.parse_point(n) for n in re.split(r"[ ,]+", names.strip()) if n]


def named(game, pts):
    return sorted(game.variant.format_point(p) for p in pts)


def formations(kind):
    """Figure F's formations of ``kind``: (colour char, stone names, cycle stone names)."""
    out = []
    for text in load("F")["formation"]:
        parts = text.split()
        if parts[0] != kind:
            continue
        cycle = parts[4].split(",") if len(parts) > 4 else []
        out.append((parts[1], parts[2].split(","), cycle))
    return out


def isolated(stones, colour):
    """A 19x19 position text holding only ``stones`` (names) of ``colour``, Black to move."""
    v = tanbo.get_variant("19x19")
    cells = ["."] * v.size
    for s in stones:
        cells[v.parse_point(s)] = colour
    rows = ["".join(cells[y * v.width:(y + 1) * v.width]) for y in range(v.height)]
    return "/".join(rows) + " X"


def error_point(message):
    """The point ``Cnn`` an error message names as 'row N, column C'."""
    m = re.search(r"row (\d+), column ([A-HJ-Z])", message)
    assert m, "error does not name a row and column: %r" % message
    return m.group(2) + m.group(1)


# -- the data files themselves ------------------------------------------------

def test_every_figure_file_is_there_and_well_formed():
    for name in ALL:
        data = load(name)
        board, side = data["position"].split()
        rows = board.split("/")
        size = 19 if name in "ABCDEF" else 9
        assert len(rows) == size and all(len(r) == size for r in rows), name
        assert set(board) <= set("XO./") and side in ("X", "O"), name
        assert ("move" in data) == (name in "GIKM"), name
        assert ("after" in data) == (name in "HJLN"), name


# -- initial setups ------------------------------------------------------------

def test_figure_a_is_the_19x19_setup():
    assert Game("19x19").position() == position("A")


def test_figure_o_is_the_9x9_setup():
    assert Game("9x9").position() == position("O")


def test_seed_003_9x9_diagram_is_figure_o():
    assert load("seed003_9x9")["position"] == position("O")


# -- reachable figures load and print back unchanged ----------------------------

@pytest.mark.parametrize("name", REACHABLE)
def test_reachable_figure_round_trips(name):
    text = position(name)
    assert Game.from_position(text).position() == text


@pytest.mark.parametrize("name", ["B", "C"])
def test_mid_game_figures_have_all_16_roots(name):
    # "In FIGURE C, there are still 16 roots on the board"; B is earlier in the same game.
    g = Game.from_position(position(name))
    assert g.variant.name == "19x19"
    assert len(g.roots(BLACK)) == 8 and len(g.roots(WHITE)) == 8
    assert g.winner is None and not g.over
    assert g.legal_count() > 0


def test_figure_d_white_has_won():
    g = Game.from_position(position("D"))
    assert g.stones(BLACK) == 0
    assert g.stones(WHITE) == board_part(position("D")).count("O")
    assert g.winner == WHITE and g.over


# -- Figure E: legal and illegal white moves, root space, bounding ---------------

@pytest.fixture
def fig_e():
    return Game.from_position(position("E"))


def test_figure_e_white_to_move(fig_e):
    assert fig_e.to_move == WHITE


def test_figure_e_legal_white_moves(fig_e):
    data = load("E")
    for p in points(fig_e, data["legal"]):
        assert fig_e.is_legal(p), fig_e.variant.format_point(p)
    legal = fig_e.legal_moves()
    assert set(points(fig_e, data["legal"])) <= set(legal)
    for p in points(fig_e, data["no-connection"] + " " + data["two-or-more"]):
        assert not fig_e.is_legal(p) and p not in legal, fig_e.variant.format_point(p)


# The text: F15 touches two white stones (left and right), B14 four; G5 and B12
# touch two (counted from the figure).
CONNECTIONS = {"F15": 2, "G5": 2, "B14": 4, "B12": 2}


def illegal_message(game, p):
    before = game.position()
    with pytest.raises(IllegalMove) as info:
        game.play(p)
    assert isinstance(info.value, ValueError)
    assert game.position() == before and game.ply == 0
    return str(info.value)


def test_figure_e_no_connection_messages(fig_e):
    for name in load("E")["no-connection"].split():
        msg = illegal_message(fig_e, fig_e.variant.parse_point(name))
        assert name in msg.upper(), msg
        assert re.search(r"not connect|\bno\b|\bnone\b|\bany\b", msg, re.I), msg


def test_figure_e_two_or_more_messages(fig_e):
    many = load("E")["two-or-more"].split()
    assert sorted(many) == sorted(CONNECTIONS)
    for name in many:
        msg = illegal_message(fig_e, fig_e.variant.parse_point(name))
        assert name in msg.upper(), msg
        # The count of white neighbours, not part of the point's own name.
        assert re.search(r"(?<![A-Z0-9])%d(?![0-9])" % CONNECTIONS[name], msg.upper().replace(name, "")), msg


def test_figure_e_message_kinds_differ(fig_e):
    # The message says which problem: no connection and 2+ connections read differently.
    none_msg = illegal_message(fig_e, fig_e.variant.parse_point("K8")).replace("K8", "P")
    many_msg = illegal_message(fig_e, fig_e.variant.parse_point("F15")).replace("F15", "P")
    assert none_msg != many_msg


SMALL_BLACK_ROOT = "A7 B7 B8 B9 C9"  # the small black root of Figure E (holds seed A7)
SMALL_WHITE_ROOT = "A1 B1 B2"  # the small white root of Figure E (holds seed A1)


def test_figure_e_d9_is_the_only_root_space_of_the_small_black_root(fig_e):
    for p in points(fig_e, SMALL_BLACK_ROOT):
        assert named(fig_e, fig_e.root_space(p)) == ["D9"]
    r = fig_e.root_at(fig_e.variant.parse_point("B9"))
    assert named(fig_e, fig_e.root_stones(r)) == sorted(SMALL_BLACK_ROOT.split())


def test_figure_e_c2_is_the_only_root_space_of_the_small_white_root(fig_e):
    for p in points(fig_e, SMALL_WHITE_ROOT):
        assert named(fig_e, fig_e.root_space(p)) == ["C2"]


def changed_points(before, after):
    a, b = board_part(before).replace("/", ""), board_part(after).replace("/", "")
    return [i for i in range(len(a)) if a[i] != b[i]]


def test_figure_e_white_d9_bounds_and_removes_the_small_black_root(fig_e):
    before = fig_e.position()
    removed = fig_e.play_move("D9")
    assert named(fig_e, removed) == sorted(SMALL_BLACK_ROOT.split())
    for p in points(fig_e, SMALL_BLACK_ROOT):
        assert fig_e.board[p] == 0
    d9 = fig_e.variant.parse_point("D9")
    assert fig_e.board[d9] == WHITE
    # Nothing else changed: the removed root and the new stone only.
    assert sorted(changed_points(before, fig_e.position())) == sorted(removed + [d9])
    assert len(fig_e.roots(BLACK)) == 7 and len(fig_e.roots(WHITE)) == 8
    assert fig_e.to_move == BLACK


def test_figure_e_white_c2_bounds_and_removes_only_its_own_small_root(fig_e):
    before = fig_e.position()
    removed = fig_e.play_move("C2")
    assert named(fig_e, removed) == sorted(SMALL_WHITE_ROOT.split() + ["C2"])
    c2 = fig_e.variant.parse_point("C2")
    assert fig_e.board[c2] == 0
    # Only the old stones of that root changed: C2 was empty before and is again.
    assert sorted(changed_points(before, fig_e.position())) == sorted(p for p in removed if p != c2)
    assert len(fig_e.roots(BLACK)) == 8 and len(fig_e.roots(WHITE)) == 7


# -- G-H, I-J, K-L, M-N: a marked move and its printed result -------------------

PAIRS = [("G", "H"), ("I", "J"), ("K", "L"), ("M", "N")]


@pytest.mark.parametrize("before,after", PAIRS)
def test_marked_move_gives_the_next_figure(before, after):
    data = load(before)
    assert load(after)["after"] == "%s %s" % (before, data["move"])
    g = Game.from_position(data["position"])
    g.play_move(data["move"])
    assert g.position() == position(after)


@pytest.mark.parametrize("before,after", PAIRS)
def test_marked_move_removes_exactly_the_vanished_stones(before, after):
    data = load(before)
    g = Game.from_position(data["position"])
    removed = g.play_move(data["move"])
    printed = load(after)["position"]
    move = g.variant.parse_point(data["move"])
    vanished = [p for p in changed_points(data["position"], printed) if p != move]
    if board_part(printed).replace("/", "")[move] == ".":
        vanished.append(move)  # the expanded root went, new stone and all
    assert sorted(removed) == sorted(vanished)


@pytest.mark.parametrize("before,after", PAIRS)
def test_marked_move_undoes_to_the_figure(before, after):
    data = load(before)
    g = Game.from_position(data["position"])
    g.play_move(data["move"])
    g.undo()
    assert g.position() == data["position"] and g.ply == 0 and g.winner is None


def test_figure_g_j1_removes_the_small_white_root_in_the_lower_right():
    g = Game.from_position(position("G"))
    removed = g.play_move("J1")
    assert named(g, removed) == sorted("F1 G1 G2 H2 J1 J2".split())


def test_figure_j_freed_roots_regain_root_space():
    # "The white root in the lower right corner reclaimed its one point of root
    # space. The black root in the lower left corner gained a few points."
    j = Game.from_position(position("J"))
    assert named(j, j.root_space(j.variant.parse_point("H2"))) == ["D4"]
    i = Game.from_position(position("I"))
    a5 = i.variant.parse_point("A5")
    assert len(j.root_space(a5)) > len(i.root_space(a5)) >= 1


def test_figure_k_expanded_root_is_not_bounded():
    g = Game.from_position(position("K"))
    g.play_move("D5")
    assert len(g.root_space(g.variant.parse_point("D5"))) >= 1
    assert g.board[g.variant.parse_point("D5")] == WHITE


def test_figure_m_j9_is_blacks_only_move_and_only_root_space():
    g = Game.from_position(position("M"))
    j9 = g.variant.parse_point("J9")
    assert g.to_move == BLACK and g.legal_moves() == [j9]
    assert named(g, g.root_space(g.variant.parse_point("H8"))) == ["J9"]
    assert len(g.roots(BLACK)) == 1 and len(g.roots(WHITE)) == 1


def test_figure_m_j9_ends_the_game_white_wins():
    g = Game.from_position(position("M"))
    g.play_move("J9")
    assert g.stones(BLACK) == 0 and g.winner == WHITE and g.over
    n = Game.from_position(position("N"))
    assert n.winner == WHITE and n.over


# -- Figure F: impossible formations --------------------------------------------

def test_figure_f_data_covers_every_stone_once():
    text = board_part(position("F"))
    v = tanbo.get_variant("19x19")
    cells = text.replace("/", "")
    seen = {}
    for kind in ("not-tree", "no-seed"):
        for colour, stones, cycle in formations(kind):
            assert set(cycle) <= set(stones)
            assert (kind == "not-tree") == bool(cycle)
            for s in stones:
                assert cells[v.parse_point(s)] == colour, s
                assert s not in seen, s
                seen[s] = colour
    assert len(seen) == len(cells) - cells.count(".")


def test_figure_f_is_rejected_at_a_loop_or_clump():
    cycles = set()
    for colour, stones, cycle in formations("not-tree"):
        cycles.update(cycle)
    with pytest.raises(ValueError) as info:
        Game.from_position(position("F"))
    assert error_point(str(info.value)) in cycles


@pytest.mark.parametrize("formation", formations("not-tree"), ids=lambda f: f[1][0])
def test_figure_f_loop_or_clump_alone_is_rejected_on_its_cycle(formation):
    colour, stones, cycle = formation
    with pytest.raises(ValueError) as info:
        Game.from_position(isolated(stones, colour))
    msg = str(info.value)
    assert error_point(msg) in cycle, msg
    assert re.search(r"loop|clump|tree|cycle", msg, re.I), msg


@pytest.mark.parametrize("formation", formations("no-seed"), ids=lambda f: f[1][0])
def test_figure_f_seedless_root_holds_no_initial_stone(formation):
    # Impossible only because every root holds its initial stone (Figure A):
    # check that against the variant's setup, which test_figure_a pins.
    colour, stones, _ = formation
    v = tanbo.get_variant("19x19")
    player = " XO".index(colour)
    seeds = set(p for p, who in v.setup if who == player)
    assert not seeds & set(v.parse_point(s) for s in stones)


@pytest.mark.parametrize("formation", formations("no-seed"), ids=lambda f: f[1][0])
def test_figure_f_seedless_root_passes_the_stone_only_checks(formation):
    # The stones alone (trees, root space) cannot show these: the position loads.
    colour, stones, _ = formation
    g = Game.from_position(isolated(stones, colour))
    player = " XO".index(colour)
    assert len(g.roots(player)) == 1
    assert g.root_space(g.variant.parse_point(stones[0]))


def test_figure_f_without_its_loops_and_clumps_loads():
    # Removing the not-tree formations leaves only trees with root space.
    v = tanbo.get_variant("19x19")
    cells = list(board_part(position("F")).replace("/", ""))
    for colour, stones, cycle in formations("not-tree"):
        for s in stones:
            cells[v.parse_point(s)] = "."
    rows = ["".join(cells[y * 19:(y + 1) * 19]) for y in range(19)]
    g = Game.from_position("/".join(rows) + " X")
    assert len(g.roots(BLACK)) + len(g.roots(WHITE)) == len(formations("no-seed"))


# -- the subset copy (tests/subset/check_figures.py) ------------------------------

def test_subset_check_copies_match_the_data():
    import importlib.util
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "subset", "check_figures.py")
    spec = importlib.util.spec_from_file_location("check_figures_copy", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, text in module.FIGURES.items():
        assert text == position(name), name
    for name, (move, result) in module.MOVES.items():
        assert load(name)["move"] == move and load(result)["after"] == "%s %s" % (name, move)
    data = load("E")
    assert module.E_LEGAL == data["legal"].split()
    assert module.E_NO_CONNECTION == data["no-connection"].split()
    assert module.E_TWO_OR_MORE == data["two-or-more"].split()
