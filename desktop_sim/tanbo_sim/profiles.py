"""The simulated boards: what their hardware is, as data (the twins' wiring).

``buttons`` maps each button name of the app's vocabulary to where the
twin hardware reports it: ``("shift", n)`` is bit n of the shift register
(``keypad.ShiftRegisterKeys``), ``("pin", NAME)`` is the ``keypad.Keys``
key whose pin is ``board.NAME``, ``("stick", AXIS, VALUE)`` moves the
joystick's analog pin to VALUE (0..65535) while held. These mirror the
real boards' wiring; the device modules must find the same names there.
"""

from collections import namedtuple

Profile = namedtuple("Profile", "name board_id width height nvm_size pins buttons keymap_note battery step_us")

STEP_US = 240  # a SAMD51's idle pass of App.step, +20% for CircuitPython (docs/power.md); RP2040: x4.4
_SHIFT8 = {"B": 0, "A": 1, "START": 2, "SELECT": 3, "RIGHT": 4, "DOWN": 5, "UP": 6, "LEFT": 7}

PROFILES = {
    "pybadge": Profile(
        name="pybadge", board_id="pybadge", width=160, height=128, nvm_size=8192,
        pins=("BUTTON_CLOCK", "BUTTON_OUT", "BUTTON_LATCH", "SPEAKER", "SPEAKER_ENABLE", "A6", "NEOPIXEL"),
        buttons={k: ("shift", n) for k, n in _SHIFT8.items()}, keymap_note="",
        battery=("A6", 2), step_us=STEP_US),
    "pygamer": Profile(
        name="pygamer", board_id="pygamer", width=160, height=128, nvm_size=8192,
        pins=("BUTTON_CLOCK", "BUTTON_OUT", "BUTTON_LATCH", "SPEAKER", "SPEAKER_ENABLE",
              "JOYSTICK_X", "JOYSTICK_Y", "A6", "NEOPIXEL"),
        buttons={"B": ("shift", 0), "A": ("shift", 1), "START": ("shift", 2), "SELECT": ("shift", 3),
                 "LEFT": ("stick", "JOYSTICK_X", 0), "RIGHT": ("stick", "JOYSTICK_X", 65535),
                 "UP": ("stick", "JOYSTICK_Y", 0), "DOWN": ("stick", "JOYSTICK_Y", 65535)},
        keymap_note="arrows = joystick", battery=("A6", 2), step_us=STEP_US),
    "picosystem": Profile(
        name="picosystem", board_id="pimoroni_picosystem", width=240, height=240, nvm_size=4096,
        pins=("SW_A", "SW_B", "SW_X", "SW_Y", "SW_UP", "SW_DOWN", "SW_LEFT", "SW_RIGHT", "AUDIO",
              "BAT_SENSE", "VBUS_DETECT", "CHARGE_STAT"),
        buttons={"A": ("pin", "SW_A"), "B": ("pin", "SW_B"), "START": ("pin", "SW_X"),
                 "SELECT": ("pin", "SW_Y"), "UP": ("pin", "SW_UP"), "DOWN": ("pin", "SW_DOWN"),
                 "LEFT": ("pin", "SW_LEFT"), "RIGHT": ("pin", "SW_RIGHT")},
        keymap_note="START = X, SELECT = Y", battery=("BAT_SENSE", 3), step_us=STEP_US * 4.4),
}

BUTTONS = ("UP", "DOWN", "LEFT", "RIGHT", "A", "B", "START", "SELECT")


def get_profile(name):
    """The Profile called ``name`` (``picosystem`` or its board id); ValueError quoting it."""
    key = (name or "").strip().lower()
    for p in PROFILES.values():
        if key in (p.name, p.board_id):
            return p
    raise ValueError("%r: unknown board (choose %s)" % (name, ", ".join(PROFILES)))
