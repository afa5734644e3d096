"""``tanbo puzzles``: mine the puzzle collection, show or check its entries.

``tanbo puzzles`` writes the lessons (:mod:`tanbo_tools.puzzle_maker.puzzle_lessons`)
then ``--count`` puzzles mined from seeded self-play
(:mod:`tanbo_tools.puzzle_maker.puzzle_mine`) to ``--out`` (default the file the
bundle ships, ``device/app/puzzles.txt``), in the format of
:mod:`tanbo.puzzles`. The same seed and count give the same bytes, with
any number of ``--jobs``. ``--show N`` prints entry N (1-based; ``all``:
every one, a blank line between) as a game record the engine reads back,
with a ``Goal: KIND PLIES TEXT`` header; ``--check`` proves every entry
again by the full-width search. docs/puzzles.md has the details.
"""

import argparse
import math
import os
import sys
import time

from tanbo.game import Game
from tanbo.position import quote
from tanbo.puzzles import BANDS, Puzzle, PuzzleBook, encode_book

import tanbo_files as files

from .. import arg_checks, workers
from .puzzle_lessons import LESSONS
from .puzzle_mine import mine_game, to_puzzle
from .puzzle_proof import best_line, first_moves

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
DEFAULT_FILE = os.path.join(REPO, "device", "app", "puzzles.txt")
# Each variant's share of the mined puzzles: 9x9 mostly; boards that still
# read on a 160x128 screen for the rest.
SHARES = (("9x9", 0.625), ("13x13", 0.125), ("dense-7", 0.125), ("dense-11", 0.125))
BAND_SHARE = 0.4  # no band takes more of a variant's puzzles while another can still be found
KIND_SHARE = 0.6  # nor any goal kind
GAMES_PER_PUZZLE = 20  # a variant gives up after this many games a puzzle of its quota
STRICT_GAMES = 4  # games a puzzle of the quota during which the band and kind shares hold
MAX_COUNT = 2000
MAX_JOBS = 2


def add_arguments(parser):
    parser.add_argument("--out", type=arg_checks.output_file, default=None, metavar="FILE",
                        help="where to write the collection (default device/app/puzzles.txt)")
    parser.add_argument("--seed", type=arg_checks.whole(0, 10 ** 6), default=0,
                        help="seed of the self-play (default 0)")
    parser.add_argument("--count", type=arg_checks.whole(1, MAX_COUNT, "puzzles"), default=240,
                        help="puzzles to mine, after the lessons (default 240)")
    parser.add_argument("--jobs", type=arg_checks.whole(1, MAX_JOBS, "processes"), default=1,
                        help="worker processes (default 1, at most %d)" % MAX_JOBS)
    parser.add_argument("--show", metavar="N", default=None,
                        help="print entry N (1-based) of --file as a game record; 'all' for every one")
    parser.add_argument("--check", action="store_true",
                        help="prove every entry of --file by the full-width search")
    parser.add_argument("--file", default=DEFAULT_FILE, metavar="FILE",
                        help="the collection --show and --check read (default the shipped one)")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")


def run(args):
    try:
        if args.show is not None:
            return show(args.file, args.show)
        if args.check:
            return check_file(args.file, quiet=args.quiet)
        out = args.out or DEFAULT_FILE
        files.check_target(out, "the collection")  # before the work: a link or FIFO is refused now
        t0 = time.time()
        puzzles = build(args.seed, args.count, args.jobs, None if args.quiet else _progress(t0))
        data = encode_book(puzzles)
        files.write_whole(out, data, "the collection")
    except (OSError, ValueError) as exc:  # files.FileProblem included
        print("tanbo puzzles: %s" % exc, file=sys.stderr)
        return 1
    bands = [0] * len(BANDS)
    for p in puzzles:
        bands[p.band] += 1
    print("tanbo puzzles: wrote %d entries (%s), %d bytes, to %s in %.0f s" % (
        len(puzzles), ", ".join("%d %s" % (bands[i], BANDS[i]) for i in range(len(BANDS))),
        len(data), out, time.time() - t0), file=sys.stderr)
    return 0


