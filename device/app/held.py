"""A screen's change: the new screen put up (:func:`show`) and what stays on the heap
under it (:func:`let_go`). Loaded for the change only, and let go by it with the
rest of the code the new screen does not keep: not on the heap under a game."""

import sys

from app import forget

# Held for the app's life (their objects are: the app, the settings, the
# saves, the last resort's label, a search kept from game to game): a second
# import would be a second copy of their code. The rest of the app's code,
# the rooms' packages among it (a room's modules stay where they are kept;
# the next import through the room makes its package again), and the
# engine's code that only some screens run (ENGINE), leaves the heap when
# the screen on show does not keep it (let_go); so does the boards' package,
# whose code picked the board at start (boards.common stays: the app imports it).
HELD = ("app.main", "app.clock", "app.input", "app.store.settings", "app.store.save", "app.view.text",
        "app.shared_search")
ENGINE = ("tanbo.ponder", "tanbo.coach", "tanbo.game_make", "tanbo.position", "boards")


def let_go(keeps):
    """Forget every module of the app (but :data:`HELD`) and of :data:`ENGINE` that
    ``keeps`` (module names; ``"app."``: all of the app's) does not hold.

    The one rule for what code a screen has on the heap: each screen names
    what it keeps (its ``keeps``), and :func:`show` lets the rest
    go when it comes up. What a kept module imports must be kept too, or
    the next import loads a second copy of it.
    """
    # No list of the names: on a full heap its block may be the one not there.
    # One module dropped a pass (the table changes under a loop that drops).
    gone = True
    while gone:
        gone = False
        for name in sys.modules:
            if name.startswith("app.") and name not in HELD or name in ENGINE:
                for k in keeps:
                    if k == name or k == "app." and name.startswith(k):
                        break
                else:
                    gone = True
                    break
        if gone:
            forget(name)


def show(app, screen):
    """Put ``screen`` (built whole) on the display; the next refresh sends the panel once
    (or, for a menu that took over the group on show, only what changed in it).

    CircuitPython 10 sends, per refresh, an area for every TileGrid
    that is new or changed and one for the layers a Group lost, each
    in full where they overlap: swapping the screen's group under a
    root on show sent 1.6-1.9 panels (Start -> 9x9: 106,326 px of
    57,600). A root group set anew makes the next refresh one area,
    the whole panel (``full_refresh`` in shared-module/displayio/
    display_core.c), but setting the group it has already changes
    nothing: hence None in between, while the root is changed.
    """
    d = app.display
    old = app.screen
    under = getattr(old, "over", None)  # the screen under the box menu on show
    over = getattr(screen, "over", None)
    if old is not None and old.group is screen.group:
        # A menu that took over the last one's lines (app.screens.menu.Menu): the
        # group stays, and the refresh sends only what changed in it.
        pass
    elif over is not None and (over is old or over is under):
        # A box menu over the screen on show (or in place of the box over it):
        # the refresh sends the boxes' areas, the board stays.
        if under is not None:
            app.root.remove(old.group)
        app.root.append(screen.group)
    elif screen is under:
        app.root.remove(old.group)  # the box goes: its area is drawn again
    else:
        d.root_group = None
        remove(app, old)
        app.root.append(screen.group)
        d.root_group = app.root
    app.screen = screen
    app.dirty = True
    app.busy = True
    # The last screen (and the menus' code, under a game) is collected
    # once the new one is on the panel, not before (see step): ~25 ms of
    # RP2040 time (board time, 185 KB heap) the player would wait.
    app.collect = True
    keeps = getattr(screen, "keeps", None)
    if keeps is not None:
        let_go(keeps)
    else:
        forget("app.held")


def remove(app, screen):
    """Take ``screen``'s group off the root, and the screen's under it if it is a box."""
    if screen is not None:
        app.root.remove(screen.group)
        under = getattr(screen, "over", None)
        if under is not None:
            app.root.remove(under.group)
