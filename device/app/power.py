"""The battery's minder, resident part: wakes on a key and paces the loop.

:class:`Power` is held by the app (``app.power``) for its life, so it is
kept to what runs at every step (each byte of its code is heap under a
game: docs/power.md); the rest (waking, dimming, the sleep, reading the
battery, its gauge, the low-battery save) is :mod:`app.power_due`, loaded
when one of them is due (a reading every READ_MS, the dim, the sleep, a
wake) and let go after. The app calls :meth:`Power.woke` with every press
(True: the press only woke the screen), :meth:`Power.tick` once a step and
:meth:`Power.wait` between steps on the board (the simulator asks
:meth:`Power.pause`).
"""

import sys

LOOP_MS = 10  # the loop's period while keys come: keypad scans in the background meanwhile
AWAKE_MS = 1500  # after a key or a change on screen the loop runs every LOOP_MS this long,
IDLE_MS = 100  # then every IDLE_MS: keypad queues presses meanwhile, none is lost
# The gauge ("80%", "+80%" charging, "USB"; "" without a battery), in a list that
# the game's status panel (app.board_view) and the menus read.
GAUGE = [""]


class Power:
    """The backlight's ``state`` (0 lit, 1 dimmed, 2 asleep), the clock ms of the ``last``
    key or change on screen, and when :mod:`app.power_due` has something to do (``due``)."""

    # Set by app.power_due, on the object only once they change.
    state = 0
    swallow = -1  # clock ms until which a press only wakes (after the board's sleep)
    read_at = 0  # clock ms of the next battery reading
    low = False  # the low battery was said (and the game saved)

    def __init__(self, app):
        self.app = app
        self.last = self.due = app.clock()

    def woke(self, now):
        """A press at ``now``: True if it only wakes the screen (it must not act)."""
        self.last = now
        if self.state or now < self.swallow:
            self.run("wake", now)
            return True
        return False

    def tick(self, now, changed):
        """``changed``: the screen changed in this step (the computer's move, a flash): not idle."""
        if changed:
            self.last = now
        if now >= self.due:
            self.run("tick", now)

    def run(self, name, now):
        """:mod:`app.power_due`'s ``name``; if the heap has no room for its code, tried later."""
        try:
            getattr(__import__("app.power_due").power_due, name)(self, now)
        except MemoryError:
            self.due = now + 10000
        sys.modules.pop("app.power_due", None)
        sys.modules["app"].__dict__.pop("power_due", None)

    def pause(self, now):
        """ms until the loop's next step; -1: asleep until a key (:mod:`boards.sleep`)."""
        if self.state == 2:
            return -1
        if now - self.last < AWAKE_MS or self.app.repeat.key >= 0 or getattr(self.app.screen, "coach", None):
            return LOOP_MS
        return IDLE_MS

    def wait(self):
        """Wait for the next step as :meth:`pause` says (on the board: ``App.run``)."""
        ms = self.pause(self.app.clock())
        if ms < 0:
            self.run("sleep", 0)
        else:
            self.app.sleep(ms / 1000)
