"""Headless runs: replay a key script, write screenshots (the device's true resolution)."""

import os
import sys

from tanbo_sim.simulator import Simulator


def run_script(board, steps, nvm=None, screenshot=None, every_dir=None, board_id=None):
    """Replay parsed ``steps`` on ``board``; save PNGs; return an exit code."""
    sim = Simulator(board, nvm_path=nvm, board_id=board_id)
    if every_dir:
        os.makedirs(every_dir, exist_ok=True)
        sim.screenshot(os.path.join(every_dir, "step-0000.png"))
    for i, (kind, value) in enumerate(steps, 1):
        if kind == "wait":
            sim.frames(value)
        else:
            sim.press(value)
        if every_dir:
            sim.screenshot(os.path.join(every_dir, "step-%04d.png" % i))
    if screenshot:
        sim.screenshot(screenshot)
    if sim.message:
        print(sim.message, file=sys.stderr)
    sim.close()
    return 0
