"""Putting the game on a board: ``tanbo build`` (closure, bundle, verify, image, uf2), ``tanbo deploy`` (drives), ``tanbo flash``; boards: what the tools know of each handheld.

Imports the engine, :mod:`tanbo_files` and the shared modules of :mod:`tanbo_tools` (arg_checks, mpy, vm); never another room.
"""
