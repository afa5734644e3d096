"""What the app does between two games: the finished game kept and its result shown, the next
game started (its search, then its screen). :class:`app.main.App` reaches these through
:func:`app.main.between`; a game's screen does not keep this module (app.let_go), so its
code (~0.7 KB of a PyBadge's heap) is off the heap through every game."""

import gc

from app import forget, let_go


# What the game's board and screen change are made with (the new-game menu may
# have loaded the builder ahead: app.screens.new_game), let go once it is shown.
BUILT_WITH = ("app.view.theme", "app.view.sizes", "app.held", "app.view.build", "app.view.tile_art",
              "app.view.cell_plan", "tanbo.game_make")


def show_result(app):
    """The game :attr:`app.main.App.finished` kept in the library with the save its end
    makes, then its result: a box over the final position where the heap has
    room for both, else (a SAMD51's heap) on the heap the game's screen held
    (its tile strip and labels, 5-16 KB), which the library's write (a block
    of the NVM's size, 8 KB on a PyBadge) and the result's labels need
    (docs/board-costs.md#a-games-end). Not from :meth:`app.main.App.game_over`,
    under whose callers' frames the screen is still alive."""
    game, ai = app.finished
    app.finished = None
    under = None
    if app.small_heap:
        app.drop_screen()
    else:
        under = getattr(app.screen, "over", None) or app.screen  # (under the game menu: resigned)
    keep_game(app, game, ai)
    app.go("result", game, under)


def keep_game(app, g, ai):
    """The game ``g``, just over (``ai``: the players the computer moved), into
    ``app``'s library with the save its end makes (:func:`app.store.library.keep`,
    one write), or the save alone if it does not fit; then sent on the console
    with "Send at end" on (:mod:`app.send`). The library's code is on the heap
    only then.

    Without a block of the NVM's size (8 KB on a PyBadge) the library
    writes in pieces; after a MemoryError all the same (the library's code,
    its smaller blocks, its scan) the game's search is let go and the load
    and write tried once more, then the search made again for the next game.
    """
    app.saved_game = None
    kept = 0
    whom = 0
    level = getattr(app.search, "level", None)  # (not the search: the second try lets it go)
    for _ in range(2):  # the second time without the search
        try:
            from app.store.library import keep, who
            whom = who(app.settings.level, ai)
            if app.saves is not None:
                kept = keep(app.saves, app.settings.pack(), app.puzzle_record, g, whom)
            break
        except MemoryError:
            keep = None
            forget("app.store.library", "app.store.save_load")
            app.search = None
            gc.collect()
    else:
        print("MemoryError: the game is not kept")
    keep = who = None
    forget("app.store.library", "app.store.save_load")
    if level is not None and app.search is None:
        # Made again now that the library's code is off the heap, before the
        # result's labels: the next game takes it over, where a search made
        # at its start finds the holes the result and the menus left.
        try:
            from app.screens.game import kept_search
            app.search = kept_search(None, g, ai, level, app.hw.slowness, app.small_heap)
        except MemoryError:
            app.search = None
        kept_search = None
    if app.saves is not None:
        if kept:
            app.games = kept
        else:
            app.save_game(None)
    if app.settings.send:
        from app.send import send
        send(g, whom)
        forget("app.send")


def start_next_game(app):
    """The game :meth:`app.main.App.play_next` asked for, on a heap without the menu
    that asked: its screen and the menus' code are dropped and the heap
    collected first (a menu's code stays alive while its key handler
    runs), so the game's search and screen are made with ~15 KB more
    free and fewer holes."""
    game, ai = app.next_game
    app.next_game = None
    from app.screens.game import KEEPS
    # What the game's screen does not keep goes first, this module among
    # them (the functions running keep its globals until they return), but
    # the theme and sizes its board is built with: they go once it is shown.
    let_go(KEEPS + BUILT_WITH)
    last = None
    search = app.search
    if getattr(search, "shared", False):
        last = search.game
        search.release()  # a search on the last game itself (kept_search) no longer holds it
    search = None
    app.drop_screen()
    if isinstance(game, str) and last is not None and last.over and last.variant.name == game:
        game = last  # (a shared search's game: started again from the title's New game)
    last = None
    if isinstance(game, str):
        from tanbo import Game
        game = Game(game)
    elif game.over:
        # The finished game's tables and undo stacks serve the next, no
        # block made anew where the heap is most fragmented.
        game.restart()
    play(app, game, ai)


def play(app, game, ai):
    """Put ``game`` on ``app``'s screen, the computer moving the players ``ai``."""
    app.save_full_shown = False
    app.saved_game = game  # what a MemoryError while the screen is built saves
    # The last game's search if it fits this one, else a new one: on a
    # board of small heap (a SAMD51's) made now, its blocks before the
    # screen's many small ones and the holes of the code that builds it
    # (hexbo's second game found no 160 B block for its screen with the
    # search made after it); elsewhere once the board is on the panel
    # (app.main.App.step: the AI's code and the search's tables are 200-320 ms of an
    # RP2040's start of a game, where a SAMD51 takes 0.1-0.3 s for all of it).
    # (Elsewhere a last search that does not fit is let go here, its
    # blocks collected when the heap needs them: a PicoSystem has room.)
    from app.screens import game as screen_code  # (imported again after a review let it go)
    if app.small_heap:
        # The board's tile strip first, its largest block (app.view.build.strip_ahead).
        try:
            from app.view.board import KEPT_TILES
            from app.view.build import strip_ahead
            strip_ahead(game.variant, app.display.width, app.display.height, KEPT_TILES)
        except MemoryError:
            pass  # (the board's building makes it)
        strip_ahead = KEPT_TILES = None
    try:
        app.search = screen_code.kept_search(app.search, game, ai, app.settings.level_name(),
                                             app.hw.slowness, app.small_heap, app.small_heap)
    except MemoryError:
        # No block for it now: it is tried again once the board is drawn
        # (step), else at the computer's first move (think), where a
        # MemoryError plays that move lighter.
        app.search = None
        gc.collect()
    screen = None
    while screen is None:  # twice at most: beside the search, then without it
        try:
            screen = screen_code.GameScreen(game, ai, app.display.width, app.display.height, app.settings.hints,
                                            app.hw.slowness, app.search, app.small_heap)
        except MemoryError:
            if app.search is None:
                raise
            # The search's blocks, made first, left the screen no room (a
            # fragmented heap): the screen first, its search once the board is drawn (App.step).
            app.search = None
            gc.collect()
    screen_code = None
    app.show(screen)
    if app.settings.ponder and getattr(app.search, "shared", False):
        # "Use my time" is on, but this game's search plays on the game on
        # show (app.screens.game.SHARE_ABOVE): said once, at its start.
        name = game.variant.name  # (19x19, 4p, hexbo-6p)
        screen.notify(name + ": no thinking on your time", name + ": not on your time", "no ponder")
    if screen.person_to_move():  # else the save follows the computer's first reply
        app.save_turn(screen)
