"""Finding a handheld's USB serial console among the computer's serial ports (pyserial).

CircuitPython shows each board as a USB device with its vendor and product
ids and names, and names the console's interface ``CircuitPython CDC
control`` (the optional second port, ``usb_cdc.data``, is ``CircuitPython
CDC2 control``). pyserial's ``list_ports`` reports those where the OS gives
them (Linux: all; macOS and Windows: the ids and the product, no interface
name). From CircuitPython's board files (ports/*/boards/*/mpconfigboard.mk):

| board | USB VID:PID | product | manufacturer |
|---|---|---|---|
| PyBadge | 239A:8034 | PyBadge | Adafruit Industries LLC |
| PyGamer | 239A:803E | PyGamer | Adafruit Industries LLC |
| PicoSystem | 16D0:08C8 | PicoSystem | Pimoroni |

Other CircuitPython boards mostly use Adafruit's vendor id (0x239A, also
the Raspberry Pi Pico's under CircuitPython) or Raspberry Pi's (0x2E8A);
a port with one of them, or "CircuitPython" in its names, counts as a
board too, but below one the names or ids above make certain.
"""

import os
import stat

# (VID, PID) -> board, as CircuitPython's firmware for it says on USB.
KNOWN_BOARDS = {(0x239A, 0x8034): "PyBadge", (0x239A, 0x803E): "PyGamer", (0x16D0, 0x08C8): "PicoSystem"}
# Vendor ids CircuitPython boards commonly carry: Adafruit's, Raspberry Pi's.
CIRCUITPYTHON_VIDS = (0x239A, 0x2E8A)
CONSOLE_INTERFACE = "CDC control"  # CircuitPython's console; its data port is "CDC2 control"
MARK = "CircuitPython"


class PortProblem(Exception):
    """No usable port; the message says why in one line. ``usage``: the command line was wrong
    (a --port that is missing or not a board: exit 2), else the situation is (exit 1)."""

    def __init__(self, message, usage=False):
        super().__init__(message)
        self.usage = usage


def serial_modules():
    """``(serial, serial.tools.list_ports)``; PortProblem saying how to install pyserial if missing."""
    try:
        import serial
        import serial.tools.list_ports as list_ports
    except ImportError:
        raise PortProblem("pyserial is not installed: pip install 'tanbo-handheld[serial]' "
                          "(or: pip install pyserial)")
    return serial, list_ports


def _texts(info):
    return [t for t in (getattr(info, "interface", None), info.product, info.manufacturer, info.description) if t]


def board_rank(info):
    """How sure it is that ``info`` (a ``ListPortInfo``) is a CircuitPython board's console:
    2 certain (its interface's or product's names, or a handheld's ids), 1 likely (a vendor id
    CircuitPython boards carry), 0 not one (another device, or a board's data port)."""
    interface = getattr(info, "interface", None) or ""
    if "CDC2" in interface:
        return 0  # usb_cdc.data: what code.py prints goes to the console, not here
    if (info.vid, info.pid) in KNOWN_BOARDS or any(MARK in t for t in _texts(info)):
        return 2
    return 1 if info.vid in CIRCUITPYTHON_VIDS else 0


def describe(info):
    """``info`` in a few words: ``PyBadge (USB 239A:8034)``, ``a serial port that is not USB``."""
    if info.vid is None:
        return "a serial port that is not USB"
    name = KNOWN_BOARDS.get((info.vid, info.pid)) or info.product or "a USB device"
    return "%s (USB %04X:%04X)" % (name, info.vid, info.pid or 0)


def find_board(list_ports):
    """``(device, description)`` of the one board's console connected; PortProblem when there
    is none or several (naming them)."""
    ports = list_ports.comports()
    ranked = [(board_rank(p), p) for p in ports]
    best = max([r for r, _ in ranked] or [0])
    found = [p for r, p in ranked if r and r == best]
    if not found:
        seen = ", ".join("%s: %s" % (p.device, describe(p)) for p in ports) or "none"
        raise PortProblem("no CircuitPython board found among the serial ports (%s): connect the "
                          "handheld by USB (a data cable), or give --port" % seen)
    if len(found) > 1:
        raise PortProblem("%d boards found (%s): choose one with --port"
                          % (len(found), ", ".join("%s: %s" % (p.device, describe(p)) for p in found)))
    return found[0].device, describe(found[0])


def check_port(port, list_ports):
    """The description of ``port`` (given with --port) if it may be a board's console; PortProblem
    (``usage``) when it does not exist, is not a serial device, or is a serial port the system
    knows as another device. A terminal the system does not list (a pseudo-terminal: the
    simulator's twin, a ``socat`` bridge) is taken as given."""
    listed = {}
    for p in list_ports.comports():
        listed[p.device] = p
        listed[os.path.realpath(p.device)] = p
    info = listed.get(port) or listed.get(os.path.realpath(port))
    if info is None:
        try:
            st = os.stat(port)
        except FileNotFoundError:
            raise PortProblem("--port %r: there is no such port (the board unplugged?)" % port, True)
        except (OSError, ValueError) as exc:
            raise PortProblem("--port %r: %s" % (port, getattr(exc, "strerror", None) or exc), True)
        if not stat.S_ISCHR(st.st_mode):
            from tanbo_files import kind_name
            raise PortProblem("--port %r is %s, not a serial port" % (port, kind_name(st.st_mode)), True)
        if os.path.realpath(port) in _own_terminals():
            raise PortProblem("--port %r is this command's own terminal, not a board" % port, True)
        return "a terminal the system does not list as a serial port"
    if not board_rank(info):
        raise PortProblem("--port %r is %s, not a CircuitPython board's console" % (port, describe(info)), True)
    return describe(info)


def _own_terminals():
    """The real paths of the terminals this process reads and writes (``/dev/tty`` and those of
    its standard streams): typing is not a board's output."""
    own = {os.path.realpath("/dev/tty")}
    for fd in (0, 1, 2):
        try:
            own.add(os.path.realpath(os.ttyname(fd)))
        except (OSError, AttributeError):  # not a terminal; Windows has no ttyname
            pass
    return own
