"""The app's power service (device/app/power_due.py and its hooks in app.main) in the simulator: dim, sleep, the first key
only waking, the loop's busy time when idle, the battery gauge and the low-battery save;
the `tanbo sim` options that drive it (--battery, --power, --events)."""

import json
import os
import subprocess
import sys

import pytest
from tanbo import Game

from tanbo_sim.simulator import Simulator


def backlight(sim):
    return [(e["t_ms"], e["level"]) for e in sim.events if e["kind"] == "backlight"]


def busy(sim, since_ms):
    return [e["busy_ms"] for e in sim.events if e["kind"] == "busy" and e["t_ms"] > since_ms]


def footer(sim):
    return sim.app.screen.footer.text


def test_it_dims_after_30_s_sleeps_after_the_setting_and_the_first_key_only_wakes(sim):
    sim.frames(29000)
    assert backlight(sim) == []
    sim.frames(2000)
    (t, level), = backlight(sim)
    assert 30000 <= t < 30100 and level == 0.2  # dimmed, within a step of 30 s
    menu = sim.app.screen
    sim.press("DOWN")
    assert menu.index == 0 and sim.app.screen is menu  # the press woke the screen, nothing else
    assert backlight(sim)[-1][1] == 1.0
    sim.press("DOWN")
    assert menu.index == 1  # the next press acts
    woke = sim.now
    sim.frames(125000)
    levels = backlight(sim)[-2:]
    assert [lv for _, lv in levels] == [0.2, 0.0]
    assert 119800 <= levels[1][0] - woke < 120300  # "2 min" after the last press, the default
    sim.press("A")  # only wakes: the row under the cursor is not chosen
    assert sim.app.screen is menu and menu.index == 1 and backlight(sim)[-1][1] == 1.0


def test_never_keeps_the_screen_lit_and_the_setting_is_saved(tmp_path):
    nvm = str(tmp_path / "nvm")
    sim = Simulator("pybadge", nvm_path=nvm)
    try:
        sim.app.settings.sleep = 3  # "never"
        sim.app.save_game(None)
        sim.frames(400000)
        assert [lv for _, lv in backlight(sim)] == [0.2]
    finally:
        sim.close()
    again = Simulator("pybadge", nvm_path=nvm)
    try:
        assert again.app.settings.sleep == 3
    finally:
        again.close()


def test_the_sleep_setting_packs_into_the_first_byte_and_old_saves_read_2_min(tmp_path):
    sim = Simulator("pybadge", nvm_path=str(tmp_path / "nvm"))
    try:
        from app.store.save_load import unpack
        from app.store.settings import SIZE, Settings
        for sound in (True, False):
            for sleep in range(4):
                s = Settings()
                s.sound, s.sleep = sound, sleep
                data = s.pack()
                assert len(data) == SIZE
                t = Settings()
                unpack(t, data)
                assert (t.sound, t.sleep) == (sound, sleep)
        old = Settings()
        unpack(old, bytes((1, 1, 2, 0, 0, 1, 2, 1)))  # a save made before the setting
        assert old.sound and old.sleep == 1
    finally:
        sim.close()


@pytest.mark.parametrize("board", ["pybadge", "picosystem"])
def test_idle_the_cpu_is_busy_under_5_percent_on_the_title_and_a_game(board, tmp_path):
    sim = Simulator(board, nvm_path=str(tmp_path / "nvm"))
    try:
        sim.frames(5000)
        title = busy(sim, 2000)
        assert title and max(title) <= 50
        sim.app.settings.opponent = 1  # against a person: no search
        sim.app.play(Game("9x9"), ())
        sim.frames(1000)
        sim.press("RIGHT")
        start = sim.now
        sim.frames(6000)
        game = busy(sim, start + 2000)
        assert game and max(game) <= 50
        # Right after a key, the loop scans every 10 ms: more work, then back down.
        sim.press("LEFT")
        sim.frames(1000)
        assert max(busy(sim, sim.now - 1500)) > 2 * max(game)
    finally:
        sim.close()


@pytest.mark.parametrize("power,volts,want", [("battery", 3.84, "50%"), ("battery", 4.2, "100%"),
                                              ("usb", 4.2, "USB"), ("charging", 3.80, "+40%")])
def test_the_title_and_the_game_show_the_gauge(power, volts, want, tmp_path):
    sim = Simulator("picosystem", nvm_path=str(tmp_path / "nvm"), battery=(volts, volts, 0), power=power)
    try:
        assert footer(sim).startswith("A:choose") and footer(sim).endswith(" " + want)
        sim.app.settings.opponent = 1
        sim.app.play(Game("13x13"), ())
        sim.frames(500)
        texts = [label.text for label in sim.app.screen.status.info]
        assert any(t.endswith("  " + want) for t in texts), texts  # after the ply
        sim.press("START")  # the game menu says it as well
        assert footer(sim).startswith("B:back") and footer(sim).endswith(" " + want)
    finally:
        sim.close()


