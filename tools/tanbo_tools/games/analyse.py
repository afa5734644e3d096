"""``tanbo analyse``: every ply of a game record judged by hard, with the handheld coach's marks.

    tanbo analyse games/tanbo-20261128-031502-9x9.txt
    tanbo analyse games/*.txt --png pictures/          # the position before each marked move
    tanbo analyse game.txt --budget 200000             # deeper than a board can search

For each ply, from the position before it: the move played, hard's move
there, both moves' scores (for the side that moved, in the evaluation's
points) and the verdict, ``inaccuracy``, ``mistake`` or ``blunder``, from
:mod:`tanbo.coach`: the same code and thresholds as the coach in the
handheld's Review. The default search is the handheld's (hard at the
slowest board's node budget, the PicoSystem's); ``--level`` and
``--budget`` (nodes a search) change it. Progress on standard error;
the table on standard output.

Every file is read and replayed before any is analysed: one that is not a
record stops the command with one line naming the file and its line.
"""

import os
import sys

import tanbo_files as files

from .. import arg_checks
from ..progress import Progress

MAX_RECORD = 1 << 20  # bytes: a record is a few KB (a dense-19 game under 12 KB)
MAX_BUDGET = 100000000  # nodes a search: minutes a ply on a PC
LEVELS = ("easy", "medium", "hard")  # the levels that search (random picks a move)
SHOWN_WIN = 10000  # a score within this of WIN is a won (lost) game, shown as such
ROW = "%4s  %-6s  %-6s  %6s  %-6s  %6s  %s"  # ply, player, played, its score, hard's move, its score, verdict


def add_arguments(parser):
    parser.add_argument("records", nargs="+", metavar="RECORD", type=arg_checks.input_file,
                        help="game record files (as tanbo records pull, tanbo match --record or the "
                             "handheld's Send write them)")
    parser.add_argument("--level", default="hard", choices=LEVELS,
                        help="the level whose search judges (default hard, as the handheld's coach)")
    parser.add_argument("--budget", default=None, type=arg_checks.whole(100, MAX_BUDGET, "nodes"), metavar="NODES",
                        help="nodes a search (default: the level's budget on the slowest board, the "
                             "PicoSystem's, as its coach; a PyBadge's hard: 26500 on 9x9, 48000 "
                             "on 13x13 and 19x19); more searches deeper")
    parser.add_argument("--png", default=None, metavar="DIR", type=arg_checks.output_folder,
                        help="draw the position before each marked move, with the move played and "
                             "hard's marked, as RECORD-ply-N.png in DIR (RECORD-2-ply-N.png for a "
                             "second record of the same name)")
    parser.add_argument("--quiet", action="store_true", help="no progress on standard error")


def load(path):
    """The game of record file ``path``, replayed; ValueError naming the file (and the line)."""
    from tanbo import Game
    try:
        data = files.read_regular(path, MAX_RECORD, "the record")
    except files.FileProblem as exc:
        raise ValueError(str(exc))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise ValueError("%s: line %d: not a game record (not UTF-8 text)" % (path, line))
    try:
        return Game.from_record(text)
    except ValueError as exc:
        raise ValueError("%s: not a game record: %s" % (path, exc))


def score_text(score):
    """A score as shown: ``+215``, ``-1880``, ``won``, ``lost``."""
    from tanbo.ai import WIN
    if score >= WIN - SHOWN_WIN:
        return "won"
    if score <= -WIN + SHOWN_WIN:
        return "lost"
    return "%+d" % score


def counted(n, word):
    """``1 mistake``, ``2 mistakes``, ``0 inaccuracies``."""
    if n == 1:
        return "1 " + word
    return "%d %s" % (n, word[:-1] + "ies" if word.endswith("y") else word + "s")


def move_text(game, move):
    """Point ``move`` in notation, or ``resign`` (a negative move)."""
    return "resign" if move < 0 else game.variant.format_point(move)


def picture_stems(paths):
    """Each record's picture names' start: its file name without the ending, with ``-2``, ``-3``...
    when an earlier record's is the same in any case (``a/game.txt b/game.txt``; a FAT or macOS
    folder holds one of ``Game`` and ``game``), so that no record's pictures replace another's."""
    taken, stems = set(), []
    for path in paths:
        stem = os.path.splitext(os.path.basename(path))[0]
        name, n = stem, 1
        while name.casefold() in taken:
            n += 1
            name = "%s-%d" % (stem, n)
        taken.add(name.casefold())
        stems.append(name)
    return stems


