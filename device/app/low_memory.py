"""What the app does after a MemoryError (issue 22): the move played instead of
the search that failed, and the screen shown when not even the title menu
can be built.

A MemoryError on a board means no free block that big, often with plenty
free in all. :meth:`app.main.App.title` collects and tries the title once
more; if that fails too, this one-line screen stands in for it (never
CircuitPython's traceback console, also at start, before the app's loop
runs) and any key tries the title again. Its own module: it is loaded
only then, not kept on the heap while a game is played.
"""

import displayio

from app import theme
from app.text import Label

LINE = "Low memory. Press A"  # 19 characters: fits 160 px at 1x and 240 px at 2x


class LowMemory:
    """``app``'s stand-in for the title menu: one line of text; any key asks for the title."""

    def __init__(self, app):
        self.app = app
        self.group = displayio.Group()
        s = app.scale
        self.label = None
        try:
            self.label = Label(2 * s, app.height // 2 - 6 * s, len(LINE), theme.TEXT, scale=s, text=LINE)
            self.group.append(self.label.group)
        except MemoryError:
            pass  # the background alone; a key still brings the title

    def key(self, k):
        self.app.title()
        return 0

    def tick(self, now):
        return 0


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
