"""The new-game menu: board, opponent, level, seat; Start."""

from tanbo import get_variant
from tanbo.variants import PLAYER_NAMES

from app.screens.menu import Menu, Row, computer_seats, warm_game_code
from app.store.settings import GAME_VARIANTS, LEVELS, OPPONENTS


def screen(app, last=None):
    """The menu; ``last``: the game just finished, whose tables a next game of its
    board takes over (:func:`app.between.start_next_game`)."""
    s = app.settings

    def seats():
        # From the name ("4p", "hexbo-6p"): the variant itself would be built
        # (its tables kept) for each board the row shows.
        name = GAME_VARIANTS[s.variant]
        return int(name[-2]) if name.endswith("p") else 2

    def set_seat(i):
        s.seat = i % seats() + 1

    def set_variant(i):
        s.variant = i

    rows = [
        Row("Board", choices=GAME_VARIANTS, get=lambda: s.variant, set=set_variant),
        Row("Opponent", choices=OPPONENTS, get=lambda: s.opponent,
            set=lambda i: setattr(s, "opponent", i)),
        Row("Level", choices=LEVELS, get=lambda: s.level, set=lambda i: setattr(s, "level", i)),
        Row("You play", choices=PLAYER_NAMES.split(), get=lambda: min(s.seat, seats()) - 1,
            set=set_seat),
        Row("Start", lambda: start_game(app, last)),
    ]
    menu = Menu(app, "New game", rows, app.title)
    warm_game_code(app, menu)
    return menu


def start_game(app, last=None):
    """The Start row: the game the menu shows, started in the app's next step, in the
    tables of ``last`` (a finished game) if it was played on that board."""
    name = GAME_VARIANTS[app.settings.variant]
    game = last if last is not None and last.variant.name == name else name
    app.play_next(game, computer_seats(app, get_variant(name).players))