class Analysis:
    """One record's plies judged (:meth:`run`); ``rows``: ``(ply, mover, move, best, played
    score, best score, verdict)`` a ply, ``marks``: ``{player: {verdict: count}}``; ``stem``
    starts its pictures' names (see :func:`picture_stems`)."""

    def __init__(self, path, game, level, budget, stem):
        self.path = path
        self.stem = stem
        self.game = game
        self.level = level
        self.budget = budget
        self.rows = []
        self.marks = {k: {} for k in game.pids}

    def run(self, progress, painter=None, png_dir=None, out=None):
        """Judge every ply, printing a line each on ``out`` (default standard output); pictures
        of the marked ones when ``painter``."""
        from tanbo.coach import Coach
        out = out or sys.stdout
        g = self.game
        self.header(out)
        moves = g.moves()
        while g.ply:  # back to the record's start; played forward again below
            g.undo()
        name = os.path.basename(self.path)
        search = None
        for move in moves:
            mover = g.to_move if move >= 0 else -move
            coach = Coach(g, move, self.level, self.budget, search=search)
            coach.run()
            search = coach.search  # its arena, reused for the game's plies
            row = (g.ply + 1, mover, move, coach.best, coach.played_score, coach.best_score, coach.verdict)
            self.rows.append(row)
            print(self.line(row), file=out, flush=True)
            if coach.verdict:
                count = self.marks[mover]
                count[coach.verdict] = count.get(coach.verdict, 0) + 1
                if painter is not None:
                    self.picture(painter, png_dir, row, out)
            progress.step("%s ply %d" % (name, g.ply + 1))
            if move < 0:
                g.resign(-move)
            else:
                g.play(move)
        self.footer(out)

    def header(self, out):
        from tanbo.variants import player_name
        g = self.game
        plies = len(g.moves())
        result = "unfinished" if g.winner is None else "%s won" % player_name(g.winner)
        # Who played: tanbo match's Seats header, the handheld's Opponent header.
        who = g.headers.get("seats") or (g.headers.get("opponent") and "opponent " + g.headers["opponent"])
        print("%s: %s%s, %s, %s; judged by %s, %s nodes a search"
              % (self.path, g.variant.name, " (%s)" % who if who else "", result, counted(plies, "ply"), self.level,
                 "{:,}".format(self.budget_used())), file=out)
        print(ROW % ("ply", "player", "played", "score", "hard", "score", "verdict"), file=out)

    def budget_used(self):
        if self.budget is not None:
            return self.budget
        from tanbo.ai import node_budget
        return node_budget(self.level, self.game.variant.size)

    def line(self, row):
        from tanbo.variants import player_name
        ply, mover, move, best, played, best_score, verdict = row
        g = self.game
        return (ROW % (ply, player_name(mover), move_text(g, move), score_text(played),
                       move_text(g, best), score_text(best_score), verdict or "")).rstrip()

    def footer(self, out):
        from tanbo.coach import VERDICTS
        from tanbo.variants import player_name
        g = self.game
        for k in g.pids:
            counts = self.marks[k]
            print("%s: %s" % (player_name(k), ", ".join(counted(counts.get(v, 0), v) for v in VERDICTS)),
                  file=out)

    def picture(self, painter, png_dir, row, out):
        from tanbo.variants import player_name
        from .analysis_png import HARD, PLAYED
        ply, mover, move, best, played, best_score, verdict = row
        g = self.game
        path = os.path.join(png_dir, "%s-ply-%03d.png" % (self.stem, ply))
        who = player_name(mover)
        caption = [("ply %d, %s played %s (red ring): %s" % (ply, who, move_text(g, move), verdict), PLAYED),
                   ("its score %s; hard's %s (the cursor): %s" % (score_text(played), move_text(g, best),
                                                                  score_text(best_score)), HARD)]
        painter.draw(g, move if move >= 0 else None, best, verdict, path, caption)
        print("      picture: %s" % path, file=out)


def run(args):
    try:
        games = [(path, load(path)) for path in args.records]
    except ValueError as exc:
        print("tanbo analyse: %s" % exc, file=sys.stderr)
        return 1
    total = sum(len(g.moves()) for _, g in games)
    progress = Progress(total, "analyse", quiet=args.quiet)
    painter = None
    try:
        if args.png:
            files.make_folder(args.png, "the pictures' folder")
            from .analysis_png import Painter
            painter = Painter()
        stems = picture_stems([path for path, _ in games])
        for i, (path, game) in enumerate(games):
            if i:
                print()
            Analysis(path, game, args.level, args.budget, stems[i]).run(progress, painter, args.png)
    except BrokenPipeError:  # (tanbo analyse ... | head): the reader has what it wanted
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except (OSError, files.FileProblem) as exc:
        progress.close()
        print("tanbo analyse: %s" % exc, file=sys.stderr)
        return 1
    finally:
        if painter is not None:
            painter.close()
    progress.done()
    return 0
