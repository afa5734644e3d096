"""The puzzle collection: every shipped entry proved, the file format, `tanbo puzzles`.

The proof (tools/tanbo_tools/puzzle_maker/puzzle_proof.py) skips moves at the last ply
that cannot change the goal; a plain full-width AND-OR search here, with
nothing skipped, must agree with it on positions of random games before
its verdicts on the collection count.
"""

import collections
import os

import pytest

from tanbo import Game, Rng
from tanbo.puzzles import (BANDS, GOAL_CHARS, KINDS, Puzzle, PuzzleBook, encode_book, entry_line, fnv1a,
                           reached, start_roots)
from tanbo_tools import board_time, vm
from tanbo_tools.puzzle_maker import puzzles as tool
from tanbo_tools.cli import main as cli_main
from tanbo_tools.puzzle_maker.puzzle_lessons import LESSONS
from tanbo_tools.puzzle_maker.puzzle_mine import symmetry_key
from tanbo_tools.puzzle_maker.puzzle_proof import Proof, first_moves

SHIPPED = tool.DEFAULT_FILE


@pytest.fixture(scope="module")
def shipped():
    with PuzzleBook(SHIPPED) as book:
        return [book.load(i) for i in range(len(book))]


# -- the oracle -------------------------------------------------------------------

def plain_solutions(game, kind, plies):
    """First moves forcing ``kind`` within ``plies``: every legal move at every ply."""
    k = game.to_move
    start = start_roots(game)

    def settled(g):
        if kind == "save":
            if g.root_count[k] < start[1]:
                return False
            return True if g.winner == k else None
        if reached(kind, k, start, g):
            return True
        return False if g.over else None

    def forced(g, left):
        s = settled(g)
        if s is not None:
            return s
        if left == 0:
            return kind == "save"
        results = []
        for m in g.legal_moves():
            g.play(m)
            results.append(forced(g, left - 1))
            g.undo()
        return any(results) if g.to_move == k else all(results)

    out = []
    for m in game.legal_moves():
        game.play(m)
        if forced(game, plies - 1):
            out.append(m)
        game.undo()
    return out


def random_positions(variant, seed, count, first=8):
    rng = Rng(seed)
    g = Game(variant)
    out = []
    while not g.over and len(out) < count:
        if g.ply >= first and rng.below(3) == 0:
            out.append(g.position())
        g.play(g.legal_move_at(rng.below(g.legal_count())))
    return out


@pytest.mark.parametrize("variant,seed", [("9x9", 1), ("9x9", 2), ("dense-7", 3), ("13x13", 4)])
def test_the_proof_agrees_with_a_plain_full_width_search(variant, seed):
    tried = collections.Counter()
    for pos in random_positions(variant, seed, 12):
        g = Game.from_position(pos)
        opp = 3 - g.to_move
        for kind, plies in (("remove", 1), ("save", 2), ("win", 1), ("remove", 3), ("win", 3)):
            if plies == 3 and g.legal_count() > 14:
                continue  # the plain search is slow there; smaller positions cover the depth
            if kind == "win" and g.root_count[opp] > 1 and plies == 1:
                continue
            expected = plain_solutions(g, kind, plies)
            assert first_moves(g, kind, plies) == expected, (pos, kind, plies)
            tried[kind, plies, bool(expected)] += 1
    assert tried  # and the positions were not all empty of goals:
    assert sum(n for (_, _, some), n in tried.items() if some) > 0, tried


def test_the_plain_search_also_finds_one_answer_to_shipped_puzzles(shipped):
    # every puzzle of up to two plies, every 8th of three (the plain search is slower there)
    tried = 0
    for p in shipped:
        if p.plies <= 2 or p.number % 8 == 0:
            assert plain_solutions(p.game(), p.kind, p.plies) == [p.line[0]], p.number
            tried += 1
    assert tried > 150


# -- the collection -----------------------------------------------------------------

