"""The text protocol (tanbo.gtp): framing, every command, junk, and the same
answers from CPython, the ``tanbo gtp`` console script and the MicroPython
unix port (run through :mod:`tanbo_tools.vm`)."""

import io
import os
import subprocess
import sys

import pytest

from tanbo import VARIANTS, Game, Rng, gtp
from tanbo.gtp import COMMANDS, GtpEngine, serve
from tanbo_tools import vm

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORE = os.path.join(REPO, "core")
BIN = os.path.dirname(sys.executable)
COLOUR = {1: "b", 2: "w", 3: "3", 4: "4", 5: "5", 6: "6"}


def ok(engine, line):
    """The result text of a command that must succeed."""
    answer = engine.handle(line)
    assert answer.startswith("= ") and answer.endswith("\n\n"), (line, answer)
    return answer[2:-2]


def err(engine, line):
    """The message of a command that must fail."""
    answer = engine.handle(line)
    assert answer.startswith("? ") and answer.endswith("\n\n"), (line, answer)
    return answer[2:-2]


def state(engine):
    """Everything a failed command must leave alone."""
    g = engine.game
    return (g.variant.name, g.position(), g.moves(), g.winner, engine.level, engine.movetime_ms,
            ok(engine, "tanbo-record"))


def play_out(engine, limit=100000):
    """genmove for whoever is to move until the game ends; returns the moves."""
    moves = []
    while engine.game.winner is None and len(moves) < limit:
        moves.append(ok(engine, "genmove " + COLOUR[engine.game.to_move]))
    return moves


# -- framing --------------------------------------------------------------------
def test_framing_ids_blank_lines_and_comments():
    e = GtpEngine("9x9", level="random")
    assert e.handle("protocol_version") == "= 2\n\n"
    assert e.handle("17 name") == "=17 Tanbo\n\n"
    assert e.handle("3 bogus") == "?3 unknown command: 'bogus'\n\n"
    assert e.handle("") is None
    assert e.handle("   \n") is None
    assert e.handle("# just a comment\n") is None
    assert e.handle("name # trailing comment") == "= Tanbo\n\n"
    assert e.handle("\tna\x01me\x7f\r\n") == "= Tanbo\n\n"  # control characters dropped, tab is a space
    assert e.handle("  5    version  ") == "=5 %s\n\n" % gtp.__version__
    assert e.handle("42") == "?42 missing command after the id\n\n"
    assert e.handle("NAME").startswith("? unknown command")  # GTP commands are lower case


def test_list_and_known_commands():
    e = GtpEngine("9x9", level="random")
    listed = ok(e, "list_commands").split("\n")
    assert listed == list(COMMANDS)
    for name in ("protocol_version", "name", "version", "known_command", "list_commands", "quit", "boardsize",
                 "clear_board", "play", "genmove", "undo", "showboard", "tanbo-variant", "tanbo-position",
                 "tanbo-legal", "tanbo-rootspace", "tanbo-winner", "tanbo-level", "tanbo-movetime"):
        assert name in listed
        assert ok(e, "known_command " + name) == "true"
    assert ok(e, "known_command komi") == "false"
    assert ok(e, "known_command PLAY") == "false"


def test_quit_answers_and_stops_serving():
    e = GtpEngine("9x9")
    out = io.StringIO()
    serve(e, io.StringIO("1 quit\nname\n"), out)
    assert out.getvalue() == "=1 \n\n"
    assert e.done


def test_eof_ends_the_session_cleanly():
    e = GtpEngine("9x9", level="random")
    out = io.StringIO()
    serve(e, io.StringIO("name\n\n# c\nplay b h7\ntanbo-position"), out)  # no newline at the end
    assert out.getvalue() == "= Tanbo\n\n= \n\n= %s\n\n" % e.game.position()
    assert not e.done and e.game.ply == 1


def test_serve_stops_when_the_output_is_closed():
    class Closed:
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

    serve(GtpEngine("9x9"), io.StringIO("name\nname\n"), Closed())  # returns, raises nothing


# -- standard commands -----------------------------------------------------------
@pytest.mark.parametrize("size,variant", [(19, "19x19"), (13, "13x13"), (9, "9x9"), (7, "dense-7"),
                                          (11, "dense-11"), (15, "dense-15")])
def test_boardsize_picks_the_variant(size, variant):
    e = GtpEngine("1d")
    ok(e, "boardsize %d" % size)
    assert e.game.variant.name == variant
    assert ok(e, "tanbo-position") == Game(variant).position()


