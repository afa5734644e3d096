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
# The battery gauge ("80%", "+80%" charging, "USB"; "" without a battery), set by
# app.power_due, read by the game's status panel (app.view.board) and the menus.
GAUGE = [""]


def let_go(keeps):
    """Forget every module of the app and of the engine's screens' code that ``keeps``
    does not hold (:func:`app.held.let_go`, whose code leaves the heap with them)."""
    __import__("app.held").held.let_go(keeps)


def forget(*names):
    """Forget modules ``names`` (e.g. ``"app.view.font"``) until they are imported again.

    On the boards a module's code lives in the heap (about a byte of RAM
    per byte of ``.mpy``) for as long as ``sys.modules`` or its package
    holds it. Screens that are not up (the menus while a game is played)
    or code that ran once (the glyph table, the tile drawing) are dropped,
    so the game screen and the computer's search have that heap; the next
    import loads the module again from flash. Whoever still uses one of
    these modules' objects keeps its code alive until they are released.
    """
    for name in names:
        sys.modules.pop(name, None)
        room, _, leaf = name.rpartition(".")
        room = sys.modules.get(room)
        if room is not None:
            room.__dict__.pop(leaf, None)
