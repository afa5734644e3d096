"""A plain UCT opponent (random playouts to the end), the yardstick for ``hard``.

``tanbo match hard uct:5000`` plays the computer's hard level against this
player with 5,000 playouts a move. Plain on purpose, so a result against it
means the same thing to anyone: UCB1 selection with ``C`` (no priors, no
RAVE, no tree reuse between moves), one node expanded per playout, uniform
random playouts to the end of the game with the engine's own
``random_playout`` on a scratch game reloaded by ``load_state``, and the
most visited root move played. Each node counts wins for the player who
moved into it, so 4-player games work too.

Seeded with :class:`tanbo.Rng`: the same seed gives the same move.
"""

import math

from tanbo import Rng
from tanbo.position import quote
from tanbo.numerals import is_digits, small_int

C = 1.4  # UCB1 exploration constant (sqrt(2), the textbook value)
PREFIX = "uct:"


MAX_PLAYOUTS = 10 ** 7  # a move; a 9x9 game at this takes days already


def parse_spec(spec):
    """The playouts a move of ``uct:N``, ``N`` ASCII digits from 1 to :data:`MAX_PLAYOUTS`;
    ValueError quoting ``spec`` if it is not one."""
    text = spec[len(PREFIX):] if spec.startswith(PREFIX) else None
    if text is None or not is_digits(text) or not 1 <= small_int(text, MAX_PLAYOUTS + 1) <= MAX_PLAYOUTS:
        raise ValueError("%s: a UCT opponent is uct:N with N from 1 to %d playouts a move (plain digits)"
                         % (quote(spec), MAX_PLAYOUTS))
    return small_int(text, MAX_PLAYOUTS)


class Node:
    """One move of the tree: ``mover`` played ``move`` to get here."""

    __slots__ = ("move", "mover", "children", "untried", "wins", "visits")

    def __init__(self, move, mover, untried):
        self.move, self.mover = move, mover
        self.children = []
        self.untried = untried  # legal moves not expanded yet, in seeded random order
        self.wins = 0
        self.visits = 0


def _shuffled(moves, rng):
    for i in range(len(moves) - 1, 0, -1):
        j = rng.below(i + 1)
        moves[i], moves[j] = moves[j], moves[i]
    return moves


def choose_move(game, playouts, seed=0, c=C):
    """The point plain UCT plays in ``game`` (never mutated) after ``playouts`` playouts."""
    if game.over:
        raise ValueError("the game is over: no move to choose")
    rng = Rng(seed)
    root = Node(None, None, _shuffled(game.legal_moves(), rng))
    if len(root.untried) == 1:
        return root.untried[0]
    sim = game.copy()
    for _ in range(playouts):
        sim.load_state(game)
        node = root
        path = [root]
        # Selection: UCB1 while the node is fully expanded.
        while not node.untried and node.children:
            log_n = math.log(node.visits)
            best, best_value = None, -1.0
            for child in node.children:
                value = child.wins / child.visits + c * math.sqrt(log_n / child.visits)
                if value > best_value:
                    best, best_value = child, value
            node = best
            sim.play(node.move)
            path.append(node)
        # Expansion: one untried move.
        if node.untried:
            mover = sim.to_move
            move = node.untried.pop()
            sim.play(move)
            child = Node(move, mover, _shuffled(sim.legal_moves(), rng))
            node.children.append(child)
            node = child
            path.append(node)
        winner = sim.random_playout(rng)
        for n in path:
            n.visits += 1
            if n.mover == winner:
                n.wins += 1
    return max(root.children, key=lambda ch: (ch.visits, -ch.move)).move


class UctPlayer:
    """A ``tanbo match`` player (see :mod:`tanbo_tools.lab.match`): plain UCT, ``uct:N``."""

    def __init__(self, spec, seed):
        self.playouts = parse_spec(spec)
        self.seed = seed

    def start(self, game):
        pass

    def played(self, game, mover, move):
        pass

    def genmove(self, game):
        return choose_move(game, self.playouts, seed=self.seed * 100003 + game.ply)

    def close(self):
        pass
