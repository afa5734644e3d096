"""The opening book: ``tanbo book`` writes it, :mod:`tanbo.book` reads it, hard plays from it."""

import argparse
import os
import subprocess
import sys

import pytest

from tanbo import Game, ai, book
from tanbo.position import format_position
from tanbo_tools.lab import book as book_tool
from tanbo_tools import cli
from tanbo_tools.lab import match

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHIPPED = os.path.join(REPO, "device", "app", "book.txt")
SMALL = ("--plies", "4", "--replies", "3", "--depth", "6", "--nodes", "20000")


def run_tool(capsys, *argv):
    """``(exit status, stdout, stderr)`` of ``tanbo book ARGV`` (argparse's refusals: status 2)."""
    try:
        rc = cli.main(["book"] + list(argv))
    except SystemExit as exc:
        rc = exc.code
    return (rc,) + tuple(capsys.readouterr())


@pytest.fixture(scope="module")
def small_book(tmp_path_factory):
    """A small 9x9 and 13x13 book (a second or two), written by the tool."""
    path = str(tmp_path_factory.mktemp("book") / "book.txt")
    parser = argparse.ArgumentParser()
    book_tool.add_arguments(parser)
    args = parser.parse_args(["--variant", "9x9", "--variant", "13x13", "--plies", "3", "--replies", "3",
                              "--depth", "6", "--nodes", "20000", "--out", path])
    assert book_tool.run(args) == 0
    return path


def entries(path):
    """``(variant, position text, move text)`` of every entry of the book at ``path``."""
    with open(path) as f:
        lines = f.read().splitlines()[1:]
    out = []
    for line in lines:
        key, move = line.rsplit(" ", 1)
        variant, position = key.split(" ", 1)
        out.append((variant, position, move))
    return out


def symmetric_images(game):
    """``game``'s position under each symmetry ``t``: ``(t, game)``."""
    v = game.variant
    for t in range(book.images(v)):
        board = bytearray(v.size)
        for p in range(v.size):
            board[book.image(v, t, p)] = game.board[p]
        yield t, Game.from_position(format_position(v, board, game.to_move), v.name)


def test_every_entry_is_legal_and_found_in_every_symmetric_image(small_book):
    seen = set()
    for variant, position, move in entries(small_book):
        g = Game.from_position(position, variant)
        v = g.variant
        point = v.parse_point(move)
        assert g.is_legal(point), (position, move)
        assert book.lookup(small_book, g) == point
        images = list(symmetric_images(g))
        # a position that a symmetry maps onto itself may get an equally good image of the move
        symmetric = any(t and image.position() == g.position() for t, image in images)
        for t, image in images:
            found = book.lookup(small_book, image)
            assert found is not None and image.is_legal(found)
            assert found == book.image(v, t, point) or symmetric
        seen.add(variant)
    assert seen == {"9x9", "13x13"}
    # 8 symmetries on a square board, 4 on a rectangle, 2 on a line, 1 in 3D
    assert [book.images(Game(n).variant) for n in ("9x9", "1d", "3d")] == [8, 2, 1]


def test_the_book_answers_the_setup_as_the_deep_search_does(small_book):
    g = Game("9x9")
    with book_tool.deep_level(6, 20000) as level:
        deep = ai.Search(g, level, 0, slowness=1.0).run()
    assert book.lookup(small_book, g) == deep
    assert book_tool.DEEP not in ai.LEVEL_TABLE  # the level lasts the block only


def test_a_position_not_in_the_book_has_no_move(small_book):
    g = Game("9x9")
    for _ in range(5):  # past the small book's 3 plies
        g.play(g.legal_moves()[-1])
    assert book.lookup(small_book, g) is None
    assert book.lookup(small_book, Game("19x19")) is None  # a variant it does not cover


def test_the_same_options_write_the_same_book_whatever_the_jobs(tmp_path, capsys):
    one, two = str(tmp_path / "one.txt"), str(tmp_path / "two.txt")
    assert run_tool(capsys, *SMALL, "--out", one)[0] == 0
    rc, out, _ = run_tool(capsys, *SMALL, "--out", two, "--jobs", "2")
    assert rc == 0 and "entries" in out and "CPU-s" in out
    with open(one, "rb") as a, open(two, "rb") as b:
        data = a.read()
        assert data == b.read()
    assert data.startswith(b"TANBO-BOOK 1 tanbo book --variant 9x9 --plies 4 --replies 3 --depth 6 --nodes 20000\n")
    body = data.splitlines()[1:]
    assert body == sorted(body) and len(body) > 10


