"""Milliseconds for the app loop, read without allocating.

``supervisor.ticks_ms()`` is a small int that wraps every 2**29 ms (~6 days);
:class:`Clock` unwraps it, staying a small int (no heap) for 2**30 ms (~12
days of uptime). ``time.monotonic_ns() // 1000000``, the fallback where there
is no ``supervisor``, allocates a long int on every call on CircuitPython
(measured on the 10.2.1 unix VM: 64 bytes a call), which the loop would do
100 times a second.
"""

import time

try:
    from supervisor import ticks_ms
except ImportError:
    ticks_ms = None

# CircuitPython's supervisor.ticks_ms wraps to 0 here (Blinka and the desktop
# have no supervisor: the simulator's clock never wraps, tests feed ticks).
WRAP = 1 << 29


class Clock:
    """``now()``: ms since an arbitrary start, never decreasing; ``ticks`` for tests."""

    def __init__(self, ticks=ticks_ms):
        self.ticks = ticks
        self.base = 0
        self.last = ticks() if ticks is not None else 0

    def now(self):
        if self.ticks is None:
            return time.monotonic_ns() // 1000000
        t = self.ticks()
        if t < self.last:  # wrapped (called at least every 6 days: the loop runs every 10 ms)
            self.base += WRAP
        self.last = t
        return self.base + t
