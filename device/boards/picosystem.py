"""Pimoroni PicoSystem: 240x240 ST7789, 8 buttons on pins (active low), PWM piezo, battery sense.

Battery: ``BAT_SENSE`` (GPIO26, ADC0) reads the cell through a divider to a
third: Pimoroni's PicoSystem SDK converts its ADC reading with ``v * 3.0``
("correct for voltage divider on board", libraries/hardware.cpp,
``_battery_voltage``), and a PicoSystem read 25,800 (3.89 V) at a cell
measured 3.87 V (forums.pimoroni.com, "VBUS_DETECT and BAT_SENSE").
``VBUS_DETECT`` (GPIO2) is high on USB power; ``CHARGE_STAT`` (GPIO24, the
charger's status output, pulled up) low while the cell charges.

Its X and Y buttons play the roles of START and SELECT (X = START: the
game menu; Y = SELECT: hints on/off).
"""

import analogio
import audiocore
import audiopwmio
import board
import digitalio
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


DIVIDER = 3  # battery volts per BAT_SENSE volt (above)


def pin_in(pin, pull=None):
    """A digital input on ``pin`` (VBUS_DETECT, CHARGE_STAT)."""
    io = digitalio.DigitalInOut(pin)
    io.switch_to_input(pull=pull)
    return io


def hardware():
    display = board.DISPLAY
    display.auto_refresh = False
    keys = keypad.Keys(PINS, value_when_pressed=False, pull=True)
    sound = Tones(audiopwmio.PWMAudioOut(board.AUDIO), audiocore.RawSample)
    return Hardware("picosystem", display, Buttons(keys, KEY_ORDER), sound=sound,
                    storage=Storage(microcontroller.nvm),
                    battery=(analogio.AnalogIn(board.BAT_SENSE), DIVIDER, pin_in(board.VBUS_DETECT),
                             pin_in(board.CHARGE_STAT, digitalio.Pull.UP)),
                    slowness=SLOWNESS)
