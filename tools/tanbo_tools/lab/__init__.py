"""The engine lab, the AI's strength and cost measured: ``tanbo match`` (uct, the yardstick), ``tanbo bench`` (bench_ai, ai_probe, bench_games), ``tanbo train``, ``tanbo book``.

Imports the engine, :mod:`tanbo_files` and the shared modules of :mod:`tanbo_tools` (arg_checks, progress, vm, mpy, board_time); never another room.
"""