def test_every_shipped_entry_is_proved(shipped):
    # exactly one first move forces the goal (full width), no first move
    # forces a taking goal sooner, the line is legal and reaches the goal
    bad = []
    for p in shipped:
        why = tool.check_puzzle(p)
        if why:
            bad.append("entry %d: %s" % (p.number, why))
    assert not bad, bad


def test_the_collection_has_lessons_first_then_three_bands(shipped):
    bands = collections.Counter(p.band for p in shipped)
    lessons = bands[0]
    assert 6 <= lessons <= 10
    assert [p.band for p in shipped[:lessons]] == [0] * lessons
    assert all(p.why for p in shipped[:lessons])
    mined = shipped[lessons:]
    assert len(mined) >= 200
    assert all(bands[b] >= 30 for b in (1, 2, 3)), bands
    assert [p.band for p in mined] == sorted(p.band for p in mined)  # easy, medium, hard
    assert {p.kind for p in mined} >= {"remove", "save", "win"}
    assert collections.Counter(p.variant for p in mined).most_common(1)[0][0] == "9x9"
    for p in shipped:
        assert p.kind in KINDS and len(p.goal) <= GOAL_CHARS
        assert p.game().legal_count() >= (1 if p.band == 0 else 6), p.number


def test_no_two_entries_are_the_same_position_under_symmetry(shipped):
    keys = collections.Counter(symmetry_key(p.position) for p in shipped)
    assert max(keys.values()) == 1, [k for k, n in keys.items() if n > 1]


def test_symmetry_key_is_the_same_for_rotations_mirrors_and_swapped_colours():
    pos = "X....../.O...../......./......./......./......./......X X"
    rows = pos.split()[0].split("/")
    turned = "/".join("".join(rows[6 - x][y] for x in range(7)) for y in range(7)) + " X"
    mirrored = "/".join(r[::-1] for r in rows) + " X"
    swapped = pos.replace("X", "x").replace("O", "X").replace("x", "O")
    assert symmetry_key(pos) == symmetry_key(turned) == symmetry_key(mirrored) == symmetry_key(swapped)
    assert symmetry_key(pos) != symmetry_key(pos[:-1] + "O")


def test_the_lessons_teach_their_rules(shipped):
    lessons = [p for p in shipped if p.band == 0]
    assert [(p.kind, p.plies, p.position) for p in lessons] == [(k, n, pos) for k, n, pos, _, _ in LESSONS]
    # 1: a stone touches exactly one of yours: the position has one legal move
    g = lessons[0].game()
    assert g.legal_moves() == lessons[0].line
    assert g.why_illegal(g.point("A6")).endswith("(a new stone must touch exactly one)")
    # 4: the tempting fill bounds the player's own root, which alone goes
    g = lessons[3].game()
    g.play(g.point("A2"))
    assert (g.root_count[1], g.root_count[2]) == (2, 3)
    assert lessons[3].wrong(g) == "No: only your root went"
    # 5: the answer bounds a White root and a Black one; both go at once
    g = lessons[4].game()
    g.play(lessons[4].line[0])
    assert (g.root_count[1], g.root_count[2]) == (1, 1)
    # 7: taking the last root wins
    g = lessons[6].game()
    g.play(lessons[6].line[0])
    assert g.winner == 1


def test_wrong_moves_are_told_by_the_goal():
    def after(lesson, move):
        kind, plies, pos, goal, why = LESSONS[lesson]
        g = Game.from_position(pos)
        p = Puzzle(1, 0, kind, g.variant.name, pos, [0] * plies, goal, why)
        g.play(g.point(move))
        return p.wrong(g)

    assert after(2, "C7") == "No: White root has space"
    assert after(3, "A2") == "No: only your root went"
    assert after(1, "F3") == "No: White still attacks"
    assert after(5, "C3") == "No: White can defend"