@pytest.mark.parametrize("arg", ["5", "8", "10", "25", "0"])
def test_boardsize_refuses_other_sizes(arg):
    e = GtpEngine("9x9")
    ok(e, "play b h7")
    before = state(e)
    assert err(e, "boardsize " + arg) == "unacceptable size"
    assert state(e) == before


def test_clear_board_restarts_the_current_variant():
    e = GtpEngine("dense-11", level="random")
    ok(e, "genmove b")
    ok(e, "genmove w")
    ok(e, "clear_board")
    assert e.game.variant.name == "dense-11" and e.game.ply == 0
    assert ok(e, "tanbo-position") == Game("dense-11").position()
    assert err(e, "undo") == "cannot undo"


def test_play_plays_the_move_and_checks_the_turn():
    e = GtpEngine("9x9")
    g = Game("9x9")
    ok(e, "play B h7")
    g.play_move("H7")
    assert ok(e, "tanbo-position") == g.position()
    before = state(e)
    assert err(e, "play b b3") == "play Black: it is White's turn (Tanbo has a fixed turn order)"
    assert err(e, "play black pass") == "illegal move: passing is not allowed in Tanbo"
    assert err(e, "play w PASS") == "illegal move: passing is not allowed in Tanbo"
    assert err(e, "play w b8") == "illegal move: B8 is occupied"
    assert err(e, "play w e5") == "illegal move: E5 does not connect to any White stone"
    assert err(e, "play w z9").startswith("invalid point 'z9': ")
    assert err(e, "play w j10").startswith("invalid point 'j10': not on the 9x9 board")
    assert err(e, "play purple b7") == "invalid color 'purple' (a name: black, white, red, blue, yellow, grey; b, w or 1-6)"
    assert err(e, "play o b7") == "invalid color 'o' (a name: black, white, red, blue, yellow, grey; b, w or 1-6)"  # a stone's letter, not a colour
    assert err(e, "play 3 b7") == "invalid color '3': 9x9 has 2 players"
    assert err(e, "play Red b7") == "invalid color 'Red': 9x9 has 2 players"
    assert err(e, "play w") == "play expects 2 arguments (COLOR POINT), got 1"
    assert state(e) == before
    ok(e, "play WHITE b7")
    g.play_move("B7")
    assert ok(e, "tanbo-position") == g.position()


def test_play_resign_ends_a_two_player_game_and_undo_brings_it_back():
    e = GtpEngine("9x9")
    ok(e, "play w resign")
    assert ok(e, "tanbo-winner") == "B"
    assert err(e, "play b h7") == "illegal move: the game is over (Black won)"
    assert err(e, "genmove b") == "the game is over (Black won)"
    ok(e, "undo")
    assert ok(e, "tanbo-winner") == "none"
    assert ok(e, "tanbo-position") == Game("9x9").position()


def test_four_player_colours():
    e = GtpEngine("4p", level="random")
    for k in (1, 2, 3, 4):
        assert err(e, "genmove %d" % (k % 4 + 1)).endswith("(Tanbo has a fixed turn order)")
        ok(e, "genmove %d" % k)
    assert e.game.ply == 4 and e.game.to_move == 1


@pytest.mark.parametrize("variant", ["hexbo-5-6p", "hexbo-6p"])
def test_six_player_colours_and_no_seventh(variant):
    e = GtpEngine(variant, level="random")
    for k in range(1, 7):
        assert err(e, "genmove %d" % (k % 6 + 1)).endswith("(Tanbo has a fixed turn order)")
        ok(e, "genmove %d" % k)
    assert e.game.ply == 6 and e.game.to_move == 1
    before = state(e)
    assert err(e, "genmove 7") == "invalid color '7' (a name: black, white, red, blue, yellow, grey; b, w or 1-6)"
    assert err(e, "play 7 E5") == "invalid color '7' (a name: black, white, red, blue, yellow, grey; b, w or 1-6)"
    assert err(e, "play 5 " + e.game.name(e.game.legal_moves(5)[0])) == \
        "play Yellow: it is Black's turn (Tanbo has a fixed turn order)"
    assert state(e) == before
    ok(e, "play b " + e.game.name(e.game.legal_moves()[0]))
    ok(e, "play w " + e.game.name(e.game.legal_moves()[0]))
    ok(e, "play 3 " + e.game.name(e.game.legal_moves()[0]))
    ok(e, "play BLUE " + e.game.name(e.game.legal_moves()[0]))  # the names, any case
    ok(e, "play yellow " + e.game.name(e.game.legal_moves()[0]))
    ok(e, "genmove Grey")
    assert e.game.to_move == 1


