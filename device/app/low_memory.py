"""What the app does after an exception reached its loop (app.main.App.recover): the move
played instead of a search that failed for memory, the way back to the title after any
other.

A MemoryError on a board means no free block that big, often with plenty
free in all. Its own module: loaded only then, not kept on the heap while
a game is played. The screen shown when not even the title menu can be
built is :class:`app.main.LowMemory`, made at start.
"""


def lighter_move(app, screen):
    """The move after a MemoryError in this move's search (see :meth:`app.main.App.out_of_memory`),
    said in words in the status line (the longest that fits): a search at
    ``app.fallback`` ("easy"), or at "any" a legal move without the AI (the
    seed's: nothing to allocate), said to be random."""
    level = app.fallback
    app.fallback = None  # the next move tries the level set again: restored once its search fits
    if level == "any":  # said as what it is: a move picked without looking
        screen.notify("low memory: random move", "low RAM: random", "low RAM: rand", "RAM:rnd")
    else:
        screen.notify("low memory: easy move", "low RAM: easy", "RAM:easy", "low RAM")
    if level == "any":
        moves = screen.game.legal_moves()
        return moves[screen.game.ply % len(moves)]
    return screen.choose(level, app.progress)


def back_to_title(app, error):
    """After ``error`` (None: a MemoryError outside a search) reached the app's loop: the
    error said in one line on the serial console, the game on show saved (a
    puzzle's position is no game to resume), the title, whose one-line notice
    says so. Whatever fails here ends at :meth:`app.main.App.last_stand`."""
    app.searching = app.fallback = app.next_game = None
    if error is None:
        saved, unsaved = "Low memory: saved.", "Low memory."
    else:
        print("error in a screen:", repr(error))
        saved, unsaved = "Error: saved.", "Error."
    app.hold_game()
    # Release the screen before the title is built: its blocks (a board's
    # tile strip is 12 KB) are what the title may need.
    app.drop_screen()
    game = app.saved_game
    if game is not None and game.broken():
        # A ply the error broke off (its tables half changed): played again
        # from the game's record, that ply whole; failing that, the NVM keeps
        # the game as of its last full turn, for the next start.
        try:
            game.replay()
        except Exception:
            app.saved_game = None
    if app.saved_game is game:
        app.save_game(game)
    app.notice = (saved if app.saved_game is not None else unsaved,)
    app.title()
