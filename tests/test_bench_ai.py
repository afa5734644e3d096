"""The AI part of ``tanbo bench``: nodes, heap, and board time per level and board size.

Wall times are reported, never asserted. Node counts, heap use and
instruction counts are deterministic, so those are asserted: every level
keeps to its node budget, hard's search fits 40 KB under MicroPython, and
the port searches exactly the nodes CPython does (the board-time figures
are of the same search).
"""

import argparse

import pytest

from tanbo import get_variant
from tanbo.ai import LEVEL_TABLE
from tanbo_tools import ai_probe, bench_ai, board_time


def test_cpython_report_has_every_level_and_variant():
    report = bench_ai.run_ai_bench(argparse.Namespace(no_micropython=True))
    assert report["board"] == {"skipped": "--no-micropython"}
    assert set(report["levels"]) == set(bench_ai.searching_levels())
    for level, rows in report["levels"].items():
        assert set(rows) == set(bench_ai.AI_VARIANTS)
        for variant, row in rows.items():
            small, large = LEVEL_TABLE[level][2:4]
            v = get_variant(variant)
            assert 0 < row["nodes"] <= (small if v.size <= 125 else large) * 100 // v.node_cost
            assert row["cpython_ms"] > 0 and row["cpython_max_ms"] >= row["cpython_ms"]
            assert "samd51_ms" not in row
    assert report["levels"]["hard"]["19x19"]["target_ms"] == 6000
    assert report["levels"]["hard"]["hexbo-5"]["target_ms"] == 3000
    assert report["levels"]["hard"]["hexbo"]["target_ms"] == 6000


@pytest.fixture(scope="module")
def probe_lib(tmp_path_factory):
    return bench_ai.compile_lib(str(tmp_path_factory.mktemp("ai-probe")))


@pytest.mark.parametrize("variant", ("9x9", "19x19", "hexbo-5", "hexbo"))
def test_hard_search_heap_under_micropython_fits_40k(micropython_exe, probe_lib, tmp_path, variant):
    # What is measured is the search's own heap; the cap only has to leave
    # room for the engine and game on the 64-bit port without depending on
    # how fragmentation falls (paths of different lengths shift it).
    r = bench_ai.on_micropython(micropython_exe, probe_lib, "128K", variant, "hard", str(tmp_path))
    assert r["moves"] == 4 and r["iterations"] > 0
    assert 0 < r["search_heap"] <= 40 * 1024, r


def nodes_per_move(variant, level, slowness):
    total = n = 0
    for g in ai_probe.positions(variant):
        stats = {}
        ai_probe.search(g, level, n, stats, slowness=slowness)
        total += stats["iterations"]
        n += 1
    return total // n


@pytest.mark.skipif(board_time.unavailable() is not None, reason="board time: %s" % board_time.unavailable())
def test_board_time_of_a_level_counts_the_search_cpython_runs(probe_lib, tmp_path):
    # One small search workload under valgrind (easy, 9x9: four moves a board).
    row = bench_ai.board_times(probe_lib, ["easy"], ["9x9"], str(tmp_path))["easy"]["9x9"]
    for board, slowness in bench_ai.board_slowness().items():
        for name in [board] if board else ["samd51", "rp2040"]:
            assert row[name + "_nodes"] == nodes_per_move("9x9", "easy", slowness)
            # a node places a stone or scans a move, and evaluates
            assert row[name + "_cortex_m4_instructions"] > 1000 * row[name + "_nodes"]
    samd51_ms_per_instruction = row["samd51_ms"] / row["samd51_cortex_m4_instructions"]
    assert abs(row["rp2040_ms"] - row["rp2040_cortex_m4_instructions"] * samd51_ms_per_instruction
               * board_time.RP2040_PER_SAMD51) < 0.01


def test_level_table_rows_give_both_boards():
    report = {"levels": {
        "easy": {"9x9": {"samd51_nodes": 58, "rp2040_nodes": 58, "samd51_cpython_ms": 0.3, "rp2040_cpython_ms": 0.4,
                         "cpython_ms": 0.4, "samd51_ms": 13.2, "rp2040_ms": 44.9}},
        "hard": {"19x19": {"samd51_nodes": 32983, "rp2040_nodes": 9688, "samd51_cpython_ms": 412.6,
                           "rp2040_cpython_ms": 102.2}}}}
    lines = bench_ai.level_table(report)
    assert lines[0] == "| level | board | nodes (SAMD51 / RP2040) | CPython ms | SAMD51 ms | RP2040 ms |"
    # equal figures once (one search, one time: the default board's); unmeasured board times as "-"
    assert lines[2:] == ["| easy | 9x9 | 58 | 0.4 | 13 | 45 |",
                         "| hard | 19x19 | 32983 / 9688 | 412.6 / 102.2 | - | - |"]


def test_cpython_rows_search_with_each_boards_budget():
    report = bench_ai.run_ai_bench(argparse.Namespace(no_micropython=True))
    row = report["levels"]["hard"]["9x9"]
    assert row["samd51_nodes"] > row["rp2040_nodes"] == row["nodes"]
    assert row["samd51_nodes"] <= LEVEL_TABLE["hard"][2] and row["samd51_cpython_ms"] > 0