def test_three_player_colour_4_is_refused():
    e = GtpEngine("hexbo-5-3p", level="random")
    before = state(e)
    assert err(e, "genmove 4") == "invalid color '4': hexbo-5-3p has 3 players"
    assert state(e) == before


@pytest.mark.parametrize("variant", ["hexbo-5-3p", "hexbo-6p"])
def test_winner_of_more_than_two_players_is_a_number_its_record_names_it_and_resignations_skip_the_out(variant):
    e = GtpEngine(variant, level="random", seed=3)
    ok(e, "play 2 resign")
    assert e.game.root_count[2] == 0 and e.game.to_move == 1
    ok(e, "genmove 1")
    assert e.game.to_move == 3  # 2 is out: skipped
    play_out(e)
    name = ("Black", "White", "Red", "Blue", "Yellow", "Grey")[e.game.winner - 1]
    assert ok(e, "tanbo-winner") == str(e.game.winner) and e.game.winner != 2
    assert "\nResult: %s\n" % name in ok(e, "tanbo-record")


def test_hexbo_points_and_showboard():
    e = GtpEngine("hexbo-5", level="random")
    before = state(e)
    assert err(e, "play b A6") == "invalid point 'A6': not on the hexbo-5 board (row A holds columns 1-5)"
    assert err(e, "play b J1").startswith("invalid point 'J1': not on the hexbo-5 board")
    assert err(e, "tanbo-position ...../.X..O../......./......../.O.....X./......../......./.X..O./..... X") \
        == "position row B: expected 6 cells, got 7: '.X..O..'"
    assert state(e) == before
    assert ok(e, "tanbo-rootspace b2") == "A1 A2 B1 B3 C2 C3"  # its six neighbours
    ok(e, "play b c3")
    answer = ok(e, "showboard")
    lines = answer.split("\n")
    assert lines[1:4] == ["       1 2 3 4 5", "A     . . . . . 6", "B    . X . . O . 7"]
    assert lines[4] == "C   . . X . . . . 8"
    assert lines[11] == "hexbo-5, ply 1: White (O) to move, Black 4 stones 3 roots  White 3 stones 3 roots"
    e = GtpEngine("hexbo-5-6p")
    assert ok(e, "showboard").split("\n")[-1] == ("hexbo-5-6p, ply 0: Black (X) to move, Black 1 stones 1 roots  "
                                                  "White 1 stones 1 roots  Red 1 stones 1 roots  "
                                                  "Blue 1 stones 1 roots  Yellow 1 stones 1 roots  "
                                                  "Grey 1 stones 1 roots")


def test_genmove_is_legal_deterministic_and_equals_the_ai_random_level():
    from tanbo.ai import choose_move
    a = GtpEngine("13x13", level="random", seed=5)
    b = GtpEngine("13x13", level="random", seed=5)
    g = Game("13x13")
    for _ in range(30):
        legal = ok(a, "tanbo-legal").split()
        colour = COLOUR[a.game.to_move]
        want = g.name(choose_move(g, level="random", seed=(5 + 7919 * g.ply) & 0xFFFFFF))
        move = ok(a, "genmove " + colour)
        assert move in legal and move == want
        assert ok(b, "genmove " + colour) == move
        g.play_move(move)
    # After an undo the same ply gets the same move.
    last = a.game.moves()[-1]
    ok(a, "undo")
    assert ok(a, "genmove " + COLOUR[a.game.to_move]) == a.game.name(last)


def test_genmove_errors_leave_the_game_alone():
    e = GtpEngine("9x9", level="random")
    before = state(e)
    assert err(e, "genmove w") == "genmove White: it is Black's turn (Tanbo has a fixed turn order)"
    assert err(e, "genmove") == "genmove expects 1 argument (COLOR), got 0"
    assert err(e, "genmove b w") == "genmove expects 1 argument (COLOR), got 2"
    assert err(e, "genmove x") == "invalid color 'x' (a name: black, white, red, blue, yellow, grey; b, w or 1-6)"
    assert state(e) == before


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_genmove_uses_the_ai_levels(level):
    from tanbo.ai import choose_move
    e = GtpEngine("9x9")
    ok(e, "tanbo-level " + level.upper())
    assert ok(e, "tanbo-level") == level
    g = e.game.copy()
    move = ok(e, "genmove b")
    assert move == g.name(choose_move(g, level=level, seed=0))


def test_undo_takes_back_one_ply_at_a_time():
    e = GtpEngine("9x9", level="random")
    positions = [ok(e, "tanbo-position")]
    for _ in range(12):
        ok(e, "genmove " + COLOUR[e.game.to_move])
        positions.append(ok(e, "tanbo-position"))
    for want in reversed(positions[:-1]):
        ok(e, "undo")
        assert ok(e, "tanbo-position") == want
    assert err(e, "undo") == "cannot undo"
    assert err(e, "undo 2") == "undo takes no arguments, got 1"


