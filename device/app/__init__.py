"""The Tanbo app. Start with :mod:`app.main`, the loop and what it serves.

Rooms: :mod:`app.screens` (what the player sees and presses), :mod:`app.view`
(drawing), :mod:`app.store` (what the NVM keeps); at the top the loop and
its services (start-up, the clock, key repeat, between games, low memory,
the shared search, the record sent). A room imports the rooms below it
(screens -> view, store; view and store -> the engine and ``boards``) and
the top's plumbing here, never the top's loop nor a screen.
"""

import sys

VERSION = "0.1.0"


# The code that leaves the heap when the screen on show does not keep it
# (:func:`let_go`): the rooms' modules and the services loaded on demand, and
# the engine's code that only some screens run.
LEAVES = ("app.screens.", "app.view.", "app.store.", "app.between", "app.low_memory", "app.send",
          "tanbo.ponder", "tanbo.coach", "tanbo.game_make")
# Held for the app's life: their objects are (the settings, the saves, the
# last resort's label), and a second import would be a second copy of their code.
HELD = ("app.store.settings", "app.store.save", "app.view.text")


def _forget(name):
    sys.modules.pop(name, None)
    room, _, leaf = name.rpartition(".")
    room = sys.modules.get(room)
    if room is not None:
        room.__dict__.pop(leaf, None)


def let_go(keeps):
    """Forget every module of :data:`LEAVES` that ``keeps`` (module names, or rooms
    ending in a dot: ``"app."``) does not hold and the app does not hold for life (:data:`HELD`).

    The one rule for what code a screen has on the heap: each screen names
    what it keeps (its ``keeps``), and :meth:`app.main.App.show` lets the rest
    go when it comes up. What a kept module imports must be kept too, or
    the next import loads a second copy of it.
    """
    for name in list(sys.modules):
        if name in HELD or not _among(name, LEAVES) or _among(name, keeps):
            continue
        _forget(name)


def _among(name, names):
    """True if ``names`` holds ``name``, or a room (ending in ".") that holds it."""
    for n in names:
        if name == n or n[-1] == "." and name.startswith(n):
            return True
    return False


def drop_modules(*names):
    """Forget the app's modules ``names`` (e.g. ``"view.font"``) until they are imported again.

    On the boards a module's code lives in the heap (about a byte of RAM
    per byte of ``.mpy``) for as long as ``sys.modules`` or its package
    holds it. Screens that are not up (the menus while a game is played)
    or code that ran once (the glyph table, the tile drawing) are dropped,
    so the game screen and the computer's search have that heap; the next
    import loads the module again from flash. Whoever still uses one of
    these modules' objects keeps its code alive until they are released.
    """
    for name in names:
        _forget("app." + name)
