"""``tanbo sim``: the handheld app in the desktop simulator (window or headless).

    tanbo sim [--board pybadge|pygamer|picosystem] [--scale N] [--nvm PATH] [--events FILE]
    tanbo sim --headless --keys "A,DOWN*4,A,wait:500" --screenshot OUT.png [--screenshot-every DIR]
              [--events FILE]

``--records FILE`` is the twin of the board's USB serial console: what the
app prints (the records Send prints between tanbo.record's SEND_BEGIN and
SEND_END lines, and its few other lines) goes to FILE instead of the
terminal, as ``tanbo records pull`` would hear it.
``--events FILE`` (``-``: standard output) writes one JSON line per screen
refresh (the pixels CircuitPython would send), per NVM write, per backlight
change and, headless, the CPU's busy time per second of board time (see
:mod:`tanbo_sim.events`). ``--battery`` and ``--power`` set the cell's
voltage (or its drain) and USB power or charging (docs/power.md). ``--pystack BYTES`` counts CircuitPython's pystack
as the board would fill it (:mod:`tanbo_tools.play.pystack`), stops with the
firmware's "pystack exhausted" past BYTES and says the peak at the end.
The work is done by :mod:`tanbo_sim` (desktop_sim/); this module parses and checks the arguments, so a bad one
is a message and exit status 2, before anything runs.
"""

import argparse
import contextlib
import os
import sys

import tanbo_files as files

from .. import arg_checks


def add_arguments(parser):
    parser.add_argument("--board", default="pybadge",
                        help="board to simulate: pybadge, pygamer or picosystem (default pybadge)")
    parser.add_argument("--scale", type=arg_checks.whole(1, 8), default=4, metavar="N",
                        help="window pixels per screen pixel (default 4, at most 8)")
    parser.add_argument("--nvm", default=None, type=arg_checks.output_file,
                        help="file holding the simulated NVM (saves); default: tanbo-sim-BOARD.nvm "
                             "in the temp folder")
    parser.add_argument("--headless", action="store_true", help="no window: replay --keys, then exit")
    parser.add_argument("--keys", default="",
                        help="key script: comma-separated UP DOWN LEFT RIGHT A B START SELECT, "
                             "NAME*N repeats, wait:MS pauses (at most an hour of board time)")
    parser.add_argument("--screenshot", default=None, type=arg_checks.output_file,
                        help="save the screen as PNG here at the end")
    parser.add_argument("--screenshot-every", default=None, metavar="DIR", type=arg_checks.output_folder,
                        help="save a PNG at the start and after every script step into DIR "
                             "(step-0000.png, step-0001.png, ...)")
    parser.add_argument("--events", default=None, metavar="FILE", type=events_file,
                        help="write one JSON line per screen refresh (pixels and areas CircuitPython "
                             "would send), per NVM write, per backlight change and per second's CPU "
                             "busy time to FILE ('-': standard output)")
    parser.add_argument("--records", default=None, metavar="FILE", type=arg_checks.output_file,
                        help="the board's USB console: what the app prints (Send's records between "
                             "their marker lines) goes to FILE, not the terminal")
    # (256 to 65536: what settings.toml may ask of a board)
    parser.add_argument("--pystack", default=None, metavar="BYTES",
                        type=arg_checks.whole(256, 65536, "bytes", ", like 1536 (CircuitPython 9) or 2048 "
                                                                   "(CircuitPython 10)"),
                        help="count the board's pystack (every call's frame, from the .mpy) and stop "
                             "as the firmware does past BYTES (CircuitPython 9: 1536, 10: 2048); "
                             "the peak and its calls are printed at the end")
    parser.add_argument("--battery", default=(3.9, 3.9, 0), metavar="VOLTS", type=battery_volts,
                        help="the cell's voltage, e.g. 3.7, or a drain over board time, e.g. 4.1-3.3/600 "
                             "(from 4.1 V to 3.3 V in 600 s); default 3.9")
    parser.add_argument("--power", default="battery", choices=("battery", "usb", "charging"),
                        help="on the cell alone, on USB power (charged), or charging (default battery)")
    parser.add_argument("--board-id", default=None, help=argparse.SUPPRESS)  # tests: an unknown board id


