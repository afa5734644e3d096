"""`tanbo sim --headless`: key scripts in, PNG screenshots of the device's true resolution out."""

import os
import signal
import subprocess
import sys
import tempfile
import time

import pygame
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tanbo_tools import cli


@pytest.mark.parametrize("board,size", [("pybadge", (160, 128)), ("picosystem", (240, 240))])
def test_headless_script_writes_screenshots(tmp_path, board, size):
    out = tmp_path / "end.png"
    steps = tmp_path / "steps"
    rc = cli.main(["sim", "--headless", "--board", board, "--nvm", str(tmp_path / "nvm"),
                   "--keys", "A,DOWN*4,A,wait:200", "--screenshot", str(out),
                   "--screenshot-every", str(steps)])
    assert rc == 0
    assert pygame.image.load(str(out)).get_size() == size
    shots = sorted(p.name for p in steps.iterdir())
    assert shots[0] == "step-0000.png" and len(shots) == 1 + 1 + 4 + 1 + 1
    # The title and the game screen differ; the last step (a wait) changes nothing.
    first = pygame.image.load(str(steps / shots[0]))
    last = pygame.image.load(str(steps / shots[-1]))
    assert pygame.image.tobytes(first, "RGB") != pygame.image.tobytes(last, "RGB")
    assert pygame.image.tobytes(last, "RGB") == pygame.image.tobytes(pygame.image.load(str(out)), "RGB")


@pytest.mark.parametrize("args,words", [
    (["--keys", "A,JUMP"], "'JUMP'"),
    (["--board", "gameboy"], "'gameboy'"),
    (["--scale", "0"], "--scale: '0': expected a whole number from 1 to 8"),
])
def test_bad_arguments_are_named(tmp_path, capsys, args, words):
    try:
        rc = cli.main(["sim", "--headless", "--nvm", str(tmp_path / "nvm")] + args)
    except SystemExit as exc:  # argparse's refusals: --scale
        rc = exc.code
    assert rc == 2
    assert words in capsys.readouterr().err


@pytest.mark.parametrize("args,words", [
    (["--nvm", "{tmp}"], "argument --nvm: '{tmp}' is a folder: give a file name"),
    (["--nvm", "{tmp}/no/such/nvm.bin"], "'{tmp}/no/such/nvm.bin': the folder '{tmp}/no/such' does not exist"),
    (["--screenshot", "/proc/tanbo.png"], "'/proc/tanbo.png': cannot write a file there ("),
    (["--screenshot", "{tmp}"], "is a folder"),
    (["--events", "{tmp}/missing/e.jsonl"], "does not exist"),
    (["--screenshot-every", "/proc/tanbo-steps"], "'/proc/tanbo-steps': cannot create the folder ("),
    (["--screenshot-every", "{tmp}/new/steps", "--scale", "9"], "--scale: '9': expected a whole number from 1 to 8"),
    (["--keys", "A*99999999999"], "'A*99999999999'"),
    (["--keys", "A*1000000"], "96000.000 s of board time, more than the 3600 s allowed"),
    (["--keys", "A*37501"], "3600.096 s of board time, more than the 3600 s allowed"),
    (["--keys", "A*9999999999"], "the repeat count is too large: a script takes at most 3600 s"),
    (["--keys", "wait:1000000000"], "the wait is too large: a script takes at most 3600 s"),
    (["--keys", "wait:99999999999"], "'wait:99999999999'"),
    (["--keys", "A*²"], "whole number"),
    (["--pystack", "99"], "'99': expected a whole number of bytes from 256 to 65536"),
    (["--pystack", "1.5K"], "'1.5K': expected a whole number of bytes"),
])
def test_bad_paths_and_scripts_are_named_before_anything_runs(tmp_path, capsys, args, words):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    try:
        rc = cli.main(["sim", "--headless"] + args)
    except SystemExit as exc:  # argparse's refusals: the paths
        rc = exc.code
    err = capsys.readouterr().err
    assert rc == 2 and words.replace("{tmp}", str(tmp_path)) in err and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing written


def test_pystack_counts_the_session_and_stops_where_the_board_would(tmp_path, capsys):
    keys = "A,DOWN*2,LEFT*2,DOWN*2,A,A,wait:1000"  # a 9x9 game: a stone, the computer's reply
    rc = cli.main(["sim", "--headless", "--nvm", str(tmp_path / "nvm"), "--keys", keys, "--pystack", "1536"])
    err = capsys.readouterr().err
    assert rc == 0 and "Traceback" not in err
    line = [x for x in err.splitlines() if x.startswith("tanbo sim: pystack peak ")][-1]
    peak = int(line.split()[4])
    assert 600 < peak <= 1536 and " of 1536 bytes: code.py > App.run > App.step > " in line
    # Less than that peak: the board raises its RuntimeError there, and the app's
    # handler for any exception a screen raises (issue 34) reports it in one line
    # and goes back to the title: the session ends normally, never at a traceback.
    rc = cli.main(["sim", "--headless", "--nvm", str(tmp_path / "nvm2"), "--keys", keys,
                   "--pystack", str(peak - 8)])
    out = capsys.readouterr()
    assert rc == 0 and "Traceback" not in out.err
    assert "RuntimeError('pystack exhausted')" in out.out
    assert "(exhausted)" in out.err and "pystack peak %d of %d bytes" % (peak, peak - 8) in out.err


