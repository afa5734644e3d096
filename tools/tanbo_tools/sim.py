"""``tanbo sim``: the handheld app in the desktop simulator (window or headless).

    tanbo sim [--board pybadge|pygamer|picosystem] [--scale N] [--nvm PATH]
    tanbo sim --headless --keys "A,DOWN*4,A,wait:500" --screenshot OUT.png [--screenshot-every DIR]

The work is done by :mod:`tanbo_sim` (desktop_sim/); this module only parses
arguments.
"""

import argparse
import os
import sys


def add_arguments(parser):
    parser.add_argument("--board", default="pybadge",
                        help="board to simulate: pybadge, pygamer or picosystem (default pybadge)")
    parser.add_argument("--scale", type=int, default=4, help="window pixels per screen pixel (default 4)")
    parser.add_argument("--nvm", default=None,
                        help="file holding the simulated NVM (saves); default: tanbo-sim-BOARD.nvm "
                             "in the temp folder")
    parser.add_argument("--headless", action="store_true", help="no window: replay --keys, then exit")
    parser.add_argument("--keys", default="",
                        help="key script: comma-separated UP DOWN LEFT RIGHT A B START SELECT, "
                             "NAME*N repeats, wait:MS pauses")
    parser.add_argument("--screenshot", default=None, help="save the screen as PNG here at the end")
    parser.add_argument("--screenshot-every", default=None, metavar="DIR",
                        help="save a PNG after every script step into DIR (step-0001.png, ...)")
    parser.add_argument("--board-id", default=None, help=argparse.SUPPRESS)  # tests: an unknown board id


def run(args):
    from tanbo_sim import profiles, simulator
    try:
        profiles.get_profile(args.board)
        steps = simulator.parse_script(args.keys)
    except ValueError as e:
        print("tanbo sim: %s" % e, file=sys.stderr)
        return 2
    if args.scale < 1 or args.scale > 8:
        print("tanbo sim: --scale %d: choose 1 to 8" % args.scale, file=sys.stderr)
        return 2
    if args.headless:
        from tanbo_sim.headless import run_script
        return run_script(args.board, steps, args.nvm, args.screenshot, args.screenshot_every,
                          args.board_id)
    if (sys.platform.startswith("linux") and not os.environ.get("SDL_VIDEODRIVER")
            and not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY")):
        print("tanbo sim: no display found; use --headless (with --keys and --screenshot)",
              file=sys.stderr)
        return 2
    from tanbo_sim.window import run_window
    return run_window(args.board, args.scale, args.nvm, steps)
