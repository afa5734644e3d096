"""The shipped puzzle collection read as a board reads it, in the MicroPython subset.

Run by tests/subset/run.py on CPython and the MicroPython unix port (heap
capped): entries come off the file one at a time; every lesson and a
sample of the puzzles is played through its line to its goal, and for the
one-move ones every other first move is tried and fails (the whole proof,
full width, is tests/test_puzzles.py's, on CPython). A broken file is
refused with its name in the message.
"""

import gc

import tanbo.position  # loaded first: a module loaded mid-test fragments the heap
from tanbo.puzzles import BANDS, GOAL_CHARS, KINDS, PuzzleBook


def _here():
    path = globals().get("__file__") or ""
    path = path.replace("\\", "/")
    i = path.rfind("/")
    return path[:i] if i > 0 else "."


FILE = _here() + "/../../device/app/puzzles.txt"
SAMPLE = 23  # every SAMPLE-th puzzle after the lessons


def _sample(book):
    out = []
    n = len(book)
    for i in range(n):
        p = book.load(i)
        if p.band == 0 or i % SAMPLE == 0 or i == n - 1:
            out.append(i)
    return out


def _one_move_is_unique(p):
    g = p.game()
    first = p.line[0]
    for m in g.legal_moves():
        g.play(m)
        ok = p.achieved(g)
        g.undo()
        assert ok == (m == first), (p.number, g.name(m))


def test_entries_play_to_their_goals():
    book = PuzzleBook(FILE)
    try:
        assert len(book) >= 200
        lessons = 0
        for i in _sample(book):
            p = book.load(i)
            assert p.number == i + 1 and p.kind in KINDS and 0 <= p.band < len(BANDS)
            assert p.plies == len(p.line) and 0 < len(p.goal) <= GOAL_CHARS
            if p.band == 0:
                lessons += 1
                assert i == lessons - 1 and p.why  # lessons first, each with its why
            g = p.game()
            for m in p.line:
                assert g.is_legal(m), (p.number, g.name(m))
                g.play(m)
            assert p.achieved(g), p.number
            if p.plies == 1 and p.kind != "legal":
                _one_move_is_unique(p)
            g = p = None
            gc.collect()
        assert 6 <= lessons <= 10
    finally:
        book.close()


def test_a_wrong_move_is_told_briefly():
    book = PuzzleBook(FILE)
    try:
        for i in range(len(book)):
            p = book.load(i)
            if p.band != 0 or p.kind == "legal":
                continue
            g = p.game()
            for m in g.legal_moves():
                if m != p.line[0]:
                    g.play(m)
                    text = p.wrong(g)
                    assert text.startswith("No: ") and len(text) <= 24, text
                    g.undo()
                    break
    finally:
        book.close()


def _refused(data, words):
    path = "/tmp/tanbo-check-puzzles.txt"
    with open(path, "wb") as f:
        f.write(data)
    try:
        book = PuzzleBook(path)
        book.load(0)
        book.close()
    except ValueError as exc:
        text = str(exc)
        assert text.startswith(path) and words in text, text
        return
    assert False, "accepted %r" % data[:30]


def test_a_broken_file_is_refused():
    with open(FILE, "rb") as f:
        head = f.read(4000)  # the header, the index and a few entries
    _refused(b"hello\n", "no puzzle collection")
    _refused(head[:14] + b"9" + head[15:], "format version")
    _refused(head[:30], "too short")
    _refused(head[:30] + b"00000x\n" + head[37:], "index cell 0")


def test_an_entry_out_of_range_is_an_index_error():
    book = PuzzleBook(FILE)
    try:
        for n in (-1, len(book)):
            try:
                book.load(n)
            except IndexError:
                continue
            assert False, n
    finally:
        book.close()
