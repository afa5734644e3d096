"""Runs the device app (device/) unchanged on a PC, headless or in a window.

:class:`Simulator` builds the twins of one board (:mod:`tanbo_sim.twins`),
imports ``device/boards`` and ``device/app`` afresh and drives
``App.step()`` itself. Headless, time is virtual: each frame advances the
app's clock by FRAME_MS and nothing sleeps, so key scripts run fast and
always the same way.

Key scripts: comma-separated tokens, ``NAME`` (a press and release of one
of UP DOWN LEFT RIGHT A B START SELECT), ``NAME*N`` (N presses),
``wait:MS`` (let MS milliseconds pass).
"""

import os
import sys

os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")  # the audio twins record; nothing plays
# SDL would turn SIGINT/SIGTERM into a window-close event that a headless run
# never reads (it then ignored `timeout` for ten minutes): keep Python's handling.
os.environ.setdefault("SDL_NO_SIGNAL_HANDLERS", "1")

from tanbo_sim import profiles, twins  # noqa: E402
from tanbo_sim.events import EventLog  # noqa: E402

FRAME_MS = 16  # ~60 fps
LOOP_MS = 10  # app.main.LOOP_MS: the board's loop period where the app sets no other
# Board time of a refreshed pixel: ~6 us on an RP2040 (docs/board-costs.md); the
# SAMD51's ST7735 is counted alike.
REFRESH_US_PER_PIXEL = 6
PRESS_MS = 48  # how long a scripted press holds the button (3 frames)
GAP_MS = 48  # frames after a release before the next token
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEVICE_DIR = os.path.join(REPO, "device")
DEVICE_PACKAGES = ("app", "boards")


MAX_SCRIPT_MS = 3600 * 1000  # board time a key script may take (headless: about a minute)


