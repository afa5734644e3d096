"""Progress of long commands: a line per step on a pipe, a bar on a terminal, nothing when quiet;
what ``tanbo match``, ``tanbo bench`` and ``tanbo deploy`` say while they work."""

import io

from tanbo_tools.ship import bundle, deploy
from tanbo_tools.ship.boards import get_board
from tanbo_tools.cli import main
from tanbo_tools.progress import Progress, duration
from tools_fixtures import CORE, circuitpy_drive, fake_device


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


def test_a_pipe_gets_one_line_per_step_with_the_time_left_at_the_mean_pace():
    out, clock = io.StringIO(), Clock()
    p = Progress(4, "tanbo match", stream=out, clock=clock)
    for t in (10, 20, 60):
        clock.t = 100 + t
        p.step("A 1 B 0")
    clock.t = 190
    p.step("A 3 B 1")
    p.done("4 games")
    assert out.getvalue().splitlines() == [
        "tanbo match  1/4  A 1 B 0  ~30s left",  # 10 s a unit, 3 left
        "tanbo match  2/4  A 1 B 0  ~20s left",
        "tanbo match  3/4  A 1 B 0  ~20s left",
        "tanbo match  4/4  A 3 B 1",  # nothing left to estimate
        "tanbo match: 4 games (1m30s)",
    ]


def test_a_terminal_gets_a_bar_redrawn_in_place_and_messages_on_lines_of_their_own():
    out, clock = io.StringIO(), Clock()
    p = Progress(3, "work", stream=out, tty=True, clock=clock)
    clock.t = 103
    p.step("one")
    p.step("two")
    assert out.getvalue().count("\n") == 0 and out.getvalue().count("\r") == 2  # redrawn, not scrolled
    p.say("a forfeit")
    p.step("three")
    p.done()
    text = out.getvalue()
    assert "[########................] 1/3  one  ~6s left" in text
    assert "[################........] 2/3  two  ~2s left\x1b[K\nwork: a forfeit\n" in text  # line ended first
    assert "[########################] 3/3  three" in text
    assert text.endswith("\nwork: done (3s)\n")


def test_quiet_writes_nothing_and_unknown_totals_count_without_estimates():
    out = io.StringIO()
    p = Progress(5, "x", stream=out, quiet=True)
    p.step("a")
    p.stage("b")
    p.done("c")
    assert out.getvalue() == ""
    p = Progress(None, "mining", stream=out, clock=Clock())
    p.step("found 1")
    p.stage("measuring the rest")
    assert out.getvalue().splitlines() == ["mining  1  found 1", "mining: measuring the rest"]


def test_durations_read_as_seconds_minutes_or_hours():
    assert [duration(s) for s in (0, 59.4, 61, 3599, 3600, 7384)] == ["0s", "59s", "1m01s", "59m59s",
                                                                    "1h00m", "2h03m"]


def test_match_says_each_finished_game_on_stderr_and_nothing_with_quiet(capsys):
    assert main(["match", "random", "easy", "--games", "2"]) == 0
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert lines[0].startswith("tanbo match  1/2  game 1: ") and "won; A " in lines[0]
    assert lines[1].startswith("tanbo match  2/2  game 2: ")
    assert lines[2].startswith("tanbo match: 2 games (")
    assert "tanbo match" not in out and "wins: A" in out  # stdout: the summary alone
    assert main(["match", "random", "easy", "--games", "2", "--quiet"]) == 0
    out_quiet, err = capsys.readouterr()
    assert err == "" and out_quiet.splitlines()[1:-1] == out.splitlines()[1:-1]  # same games, no timing


def test_bench_says_what_it_measures_on_stderr_and_keeps_stdout_json(capsys):
    import json
    argv = ["bench", "--no-micropython", "--no-ai", "--variants", "9x9", "--seconds", "0.05", "--repeat", "1"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["cpython"]["playouts"]["9x9"]["playouts_per_s"] > 0
    assert err.splitlines()[0].startswith("measuring CPython ")
    assert main(argv + ["--quiet"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and json.loads(out)["board"] == {"skipped": "--no-micropython"}


def test_deploy_says_how_much_it_writes_and_counts_each_file(tmp_path, capsys):
    b = bundle.build_bundle(get_board("pybadge"), str(tmp_path / "build"), fake_device(tmp_path / "src"),
                            CORE, py=True)
    drive = circuitpy_drive(tmp_path)
    lines = []
    deploy.deploy(b.root, str(drive), log=lines.append)
    n = len(b.files)
    assert "writing %d files (%d bytes) to %s" % (n, sum(map(len, b.files.values())), drive) in lines
    copied = [line for line in lines if line.startswith("copied ")]
    assert len(copied) == n and copied[-1].startswith("copied code.py (%d of %d, " % (n, n))
