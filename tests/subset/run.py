"""Run subset test modules on CPython, MicroPython or CircuitPython (the tests use the first two).

Usage: run.py [-v] [module | module.test_name ...]

Imports each named module (default: every ``check_*.py`` beside this file),
calls every top-level callable whose name starts with ``test_`` in source
order, and prints ``FAIL module.test: ExcType: message`` (plus a traceback
where the interpreter can print one) for each failure. The last line is
always ``N passed, M failed``. Exit status: 0 when all passed, 1 when any
failed or nothing ran at all (a run of zero tests is a broken run).

Written in the MicroPython/CircuitPython subset: no os.path, no
sys.print_exception on CircuitPython, no traceback module on MicroPython,
and module dicts do not keep definition order there, so the order comes
from the source file. This file's directory goes first on sys.path and
``<repo>/core`` last, so the checks import ``tanbo`` without MICROPYPATH
too, while a MICROPYPATH of compiled ``.mpy`` modules takes precedence.
"""

import gc
import os
import sys


def _abs(path):
    path = path.replace("\\", "/")
    if not path.startswith("/") and path[1:3] != ":/":
        path = os.getcwd().replace("\\", "/") + "/" + path
    return path


def _parent(path):
    i = path.rfind("/")
    return path[:i] if i > 0 else "/"


HERE = _parent(_abs(globals().get("__file__") or sys.argv[0]))


def _setup_path():
    # HERE and <repo>/core last, so a MICROPYPATH holding compiled .mpy
    # modules (engine and checks, as a board would load them) wins over the
    # sources.
    if HERE not in sys.path:
        sys.path.append(HERE)
    core = _parent(_parent(HERE)) + "/core"
    if core not in sys.path:
        sys.path.append(core)


def discover():
    """Names of the ``check_*.py`` modules beside this file, sorted."""
    names = []
    for f in os.listdir(HERE):
        if f.startswith("check_") and f.endswith(".py"):
            names.append(f[:-3])
    names.sort()
    return names


def _source_order(mod):
    """``test_`` names in the order their ``def`` lines appear, [] if unreadable."""
    path = getattr(mod, "__file__", None)
    order = []
    if not path:
        return order
    if path.endswith(".mpy"):  # compiled: read the source kept beside it, if any
        path = path[:-4] + ".py"
    try:
        with open(path) as f:
            for line in f:
                if line.startswith("def test_"):
                    end = line.find("(")
                    if end > 4:
                        order.append(line[4:end].strip())
    except (OSError, UnicodeError):
        pass
    return order


def test_names(mod):
    """Every callable top-level ``test_*`` of ``mod``: source order, then any others sorted."""
    found = []
    for name in dir(mod):
        if name.startswith("test_") and callable(getattr(mod, name)):
            found.append(name)
    names = [n for n in _source_order(mod) if n in found]
    rest = [n for n in found if n not in names]
    rest.sort()
    return names + rest


def _print_traceback(exc):
    if hasattr(sys, "print_exception"):  # MicroPython
        sys.print_exception(exc)
        return
    try:
        import traceback  # CPython, CircuitPython
        traceback.print_exception(exc)
    except Exception:  # no traceback module: the FAIL line must do
        pass


def _fail(label, exc, counts):
    counts[1] += 1
    print("FAIL %s: %s: %s" % (label, type(exc).__name__, exc))
    _print_traceback(exc)


def run_module(modname, counts, verbose, only=None):
    """Import ``modname`` and run its tests (or just ``only``), adding to ``counts`` = [passed, failed]."""
    try:
        mod = __import__(modname)
    except Exception as e:  # an unimportable module counts as one failure
        _fail(modname, e, counts)
        return
    names = test_names(mod)
    if only is not None:
        if only not in names:
            _fail(modname + "." + only, NameError("no test named %r" % only), counts)
            return
        names = [only]
    for name in names:
        gc.collect()  # each test starts with the heap as clean as it gets
        label = modname + "." + name
        try:
            getattr(mod, name)()
        except Exception as e:
            _fail(label, e, counts)
            continue
        counts[0] += 1
        if verbose:
            print("ok " + label)
    gc.collect()


def main(argv):
    verbose = False
    mods = []
    for a in argv:
        if a == "-v":
            verbose = True
        elif a.startswith("-"):
            print("run.py: unknown option %r (usage: run.py [-v] [module | module.test_name ...])" % a)
            return 2
        else:
            mods.append(a[:-3] if a.endswith(".py") else a)
    _setup_path()
    if not mods:
        mods = discover()
    counts = [0, 0]
    for m in mods:
        dot = m.find(".")
        if dot > 0:  # module.test_name: that one test
            run_module(m[:dot], counts, verbose, m[dot + 1:])
        else:
            run_module(m, counts, verbose)
    print("%d passed, %d failed" % (counts[0], counts[1]))
    return 1 if counts[1] or not counts[0] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
