"""tanbo_tools.arg_checks: every value is accepted or refused quoting it, and trying a path leaves
the file system as it was."""

import argparse
import io
import math
import os

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tanbo_tools import arg_checks

NAMES = st.one_of(
    st.sampled_from(["", ".", "..", "a", "a/", "a/b/../c", "file", "file/x", "folder", "folder/new",
                     "folder/new/deeper/", "missing/..", "missing/x", "\0", "a\0b", "\udcff", "\ud800",
                     "x" * 300, "/proc/tanbo", "/proc/tanbo/x"]),
    # Kept inside the test's folder (the sampled /proc names cannot be made).
    st.text(alphabet=st.characters(blacklist_categories=()), max_size=20).filter(
        lambda s: not s.startswith("/") and ".." not in s))
PROFILE = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def snapshot(root):
    return sorted((os.path.relpath(os.path.join(d, n), root), os.path.isdir(os.path.join(d, n)))
                  for d, dirs, files in os.walk(root) for n in dirs + files)


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("keep")
    (tmp_path / "folder").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("check", [arg_checks.output_file, arg_checks.output_folder])
@PROFILE
@given(name=NAMES)
def test_a_path_is_accepted_or_refused_quoting_it_and_nothing_is_left_behind(workdir, check, name):
    before = snapshot(str(workdir))
    try:
        assert check(name) == name
    except arg_checks.BadValue as exc:
        assert repr(name) in str(exc) or (not name and "empty" in str(exc))
        assert isinstance(exc, argparse.ArgumentTypeError) and isinstance(exc, ValueError)
    assert snapshot(str(workdir)) == before
    assert (workdir / "file").read_text() == "keep"


def test_paths_that_can_be_written_are_accepted(workdir):
    assert arg_checks.output_file("file") == "file" and arg_checks.output_file("new.json") == "new.json"
    assert arg_checks.output_folder("folder/a/b") == "folder/a/b" and not (workdir / "folder" / "a").exists()
    for name, why in (("folder", "is a folder"), ("missing/x", "the folder 'missing' does not exist"),
                      ("missing/..", "is a folder")):
        with pytest.raises(arg_checks.BadValue, match=why):
            arg_checks.output_file(name)
    with pytest.raises(arg_checks.BadValue, match="'file' is a file: give a folder"):
        arg_checks.output_folder("file")


@given(value=st.one_of(st.floats(allow_nan=True), st.integers(-10, 10**6).map(str),
                       st.sampled_from(["nan", "inf", "-inf", "1e999", "", " ", "0", "1_0", "soon"]),
                       st.text(max_size=8)))
def test_seconds_are_finite_above_zero_and_at_most_the_ceiling(value):
    check = arg_checks.seconds(60)
    try:
        t = check(value)
    except arg_checks.BadValue as exc:
        assert repr(value) in str(exc) and "above 0, at most 60" in str(exc)
        return
    assert isinstance(t, float) and math.isfinite(t) and 0 < t <= 60


def test_heap_size_keeps_the_vm_rule():
    assert arg_checks.heap_size("96k") == "96K"
    with pytest.raises(arg_checks.BadValue, match="'064K' is not a size from 16K to 64M"):
        arg_checks.heap_size("064K")


# -- every numeric option of every command, given 5,000 digits ---------------------------------------
HUGE = "9" * 5000
# (the command line before the option, the option, the range its refusal names)
NUMERIC = [
    (["analyse", "game.txt"], "--budget", "from 100 to 100000000"),
    (["records", "pull"], "--count", "from 1 to 100000"),
    (["puzzles"], "--seed", "from 0 to 1000000"),
    (["puzzles"], "--count", "from 1 to 2000"),
    (["puzzles"], "--jobs", "from 1 to 2"),
    (["book"], "--plies", "from 1 to 8"),
    (["book"], "--replies", "from 1 to 400"),
    (["book"], "--depth", "from 2 to 20"),
    (["book"], "--nodes", "from 100 to 1000000000"),
    (["book"], "--jobs", "from 1 to 256"),
    (["match", "random", "random"], "--games", "from 1 to 100000"),
    (["match", "random", "random"], "--seed", "from 0 to 1000000000"),
    (["match", "random", "random"], "--movetime", "from 1 to 86400000"),
    (["match", "random", "random"], "--jobs", "from 1 to 256"),
    (["match", "random", "random"], "--timeout", "above 0, at most 86400"),
    (["match", "random", "random"], "--opening", "from 0 to 180"),
    (["match", "random", "random"], "--ponder-ms", "from 0 to 600000"),
    (["train"], "--games", "from 1 to 100000"),
    (["train"], "--seed", "from 0 to 1000000000"),
    (["train"], "--sigma", "0.1 to 1000000"),
    (["train"], "--jobs", "from 1 to 64"),
    (["train"], "--every", "from 1 to 100000"),
    (["sim", "--headless"], "--scale", "from 1 to 8"),
    (["sim", "--headless"], "--pystack", "from 256 to 65536"),
    (["sim", "--headless"], "--battery", "expected volts from 2.5 to 4.5"),
    (["gtp"], "--seed", "from 0 to 999999999999999999"),
    (["gtp"], "--movetime", "1-86400000"),
    (["bench"], "--seconds", "above 0, at most 3600"),
    (["bench"], "--repeat", "from 1 to 1000"),
    (["bench"], "--heap", "from 16K to 64M"),
    (["build", "--board", "pybadge"], "--cp", "from 9 to 10"),
    (["build", "--board", "pybadge"], "--verify-heap", "from 16K to 64M"),
    (["flash"], "--timeout", "above 0, at most 3600"),
]
# The types of options that take names (of files, ports, variants), not numbers.
NAMED = {"output_file", "output_folder", "input_file", "records_folder", "port_name", "events_file",
         "_variant_list"}


@pytest.mark.parametrize("before,option,bounds", NUMERIC, ids=["%s %s" % (b[0], o) for b, o, _ in NUMERIC])
def test_a_number_of_5000_digits_is_one_short_line_naming_the_option_and_its_range(
        tmp_path, monkeypatch, capsys, before, option, bounds):
    from tanbo_tools.cli import main
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    try:
        rc = main(before + [option, HUGE])
    except SystemExit as exc:  # argparse's refusal
        rc = exc.code
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip() and not line.startswith(("usage:", " "))]
    assert rc == 2 and len(lines) == 1 and "Traceback" not in err, err[-600:]
    assert option.lstrip("-") in lines[0] and bounds in lines[0] and len(lines[0]) < 250, lines[0]
    assert os.listdir(str(tmp_path)) == []


def test_every_numeric_option_is_in_the_table():
    """A new numeric option (any typed option that takes no name) is tried with 5,000 digits too."""
    from tanbo_tools import cli
    table = {(b[0], o) for b, o, _ in NUMERIC}
    found = set()

    def walk(parser, command):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    walk(sub, command)
            elif action.option_strings and action.type is not None and action.type.__name__ not in NAMED:
                found.add((command, action.option_strings[0]))
    for command in cli.COMMANDS:
        parser = cli.make_parser([command])
        (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        walk(sub.choices[command], command)
    assert found <= table, sorted(found - table)
    assert len(found) >= 25
