"""The AI part of ``tanbo bench``: nodes, heap, and the emulated board's instruction count.

Wall times are reported, never asserted. Node counts, heap use and the
emulator's instruction counts are deterministic, so the issue's budgets are
asserted on those: hard's search fits 40 KB under MicroPython, and on the
emulated SAMD51 (120 MHz, IPC 0.75) it answers within 3 s on 9x9 and 6 s
on 19x19 in the probe's positions.
"""

import argparse
import os

import pytest

from tanbo.ai import LEVEL_TABLE, LEVELS
from tanbo_tools import bench_ai


def test_cpython_report_has_every_level_and_variant():
    args = argparse.Namespace(heap="64K", qemu=None, no_micropython=True)
    report = bench_ai.run_ai_bench(args, micropython=None)
    assert set(report["levels"]) == set(LEVELS[1:])
    for level, rows in report["levels"].items():
        assert set(rows) == set(bench_ai.AI_VARIANTS)
        for variant, row in rows.items():
            small, large = LEVEL_TABLE[level][2:4]
            assert 0 < row["iterations"] <= (small if variant == "9x9" else large)
            assert row["cpython_ms"] > 0 and row["cpython_max_ms"] >= row["cpython_ms"]
            assert row["estimated_board_ms"] == round(row["cpython_ms"] * bench_ai.BOARD_PER_CPYTHON)
    assert report["levels"]["hard"]["19x19"]["target_ms"] == 6000


@pytest.fixture(scope="module")
def probe_lib(tmp_path_factory):
    return bench_ai.compile_lib(str(tmp_path_factory.mktemp("ai-probe")))


@pytest.mark.parametrize("variant", ("9x9", "19x19"))
def test_hard_search_heap_under_micropython_fits_40k(micropython_exe, probe_lib, tmp_path, variant):
    # What is measured is the search's own heap; the cap only has to leave
    # room for the engine and game on the 64-bit port without depending on
    # how fragmentation falls (paths of different lengths shift it).
    r = bench_ai.on_micropython(micropython_exe, probe_lib, "128K", variant, "hard", str(tmp_path))
    assert r["moves"] == 4 and r["iterations"] > 0
    assert 0 < r["search_heap"] <= 40 * 1024, r


@pytest.mark.parametrize("variant", ("9x9", "19x19"))
def test_hard_answers_in_time_on_the_emulated_board(tmp_path, variant):
    qemu = os.environ.get("TANBO_QEMU_DIR")
    if not qemu:
        pytest.skip("TANBO_QEMU_DIR is not set (../shared/tools/qemu-cortex-m)")
    import shutil
    if not shutil.which("qemu-system-arm"):
        pytest.skip("qemu-system-arm is not installed")
    core = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "core", "tanbo")
    r = bench_ai.on_qemu(qemu, core, variant, "hard", str(tmp_path))
    worst_board_ms = r["max_ms"] * bench_ai.BOARD_MS_PER_GUEST_MS
    assert worst_board_ms <= bench_ai.TARGET_MS[variant], r
