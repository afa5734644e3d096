"""The game on the desktop: ``tanbo sim`` (the handheld app in the simulator; pystack counts its call frames as the board would), ``tanbo screenshots`` (the README's and docs' pictures; analyse's run through the command line, not imported), ``tanbo gtp`` (the engine over a text protocol).

Imports the engine, the simulator (:mod:`tanbo_sim`), :mod:`tanbo_files` and the shared modules of :mod:`tanbo_tools` (arg_checks, mpy, vm, cli); never another room.
"""
