"""The power service, loaded when something is due (:meth:`app.main.App.power`) and
let go after: each byte of code held for the app's life is heap under a game.

The app's loop (app.main) keeps only what runs at every step: the first
press after a dim or a sleep calls :func:`wake` and does nothing else; the
loop waits LOOP_MS between steps for AWAKE_MS after a key or a change on
screen, IDLE_MS after that (:meth:`app.main.App.pause`); at ``app.due`` it
calls :func:`tick`, which dims after DIM_MS without a key, turns the screen
off after the Sleep setting (stopping the pondering), reads the battery
(at least every READ_MS: its gauge on the screen that shows one, the game
saved once under LOW %), and says when it is due again. Asleep, ``App.run`` calls
:func:`sleep`: the board's deepest sleep that a button ends (boards.sleep).
Figures: docs/power.md.

``hw.battery`` is the board's data (boards/): (AnalogIn of the cell through
a divider, battery volts per ADC volt, a DigitalInOut high on USB power or
None, one low while charging or None). Without the USB pin, USB is a host
seen on the USB port (``supervisor.runtime.usb_connected``).
"""

import sys

from app import GAUGE

DIM_MS = 30000  # ms without a key before the backlight dims
DIM = 0.2  # the dimmed backlight (of 1.0)
# Settings' "Sleep" (app.screens.settings.SLEEP_NAMES): ms without a key before the screen goes dark (0: never).
SLEEP_MS = (60000, 120000, 300000, 0)
SWALLOW_MS = 400  # after the board's sleep, a press this soon is the one that woke it
READ_MS = 15000  # ms between battery readings
LOW = 5  # percent: below it the game is saved and the player told, once
# A LiPo cell's discharge curve at a handheld's small current, the usual
# single-cell table: volts - 3 (x 100) and the percent left there.
CURVE_V = bytes((27, 61, 69, 73, 77, 80, 84, 87, 95, 102, 111, 120))
CURVE_P = bytes((0, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100))


def percent(volts):
    """The charge (0-100) of a LiPo cell at ``volts``."""
    v = int(volts * 100 + 0.5) - 300
    if v <= CURVE_V[0]:
        return 0
    for i in range(1, len(CURVE_V)):
        if v <= CURVE_V[i]:
            lo, hi = CURVE_V[i - 1], CURVE_V[i]
            return CURVE_P[i - 1] + (CURVE_P[i] - CURVE_P[i - 1]) * (v - lo) // (hi - lo)
    return 100


def state(battery):
    """(volts, on USB power, charging) of the board's ``battery`` data."""
    adc, ratio, vbus, charge = battery
    if vbus is not None:
        usb = vbus.value
    else:
        try:
            import supervisor
            usb = supervisor.runtime.usb_connected
        except (ImportError, AttributeError):
            usb = False
    return adc.value * ratio * 3.3 / 65535, usb, charge is not None and not charge.value


def tick(app, now):
    """Dim or sleep after the idle times, read the battery when due; then set when to come back."""
    idle = now - app.last
    if app.lit == 0 and idle >= DIM_MS:
        light(app, 1)
    limit = SLEEP_MS[app.settings.sleep]
    if app.lit == 1 and limit and idle >= limit:
        screen = app.screen
        if getattr(screen, "ponder", None):
            screen.ponder = None  # its search stops: the next reply is searched afresh
        light(app, 2)
    if app.hw.battery is not None:
        read(app)  # (also when a dim or a key brought the tick forward: no harm)
    due = now + READ_MS
    if app.lit == 0:
        due = min(due, app.last + DIM_MS)
    elif app.lit == 1 and limit:
        due = min(due, app.last + limit)
    app.due = due


def wake(app, now):
    """A press woke the screen (and does nothing else): lit again."""
    app.last = now
    app.swallow = -1
    light(app, 0)
    app.due = now


def light(app, lit):
    """The backlight on (0), dimmed (1) or off (2)."""
    app.lit = lit
    app.display.brightness = (1.0, DIM, 0.0)[lit]


def sleep(app, now):
    """The board's deepest sleep until a button (boards.sleep); then lit, the waking press
    swallowed (``now``: unused, the clock has moved on)."""
    __import__("boards.sleep").sleep.until_key(app.hw)
    # (and the boards' package, which that import made again: app.held lets it go too)
    sys.modules.pop("boards.sleep", None)
    sys.modules.pop("boards", None)
    light(app, 0)
    app.last = app.due = app.clock()
    app.swallow = app.last + SWALLOW_MS


def read(app):
    """Read ``app``'s battery; show a changed gauge; under LOW %, save and say so once."""
    volts, usb, charging = state(app.hw.battery)
    p = percent(volts)
    text = "+%d%%" % p if charging else "USB" if usb else "%d%%" % p
    if text != GAUGE[0]:
        GAUGE[0] = text
        show(app)
    if p >= LOW + 5 or usb or charging:
        app.low = False  # charged again: said again next time
    elif p < LOW and not app.low:
        app.low = True
        screen = app.screen
        app.save_game(screen.game if getattr(screen, "searches", False) else app.saved_game)
        if hasattr(screen, "notify"):
            screen.notify("Battery low: saved.", "Battery low", "bat low")
            app.dirty = True
        else:
            app.notice = ("Battery low: saved.",)  # on the title, now or when it next shows
            if getattr(screen, "footer_text", None) is not None:
                app.title()


def show(app):
    """Put the gauge on the screen on show, if it shows one (the title's footer, a game's status)."""
    screen = app.screen
    if getattr(screen, "footer_text", None) is not None:
        from app.screens.menu import with_gauge
        screen.footer.text = with_gauge(screen.footer_text, screen.cols)
    elif getattr(screen, "status", None) is not None:
        screen.update()
    else:
        return
    app.dirty = True
