"""The app's menus: title, new game, settings, the in-game menu, resign question, game over.

Each function builds a :class:`app.menu.Menu` for ``app`` (:class:`app.main.App`)
whose rows run the app's own actions; the caller shows it.
"""

import gc

from tanbo import get_variant

from app import VERSION
from app.menu import Menu, Row, back_to
from app import GAUGE
from app.settings import GAME_VARIANTS, LEVELS, OPPONENTS
from app.theme import PLAYER_NAMES


SLEEP_NAMES = ("1 min", "2 min", "5 min", "never")  # app.power_due.SLEEP_MS


def with_gauge(text, cols):
    """``text`` with the battery gauge at the right end of ``cols`` columns (alone without one)."""
    gauge = GAUGE[0]
    if not gauge:
        return text
    return text + " " * max(1, cols - len(text) - len(gauge)) + gauge


def seat_names(players):
    return PLAYER_NAMES[:players]


def rules(app, back):
    """The rules pages (imported when asked for: they are not needed to play)."""
    from app.help import Help
    return Help(app, back)


def computer_seats(app, players):
    """The players the computer moves: all but the person's seat (none against a person)."""
    s = app.settings
    if OPPONENTS[s.opponent] == "Person":
        return ()
    seat = min(s.seat, players)
    return tuple(p for p in range(1, players + 1) if p != seat)


def start_game(app):
    name = GAME_VARIANTS[app.settings.variant]
    app.play_next(name, computer_seats(app, get_variant(name).players))


def resume(app):
    app.play_next(app.saved_game, computer_seats(app, app.saved_game.variant.players))


def puzzles(app):
    from app.puzzle_menus import show_list
    show_list(app)


def title(app):
    rows = []
    if app.saved_game is not None:
        rows.append(Row("Continue", lambda: resume(app)))
    rows.append(Row("New game", lambda: app.show(new_game(app))))
    if app.games:
        rows.append(Row("Games", lambda: __import__("app.games_list").games_list.show(app)))
    rows.append(Row("Puzzles", lambda: puzzles(app)))
    rows.append(Row("Rules", lambda: app.show(rules(app, app.title))))
    rows.append(Row("Settings", lambda: app.show(settings(app, app.title))))
    lines = ["by Mark Steere", "version " + VERSION]
    if app.notice:
        # After the credits: with the Continue row (and more) the notice
        # stays, the credits go (app.menu.fits; one line of at most 19 characters).
        lines.extend(app.notice)
    menu = Menu(app, "T A N B O", rows, None, lines, footer="A:choose")
    menu.footer_text = "A:choose"  # the battery gauge at its right end, kept up by app.power
    menu.footer.text = with_gauge(menu.footer_text, menu.cols)
    app.notice = None  # reported once (kept should the menu fail to build: App.title tries again)
    return menu


def new_game(app):
    s = app.settings

    def seats():
        # From the name ("4p", "hexbo-6p"): the variant itself would be built
        # (its tables kept) for each board the row shows.
        name = GAME_VARIANTS[s.variant]
        return seat_names(int(name[-2]) if name.endswith("p") else 2)

    def set_seat(i):
        s.seat = i % len(seats()) + 1

    def set_variant(i):
        s.variant = i

    rows = [
        Row("Board", choices=GAME_VARIANTS, get=lambda: s.variant, set=set_variant),
        Row("Opponent", choices=OPPONENTS, get=lambda: s.opponent,
            set=lambda i: setattr(s, "opponent", i)),
        Row("Level", choices=LEVELS, get=lambda: s.level, set=lambda i: setattr(s, "level", i)),
        Row("You play", choices=PLAYER_NAMES, get=lambda: min(s.seat, len(seats())) - 1,
            set=set_seat),
        Row("Start", lambda: start_game(app)),
    ]
    return Menu(app, "New game", rows, app.title)


