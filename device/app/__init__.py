"""The Tanbo app: screens, board renderer, input, saves. Start with :mod:`app.main`."""

import sys

VERSION = "0.1.0"
# The battery gauge ("80%", "+80%" charging, "USB"; "" without a battery), set by
# app.power_due, read by the game's status panel (app.board_view) and the menus.
GAUGE = [""]


def drop_modules(*names):
    """Forget the app's modules ``names`` (e.g. ``"menus"``) until they are imported again.

    On the boards a module's code lives in the heap (about a byte of RAM
    per byte of ``.mpy``) for as long as ``sys.modules`` or its package
    holds it. Screens that are not up (the menus while a game is played)
    or code that ran once (the glyph table, the tile drawing) are dropped,
    so the game screen and the computer's search have that heap; the next
    import loads the module again from flash. Whoever still uses one of
    these modules' objects keeps its code alive until they are released.
    """
    package = globals()
    for name in names:
        sys.modules.pop("app." + name, None)
        package.pop(name, None)
