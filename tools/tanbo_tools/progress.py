"""Progress of long commands on standard error: a line per step, or a bar on a terminal.

Any command with a loop that takes minutes (a match, a bench, a training
run, puzzle mining) reports through one :class:`Progress`::

    progress = Progress(total=20, what="match", quiet=args.quiet)
    for game in games:
        ...
        progress.step("A 3 B 1")  # one unit finished, with the running score
    progress.done()

On a terminal the last line is redrawn in place (``\\r``) as a bar; on a
pipe or a file each step is a line of its own, so logs and tests read it.
Each shows ``done/total``, the note and, after the first step, the time
left at the mean pace so far. ``stage(text)`` says which part starts (for
commands whose parts differ, like ``tanbo bench``). ``quiet=True`` writes
nothing: commands pass it when asked to (``--quiet``) and never write
progress on standard output, which stays for the result that may be parsed
(JSON, ``--out``).
"""

import sys
import time

BAR_WIDTH = 24


def duration(seconds):
    """``seconds`` (>= 0) as ``42s``, ``3m05s`` or ``2h07m``."""
    s = int(round(seconds))
    if s < 60:
        return "%ds" % s
    if s < 3600:
        return "%dm%02ds" % (s // 60, s % 60)
    return "%dh%02dm" % (s // 3600, s % 3600 // 60)


class Progress:
    """Report ``total`` units of work called ``what`` on ``stream`` (default ``sys.stderr``).

    ``total``: units expected (None or 0: unknown, then no bar and no time
    left); ``tty``: draw a bar (default: whether ``stream`` is a terminal);
    ``clock``: seconds, monotonic (tests pass their own).
    """

    def __init__(self, total=None, what="", stream=None, quiet=False, tty=None, clock=time.monotonic):
        self.total = total or 0
        self.what = what
        self.stream = sys.stderr if stream is None else stream
        self.quiet = quiet
        self.tty = self._isatty() if tty is None else tty
        self.clock = clock
        self.count = 0
        self.started = clock()
        self._open_line = False  # a bar drawn without its newline yet

    def _isatty(self):
        isatty = getattr(self.stream, "isatty", None)
        try:
            return bool(isatty and isatty())
        except ValueError:  # a closed stream
            return False

    def left(self):
        """Seconds left at the mean pace so far (None before the first unit or without a total)."""
        if not self.count or not self.total:
            return None
        return (self.clock() - self.started) / self.count * max(self.total - self.count, 0)

    def line(self, note=""):
        """The text a step shows now (without ``\\r`` or newline)."""
        parts = [self.what] if self.what else []
        if self.total:
            count = "%d/%d" % (self.count, self.total)
            if self.tty:
                filled = BAR_WIDTH * min(self.count, self.total) // self.total
                count = "[%s%s] %s" % ("#" * filled, "." * (BAR_WIDTH - filled), count)
            parts.append(count)
        elif self.count:
            parts.append(str(self.count))
        if note:
            parts.append(note)
        left = self.left()
        if left is not None and self.count < self.total:
            parts.append("~%s left" % duration(left))
        return "  ".join(parts)

    def _write(self, text, end):
        if self.quiet:
            return
        self.stream.write(text + end)
        self.stream.flush()

    def step(self, note="", n=1):
        """``n`` more units finished; ``note`` says what (a score, a file name)."""
        self.count += n
        if self.tty:
            self._write("\r" + self.line(note) + "\033[K", "")
            self._open_line = True
        else:
            self._write(self.line(note), "\n")

    def say(self, text):
        """A line of its own (a warning, a forfeit) that does not overwrite the bar."""
        self.close()
        self._write(("%s: %s" % (self.what, text)) if self.what else text, "\n")

    def stage(self, text):
        """Which part of the work starts now (``measuring ...``)."""
        self.say(text)

    def close(self):
        """End a bar's line (before an error message); nothing else."""
        if self._open_line:
            self._write("", "\n")
            self._open_line = False

    def done(self, note=""):
        """The work ended: close the bar, say ``note`` (if any) and the time it took."""
        self.close()
        if note or self.count:
            self._write("%s%s (%s)" % (self.what + ": " if self.what else "", note or "done",
                                       duration(self.clock() - self.started)), "\n")
