"""`tanbo bench`: the figures it reports (never asserting times), board time, and its argument errors."""

import json
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tanbo import VARIANTS, Game, perf
from tanbo_tools import board_time, cli, vm
from tanbo_tools.lab import bench, bench_games

BIN = os.path.dirname(sys.executable)

needs_board_time = pytest.mark.skipif(board_time.unavailable() is not None,
                                      reason="board time: %s" % board_time.unavailable())


def test_playouts_report_counts_games_and_plies():
    r = perf.playouts("9x9", seconds=0.05)
    assert r["games"] >= 3
    assert r["plies_per_game"] > 8  # a 9x9 game cannot end before both sides move a few times
    assert r["playouts_per_s"] > 0 and r["plies_per_s"] >= r["playouts_per_s"]


def test_bench_command_prints_json_for_cpython_and_micropython(tmp_path):
    out = tmp_path / "bench.json"
    proc = subprocess.run([os.path.join(BIN, "tanbo"), "bench", "--seconds", "0.05", "--repeat", "1",
                           "--variants", "9x9,3d", "--no-ai", "--no-board", "--out", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(out.read_text())
    assert json.loads(proc.stdout) == report
    assert set(report["cpython"]["playouts"]) == {"9x9", "3d"}
    mp = report["micropython"]
    if "skipped" in mp:
        pytest.skip(mp["skipped"])
    assert report["board"] == {"skipped": "--no-board"}
    assert mp["heap_limit"] == "64K"
    assert set(mp["playouts"]) == {"9x9", "3d"}
    heap = mp["heap_19x19_game"]
    # the whole 19x19 game with its undo history lived inside the 64 KB heap
    assert heap["plies"] > 300 and heap["peak_live"] < 64 * 1024
    assert heap["game_with_history"] > 0


def test_bench_says_why_board_time_is_missing(monkeypatch, capsys):
    if vm.micropython_path() is None:
        pytest.skip("no micropython unix port")
    monkeypatch.setattr(board_time.shutil, "which", lambda name: None)
    assert cli.main(["bench", "--seconds", "0.01", "--repeat", "1", "--variants", "9x9", "--no-ai"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["board"] == {"skipped": "valgrind is not installed (apt-get install valgrind)"}


@pytest.mark.parametrize("heap", ["064K", "8K", "1G", "lots"])
def test_board_time_refuses_a_heap_the_port_would_misread(heap, monkeypatch, capsys):
    # -X heapsize reads 064K as octal (52K): the tools' one heap rule, before any run
    monkeypatch.setattr(board_time, "measure", lambda *a, **k: pytest.fail("ran with heap %r" % heap))
    with pytest.raises(SystemExit) as exc:
        board_time.main(["workload.py", "--heap", heap])
    assert exc.value.code == 2
    assert "%r" % heap in capsys.readouterr().err


def test_board_estimate_scales_instructions_to_both_boards():
    e = board_time.estimate(1.25e6)  # 1e6 Cortex-M4 instructions at 0.80 per x86 one
    assert e["cortex_m4_instructions"] == 1000000
    assert e["samd51_ms"] == round(1e6 / 90e3, 3)  # 120 MHz x IPC 0.75 = 90,000 a millisecond
    assert e["rp2040_ms"] == round(1e6 / 90e3 * 4.1, 3)
    fast, slow = e["samd51_ms_range_ipc_0.9_0.6"]
    assert fast < e["samd51_ms"] < slow


def count_engine_work(tmp_path, work, units=2):
    """``(x86 counts a unit, the JSON it printed)`` of bench's engine workload ``work``."""
    lib = vm.compile_core(str(tmp_path / "lib"))
    script = tmp_path / "work.py"
    script.write_text(bench._engine_work())
    counts, out = board_time.count_units(str(script), units, [lib], work=work)
    return counts, vm.last_json(out)


@needs_board_time
def test_board_time_counts_each_game_construction_apart(tmp_path):
    # One small workload under valgrind: two Game("9x9"), each between marks.
    counts, out = count_engine_work(tmp_path, "game:9x9")
    assert len(counts) == 2 and out == {"plies": []}
    for x86 in counts:
        # a 9x9 board's tables take thousands of bytecodes, and far fewer than a playout
        assert 1e4 < x86 < 2e6, counts


def test_the_fixed_games_are_whole_legal_games():
    # Data, not seeds: each must replay to its end on every version of the rules.
    assert len(bench_games.GAMES_9X9) == 11
    for text in bench_games.GAMES_9X9:
        g = Game("9x9")
        moves = text.split()
        for i, move in enumerate(moves):
            assert not g.over, "the game ended before move %d of %d" % (i + 1, len(moves))
            g.play_move(move)
        assert g.over


@needs_board_time
def test_board_time_replays_the_fixed_games_one_a_unit(tmp_path):
    counts, out = count_engine_work(tmp_path, "fixed_ply:9x9")
    lengths = [len(text.split()) for text in bench_games.GAMES_9X9[:2]]
    assert len(counts) == 2 and out == {"plies": lengths}
    for x86, plies in zip(counts, lengths):
        assert 1e4 * plies < x86 < 2e5 * plies, counts  # a ply and its undo: tens of thousands


@needs_board_time
def test_board_time_playouts_run_on_fast_copies(tmp_path):
    # The same two seeded 9x9 playouts on fast games (list tables, as the
    # search copies a small board) and on compact ones: the same plies,
    # about 9% fewer instructions (the fast copy's whole point).
    fast, out_fast = count_engine_work(tmp_path, "playout:9x9")
    compact, out_compact = count_engine_work(tmp_path, "playout_compact:9x9")
    assert out_fast == out_compact and len(out_fast["plies"]) == 2
    assert sum(fast) < 0.95 * sum(compact), (fast, compact)


def test_nothing_in_the_engine_calls_the_board_time_mark():
    # board_time counts a unit between two calls of divmod: the code measured must not call it.
    engine = os.path.join(vm.CORE, "tanbo")
    for name in sorted(os.listdir(engine)):
        if name.endswith(".py"):
            with open(os.path.join(engine, name)) as f:
                assert "divmod" not in f.read(), name


# -- argument errors: argparse's message and exit 2, never a traceback ---------

def refused(*argv):
    raise AssertionError("tanbo bench accepted %r" % (argv,))


@pytest.fixture
def bench_exit(capsys, monkeypatch):
    """``(exit status, stderr)`` of ``tanbo bench ARGV`` when the arguments are refused
    (accepted ones fail the test at once instead of starting a bench)."""
    monkeypatch.setattr(bench, "run", refused)

    def parse(*argv):
        with pytest.raises(SystemExit) as exc:
            cli.main(["bench"] + list(argv))
        return exc.value.code, capsys.readouterr().err
    return parse


@pytest.mark.parametrize("argv,quoted", [
    (["--repeat", "0"], "'0'"), (["--variants", "nope"], "'nope'"), (["--heap", "lots"], "'lots'"),
    (["--heap", "0"], "'0'"), (["--heap", "128M"], "'128M'"), (["--heap", "064K"], "'064K'"),
    (["--seconds", "nan"], "'nan'"), (["--seconds", "inf"], "'inf'"), (["--seconds", "3601"], "'3601'"),
    (["--variants", "9x9,,3d"], "'9x9,,3d'"), (["--ai", "--no-ai"], "not allowed with"),
])
def test_bad_arguments_are_refused_quoting_them(bench_exit, argv, quoted):
    code, err = bench_exit(*argv)
    assert code == 2 and "tanbo bench: error: argument" in err and quoted in err, err


def test_out_is_checked_before_the_run(bench_exit, tmp_path):
    for folder in (str(tmp_path), str(tmp_path / "."), str(tmp_path / "sub" / "..")):
        code, err = bench_exit("--out", folder)
        assert code == 2 and ("is a folder" in err or "does not exist" in err), err
    code, err = bench_exit("--out", str(tmp_path / "missing" / "b.json"))
    assert code == 2 and "does not exist" in err


def is_size(text):
    try:
        return vm.heap_bytes(text) > 0
    except ValueError:
        return False


def is_seconds(text):
    try:
        s = float(text)
    except ValueError:
        return False
    return 0 < s <= bench.MAX_SECONDS


def is_repeat(text):
    return text.isascii() and text.isdigit() and 1 <= int(text) <= bench.MAX_REPEAT


VALID = {
    "--seconds": is_seconds,
    "--repeat": is_repeat,
    "--variants": lambda t: all(v.strip() in VARIANTS for v in t.split(",")),
    "--heap": is_size,
}

junk = st.one_of(st.text(alphabet=st.characters(blacklist_categories=()), max_size=12),  # NUL, surrogates too
                 st.sampled_from(["nan", "-inf", "1e999", "-1", "0", "0K", "-5K", " ", "\0", "\udcff", "9x9,",
                                  "١٩", "²", "64k ", "3.5", "1M2", "NaN", "x" * 5000, "9" * 400]),
                 st.integers(-10**6, 0).map(str), st.floats().map(str))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(option=st.sampled_from(sorted(VALID)), value=junk)
def test_no_bad_value_of_a_documented_option_gives_a_traceback(bench_exit, option, value):
    if VALID[option](value):
        return
    code, err = bench_exit("%s=%s" % (option, value))
    assert code == 2 and "Traceback" not in err and "tanbo bench: error: argument %s" % option in err, err


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(alphabet=st.characters(blacklist_categories=()), min_size=1, max_size=8).filter(
    lambda s: "/" not in s))
def test_no_out_path_under_a_missing_folder_or_a_folder_gives_a_traceback(bench_exit, tmp_path, name):
    for path in (str(tmp_path), os.path.join(str(tmp_path), "no-such-dir", name)):
        code, err = bench_exit("--out=" + path)
        assert code == 2 and "Traceback" not in err and "argument --out" in err, err