def _progress(t0):
    def report(variant, kept, quota, games, done, total):
        spent = time.time() - t0
        eta = spent * (total - done) / done if done else 0
        print("tanbo puzzles: %s %d/%d (%d games); %d/%d in all, %.0f s, ETA %.0f s"
              % (variant, kept, quota, games, done, total, spent, eta), file=sys.stderr)
    return report


def lessons():
    """The lessons as :class:`Puzzle` entries 1.., each proved (ValueError if one fails)."""
    out = []
    for i, (kind, plies, position, goal, why) in enumerate(LESSONS):
        g = Game.from_position(position)
        sol = first_moves(g, kind, plies)
        if len(sol) != 1:
            raise ValueError("lesson %d: %d first moves reach %s in %d plies, not exactly one"
                             % (i + 1, len(sol), kind, plies))
        line = best_line(g, kind, plies, sol[0])
        if len(line) != plies:
            raise ValueError("lesson %d: the line takes %d plies, not %d" % (i + 1, len(line), plies))
        out.append(Puzzle(i + 1, 0, kind, g.variant.name, position, line, goal, why))
    return out


def quotas(count):
    """``[(variant, puzzles)]`` adding up to ``count``, by :data:`SHARES`."""
    out = []
    left = count
    for i, (variant, share) in enumerate(SHARES):
        n = left if i == len(SHARES) - 1 else int(round(count * share))
        n = min(n, left)
        out.append((variant, n))
        left -= n
    return out


def mine(seed, count, jobs=1, progress=None):
    """The mined candidates (dicts of :func:`puzzle_mine.mine_game`), ``count``
    of them unless the games run out, no two alike under symmetry."""
    with workers.mapping(jobs) as mapper:
        seen = set()
        chosen = []
        for vi, (variant, quota) in enumerate(quotas(count)):
            chosen.extend(_mine_variant(mapper, jobs, variant, seed * 1000000 + vi * 100000, quota, seen,
                                        progress, len(chosen), count))
        return chosen


def _mine_variant(mapper, jobs, variant, base, quota, seen, progress, before, total):
    band_cap = int(math.ceil(quota * BAND_SHARE))
    kind_cap = int(math.ceil(quota * KIND_SHARE))
    bands, kinds = {}, {}
    kept, spill = [], []
    games = 0
    batch = 8 * jobs
    limit = quota * GAMES_PER_PUZZLE

    def keep(c):
        kept.append(c)
        seen.add(c["key"])
        bands[c["band"]] = bands.get(c["band"], 0) + 1
        kinds[c["kind"]] = kinds.get(c["kind"], 0) + 1

    while len(kept) < quota and games < limit:
        tasks = [(variant, base + games + i) for i in range(min(batch, limit - games))]
        strict = games < quota * STRICT_GAMES
        if not strict:
            # The games have not given every band and kind its share: the
            # others fill in, those held back first.
            for c in spill:
                if len(kept) < quota and c["key"] not in seen:
                    keep(c)
            spill = []
        games += len(tasks)
        results = list(mapper(mine_game, tasks))
        for found in results:
            for c in found:
                if len(kept) == quota or c["key"] in seen:
                    continue
                if not strict or (bands.get(c["band"], 0) < band_cap and kinds.get(c["kind"], 0) < kind_cap):
                    keep(c)
                else:
                    spill.append(c)
        if progress:
            progress(variant, len(kept), quota, games, before + len(kept), total)
    return kept


def build(seed, count, jobs=1, progress=None):
    """Lessons, then ``count`` mined puzzles sorted by band and score: Puzzle entries."""
    out = lessons()
    order = dict((v, i) for i, (v, _) in enumerate(SHARES))
    mined = mine(seed, count, jobs, progress)
    ranked = sorted(range(len(mined)), key=lambda i: (mined[i]["band"], mined[i]["score"],
                                                     order[mined[i]["variant"]], i))
    for i in ranked:
        out.append(to_puzzle(len(out) + 1, mined[i]))
    return out


