"""The app's last line of defence: the one-line screen shown when not even the title menu can be built.

A MemoryError on a board means no free block that big, often with plenty
free in all; another exception a screen raises (a damaged file, a bug)
goes the same way back to the title. :meth:`app.main.App.title` tries the
title twice; if both fail, :meth:`app.main.App.last_stand` puts this
screen up. Issue 33: when it was imported and built at that moment, at
117 KB free its import failed for 232 bytes and CircuitPython's traceback
console took the screen. So it is built at start (app.start.set_up), its
text already in its tiles, and held for the app's life: showing it
allocates nothing (see last_stand), whatever the heap. Held: one Label (a
palette, a 19-tile grid, two groups), about 0.4 KB of a board's heap
(docs/board-costs.md).

Not a restart through ``supervisor.reload()`` with the game saved: between
two runs of code.py CircuitPython puts its own terminal on the display
("soft reboot", "code.py output:"), the console the player must not see,
and the restart costs the player seconds and the menus' state.
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
