"""The puzzle maker, ``tanbo puzzles``: the hand-written lessons (puzzle_lessons), puzzles mined from seeded self-play (puzzle_mine), each goal proved (puzzle_proof), written as the collection the app ships.

Imports the engine and the shared modules of :mod:`tanbo_tools` (arg_checks); never another room.
"""
