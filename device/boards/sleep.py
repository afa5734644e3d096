"""The board's deepest sleep that a button still ends; loaded only to sleep (app.power_due).

Buttons on their own pins (PicoSystem): ``keypad`` lets them go, and
``alarm.light_sleep_until_alarms`` waits on a pin alarm per button; the
RP2040 idles with its timers stopped until one is pressed.

Buttons behind a 74HC165 shift register (PyBadge, PyGamer) raise no pin
alarm, and CircuitPython's SAMD51 light sleep draws what ``time.sleep``
does (ports/atmel-samd/common-hal/alarm/__init__.c); deep sleep would
restart the app and wake only on its tamper pins. So ``keypad``'s 1 kHz
background scan stops, the NeoPixels are written dark, and the register
is read POLL_S apart, the chip idle (WFI) in ``time.sleep`` between; the
PyGamer's joystick is read with it.
"""

import sys
import time

import keypad

POLL_S = 0.1  # s between two reads of the shift register while asleep
STICK = 20000  # AnalogIn units from centre that count as a push (boards.pygamer.Joystick.PRESS)


def until_key(hw):
    """Sleep until a button is pressed; then the buttons scan again (that press is reported).

    The board's module (loaded again for its data) has ``PINS`` where the
    buttons have pins of their own, else ``shift_pins()``: the shift
    register's clock, data and latch and the NeoPixels' pin."""
    import boards
    b = hw.buttons
    m = __import__("boards." + boards.MODULES[boards.board_id()], None, None, ["_"])
    pins = getattr(m, "PINS", None)
    b.keys.deinit()
    if pins is not None:
        import alarm
        alarm.light_sleep_until_alarms(*[alarm.pin.PinAlarm(p, value=False, pull=True) for p in pins])
        b.keys = keypad.Keys(pins, value_when_pressed=False, pull=True)
    else:
        clock, data, latch, neopixels = m.shift_pins()
        count = len(b.codes)
        dark(neopixels)
        poll(clock, data, latch, count, b.joystick)
        b.keys = keypad.ShiftRegisterKeys(clock=clock, data=data, latch=latch, key_count=count,
                                          value_when_pressed=True)
    for name in boards.MODULES.values():
        sys.modules.pop("boards." + name, None)
    b.held = 0


def dark(pin):
    """The board's 5 NeoPixels off (they keep their last colour otherwise)."""
    try:
        import digitalio
        import neopixel_write
    except ImportError:
        return
    io = digitalio.DigitalInOut(pin)
    io.switch_to_output()
    neopixel_write.neopixel_write(io, bytes(15))
    io.deinit()


def poll(clock, data, latch, count, stick):
    """Return once a key of the shift register reads pressed (or the joystick is pushed)."""
    import digitalio
    ck = digitalio.DigitalInOut(clock)
    ck.switch_to_output(value=False)
    ld = digitalio.DigitalInOut(latch)
    ld.switch_to_output(value=True)
    d = digitalio.DigitalInOut(data)
    d.switch_to_input()
    try:
        while True:
            ld.value = False  # load the buttons' levels, then shift them out
            ld.value = True
            for _ in range(count):
                if d.value:
                    return
                ck.value = True
                ck.value = False
            if stick is not None and (abs(stick.x.value - 32768) > STICK or abs(stick.y.value - 32768) > STICK):
                return
            time.sleep(POLL_S)
    finally:
        for io in (ck, ld, d):
            io.deinit()
