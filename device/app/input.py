"""Auto-repeat for the D-pad: a held direction repeats after DELAY_MS, then every RATE_MS."""

from boards.common import LEFT, RIGHT, UP, DOWN

DELAY_MS = 320
RATE_MS = 70
REPEATS = (UP, DOWN, LEFT, RIGHT)


class Repeater:
    """Feed it presses and releases with the time in ms; :meth:`due` says when to repeat."""

    def __init__(self):
        self.key = -1
        self.next = 0

    def press(self, key, now):
        if key in REPEATS:
            self.key = key
            self.next = now + DELAY_MS

    def release(self, key):
        if key == self.key:
            self.key = -1

    def cancel(self):
        """Stop repeating until the next press."""
        self.key = -1

    def due(self, now):
        """The key to repeat now, or -1."""
        if self.key >= 0 and now >= self.next:
            self.next = now + RATE_MS
            return self.key
        return -1
