"""``tanbo flash``: write a CircuitPython UF2 firmware to a board's UF2 bootloader drive.

Example::

    tanbo flash adafruit-circuitpython-pybadge-en_US-10.2.1.uf2 --board pybadge
    tanbo flash fw.uf2 --board pygamer --touch /dev/ttyACM0   # no reset double-click

Steps: check the whole file first (UF2 magic numbers, every block present,
family ID and addresses for the board; see :mod:`tanbo_tools.ship.uf2`); with
``--touch PORT`` open the board's serial port at 1200 baud, which makes
CircuitPython restart into its bootloader; find the bootloader drive by its
``INFO_UF2.TXT`` and check it is the board's chip; copy; wait for the drive
to vanish (the bootloader restarts into the new firmware). Exit 1 on failure.
"""

import os
import sys
import time

import tanbo_files as files

from .. import arg_checks
from . import drives, uf2
from .boards import BOARDS, get_board

TOUCH_BAUD = 1200
MAX_TIMEOUT = 3600.0
# argparse type of --timeout and the check of flash(timeout=...) alike.
check_timeout = arg_checks.seconds(MAX_TIMEOUT)
# Files a UF2 bootloader drive shows of its own; a firmware copied under one
# of these names would overwrite (or be mistaken for) them.
DRIVE_FILES = ("INFO_UF2.TXT", "INDEX.HTM", "CURRENT.UF2")


class FlashError(Exception):
    """Flash refused or failed; the message says why."""


def add_arguments(parser):
    parser.add_argument("firmware", help="CircuitPython .uf2 file for the board")
    parser.add_argument("--board", choices=sorted(BOARDS),
                        help="target board (default: guessed from the firmware and the drive)")
    parser.add_argument("--drive", help="bootloader drive folder (default: search for INFO_UF2.TXT)")
    parser.add_argument("--touch", metavar="PORT",
                        help="first open serial PORT at 1200 baud to enter the bootloader "
                             "(needs pyserial: pip install 'tanbo-handheld[serial]')")
    parser.add_argument("--timeout", type=check_timeout, default=60.0,
                        help="seconds to wait for the bootloader drive to appear/vanish (default 60, "
                             "at most %d)" % MAX_TIMEOUT)


def check_name(name):
    """FlashError unless ``name`` is a ``.uf2`` file name none of the drive's own files has."""
    if name.upper() in DRIVE_FILES or not name.lower().endswith(".uf2"):
        raise FlashError("the firmware's file name %r %s; rename it to something like "
                         "circuitpython.uf2 (nothing was written)"
                         % (name, "is one of the bootloader drive's own files"
                            if name.upper() in DRIVE_FILES else "does not end in .uf2"))


def touch(port, serial_module=None):
    """The 1200-baud touch: open and close ``port`` at 1200 baud (pyserial imported lazily)."""
    if serial_module is None:
        try:
            import serial as serial_module
        except ImportError:
            raise FlashError("--touch needs pyserial: pip install 'tanbo-handheld[serial]' "
                             "(or double-click the board's reset button instead)")
    try:
        conn = serial_module.Serial(port, TOUCH_BAUD)
        conn.close()
    except Exception as exc:  # pyserial raises SerialException (an OSError subclass) or ValueError
        raise FlashError("cannot open %s at %d baud: %s" % (port, TOUCH_BAUD, exc))


def guess_board(data, info=None):
    """The board for a firmware whose family and bootloader Board-ID fit only one board, else None."""
    fams = uf2.families(data)
    candidates = [b for b in BOARDS.values() if b.uf2_family in fams]
    if info is not None:
        bid = info.get("Board-ID", "")
        narrowed = [b for b in candidates if any(h.lower() in bid.lower() for h in b.bootloader_hints)]
        candidates = narrowed or candidates
    return candidates[0] if len(candidates) == 1 else None


def drive_matches(board, info):
    """True when the bootloader's ``Board-ID`` names ``board``'s chip."""
    return board.chip_hint.lower() in info.get("Board-ID", "").lower()


def pick_bootloader(board, volumes=None):
    """``(path, info)`` of the one bootloader drive for ``board`` (any board if None), or None."""
    found = drives.find_bootloaders(volumes)
    if board is not None:
        found = [(p, i) for p, i in found if drive_matches(board, i)]
        exact = [(p, i) for p, i in found
                 if any(h.lower() in i.get("Board-ID", "").lower() for h in board.bootloader_hints)]
        found = exact or found
    if len(found) > 1:
        raise FlashError("several UF2 bootloader drives found (%s); choose one with --drive"
                         % ", ".join(p for p, _ in found))
    return found[0] if found else None


def wait_for(predicate, timeout, sleep=time.sleep, clock=time.monotonic, step=0.2):
    """Poll ``predicate()`` until true or ``timeout`` seconds pass; return its last value."""
    deadline = clock() + timeout
    while True:
        value = predicate()
        if value or clock() >= deadline:
            return value
        sleep(step)


