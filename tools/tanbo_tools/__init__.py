"""The ``tanbo`` command line, in rooms named for what they serve.

    ship/          putting the game on a board: build, deploy, flash
    lab/           the engine lab: bench, match, train, book
    play/          the game on the desktop: sim, screenshots, gtp
    puzzle_maker/  the puzzle collection: puzzles
    games/         the player's games: records pull, analyse
    (this folder)  the entry point, cli, and what the rooms share: arg_checks,
                   progress, workers (pools that stop with their command), mpy (compiling), vm (the MicroPython unix port),
                   board_time (its instruction counts)

Each subcommand lives in its own module of a room and exposes
``add_arguments(parser)`` and ``run(args) -> int``; :mod:`tanbo_tools.cli`
imports a module only when its subcommand is asked for, so ``tanbo gtp``
does not pay for pygame and ``tanbo build`` does not pay for the AI. A room
imports the engine, :mod:`tanbo_files` and the shared modules here, never
another room; the shared modules import no room.
"""
