"""``tanbo records pull``: receive the game records a handheld sends over USB and save each as a file.

    tanbo records pull                      # the one board connected; files in the current folder
    tanbo records pull --port /dev/ttyACM0 --out games/
    tanbo records pull --count 1            # stop after one record

On the board, "Send" in Review (or the setting that sends every finished
game) prints the game's record on the USB serial console between two
marker lines (:data:`tanbo.record.SEND_BEGIN`, :data:`tanbo.record.SEND_END`).
This command listens on that console (found by CircuitPython's USB names,
:mod:`tanbo_tools.games.board_ports`, or ``--port``), picks the records out of
whatever else the board prints (:mod:`tanbo_tools.games.record_stream`), checks
each by replaying it (:mod:`tanbo.replay`) and saves it as a new file
``tanbo-YYYYMMDD-HHMMSS-VARIANT.txt`` (``-2``, ``-3``... when the name is
taken), never over an existing one (:func:`tanbo_files.write_new`).

A record that does not replay (damaged on the way) is not saved: it is
named on standard error with the line that fails, and the exit status is 1
at the end; the board still has the game, so send it again. It runs until
``--count`` records have come, Ctrl-C, or the board goes away (unplugged,
reset): between records that ends it quietly, in the middle of one it is an
error, and the half record is not saved.
"""

import os
import re
import sys
import time

import tanbo_files as files

from .. import arg_checks
from .board_ports import PortProblem, check_port, find_board, serial_modules
from ..progress import Progress, duration
from .record_stream import RecordStream

# USB CDC ignores the rate, with one exception: a port opened at 1,200 baud and
# closed resets a CircuitPython board into its bootloader. Never 1200.
BAUD = 115200
READ_TIMEOUT = 0.25  # seconds a read waits: how often the waiting line and Ctrl-C are served
WAITING_EVERY = 1.0  # seconds between redraws of the waiting line (terminal only)
MAX_COUNT = 100000


def add_arguments(parser):
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    sub.required = True
    pull = sub.add_parser("pull", help="receive the records a board sends and save each as a new file",
                          description="Receive the game records a handheld sends from Review over USB "
                                      "and save each as a new file.")
    pull.add_argument("--port", default=None, type=port_name,
                      help="the board's serial port (default: the one CircuitPython board connected)")
    pull.add_argument("--out", default=".", type=records_folder, metavar="DIR",
                      help="folder for the record files (default: the current folder)")
    pull.add_argument("--count", default=None, type=arg_checks.whole(1, MAX_COUNT, "records"), metavar="N",
                      help="stop after N records (default: until Ctrl-C or the board goes away)")
    pull.add_argument("--quiet", action="store_true", help="no progress on standard error")


def port_name(text):
    """``--port``: a name that is not empty (whether it is a board is checked when it runs)."""
    if not text or "\0" in text:
        raise arg_checks.BadValue("%r: give the serial port, like /dev/ttyACM0 or COM3" % (text,))
    return text


def records_folder(text):
    """``--out``: a folder records can be written in, and not a symbolic link (records are never
    written through one); see :func:`arg_checks.output_folder`."""
    if text and os.path.islink(text):
        raise arg_checks.BadValue("%r is a symbolic link: give the folder itself (records are not "
                                  "written through links)" % text)
    return arg_checks.output_folder(text)


class Gone(Exception):
    """The port failed (the board unplugged or reset); the message is pyserial's."""


def file_stem(game, now):
    """The name of a record file without its ending: ``tanbo-20261128-031502-9x9`` (``now``: a
    ``time.struct_time``, when it was received)."""
    variant = re.sub(r"[^A-Za-z0-9._-]", "_", game.variant.name)
    return "tanbo-%s-%s" % (time.strftime("%Y%m%d-%H%M%S", now), variant)


def save_record(out, text, game, now):
    """Save record ``text`` (of ``game``) as a new file in folder ``out``; its path.

    FileProblem when ``out`` became a link or stopped being a folder, or the
    write failed (nothing is left of the file then)."""
    if os.path.islink(out) or not os.path.isdir(out):
        raise files.FileProblem("the folder %r is no longer a folder (a link or gone): nothing was written" % out)
    stem = os.path.join(out, file_stem(game, now))
    data = text.encode("utf-8")
    for n in range(1, 1000):
        path = stem + ("" if n == 1 else "-%d" % n) + ".txt"
        try:
            files.write_new(path, data, "the record")
            return path
        except FileExistsError:
            continue
    raise files.FileProblem("cannot write the record in %r: %s-2.txt to -999.txt are all taken" % (out, stem))


