"""The library's games (app.store.library), newest first: a window of rows scrolling over them.

A row: variant and the winner (as the game's screens name the players:
tanbo.variants.player_name). The line above the footer: the selected
game's opponent (the level, or "person") and plies. The keys of
:class:`app.screens.menu.ScrollMenu`: A opens the game in Review, B goes back. A
row's text is read from its game's tail (9 bytes of the NVM) as it comes
into view; only the games' end offsets are kept (a small int each), never
a decoded game but the one opened.
"""

from app.store.library import replay, scan, tail
from app.screens.menu import Menu, ScrollMenu
from app.store.settings import LEVELS
from tanbo import VARIANTS, Game
from tanbo.variants import PLAYER_CHARS, player_name

AHEAD = 16  # plies replayed ahead a step of the app's loop (under 50 ms of an RP2040 on 19x19)


def opponent(who):
    """"person", or the level the computer played at (app.store.library.who's byte)."""
    return LEVELS[who & 3] if who >> 2 else "person"


def winner(player):
    """The name of ``player``, "-" for none (0; or a byte no player has)."""
    return player_name(player) if 0 < player < len(PLAYER_CHARS) else "-"


class GamesList(ScrollMenu):
    """The games of ``app``'s library (at least one); ``open(end, ahead)`` (the game's
    end offset in the NVM; :attr:`ahead` or None) and ``back()`` run on A and B.

    On a board of large heap the selected game is replayed while the player looks
    at the list (:meth:`tick`, AHEAD plies a step): A then finishes its replay,
    where it replayed it whole (0.1 s of a PicoSystem on 9x9, 0.9 s on 19x19)."""

    # [end offset, the game, its replay's steps (app.store.library.replay), plies
    # left] of the game replayed ahead (the game None: its replay failed; A meets it).
    ahead = None

    def __init__(self, app, ends, open, back):
        self.storage = app.saves.storage
        self.ends = ends
        self.open = open
        self.left = back
        ScrollMenu.__init__(self, app, "Games %d" % len(ends), len(ends), "A:review <>:page")
        self.select(0)
        if not app.small_heap:
            # The review's code and its board's, loaded while the player looks at the
            # list: ~0.1 s of a PicoSystem's Python less after A.
            self.warm = ["app.view.cell_plan", "app.view.build", "app.screens.review"]

    def row_text(self, i):
        # "hexbo-5-6p Yellow": 17 of the 19 columns of the smallest menu
        # (the opponent, 6 more, goes to the goal line).
        v, who, won, plies = tail(self.storage, self.ends[i])
        return "%-10s %s" % (VARIANTS[v], winner(won))

    def select(self, i):
        self.scroll_to(i)
        v, who, won, plies = tail(self.storage, self.ends[i])
        self.goal.text = "%s, %d plies" % (opponent(who), plies)

    def chosen(self, i):
        # The review's board, a replay and the whole panel, takes 1-2 s of a PicoSystem.
        a = self.ahead
        self.opening(self.goal, None, self.open, self.ends[i],
                     a if a is not None and a[0] == self.ends[i] and a[1] is not None else None)

    def tick(self, now):
        app = self.app
        if self.warm or app.small_heap or app.dirty or app.busy:
            return Menu.tick(self, now)
        end = self.ends[self.selected()]
        a = self.ahead
        if a is not None and a[0] == end and not (a[3] and a[1] is not None):
            return False  # replayed (or failed)
        try:
            if a is None or a[0] != end:
                self.ahead = a = [end, None, None, 1]
                a[1] = g = Game(VARIANTS[tail(self.storage, end)[0]])
                a[2] = replay(self.storage, end, g, AHEAD)
            a[3] = next(a[2])
        except StopIteration:
            a[3] = 0
        except Exception:  # (a MemoryError, an illegal ply): A replays it, and meets it
            a[1] = a[2] = None
        return False


def screen(app):
    """The library's games; A opens one in Review, whose B comes back here.
    With none left (the library read anew), the title (and None)."""
    ends = scan(app.saves.storage, app.saves.reach)[0]
    app.games = len(ends)
    if not ends:
        app.title()
        return None

    def open_game(end, ahead):
        from app.store.library import load_game
        if ahead is not None:  # (a board of large heap) replayed while the player looked
            for _ in ahead[2]:
                pass
            game = ahead[1]
            ahead[1] = ahead[2] = None
            return review(game, end)
        if app.small_heap:
            # The list's labels go before the game and its board are made (elsewhere
            # with the screen's change: a collection here is ~40 ms of the press).
            app.drop_screen()
        review(load_game(app.saves.storage, end), end)

    def review(game, end):
        # On a board of large heap the review keeps the app's code as the list
        # does, until its coach is first asked (whose search has that heap
        # then): B loads none of it again (~140 ms of a PicoSystem's Python
        # beside the panel's 351 ms on the wire).
        app.go("review", game, tail(app.saves.storage, end)[1],
               None if app.small_heap else ("app.", "boards", "tanbo.coach"))

    return GamesList(app, ends, open_game, app.title)
