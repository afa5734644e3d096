"""The app loop's clock: unwraps supervisor.ticks_ms and allocates nothing per read
(checked on the CircuitPython 10.2.1 VM; skips without $TANBO_CIRCUITPYTHON)."""

import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "device"))

from app.clock import WRAP, Clock  # noqa: E402


class FakeTicks:
    def __init__(self, start):
        self.t = start

    def __call__(self):
        return self.t


def test_clock_counts_on_across_the_ticks_wrap():
    ticks = FakeTicks(WRAP - 30)
    c = Clock(ticks)
    a = c.now()
    ticks.t = WRAP - 1
    b = c.now()
    ticks.t = 5  # supervisor.ticks_ms wrapped to 0 and went on 5 ms
    d = c.now()
    assert (b - a, d - b) == (29, 6)
    ticks.t = 10
    assert c.now() - d == 5


def test_clock_without_supervisor_uses_monotonic_ns():
    c = Clock(None)
    a = c.now()
    assert isinstance(a, int) and c.now() >= a


SCRIPT = r'''
import gc
from app.clock import Clock
t = [1000]
def ticks():
    return t[0]
c = Clock(ticks)
c.now()

def loop(read):
    gc.collect()
    before = gc.mem_free()
    for i in range(200):
        t[0] = 1000 + i
        read()
    return before - gc.mem_free()

base = loop(ticks)  # the loop's own bytes
print("alloc", loop(c.now) - base)
'''


def test_clock_reads_allocate_nothing_on_micropython(micropython_exe, tmp_path):
    # The unix port's small ints are wider than a board's (62 bits, not 30),
    # so this checks the read path allocates nothing; the 2**29 wrap itself is
    # checked above.
    script = tmp_path / "clock.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, MICROPYPATH=os.path.join(REPO, "device"))
    proc = subprocess.run([micropython_exe, str(script)], capture_output=True, text=True,
                          timeout=60, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.split()[:2] == ["alloc", "0"]
