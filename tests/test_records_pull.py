"""``tanbo records pull`` (issue 36 items 3 and 5): records a board prints between marker lines,
picked out of garbage and half records, checked and saved as new files, never over anything.

The board is simulated on a pseudo-terminal (os.openpty): the test writes what a handheld
would print on its USB console to the master side; ``tanbo records pull --port`` reads the
other side in a child process. The child's progress lines on standard error say when it
listens, receives and saves, so the test writes only then (a pty drops what is unread when
its master closes: a board unplugged).
"""

import errno
import os
import queue
import random
import subprocess
import sys
import threading

import pytest
from hypothesis import given, settings, strategies as st

from tanbo import Game
from tanbo.record import SEND_BEGIN, SEND_END
import tanbo_files as files
from tanbo_tools.games import board_ports, record_stream, records
from tanbo_tools.cli import main as cli_main

TANBO = os.path.join(os.path.dirname(sys.executable), "tanbo")
pty_only = pytest.mark.skipif(not hasattr(os, "openpty"), reason="no pseudo-terminals here")


def played(variant="9x9", plies=12, seed=0):
    """A game of ``plies`` random legal plies (fewer if it ends)."""
    g = Game(variant)
    rng = random.Random(seed)
    while g.ply < plies and not g.over:
        g.play(rng.choice(g.legal_moves()))
    return g


def sent(record, eol=b"\r\n"):
    """The bytes a board prints for ``record``: the markers around its lines (CircuitPython's
    console ends lines with CR LF)."""
    lines = [SEND_BEGIN] + record.splitlines() + [SEND_END]
    return b"".join(line.encode() + eol for line in lines)


# -- the stream ----------------------------------------------------------------------------------
def test_records_come_out_of_garbage_half_records_and_split_reads():
    a, b = played(seed=1).record(), played("13x13", 20, seed=2).record()
    noise = b"code.py output:\r\n\x00\xff\xfe garbage " + SEND_END.encode() + b"\r\n"
    half = SEND_BEGIN.encode() + b"\r\nVariant: 9x9\r\nMoves:\r\n1. C3"  # a board reset mid-send
    data = noise + half + b"\r\n" + sent(a) + b"Auto-reload is on.\r\n" + sent(b)
    for cut in (1, 7, 64, len(data)):
        s = record_stream.RecordStream()
        out = []
        for i in range(0, len(data), cut):
            out += s.feed(data[i:i + cut])
        assert [v for k, v in out if k == "record"] == [a, b]
        assert [v for k, v in out if k == "half"] == [3]
        assert not s.inside


@settings(max_examples=60, deadline=None)
@given(junk=st.lists(st.binary(max_size=80), max_size=6), chunk=st.integers(1, 200))
def test_garbage_between_records_never_changes_them(junk, chunk):
    """Whatever lies between records (no marker in it) is dropped; the records arrive whole."""
    recs = [played(seed=k, plies=3 * k).record() for k in range(len(junk))]
    data = b""
    for j, r in zip(junk, recs):
        j = j.replace(SEND_BEGIN.encode(), b"").replace(SEND_END.encode(), b"")
        data += j + b"\n" + sent(r)
    s = record_stream.RecordStream()
    out = []
    for i in range(0, len(data), chunk):
        out += s.feed(data[i:i + chunk])
    assert [v for k, v in out if k == "record"] == recs


def test_a_stream_of_garbage_holds_at_most_a_record_s_worth(monkeypatch):
    monkeypatch.setattr(record_stream, "MAX_RECORD", 1000)
    s = record_stream.RecordStream()
    assert s.feed(b"x" * 5000) == [] and len(s.pending) <= 1000
    out = s.feed(SEND_BEGIN.encode() + b"\n" + b"1. C3\n" * 400)
    assert ("long", out[-1][1]) == out[-1] and not s.inside and s.lines == []


