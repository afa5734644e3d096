"""The hardware contract every board module builds: display, buttons, sound, storage, battery.

Board modules (``pybadge.py``, ``pygamer.py``, ``picosystem.py``) only say
which pins and key orders they have; everything here is shared. The app
sees one key vocabulary (the ``UP``..``SELECT`` constants below) whatever
the board, and never asks which board it is on.
"""

import keypad

# The one key vocabulary of the app (ints, so events allocate nothing).
UP = 0
DOWN = 1
LEFT = 2
RIGHT = 3
A = 4
B = 5
START = 6
SELECT = 7


class Hardware:
    """What the app may use. ``sound`` and ``battery`` are None on boards without them.

    ``slowness``: how many times longer than a SAMD51 (PyBadge, PyGamer) this
    board's CPU takes for the same MicroPython code (RP2040: 4.4, measured on
    the firmware). The app sizes the computer's search and its spinner by it.

    ``battery``: ``(adc, ratio, vbus, charge)``, read by :mod:`app.power_due`: the
    cell's AnalogIn through a divider of ``ratio`` (battery volts per ADC volt),
    a DigitalInOut high on USB power and one low while charging (None where
    the board has none).
    """

    def __init__(self, name, display, buttons, sound=None, storage=None, battery=None, slowness=1.0):
        self.name = name
        self.display = display
        self.buttons = buttons
        self.sound = sound
        self.storage = storage
        self.battery = battery
        self.slowness = slowness


class Buttons:
    """Press/release events of a ``keypad`` scanner, translated into the key vocabulary.

    ``order`` holds the key (``UP``..``SELECT``) of each of the scanner's key
    numbers in order (e.g. the PyBadge's shift register: B, A, START, SELECT,
    RIGHT, DOWN, UP, LEFT), as bytes. After
    :meth:`read` returns True, ``key`` and ``pressed`` describe the event;
    ``held`` is a bit mask (``1 << key``) of keys down now. A ``keypad``
    queue overflow drops the queue and rescans, so no key stays stuck.
    """

    def __init__(self, keys, order, joystick=None):
        self.keys = keys
        self.codes = order
        self.joystick = joystick
        self.event = keypad.Event()
        self.key = 0
        self.pressed = False
        self.held = 0

    def read(self):
        """Take the next event (True) or report that there is none (False)."""
        events = self.keys.events
        if events.overflowed:
            events.clear()
            self.keys.reset()  # keys still down are reported again as presses
            self.held = 0 if self.joystick is None else self.joystick.held
        if events.get_into(self.event):
            self.key = self.codes[self.event.key_number]
            self.pressed = self.event.pressed
        elif self.joystick is None or not self.joystick.poll(self):
            return False
        if self.pressed:
            self.held |= 1 << self.key
        else:
            self.held &= ~(1 << self.key)
        return True


# The app's sounds (indexes into Tones.samples).
CLICK = 0  # a stone placed
CHORD = 1  # roots removed


class Tones:
    """Short sounds on an audio output: ``play(CLICK)``, ``play(CHORD)``.

    ``out`` is an ``audioio.AudioOut`` / ``audiopwmio.PWMAudioOut``;
    ``rawsample`` is ``audiocore.RawSample``. The samples are built once
    (about 1.5 KB). ``enabled`` mutes everything when False.
    """

    def __init__(self, out, rawsample):
        self.out = out
        self.enabled = True
        # Made by a module that boards.hardware() drops afterwards: this code stays small.
        self.samples = __import__("boards.waves", None, None, ["_"]).samples(rawsample)

    def play(self, sound):
        if self.enabled:
            self.out.stop()
            self.out.play(self.samples[sound])


class Storage:
    """Non-volatile bytes (``microcontroller.nvm``): ``size``, ``read(offset, n)``, ``write(offset, data)``.

    CircuitPython (not Blinka, not a plain bytearray): every slice assignment
    to ``microcontroller.nvm`` erases and rewrites the whole flash sector
    under it (4 KB; flash endures ~100,000 erases), so callers write one
    slice per save and only when something changed.
    """

    def __init__(self, nvm):
        self.nvm = nvm
        self.size = len(nvm)

    def read(self, offset, n):
        return bytes(self.nvm[offset:offset + n])

    def write(self, offset, data):
        self.nvm[offset:offset + len(data)] = data