def test_the_pybadge_shows_usb_only_with_a_host(tmp_path):
    for power, want in (("battery", "50%"), ("usb", "USB")):
        sim = Simulator("pybadge", nvm_path=str(tmp_path / power), battery=(3.84, 3.84, 0), power=power)
        try:
            assert footer(sim).endswith(" " + want)
        finally:
            sim.close()


def test_a_draining_cell_saves_the_game_once_and_says_so(tmp_path):
    # 3.75 V (25%) to 3.30 V (1%) in 100 s: under 5% (3.61 V) after ~31 s.
    sim = Simulator("pybadge", nvm_path=str(tmp_path / "nvm"), battery=(3.75, 3.30, 100000))
    try:
        sim.app.settings.opponent = 1
        sim.app.play(Game("9x9"), ())
        sim.frames(500)
        sim.press("A")  # a stone: the turn's save
        sim.press("RIGHT")
        sim.press("A")
        n = len([e for e in sim.events if e["kind"] == "nvm"])
        seen = []
        for _ in range(70):
            sim.press("RIGHT")  # keys keep it lit
            sim.frames(1000)
            seen.append(" ".join(label.text for label in sim.app.screen.status.info))
        writes = [e for e in sim.events if e["kind"] == "nvm"][n:]
        assert len(writes) <= 1
        said = [i for i, t in enumerate(seen) if "Battery" in t or "bat low" in t]
        assert said and 25 <= said[0] <= 40, seen
        game = sim.app.screen.game
    finally:
        sim.close()
    again = Simulator("pybadge", nvm_path=str(tmp_path / "nvm"), battery=(3.3, 3.3, 0))
    try:
        assert again.app.saved_game is not None and again.app.saved_game.position() == game.position()
    finally:
        again.close()


def test_percent_follows_the_discharge_curve():
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "device"))
    from app.power_due import percent
    values = [percent(v / 100) for v in range(300, 440)]
    assert values == sorted(values) and values[0] == 0 and values[-1] == 100
    assert percent(3.27) == 0 and percent(3.84) == 50 and percent(4.20) == 100


def tanbo(*args):
    exe = os.path.join(os.path.dirname(sys.executable), "tanbo")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy")
    return subprocess.run([exe, "sim", "--headless"] + list(args), capture_output=True, text=True, env=env,
                          timeout=600)


def test_the_command_line_records_backlight_and_busy_time(tmp_path):
    out = tanbo("--board", "picosystem", "--nvm", str(tmp_path / "nvm"), "--battery", "4.1-3.3/600",
                "--keys", "wait:35000,DOWN,wait:1000", "--events", "-")
    assert out.returncode == 0, out.stderr
    events = [json.loads(line) for line in out.stdout.splitlines()]
    lights = [(e["t_ms"], e["level"]) for e in events if e["kind"] == "backlight"]
    assert [lv for _, lv in lights] == [0.2, 1.0] and 30000 <= lights[0][0] < 30100
    seconds = [e for e in events if e["kind"] == "busy"]
    assert len(seconds) >= 35 and all(0 <= e["busy_ms"] <= 1000 for e in seconds)


@pytest.mark.parametrize("value", ["5", "abc", "4.1-3.3", "4.1-3.3/0", "4.1-9/60"])
def test_a_bad_battery_is_one_line_and_nothing_runs(value, tmp_path):
    out = tanbo("--battery", value, "--screenshot", str(tmp_path / "x.png"))
    last = out.stderr.strip().splitlines()[-1]  # (after argparse's usage lines)
    assert out.returncode == 2 and "--battery" in last and repr(value) in last
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("board", ["picosystem", "pybadge"])
def test_the_boards_sleep_lets_the_buttons_go_and_wakes_on_one(board, tmp_path):
    sim = Simulator(board, nvm_path=str(tmp_path / "nvm"))
    try:
        menu = sim.app.screen
        sim.app.settings.sleep = 0  # 1 min
        sim.frames(61000)
        assert sim.app.lit == 2 and sim.app.pause() == -1
        old = sim.app.hw.buttons.keys
        if board == "pybadge":
            sim.wiring.levels["BUTTON_OUT"] = True  # the shift register reads a key pressed
        sim.app.wait()  # App.run's wait: the board's sleep (boards.sleep), back at the first key
        if board == "picosystem":
            assert sim.wiring.slept == [("light_sleep", ["SW_A", "SW_B", "SW_X", "SW_Y", "SW_UP", "SW_DOWN",
                                                         "SW_LEFT", "SW_RIGHT"])]
        else:
            assert sim.wiring.slept == [("neopixel_write", "NEOPIXEL", bytes(15))]  # 5 NeoPixels dark
            del sim.wiring.levels["BUTTON_OUT"]
        assert sim.app.hw.buttons.keys is not old  # a new scanner took the buttons back
        # its code left the heap, and the boards' package its import made again (app.held lets it go)
        assert "boards.sleep" not in sys.modules and "boards" not in sys.modules
        assert sim.app.lit == 0 and backlight(sim)[-1][1] == 1.0
        sim.press("DOWN")  # within 400 ms: the press that woke it, not acted on
        assert menu.index == 0
        sim.frames(500)
        sim.press("DOWN")
        assert menu.index == 1
    finally:
        sim.close()
