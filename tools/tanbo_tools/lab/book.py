"""``tanbo book``: compute hard's opening book (:mod:`tanbo.book`) on the desktop.

The positions are those hard meets in its first ``--plies`` plies from a
variant's setup, as either colour: where hard is to move, the book's move
(computed here) is played; where its opponent is, every legal move at the
opponent's first turn and its ``--replies`` most plausible moves after
(hard's depth-1 values with each move's reach: what a search ranks first),
so a book covers the replies hard is likely to meet without growing by the
board's width each ply. Positions that a board symmetry maps onto each
other are searched once (the book's canonical form).

The book's move is that of a much deeper hard search: ``--depth`` plies
(hard plays 8) and ``--nodes`` nodes (hard gets about 6,000 on a
PicoSystem, 26,500 on a PyBadge), no root noise. The search level is made
for this run (:func:`deep_level`) and removed after it.

Deterministic: the same options write the same file, whatever ``--jobs``
(tested). The CPU time is printed, not written (the file would differ).
"""

import sys
import time
from contextlib import contextmanager

from tanbo import Game, ai, get_variant
from tanbo.book import MAGIC, MAX_LINE, canonical, check_head, image, lookup
from tanbo.position import quote
import tanbo_files as files

from .. import arg_checks, workers

# Not the bundle: a book goes there only once a match says it wins (docs/ai.md).
DEFAULT_OUT = "book.txt"
DEEP = "book-deep"  # the level name of the deep search, only while a run lasts
MAX_BOOK = 64 << 20  # bytes a book file may take (every 9x9 position 5 plies deep is ~2 MB)


def add_arguments(parser):
    parser.add_argument("--variant", action="append", dest="variants", metavar="V",
                        help="a variant to cover (repeatable; default 9x9); 2-player variants only")
    parser.add_argument("--plies", type=arg_checks.whole(1, ai.BOOK_PLIES, "plies", " (hard asks its book within %d "
                                                       "plies of the setup)" % ai.BOOK_PLIES), default=5,
                        help="plies from the setup that the book covers (default 5, at most %d)" % ai.BOOK_PLIES)
    parser.add_argument("--replies", type=arg_checks.whole(1, 400, "replies"), default=5,
                        help="opponent's moves followed after its first turn (default 5)")
    parser.add_argument("--depth", type=arg_checks.whole(2, 20, "plies"), default=12,
                        help="the deep search's plies (default 12, 2-20)")
    parser.add_argument("--nodes", type=arg_checks.whole(100, 10 ** 9, "nodes"), default=3000000,
                        help="the deep search's node budget a position (default 3,000,000)")
    parser.add_argument("--jobs", type=arg_checks.whole(1, 256, "processes"), default=1,
                        help="processes (default 1, at most 256)")
    parser.add_argument("--out", type=arg_checks.output_file, default=DEFAULT_OUT,
                        help="the book to write (default %s)" % DEFAULT_OUT)


def check_args(args):
    """The variants to cover and the book's header line (what made it); ValueError quoting the
    first bad option, before any search (a header too long for a book line included)."""
    names = []
    for name in args.variants or ["9x9"]:
        v = get_variant(name)
        if v.players != 2:
            raise ValueError("--variant %s: a book covers 2-player variants only" % v.name)
        if v.name in names:
            raise ValueError("--variant %s: given twice (a book covers a variant once)" % v.name)
        names.append(v.name)
    header = "tanbo book %s--plies %d --replies %d --depth %d --nodes %d" % (
        "".join("--variant %s " % n for n in names), args.plies, args.replies, args.depth, args.nodes)
    head_line(header)
    return names, header


def head_line(header):
    """The book's first line (bytes) saying ``header``; ValueError if a book line cannot hold it."""
    head = MAGIC + b" " + header.encode() + b"\n"
    if len(head) > MAX_LINE:
        raise ValueError("the header takes %d bytes, a book line at most %d" % (len(head), MAX_LINE))
    return head


@contextmanager
def deep_level(depth, nodes):
    """A level of :mod:`tanbo.ai` named :data:`DEEP` while the block runs:
    hard's beam and reach, ``depth`` plies, ``nodes`` nodes at slowness 1, no noise."""
    _, beam, _, _, _, reach = ai.LEVEL_TABLE["hard"]
    ai.LEVEL_TABLE[DEEP] = (depth, beam, nodes, nodes, 0, reach)
    try:
        yield DEEP
    finally:
        del ai.LEVEL_TABLE[DEEP]


def replay(variant, moves):
    g = Game(variant)
    for m in moves:
        g.play(m)
    return g


def best_move(task):
    """``(move, CPU seconds)``: the deep search's move after ``moves`` from the setup."""
    variant, moves, depth, nodes = task
    t = time.process_time()
    with deep_level(depth, nodes) as level:
        move = ai.Search(replay(variant, moves), level, 0, slowness=1.0).run()
    return move, time.process_time() - t


def plausible(game, replies, first):
    """The opponent's moves followed from ``game``: all of them at its ``first``
    turn, else the ``replies`` that hard's depth-1 values (with reach) rank first."""
    moves = game.legal_moves()
    if first or len(moves) <= replies:
        return moves
    s = ai.Search(game, "hard", 0)
    s.max_depth = 1
    ranked = []

    def keep(moves, noise, scores, done):  # the search's depth-1 order (as tanbo.ponder ranks)
        out = ai.Search.sorted_by(moves, noise, scores, done)
        ranked[:] = out[0]
        return out
    s.sorted_by = keep
    s.run()
    return ranked[:replies]


