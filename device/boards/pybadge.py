"""Adafruit PyBadge / PyBadge LC / EdgeBadge: 160x128 ST7735R, 8 shift-register buttons, speaker.

Battery: ``A6`` reads the cell through a divider to a half (two equal
resistors): Adafruit's PyBadge and PyGamer guides ("Pinouts": "A6 is
connected to a voltage divider which gives half the current battery
voltage"), and their Arcada library's ``readBatterySensor()`` doubles it.
The board cannot tell USB power from the cell: USB is shown while a host
is connected (``supervisor.runtime.usb_connected``).
"""

import analogio
import audiocore
import audioio
import board
import digitalio
import keypad
import microcontroller

from boards.common import A, B, DOWN, LEFT, RIGHT, SELECT, START, UP, Buttons, Hardware, Storage, Tones

# The shift register's bit order (key numbers 0..7).
KEY_ORDER = bytes((B, A, START, SELECT, RIGHT, DOWN, UP, LEFT))
SLOWNESS = 1.0  # SAMD51 at 120 MHz: the board the search budgets are measured for
DIVIDER = 2  # battery volts per A6 volt (above)


def speaker():
    """Tones on the built-in speaker (its amplifier switched on)."""
    enable = digitalio.DigitalInOut(board.SPEAKER_ENABLE)
    enable.switch_to_output(value=True)
    tones = Tones(audioio.AudioOut(board.SPEAKER), audiocore.RawSample)
    tones.enable_pin = enable  # keep the pin object alive
    return tones


def shift_pins():
    """The buttons' shift register (clock, data, latch) and the NeoPixels' pin (also for boards.sleep)."""
    return board.BUTTON_CLOCK, board.BUTTON_OUT, board.BUTTON_LATCH, board.NEOPIXEL


def shift_register_keys(count):
    clock, data, latch, _ = shift_pins()
    return keypad.ShiftRegisterKeys(clock=clock, data=data, latch=latch, key_count=count,
                                    value_when_pressed=True)


def battery():
    """The cell's data for app.power_due: A6 and its divider; no USB or charging pins."""
    return (analogio.AnalogIn(board.A6), DIVIDER, None, None)


def hardware():
    display = board.DISPLAY
    display.auto_refresh = False
    return Hardware("pybadge", display, Buttons(shift_register_keys(8), KEY_ORDER),
                    sound=speaker(), storage=Storage(microcontroller.nvm), battery=battery(),
                    slowness=SLOWNESS)
