"""Mining puzzles from seeded self-play: candidates, grading, symmetry.

One game is one task (:func:`mine_game`): the AI levels and random moves
play a seeded game of a variant; every position from :data:`FIRST_PLY` on
is tried as a puzzle for its side to move. A position is a candidate when
exactly one first move forces a goal at the fewest plies that any first
move needs (:mod:`tanbo_tools.puzzle_maker.puzzle_proof`), and the position is worth a
human's time (:func:`worth`). Results depend on the variant and seed only,
so a pool of workers returns the same candidates as one process.
"""

from tanbo.ai import choose_move
from tanbo.game import NO_ROOT, Game
from tanbo.puzzles import BANDS, GOAL_CHARS, Puzzle
from tanbo.rng import Rng
from tanbo.variants import player_name

from .puzzle_proof import best_line, first_moves

FIRST_PLY = 6  # earlier positions have no fights yet
MIN_LEGAL = 6  # a puzzle is no puzzle when the player has almost no choice
PER_GAME = 2  # candidates a game gives at most (neighbouring positions look alike)
GAP = 6  # plies between two candidates of one game
RANDOM_IN = 4  # one ply in RANDOM_IN is a random move: games reach varied positions
# Difficulty score (see grade) -> band: at most EASY_MAX easy, at most MEDIUM_MAX medium, else hard.
EASY_MAX, MEDIUM_MAX = 2, 4
MAX_TEMPTING = 5
# AI levels whose miss makes a puzzle harder, and by how much: the one-ply
# easy level misses by its noise as much as by the puzzle's depth.
GRADERS = (("easy", 1), ("medium", 2), ("hard", 2))