def test_showboard_draws_the_diagram_and_the_state():
    e = GtpEngine("9x9")
    ok(e, "play b h7")
    answer = e.handle("7 showboard")
    assert answer.startswith("=7 \n   A B C D E F G H J\n 9 ") and answer.endswith("\n\n")
    body = answer[len("=7 \n"):-2]
    assert body.split("\n")[:11] == str(e.game).split("\n")
    assert body.split("\n")[11] == "9x9, ply 1: White (O) to move, Black 3 stones 2 roots  White 2 stones 2 roots"
    assert "\n\n" not in answer[:-2]  # no blank line inside an answer


@pytest.mark.parametrize("variant", VARIANTS)
def test_showboard_of_every_variant_has_no_blank_line(variant):
    e = GtpEngine(variant)
    answer = e.handle("showboard")
    assert answer.startswith("= \n") and "\n\n" not in answer[:-2]
    assert str(e.game) in answer


# -- Tanbo extensions ---------------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANTS)
def test_tanbo_variant_resets_to_the_setup(variant):
    e = GtpEngine("9x9", level="random")
    ok(e, "genmove b")
    ok(e, "tanbo-variant " + variant.upper())
    assert e.game.variant.name == variant and e.game.ply == 0
    assert ok(e, "tanbo-position") == Game(variant).position()


def test_tanbo_variant_refuses_unknown_names():
    e = GtpEngine("9x9")
    before = state(e)
    assert err(e, "tanbo-variant 8x8").startswith("'8x8': unknown variant (known: 19x19")
    assert err(e, "tanbo-variant") == "tanbo-variant expects 1 argument (NAME), got 0"
    assert state(e) == before


@pytest.mark.parametrize("variant", VARIANTS)
def test_position_set_get_round_trip(variant):
    e = GtpEngine(variant, level="random", seed=3)
    play_out(e, limit=25)
    text = ok(e, "tanbo-position")
    legal = ok(e, "tanbo-legal")
    other = GtpEngine("9x9" if variant != "9x9" else "13x13")
    if variant == "dense-19":
        ok(other, "tanbo-variant dense-19")  # a 19x19 shape keeps the current dense-19
    ok(other, "tanbo-position " + text)
    assert other.game.variant.name == variant
    assert ok(other, "tanbo-position") == text
    assert ok(other, "tanbo-legal") == legal
    assert err(other, "undo") == "cannot undo"
    # The record starts from the set position and replays.
    record = ok(other, "tanbo-record")
    assert "\nPosition: " + text + "\n" in record
    assert Game.from_record(record).position() == text


def test_a_finished_game_round_trips_with_the_winner_to_move():
    e = GtpEngine("9x9", level="random", seed=4)
    play_out(e)
    text = ok(e, "tanbo-position")
    assert text.endswith(" " + "XO"[e.game.winner - 1])
    other = GtpEngine("9x9")
    ok(other, "tanbo-position " + text)
    assert ok(other, "tanbo-winner") == ok(e, "tanbo-winner")


def test_position_accepts_diagram_spacing_and_lower_case():
    e = GtpEngine("9x9")
    rows = Game("dense-7").position().split()[0].lower().replace("/", " / ")
    ok(e, "tanbo-position %s o" % rows)
    assert e.game.variant.name == "dense-7" and e.game.to_move == 2


@pytest.mark.parametrize("junk,message", [
    ("tanbo-position X........", "tanbo-position: expected no arguments, or the position text and the side to move"),
    ("tanbo-position ..X/..O/... X", "position '..X/..O/... X': 3 rows; no variant has that size"),
    ("tanbo-position ........./.O.....X./........./........./........./........./........./.X.....O./......... Q",
     "position: side to move 'Q' is not one of X, O, Y, Z, U, V"),
    ("tanbo-position ........./.O.....X./........./........./...?...../........./........./.X.....O./......... X",
     "position row 5, column D: unknown character '?'"),
    ("tanbo-position ........./.OO....X./.OO....../........./........./........./........./.X.....O./......... X",
     "position: the White root at B8"),
    ("tanbo-position ........./........./........./........./........./........./........./........./......... X",
     "position: there are no stones on the board"),
    ("tanbo-position X......../........./........./........./........./........./........./........./......... O",
     "position: White is to move but has no stones"),
    ("tanbo-position X......../........./........./........./........./........./........./........./......... W",
     "position: White is to move but has no stones"),
])
def test_bad_position_text_is_refused_and_changes_nothing(junk, message):
    e = GtpEngine("9x9", level="random")
    ok(e, "genmove b")
    before = state(e)
    assert message in err(e, junk)
    assert state(e) == before


