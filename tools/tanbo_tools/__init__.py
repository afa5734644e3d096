"""The ``tanbo`` command line: build, deploy, flash, bench, match, gtp, sim.

Each subcommand lives in its own module of this package and exposes
``add_arguments(parser)`` and ``run(args) -> int``; :mod:`tanbo_tools.cli`
imports a module only when its subcommand is asked for, so ``tanbo gtp``
does not pay for pygame and ``tanbo build`` does not pay for the AI.
"""
