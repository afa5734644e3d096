"""Run tests/subset's check modules under CPython and the MicroPython unix port.

Each check module runs in its own interpreter process (a fresh heap), one
pytest case per module and interpreter, so a failure names both. The
MicroPython runs load the engine as compiled ``.mpy`` (what the boards
run) with the heap capped as in :mod:`interpreters`; the check modules
themselves are loaded from source. Also checks that run.py itself reports
failures, import errors and empty runs.
"""

import os
import shutil
import sys

import pytest

import interpreters
from interpreters import RUNNER
from tanbo_tools.vm import run

MODULES = interpreters.check_modules()


def assert_all_passed(result):
    rc, out, err = result
    counts = interpreters.summary(out)
    assert counts is not None, "no 'N passed, M failed' line\n" + interpreters.explain(rc, out, err)
    passed, failed = counts
    assert rc == 0 and failed == 0 and passed > 0, interpreters.explain(rc, out, err)


def test_there_are_check_modules():
    # Guards against silently running nothing (e.g. a renamed folder).
    assert "check_harness" in MODULES


@pytest.mark.parametrize("module", MODULES)
def test_cpython(module):
    assert_all_passed(run(sys.executable, [RUNNER, module], heap=None))


@pytest.mark.parametrize("module", MODULES)
def test_micropython(module, micropython_exe, mpy_core_micropython):
    assert_all_passed(run(micropython_exe, [RUNNER, module], heap=interpreters.MICROPYTHON_HEAP,
                          path=[mpy_core_micropython]))


# -- the runner itself ---------------------------------------------------------

FAKE_CHECK = '''\
def test_zeta():
    pass


def test_alpha():
    assert 1 + 1 == 3, "arithmetic is off"


def helper_not_a_test():
    raise RuntimeError("must not run")


def test_middle():
    raise ValueError("bad k")

test_not_callable = 5
'''


def runner_dir(tmp_path, files):
    """A copy of run.py in ``tmp_path`` with ``{name: source}`` beside it."""
    shutil.copy(RUNNER, str(tmp_path / "run.py"))
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return str(tmp_path / "run.py")


def interpreters_to_try():
    """pytest params (exe, heap) for each interpreter present, with readable ids."""
    found = [pytest.param(sys.executable, None, id="cpython")]
    mp = interpreters.micropython_path()
    if mp:
        found.append(pytest.param(mp, interpreters.MICROPYTHON_HEAP, id="micropython"))
    return found


@pytest.mark.parametrize("exe,heap", interpreters_to_try())
def test_runner_reports_failures_in_source_order(tmp_path, exe, heap):
    script = runner_dir(tmp_path, {"check_fake.py": FAKE_CHECK, "check_broken.py": "import no_such_module_xyz\n",
                                   "other.py": "def test_x():\n    raise RuntimeError('not a check')\n"})
    rc, out, err = run(exe, [script, "-v"], heap=heap, path=[])
    lines = [l for l in out.splitlines() if l.startswith(("FAIL", "ok", "0", "1", "2", "3"))]
    assert rc == 1, interpreters.explain(rc, out, err)
    # ImportError on MicroPython/CircuitPython, its subclass ModuleNotFoundError on CPython.
    assert lines[0].startswith("FAIL check_broken: ") and "no_such_module_xyz" in lines[0]
    assert lines[0].split(": ")[1] in ("ImportError", "ModuleNotFoundError")
    # Source order (zeta, alpha, middle), not alphabetical; helpers and non-callables skipped.
    assert lines[1:] == ["ok check_fake.test_zeta",
                         "FAIL check_fake.test_alpha: AssertionError: arithmetic is off",
                         "FAIL check_fake.test_middle: ValueError: bad k",
                         "1 passed, 3 failed"], interpreters.explain(rc, out, err)


@pytest.mark.parametrize("exe,heap", interpreters_to_try())
def test_runner_single_test_and_empty_run(tmp_path, exe, heap):
    script = runner_dir(tmp_path, {"check_fake.py": FAKE_CHECK, "check_empty.py": "X = 1\n"})
    rc, out, err = run(exe, [script, "check_fake.test_zeta"], heap=heap, path=[])
    assert (rc, out.strip().splitlines()[-1]) == (0, "1 passed, 0 failed"), interpreters.explain(rc, out, err)
    rc, out, err = run(exe, [script, "check_empty"], heap=heap, path=[])
    assert (rc, out.strip().splitlines()[-1]) == (1, "0 passed, 0 failed"), interpreters.explain(rc, out, err)
    rc, out, err = run(exe, [script, "check_fake.test_nope"], heap=heap, path=[])
    assert rc == 1 and "FAIL check_fake.test_nope: NameError" in out, interpreters.explain(rc, out, err)
