"""tanbo_tools.arg_checks: every value is accepted or refused quoting it, and trying a path leaves
the file system as it was."""

import argparse
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