def _count(token, text, what, least, unit=""):
    """``text`` (from ``token``) as a whole number >= ``least`` that fits the script's hour of
    board time; ValueError quoting ``token`` otherwise."""
    if not (text.isascii() and text.isdigit()):
        raise ValueError("%r: %s must be a whole number%s >= %d" % (token, what, unit and " of " + unit, least))
    digits = text.lstrip("0") or "0"
    if len(digits) > 9:  # more than the hour holds, in any unit: no giant int made
        raise ValueError("%r: %s is too large: a script takes at most %d s of board time"
                         % (token, what, MAX_SCRIPT_MS // 1000))
    n = int(digits)
    if n < least:
        raise ValueError("%r: %s must be a whole number%s >= %d" % (token, what, unit and " of " + unit, least))
    return n


def parse_script(script):
    """``[("key", NAME) | ("wait", MS), ...]`` from a key script; ValueError quoting a bad token."""
    steps = []
    total = 0
    for raw in script.split(","):
        token = raw.strip()
        if not token:
            continue
        if token.lower().startswith("wait:"):
            ms = _count(token, token[5:].strip(), "the wait", 0, "milliseconds")
            step, n, cost = ("wait", ms), 1, ms
        else:
            name, _, count = token.partition("*")
            name = name.strip().upper()
            if name not in profiles.BUTTONS:
                raise ValueError("%r: unknown button (buttons: %s)" % (token, " ".join(profiles.BUTTONS)))
            n = _count(token, count.strip(), "the repeat count", 1) if count else 1
            step, cost = ("key", name), n * (PRESS_MS + GAP_MS)
        total += cost
        if total > MAX_SCRIPT_MS:
            raise ValueError("%r: the script would take %.3f s of board time, more than the %d s allowed"
                             % (token, total / 1000, MAX_SCRIPT_MS // 1000))
        steps.extend([step] * n)
    return steps


def _display_class():
    import busdisplay
    import pygame
    from blinka_displayio_pygamedisplay import PyGameDisplay
    from displayio._area import Area

    from tanbo_sim import display_twin

    class SimDisplay(PyGameDisplay):
        """A PyGameDisplay drawing into an off-screen Surface of the board's resolution.

        The simulator owns the window and the pygame events; this class only
        renders. A refresh draws the areas CircuitPython's firmware would send
        (:func:`tanbo_sim.display_twin.refresh_areas`), so a screenshot shows
        what the board shows; ``on_refresh(areas)`` hears each refresh.
        """

        def __init__(self, width, height):
            display_twin.BLINKA_DISPLAYIO.displays.clear()  # Blinka allows one display
            self.refresh_count = 0
            self.on_refresh = None
            self._twin_full = True
            self._twin_areas = []
            self._twin_brightness = 1.0
            self.on_backlight = None
            super().__init__(width=width, height=height, auto_refresh=False)

        @property
        def brightness(self):
            return self._twin_brightness

        @brightness.setter
        def brightness(self, value):
            if value != self._twin_brightness:
                self._twin_brightness = value
                if self.on_backlight is not None:
                    self.on_backlight(value)

        def _initialize(self, init_sequence):
            pygame.init()
            self._pygame_screen = pygame.Surface((self.width, self.height))

        @property
        def root_group(self):
            return busdisplay.BusDisplay.root_group.fget(self)

        @root_group.setter
        def root_group(self, group):
            # The firmware ignores setting the group it shows (no full refresh).
            changed = group is not busdisplay.BusDisplay.root_group.fget(self)
            busdisplay.BusDisplay.root_group.fset(self, group)
            if changed:
                display_twin.attach_root(group)
                self._twin_full = True

        def _get_refresh_areas(self):
            blinka = busdisplay.BusDisplay._get_refresh_areas(self)  # keeps Blinka's own books
            root = self._core.current_group
            if not isinstance(root, display_twin.Group):
                self._twin_areas = [(a.x1, a.y1, a.x2, a.y2) for a in blinka]
                return blinka
            self._twin_areas = display_twin.refresh_areas(root, self.width, self.height, self._twin_full)
            self._twin_full = False
            areas = []
            for x1, y1, x2, y2 in self._twin_areas:
                # Blinka's 16-bit buffer maths drops an odd last pixel: draw one more.
                if (x2 - x1) * (y2 - y1) % 2:
                    if x2 < self.width:
                        x2 += 1
                    else:
                        x1 -= 1
                areas.append(Area(x1, y1, x2, y2))
            return areas

        def _refresh_display(self):
            busdisplay.BusDisplay._refresh_display(self)
            self.refresh_count += 1
            if self.on_refresh is not None:
                self.on_refresh(self._twin_areas)

        def _background(self):
            pass  # no refreshes behind the app's back

        def _release(self):
            pass

        @property
        def surface(self):
            return self._pygame_screen

    return SimDisplay


class Simulator:
    """One simulated board running the app.

    ``board``: profile name (pybadge, pygamer, picosystem); ``nvm_path``:
    file holding the NVM twin (a new simulator on the same file is the board
    after a reset); ``board_id`` overrides the profile's id (to test unknown
    boards). ``app`` is the running App (None when the board is unknown,
    then ``message`` says why); ``audio.played`` lists the samples played.
    ``log`` (:class:`tanbo_sim.events.EventLog`) records every refresh and NVM
    write as the board would pay them (``events_out``: a stream for JSON lines).
    """

    def __init__(self, board="pybadge", nvm_path=None, board_id=None, headless=True,
                 device_dir=DEVICE_DIR, events_out=None, battery=(3.9, 3.9, 0), power="battery"):
        if headless:
            os.environ["SDL_VIDEODRIVER"] = "dummy"
            os.environ["SDL_AUDIODRIVER"] = "dummy"
        self.profile = profiles.get_profile(board)
        if nvm_path is None:
            import tempfile
            nvm_path = os.path.join(tempfile.gettempdir(), "tanbo-sim-%s.nvm" % self.profile.name)
        self.nvm_path = nvm_path
        self.now = 0
        self.log = EventLog(lambda: self.clock(), events_out)
        self.display = _display_class()(self.profile.width, self.profile.height)
        self.display.on_refresh = self._on_refresh
        self.display.on_backlight = lambda level: self.log.record("backlight", level=level)
        self.battery, self.power_state = battery, power
        self.busy_us = 0.0  # board time the CPU worked in the current second (see frames)
        self.second = 1000  # clock ms at which that second ends
        self._saved_modules = {n: sys.modules.get(n) for n in twins.MODULE_NAMES}
        self.wiring, self.audio, self.nvm = twins.install(
            self.profile, self.display, nvm_path, board_id,
            on_nvm_write=lambda start, end: self.log.record("nvm", start=start, end=end))
        self.set_power(power, self.volts())
        self.frame_hook = None
        self._load_device(device_dir)

    def _load_device(self, device_dir):
        for name in list(sys.modules):
            if name.split(".")[0] in DEVICE_PACKAGES:
                del sys.modules[name]
        if device_dir not in sys.path:
            sys.path.insert(0, device_dir)
        import boards
        from app.start import start

        self.message = None

        def problem(text):
            self.message = text

        self.app = start(boards, clock=self.clock, sleep=self._sleep, on_problem=problem)
        if self.app is None:
            return
        self.hw = self.app.hw
        self.app.step()

    def clock(self):
        return self.now

    def _sleep(self, seconds):
        self.now += int(seconds * 1000)

    @property
    def events(self):
        """Every event so far (dicts, see :mod:`tanbo_sim.events`)."""
        return self.log.events

    def volts(self):
        """The cell's voltage now: ``battery`` (V at 0, V at the end, ms: 0 steady) drains linearly."""
        v0, v1, ms = self.battery
        return v1 if ms <= 0 or self.now >= ms else v0 + (v1 - v0) * self.now / ms

    def set_power(self, state, volts=None):
        """``state``: "battery", "usb" or "charging"; ``volts``: the cell's (default: as it is)."""
        self.power_state = state
        self.wiring.power(state, self.volts() if volts is None else volts)

    def _account(self, ms, pondering):
        """Add the board time the CPU works in ``ms`` of the loop (its idle passes as the app
        paces them, app.main.App.pause; a pondering step keeps it busy); a "busy" event
        per second of board time: ``busy_ms`` of 1000."""
        pause = getattr(self.app, "pause", None)
        step_us = self.profile.step_us
        if pondering:
            self.busy_us += ms * 1000
        elif pause is not None:
            pause = pause()
            if pause >= 0:
                self.busy_us += ms * 1000 * step_us / (pause * 1000 + step_us)
        else:
            self.busy_us += ms * 1000 * step_us / (LOOP_MS * 1000 + step_us)
        while self.now >= self.second:
            self.log.record("busy", busy_ms=round(min(1000.0, self.busy_us / 1000), 2))
            self.busy_us = 0.0
            self.second += 1000

    def _on_refresh(self, areas):
        self.busy_us += REFRESH_US_PER_PIXEL * sum((x2 - x1) * (y2 - y1) for x1, y1, x2, y2 in areas)
        self.log.record("refresh", pixels=sum((x2 - x1) * (y2 - y1) for x1, y1, x2, y2 in areas),
                        areas=[list(a) for a in areas])
        if self.frame_hook is not None:
            self.frame_hook()

    def close(self):
        """Give back the real modules the twins replaced."""
        for name, mod in self._saved_modules.items():
            if mod is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = mod

    # -- driving ----------------------------------------------------------------

    def frames(self, ms):
        """Let ``ms`` of virtual time pass, one app step per frame."""
        end = self.now + ms
        while self.now < end:
            ms = min(end, self.now + FRAME_MS) - self.now
            self.now += ms
            if self.battery[2] > 0:
                self.wiring.power(self.power_state, self.volts())
            if self.app is not None:
                self._account(ms, self.app.step())

    def press(self, name, hold_ms=PRESS_MS, gap_ms=GAP_MS):
        """Press and release button ``name`` (ValueError if the board has none)."""
        self.wiring.set(name.upper(), True)
        self.frames(hold_ms)
        self.wiring.set(name.upper(), False)
        self.frames(gap_ms)

    def run_keys(self, script, each=None):
        """Play a key script; ``each(index, step)`` runs after every step (e.g. a screenshot)."""
        for i, (kind, value) in enumerate(parse_script(script)):
            if kind == "wait":
                self.frames(value)
            else:
                self.press(value)
            if each is not None:
                each(i, (kind, value))

    # -- looking --------------------------------------------------------------

    def screenshot(self, path=None):
        """A copy of the screen at the board's resolution (saved as PNG if ``path``).

        The PNG is made in memory, then written whole or not at all
        (:func:`tanbo_files.write_whole`): a full disk leaves no half
        picture, and raises FileProblem naming ``path``.
        """
        import io

        import pygame

        import tanbo_files as files
        surf = self.display.surface.copy()
        if path:
            png = io.BytesIO()
            pygame.image.save(surf, png, "png")
            files.write_whole(path, png.getvalue(), "the screenshot")
        return surf

    def pixel(self, x, y):
        """(r, g, b) of the screen at (x, y)."""
        return tuple(self.display.surface.get_at((x, y)))[:3]
