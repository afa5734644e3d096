"""The battery's minder: dims, sleeps, paces the loop, reads the charge, saves before it runs out.

:class:`Power` is held by the app (``app.power``) for its life. The app
calls :meth:`Power.woke` with every press (True: the press only woke the
screen), :meth:`Power.tick` once a step and :meth:`Power.wait` between
steps on the board (the simulator asks :meth:`Power.pause` instead).
What the board does while asleep is in :mod:`boards.sleep`, loaded only
then. Figures: docs/power.md.
"""

LOOP_MS = 10  # the loop's period while keys come: keypad scans in the background meanwhile
DIM_MS = 30000  # ms without a key before the backlight dims
DIM = 0.2  # the dimmed backlight (of 1.0)
# Settings' "Sleep" choices: ms without a key before the screen goes dark (0: never).
SLEEP_MS = (60000, 120000, 300000, 0)
SLEEP_NAMES = ("1 min", "2 min", "5 min", "never")
AWAKE_MS = 1500  # after a key or a change on screen the loop scans every LOOP_MS for this long
IDLE_MS = 100  # then every IDLE_MS: keypad queues presses meanwhile, none is lost
SWALLOW_MS = 400  # after the board's sleep, a press this soon is the one that woke it
READ_MS = 10000  # ms between battery readings
LOW = 5  # percent: below it the game is saved and the player told, once
# The LiPo's discharge curve at a handheld's small current (volts x 100, percent),
# the usual single-cell table: 3.27 V is empty, 4.20 V full.
CURVE = ((327, 0), (361, 5), (369, 10), (373, 20), (377, 30), (380, 40), (384, 50),
         (387, 60), (395, 70), (402, 80), (411, 90), (420, 100))

# The gauge as shown ("80%", "+80%" charging, "USB"; "" with no battery), in a list
# that the game's status panel (app.board_view) reads.
GAUGE = [""]
ON = 0
DIMMED = 1
ASLEEP = 2


def percent(volts):
    """The charge (0-100) of a LiPo cell at ``volts``, from :data:`CURVE`."""
    v = int(volts * 100 + 0.5)
    lo_v, lo_p = CURVE[0]
    if v <= lo_v:
        return 0
    for hi_v, hi_p in CURVE:
        if v <= hi_v:
            return lo_p + (hi_p - lo_p) * (v - lo_v) // (hi_v - lo_v)
        lo_v, lo_p = hi_v, hi_p
    return 100


class Power:
    """Backlight, sleep, loop pace and battery gauge of ``app`` (:class:`app.main.App`)."""

    def __init__(self, app):
        self.app = app
        self.state = ON
        self.last = app.clock()  # clock ms of the last key or change on screen
        self.swallow = -1  # clock ms until which a press only wakes (after the board's sleep)
        self.read_at = self.last  # next battery reading
        self.low = False  # the low battery was said (and the game saved)
        self.read()

    def woke(self, now):
        """A press at ``now``: True if it only wakes the screen (it must not act)."""
        self.last = now
        if self.state == ON and now >= self.swallow:
            return False
        self.swallow = -1
        self.light(ON)
        return True

    def light(self, state):
        """Set the backlight for ``state`` (ON, DIMMED, ASLEEP)."""
        self.state = state
        self.app.display.brightness = (1.0, DIM, 0.0)[state]

    def tick(self, now, changed):
        """Dim or sleep after the idle times; read the battery now and then. ``changed``:
        the screen changed in this step (the computer's move, a flash): not idle."""
        if changed:
            self.last = now
        idle = now - self.last
        if self.state == ON and idle >= DIM_MS:
            self.light(DIMMED)
        limit = SLEEP_MS[self.app.settings.sleep]
        if self.state == DIMMED and limit and idle >= limit:
            screen = self.app.screen
            if getattr(screen, "ponder", None):
                screen.ponder = None  # its search stops: the next reply is searched afresh
            self.light(ASLEEP)
        if now >= self.read_at:
            self.read_at = now + READ_MS
            self.read()

    def read(self):
        """Read the battery; show a changed gauge; below LOW %, save and say so once."""
        b = self.app.hw.battery
        if b is None:
            return
        usb, charging = b.usb(), b.charging()
        p = percent(b.volts())
        text = ("+%d%%" % p) if charging else "USB" if usb else "%d%%" % p
        if text != GAUGE[0]:
            GAUGE[0] = text
            self.show()
        if p < LOW and not usb and not charging and not self.low:
            self.low = True
            app = self.app
            screen = app.screen
            game = screen.game if getattr(screen, "searches", False) else app.saved_game
            app.save_game(game)
            if hasattr(screen, "notify"):
                screen.notify("Battery low: saved.", "Battery low", "bat low")
            else:
                app.notice = ("Battery low: saved.",)
                if getattr(screen, "footer_text", None) is not None:
                    app.title()
            app.dirty = True
        elif p >= LOW + 5:
            self.low = False  # charged again: said again next time

    def show(self):
        """Put the gauge on the screen on show, if it shows one."""
        screen = self.app.screen
        footer = getattr(screen, "footer_text", None)
        if footer is not None:
            screen.footer.text = with_gauge(footer, screen.cols)
        elif getattr(screen, "status", None) is not None:
            screen.update()
        else:
            return
        self.app.dirty = True

    def pause(self, now):
        """ms until the loop's next step; -1: asleep until a key (:mod:`boards.sleep`)."""
        if self.state == ASLEEP:
            return -1
        if now - self.last < AWAKE_MS or self.app.repeat.key >= 0 or getattr(self.app.screen, "coach", None):
            return LOOP_MS
        return IDLE_MS

    def wait(self):
        """Wait for the next step as :meth:`pause` says (on the board: ``App.run``)."""
        app = self.app
        ms = self.pause(app.clock())
        if ms >= 0:
            app.sleep(ms / 1000)
            return
        from boards.sleep import until_key
        until_key(app.hw)
        __import__("sys").modules.pop("boards.sleep", None)
        self.light(ON)
        self.last = app.clock()
        self.swallow = self.last + SWALLOW_MS


def with_gauge(text, cols):
    """``text`` with the gauge at the right end of ``cols`` columns (``text`` alone if none)."""
    gauge = GAUGE[0]
    if not gauge:
        return text
    return text + " " * max(1, cols - len(text) - len(gauge)) + gauge