# -- saving ---------------------------------------------------------------------------------------
def test_write_new_never_replaces_anything(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("yours\n")
    (tmp_path / "file.txt").write_text("old\n")
    os.symlink(victim, tmp_path / "link.txt")
    os.symlink(tmp_path / "nowhere", tmp_path / "dangling.txt")
    for name in ("file.txt", "link.txt", "dangling.txt"):
        with pytest.raises(FileExistsError):
            files.write_new(str(tmp_path / name), b"new\n")
    assert victim.read_text() == "yours\n" and (tmp_path / "file.txt").read_text() == "old\n"
    assert not (tmp_path / "nowhere").exists()
    assert sorted(os.listdir(tmp_path)) == ["dangling.txt", "file.txt", "link.txt", "victim.txt"]


def test_write_new_without_hard_links_creates_exclusively(tmp_path, monkeypatch):
    def no_links(*a, **k):
        raise OSError(errno.EPERM, "Operation not permitted")
    monkeypatch.setattr(os, "link", no_links)
    files.write_new(str(tmp_path / "a.txt"), b"one\n")
    with pytest.raises(FileExistsError):
        files.write_new(str(tmp_path / "a.txt"), b"two\n")
    assert (tmp_path / "a.txt").read_bytes() == b"one\n" and os.listdir(tmp_path) == ["a.txt"]


def test_save_record_numbers_a_taken_name(tmp_path):
    g = played()
    now = (2026, 11, 28, 3, 15, 2, 5, 332, 0)
    paths = [records.save_record(str(tmp_path), g.record(), g, now) for _ in range(3)]
    assert [os.path.basename(p) for p in paths] == [
        "tanbo-20261128-031502-9x9.txt", "tanbo-20261128-031502-9x9-2.txt", "tanbo-20261128-031502-9x9-3.txt"]
    assert all(open(p).read() == g.record() for p in paths)


@pytest.mark.parametrize("err", [errno.ENOSPC, errno.EROFS])
def test_a_full_or_read_only_folder_leaves_nothing(tmp_path, monkeypatch, err):
    g = played()

    def fails(fd):
        raise OSError(err, os.strerror(err))
    monkeypatch.setattr(os, "fsync", fails)
    with pytest.raises(files.FileProblem) as exc:
        records.save_record(str(tmp_path), g.record(), g, (2026, 1, 1, 0, 0, 0, 0, 1, 0))
    assert os.strerror(err) in str(exc.value) and "nothing was written" in str(exc.value)
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("kind", ["link", "file", "empty"])
def test_out_must_be_a_real_folder(tmp_path, capsys, kind):
    target = tmp_path / "real"
    target.mkdir()
    out = {"link": tmp_path / "link", "file": tmp_path / "f", "empty": ""}[kind]
    if kind == "link":
        os.symlink(target, out)
    elif kind == "file":
        out.write_text("x")
    with pytest.raises(SystemExit) as exc:
        cli_main(["records", "pull", "--port", "/dev/null", "--out", str(out)])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "--out" in err and {"link": "symbolic link", "file": "is a file", "empty": "empty"}[kind] in err
    assert os.listdir(target) == []


# -- finding the board ----------------------------------------------------------------------------
def port(device, vid=None, pid=None, product=None, manufacturer=None, interface=None):
    from serial.tools.list_ports_common import ListPortInfo
    p = ListPortInfo(device, skip_link_detection=True)
    p.vid, p.pid, p.product, p.manufacturer, p.interface = vid, pid, product, manufacturer, interface
    if vid is not None:
        p.apply_usb_info()
    return p


class Ports:
    def __init__(self, *ports):
        self.ports = list(ports)

    def comports(self):
        return self.ports


BADGE = port("/dev/ttyACM0", 0x239A, 0x8034, "PyBadge", "Adafruit Industries LLC", "CircuitPython CDC control")
BADGE_DATA = port("/dev/ttyACM1", 0x239A, 0x8034, "PyBadge", "Adafruit Industries LLC", "CircuitPython CDC2 control")
PICO = port("/dev/cu.usbmodem1101", 0x16D0, 0x08C8, "PicoSystem", "Pimoroni")  # macOS: no interface name
FTDI = port("/dev/ttyUSB0", 0x0403, 0x6001, "FT232R USB UART", "FTDI")
FEATHER = port("COM5", 0x239A, 0x80CB)  # Windows: ids only
ONBOARD = port("/dev/ttyS0")


def test_the_one_board_is_found_by_its_names_or_ids():
    assert board_ports.find_board(Ports(FTDI, BADGE, BADGE_DATA, ONBOARD)) == ("/dev/ttyACM0", "PyBadge (USB 239A:8034)")
    assert board_ports.find_board(Ports(FTDI, PICO))[0] == "/dev/cu.usbmodem1101"
    # A likely board (an Adafruit id) gives way to a certain one.
    assert board_ports.find_board(Ports(FEATHER, PICO))[0] == "/dev/cu.usbmodem1101"
    assert board_ports.find_board(Ports(FEATHER, FTDI))[0] == "COM5"


@pytest.mark.parametrize("ports,match", [
    ((FTDI, ONBOARD, BADGE_DATA), r"no CircuitPython board found .*/dev/ttyUSB0: FT232R USB UART \(USB 0403:6001\)"),
    ((), r"no CircuitPython board found among the serial ports \(none\)"),
    ((BADGE, PICO), r"2 boards found \(/dev/ttyACM0: PyBadge .*, /dev/cu.usbmodem1101: PicoSystem .*\): choose one with --port"),
])
def test_no_board_or_several_is_one_line_naming_them(ports, match):
    with pytest.raises(board_ports.PortProblem, match=match):
        board_ports.find_board(Ports(*ports))


def test_a_given_port_must_be_a_board(tmp_path):
    assert board_ports.check_port("/dev/ttyACM0", Ports(BADGE)) == "PyBadge (USB 239A:8034)"
    for bad, match in (("/dev/ttyUSB0", "is FT232R USB UART .*not a CircuitPython board's console"),
                       ("/dev/ttyS0", "is a serial port that is not USB, not a CircuitPython"),
                       (str(tmp_path / "gone"), "there is no such port"),
                       (str(tmp_path), "is a folder, not a serial port")):
        with pytest.raises(board_ports.PortProblem, match=match) as exc:
            board_ports.check_port(bad, Ports(FTDI, ONBOARD))
        assert exc.value.usage


def test_without_pyserial_the_message_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "serial", None)
    with pytest.raises(board_ports.PortProblem, match=r"pip install 'tanbo-handheld\[serial\]'"):
        board_ports.serial_modules()