@pytest.mark.parametrize("argv, message", [
    (("--variant", "4p"), "--variant 4p: a book covers 2-player variants only"),
    (("--variant", "8x8"), "'8x8': unknown variant"),
    (("--plies", "9"), "--plies: '9': expected a whole number of plies from 1 to 8"),
    (("--plies", "0"), "--plies: '0': expected a whole number of plies from 1 to 8"),
    (("--replies", "0"), "--replies: '0': expected a whole number of replies from 1 to 400"),
    (("--depth", "21"), "--depth: '21': expected a whole number of plies from 2 to 20"),
    (("--nodes", "10"), "--nodes: '10': expected a whole number of nodes from 100 to 1000000000"),
    (("--jobs", "0"), "--jobs: '0': expected a whole number of processes from 1 to 256"),
])
def test_bad_options_are_refused_before_searching(tmp_path, capsys, argv, message):
    out = tmp_path / "b.txt"
    rc, _, err = run_tool(capsys, *argv, "--out", str(out))
    assert rc == 2 and message in err and not out.exists()


def corrupt(tmp_path, small_book, how):
    """A copy of ``small_book`` with the setup's entry (9x9) spoilt by ``how(line) -> line``."""
    with open(small_book) as f:
        lines = f.read().split("\n")
    key = "9x9 " + Game("9x9").position()
    for i, line in enumerate(lines):
        if line.startswith(key + " "):
            lines[i] = how(line)
    path = tmp_path / "bad.txt"
    path.write_text("\n".join(lines))
    return str(path)


@pytest.mark.parametrize("how, message", [
    (lambda line: line.rsplit(" ", 1)[0] + " Z99", "the entry of 9x9 ........./.O.....X./"),
    (lambda line: line.rsplit(" ", 1)[0] + " E5", "plays E5, not a legal move there"),
    (lambda line: line.rsplit(" ", 1)[0] + " " + "x" * 500, "has no end within 420 bytes"),
])
def test_a_corrupt_entry_is_refused_and_the_search_goes_on(tmp_path, small_book, how, message):
    bad = corrupt(tmp_path, small_book, how)
    g = Game("9x9")
    with pytest.raises(ValueError) as e:
        book.lookup(bad, g)
    assert message in str(e.value) and bad in str(e.value)
    s = ai.Search(g, "hard", 0)
    s.book = bad
    plain = ai.choose_move(g, "hard", 0)
    assert s.run() == plain  # hard's own move: the book refused
    assert message in s.book_error and s.book is None
    assert "tanbo.book" not in sys.modules


def test_a_file_that_is_no_book_is_refused(tmp_path):
    path = tmp_path / "x.txt"
    path.write_text("9x9 ........./ X C2\n")
    with pytest.raises(ValueError, match="no opening book"):
        book.lookup(str(path), Game("9x9"))
    s = ai.Search(Game("9x9"), "hard", 0)
    s.book = str(tmp_path / "missing.txt")
    assert s.run() == ai.choose_move(Game("9x9"), "hard", 0)
    assert "missing.txt" in s.book_error


def test_hard_plays_the_books_move_and_other_levels_ignore_it(tmp_path):
    # A one-entry book whose move hard would not play: hard plays it, medium does not look.
    g = Game("9x9")
    key, t = book.canonical(g)
    own = ai.choose_move(g, "hard", 0)
    other = [m for m in g.legal_moves() if m != own and book.image(g.variant, t, m) != book.image(g.variant, t, own)]
    pick = other[0]
    path = tmp_path / "one.txt"
    path.write_bytes(book.MAGIC + b" test\n" + key + b" " + g.variant.format_point(
        book.image(g.variant, t, pick)).encode() + b"\n")
    s = ai.Search(g, "hard", 0)
    s.book = str(path)
    assert s.run() == pick and s.book_error is None
    assert "tanbo.book" not in sys.modules  # loaded for the lookup, dropped after it
    m = ai.Search(g, "medium", 0)
    m.book = str(path)
    assert m.run() == ai.choose_move(g, "medium", 0)
    # past BOOK_PLIES hard does not open the book at all (here: a missing file, no error)
    late = Game("9x9")
    for _ in range(ai.BOOK_PLIES):
        late.play(late.legal_moves()[0])
    s = ai.Search(late, "hard", 0)
    s.book = str(tmp_path / "missing.txt")
    s.run()
    assert s.book_error is None


def test_a_match_gives_as_hard_its_book(tmp_path, small_book, capsys):
    rec = tmp_path / "rec"
    rc = match.run(_match_args("hard", "easy", "--games", "2", "--book", small_book, "--record", str(rec)))
    assert rc == 0, capsys.readouterr().err
    first = Game.from_record((rec / "game-001.txt").read_text()).moves()[0]
    assert first == book.lookup(small_book, Game("9x9"))


def _match_args(*argv):
    parser = argparse.ArgumentParser()
    match.add_arguments(parser)
    return parser.parse_args(list(argv))


def test_a_match_refuses_a_missing_or_wrong_book(tmp_path, capsys):
    wrong = tmp_path / "w.txt"
    wrong.write_text("hello\n")
    for path, message in ((str(tmp_path / "none.txt"), "no such file"), (str(wrong), "no opening book")):
        rc = match.run(_match_args("hard", "easy", "--book", path))
        out, err = capsys.readouterr()
        assert rc == 2 and "--book %r" % path in err and message in err and out == ""


