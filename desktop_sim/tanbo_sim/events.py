"""What the simulated board pays, as events: screen refreshes, NVM writes, backlight, CPU time.

Each event is a dict, the same one ``tanbo sim --events FILE`` writes as a
JSON line:

- ``{"kind": "refresh", "t_ms": T, "pixels": N, "areas": [[x0, y0, x1, y1], ...]}``:
  one ``display.refresh()``; the areas CircuitPython 10's displayio would send
  (:mod:`tanbo_sim.display_twin`), clipped to the screen, x1/y1 exclusive;
  ``pixels`` is the sum of their sizes (overlaps are sent twice on the board too).
- ``{"kind": "nvm", "t_ms": T, "start": A, "end": B}``: one assignment to
  ``microcontroller.nvm`` (bytes A..B-1). On the boards each one erases and
  rewrites the NVM's 4 KB flash sector, so the count of these is the wear.

- ``{"kind": "backlight", "t_ms": T, "level": L}``: the display's brightness set
  to L (1.0 on, 0.2 dimmed, 0.0 asleep: app.power_due).
- ``{"kind": "busy", "t_ms": T, "busy_ms": B}``: headless, at the end of each
  second of board time, the ms of it the CPU worked: the app's loop passes as
  it paces them (each an idle step's board time, the profile's ``step_us``),
  its refreshes (6 us a pixel) and the pondering steps (busy throughout); the
  computer's own search is not in it (the clock stands still meanwhile).

``t_ms`` is the app's clock (virtual time when headless).
"""

import json


class EventLog:
    """Events in order (``events``); ``clock()`` gives their ``t_ms``; ``out`` a text stream or None."""

    def __init__(self, clock, out=None):
        self.clock = clock
        self.out = out
        self.events = []

    def record(self, kind, **fields):
        event = {"kind": kind, "t_ms": self.clock()}
        event.update(fields)
        self.events.append(event)
        if self.out is not None:
            self.out.write(json.dumps(event) + "\n")
            self.out.flush()
        return event

    def since(self, index, kind=None):
        """Events from position ``index`` of ``events`` on (only ``kind`` if given)."""
        return [e for e in self.events[index:] if kind is None or e["kind"] == kind]
