"""Pimoroni PicoSystem: 240x240 ST7789, 8 buttons on pins (active low), PWM piezo, battery sense.

Its X and Y buttons play the roles of START and SELECT (X = START: the
game menu; Y = SELECT: hints on/off).
"""

import analogio
import audiocore
import audiopwmio
import board
import keypad
import microcontroller

from boards.common import A, B, DOWN, LEFT, RIGHT, SELECT, START, UP, Buttons, Hardware, Storage, Tones

PINS = (board.SW_A, board.SW_B, board.SW_X, board.SW_Y,
        board.SW_UP, board.SW_DOWN, board.SW_LEFT, board.SW_RIGHT)
KEY_ORDER = bytes((A, B, START, SELECT, UP, DOWN, LEFT, RIGHT))
# RP2040 (Cortex-M0+, 125 MHz) against the SAMD51 (Cortex-M4, 120 MHz): the
# same search took ~4.1x as long on CircuitPython 10.2.1 firmware (issue
# 22: 0.42-0.477 ms a node); 4.4 keeps hard 11-13% under its limits there
# (see tanbo.ai.SLOWNESS).
SLOWNESS = 4.4


class Battery:
    """Battery voltage in volts from ``BAT_SENSE``, assuming a 1:3 divider on the
    3.3 V ADC (not yet checked on a PicoSystem; shown only on the settings screen)."""

    def __init__(self, pin):
        self.adc = analogio.AnalogIn(pin)

    def volts(self):
        return self.adc.value * 3 * 3.3 / 65535


def hardware():
    display = board.DISPLAY
    display.auto_refresh = False
    keys = keypad.Keys(PINS, value_when_pressed=False, pull=True)
    sound = Tones(audiopwmio.PWMAudioOut(board.AUDIO), audiocore.RawSample)
    return Hardware("picosystem", display, Buttons(keys, KEY_ORDER), sound=sound,
                    storage=Storage(microcontroller.nvm), battery=Battery(board.BAT_SENSE),
                    slowness=SLOWNESS)