def open_port(serial, port):
    """The open pyserial port ``port``; PortProblem saying why it cannot be opened."""
    try:
        return serial.Serial(port, BAUD, timeout=READ_TIMEOUT, exclusive=True)
    except (serial.SerialException, OSError, ValueError) as exc:
        text = str(exc)
        if "configure port" in text or "Inappropriate ioctl" in text:
            raise PortProblem("--port %r is not a serial port (%s)" % (port, text), True)
        hint = ""
        if "ermission denied" in text:
            hint = " (on Linux: add yourself to the group that owns it, often dialout, and log in again)"
        elif "busy" in text or "lock" in text.lower():
            hint = " (another program has it open: a serial monitor, an editor)"
        raise PortProblem("cannot open %s: %s%s" % (port, text, hint))


class Puller:
    """Receives records on an open port and saves them; counts what happened."""

    def __init__(self, port, out, count, progress, stdout):
        self.port = port
        self.out = out
        self.count = count
        self.progress = progress
        self.stdout = stdout
        self.stream = RecordStream()
        self.received = 0
        self.saved = []
        self.refused = 0

    def run(self, serial):
        """Until ``count`` records came (return) or the port fails (Gone)."""
        last_line = 0.0
        started = time.monotonic()
        while self.count is None or self.received < self.count:
            try:
                data = self.port.read(self.port.in_waiting or 1)
            except (serial.SerialException, OSError) as exc:
                raise Gone(str(exc))
            for kind, value in self.stream.feed(data):
                self.event(kind, value)
                if self.count is not None and self.received >= self.count:
                    return
            now = time.monotonic()
            if self.progress.tty and now - last_line >= WAITING_EVERY:
                last_line = now
                if self.stream.inside:
                    note = "receiving: %d lines" % len(self.stream.lines)
                else:
                    note = "waiting %s" % duration(now - started)
                self.progress.step(note, n=0)

    def event(self, kind, value):
        say = self.progress.say
        if kind == "begin":
            if not self.progress.tty:
                say("receiving a record")
        elif kind == "half":
            say("dropped half a record (%d lines): the board began another" % value)
        elif kind == "long":
            say("dropped %d lines after a begin line: over 1 MB, no record is that long" % value)
        elif kind == "record":
            self.received += 1
            self.keep(value)

    def keep(self, text):
        from tanbo import Game
        try:
            game = Game.from_record(text)
        except ValueError as exc:
            self.refused += 1
            self.progress.say("record %d is not a game record (%s): not saved; send it again from "
                              "the board" % (self.received, exc))
            return
        path = save_record(self.out, text, game, time.localtime())
        self.saved.append(path)
        from tanbo.variants import player_name
        result = "unfinished" if game.winner is None else player_name(game.winner) + " won"
        print("saved %s: %s, %s, %d plies" % (path, game.variant.name, result, game.ply),
              file=self.stdout, flush=True)
        self.progress.step("saved %s" % os.path.basename(path))

    def summary(self):
        text = "%d record%s saved in %s" % (len(self.saved), "" if len(self.saved) == 1 else "s", self.out)
        if self.refused:
            text += ", %d not records (not saved)" % self.refused
        return text


def run(args):
    progress = Progress(args.count, "records pull", quiet=args.quiet)
    try:
        serial, list_ports = serial_modules()
        if args.port is None:
            port, describe = find_board(list_ports)
        else:
            port, describe = args.port, check_port(args.port, list_ports)
        handle = open_port(serial, port)
    except PortProblem as exc:
        print("tanbo records pull: %s" % exc, file=sys.stderr)
        return 2 if exc.usage else 1
    try:
        files.make_folder(args.out, "the records' folder")
    except files.FileProblem as exc:
        handle.close()
        print("tanbo records pull: %s" % exc, file=sys.stderr)
        return 1
    puller = Puller(handle, args.out, args.count, progress, sys.stdout)
    progress.say("listening on %s (%s): choose Send in Review on the board; Ctrl-C stops" % (port, describe))
    try:
        puller.run(serial)
    except Gone as exc:
        progress.close()
        if puller.stream.inside:
            n = len(puller.stream.lines)
            print("tanbo records pull: the board on %s went away in the middle of a record (%d line%s "
                  "received, not saved; %s): %s" % (port, n, "" if n == 1 else "s", puller.summary(), exc),
                  file=sys.stderr)
            return 1
        progress.done("the board on %s went away (unplugged or reset); %s" % (port, puller.summary()))
        return 1 if puller.refused else 0
    except files.FileProblem as exc:
        progress.close()
        print("tanbo records pull: %s; %s" % (exc, puller.summary()), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        progress.close()
        half = " (the record being received was not saved)" if puller.stream.inside else ""
        print("tanbo records pull: stopped; %s%s" % (puller.summary(), half), file=sys.stderr)
        raise
    finally:
        handle.close()
    progress.done(puller.summary())
    return 1 if puller.refused else 0