def build(variant, plies, replies, depth, nodes, mapper=map):
    """The book's entries of ``variant``: ``{key (bytes): move in the key's
    frame}``, and the CPU seconds of the deep searches. ``mapper`` maps
    :func:`best_move` over a ply's positions (a pool's ``map``)."""
    v = get_variant(variant)
    entries = {}
    cpu = 0.0
    expanded = set()
    # (hard's colour, moves from the setup): the positions of this ply
    frontier = [(1, []), (2, [])]
    for ply in range(plies):
        ask = {}  # key -> moves: the positions whose book move this ply needs
        for side, moves in frontier:
            g = replay(variant, moves)
            if g.to_move == side:
                key, _ = canonical(g)
                if key not in entries and key not in ask:
                    ask[key] = moves
        keys = sorted(ask)
        for key, (move, spent) in zip(keys, mapper(best_move, [(variant, ask[k], depth, nodes) for k in keys])):
            g = replay(variant, ask[key])
            entries[key] = image(v, canonical(g)[1], move)
            cpu += spent
        nxt = []
        for side, moves in frontier:
            g = replay(variant, moves)
            if g.over:
                continue
            key, t = canonical(g)
            if g.to_move == side:
                # the book's move, in this position's frame
                for p in range(v.size):
                    if image(v, t, p) == entries[key]:
                        nxt.append((side, moves + [p]))
                        break
            elif (side, key) not in expanded:
                expanded.add((side, key))
                for m in plausible(g, replies, ply < 2):
                    nxt.append((side, moves + [m]))
        frontier = nxt
    return entries, cpu


def encode(entries_by_variant, header):
    """The book file's bytes: the header line, then every entry sorted by key."""
    lines = []
    for variant, entries in entries_by_variant:
        v = get_variant(variant)
        for key, move in entries.items():
            lines.append(key + b" " + v.format_point(move).encode() + b"\n")
    lines.sort()
    head = head_line(header)
    for line in lines:
        if len(line) > MAX_LINE:
            raise ValueError("an entry takes %d bytes, a book line at most %d" % (len(line), MAX_LINE))
    return head + b"".join(lines)


def check(path, entries_by_variant):
    """Every entry of the book at ``path`` reads back, legal in its position (ValueError otherwise)."""
    for variant, entries in entries_by_variant:
        for key in entries:
            text = key.decode()[len(variant) + 1:]
            g = Game.from_position(text, variant)
            move = lookup(path, g)
            if move is None or move != entries[key]:
                raise ValueError("%s: the entry of %s does not read back" % (path, key.decode()))


def check_file(path, what="--book"):
    """ValueError naming ``path`` (as ``what``) and the line unless the file at ``path`` is a
    whole opening book: a regular file (a FIFO is refused, never opened) with a book's header,
    then entries in the order :func:`tanbo.book.lookup` searches, each a known 2-player
    variant's position in the book's form and a legal move there. Reads it whole: for the
    desktop, before a book is used (a board's reader checks the lines it meets instead)."""
    name = "%s %r" % (what, path)
    data = files.read_regular(path, MAX_BOOK, what)
    head = data[:MAX_LINE]
    check_head(head[:head.find(b"\n") + 1] or head, name)  # the first line as a board reads it
    lines = data.split(b"\n")
    if lines[-1]:
        raise ValueError("%s line %d: cut short (no end of line)" % (name, len(lines)))
    last = None
    for number, raw in enumerate(lines[1:-1], 2):
        try:
            key = _check_entry(raw)
        except ValueError as e:
            raise ValueError("%s line %d: %s" % (name, number, e))
        if last is not None and key <= last:
            raise ValueError("%s line %d: %s" % (name, number, "the entry of a position the line before has"
                                                 if key == last else "out of order (entries are sorted)"))
        last = key
    return len(lines) - 2


def _check_entry(raw):
    """The key (bytes) of the book line ``raw`` (no newline); ValueError saying what is wrong."""
    if len(raw) + 1 > MAX_LINE:
        raise ValueError("%d bytes, a book line at most %d" % (len(raw) + 1, MAX_LINE))
    try:
        text = raw.decode("utf-8")
    except UnicodeError as e:
        raise ValueError("not UTF-8 text (byte %d of the line)" % (e.start + 1))
    key, _, word = text.rpartition(" ")
    variant, _, position = key.partition(" ")
    g = Game.from_position(position, variant)
    if g.variant.players != 2 or g.variant.name != variant:
        raise ValueError("variant %s: a book covers 2-player variants, by their names" % quote(variant))
    if canonical(g)[0] != key.encode():
        raise ValueError("the position is not in the book's form (the least of its images)")
    point = g.variant.parse_point(word)
    why = g.why_illegal(point)
    if why is not None:
        raise ValueError("%s is not a legal move there: %s" % (quote(word), why))
    return raw[:len(key.encode())]


def run(args):
    try:
        names, header = check_args(args)
    except ValueError as e:
        print("tanbo book: %s" % e, file=sys.stderr)
        return 2
    t0 = time.time()
    made = []
    cpu = 0.0
    with workers.mapping(args.jobs) as mapper:
        for name in names:
            entries, spent = build(name, args.plies, args.replies, args.depth, args.nodes, mapper)
            made.append((name, entries))
            cpu += spent
            print("%s: %d positions, %.0f CPU-s" % (name, len(entries), spent), file=sys.stderr)
    data = encode(made, header)
    try:
        files.write_whole(args.out, data, "the book")
        check(args.out, made)
    except (files.FileProblem, ValueError) as e:
        print("tanbo book: %s" % e, file=sys.stderr)
        return 1
    print("%s: %d entries, %d bytes; deep searches %.0f CPU-s (%.0f s wall)"
          % (args.out, sum(len(e) for _, e in made), len(data), cpu, time.time() - t0))
    return 0
