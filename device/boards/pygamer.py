"""Adafruit PyGamer: 160x128 ST7735R, 4 shift-register buttons, analog joystick as D-pad, speaker.

The joystick (``JOYSTICK_X``/``JOYSTICK_Y``, AnalogIn 0..65535) becomes
UP/DOWN/LEFT/RIGHT through :class:`boards.common.Joystick`'s dead zone.
"""

import analogio
import board
import microcontroller

from boards.common import Buttons, Hardware, Joystick, Storage
from boards.pybadge import SLOWNESS, shift_register_keys, speaker

# The shift register's bit order; the D-pad is the joystick.
KEY_ORDER = ("B", "A", "START", "SELECT")


def hardware():
    display = board.DISPLAY
    display.auto_refresh = False
    stick = Joystick(analogio.AnalogIn(board.JOYSTICK_X), analogio.AnalogIn(board.JOYSTICK_Y))
    return Hardware("pygamer", display, Buttons(shift_register_keys(4), KEY_ORDER, stick),
                    sound=speaker(), storage=Storage(microcontroller.nvm), slowness=SLOWNESS)
