"""Desktop twins of CircuitPython's hardware modules, installed into ``sys.modules``.

``board`` (board_id, DISPLAY, pins as plain names), ``keypad`` (Keys,
ShiftRegisterKeys, Event, EventQueue fed by :class:`Wiring`),
``microcontroller`` (``nvm`` backed by a file), ``analogio`` (joystick and
battery pins), ``digitalio``, ``audioio``/``audiopwmio``/``audiocore``
(record what is played; no sound), ``displayio``/``bitmaptools``
(:mod:`tanbo_sim.display_twin`), ``supervisor.runtime``, ``alarm`` and
``neopixel_write`` (what :mod:`boards.sleep` asks, recorded). Nothing here knows about the app.
"""

import os
import sys
import types

import tanbo_files as files
from tanbo_sim import display_twin

MAX_EVENTS = 64  # CircuitPython's keypad default


class Pin:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "board." + self.name


class Event:
    def __init__(self, key_number=0, pressed=True, timestamp=None):
        self.key_number = key_number
        self.pressed = pressed
        self.timestamp = timestamp

    @property
    def released(self):
        return not self.pressed

    def __eq__(self, other):
        return (self.key_number, self.pressed) == (other.key_number, other.pressed)

    def __repr__(self):
        return "<Event: key_number %d %s>" % (self.key_number, "pressed" if self.pressed else "released")


class EventQueue:
    def __init__(self):
        self._max_events = MAX_EVENTS
        self._events = []
        self._overflowed = False

    def _record(self, key_number, pressed):
        if len(self._events) >= self._max_events:
            self._overflowed = True
            return
        self._events.append((key_number, pressed))

    def get(self):
        if not self._events:
            return None
        k, p = self._events.pop(0)
        return Event(k, p)

    def get_into(self, event):
        if not self._events:
            return False
        event.key_number, event.pressed = self._events.pop(0)
        return True

    def clear(self):
        self._events.clear()
        self._overflowed = False

    @property
    def overflowed(self):
        return self._overflowed

    def __bool__(self):
        return bool(self._events)

    def __len__(self):
        return len(self._events)


class _Scanner:
    def __init__(self, wiring, key_count, max_events):
        self.key_count = key_count
        self.events = EventQueue()
        self.events._max_events = max_events
        self._down = set()
        wiring.scanners.append(self)

    def _change(self, key_number, pressed):
        if pressed == (key_number in self._down):
            return
        (self._down.add if pressed else self._down.discard)(key_number)
        self.events._record(key_number, pressed)

    def reset(self):
        for k in sorted(self._down):
            self.events._record(k, True)

    def deinit(self):
        pass


class Wiring:
    """The twin's buttons and analog pins; the simulator presses and releases through it."""

    def __init__(self, profile):
        self.profile = profile
        self.scanners = []
        self.shift = None
        self.pin_keys = None
        self.analog = {}
        self.levels = {}  # digital inputs by pin name (VBUS_DETECT, CHARGE_STAT, BUTTON_OUT)
        self.slept = []  # what boards.sleep asked of the alarm and neopixel_write twins
        self.held = set()
        self.power("battery")

    def power(self, state, volts=3.9):
        """The cell and USB: ``state`` "battery", "usb" (USB power, charged) or "charging";
        ``volts`` the cell's voltage, read through the profile's divider."""
        p = self.profile
        if p.battery is None:
            return
        pin, ratio = p.battery
        self.analog[pin] = max(0, min(65535, int(volts / ratio / 3.3 * 65535 + 0.5)))
        if "VBUS_DETECT" in p.pins:
            self.levels["VBUS_DETECT"] = state != "battery"
            self.levels["CHARGE_STAT"] = state != "charging"  # low while charging
        self.usb_host = state != "battery"

    def keypad_module(self):
        wiring = self
        m = types.ModuleType("keypad")
        m.Event, m.EventQueue = Event, EventQueue

        class Keys(_Scanner):
            def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.02,
                         max_events=MAX_EVENTS):
                super().__init__(wiring, len(pins), max_events)
                wiring.pin_keys = (self, [p.name for p in pins])

        class ShiftRegisterKeys(_Scanner):
            def __init__(self, *, clock, data, latch, value_to_latch=True, key_count,
                         value_when_pressed, interval=0.02, max_events=MAX_EVENTS):
                super().__init__(wiring, key_count, max_events)
                wiring.shift = self

        m.Keys, m.ShiftRegisterKeys = Keys, ShiftRegisterKeys
        return m

    def set(self, button, down):
        """Press (``down``) or release ``button`` (a name of profiles.BUTTONS); ValueError if unknown."""
        where = self.profile.buttons.get(button)
        if where is None:
            raise ValueError("%r: not a button of %s (buttons: %s)"
                             % (button, self.profile.name, " ".join(sorted(self.profile.buttons))))
        (self.held.add if down else self.held.discard)(button)
        kind = where[0]
        if kind == "shift":
            if self.shift is None or where[1] >= self.shift.key_count:
                return  # the app has not built its scanner yet: the press is lost, as on a board
            self.shift._change(where[1], down)
        elif kind == "pin":
            if self.pin_keys is None:
                return
            scanner, names = self.pin_keys
            scanner._change(names.index(where[1]), down)
        else:
            self.analog[where[1]] = where[2] if down else 32768


