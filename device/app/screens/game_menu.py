"""The menu START opens over a game, a box over its board: resume, undo, resign (asked twice), rules,
settings, the title."""

from tanbo import player_name

from app.screens.menu import Menu, Row, back_to, with_gauge


def screen(app, game_screen):
    """The menu over ``game_screen`` (an :class:`app.screens.game.GameScreen`)."""
    back = back_to(app, game_screen)

    def undo():
        app.game_event(game_screen, game_screen.undo())
        game_screen.update()
        back()

    def resign():
        # Straight to the result (saved and kept in the library as at any
        # game's end): one screen sent for the press, not the board again first.
        game_screen.game.resign()
        app.game_over(game_screen)

    def confirm_resign():
        # One press must not end a game: a second menu whose first row
        # (where the selection starts) keeps playing.
        name = player_name(game_screen.game.to_move)
        rows = [Row("No, play on", back), Row("Yes, resign", resign)]
        app.show(Menu(app, "Resign?", rows, lambda: app.go("game_menu", game_screen), [name + " gives up"], footer="B:back",
                      over=game_screen))

    rows = [
        Row("Resume", back),
        Row("Undo", undo),
        Row("Resign", confirm_resign),
        Row("Rules", lambda: menu.opening(menu.footer, "rules", app.go, "rules", back)),
        Row("Settings", lambda: menu.opening(menu.footer, "settings", app.go, "settings", back)),
        Row("Main menu", lambda: menu.opening(menu.footer, "title", app.title)),
    ]
    # The battery gauge too: some status panels have no room for it (9x9 on 240x240).
    menu = Menu(app, "Game", rows, back, footer=with_gauge("B:back", 0), over=game_screen)
    menu.footer_text = "B:back"  # (app.power_due keeps the gauge up)
    if not app.small_heap:
        # A whole screen after the box is the panel on the wire (351 ms of a
        # PicoSystem) and its build: the code of each loaded while the player
        # looks at the box, the settings' first. (Not on a SAMD51's heap,
        # where the game's search keeps its room.)
        menu.warm = ["app.screens.title", "app.screens.rules", "app.screens.settings"]
    return menu
