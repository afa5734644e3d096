"""What the app plays after a MemoryError in the computer's search (issue 22): the
move played instead of the search that failed.

A MemoryError on a board means no free block that big, often with plenty
free in all. Its own module: loaded only then, not kept on the heap while
a game is played. The screen shown when not even the title menu can be
built is :mod:`app.last_resort`'s, made at start.
"""


def lighter_move(app, screen):
    """The move after a MemoryError in this move's search (see :meth:`app.main.App.out_of_memory`),
    said in the status line: a search at ``app.fallback``, or at "any" a
    legal move without the AI (the seed's: nothing to allocate)."""
    level = app.fallback
    app.fallback = None
    what = "a legal move" if level == "any" else level + " move"
    screen.notify("low memory: " + what, "low RAM: " + level, "RAM:" + level, "low RAM")
    if level == "any":
        moves = screen.game.legal_moves()
        return moves[screen.game.ply % len(moves)]
    return screen.choose(level, app.progress)
