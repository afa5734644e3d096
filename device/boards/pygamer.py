"""Adafruit PyGamer: 160x128 ST7735R, 4 shift-register buttons, analog joystick as D-pad, speaker.

The joystick (``JOYSTICK_X``/``JOYSTICK_Y``, AnalogIn 0..65535) becomes
UP/DOWN/LEFT/RIGHT through :class:`Joystick`'s dead zone (here, not in common:
the other boards need not load it).
"""

import analogio
import board
import microcontroller

from boards.common import A, B, DOWN, LEFT, RIGHT, SELECT, START, UP, Buttons, Hardware, Storage
from boards.pybadge import SLOWNESS, battery, shift_pins, shift_register_keys, speaker  # noqa: F401 (shift_pins: boards.sleep)


class Joystick:
    """An analog stick read as a D-pad: press past ``PRESS`` from centre, release inside ``RELEASE``.

    Values are AnalogIn units (0..65535, centre ~32768). The gap between the
    two thresholds (hysteresis) keeps a stick resting near the edge of the
    dead zone from chattering.
    """

    PRESS = 20000
    RELEASE = 12000

    def __init__(self, x, y):
        self.x = x
        self.y = y
        self.held = 0  # bit per key constant

    def poll(self, buttons):
        """Queue at most one change of the stick into ``buttons``; True if it did."""
        dx = self.x.value - 32768
        dy = self.y.value - 32768
        return (self._axis(buttons, dx, LEFT, RIGHT) or self._axis(buttons, dy, UP, DOWN))

    def _axis(self, buttons, d, low, high):
        return (self._set(buttons, low, d < -self.PRESS, d > -self.RELEASE)
                or self._set(buttons, high, d > self.PRESS, d < self.RELEASE))

    def _set(self, buttons, key, on, off):
        bit = 1 << key
        if on and not self.held & bit:
            self.held |= bit
            buttons.key, buttons.pressed = key, True
            return True
        if off and self.held & bit:
            self.held &= ~bit
            buttons.key, buttons.pressed = key, False
            return True
        return False


# The shift register's bit order; the D-pad is the joystick.
KEY_ORDER = bytes((B, A, START, SELECT))


def hardware():
    display = board.DISPLAY
    display.auto_refresh = False
    stick = Joystick(analogio.AnalogIn(board.JOYSTICK_X), analogio.AnalogIn(board.JOYSTICK_Y))
    return Hardware("pygamer", display, Buttons(shift_register_keys(4), KEY_ORDER, stick),
                    sound=speaker(), storage=Storage(microcontroller.nvm), battery=battery(),
                    slowness=SLOWNESS)
