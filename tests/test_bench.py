"""`tanbo bench` reports the figures the issues ask for (never asserting times)."""

import json
import subprocess
import sys
import os

import pytest

from tanbo import perf

BIN = os.path.dirname(sys.executable)


def test_playouts_report_counts_games_and_plies():
    r = perf.playouts("9x9", seconds=0.05)
    assert r["games"] >= 3
    assert r["plies_per_game"] > 8  # a 9x9 game cannot end before both sides move a few times
    assert r["playouts_per_s"] > 0 and r["plies_per_s"] >= r["playouts_per_s"]


def test_bench_command_prints_json_for_cpython_and_micropython(tmp_path):
    out = tmp_path / "bench.json"
    proc = subprocess.run([os.path.join(BIN, "tanbo"), "bench", "--seconds", "0.05", "--repeat", "1",
                           "--variants", "9x9,3d", "--no-ai", "--out", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(out.read_text())
    assert json.loads(proc.stdout) == report
    assert set(report["cpython"]["playouts"]) == {"9x9", "3d"}
    mp = report["micropython"]
    if "skipped" in mp:
        pytest.skip(mp["skipped"])
    assert mp["heap_limit"] == "64K"
    assert set(mp["playouts"]) == {"9x9", "3d"}
    heap = mp["heap_19x19_game"]
    # the whole 19x19 game with its undo history lived inside the 64 KB heap
    assert heap["plies"] > 300 and heap["peak_live"] < 64 * 1024
    assert heap["game_with_history"] > 0