def test_legal_and_rootspace_match_the_engine():
    e = GtpEngine("19x19", level="random", seed=9)
    play_out(e, limit=40)
    g = e.game
    assert ok(e, "tanbo-legal") == " ".join(g.name(p) for p in g.legal_moves())
    stones = [p for p in range(g.variant.size) if g.board[p]]
    for p in stones[:20]:
        assert ok(e, "tanbo-rootspace " + g.name(p).lower()) == " ".join(g.name(q) for q in g.root_space(p))
    empty = next(p for p in range(g.variant.size) if not g.board[p])
    before = state(e)
    assert err(e, "tanbo-rootspace " + g.name(empty)) == "%s is empty: root space is asked of a stone" % g.name(empty)
    assert err(e, "tanbo-rootspace Z99").startswith("invalid point 'Z99'")
    assert err(e, "tanbo-rootspace") == "tanbo-rootspace expects 1 argument (POINT), got 0"
    assert err(e, "tanbo-legal now") == "tanbo-legal takes no arguments, got 1"
    assert state(e) == before


def test_3d_and_1d_points():
    e = GtpEngine("3d")
    assert ok(e, "tanbo-rootspace 151") == "251 141 152"  # point index order
    ok(e, "play b 251")
    assert err(e, "play w 600").startswith("invalid point '600'")
    e = GtpEngine("1d")
    assert ok(e, "tanbo-legal") == " ".join(e.game.name(p) for p in e.game.legal_moves())
    assert err(e, "play b 32").startswith("invalid point '32'")


def test_winner_level_and_movetime():
    e = GtpEngine("9x9")
    assert ok(e, "tanbo-winner") == "none"
    ok(e, "tanbo-level random")
    play_out(e)
    assert ok(e, "tanbo-winner") == "BW"[e.game.winner - 1]
    before = state(e)
    assert err(e, "tanbo-level genius") == "unknown level 'genius' (known: random, easy, medium, hard)"
    assert err(e, "tanbo-movetime -3").startswith("movetime '-3': expected milliseconds")
    assert err(e, "tanbo-movetime fast").startswith("movetime 'fast': expected milliseconds")
    assert err(e, "tanbo-movetime 1 2") == "tanbo-movetime expects 1 argument (MS), got 2"
    assert state(e) == before
    assert ok(e, "tanbo-movetime") == "none"
    ok(e, "tanbo-movetime 250")
    assert ok(e, "tanbo-movetime") == "250" and e.movetime_ms == 250
    ok(e, "tanbo-movetime 0")
    assert ok(e, "tanbo-movetime") == "none"


def test_four_player_winner_is_named_by_its_colour():
    e = GtpEngine("4p", level="random", seed=1)
    play_out(e)
    assert ok(e, "tanbo-winner") == str(e.game.winner)


def test_record_matches_game_record_and_replays():
    e = GtpEngine("4p", level="random", seed=2)
    play_out(e, limit=45)
    ok(e, "play %d resign" % e.game.to_move)
    record = ok(e, "tanbo-record")
    assert record == "\n" + e.game.record().rstrip("\n")
    assert "resign:" in record
    assert Game.from_record(record).position() == e.game.position()


@pytest.mark.parametrize("junk", [
    "bogus", "PLAY b h7", "play", "play b", "play b h7 h8", "play b j99", "play b i5", "play b 4",
    "play w h7", "play b pass", "play purple h7", "genmove", "genmove w", "genmove 3", "undo now",
    "boardsize", "boardsize nine", "boardsize 10", "boardsize 9 9", "clear_board now", "showboard x",
    "tanbo-variant", "tanbo-variant 5x5", "tanbo-position X", "tanbo-position ... X",
"tanbo-rootspace", "tanbo-rootspace e5", "tanbo-rootspace a0",
    "tanbo-winner x", "tanbo-level", "tanbo-level x", "tanbo-movetime x", "tanbo-record x",
    "protocol_version 2", "name x", "known_command", "list_commands x", "quit now", "12",
    "version\x00 x", "play b " + "A1" * 100,
])
def test_junk_gets_a_question_mark_and_changes_nothing(junk):
    e = GtpEngine("9x9", level="random")
    ok(e, "genmove b")
    ok(e, "genmove w")
    before = state(e)
    answer = e.handle(junk)
    if junk == "tanbo-level":  # a query, not junk
        assert answer == "= random\n\n"
    else:
        assert answer.startswith("?") and answer.endswith("\n\n") and "\n\n" not in answer[:-2], answer
        assert len(answer) < 400  # long input is quoted cut short
    assert state(e) == before
    assert not e.done


