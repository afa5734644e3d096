"""A deliberately naive Tanbo referee: whole-board flood fill after every move.

It shares no code with the engine (only the variants' neighbour tables and
setups, which have their own tests; on a Hexbo board not even the table:
the neighbours come from the cells' names and RULES.md's formula), so
agreement between the two on random games is evidence that the engine's
incremental bookkeeping is right.
"""

ROW_LETTERS = "ABCDEFGHIJKLMNOPQRS"


def hex_neighbours(variant):
    """``nb[p]``: the neighbours of every cell of a Hexbo board, from the cells'
    notation (row letter, column number) and RULES.md's six directions."""
    cell = {}
    for p in range(variant.size):
        name = variant.format_point(p)
        cell[(ROW_LETTERS.index(name[0]), int(name[1:]))] = p
    nb = [None] * variant.size
    for (r, c), p in cell.items():
        around = ((r, c - 1), (r, c + 1), (r - 1, c - 1), (r - 1, c), (r + 1, c), (r + 1, c + 1))
        nb[p] = tuple(cell[q] for q in around if q in cell)
    return nb


class Oracle:
    def __init__(self, variant, board=None, to_move=1):
        self.v = variant
        self.nb = hex_neighbours(variant) if variant.hex_side else variant.neighbours
        if board is None:
            board = [0] * variant.size
            for p, c in variant.setup:
                board[p] = c
        self.board = list(board)
        self.to_move = to_move
        self.winner = None
        self._update_winner()

    def roots(self):
        """List of (player, set of stones)."""
        seen = set()
        out = []
        for p in range(len(self.board)):
            c = self.board[p]
            if c and p not in seen:
                group = {p}
                stack = [p]
                while stack:
                    s = stack.pop()
                    for q in self.nb[s]:
                        if self.board[q] == c and q not in group:
                            group.add(q)
                            stack.append(q)
                seen |= group
                out.append((c, group))
        return out

    def space(self, player, group):
        pts = set()
        for s in group:
            for q in self.nb[s]:
                if self.board[q] == 0:
                    touching = [t for t in self.nb[q] if self.board[t] == player]
                    if len(touching) == 1 and touching[0] in group:
                        pts.add(q)
        return pts

    def legal(self, player=None):
        c = self.to_move if player is None else player
        if self.winner is not None:
            return []
        return [p for p in range(len(self.board))
                if self.board[p] == 0 and sum(1 for q in self.nb[p] if self.board[q] == c) == 1]

    def play(self, e):
        c = self.to_move
        assert e in self.legal()
        self.board[e] = c
        roots = self.roots()
        bounded = [(pl, g) for pl, g in roots if not self.space(pl, g)]
        current = [g for pl, g in roots if e in g][0]
        removed = set()
        if any(g is current for _, g in bounded):
            removed |= current
        else:
            for _, g in bounded:
                removed |= g
        for s in removed:
            self.board[s] = 0
        self._update_winner()
        if self.winner is None:
            k = c
            while True:
                k = k % self.v.players + 1
                if any(x == k for x in self.board):
                    break
            self.to_move = k
        else:
            self.to_move = self.winner
        return sorted(removed)

    def _update_winner(self):
        left = sorted(set(x for x in self.board if x))
        self.winner = left[0] if len(left) == 1 else None
