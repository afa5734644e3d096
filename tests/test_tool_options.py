"""Property: no documented option of tanbo build/deploy/flash turns a bad value into a traceback.

Each option gets arbitrary text (any Unicode, lone surrogates as a POSIX
shell can pass, NUL, huge strings) and a list of classic bad values; the
other options are fixed to working ones. Every run must end with argparse's
usage error (exit 2) or the tool's own one-line error (exit 1), or succeed
(exit 0). Values that would be executed (--mpy-cross, --micropython) or
written to (--out) are kept to ones that cannot harm the machine: no
program on PATH, nothing outside the test's folder.
"""

import collections
import contextlib
import io
import os
import shutil
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tanbo_tools.ship import bundle
from tanbo_tools.ship.boards import get_board
from tanbo_tools.cli import main as cli_main
from tools_fixtures import CORE, circuitpy_drive, circuitpython_uf2, fake_device, uf2_blocks, write_tree

CLASSIC = ["", " ", "\0", "nan", "-1", "0", "inf", "1e999", "x" * 5000, "..", ".", "~", "-",
           "--help=", "/nonexistent/x", "/dev/null", "/proc/self/mem", "\udcff", "١٠", "²",
           "9" * 400, "CIRCUITPY", "pybadge\n", "PYBADGE", "10.0", "0x10"]
ANY_TEXT = st.text(alphabet=st.characters(blacklist_categories=()), max_size=60)
VALUES = st.one_of(st.sampled_from(CLASSIC), ANY_TEXT)
# Kept inside the test's folder: relative, no "..", no leading "~" or "-".
SAFE_OUT = VALUES.filter(lambda v: not os.path.isabs(v) and ".." not in v and "\0" not in v
                         and not v.startswith(("~", "-")) and len(v) < 200)

TRIED = collections.Counter()
# A program that exits 1 at once: stands in for a MicroPython that fails.
FALSE = shutil.which("false") or "/bin/false"


@pytest.fixture(scope="module")
def world():
    """A device tree, a built bundle, a CIRCUITPY drive and a UF2 bootloader drive, made once."""
    root = tempfile.mkdtemp(prefix="tanbo-options-")
    device = fake_device(root)
    built = bundle.build_bundle(get_board("pybadge"), os.path.join(root, "build"), device, CORE)
    drive = circuitpy_drive(os.path.join(root, "drives"))
    boot = write_tree(os.path.join(root, "drives", "PYBADGEBOOT"),
                      {"INFO_UF2.TXT": "UF2 Bootloader v3.15.0\nBoard-ID: SAMD51J19A-PyBadge-v0\n"})
    good_fw = os.path.join(root, "fw.uf2")
    with open(good_fw, "wb") as f:
        f.write(uf2_blocks(bytes(range(256)) * 4, 0x55114460, 0x4000))
    bad_fw = os.path.join(root, "bad.uf2")
    with open(bad_fw, "wb") as f:
        f.write(b"not a uf2")
    pico_fw = os.path.join(root, "pico.uf2")
    with open(pico_fw, "wb") as f:
        f.write(circuitpython_uf2())
    work = os.path.join(root, "a", "b", "c", "d", "e", "f")  # relative --out values land here
    os.makedirs(work)
    not_exe = os.path.join(root, "plain.txt")
    with open(not_exe, "w") as f:
        f.write("x\n")
    return dict(root=root, device=device, bundle=built.root, drive=drive, boot=boot, fw=good_fw,
                bad_fw=bad_fw, pico_fw=pico_fw, work=work, plain=not_exe)


def run_cli(argv, work):
    """Run the CLI in ``work``; return (exit code, stderr). Any exception escaping fails the test."""
    err = io.StringIO()
    old = os.getcwd()
    os.chdir(work)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                code = cli_main(argv)
            except SystemExit as exc:  # argparse's usage errors
                code = exc.code
    finally:
        os.chdir(old)
    return code, err.getvalue()


def held(command, option, argv, w):
    code, err = run_cli(argv, w["work"])
    TRIED[command + " " + option] += 1
    assert code in (0, 1, 2), (argv, code, err)
    assert "Traceback" not in err, (argv, err)
    if code:
        assert err.strip(), (argv, "failed without saying why")


def build_argv(w, **over):
    args = {"--board": "picosystem", "--device": w["device"], "--core": CORE,
            "--out": os.path.join(w["root"], "out")}
    args.update(over)
    argv = ["build", "--no-verify"] if "--micropython" not in over and "--verify-heap" not in over \
        else ["build", "--micropython", FALSE]
    for k, v in args.items():
        argv.append("%s=%s" % (k, v))
    return argv


PROFILE = settings(max_examples=25, deadline=None, derandomize=True,
                   suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                          HealthCheck.filter_too_much])

BUILD_OPTIONS = ["--board", "--cp", "--device", "--core", "--uf2", "--verify-heap"]


@pytest.mark.parametrize("option", BUILD_OPTIONS)
@PROFILE
@given(value=VALUES)
def test_build_options(world, option, value):
    held("build", option, build_argv(world, **{option: value}), world)


@PROFILE
@given(value=SAFE_OUT)
def test_build_out(world, value):
    held("build", "--out", build_argv(world, **{"--out": value}), world)


@pytest.mark.parametrize("option", ["--mpy-cross", "--micropython"])
@pytest.mark.parametrize("kind", ["", "/nonexistent/tool", "dir", "plain", "false", "\0", "nul"])
def test_build_programs(world, option, kind):
    value = {"dir": world["root"], "plain": world["plain"], "nul": "a\0b", "false": FALSE}.get(kind, kind)
    held("build", option, build_argv(world, **{option: value}), world)


@pytest.mark.parametrize("option", ["--board", "--drive", "--bundle"])
@PROFILE
@given(value=VALUES)
def test_deploy_options(world, option, value):
    args = {"--drive": world["drive"], "--bundle": world["bundle"]}
    args[option] = value
    held("deploy", option, ["deploy"] + ["%s=%s" % kv for kv in args.items()], world)


@pytest.mark.parametrize("option", ["firmware", "--board", "--drive", "--touch", "--timeout"])
@PROFILE
@given(value=VALUES)
def test_flash_options(world, option, value):
    # A bad firmware wherever the run could otherwise wait for a real board.
    fw = world["bad_fw"] if option in ("--timeout", "--touch", "--board") else world["fw"]
    args = {"--board": "pybadge", "--drive": world["boot"], "--timeout": "0.05"}
    if option == "firmware":
        fw = value
    else:
        args[option] = value
    held("flash", option, ["flash"] + ["%s=%s" % kv for kv in args.items()] + ["--", fw], world)


def test_counts(capsys):
    """Prints what the properties above tried (run with -s to see it)."""
    with capsys.disabled():
        print("\noption values tried (all held): %d over %d options" % (sum(TRIED.values()), len(TRIED)))