NOT_ASCII = ": not ASCII (commands, colours, points and numbers are)"


@pytest.mark.parametrize("line,answer", [
    (b"\xff\xfe bad\n", "? '\\xff\\xfe'%s\n\n" % NOT_ASCII),
    (b"12 name \xc3\n", "?12 '\\xc3'%s\n\n" % NOT_ASCII),
    (b"12 name \xc3\xa9\n", "?12 '\\xc3\\xa9'%s\n\n" % NOT_ASCII),  # UTF-8, but not ASCII
    (b"\xc0\xaf name\n", "? '\\xc0\\xaf'%s\n\n" % NOT_ASCII),  # overlong: MicroPython decodes it
    ("\udcff\udcfe bad\n", "? '\\xff\\xfe'%s\n\n" % NOT_ASCII),  # a text stream's surrogateescape
    (b"na\x01me # \xff in a comment\n", "= Tanbo\n\n"),
    ("7 name\n".encode(), "=7 Tanbo\n\n"),
])
def test_bytes_that_are_not_ascii_make_one_junk_line(line, answer):
    e = GtpEngine("9x9", level="random")
    ok(e, "genmove b")
    before = state(e)
    assert e.handle(line) == answer
    assert state(e) == before


def run_bytes(exe, args, data, heap=None, **extra):
    """``exe -m tanbo.gtp args`` fed ``data`` (bytes: vm.run takes text), the sources on its path,
    ``extra`` in its environment; the finished process. The path is relative to the checkout
    (its working folder): the interpreter keeps each module's path on its heap, so an absolute
    one would make a capped heap's need depend on where the checkout lies (a clone in a
    folder four letters longer than the developer's ran out at 200K)."""
    return subprocess.run(vm.command(exe, ["-m", "tanbo.gtp"] + args, heap), input=data, capture_output=True,
                          timeout=600, env=vm.environment([os.path.relpath(CORE, REPO)], **extra), cwd=REPO)


@pytest.mark.parametrize("interpreter", ["cpython", "micropython"])
def test_invalid_utf8_on_stdin_keeps_the_session(request, interpreter):
    if interpreter == "cpython":
        exe, heap = sys.executable, None
    else:
        exe, heap = request.getfixturevalue("micropython_exe"), "192K"
    # en_US.UTF-8 makes CPython's text stdin strict: the bytes must be read raw.
    for locale in ("C.UTF-8", "en_US.UTF-8"):
        proc = run_bytes(exe, [], b"name\n\xff\xfe bad\n3 play b \xe9\x80\nname\n", heap, LC_ALL=locale)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout == (b"= Tanbo\n\n? '\\xff\\xfe'%s\n\n?3 '\\xe9\\x80'%s\n\n= Tanbo\n\n"
                               % (NOT_ASCII.encode(), NOT_ASCII.encode()))


def _show_bytes(word):
    """How an answer quotes a non-ASCII word: its UTF-8 bytes, escaped."""
    return ascii(word.encode())[1:]


# Numbers on the protocol are ASCII digits: str.isdigit takes these too.
UNICODE_DIGITS = ["\u00b2", "\u0661\u0669", "\uff11\uff19", "\u0967\u096f", "1\u00b2"]


@pytest.mark.parametrize("junk,message", [
    ("boardsize 1" + "0" * 5000, "unacceptable size"),
    ("boardsize " + "9" * 5000, "unacceptable size"),
    ("boardsize -9", "boardsize: '-9' is not a number"),
    ("tanbo-movetime " + "9" * 5000, "movetime '%s...': expected milliseconds" % ("9" * 40)),
    ("tanbo-movetime 86400001", "movetime '86400001': expected milliseconds 1-86400000, or 0/none for no limit"),
] + [(command + d, _show_bytes((command + d).split()[-1]) + NOT_ASCII)
     for d in UNICODE_DIGITS for command in ("boardsize ", "tanbo-movetime ", "play b ", "play b D", "genmove ",
                                             "tanbo-rootspace ", "known_command ")],
   ids=lambda text: text[:24].encode("unicode_escape").decode())
def test_numbers_are_ascii_digits_with_our_own_message(junk, message):
    e = GtpEngine("1d" if junk.startswith("play b ") else "9x9", level="random")
    ok(e, "genmove b")
    before = state(e)
    answer = err(e, junk)
    assert answer.startswith(message) and "int()" not in answer and "internal error" not in answer
    assert state(e) == before


