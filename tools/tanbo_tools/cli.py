"""Entry point of the ``tanbo`` console script (see pyproject.toml)."""

import argparse
import importlib
import sys

from . import workers

# subcommand -> (its module: ROOM.MODULE of this package, one-line help). Modules are imported
# lazily: a subcommand's heavy dependencies load only when it runs.
COMMANDS = {
    "sim": ("play.sim", "play in the desktop simulator of the handheld"),
    "gtp": ("play.gtp", "speak the GTP text protocol on stdin/stdout"),
    "bench": ("lab.bench", "measure engine and AI speed, memory and board time (JSON)"),
    "match": ("lab.match", "play AI levels or GTP engines against each other"),
    "train": ("lab.train", "fit the evaluation's weights to the outcomes of varied games"),
    "book": ("lab.book", "compute hard's opening book with a much deeper search"),
    "build": ("ship.build", "build a CIRCUITPY bundle for a board"),
    "deploy": ("ship.deploy", "copy a built bundle onto a CIRCUITPY drive"),
    "flash": ("ship.flash", "write a CircuitPython UF2 firmware to a board"),
    "screenshots": ("play.screenshots", "make the README's pictures with the simulator (docs/img)"),
    "puzzles": ("puzzle_maker.puzzles", "mine the puzzle collection; show or check its entries"),
    "analyse": ("games.analyse", "judge every ply of game records with hard, marking the mistakes"),
    "records": ("games.records", "receive the game records a board sends over USB (records pull)"),
}


def make_parser(argv):
    """The ``tanbo`` parser, with the options of the subcommand ``argv`` names (if any) added."""
    parser = argparse.ArgumentParser(
        prog="tanbo",
        description="Tanbo (a game by Mark Steere) for CircuitPython handhelds.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    name = argv[0] if argv and argv[0] in COMMANDS else None
    for command, (module_name, help_text) in COMMANDS.items():
        p = sub.add_parser(command, help=help_text, description=help_text)
        if command == name:
            module = importlib.import_module("tanbo_tools." + module_name)
            module.add_arguments(p)
            p.set_defaults(_run=module.run)
    return parser


def main(argv=None):
    """Parse ``argv`` (default ``sys.argv[1:]``), run a subcommand, return its exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    args = make_parser(argv).parse_args(argv)
    try:
        with workers.stop_on_sigterm():
            return int(args._run(args) or 0)
    except KeyboardInterrupt:  # Ctrl-C: 128 + SIGINT, as a shell reports it
        print("tanbo %s: interrupted" % args.command, file=sys.stderr)
        return 130
    except workers.Terminated as stop:  # SIGTERM: 143
        print("tanbo %s: terminated" % args.command, file=sys.stderr)
        return stop.code


if __name__ == "__main__":
    sys.exit(main())