def free_memory():
    """Free heap in bytes (-1 where ``gc`` cannot say): as the last screen's
    collection left it (App.step), less what was made since. Not collected
    here: ~25 ms of RP2040 time before the settings show."""
    return gc.mem_free() if hasattr(gc, "mem_free") else -1


def settings(app, back):
    """The settings; leaving them (Back or B) saves what changed, then runs ``back()``."""
    s = app.settings

    def toggle(name):
        def set(i):
            setattr(s, name, i == 0)
            app.apply_settings()
        return set

    def leave():
        app.save_game(app.saved_game)
        back()

    onoff = ("on", "off")
    free = free_memory()
    # Two lines, not three: a label is ~8 ms of RP2040 time before the screen shows.
    # "picosystem +80%": 15 of 19 columns (the gauge also stands on the title).
    info = ["free %d B" % free if free >= 0 else "free: n/a", (app.hw.name + " " + GAUGE[0]).strip()]
    rows = [
        Row("Sound", choices=onoff, get=lambda: 0 if s.sound else 1, set=toggle("sound")),
        Row("Hints", choices=onoff, get=lambda: 0 if s.hints else 1, set=toggle("hints")),
        Row("AI level", choices=LEVELS, get=lambda: s.level, set=lambda i: setattr(s, "level", i)),
        # "Think on my time" (hard searches on the player's turn), in the 19
        # columns of the smallest menu.
        Row("Use my time", choices=onoff, get=lambda: 0 if s.ponder else 1, set=toggle("ponder")),
        # Every finished game's record printed on the USB console (app.send).
        Row("Send at end", choices=onoff, get=lambda: 0 if s.send else 1, set=toggle("send")),
        # Idle time before the screen goes dark (it dims after app.power_due.DIM_MS).
        Row("Sleep", choices=SLEEP_NAMES, get=lambda: s.sleep, set=lambda i: setattr(s, "sleep", i)),
        Row("Back", leave),
    ]
    return Menu(app, "Settings", rows, leave, after=info)


def game(app, screen):
    """The menu START opens on game screen ``screen``."""
    back = back_to(app, screen)

    def undo():
        app.game_event(screen, screen.undo())
        back()

    def resign():
        screen.game.resign()
        back()  # (the game screen's next tick ends the game: OVER writes the save and the library)

    def confirm_resign():
        # One press must not end a game: a second screen whose first
        # row (where the selection starts) keeps playing.
        name = seat_names(screen.game.variant.players)[screen.game.to_move - 1]
        rows = [Row("No, play on", back), Row("Yes, resign", resign)]
        app.show(Menu(app, "Resign?", rows, lambda: app.show(game(app, screen)), [name + " gives up"]))

    rows = [
        Row("Resume", back),
        Row("Undo", undo),
        Row("Resign", confirm_resign),
        Row("Rules", lambda: app.show(rules(app, back))),
        Row("Settings", lambda: app.show(settings(app, back))),
        Row("Main menu", app.title),
    ]
    menu = Menu(app, "Game", rows, back)
    # The battery gauge too: some status panels have no room for it (9x9 on 240x240).
    menu.footer_text = "A:ok  B:back"
    menu.footer.text = with_gauge(menu.footer_text, menu.cols)
    return menu


def game_over(app, game):
    """The result of the finished ``game``: new game, review it, or the title."""

    def review():
        # Its code is imported when asked for, not with the result: at a game's
        # end the heap still holds the game and its search (issue 33).
        from app.review_screen import ReviewScreen
        # Back from the review: the menu made anew (app.over), so that neither
        # this menu nor this module's code stays on the heap under the review.
        app.show(ReviewScreen(game, app.width, app.height, None, app))

    v = game.variant
    if game.winner is not None:
        headline = "%s wins!" % seat_names(v.players)[game.winner - 1]
    else:
        headline = "Game stopped"
    lines = ["after %d plies" % game.ply, "(%s)" % v.name]
    rows = [Row("New game", lambda: app.show(new_game(app))),
            Row("Review", review),
            Row("Main menu", app.title)]
    return Menu(app, headline, rows, app.title, lines)
