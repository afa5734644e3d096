"""Puzzles and lessons: a collection file read one entry at a time.

The file (``device/app/puzzles.txt``, docs/puzzles.md) is text, so any
editor shows it, laid out so a board can seek to one entry without
reading the others::

    TANBO-PUZZLES 1 0213 5c1e09a7\\n the magic, the format version, the count,
                                    the collection's identity (see below)
    000241\\n 000330\\n ...           the index: the byte offset of each entry
    lesson|legal|1|dense-7|<position text>|C4|Grow your root|Why...\\n
    ...

An entry is one line of eight fields separated by ``|``: band (one of
:data:`BANDS`), kind (one of :data:`KINDS`), plies (the length of the
line), variant, position text with the side to move (RULES.md), the line
in notation (the player's move, the defender's reply, ...), the goal the
player reads (at most :data:`GOAL_CHARS` characters) and the "why" shown
after solving (at most :data:`WHY_CHARS`; lessons have one, mined puzzles
may leave it empty).

Opening a book reads the 30-byte header; :meth:`PuzzleBook.load` reads
one index cell and one line: a board never holds more than one entry.
The identity (:attr:`PuzzleBook.ident`) is the 32-bit FNV-1a hash of the
bytes after the header, in hex: a save that keeps progress by entry
number can tell a different collection from the one it was made with.

The goal kinds (the side to move is "the player", every other colour
"the defender"; a goal counts roots, which are never created, so it is
reached at the end of the line if it is reached at all):

- ``remove``: the defender has fewer roots.
- ``double``: the defender has at least two roots fewer (lessons).
- ``win``: the defender has no stones left.
- ``save``: the player still has every root it had.
- ``legal``: any legal move (lessons: the position has exactly one).
"""

from .game import Game, get_variant
from .numerals import is_digits, small_int
from .variants import player_name

BANDS = ("lesson", "easy", "medium", "hard")
KINDS = ("remove", "save", "win", "double", "legal")
# The status row under a 9x9 board on a 240x240 screen (text scale 2, 12 px
# a character in 232 px) holds 19; a narrower status panel wraps the text.
GOAL_CHARS = 19
WHY_CHARS = 38  # two such rows

MAGIC = "TANBO-PUZZLES"
VERSION = 1
HEADER = 30  # bytes: "TANBO-PUZZLES 1 NNNN HHHHHHHH\n"
CELL = 7  # bytes an index cell: "NNNNNN\n"
FIELDS = 8
MAX_COUNT = 9999
MAX_LINE = 400  # bytes an entry may take (a 13x13 position is 182)


class Puzzle:
    """One entry of a book.

    ``number`` (1-based), ``band`` (index into :data:`BANDS`), ``kind``
    (one of :data:`KINDS`), ``plies`` (``len(line)``), ``goal``, ``why``,
    ``variant`` (its name), ``position`` (text with the side to move),
    ``line`` (point indices, the player's move first), ``side`` (the
    player's number).
    """

    def __init__(self, number, band, kind, variant, position, line, goal, why=""):
        self.number = number
        self.band = band
        self.kind = kind
        self.variant = variant
        self.position = position
        self.line = line
        self.plies = len(line)
        self.goal = goal
        self.why = why
        self.side = "XOYZ".index(position[-1]) + 1
        self._start = None  # root counts at the start, once game() ran

    def game(self):
        """A :class:`tanbo.game.Game` at the puzzle's start position."""
        g = Game.from_position(self.position, self.variant)
        if self._start is None:
            self._start = start_roots(g)
        return g

    def achieved(self, game):
        """True if ``game`` (the start position plus some plies) reached the goal."""
        if self._start is None:
            self.game()
        return reached(self.kind, self.side, self._start, game)

    def wrong(self, game):
        """The short text (at most 24 characters) for ``game``: the start
        position plus the line up to a move of the player that missed
        (``game.ply`` counts the plies since the start). Reads counts, no
        search."""
        if self._start is None:
            self.game()
        k = self.side
        theirs, mine = self._start
        lost = mine > game.root_count[k]
        them = player_name(_defender(game, k))
        if self.kind == "save":
            if lost:
                return "No: you lost a root"
            return "No: %s still attacks" % them
        if game.ply < self.plies:
            return "No: %s can defend" % them
        taken = theirs - _their_roots(game, k)
        if lost and not taken:
            return "No: only your root went"
        if taken:
            return "No: only one root went"
        return "No: %s root has space" % them

    def check(self, game):
        """ValueError naming the entry unless every point of the line is empty at the
        start of ``game`` (:meth:`game`) and played once: a damaged file (issue
        34: a line playing a point twice) is refused when the puzzle opens, not
        met by a forced reply that cannot be played. No play: opening a puzzle
        stays within its board time (tests/test_puzzle_board_time.py)."""
        line = self.line
        for i in range(len(line)):
            q = line[i]
            if game.board[q] or q in line[i + 1:]:
                raise ValueError("entry %d: ply %d of the line plays an occupied point" % (self.number, i + 1))

    def accepts(self, game):
        """True if the player's move just played in ``game`` (the start
        position plus the line so far) is right: the line's move, or at the
        line's last ply any move that reaches the goal (there may be
        several; only the first move is unique)."""
        i = game.ply - 1
        if game.last_move() == self.line[i]:
            return True
        return i > 0 and i == self.plies - 1 and self.achieved(game)

    def __repr__(self):
        return "Puzzle(%d, %s, %s)" % (self.number, BANDS[self.band], self.kind)