_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(option=st.sampled_from(["--board", "--scale", "--keys", "--nvm", "--screenshot", "--events",
                               "--screenshot-every", "--pystack"]),
       value=st.one_of(_text, st.integers(-10 ** 12, 10 ** 12).map(str),
                       st.sampled_from(["", "-", "/", "/proc", "/proc/x/y", ".", "A*0", "wait:-1",
                                        "A*1e9", "UP*99999", "wait:3600001"])))
def test_no_value_of_an_option_gives_a_traceback(monkeypatch, capsys, option, value):
    from tanbo_sim import headless
    ran = []
    monkeypatch.setattr(headless, "run_script", lambda *a: ran.append(a) or 0)
    monkeypatch.chdir(tempfile.mkdtemp())
    try:
        rc = cli.main(["sim", "--headless", option + "=" + value])
    except SystemExit as e:  # argparse: --scale not a number
        rc = e.code
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert rc in (0, 2)
    assert (rc == 0) == bool(ran)
    if rc == 2:
        assert err.strip()


def test_a_ctrl_c_that_pygame_swallows_still_ends_the_window(tmp_path, monkeypatch):
    """pygame clears an exception raised in Python code it calls (set_mode's
    default-icon loader): a Ctrl-C landing there must still end the window."""
    from tanbo_sim import window
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    real_set_mode, real_get = pygame.display.set_mode, pygame.event.get
    frames = []

    def set_mode(*args, **kwargs):
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)  # the handler raises here, at once
        except KeyboardInterrupt:
            pass  # as pygame's C code does
        return real_set_mode(*args, **kwargs)

    def get():  # the window closes itself after 30 frames if the Ctrl-C was lost
        frames.append(1)
        return real_get() + ([pygame.event.Event(pygame.QUIT)] if len(frames) > 30 else [])

    monkeypatch.setattr(pygame.display, "set_mode", set_mode)
    monkeypatch.setattr(pygame.event, "get", get)
    previous = signal.getsignal(signal.SIGINT)
    with pytest.raises(KeyboardInterrupt):
        window.run_window("pybadge", 1, str(tmp_path / "nvm"))
    assert len(frames) <= 1
    assert signal.getsignal(signal.SIGINT) is previous


@pytest.mark.parametrize("signum,raised", [(signal.SIGTERM, SystemExit), (signal.SIGINT, KeyboardInterrupt)])
def test_a_signal_that_pygame_init_swallows_still_ends_a_headless_run(tmp_path, monkeypatch, signum, raised):
    """pygame.init clears what a module's init raises: a signal landing there
    must still end a headless run, before its first step."""
    from tanbo_sim import headless
    from tanbo_sim.simulator import parse_script
    real_init = pygame.init

    def init():
        try:
            os.kill(os.getpid(), signum)
            time.sleep(5)  # the handler raises here, at once
        except BaseException:
            pass  # as pygame's C code does
        return real_init()

    monkeypatch.setattr(pygame, "init", init)
    previous = signal.getsignal(signum)
    shots = tmp_path / "shots"
    with pytest.raises(raised) as e:
        headless.run_script("pybadge", parse_script("A,wait:100,A"), nvm=str(tmp_path / "nvm"), every_dir=str(shots))
    if raised is SystemExit:
        assert e.value.code == 128 + signum
    assert sorted(os.listdir(shots)) == ["step-0000.png"]  # no step ran
    assert signal.getsignal(signum) is previous


# An hour of board time replays in a few seconds of wall time headless, so the
# headless run takes a screenshot a step (3,500 steps) to stay busy long
# enough; the window runs until it is closed, whatever the load.
LONG_SCRIPT = ",".join(["wait:1000"] * 3500)


def size_of(path):
    """``path``'s size in bytes, 0 while it is not there: between an exists()
    and a stat() the file can go (a loaded CI machine's run found none there)."""
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


@pytest.mark.parametrize("mode,signum,codes", [
    ("headless", signal.SIGTERM, (128 + signal.SIGTERM, -signal.SIGTERM)),
    ("headless", signal.SIGINT, (130,)),
    ("window", signal.SIGTERM, (128 + signal.SIGTERM, -signal.SIGTERM)),
    ("window", signal.SIGINT, (130,))])
def test_a_signal_ends_a_long_simulator_run_at_once(tmp_path, mode, signum, codes):
    events = tmp_path / "e.jsonl"
    tanbo = os.path.join(os.path.dirname(sys.executable), "tanbo")
    cmd = [tanbo, "sim", "--nvm", str(tmp_path / "nvm"), "--events", str(events)]
    if mode == "headless":
        cmd += ["--headless", "--keys", LONG_SCRIPT, "--screenshot-every", str(tmp_path / "shots")]
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    # SIGINT as a terminal's Ctrl-C delivers it, even when the test itself
    # runs in a background job (which starts with SIGINT ignored).
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        for _ in range(2400):  # until the app drew its first screen (slow on a loaded machine)
            if size_of(events):
                break
            time.sleep(0.05)
        assert size_of(events), "the simulator drew nothing in 120 s"
        assert proc.poll() is None, "the run ended before the signal"
        proc.send_signal(signum)
        proc.wait(timeout=10)
    finally:
        proc.kill()
    assert proc.returncode in codes
    assert b"Traceback" not in proc.stderr.read()