def test_the_reader_runs_on_micropython_and_leaves_no_module(micropython_exe, small_book):
    # As a board runs it: the symmetric images of a 9x9 entry found, the module dropped after play().
    script = """
import sys
from tanbo import Game, ai
g = Game("9x9")
s = ai.Search(g, "hard", 0)
s.book = %r
m = s.run()
assert "tanbo.book" not in sys.modules, "kept"
import tanbo
assert not hasattr(tanbo, "book")
from tanbo import book
assert book.lookup(%r, g) == m
print("ok", g.variant.format_point(m))
""" % (small_book, small_book)
    # From source, compiled on the port's heap: the merged round's tanbo.ai
    # and tanbo.game need 210K to import so (200K failed for a 4,688 B block);
    # a board's .mpy heap is the build's check (tanbo_tools.ship.verify, 116K).
    proc = subprocess.run([micropython_exe, "-X", "heapsize=240K", "-c", script], capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, MICROPYPATH=os.path.join(REPO, "core")))
    assert proc.returncode == 0 and proc.stdout.startswith("ok"), proc.stdout + proc.stderr
    assert proc.stdout.split()[1] == Game("9x9").variant.format_point(book.lookup(small_book, Game("9x9")))


@pytest.mark.skipif(not os.path.exists(SHIPPED), reason="no book in the bundle (see docs/ai.md, Opening book)")
def test_the_shipped_book_reads_back():
    for variant, position, move in entries(SHIPPED):
        g = Game.from_position(position, variant)
        assert book.lookup(SHIPPED, g) == g.variant.parse_point(move)


# -- issue 34, item 7: a match checks its book whole before the first game ------------------------

def spoilt(tmp_path, small_book, how):
    """``(path, line number)``: ``small_book`` with the setup's 9x9 entry (bytes) spoilt by ``how``."""
    lines = open(small_book, "rb").read().split(b"\n")
    key = ("9x9 " + Game("9x9").position() + " ").encode()
    number = next(i for i, line in enumerate(lines) if line.startswith(key))
    lines[number] = how(lines[number])
    path = tmp_path / "bad.txt"
    path.write_bytes(b"\n".join(lines))
    return str(path), number + 1


def _move(word):
    return lambda line: line.rsplit(b" ", 1)[0] + b" " + word


@pytest.mark.parametrize("how, words", [
    (lambda line: line[:-2] + b"\xff\xfe", "not UTF-8 text (byte"),
    (_move(b"Z99"), "'Z99': not on the 9x9 board"),
    (_move(b"E5"), "'E5' is not a legal move there"),
    (_move(b"x" * 500), "a book line at most 420"),
    (lambda line: line.replace(b"9x9", b"4p", 1), "4p"),
    (lambda line: line.replace(b" X ", b" Q ", 1), "Q"),
    (lambda line: line.replace(b".", b"X", 1), "not in the book's form"),
    (lambda line: line + b"\n" + line, "the entry of a position the line before has"),
])
def test_a_match_refuses_a_book_with_a_bad_entry_before_the_first_game(tmp_path, small_book, capsys, how, words):
    bad, number = spoilt(tmp_path, small_book, how)
    rec = tmp_path / "rec"
    rc = match.run(_match_args("hard", "easy", "--games", "1", "--book", bad, "--record", str(rec)))
    out, err = capsys.readouterr()
    assert rc == 2 and out == "" and not rec.exists(), err
    assert len(err.splitlines()) == 1 and words in err, err
    assert err.startswith("tanbo match: --book %r line %d: " % (bad, number + words.startswith("the entry"))), err


def test_a_match_refuses_a_book_out_of_order(tmp_path, small_book, capsys):
    lines = open(small_book, "rb").read().split(b"\n")
    lines[2], lines[3] = lines[3], lines[2]
    path = tmp_path / "unsorted.txt"
    path.write_bytes(b"\n".join(lines))
    rc = match.run(_match_args("hard", "easy", "--games", "1", "--book", str(path)))
    err = capsys.readouterr().err
    assert rc == 2 and err == "tanbo match: --book %r line 4: out of order (entries are sorted)\n" % str(path)


def test_a_book_cut_short_is_refused(tmp_path, small_book, capsys):
    data = open(small_book, "rb").read()
    path = tmp_path / "cut.txt"
    path.write_bytes(data[:len(data) // 2])
    rc = match.run(_match_args("hard", "easy", "--games", "1", "--book", str(path)))
    err = capsys.readouterr().err
    assert rc == 2 and "cut short" in err and "--book %r line " % str(path) in err, err


def test_the_books_own_check_takes_every_book_it_writes(small_book):
    assert book_tool.check_file(small_book) == len(entries(small_book))


def test_a_variant_given_twice_is_refused_before_searching(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(book_tool, "best_move", lambda task: pytest.fail("searched"))
    out = tmp_path / "b.txt"
    rc, _, err = run_tool(capsys, *(["--variant", "9x9"] * 40), "--out", str(out))
    assert rc == 2 and "--variant 9x9: given twice" in err and not out.exists()
    # the header's length is checked with the options, not after the searches
    with pytest.raises(ValueError, match="the header takes 433 bytes, a book line at most 420"):
        book_tool.head_line("x" * 419)
