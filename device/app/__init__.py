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


# Held for the app's life (their objects are: the app, the settings, the
# saves, the last resort's label, a search kept from game to game): a second
# import would be a second copy of their code. The rest of the app's code,
# the rooms' packages among it (a room's modules stay where they are kept;
# the next import through the room makes its package again), and the
# engine's code that only some screens run (ENGINE), leaves the heap when
# the screen on show does not keep it (let_go).
HELD = ("app.main", "app.clock", "app.input", "app.store.settings", "app.store.save", "app.view.text",
        "app.shared_search")
ENGINE = ("tanbo.ponder", "tanbo.coach", "tanbo.game_make", "tanbo.position")


def let_go(keeps):
    """Forget every module of the app (but :data:`HELD`) and of :data:`ENGINE` that
    ``keeps`` (module names; ``"app."``: all of the app's) does not hold.

    The one rule for what code a screen has on the heap: each screen names
    what it keeps (its ``keeps``), and :meth:`app.main.App.show` lets the rest
    go when it comes up. What a kept module imports must be kept too, or
    the next import loads a second copy of it.
    """
    for name in list(sys.modules):
        if name.startswith("app.") and name not in HELD or name in ENGINE:
            for k in keeps:
                if k == name or k == "app." and name.startswith(k):
                    break
            else:
                forget(name)


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
