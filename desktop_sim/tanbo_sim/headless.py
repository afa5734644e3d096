"""Headless runs: replay a key script, write screenshots (the device's true resolution)."""

import os
import signal
import sys

from tanbo_sim.interrupts import Interrupts
from tanbo_sim.simulator import Simulator


def run_script(board, steps, nvm=None, screenshot=None, every_dir=None, board_id=None, events=None,
               power=((3.9, 3.9, 0), "battery")):
    """Replay parsed ``steps`` on ``board``; save PNGs; ``power``: (the battery, "battery" "usb" or
    "charging") as :class:`tanbo_sim.simulator.Simulator` takes them; ``events``: a stream for
    :mod:`tanbo_sim.events` lines; return an exit code. SIGINT and SIGTERM end
    it at once (KeyboardInterrupt, SystemExit(143))."""
    with Interrupts((signal.SIGINT, signal.SIGTERM)) as interrupts:
        return _replay(board, steps, nvm, screenshot, every_dir, board_id, events, interrupts, power)


def _replay(board, steps, nvm, screenshot, every_dir, board_id, events, interrupts, power):
    sim = Simulator(board, nvm_path=nvm, board_id=board_id, events_out=events, battery=power[0], power=power[1])
    try:
        if every_dir:
            os.makedirs(every_dir, exist_ok=True)
            sim.screenshot(os.path.join(every_dir, "step-0000.png"))
        for i, (kind, value) in enumerate(steps, 1):
            interrupts.check()
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
    finally:
        sim.close()
    return 0