def goal_text(kind, plies, k):
    """The goal the player reads (at most GOAL_CHARS characters)."""
    them = player_name(3 - k)
    moves = (plies + 1) // 2
    if kind == "remove":
        text = "Remove a %s root" % them if moves == 1 else "Take a root in %d" % moves
    elif kind == "win":
        text = "Win: remove %s" % them if moves == 1 else "Win in %d moves" % moves
    elif kind == "save":
        text = "Save your roots" if plies <= 2 else "Save roots %d moves" % (plies // 2)
    else:
        raise ValueError("no goal text for kind %r" % kind)
    assert len(text) <= GOAL_CHARS, text
    return text


def taking_kind(game):
    """``win`` when the defender has one root left (taking it wins), else ``remove``."""
    k = game.to_move
    return "win" if game.root_count[3 - k] == 1 else "remove"


def find_goal(game):
    """``(kind, plies, first move)`` of the goal ``game``'s side to move
    forces with exactly one first move, or None. Tries taking a root in 1
    then 3 plies, then saving every root against 2 plies."""
    kind = taking_kind(game)
    for plies in (1, 3):
        sol = first_moves(game, kind, plies)
        if sol:
            return (kind, plies, sol[0]) if len(sol) == 1 else None
    sol = first_moves(game, "save", 2)
    if len(sol) == 1:
        # A save needs a threat: with no move at all the defender must be
        # able to take a root (else a wrong move is what loses it, a trap
        # of the player's own making, not a defence).
        if _threatened(game):
            return "save", 2, sol[0]
    return None


def _threatened(game):
    """True if one of the side to move's roots has one root space that the
    defender may fill."""
    k = game.to_move
    d = 3 - k
    own = game.space_root[k]
    theirs = game.space_root[d]
    for p in range(game.variant.size):
        r = own[p]
        if r != NO_ROOT and game.space[r] == 1 and theirs[p] != NO_ROOT:
            return True
    return False


def tempting(game, kind, first):
    """How many moves other than ``first`` look like the answer: for a
    taking goal those that fill a defender root's space down to one or
    none; for ``save`` those that grow a root of the player with at most
    two root spaces."""
    k = game.to_move
    space = game.space
    n = 0
    for p in game.legal_moves():
        if p == first:
            continue
        if kind == "save":
            r = game.space_root[k][p]
            if space[r] <= 2:
                n += 1
        else:
            r = game.space_root[3 - k][p]
            if r != NO_ROOT and space[r] <= 2:
                n += 1
    return n


def grade(game, kind, plies, first):
    """``(band index, score, missed)``: score = the plies beyond the first
    + the tempting moves that fail (up to :data:`MAX_TEMPTING`) + for each
    AI level of :data:`GRADERS` that does not play ``first`` its weight;
    ``missed``: those levels' initials (``"emh"`` at most)."""
    missed = ""
    score = (plies - 1) + min(tempting(game, kind, first), MAX_TEMPTING)
    for level, weight in GRADERS:
        if choose_move(game, level, seed=0) != first:
            missed += level[0]
            score += weight
    band = 1 if score <= EASY_MAX else (2 if score <= MEDIUM_MAX else 3)
    return band, score, missed


def worth(game, kind, plies, first):
    """False for a position no human would call a puzzle: almost no legal
    moves, or a single-move taking goal whose answer is the only move that
    threatens anything."""
    if game.legal_count() < MIN_LEGAL:
        return False
    if kind != "save" and plies == 1 and tempting(game, kind, first) == 0:
        return False
    return True


def symmetry_key(position):
    """The same text for every position equal to ``position`` under the
    square board's 8 symmetries and the exchange of the colours."""
    board, side = position.rsplit(" ", 1)
    rows = board.split("/")
    n = len(rows)
    if any(len(r) != n for r in rows):
        return position
    swap = {"X": "O", "O": "X", ".": "."}
    keys = []
    for t in range(8):
        cells = []
        for y in range(n):
            row = []
            for x in range(n):
                a, b = (x, y) if t & 1 == 0 else (y, x)
                if t & 2:
                    a = n - 1 - a
                if t & 4:
                    b = n - 1 - b
                row.append(rows[b][a])
            cells.append("".join(row))
        text = "/".join(cells)
        keys.append(text + " " + side)
        keys.append("".join(swap[c] if c in swap else c for c in text) + " " + swap[side])
    return min(keys)


def play_game(variant, seed):
    """Yield each position of a seeded self-play game of ``variant``
    (the Game itself, between plies; do not keep it)."""
    rng = Rng(seed)
    g = Game(variant)
    levels = ("easy", "medium")
    while not g.over and g.ply < g.variant.max_plies:
        yield g
        if rng.below(RANDOM_IN) == 0:
            move = g.legal_move_at(rng.below(g.legal_count()))
        else:
            move = choose_move(g, levels[g.to_move - 1 if seed % 2 else 2 - g.to_move], seed=rng.below(60000))
        g.play(move)


def mine_game(task):
    """Candidates of one game: ``task`` = ``(variant, seed)``. A list of
    dicts (position, kind, plies, line, band, score, key), by ply."""
    variant, seed = task
    found = []
    last = -GAP
    for g in play_game(variant, seed):
        if g.ply < FIRST_PLY or g.ply - last < GAP:
            continue
        goal = find_goal(g)
        if goal is None:
            continue
        kind, plies, first = goal
        if not worth(g, kind, plies, first):
            continue
        band, score, missed = grade(g, kind, plies, first)
        position = g.position()
        line = best_line(g, kind, plies, first)  # shorter if every reply gives the goal up sooner
        found.append({
            "variant": g.variant.name, "position": position, "kind": kind, "plies": len(line),
            "line": line, "band": band, "score": score, "missed": missed,
            "key": symmetry_key(position), "seed": seed, "ply": g.ply,
        })
        last = g.ply
        if len(found) == PER_GAME:
            break
    return found


def to_puzzle(number, c):
    """The :class:`tanbo.puzzles.Puzzle` of candidate ``c``."""
    k = "XO".index(c["position"][-1]) + 1
    return Puzzle(number, c["band"], c["kind"], c["variant"], c["position"], c["line"],
                  goal_text(c["kind"], c["plies"], k))


__all__ = ["BANDS", "mine_game", "to_puzzle", "symmetry_key", "goal_text", "grade", "find_goal"]
