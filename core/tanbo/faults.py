"""Why a board is no Tanbo position: the errors of :class:`tanbo.game.Game`'s
construction, with the row and column of the problem.

Loaded only when a position is refused, so a board's heap does not carry
this code through every game.
"""

from .variants import player_name


def stone_of_no_player(game, p):
    """The error for a stone on ``p`` of a player the variant does not have."""
    v = game.variant
    return ValueError("position: %s is a %s stone, but %s has %d players"
                      % (where(v, p), player_name(game.board[p]), v.name, v.players))


def not_a_tree(game, start):
    """The error for the root of the stone on ``start``, which has a loop or clump."""
    v = game.variant
    return ValueError("position: the %s root at %s has a loop or clump (a root must be a tree)"
                      % (player_name(game.board[start]), where(v, cycle_point(game, start))))


def bounded_root(game, r):
    """The error for root ``r``, which has no root space."""
    v = game.variant
    return ValueError("position: the %s root at %s is bounded (no root space); "
                      "no bounded root can remain after a turn"
                      % (player_name(game.root_player[r]), where(v, game.head[r])))


def where(v, p):
    """Row and column of ``p`` for error messages."""
    x, y, z = v.coords(p)
    if v.hex_side:
        name = v.format_point(p)
        return "%s (row %s, column %s)" % (name, name[0], name[1:])
    if v.dims == 1:
        return "point %d" % (p + 1)
    if v.dims == 3:
        return "%s (layer %d, row %d, column %d)" % (v.format_point(p), z + 1, v.height - y, x + 1)
    return "%s (row %d, column %s)" % (v.format_point(p), v.height - y, v.format_point(p)[0])


def cycle_point(game, start):
    """A stone on a cycle of the (non-tree) root containing ``start``."""
    # Repeatedly strip leaves (degree <= 1); what survives lies on a cycle.
    board, steps, root_of = game.board, game.steps, game.root_of
    c = board[start]
    members = [p for p in range(len(board)) if board[p] == c and root_of[p] == root_of[start]]
    deg = {}
    for p in members:
        deg[p] = sum(1 for d in steps[p] if board[p + d] == c)
    leaves = [p for p in members if deg[p] <= 1]
    while leaves:
        p = leaves.pop()
        if deg[p] < 0:
            continue
        deg[p] = -1
        for d in steps[p]:
            q = p + d
            if board[q] == c and deg.get(q, -1) > 0:
                deg[q] -= 1
                if deg[q] == 1:
                    leaves.append(q)
    cyc = [p for p in members if deg[p] > 1]
    return min(cyc) if cyc else start
