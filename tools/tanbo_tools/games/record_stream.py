"""Picking game records out of what a board prints on its USB serial console.

A board sends a record as its text between two marker lines
(:data:`tanbo.record.SEND_BEGIN`, :data:`tanbo.record.SEND_END`). The same
console carries everything else the board prints (CircuitPython's
"code.py output:", auto-reload notices, a traceback) and, when a board
resets mid-send, the first half of a record with no end. :class:`RecordStream`
takes the bytes as they come and hands out whole records only:

- before a begin line everything is ignored, whatever it is;
- a begin line while a record is open drops the open one (a half record:
  the board restarted its send);
- an end line with no record open is ignored;
- a record longer than :data:`MAX_RECORD` bytes is dropped (garbage that
  happened to follow a begin line), and so is any line longer than that:
  the stream never holds more than about that much.

A marker counts when a line ends with it (after trailing spaces), so text
glued before it (a half line cut by a reset) does not hide it.
"""

from tanbo.record import SEND_BEGIN, SEND_END

# The longest record kept, in bytes: a 19x19 game's record is ~3 KB (a
# dense-19 game's at most ~1,600 plies, under 12 KB); 1 MB is no record.
MAX_RECORD = 1 << 20


class RecordStream:
    """Feed it bytes (:meth:`feed`); it returns what they completed.

    ``inside``: a record is open (its begin line seen, not its end);
    ``lines``: the lines of the open record so far.
    """

    def __init__(self):
        self.pending = b""  # the line not yet ended
        self.inside = False
        self.lines = []
        self.size = 0

    def feed(self, data):
        """Take ``data`` (bytes); a list of ``(kind, text)``, in order, for what it completed:
        ``("record", text)`` a whole record's text (its lines, ``\\n`` after each), ``("half",
        n)`` an open record of ``n`` lines dropped for a new begin line, ``("long", n)`` one
        dropped past :data:`MAX_RECORD` bytes (``n`` lines), ``("begin", None)`` a record opened."""
        out = []
        buf = self.pending + data
        start = 0
        while True:
            end = buf.find(b"\n", start)
            if end < 0:
                break
            self._line(buf[start:end], out)
            start = end + 1
        self.pending = buf[start:]
        if len(self.pending) > MAX_RECORD:  # a line without end: no record holds it
            self.pending = b""
            self._drop_long(out)
        return out

    def _line(self, raw, out):
        text = raw.decode("utf-8", "replace").rstrip("\r\n\t ")
        if text.endswith(SEND_BEGIN):
            if self.inside:
                out.append(("half", len(self.lines)))
            self.inside = True
            self.lines = []
            self.size = 0
            out.append(("begin", None))
        elif not self.inside:
            return
        elif text.endswith(SEND_END):
            head = text[:-len(SEND_END)].strip()
            if head:
                self.lines.append(head)
            self.inside = False
            out.append(("record", "".join(line + "\n" for line in self.lines)))
            self.lines = []
        else:
            self.lines.append(text)
            self.size += len(raw) + 1
            if self.size > MAX_RECORD:
                self._drop_long(out)

    def _drop_long(self, out):
        if self.inside:
            out.append(("long", len(self.lines)))
        self.inside = False
        self.lines = []
        self.size = 0