def test_a_unicode_digit_is_no_id():
    e = GtpEngine("9x9")
    assert e.handle("\u00b2 name") == "? '\\xc2\\xb2'%s\n\n" % NOT_ASCII
    assert e.handle("12 \u0661 name") == "?12 '\\xd9\\xa1'%s\n\n" % NOT_ASCII
    assert e.handle("0019 boardsize 0019") == "=0019 \n\n" and e.game.variant.name == "19x19"
    assert e.handle("%s name" % ("9" * 5000)) == "=%s Tanbo\n\n" % ("9" * 5000)
    ok(e, "tanbo-movetime 000")
    assert ok(e, "tanbo-movetime") == "none"


def test_parse_args_seed_is_ascii_digits():
    assert gtp.parse_args(["--seed", "007"])["seed"] == 7
    for bad in ("\u00b2", "\u0661", "-1", "9" * 5000, ""):
        with pytest.raises(ValueError, match="--seed"):
            gtp.parse_args(["--seed", bad])


def test_engine_errors_become_answers_not_crashes(monkeypatch):
    e = GtpEngine("9x9")

    def broken(self, args):
        raise KeyError("boom")

    monkeypatch.setitem(gtp._HANDLERS, "showboard", broken)
    assert e.handle("showboard") == "? internal error: KeyError: 'boom'\n\n"
    assert e.handle("name") == "= Tanbo\n\n"


def test_bad_start_options():
    for kwargs in ({"variant": "8x8"}, {"level": "genius"}, {"seed": -1}, {"movetime_ms": "soon"}):
        with pytest.raises(ValueError):
            GtpEngine(**kwargs)
    assert gtp.parse_args(["--variant", "3d", "--seed", "4", "--level", "easy", "--movetime", "50"]) == {
        "variant": "3d", "level": "easy", "seed": 4, "movetime_ms": "50"}
    for bad in (["--seed"], ["--seed", "x"], ["--colour", "b"], ["--variant", "8x8"]):
        with pytest.raises(ValueError):
            gtp.parse_args(bad)


@pytest.mark.parametrize("variant", VARIANTS)
def test_full_games_through_the_protocol_undo_to_the_start(variant):
    e = GtpEngine(variant, level="random", seed=11)
    start = ok(e, "tanbo-position")
    moves = play_out(e)
    g = Game(variant)
    for m in moves:
        g.play_move(m)
    assert g.winner == e.game.winner is not None
    assert ok(e, "tanbo-winner") == ("BW"[g.winner - 1] if g.players == 2 else str(g.winner))
    for _ in moves:
        ok(e, "undo")
    assert ok(e, "tanbo-position") == start and ok(e, "tanbo-winner") == "none"


# -- the same answers from every interpreter ------------------------------------------
def game_script(variant, seed=0):
    """Commands of a whole game at level random (to its end), plus undo, position
    round trips, showboard, the record and junk; ends with quit."""
    e = GtpEngine(variant, level="random", seed=seed)
    lines = ["# a whole %s game" % variant, "1 tanbo-variant " + variant, "2 tanbo-level random",
             "showboard", "tanbo-legal"]
    for line in lines:
        e.handle(line)
    mid = None
    while e.game.winner is None:
        line = "genmove " + COLOUR[e.game.to_move]
        lines.append(line)
        e.handle(line)
        if e.game.ply == 20:
            mid = e.game.position()
            stone = next(p for p in range(e.game.variant.size) if e.game.board[p])
            lines += ["tanbo-rootspace " + e.game.name(stone), "tanbo-legal", "showboard"]
    lines += ["tanbo-winner", "showboard", "tanbo-record", "undo", "undo", "tanbo-winner", "tanbo-legal",
              "tanbo-position", "tanbo-position " + mid, "tanbo-position", "showboard", "tanbo-record",
              "play b pass", "genmove 4", "undo", "bogus command", "play", "tanbo-position ..X/..O X",
              "tanbo-rootspace Z99", "boardsize 10", "", "   # comment", "\tname\x01",
              "tanbo-position", "99 known_command genmove", "list_commands", "protocol_version", "quit",
              "name"]
    return "\n".join(lines) + "\n"


def expected(script):
    """The answers of an in-process engine to ``script`` (up to quit)."""
    e = GtpEngine()
    out = io.StringIO()
    serve(e, io.StringIO(script), out)
    return out.getvalue()


