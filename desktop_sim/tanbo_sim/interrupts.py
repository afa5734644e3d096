"""Signals that end a simulator run, raised again if pygame swallowed them.

pygame clears exceptions raised in Python code that its C functions call:
``pygame.display.set_mode`` loads its default window icon through
``pygame.pkgdata``, ``pygame.init`` calls each module's init. A Ctrl-C
landing in one of them was lost, and the window ran on until killed (CI
saw it). :class:`Interrupts` remembers the signal, so the run's loop
raises it again between frames (:meth:`Interrupts.check`).
"""

import signal


class Interrupts:
    """While entered, ``signums`` raise at once, as usual, and are remembered.

    SIGINT raises KeyboardInterrupt (Python's own behaviour); any other
    signal ``n`` raises SystemExit(128 + n), a shell's exit code for it.
    Leaving puts back the handlers found on entry, then raises a signal
    that came and was swallowed before the block ended normally.
    """

    def __init__(self, signums=(signal.SIGINT,)):
        self.signums = tuple(signums)
        self.seen = None
        self._previous = {}

    def __enter__(self):
        for s in self.signums:
            self._previous[s] = signal.signal(s, self._handle)
        return self

    def __exit__(self, exc_type, exc, tb):
        for s, handler in self._previous.items():
            signal.signal(s, handler)
        self._previous.clear()
        if exc_type is None:
            self.check()
        return False

    def _handle(self, signum, frame):
        self.seen = signum
        self._raise(signum)

    def check(self):
        """Raise the remembered signal's exception, if one came."""
        if self.seen is not None:
            self._raise(self.seen)

    @staticmethod
    def _raise(signum):
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise SystemExit(128 + signum)
