"""board for the heap probe: PicoSystem unless the probe sets board_id and DISPLAY first."""

import displayio

board_id = "pimoroni_picosystem"
DISPLAY = displayio.Display(240, 240)

SW_A = SW_B = SW_X = SW_Y = SW_UP = SW_DOWN = SW_LEFT = SW_RIGHT = BAT_SENSE = AUDIO = object()
BUTTON_CLOCK = BUTTON_OUT = BUTTON_LATCH = SPEAKER = SPEAKER_ENABLE = object()
JOYSTICK_X = JOYSTICK_Y = object()
A6 = VBUS_DETECT = CHARGE_STAT = NEOPIXEL = object()