def _defender(game, k):
    # The defender of a two-player board; the next player of a four-player one.
    return game.succ[k]


def _their_roots(game, k):
    n = 0
    for j in game.others[k]:
        n += game.root_count[j]
    return n


def start_roots(game):
    """``(the defenders' roots, the player's roots)`` of ``game``'s side to move."""
    k = game.to_move
    return _their_roots(game, k), game.root_count[k]


def reached(kind, k, start, game):
    """True if ``game`` meets goal ``kind`` for player ``k``, from ``start``
    (:func:`start_roots` of the puzzle's position)."""
    theirs, mine = start
    if kind == "save":
        return game.root_count[k] == mine
    if kind == "legal":
        return True
    now = _their_roots(game, k)
    if kind == "remove":
        return now < theirs
    if kind == "double":
        return now <= theirs - 2
    return now == 0  # win


class PuzzleBook:
    """A collection file, open; ``len(book)`` entries, read by :meth:`load`;
    ``ident``: the collection's identity (8 hex digits).

    Raises ValueError naming the file and the problem when it is no
    collection (OSError when it cannot be opened). Close it with
    :meth:`close` (or use ``with``).
    """

    def __init__(self, path):
        self.path = path
        self._f = open(path, "rb")
        try:
            head = self._f.readline(HEADER + 1)
            parts = head.decode().split() if head[-1:] == b"\n" else []
            if len(parts) < 2 or parts[0] != MAGIC:
                self._bad("no puzzle collection (the first line is not '%s %d COUNT IDENT')" % (MAGIC, VERSION))
            if parts[1] != str(VERSION):
                self._bad("format version %s, this program reads %d" % (parts[1], VERSION))
            if len(head) != HEADER or len(parts) != 4:
                self._bad("the first line is not '%s %d COUNT IDENT' in %d bytes" % (MAGIC, VERSION, HEADER))
            if len(parts[2]) != 4 or not parts[2].isdigit():
                self._bad("count %r is not 4 digits" % parts[2])
            if len(parts[3]) != 8 or parts[3].strip("0123456789abcdef"):
                self._bad("identity %r is not 8 hex digits" % parts[3])
            self.count = int(parts[2])
            self.ident = parts[3]
            self._end = self._f.seek(0, 2)
            if self._end < HEADER + CELL * self.count:
                self._bad("%d bytes, too short for the index of %d entries" % (self._end, self.count))
        except UnicodeError:
            self.close()
            raise ValueError("%s: no puzzle collection (the first line is not text)" % path)
        except ValueError:
            self.close()
            raise

    def _bad(self, what):
        raise ValueError("%s: %s" % (self.path, what))

    def __len__(self):
        return self.count

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self._f is not None:
            self._f.close()
            self._f = None

    def load(self, n):
        """Entry ``n`` (0-based) as a :class:`Puzzle`, read from the file alone.

        IndexError for an ``n`` out of range; ValueError naming the file and
        the entry when it is malformed.
        """
        if type(n) is not int or not 0 <= n < self.count:
            if not self.count:
                raise IndexError("puzzle %r: the collection is empty" % (n,))
            raise IndexError("puzzle %r: the collection has %d (0-%d)" % (n, self.count, self.count - 1))
        f = self._f
        if f is None:
            raise ValueError("%s: the collection is closed" % self.path)
        f.seek(HEADER + CELL * n)
        cell = f.read(CELL)
        start = HEADER + CELL * self.count
        if len(cell) != CELL or cell[-1:] != b"\n" or not cell[:-1].isdigit():
            self._bad("index cell %d is not 6 digits" % n)
        at = int(cell[:-1])
        if not start <= at < self._end:
            self._bad("entry %d starts at byte %d, outside %d-%d" % (n + 1, at, start, self._end - 1))
        f.seek(at)
        raw = f.readline(MAX_LINE)
        if raw[-1:] != b"\n":
            self._bad("entry %d has no end of line within %d bytes" % (n + 1, MAX_LINE))
        try:
            return parse_entry(n + 1, raw[:-1].decode())
        except (ValueError, UnicodeError) as exc:
            raise ValueError("%s: entry %d: %s" % (self.path, n + 1, exc))