def check_nvm_file(path, size):
    """ValueError naming ``path`` unless it is missing or a regular file of exactly ``size`` bytes
    (an NVM image of the board): any other file is someone's, and is never truncated."""
    files.check_target(path, "the NVM file")
    if os.path.lexists(path) and os.path.getsize(path) != size:
        raise files.FileProblem("the NVM file %r is %d bytes, not an NVM image of this board's %d; "
                                "give a new file name (it is left as it is)"
                                % (path, os.path.getsize(path), size))


class FileNvm:
    """``microcontroller.nvm``: ``size`` bytes kept in file ``path`` (created 0xFF-filled).

    Takes what CircuitPython's ``nvm.ByteArray`` takes (an int 0..255 at an
    index, or bytes-like of the same length into a step-1 slice) and refuses
    the rest as it does. ``on_write(start, end)`` hears each assignment: on
    the boards every one erases and rewrites the whole 4 KB flash sector.
    """

    def __init__(self, path, size, on_write=None):
        self._path = path
        self._size = size
        self._on_write = on_write
        check_nvm_file(path, size)
        if os.path.lexists(path):
            self._data = bytearray(files.read_regular(path, size, "the NVM file"))
        else:
            self._data = bytearray(b"\xff" * size)
            self._flush()

    def _flush(self):
        # Whole or not at all, as the board's sector write: a full disk keeps the last image.
        files.write_whole(self._path, bytes(self._data), "the NVM file")

    def __len__(self):
        return self._size

    def __getitem__(self, i):
        return self._data[i]

    def __setitem__(self, i, value):
        if isinstance(i, slice):
            start, stop, step = i.indices(self._size)
            if step != 1:
                raise NotImplementedError("only slices with step=1 (aka None) are supported")
            if not isinstance(value, (bytes, bytearray, memoryview)):
                raise NotImplementedError("array/bytes required on right side")
            stop = max(start, stop)
            if stop - start != len(value):
                raise ValueError("Slice and value different lengths.")
        else:
            if not isinstance(value, int) or not 0 <= value <= 255:
                raise ValueError("bytes must be 0-255")
            start = i + self._size if i < 0 else i
            if not 0 <= start < self._size:
                raise IndexError("ByteArray index out of range")
            stop = start + 1
        self._data[i] = value
        self._flush()
        if self._on_write is not None:
            self._on_write(start, stop)


class AudioLog:
    """What the audio twins were asked to play: ``played`` list of RawSample twins."""

    def __init__(self):
        self.played = []


def _audio_modules(log):
    core = types.ModuleType("audiocore")

    class RawSample:
        def __init__(self, buffer, *, channel_count=1, sample_rate=8000):
            self._buffer, self.sample_rate = buffer, sample_rate

    core.RawSample = RawSample

    class _Out:
        def __init__(self, left_channel, *, right_channel=None, quiescent_value=0x8000):
            self._pin = left_channel
            self.playing = False

        def play(self, sample, *, loop=False):
            log.played.append(sample)

        def stop(self):
            pass

        def deinit(self):
            pass

    aio = types.ModuleType("audioio")
    aio.AudioOut = type("AudioOut", (_Out,), {})
    pwm = types.ModuleType("audiopwmio")
    pwm.PWMAudioOut = type("PWMAudioOut", (_Out,), {})
    return core, aio, pwm


