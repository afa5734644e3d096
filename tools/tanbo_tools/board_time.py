"""Board time: how long MicroPython code takes on the handhelds' chips, from exact instruction counts.

The project's copy of ``../shared/tools/board-time/board_time.py`` (see
its README for the calibration). valgrind's callgrind counts, exactly, the
x86-64 instructions the MicroPython unix port executes for a workload;
Thumb-2 runs the same bytecode in :data:`THUMB_PER_X86` of them (±5% for
integer and array code, up to +25% for string handling), and a SAMD51
(PyBadge, PyGamer) executes :data:`IPC` of them per clock at 120 MHz. The
PicoSystem's RP2040 took 4.1 times as long for the same search
(CircuitPython 10.2.1 firmware, issue 22: 0.44 ms a node on 9x9 and 0.47
on 19x19 where this instrument gives a SAMD51 0.108 and 0.115; the AI's
budgets take 4.4, with a margin, see ``tanbo.ai.SLOWNESS``). Deterministic: same code, same count, on any
machine, loaded or not.

A workload script repeats its unit ``BOARD_TIME_N`` times (environment).
Two ways to count one unit:

- :func:`measure` (the shared tool's way, for any script): run it at two
  sizes; the difference of the counts over the difference of the sizes is
  one unit's cost, free of start-up, import and compile costs.
- :func:`count_units` (one run, each unit apart): the script calls
  :data:`MARK` once before its first unit and once after each; callgrind
  dumps its count at every call of MicroPython's ``divmod`` (nothing in the
  engine or the AI calls it), so each unit's count comes out alone: the
  mean and the worst of several, in one run. The first unit of a kind pays
  one-time costs (buffers growing, caches): workloads that repeat a unit
  skip it, as the shared tool's sizes 1 and 3 do.

Also a command line, as the shared tool:
``python -m tanbo_tools.board_time [--path DIR] [--n 1,3] SCRIPT.py``.
"""

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from . import arg_checks, vm

THUMB_PER_X86 = 0.80  # Cortex-M4 Thumb-2 per x86-64 instruction, same bytecode
MHZ, IPC = 120.0, 0.75  # SAMD51 clock; instructions per clock (0.6-0.9)
RP2040_PER_SAMD51 = 4.1
BOARDS = "SAMD51 120 MHz at IPC 0.75 (0.6-0.9); RP2040 = 4.1x SAMD51"
# As the shared tool: a collection sweeps the whole heap, so its size shows
# in the counts; the same size keeps figures comparable with it.
HEAP = "1M"
MARK = "divmod(0, 1)"  # a workload's mark between units (see the module docstring)
MARK_FUNCTION = "mp_builtin_divmod"


class BoardTimeError(RuntimeError):
    """A workload failed under valgrind; the message ends with its output."""


def unavailable(exe=None):
    """Why board time cannot be measured here (a sentence), or None."""
    if not shutil.which("valgrind"):
        return "valgrind is not installed (apt-get install valgrind)"
    if not (exe or vm.micropython_path()):
        return "no micropython unix port (%s)" % vm.INSTALL_HINT
    return None


def estimate(x86_instructions):
    """Board figures for ``x86_instructions`` of the unix port (one unit of work)."""
    thumb = x86_instructions * THUMB_PER_X86
    ms = thumb / (MHZ * 1e3 * IPC)
    return {"cortex_m4_instructions": int(round(thumb)), "samd51_ms": round(ms, 3),
            "rp2040_ms": round(ms * RP2040_PER_SAMD51, 3),
            "samd51_ms_range_ipc_0.9_0.6": [round(thumb / (MHZ * 1e3 * i), 3) for i in (0.9, 0.6)]}


def _argv(exe, script, heap):
    argv = vm.command(exe, os.path.abspath(script), heap)
    with open(exe, "rb") as f:
        wrapped = f.read(2) == b"#!"
    if wrapped:  # the PyPI command is a script: valgrind must run its Python
        with open(exe) as f:
            argv = f.readline()[2:].split() + argv
    return argv


