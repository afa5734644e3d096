"""The player's games on the desktop: ``tanbo records pull`` (records, over board_ports and record_stream: the records a board sends on its USB console) and ``tanbo analyse`` (analysis_png: every ply judged by :mod:`tanbo.coach`, the handheld's coach).

Imports the engine, the simulator (:mod:`tanbo_sim`, for the pictures), :mod:`tanbo_files` and the shared modules of :mod:`tanbo_tools` (arg_checks, progress, cli); never another room.
"""
