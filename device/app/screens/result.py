"""The result of a finished game: who won, after how many plies; a new game, its review, or the title."""

from tanbo import player_name

from app.screens.menu import Menu, Row


def screen(app, game, under=None):
    """The result of the finished ``game``, a box over its game's screen ``under`` (None:
    the whole screen); its review comes back here (made anew, on the whole screen)."""
    v = game.variant
    if game.winner is not None:
        headline = "%s wins!" % player_name(game.winner)
    else:
        headline = "Game stopped"
    lines = ["after %d plies" % game.ply, "(%s)" % v.name]
    rows = [Row("New game", lambda: app.go("new_game", game)),
            Row("Review", lambda: app.go("review", game)),
            Row("Main menu", app.title)]
    # Over the board, no footer: three rows that say what they do, the box smaller.
    return Menu(app, headline, rows, app.title, lines, footer=None if under else "A:ok  B:back", over=under)