def _run(script, n, path, heap, work, exe, timeout, options=()):
    """One valgrind run: ``(stderr, stdout)``; BoardTimeError when it fails."""
    exe = exe or vm.micropython_path()
    # PYTHONHASHSEED: the PyPI port runs inside CPython, whose hash
    # randomisation moves the count by ~1e5 from run to run; fixed, a count
    # repeats to the instruction.
    env = vm.environment([os.path.abspath(p) for p in path] + [".frozen"], BOARD_TIME_N=str(n),
                         BOARD_TIME_WORK=work or "", PYTHONHASHSEED="0")
    proc = subprocess.run(["valgrind", "--tool=callgrind"] + list(options) + _argv(exe, script, heap),
                          env=env, capture_output=True, text=True, timeout=timeout)
    if proc.returncode or "Collected" not in proc.stderr:
        raise BoardTimeError("%s %s at size %d failed (exit %d): %s" % (
            os.path.basename(script), work or "", n, proc.returncode,
            vm.tail(proc.stdout + proc.stderr, 2000)))
    return proc.stderr, proc.stdout


def count(script, n, path=(), heap=HEAP, work=None, exe=None, timeout=3600):
    """``(x86 instructions, stdout)`` of one whole run of ``script`` at size ``n``."""
    err, out = _run(script, n, path, heap, work, exe, timeout, ["--callgrind-out-file=/dev/null"])
    return int(re.search(r"Collected\s*:\s*(\d+)", err).group(1)), out


def count_units(script, n, path=(), heap=HEAP, work=None, exe=None, timeout=3600):
    """``(x86 instructions of each unit between marks, stdout)`` of one run at size ``n``."""
    with tempfile.TemporaryDirectory(prefix="board-time-") as tmp:
        base = os.path.join(tmp, "callgrind.out")
        _, out = _run(script, n, path, heap, work, exe, timeout,
                      ["--callgrind-out-file=" + base, "--dump-before=" + MARK_FUNCTION])
        dumps = sorted(glob.glob(base + ".*"), key=lambda f: int(f.rsplit(".", 1)[1]))
        counts = []
        for name in dumps[1:]:  # the first dump holds start-up and set-up
            with open(name) as f:
                counts.append(int(re.search(r"^totals:\s*(\d+)", f.read(), re.M).group(1)))
    if not counts:
        raise BoardTimeError("%s %s: no unit between two %s (is %s in the port's symbols?)"
                             % (os.path.basename(script), work or "", MARK, MARK_FUNCTION))
    return counts, out


def measure(script, path=(), sizes=(1, 3), heap=HEAP, exe=None):
    """One unit of ``script``, by two sizes: ``{"x86_instructions", **estimate}``."""
    (c1, _), (c2, _) = (count(script, n, path, heap, exe=exe) for n in sizes)
    x86 = (c2 - c1) / float(sizes[1] - sizes[0])
    return dict(estimate(x86), x86_instructions=int(round(x86)))


def main(argv=None):
    ap = argparse.ArgumentParser(prog="board_time", description=__doc__.split("\n")[0])
    ap.add_argument("script")
    ap.add_argument("--micropython", help="MicroPython unix port (default: beside this Python, then PATH)")
    ap.add_argument("--path", action="append", default=[], help="folder for MICROPYPATH (repeatable)")
    ap.add_argument("--heap", default=HEAP, type=arg_checks.heap_size,
                    help="-X heapsize for the run, 16K to 64M (default %(default)s)")
    ap.add_argument("--n", default="1,3", help="the two workload sizes (default 1,3)")
    a = ap.parse_args(argv)
    try:
        sizes = tuple(int(x) for x in a.n.split(","))
        if len(sizes) != 2 or sizes[0] < 0 or sizes[1] <= sizes[0]:
            raise ValueError
    except ValueError:
        ap.error("--n %r: want two sizes a,b with 0 <= a < b" % a.n)
    reason = unavailable(a.micropython)
    if reason:
        ap.exit(1, "board_time: %s\n" % reason)
    try:
        print(json.dumps(measure(a.script, a.path, sizes, a.heap, a.micropython)))
    except BoardTimeError as exc:
        ap.exit(1, "board_time: %s\n" % exc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
