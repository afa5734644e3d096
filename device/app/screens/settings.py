"""The settings menu: sound, hints, the computer's level, thinking on the player's time, sending
finished games, the idle time before sleep; the free heap, the board and its battery under them
on a screen with room for them."""

import gc

from app import GAUGE
from app.screens.menu import Menu, Row
from app.store.settings import LEVELS

SLEEP_NAMES = ("1 min", "2 min", "5 min", "never")  # app.power_due.SLEEP_MS


def free_memory():
    """Free heap in bytes (-1 where ``gc`` cannot say): as the last screen's
    collection left it (App.step), less what was made since. Not collected
    here: a collection is ~25 ms of RP2040 time before the settings show."""
    return gc.mem_free() if hasattr(gc, "mem_free") else -1


def screen(app, back):
    """The settings; leaving them (Back or B) saves what changed, then runs ``back()``."""
    s = app.settings

    def toggle(name):
        def set(i):
            setattr(s, name, i == 0)
            app.apply_settings()
        return set

    def leave():
        app.save_game(app.saved_game)
        back()

    def info():
        # Read only where a line is left under the rows (none on 160x128 nor
        # 240x240): the free heap's reading walks the heap's whole table.
        # Two lines, not three: a label is ~2 ms of RP2040 time before the screen shows.
        # "picosystem +80%": 15 of 19 columns (the gauge also stands on the title).
        free = free_memory()
        return ["free %d B" % free if free >= 0 else "free: n/a", (app.hw.name + " " + GAUGE[0]).strip()]

    onoff = ("on", "off")
    rows = [
        Row("Sound", choices=onoff, get=lambda: 0 if s.sound else 1, set=toggle("sound")),
        Row("Hints", choices=onoff, get=lambda: 0 if s.hints else 1, set=toggle("hints")),
        Row("AI level", choices=LEVELS, get=lambda: s.level, set=lambda i: setattr(s, "level", i)),
        # "Think on my time" (hard searches on the player's turn), in the 19
        # columns of the smallest menu.
        Row("Use my time", choices=onoff, get=lambda: 0 if s.ponder else 1, set=toggle("ponder")),
        # Every finished game's record printed on the USB console (app.send).
        Row("Send at end", choices=onoff, get=lambda: 0 if s.send else 1, set=toggle("send")),
        # Idle time before the screen goes dark (it dims after app.power_due.DIM_MS).
        Row("Sleep", choices=SLEEP_NAMES, get=lambda: s.sleep, set=lambda i: setattr(s, "sleep", i)),
        Row("Back", leave),
    ]
    return Menu(app, "Settings", rows, leave, after=info)