def test_the_player_is_judged_by_the_line_then_by_the_goal(shipped):
    p = shipped[5]  # D4 C4 E4: the double threat
    g = p.game()
    g.play(g.point("C3"))
    assert not p.accepts(g) and p.wrong(g) == "No: White can defend"
    g.undo()
    g.play(g.point("D4"))
    assert p.accepts(g)
    g.play(p.line[1])  # the defender's reply, as the handheld plays it
    g.play(g.point("A2"))
    assert not p.accepts(g) and p.wrong(g) == "No: White root has space"
    g.undo()
    g.play(g.point("E4"))
    assert p.accepts(g) and p.achieved(g)
    # at the last ply any move that reaches the goal is right, not only the line's
    for q in shipped[7:]:
        if q.plies == 3:
            g = q.game()
            g.play(q.line[0])
            g.play(q.line[1])
            for m in g.legal_moves():
                g.play(m)
                assert q.accepts(g) == q.achieved(g), (q.number, g.name(m))
                g.undo()


# -- the file format ------------------------------------------------------------------

def test_the_format_round_trips(tmp_path, shipped):
    path = tmp_path / "p.txt"
    path.write_bytes(encode_book(shipped))
    assert path.read_bytes() == open(SHIPPED, "rb").read()
    with PuzzleBook(str(path)) as book:
        again = [book.load(i) for i in range(len(book))]
    assert [entry_line(p) for p in again] == [entry_line(p) for p in shipped]
    assert [(p.number, p.band, p.kind, p.line, p.goal, p.why) for p in again] == \
        [(p.number, p.band, p.kind, p.line, p.goal, p.why) for p in shipped]


def _write(tmp_path, data):
    path = tmp_path / "bad.txt"
    path.write_bytes(data)
    return str(path)


def _sample_bytes():
    kind, plies, pos, goal, why = LESSONS[2]
    g = Game.from_position(pos)
    return encode_book([Puzzle(1, 0, kind, g.variant.name, pos, [g.point("A6")], goal, why)])


@pytest.mark.parametrize("change,words", [
    (lambda b: b"PK\x03\x04" + b[4:], "no puzzle collection"),
    (lambda b: b[:14] + b"2" + b[15:], "format version 2"),
    (lambda b: b[:16] + b"00x1" + b[20:], "count '00x1'"),
    (lambda b: b[:16] + b"0099" + b[20:], "too short for the index of 99"),
    (lambda b: b[:21] + b"0123456g" + b[29:], "identity '0123456g' is not 8 hex digits"),
    (lambda b: b[:20] + b[29:], "COUNT IDENT' in 30 bytes"),
    (lambda b: b[:30] + b"99999\n\n" + b[37:], "index cell 0"),
    (lambda b: b[:30] + b"000001\n" + b[37:], "entry 1 starts at byte 1"),
    (lambda b: b[:-1], "no end of line"),
    (lambda b: b.replace(b"lesson|", b"lessen|"), "band 'lessen'"),
    (lambda b: b.replace(b"|remove|", b"|steal|"), "kind 'steal'"),
    (lambda b: b.replace(b"|1|dense-7", b"|2|dense-7"), "plies '2', but the line has 1"),
    (lambda b: b.replace(b"|1|dense-7", "|\u0661|dense-7".encode()), "plies '\u0661'"),  # ASCII digits only
    (lambda b: b.replace(b"|A6|", b"|A9|"), "'A9': not on the dense-7 board"),
    (lambda b: b.replace(b"Remove a White root", b"Remove a White root!"), "1-19 characters"),
    (lambda b: b.replace(b"A root with no root space is removed", b""), "a lesson needs its why"),
    (lambda b: b.replace(b" X|A6", b"|A6"), "side to move"),
    (lambda b: b.replace(b"|A6|", b"|A6|x|"), "9 fields"),
])
def test_a_malformed_file_is_refused_naming_it_and_the_problem(tmp_path, change, words):
    path = _write(tmp_path, change(_sample_bytes()))
    with pytest.raises(ValueError) as err:
        with PuzzleBook(path) as book:
            book.load(0)
    assert str(err.value).startswith(path + ": ") and words in str(err.value)