def parse_entry(number, text):
    """The :class:`Puzzle` of one entry line (no newline); ValueError names the field."""
    fields = text.split("|")
    if len(fields) != FIELDS:
        raise ValueError("%d fields, expected %d separated by '|'" % (len(fields), FIELDS))
    band, kind, plies, variant, position, moves, goal, why = fields
    if band not in BANDS:
        raise ValueError("band %r is not one of %s" % (band, ", ".join(BANDS)))
    if kind not in KINDS:
        raise ValueError("kind %r is not one of %s" % (kind, ", ".join(KINDS)))
    v = get_variant(variant)
    if not position or position[-1] not in "XOYZ" or position[-2:-1] != " ":
        raise ValueError("position %r does not end with a space and the side to move" % position[:20])
    # The number of points, by the string's own counts (the puzzle opens
    # within its board time): a list shows an entry with a row lost as
    # damaged. Characters are tanbo.position's, when it opens.
    board = position[:-2]
    points = len(board) - board.count("/") - board.count("|") - board.count(" ")
    if points != v.size:
        raise ValueError("position: %d points, %s has %d" % (points, v.name, v.size))
    line = []
    for word in moves.split():
        line.append(v.parse_point(word))
    # ASCII digits only: str.isdigit takes other scripts' digits, which int() then reads
    if not is_digits(plies) or small_int(plies, MAX_LINE) != len(line) or not line:
        raise ValueError("plies %r, but the line has %d moves" % (plies, len(line)))
    if not goal or len(goal) > GOAL_CHARS:
        raise ValueError("goal %r: 1-%d characters" % (goal, GOAL_CHARS))
    if band == "lesson" and not why:
        raise ValueError("a lesson needs its why")
    if len(why) > WHY_CHARS:
        raise ValueError("why %r: at most %d characters" % (why[:20], WHY_CHARS))
    return Puzzle(number, BANDS.index(band), kind, v.name, position, line, goal, why)


def entry_line(p):
    """The entry text of :class:`Puzzle` ``p`` (no newline)."""
    v = get_variant(p.variant)
    for text in (p.goal, p.why, p.position):
        if "|" in text or "\n" in text:
            raise ValueError("puzzle %d: %r holds '|' or a new line" % (p.number, text))
    moves = " ".join([v.format_point(q) for q in p.line])
    return "|".join((BANDS[p.band], p.kind, str(len(p.line)), v.name, p.position, moves, p.goal, p.why))


def encode_book(puzzles):
    """The bytes of a collection file holding ``puzzles`` in order.

    Raises ValueError for too many entries, an entry that would not read
    back, or a file too large for the 6-digit index.
    """
    if len(puzzles) > MAX_COUNT:
        raise ValueError("%d puzzles: a collection holds at most %d" % (len(puzzles), MAX_COUNT))
    lines = []
    for p in puzzles:
        text = entry_line(p)
        parse_entry(p.number, text)  # what is written reads back
        data = (text + "\n").encode()
        if len(data) > MAX_LINE:
            raise ValueError("puzzle %d: %d bytes, at most %d" % (p.number, len(data), MAX_LINE))
        lines.append(data)
    at = HEADER + CELL * len(lines)
    index = []
    for data in lines:
        index.append(b"%06d\n" % at)
        at += len(data)
    if at > 999999:
        raise ValueError("the collection would take %d bytes; the index addresses 999999" % at)
    body = b"".join(index) + b"".join(lines)
    head = b"%s %d %04d %08x\n" % (MAGIC.encode(), VERSION, len(lines), fnv1a(body))
    return head + body


def fnv1a(data, h=0x811C9DC5):
    """The 32-bit FNV-1a hash of ``data`` (bytes), continuing from ``h``."""
    for b in data:
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h
