"""The title menu: Continue (a saved game), New game, Games (the library), Puzzles, Rules, Settings."""

from app import VERSION
from app.screens.menu import Menu, Row, computer_seats, warm_game_code, with_gauge


def screen(app):
    rows = []
    if app.saved_game is not None:
        rows.append(Row("Continue", lambda: resume(app)))
    rows.append(Row("New game", lambda: app.go("new_game")))
    if app.games:
        rows.append(Row("Games", lambda: app.go("games")))
    rows.append(Row("Puzzles", lambda: app.go("puzzles")))
    rows.append(Row("Rules", lambda: app.go("rules", app.title)))
    rows.append(Row("Settings", lambda: app.go("settings", app.title)))
    lines = ["by Mark Steere", "version " + VERSION]
    if app.notice:
        # After the credits: with the Continue row (and more) the notice
        # stays, the credits go (app.screens.menu.fits; one line of at most 19 characters).
        lines.extend(app.notice)
    menu = Menu(app, "T A N B O", rows, None, lines, footer="A:choose")
    menu.footer_text = "A:choose"  # the battery gauge at its right end, kept up by app.power_due
    menu.footer.text = with_gauge(menu.footer_text, menu.cols)
    app.notice = None  # reported once (kept should the menu fail to build: App.title tries again)
    if app.saved_game is not None:
        warm_game_code(app, menu)  # for Continue
    return menu


def resume(app):
    app.play_next(app.saved_game, computer_seats(app, app.saved_game.variant.players))