# -- against a simulated board on a pseudo-terminal ------------------------------------------------
def _as_from_a_terminal(then=None):
    """In the child: Ctrl-C's signal as a terminal's command gets it (a shell's
    background job inherits it ignored, and Python then never raises
    KeyboardInterrupt); then ``then()``."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    if then is not None:
        then()


class Pull:
    """``tanbo records pull --port PTY`` in a child process, its stderr lines in a queue."""

    def __init__(self, out, *extra, preexec_fn=None):
        self.master, slave = os.openpty()
        self.port = os.ttyname(slave)
        os.close(slave)
        self.proc = subprocess.Popen([TANBO, "records", "pull", "--port", self.port, "--out", str(out)]
                                     + list(extra), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     preexec_fn=lambda: _as_from_a_terminal(preexec_fn))
        self.lines = queue.Queue()
        self.err = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stderr:
            self.lines.put(line)
        self.lines.put(None)

    def wait_for(self, text):
        """Block until a stderr line contains ``text`` (at most a minute)."""
        while True:
            line = self.lines.get(timeout=60)
            assert line is not None, "records pull ended before saying %r: %s" % (text, "".join(self.err))
            self.err.append(line)
            if text in line:
                return line

    def send(self, data):
        os.write(self.master, data)

    def unplug(self):
        os.close(self.master)
        self.master = None

    def finish(self):
        """``(exit status, stdout, all stderr)``; TimeoutExpired if it does not end within a minute."""
        rc = self.proc.wait(timeout=60)  # (before the read, which would wait for ever)
        out = self.proc.stdout.read()
        while True:
            line = self.lines.get(timeout=60)
            if line is None:
                break
            self.err.append(line)
        if self.master is not None:
            os.close(self.master)
        return rc, out, "".join(self.err)


@pty_only
def test_two_records_in_one_burst_among_garbage_and_a_half_record(tmp_path):
    a, b = played(seed=3, plies=30).record(), played("19x19", 40, seed=4).record()
    pull = Pull(tmp_path, "--count", "2")
    pull.wait_for("listening on")
    pull.send(b"\x1b]0;\xf0\x9f\x90\x8dcode.py | 9.2.1\x1b\\soft reboot\r\n\xff\xfe\r\n"
              + SEND_BEGIN.encode() + b"\r\nVariant: 9x9\r\nMoves:\r\n1. C3"
              + b"\r\n" + sent(a) + sent(b))
    rc, out, err = pull.finish()
    assert rc == 0, err
    names = sorted(os.listdir(tmp_path))
    assert len(names) == 2 and all(n.startswith("tanbo-") for n in names)
    assert sorted(open(tmp_path / n).read() for n in names) == sorted([a, b])
    assert "dropped half a record (3 lines)" in err and "2 records saved in" in err
    assert out.count("saved ") == 2 and "19x19" in out


@pty_only
def test_an_invalid_record_is_named_and_not_saved(tmp_path):
    good = played(seed=5).record()
    bad = good.replace("Moves:", "Moves:\n1. Z99")
    pull = Pull(tmp_path, "--count", "2")
    pull.wait_for("listening on")
    pull.send(sent(bad) + sent(good))
    rc, out, err = pull.finish()
    assert rc == 1
    assert [open(tmp_path / n).read() for n in os.listdir(tmp_path)] == [good]
    line = [x for x in err.splitlines() if "record 1 is not a game record" in x][0]
    assert "Z99" in line and "not saved" in line and "1 record saved" in err


@pty_only
def test_a_board_unplugged_mid_record_is_an_error_and_saves_nothing_of_it(tmp_path):
    rec = played(seed=6).record()
    pull = Pull(tmp_path)
    pull.wait_for("listening on")
    pull.send(sent(rec))
    pull.wait_for("saved ")
    pull.send(SEND_BEGIN.encode() + b"\r\n# Tanbo game record\r\nVariant: 9x9\r\n")
    pull.wait_for("receiving a record")
    pull.unplug()
    rc, out, err = pull.finish()
    assert rc == 1
    last = err.strip().splitlines()[-1]
    assert "went away in the middle of a record" in last and "not saved" in last
    assert "1 record saved" in last
    assert [open(tmp_path / n).read() for n in os.listdir(tmp_path)] == [rec]


@pty_only
def test_a_board_unplugged_between_records_ends_quietly(tmp_path):
    pull = Pull(tmp_path)
    pull.wait_for("listening on")
    pull.send(b"Auto-reload is on.\r\n")
    pull.unplug()
    rc, out, err = pull.finish()
    assert rc == 0 and "went away (unplugged or reset); 0 records saved" in err
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("given,match", [("/dev/null", "not a serial port"),
                                         ("missing", "there is no such port")])
def test_a_port_that_is_not_a_board_is_a_usage_error(tmp_path, capsys, given, match):
    port_arg = str(tmp_path / given) if given == "missing" else given
    assert cli_main(["records", "pull", "--port", port_arg, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and match in err[0] and err[0].startswith("tanbo records pull: ")
    assert os.listdir(tmp_path) == []


@pty_only
def test_ctrl_c_says_what_was_saved_and_drops_the_half_record(tmp_path):
    import signal
    rec = played(seed=7).record()
    pull = Pull(tmp_path)
    pull.wait_for("listening on")
    pull.send(sent(rec) + SEND_BEGIN.encode() + b"\r\nVariant: 9x9\r\n")
    pull.wait_for("saved ")
    pull.wait_for("receiving a record")
    pull.proc.send_signal(signal.SIGINT)
    rc, out, err = pull.finish()
    assert rc == 130
    assert "stopped; 1 record saved in %s (the record being received was not saved)" % tmp_path in err
    assert [open(tmp_path / n).read() for n in os.listdir(tmp_path)] == [rec]


class FakePort:
    """Reads as a board that sends ``chunks`` one a read, then nothing."""

    def __init__(self, chunks):
        self.chunks = list(chunks)
        self.in_waiting = 0

    def read(self, n):
        return self.chunks.pop(0) if self.chunks else b""


def test_on_a_terminal_one_line_is_redrawn_while_it_waits_and_receives(tmp_path, monkeypatch):
    import io
    from tanbo_tools.progress import Progress
    clock = iter(range(0, 1000, 2))  # every read two seconds after the last
    monkeypatch.setattr(records.time, "monotonic", lambda: float(next(clock)))
    stream = io.StringIO()
    rec = played(seed=8).record()
    data = sent(rec)
    port = FakePort([b"", b"", data[:40], data[40:]])
    puller = records.Puller(port, str(tmp_path), 1, Progress(1, "records pull", stream=stream, tty=True), io.StringIO())
    serial, _ = board_ports.serial_modules()
    puller.run(serial)
    shown = stream.getvalue()
    assert "\r" in shown and "\n" not in shown.rstrip("\n")  # redrawn in place, no line per read
    assert "waiting 2s" in shown and "receiving: " in shown and "saved tanbo-" in shown
    assert len(os.listdir(tmp_path)) == 1


def small_disk():
    """In the child: files may grow to 100 bytes (writes past it fail with EFBIG, as a full disk
    fails them with ENOSPC)."""
    import resource
    import signal
    resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


@pty_only
def test_a_full_disk_stops_it_with_one_line_and_leaves_no_file(tmp_path):
    pytest.importorskip("resource")  # (not on Windows)
    rec = played(seed=9, plies=40).record()
    assert len(rec) > 100
    pull = Pull(tmp_path, preexec_fn=small_disk)
    pull.wait_for("listening on")
    pull.send(sent(rec))
    rc, out, err = pull.finish()
    assert rc == 1
    last = err.strip().splitlines()[-1]
    assert last.startswith("tanbo records pull: cannot write the record ")
    assert "File too large (nothing was written); 0 records saved in" in last
    assert os.listdir(tmp_path) == []


@pty_only
def test_what_the_handhelds_send_prints_is_saved_as_the_game(tmp_path, monkeypatch):
    """The device app's own Send (app.send), its lines ended as CircuitPython's console ends
    them, read back whole: the saved file replays to the same game, with its Opponent header."""
    import contextlib
    import io
    monkeypatch.syspath_prepend(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "device"))
    for name in [n for n in sys.modules if n == "app" or n.startswith("app.")]:
        monkeypatch.delitem(sys.modules, name)  # (put back as they were after the test)
    from app.send import send
    games = [played("9x9", 25, seed=10), played("4p", 30, seed=11), played("3d", 20, seed=12)]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        for g in games:
            send(g, 0b1011)  # hard, the computer as player 2
    pull = Pull(tmp_path, "--count", "3")
    pull.wait_for("listening on")
    pull.send(printed.getvalue().replace("\n", "\r\n").encode())
    rc, out, err = pull.finish()
    assert rc == 0, err
    saved = [Game.from_record(open(tmp_path / n).read()) for n in sorted(os.listdir(tmp_path))]
    assert sorted((s.variant.name, s.moves()) for s in saved) == sorted((g.variant.name, g.moves()) for g in games)
    assert all(s.headers["opponent"] == "hard (White)" for s in saved)


@pty_only
def test_out_that_does_not_exist_yet_is_made_and_the_first_record_saved_in_it(tmp_path):
    """The docs' own ``--out games/``, a folder not there yet: the check when the command line is
    read removes what it made; the command makes it when it listens, and the first record is saved."""
    out = tmp_path / "games" / "new"
    rec = played(seed=13).record()
    pull = Pull(str(out) + os.sep, "--count", "1")
    pull.wait_for("listening on")
    assert out.is_dir()
    pull.send(sent(rec))
    rc, stdout, err = pull.finish()
    assert rc == 0 and "1 record saved in" in err, err
    assert [open(out / n).read() for n in os.listdir(out)] == [rec]


def test_out_that_does_not_exist_yet_is_not_made_when_the_port_is_refused(tmp_path, capsys):
    out = tmp_path / "games"
    assert cli_main(["records", "pull", "--port", "/dev/null", "--out", str(out) + os.sep]) == 2
    assert "not a serial port" in capsys.readouterr().err and os.listdir(tmp_path) == []