def battery_volts(text):
    """``--battery``: ``V`` or ``V1-V2/S`` (volts 2.5 to 4.5, S whole seconds >= 1): (V1, V2, ms)."""
    def volts(part):
        try:
            v = float(part)
        except ValueError:
            v = None
        if v is None or not 2.5 <= v <= 4.5:
            raise arg_checks.BadValue("%s: expected volts from 2.5 to 4.5, like 3.7, or a drain like "
                                      "4.1-3.3/600 (volts to volts in seconds)" % arg_checks.quoted(text))
        return v
    span, slash, secs = text.partition("/")
    if not slash:
        v = volts(span)
        return (v, v, 0)
    v0, dash, v1 = span.partition("-")
    if not dash or not (secs.isascii() and secs.isdigit() and len(secs) <= 6 and 1 <= int(secs) <= 360000):
        raise arg_checks.BadValue("%s: expected a drain like 4.1-3.3/600 (volts to volts in whole "
                                  "seconds, 1 to 360000)" % arg_checks.quoted(text))
    return (volts(v0), volts(v1), int(secs) * 1000)


def events_file(text):
    """``--events``: ``-`` (standard output) or a file that can be written."""
    return text if text == "-" else arg_checks.output_file(text)


def check(args):
    """The parsed key script after checking what argparse cannot (the NVM file, the script);
    ValueError if bad."""
    from tanbo_sim import profiles, simulator, twins
    profile = profiles.get_profile(args.board)
    if args.nvm is not None:
        twins.check_nvm_file(args.nvm, profile.nvm_size)
    steps = simulator.parse_script(args.keys)
    return steps


def run(args):
    try:
        steps = check(args)
    except ValueError as e:
        print("tanbo sim: %s" % e, file=sys.stderr)
        return 2
    if not args.headless and (sys.platform.startswith("linux") and not os.environ.get("SDL_VIDEODRIVER")
                              and not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY")):
        print("tanbo sim: no display found; use --headless (with --keys and --screenshot)",
              file=sys.stderr)
        return 2
    meter = None
    try:
        with contextlib.ExitStack() as stack:
            if args.events == "-":
                events = sys.stdout
            elif args.events is not None:  # a failed write removes it: no half log is left
                events = stack.enter_context(files.streaming(args.events, "the events file"))
            else:
                events = None
            if args.records is not None:
                console = stack.enter_context(files.streaming(args.records, "the records file"))
                stack.enter_context(contextlib.redirect_stdout(console))
            if args.pystack is not None:
                from . import pystack
                from ..vm import REPO
                sizes = pystack.app_sizes(REPO)
                meter = pystack.Meter(sizes, base=pystack.app_base(sizes, REPO), limit=args.pystack)
                meter.start()
            if args.headless:
                from tanbo_sim.headless import run_script
                return run_script(args.board, steps, args.nvm, args.screenshot, args.screenshot_every,
                                  args.board_id, events, (args.battery, args.power))
            from tanbo_sim.window import run_window
            return run_window(args.board, args.scale, args.nvm, steps, events, (args.battery, args.power))
    except (OSError, files.FileProblem) as e:  # e.g. the disk filled up meanwhile
        print("tanbo sim: %s" % e, file=sys.stderr)
        return 1
    except RuntimeError as e:
        if meter is None or "pystack" not in str(e):
            raise
        return 1  # the board stops here too; the report follows
    finally:
        if meter is not None:
            meter.stop()
            print("tanbo sim: pystack peak %d of %d bytes%s: %s"
                  % (meter.peak, meter.limit, " (exhausted)" if meter.peak > meter.limit else "",
                     " > ".join(["code.py", "App.run"] + meter.chain)), file=sys.stderr)