def write_firmware(data, drive, name):
    """Write ``data`` as ``drive``/``name``; a vanishing drive after the last byte counts as done.

    The bootloader may restart as soon as it has the last block, so errors
    from flushing/closing after all bytes were handed over are expected.
    Returns the number of bytes written; FlashError if the drive failed earlier.
    """
    dst = os.path.join(drive, name)
    written = 0
    f = None
    try:
        files.check_target(dst, "the drive's file")
    except files.FileProblem as exc:
        raise FlashError(str(exc))
    try:
        # No link followed: the bootloader's drive has none, so one there is not the board.
        f = os.fdopen(os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
                              | getattr(os, "O_BINARY", 0), 0o666), "wb")
        for i in range(0, len(data), 64 * 1024):
            f.write(data[i:i + 64 * 1024])
            written = min(len(data), i + 64 * 1024)
        f.flush()
        os.fsync(f.fileno())
    except OSError as exc:
        if written < len(data):
            raise FlashError("writing %s failed after %d of %d bytes: %s; the board keeps its old "
                             "firmware or stays in the bootloader: try again" % (dst, written, len(data), exc))
    finally:
        if f is not None:
            try:
                f.close()
            except OSError:
                pass
    return written


def flash(firmware, board=None, drive=None, port=None, timeout=60.0, volumes=None,
          serial_module=None, write=write_firmware, sleep=time.sleep, clock=time.monotonic, log=print):
    """Check ``firmware`` and write it to the bootloader drive; return the :class:`uf2.Summary`.

    ``volumes`` (list of ``(path, label)``), ``serial_module``, ``write``,
    ``sleep`` and ``clock`` are injectable for tests.
    """
    try:
        timeout = check_timeout(timeout)
    except ValueError as exc:
        raise FlashError("timeout %s" % exc)
    name = os.path.basename(firmware)
    check_name(name)
    try:
        data = files.read_regular(firmware, uf2.MAX_FILE, "firmware")
    except files.FileProblem as exc:
        raise FlashError("%s; nothing was written" % exc)
    info = drives.read_info_uf2(drive) if drive else None
    if board is None:
        board = guess_board(data, info)
        if board is None:
            raise FlashError("cannot tell which board %s is for; give --board (%s)"
                             % (name, ", ".join(sorted(BOARDS))))
    try:
        summary = uf2.check_uf2(data, board, name)
    except uf2.UF2Error as exc:
        raise FlashError("%s; nothing was written" % exc)
    log("%s: %s" % (name, summary.describe()))
    if board.circuitpy_addr is not None and summary.high > board.circuitpy_addr:
        log("%s also holds a CIRCUITPY drive (tanbo build --uf2): flashing it replaces every file "
            "on the board's CIRCUITPY" % name)
    if port:
        log("touching %s at %d baud to enter the bootloader" % (port, TOUCH_BAUD))
        touch(port, serial_module)
    if drive is not None:
        path = drive
        info = wait_for(lambda: drives.read_info_uf2(path), timeout if port else 0,
                        sleep=sleep, clock=clock)
    else:
        log("looking for the %s bootloader drive (INFO_UF2.TXT)..." % board.name)
        found = wait_for(lambda: pick_bootloader(board, volumes), timeout if port else 0,
                         sleep=sleep, clock=clock)
        if not found:
            raise FlashError("no UF2 bootloader drive for %s found; double-click the board's reset "
                             "button (or use --touch PORT), wait for %s to appear, then run again"
                             % (board.name, " or ".join(board.boot_labels)))
        drive, info = found
    if info is None:
        raise FlashError("%s is not a UF2 bootloader drive (no INFO_UF2.TXT)" % drive)
    if not drive_matches(board, info):
        raise FlashError("the bootloader at %s is %r, not a %s (%s) bootloader; nothing was written"
                         % (drive, info.get("Board-ID"), board.name, board.chip))
    log("bootloader drive %s: %s, Board-ID %s" % (drive, info.get("banner", "?"), info.get("Board-ID")))
    written = write(data, drive, name)
    log("copied %d bytes; waiting for the board to restart..." % written)
    marker = os.path.join(drive, drives.INFO_UF2)
    gone = wait_for(lambda: not os.path.exists(marker), timeout, sleep=sleep, clock=clock)
    if not gone:
        raise FlashError("%s is still there after %.0f s: the bootloader did not take the firmware "
                         "(is it for this board?)" % (drive, timeout))
    log("done: the drive vanished; the board is restarting into the new firmware")
    return summary


def run(args):
    try:
        board = get_board(args.board) if args.board else None
        if args.drive and not os.path.isdir(args.drive):
            raise FlashError("drive folder %s does not exist" % args.drive)
        flash(args.firmware, board=board, drive=args.drive, port=args.touch, timeout=args.timeout)
        return 0
    except (FlashError, ValueError, OSError) as exc:
        print("tanbo flash: error: %s" % exc, file=sys.stderr)
        return 1