def test_loading_a_bad_number_is_an_index_error(tmp_path):
    with PuzzleBook(_write(tmp_path, _sample_bytes())) as book:
        assert len(book) == 1
        for n in (-1, 1, "0", None):
            with pytest.raises(IndexError):
                book.load(n)


def test_the_identity_is_the_hash_of_the_index_and_entries(shipped):
    data = open(SHIPPED, "rb").read()
    with PuzzleBook(SHIPPED) as book:
        assert book.ident == "%08x" % fnv1a(data[30:])
    kind, plies, pos, goal, why = LESSONS[2]
    one = Puzzle(1, 0, kind, "dense-7", pos, [8], goal, why)
    other = Puzzle(1, 0, kind, "dense-7", pos, [8], goal, why + ".")
    assert encode_book([one])[21:29] != encode_book([other])[21:29]
    assert fnv1a(b"") == 0x811C9DC5 and fnv1a(b"a") == 0xE40C292C  # the published FNV-1a values


def test_an_empty_collection_opens_and_has_nothing_to_load(tmp_path):
    with PuzzleBook(_write(tmp_path, encode_book([]))) as book:
        assert len(book) == 0
        with pytest.raises(IndexError, match="the collection is empty"):
            book.load(0)


def test_the_writer_refuses_what_would_not_read_back():
    kind, plies, pos, goal, why = LESSONS[2]
    for bad in (dict(goal="a|b"), dict(goal="x" * 20), dict(why="y" * 39), dict(why="two\nlines")):
        fields = dict(goal=goal, why=why)
        fields.update(bad)
        with pytest.raises(ValueError):
            encode_book([Puzzle(1, 0, kind, "dense-7", pos, [8], fields["goal"], fields["why"])])


def test_a_book_reads_one_entry_at_a_time(tmp_path, shipped):
    # loading entry n reads its index cell and its line, not the file
    class Counting:
        def __init__(self, f):
            self.f, self.read_bytes = f, 0

        def read(self, n=-1):
            data = self.f.read(n)
            self.read_bytes += len(data)
            return data

        def readline(self, n=-1):
            data = self.f.readline(n)
            self.read_bytes += len(data)
            return data

        def seek(self, *a):
            return self.f.seek(*a)

        def close(self):
            self.f.close()

    book = PuzzleBook(SHIPPED)
    book._f = Counting(book._f)
    p = book.load(len(book) - 1)
    assert book._f.read_bytes == 7 + len(entry_line(p)) + 1 < 300
    book.close()
    assert os.path.getsize(SHIPPED) > 20000


# -- the command -------------------------------------------------------------------------

def _parse_show(text):
    headers = {}
    for line in text.splitlines():
        if line.startswith("Moves:"):
            break
        key, _, value = line.partition(": ")
        headers[key] = value
    return headers


def test_show_prints_a_record_the_engine_reads_back_with_its_goal(capsys, shipped):
    assert cli_main(["puzzles", "--show", "all"]) == 0
    out = capsys.readouterr().out
    records = out.split("\n\n")
    assert len(records) == len(shipped)
    for text, p in zip(records, shipped):
        end = Game.from_record(text)  # the line replays
        headers = _parse_show(text)
        kind, plies, goal = headers["Goal"].split(" ", 2)
        assert (kind, int(plies), goal) == (p.kind, p.plies, p.goal)
        start = Game.from_position(headers["Position"], headers["Variant"])
        assert end.moves() == p.line and start.position() == p.position
        if p.plies <= 2 or p.number % 10 == 0:  # the goal re-checked from the record alone
            assert first_moves(start, kind, int(plies)) == [end.moves()[0]]
            assert reached(kind, start.to_move, start_roots(start), end)


