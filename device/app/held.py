"""What stays on the heap when a screen comes up (:func:`let_go`): loaded for a screen's
change only, and let go by it, with the rest of the code the new screen does not keep."""

import sys

from app import forget

# Held for the app's life (their objects are: the app, the settings, the
# saves, the last resort's label, a search kept from game to game): a second
# import would be a second copy of their code. The rest of the app's code,
# the rooms' packages among it (a room's modules stay where they are kept;
# the next import through the room makes its package again), and the
# engine's code that only some screens run (ENGINE), leaves the heap when
# the screen on show does not keep it (let_go).
HELD = ("app.main", "app.clock", "app.input", "app.store.settings", "app.store.save", "app.view.text",
        "app.shared_search")
ENGINE = ("tanbo.ponder", "tanbo.coach", "tanbo.game_make")


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