def check_puzzle(p):
    """None if entry ``p`` is a sound puzzle, else what is wrong (a sentence).

    Sound: exactly its first move forces its goal within its plies (full
    width), no first move forces a taking goal sooner, and its line is
    legal and reaches the goal.
    """
    g = p.game()
    sol = first_moves(g, p.kind, p.plies)
    if sol != [p.line[0]]:
        return "the first moves that work are %s, not only %s" % (
            " ".join(g.name(m) for m in sol) or "none", g.name(p.line[0]))
    if p.kind not in ("save", "legal"):
        for d in range(1, p.plies):
            if first_moves(g, p.kind, d):
                return "the goal can be reached in %d plies, not %d" % (d, p.plies)
    for m in p.line:
        if not g.is_legal(m):
            return "%s of the line is not legal" % g.name(m)
        g.play(m)
    if not p.achieved(g):
        return "the line does not reach the goal"
    return None


def open_book(path):
    """The collection at ``path``, open (see :class:`tanbo.puzzles.PuzzleBook`); ValueError naming
    it when it is no regular file (a FIFO is refused, never opened) or no collection."""
    files.check_regular(path, "the collection")
    return PuzzleBook(path)


def entry(book, n):
    """Entry ``n`` (1-based) of ``book``, its position and line tried; ValueError naming the file
    and the entry for any damage, the position's and the line's included."""
    p = book.load(n - 1)  # its ValueError names the file and the entry
    try:
        g = p.game()
        for m in p.line:
            g.play(m)
    except ValueError as exc:
        raise ValueError("%s: entry %d: %s" % (book.path, n, exc))
    return p


def check_file(path, quiet=False):
    """Prove every entry of the collection at ``path``, reporting each one that is damaged or
    unsound (a line naming the file and the entry); 0 if all are sound, else 1."""
    t0 = time.time()
    bad = 0
    with open_book(path) as book:
        n = len(book)
        for i in range(1, n + 1):
            try:
                p = entry(book, i)
                why = check_puzzle(p)
            except ValueError as exc:
                why = str(exc)
            else:
                why = why and "%s: entry %d: %s" % (path, i, why)
            if why:
                bad += 1
                print("tanbo puzzles: %s" % why, file=sys.stderr)
    if not quiet:
        print("tanbo puzzles: %d of %d entries proved in %.1f s" % (n - bad, n, time.time() - t0),
              file=sys.stderr)
    return 1 if bad else 0


def show_text(p):
    """Entry ``p`` as a game record: the position, the line, ``Goal: KIND PLIES TEXT``."""
    g = p.game()
    for m in p.line:
        g.play(m)
    headers = {"goal": "%s %d %s" % (p.kind, p.plies, p.goal), "puzzle": "%d %s" % (p.number, BANDS[p.band])}
    if p.why:
        headers["why"] = p.why
    return g.record(**headers)


def show(path, which):
    """Print entry ``which`` (1-based, or ``all``) of the collection at ``path``; 0, or 1 when an
    entry is damaged (each one a line naming the file and the entry; the others are printed)."""
    with open_book(path) as book:
        n = len(book)
        if which == "all":
            numbers = range(1, n + 1)
        else:
            if not (which.isascii() and which.isdigit() and len(which) <= 9 and 1 <= int(which) <= n):
                raise ValueError("--show %s: expected 'all' or an entry from 1 to %d" % (quote(which), n))
            numbers = [int(which)]
        texts, bad = [], 0
        for k in numbers:
            try:
                texts.append(show_text(entry(book, k)))
            except ValueError as exc:
                bad += 1
                print("tanbo puzzles: %s" % exc, file=sys.stderr)
    sys.stdout.write("\n".join(texts))
    return 1 if bad else 0


if __name__ == "__main__":  # pragma: no cover
    p = argparse.ArgumentParser()
    add_arguments(p)
    sys.exit(run(p.parse_args()))