def test_show_refuses_a_bad_number(capsys, shipped):
    for bad in ("0", str(len(shipped) + 1), "x", "-1"):
        assert cli_main(["puzzles", "--show", bad]) == 1
        assert "--show %r: expected 'all' or an entry from 1 to %d" % (bad, len(shipped)) in capsys.readouterr().err
    assert cli_main(["puzzles", "--show", "1", "--file", "/nonexistent/p.txt"]) == 1
    assert "/nonexistent/p.txt" in capsys.readouterr().err


def test_check_finds_a_puzzle_with_a_second_answer(tmp_path, capsys):
    kind, plies, pos, goal, why = LESSONS[2]
    g = Game.from_position(pos)
    good = Puzzle(1, 0, kind, "dense-7", pos, [g.point("A6")], goal, why)
    wrong = Puzzle(2, 1, kind, "dense-7", pos, [g.point("C7")], goal, "")
    path = _write(tmp_path, encode_book([good, wrong]))
    assert cli_main(["puzzles", "--check", "--file", path]) == 1
    err = capsys.readouterr().err
    assert "entry 2: the first moves that work are A6, not only C7" in err and "entry 1" not in err


def test_generation_is_deterministic_and_mines_sound_puzzles(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    assert cli_main(["puzzles", "--count", "8", "--seed", "5", "--out", str(a), "--quiet"]) == 0
    assert cli_main(["puzzles", "--count", "8", "--seed", "5", "--out", str(b), "--quiet"]) == 0
    assert a.read_bytes() == b.read_bytes()
    with PuzzleBook(str(a)) as book:
        entries = [book.load(i) for i in range(len(book))]
    assert len(entries) == len(LESSONS) + 8
    assert {p.variant for p in entries[len(LESSONS):]} == {"9x9", "13x13", "dense-7", "dense-11"}
    for p in entries:
        assert tool.check_puzzle(p) is None, p.number


def test_quotas_add_up():
    for n in (1, 7, 8, 240, 2000):
        q = tool.quotas(n)
        assert sum(k for _, k in q) == n and q[0][0] == "9x9"


def test_proof_counts_nodes_and_refuses_a_negative_length():
    g = Game.from_position(LESSONS[5][2])
    p = Proof(g, "remove", 3)
    assert p.solutions() == [g.point("D4")] and p.nodes >= g.legal_count()
    with pytest.raises(ValueError):
        Proof(g, "remove", -1)


def test_bands_name_the_levels():
    assert BANDS == ("lesson", "easy", "medium", "hard")


# -- board costs ---------------------------------------------------------------------------

WORKLOAD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "subset", "workloads",
                        "puzzles_board_time.py")
CORE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "core")


@pytest.mark.skipif(board_time.unavailable() is not None, reason="board time: %s" % board_time.unavailable())
def test_opening_a_puzzle_takes_under_half_a_second_of_board_time():
    # a unit: open the file, read an entry, build its Game, close; the
    # first unit pays the imports' one-time costs too and is left out
    counts, _ = board_time.count_units(WORKLOAD, 5, [CORE])
    worst = max(board_time.estimate(c)["rp2040_ms"] for c in counts[1:])
    assert len(counts) == 5 and worst <= 500, counts


def test_an_open_puzzle_holds_a_few_kilobytes_of_micropython_heap(micropython_exe):
    rc, out, err = vm.run(micropython_exe, [WORKLOAD, "--heap"], heap="1M", path=[CORE])
    held = [int(line.split()[-1]) for line in out.splitlines() if "heap bytes held" in line]
    assert rc == 0 and len(held) == 4, out + err
    assert max(held[1:]) < 9000, held  # a 9x9, a 13x13 and a dense-11 puzzle with their Games


def test_the_bundle_ships_the_collection_beside_the_app():
    from tanbo_tools.ship import bundle
    from tanbo_tools.ship.boards import BOARDS
    repo = os.path.dirname(CORE)
    for board in BOARDS.values():
        pairs, _ = bundle.select_sources(board, os.path.join(repo, "device"), CORE)
        assert ("lib/app/puzzles.txt", SHIPPED) in pairs, board.name
