"""``tanbo screenshots``: the README's and docs' pictures, made by the simulator from key scripts.

    tanbo screenshots                 # (re)write docs/img/*.png
    tanbo screenshots --out /tmp/img  # somewhere else
    tanbo screenshots --check         # exit 1 naming the pictures the screens no longer match

Each picture is a ``tanbo sim --headless`` run on a fresh NVM (so the title
offers no "Continue"), replaying a key script on a virtual clock, its
screenshot scaled 2x (nearest neighbour). The computer's moves are seeded
with the ply, so the same code always draws the same pixels; when the
screens change, ``--check`` (and ``tests/test_screenshots.py``) fails until
this command has been run again.

The picture of ``tanbo analyse --png`` in docs/tools.md is that command's
own (the games room's): run here through the command line with a record of
one ply (a room never imports another; ``tanbo sim`` is run so too).
"""

import contextlib
import io
import os
import shutil
import sys
import tempfile

from .. import arg_checks
from ..vm import REPO

SCALE = 2
DEFAULT_OUT = os.path.join(REPO, "docs", "img")
REGENERATE = "tanbo screenshots"  # what the stale check tells you to run

# Title -> New game: rows Board (9x9), Opponent (Computer), Level (medium),
# You play (Black), Start. Then eight stones of Black's, each answered by
# the computer: cursor steps from the last stone to the next, A, time to reply.
_NEW_9X9 = "A,DOWN*4,A,wait:500"
_MOVES_9X9 = ("", "DOWN", "LEFT*4,DOWN*5", "RIGHT*4,UP*4", "LEFT*4,DOWN*3", "RIGHT*3,UP*3",
              "LEFT*2,DOWN*3", "RIGHT*2,UP*2")  # G8 G7 C2 G6 C3 F6 D3 F5
GAME_9X9 = ",".join([_NEW_9X9] + [(m + "," if m else "") + "A,wait:3000" for m in _MOVES_9X9])

# Hexbo's small board, three players: title -> New game, Board hexbo-5-3p
# (8 right of 9x9), Start (medium); six stones of Black's, each answered by
# the two computers (D-pad on hex rows: UP/DOWN zigzag, app.view.layout.step).
_NEW_HEXBO = "A,RIGHT*8,DOWN*4,A,wait:500"
_MOVES_HEXBO = ("", "RIGHT", "RIGHT", "UP,RIGHT", "UP,LEFT", "DOWN*2,RIGHT*2")  # E3 E4 E5 D5 C4 E7
GAME_HEXBO = ",".join([_NEW_HEXBO] + [(m + "," if m else "") + "A,wait:3000" for m in _MOVES_HEXBO])
# Its large board, six players (12 right of 9x9): five stones of Black's,
# each answered by the five computers.
_MOVES_HEXBO_6P = ("", "LEFT", "LEFT", "DOWN", "UP*2")  # I11 I10 I9 J9 H8
GAME_HEXBO_6P = ",".join(["A,RIGHT*12,DOWN*4,A,wait:500"]
                         + [(m + "," if m else "") + "A,wait:6000" for m in _MOVES_HEXBO_6P])

# file name -> (board, key script, what it shows)
SHOTS = {
    "title-picosystem.png": ("picosystem", "wait:500", "the title on the PicoSystem (240x240)"),
    "title-pybadge.png": ("pybadge", "wait:500", "the title on the PyBadge/PyGamer (160x128)"),
    "game-9x9-picosystem.png": ("picosystem", GAME_9X9, "a 9x9 game against medium, 16 plies in"),
    "game-9x9-pybadge.png": ("pybadge", GAME_9X9, "the same game on the PyBadge/PyGamer"),
    "game-hexbo-5-3p-picosystem.png": ("picosystem", GAME_HEXBO,
                                       "a three-player Hexbo game (hexbo-5-3p) against medium, 18 plies in"),
    "game-hexbo-5-3p-pybadge.png": ("pybadge", GAME_HEXBO, "the same Hexbo game on the PyBadge/PyGamer"),
    "game-hexbo-6p-picosystem.png": ("picosystem", GAME_HEXBO_6P,
                                     "six players on Hexbo's large board (hexbo-6p), 30 plies in"),
}