def run_vm(exe, args, script, heap=None, path=None):
    """The output of ``exe args`` fed ``script`` (see :func:`tanbo_tools.vm.run`); it must exit 0."""
    rc, out, err = vm.run(exe, args, heap=heap, path=path, stdin=script, timeout=900, cwd=REPO)
    assert rc == 0, err[-2000:]
    return out


def assert_same(got, want, who):
    got_lines, want_lines = got.split("\n"), want.split("\n")
    for i in range(min(len(got_lines), len(want_lines))):
        if got_lines[i] != want_lines[i]:
            pytest.fail("%s differs at line %d:\n  got:  %r\n  want: %r" % (who, i + 1, got_lines[i], want_lines[i]))
    assert len(got_lines) == len(want_lines), "%s: %d lines, want %d" % (who, len(got_lines), len(want_lines))


SCRIPTS = {}


def script_for(variant):
    if variant not in SCRIPTS:
        script = game_script(variant)
        SCRIPTS[variant] = (script, expected(script))
    return SCRIPTS[variant]




def test_the_script_plays_whole_games_and_exercises_junk():
    script, want = script_for("19x19")
    assert "= B\n\n" in want or "= W\n\n" in want
    assert want.count("\n?") >= 8 and "= Tanbo\n\n" in want
    assert want.endswith("= \n\n")  # quit answered; the line after it is not read


@pytest.mark.parametrize("variant", ["19x19", "4p", "3d", "1d", "hexbo-5-3p", "hexbo-6p"])
def test_python_m_tanbo_gtp_answers_the_same(variant):
    script, want = script_for(variant)
    assert_same(run_vm(sys.executable, ["-m", "tanbo.gtp"], script), want, "python -m tanbo.gtp")


def test_console_script_answers_the_same():
    script, want = script_for("19x19")
    exe = os.path.join(BIN, "tanbo")
    exe, args = (exe, ["gtp"]) if os.path.exists(exe) else (sys.executable, ["-m", "tanbo_tools.cli", "gtp"])
    assert_same(run_vm(exe, args + ["--variant", "9x9", "--seed", "0"], script), want, "tanbo gtp")


def test_console_script_rejects_bad_options():
    proc = subprocess.run([sys.executable, "-m", "tanbo_tools.cli", "gtp", "--level", "genius"],
                          input="", capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "unknown level 'genius'" in proc.stderr


# Heaps: 96K is what the protocol must fit, as on a board. MicroPython's
# 64-bit unix port doubles every object and compiles sources on its heap, so
# it runs .mpy files, and needs 112K for the 4-player board (4 players' tables).
# Hexbo loads tanbo.hexbo and tanbo.hexbo_make (4.6 KB of this port's heap, the builder let go once a variant is made) and its tables (5.7 KB
# for side 9, where 19x19's variant takes 4.5 KB): measured, with the 19x19
# game the session starts with still cached, the smallest caps in steps of 4K
# that answer every line: hexbo-5 and hexbo-5-3p 92K, hexbo-5-6p 100K, hexbo
# 104K, hexbo-3p 108K, hexbo-6p 116K (tanbo-position keeps two 6-player games
# at once); one step of margin each.
@pytest.mark.parametrize("variant,heap", [("19x19", "96K"), ("4p", "112K"), ("3d", "96K"), ("1d", "96K"),
                                          ("hexbo-5", "96K"), ("hexbo-5-3p", "96K"), ("hexbo-5-6p", "104K"),
                                          ("hexbo", "108K"), ("hexbo-3p", "112K"), ("hexbo-6p", "120K")])
def test_micropython_answers_the_same(variant, heap, micropython_exe, mpy_core_micropython):
    script, want = script_for(variant)
    got = run_vm(micropython_exe, ["-m", "tanbo.gtp"], script, heap, [mpy_core_micropython])
    assert_same(got, want, "micropython (.mpy, heap %s)" % heap)


def test_micropython_runs_the_sources(micropython_exe):
    script, want = script_for("1d")
    got = run_vm(micropython_exe, ["-m", "tanbo.gtp"], script, "192K", [CORE])
    assert_same(got, want, "micropython (sources)")


def test_micropython_reports_bad_options(micropython_exe):
    rc, out, err = vm.run(micropython_exe, ["-m", "tanbo.gtp", "--variant", "8x8"], heap="192K", path=[CORE],
                          timeout=60)
    assert rc == 2 and "'8x8': unknown variant" in err


def test_rng_is_what_genmove_uses():
    # The fallback pick is tanbo.Rng, not random: identical on every interpreter.
    e = GtpEngine("9x9", level="random", seed=1)
    g = Game("9x9")
    assert ok(e, "genmove b") == g.name(g.legal_moves()[Rng(1).below(g.legal_count())])
