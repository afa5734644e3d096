"""Full-width proof of a puzzle's goal: every legal move at every ply.

An AND-OR search over the rules (not the AI's beam): the player needs one
move that works at each of its plies, against every reply of the
defender. Goals are those of :mod:`tanbo.puzzles` (``remove``, ``double``,
``win``, ``save``, ``legal``); root counts only fall, so a goal of taking
roots is met for good once met, and ``save`` is lost for good once a root
goes.

What keeps it cheap enough to prove the whole collection in the test
suite: at the player's last ply of a taking goal only the points that are
a defender root's last root space can take one (a stone removes a root of
another colour only by filling its last space), and at the defender's last
ply of ``save`` only the points that fill one of the player's roots' last
space can take it; the other moves are not played. Every other ply plays
every legal move (``play_unchecked``/``undo`` on a fast copy).
"""

from tanbo.game import NO_ROOT
from tanbo.puzzles import reached, start_roots

TAKING = ("remove", "double", "win")


class Proof:
    """The goal ``kind`` for the side to move of ``game`` (not changed);
    ``plies`` counts to the end of the line. ``nodes`` counts plies played.
    :meth:`works` and :meth:`solutions` ask about the player's move, so the
    player must be to move there."""

    def __init__(self, game, kind, plies, k=None, start=None):
        if plies < 0:
            raise ValueError("plies %r: a line cannot be shorter than nothing" % plies)
        self.g = game.copy(fast=True)
        self.kind = kind
        self.plies = plies
        # the player and its counts at the puzzle's start (a later position of a line passes them)
        self.k = game.to_move if k is None else k
        self.start = start_roots(game) if start is None else start
        self.nodes = 0

    def status(self):
        """True/False once the goal is settled for good, else None."""
        g = self.g
        if self.kind == "save":
            if g.root_count[self.k] < self.start[1]:
                return False
            if g.winner == self.k:
                return True
            return None
        if self.kind == "legal" or reached(self.kind, self.k, self.start, g):
            return True
        return False if g.over else None

    def works(self, move):
        """True if first ``move`` (legal) forces the goal within the plies."""
        g = self.g
        g.play_unchecked(move)
        self.nodes += 1
        try:
            return self._after(self.plies - 1)
        finally:
            g.undo()

    def solutions(self):
        """The first moves that force the goal, sorted."""
        return [m for m in self.g.legal_moves() if self.works(m)]

    def _after(self, left):
        s = self.status()
        if s is not None:
            return s
        if left == 0:
            return self.kind == "save"
        g = self.g
        mover = g.to_move
        player = mover == self.k
        for m in self._moves(left, player):
            g.play_unchecked(m)
            self.nodes += 1
            ok = self._after(left - 1)
            g.undo()
            if ok == player:
                return player  # one move decides an OR (player) or an AND (defender) node
        return not player

    def _moves(self, left, player):
        g = self.g
        k = g.to_move
        legal = list(g.legal_points[k][:g.legal_total[k]])
        if left != 1:
            legal.sort()
            return legal
        if player and self.kind in TAKING:
            targets = g.others[k]
        elif not player and self.kind == "save":
            targets = (self.k,)
        else:
            legal.sort()
            return legal
        space = g.space
        out = []
        for p in legal:
            for j in targets:
                r = g.space_root[j][p]
                if r != NO_ROOT and space[r] == 1:
                    out.append(p)
                    break
        out.sort()
        return out


def first_moves(game, kind, plies):
    """The first moves of ``game``'s side to move that force goal ``kind`` within ``plies``."""
    return Proof(game, kind, plies).solutions()


def best_line(game, kind, plies, first):
    """The solution line from first move ``first`` (which forces the goal).

    The player's later moves: the lowest point that still forces it. The
    defender's replies: the most stubborn, the one that leaves the player
    the fewest moves that still work (for ``save`` at the last ply: the
    least root space left to the player), lowest point on a tie. Points,
    at most ``plies`` of them (fewer when the goal is met sooner).
    """
    k = game.to_move
    start = start_roots(game)
    g = game.copy(fast=True)
    line = [first]
    g.play_unchecked(first)
    left = plies - 1
    while left > 0:
        p = Proof(g, kind, left, k, start)
        if p.status() is not None:
            break
        if g.to_move == k:
            pick = None
            for m in g.legal_moves():
                if p.works(m):
                    pick = m
                    break
            if pick is None:
                raise ValueError("the line breaks: no move of the player keeps the goal")
        else:
            pick = _stubborn(g, kind, left, k, start)
        line.append(pick)
        g.play_unchecked(pick)
        left -= 1
    return line


def _stubborn(g, kind, left, k, start):
    best, best_score = None, None
    for m in g.legal_moves():
        g.play_unchecked(m)
        p = Proof(g, kind, left - 1, k, start)
        s = p.status()
        if s is not None:
            score = 10000 if s else -1  # a reply that settles the goal is the defender's worst
        elif left == 1:
            score = 0
            for r in g.roots(k):
                score += g.space[r]
        else:
            score = len(p.solutions())
        g.undo()
        if best_score is None or score < best_score:
            best, best_score = m, score
    return best
