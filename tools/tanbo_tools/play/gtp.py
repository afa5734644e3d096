"""``tanbo gtp``: speak the Tanbo text protocol (GTP v2) on stdin/stdout.

The protocol itself is :mod:`tanbo.gtp` (it also runs on MicroPython and
CircuitPython as ``-m tanbo.gtp``); this module only adds the command line.
"""

import sys

from .. import arg_checks


def add_arguments(parser):
    """Options of ``tanbo gtp``."""
    from tanbo import VARIANTS
    parser.add_argument("--variant", default="19x19", metavar="NAME",
                        help="variant to start with (%s; default 19x19)" % ", ".join(VARIANTS))
    parser.add_argument("--level", default=None, metavar="LEVEL",
                        help="genmove strength: random, easy, medium, hard (default medium, "
                             "or random when tanbo.ai is missing)")
    parser.add_argument("--seed", type=arg_checks.whole(0, 10 ** 18 - 1), default=0, metavar="N",
                        help="random seed of genmove, >= 0 (default 0); same seed, same moves")
    # Checked by the engine, as tanbo.gtp's own --movetime and tanbo-movetime are: 0 or none is no cap.
    parser.add_argument("--movetime", default=None, metavar="MS",
                        help="wall-clock cap per genmove in milliseconds (default: none; "
                             "the levels' node budgets alone keep moves reproducible)")


def run(args):
    """Serve GTP until EOF or ``quit``; 2 for a bad option."""
    from tanbo import gtp
    try:
        engine = gtp.GtpEngine(args.variant, level=args.level, seed=args.seed,
                               movetime_ms=args.movetime)
    except ValueError as e:
        print("tanbo gtp: %s" % e, file=sys.stderr)
        return 2
    if not gtp.serve(engine):  # stdin read as bytes, see tanbo.gtp.serve
        print("tanbo gtp: standard input or output is closed: nothing to answer", file=sys.stderr)
        return 1
    return 0