def _digitalio_module(wiring):
    m = types.ModuleType("digitalio")

    class DigitalInOut:
        """An output keeps what is written; an input reads ``wiring.levels`` (by pin name)."""

        def __init__(self, pin):
            self._pin, self._value = pin, False

        @property
        def value(self):
            return wiring.levels.get(self._pin.name, self._value)

        @value.setter
        def value(self, v):
            self._value = v

        def switch_to_output(self, value=False, drive_mode=None):
            self.value = value

        def switch_to_input(self, pull=None):
            pass

        def deinit(self):
            pass

    m.DigitalInOut = DigitalInOut
    m.Direction = types.SimpleNamespace(INPUT=0, OUTPUT=1)
    m.Pull = types.SimpleNamespace(UP=1, DOWN=2)
    return m


def _analogio_module(wiring):
    m = types.ModuleType("analogio")

    class AnalogIn:
        def __init__(self, pin):
            self._pin = pin

        @property
        def value(self):
            return wiring.analog.get(self._pin.name, 32768)

        reference_voltage = 3.3

        def deinit(self):
            pass

    m.AnalogIn = AnalogIn
    return m


MODULE_NAMES = ("board", "keypad", "microcontroller", "analogio", "digitalio", "audioio",
                "audiopwmio", "audiocore", "displayio", "bitmaptools", "supervisor", "alarm", "alarm.pin",
                "neopixel_write")


def _sleep_modules(wiring):
    """``alarm`` (pin alarms; a light sleep returns at once, as if its first button were
    pressed) and ``neopixel_write``; each call is recorded in ``wiring.slept``."""
    alarm = types.ModuleType("alarm")
    pin = types.ModuleType("alarm.pin")

    class PinAlarm:
        def __init__(self, pin, value, edge=False, pull=False):
            self.pin, self.value, self.pull = pin, value, pull

    def light_sleep_until_alarms(*alarms):
        if not alarms:
            raise ValueError("no alarms")
        wiring.slept.append(("light_sleep", [a.pin.name for a in alarms]))
        return alarms[0]

    def neopixel_write(io, buf):
        wiring.slept.append(("neopixel_write", io._pin.name, bytes(buf)))

    pin.PinAlarm = PinAlarm
    alarm.pin = pin
    alarm.light_sleep_until_alarms = light_sleep_until_alarms
    npw = types.ModuleType("neopixel_write")
    npw.neopixel_write = neopixel_write
    return {"alarm": alarm, "alarm.pin": pin, "neopixel_write": npw}


def _supervisor_module(wiring):
    """``supervisor.runtime.usb_connected`` only (no ``ticks_ms``: the app's clock is the simulator's)."""
    m = types.ModuleType("supervisor")

    class Runtime:
        @property
        def usb_connected(self):
            return wiring.usb_host

    m.runtime = Runtime()
    return m


def install(profile, display, nvm_path, board_id=None, on_nvm_write=None):
    """Put the twins of ``profile`` into sys.modules; returns (wiring, audio log, nvm).

    ``on_nvm_write(start, end)`` hears every write to ``microcontroller.nvm``."""
    wiring = Wiring(profile)
    log = AudioLog()
    board = types.ModuleType("board")
    board.board_id = board_id or profile.board_id
    board.DISPLAY = display
    for name in profile.pins:
        setattr(board, name, Pin(name))
    mc = types.ModuleType("microcontroller")
    nvm = mc.nvm = FileNvm(nvm_path, profile.nvm_size, on_nvm_write)
    core, aio, pwm = _audio_modules(log)
    mods = {"board": board, "keypad": wiring.keypad_module(), "microcontroller": mc,
            "analogio": _analogio_module(wiring), "digitalio": _digitalio_module(wiring),
            "audioio": aio, "audiopwmio": pwm, "audiocore": core, "supervisor": _supervisor_module(wiring)}
    mods.update(display_twin.modules())
    mods.update(_sleep_modules(wiring))
    sys.modules.update(mods)
    return wiring, log, nvm