# The blunder of docs/tools.md's ``tanbo analyse --png`` (judged in
# tests/test_coach.py): White to move; A4 lets Black bound a White root
# (hard: B4). Found by the coach in a game of hard against random moves,
# seed 3, ply 41.
BLUNDER_9X9 = "..O.OOXX./.OOOO..X./OO.O...X./.OXXXX.X./OOX..XXXX/.......X./....X..../XXXXXXX../......... O"
# file name -> (position, the move played there, what it shows): the one
# picture ``tanbo analyse --png`` draws for the record of that ply.
ANALYSED = {
    "analyse-blunder.png": (BLUNDER_9X9, "A4", "tanbo analyse --png: the position before a blunder"),
}
NAMES = tuple(SHOTS) + tuple(ANALYSED)


def add_arguments(parser):
    parser.add_argument("--out", type=arg_checks.output_folder, default=DEFAULT_OUT, metavar="DIR",
                        help="folder for the PNGs (default docs/img)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a picture in --out differs from what the "
                             "simulator draws now")


def _pygame():
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame
    return pygame


def shoot(name, dest_dir, work_dir):
    """Make picture ``name`` of :data:`SHOTS` as ``dest_dir/name``; ``work_dir`` holds the NVM."""
    from ..cli import main
    pygame = _pygame()
    board, keys, _ = SHOTS[name]
    nvm = os.path.join(work_dir, name + ".nvm")
    raw = os.path.join(work_dir, name + ".raw.png")
    if os.path.exists(nvm):
        os.remove(nvm)  # a fresh board: no saved game
    rc = main(["sim", "--headless", "--board", board, "--nvm", nvm, "--keys", keys, "--screenshot", raw])
    if rc:
        raise RuntimeError("tanbo sim --headless --board %s failed (exit %d) for %s" % (board, rc, name))
    image = pygame.image.load(raw)
    w, h = image.get_size()
    pygame.image.save(pygame.transform.scale(image, (w * SCALE, h * SCALE)), os.path.join(dest_dir, name))


def shoot_analysed(name, dest_dir, work_dir):
    """Make picture ``name`` of :data:`ANALYSED` as ``dest_dir/name``: ``tanbo analyse --png``
    on a record of its ply, written in ``work_dir`` (its table on standard output dropped)."""
    from tanbo import Game
    from ..cli import main
    position, move, _ = ANALYSED[name]
    game = Game.from_position(position)
    game.play(game.variant.parse_point(move))
    stem = os.path.join(work_dir, os.path.splitext(name)[0])
    with open(stem + ".txt", "w", encoding="utf-8") as f:
        f.write(game.record())
    with contextlib.redirect_stdout(io.StringIO()):
        rc = main(["analyse", stem + ".txt", "--png", stem, "--quiet"])
    drawn = sorted(os.listdir(stem)) if os.path.isdir(stem) else []
    if rc or len(drawn) != 1:
        raise RuntimeError("tanbo analyse --png drew %s (exit %d) for %s, where one picture was expected"
                           % (", ".join(drawn) or "nothing", rc, name))
    shutil.copyfile(os.path.join(stem, drawn[0]), os.path.join(dest_dir, name))


def pixels(path):
    """``(size, RGB bytes)`` of the PNG at ``path``; None if it is missing or unreadable."""
    pygame = _pygame()
    try:
        image = pygame.image.load(path)
    except (pygame.error, FileNotFoundError):
        return None
    return image.get_size(), pygame.image.tobytes(image, "RGB")


def make_all(dest_dir, names=None):
    """Write every picture (or ``names``) into ``dest_dir``."""
    os.makedirs(dest_dir, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="tanbo-shots-") as work:
        for name in names or NAMES:
            (shoot_analysed if name in ANALYSED else shoot)(name, dest_dir, work)


def stale(dest_dir, names=None):
    """Names of the pictures in ``dest_dir`` that differ from (or are missing beside) fresh ones."""
    with tempfile.TemporaryDirectory(prefix="tanbo-shots-check-") as fresh:
        make_all(fresh, names)
        return [n for n in names or NAMES
                if pixels(os.path.join(dest_dir, n)) != pixels(os.path.join(fresh, n))]


def run(args):
    try:
        if args.check:
            bad = stale(args.out)
            if bad:
                print("tanbo screenshots: stale in %s: %s; regenerate with: %s"
                      % (args.out, ", ".join(bad), REGENERATE), file=sys.stderr)
                return 1
            print("%d screenshots in %s match the simulator" % (len(NAMES), args.out))
            return 0
        make_all(args.out)
    except (OSError, RuntimeError) as exc:
        print("tanbo screenshots: error: %s" % exc, file=sys.stderr)
        return 1
    for name in NAMES:
        what = (ANALYSED[name] if name in ANALYSED else SHOTS[name])[2]
        print("wrote %s: %s" % (os.path.join(args.out, name), what))
    return 0
