"""Puzzles for the app: the list, opening a puzzle, the puzzle menu, and what a puzzle screen asks for.

Loaded when the title's "Puzzles" row or a puzzle screen's request
(:func:`serve`) needs it; dropped while a puzzle is on screen, as the menus
are during a game (:data:`app.main.OFF_GAME_MODULES`).

The collection is the bundle's ``puzzles.txt`` beside the app package
(``/lib/app/puzzles.txt`` on a board, ``device/app/puzzles.txt`` in the
simulator), read one entry at a time (:class:`tanbo.puzzles.PuzzleBook`).
"""

import gc

from app.menu import Menu, Row, back_to
from app.puzzle_screen import NEXT_PUZZLE, PUZZLE_MENU, SOLVED, PuzzleScreen


def book_path():
    """Path of the puzzle collection: ``puzzles.txt`` in the app package's folder."""
    import app
    f = app.__file__
    return f[:max(f.rfind("/"), f.rfind("\\")) + 1] + "puzzles.txt"


def progress(app):
    """The app's puzzle progress (:class:`app.progress.Progress`), unpacked from
    ``app.puzzle_record``; :func:`keep` packs it back."""
    from app.progress import Progress
    return Progress.unpacked(app.puzzle_record)


def keep(app, p):
    """Progress ``p`` becomes the app's (written with the next save)."""
    app.puzzle_record = p.pack()


def open_book(app):
    """The collection, open; None after showing a screen that says why it cannot be read."""
    from tanbo.puzzles import PuzzleBook
    try:
        book = PuzzleBook(book_path())
        p = progress(app)
        p.of(book.ident)  # progress by number: of this collection only
        keep(app, p)
        return book
    except (OSError, ValueError) as e:
        print("puzzles:", e)
        app.show(Menu(app, "Puzzles", [Row("Back", app.title)], app.title,
                      ["cannot read the", "puzzle collection.", "Copy the game again"]))
        return None


def show_list(app, first=0, refused=False):
    """The list of puzzles, ``first`` (from 1; 0: the one to resume at) selected;
    ``refused``: it was, as damaged (see :func:`open_puzzle`)."""
    from app.puzzle_list import PuzzleList
    book = open_book(app)
    if book is not None:
        p = progress(app)
        app.show(PuzzleList(app, book, p, first or p.resume or 1, lambda n: open_puzzle(app, n),
                            app.title, refused))


def open_puzzle(app, n):
    """Puzzle ``n`` (from 1) on screen; it becomes the one to resume at (saved with the
    next write: opening one never writes). A damaged one (issue 34: it cannot be
    read, its position parsed or its line played) is refused: the list shows it
    as damaged, asking for a copy of the game again; the progress is kept."""
    book = open_book(app)
    if book is None:
        return
    try:
        count = len(book)
        puzzle = book.load(n - 1)
    except (ValueError, OSError) as e:
        return refuse(app, n, e)
    finally:
        book.close()
    p = progress(app)
    p.resume = n
    keep(app, p)
    p = None
    old = app.screen
    if isinstance(old, PuzzleScreen):
        # Next puzzle: let go of the last board before building one (two at
        # once would be a second tile strip and row grids on the heap).
        app.root.remove(old.group)
        app.screen = old = None
        gc.collect()
    try:
        screen = PuzzleScreen(puzzle, count, app.width, app.height, app.settings.hints, app.hw.slowness)
    except ValueError as e:
        return refuse(app, n, e)
    app.show(screen)


def refuse(app, n, problem):
    """Puzzle ``n`` cannot be played (``problem``, said on the serial console): the list, at it."""
    print("puzzles:", problem)
    show_list(app, n, True)


def serve(app, screen, event):
    """What puzzle screen ``screen`` asked for with ``event`` (:mod:`app.puzzle_screen`)."""
    n = screen.puzzle.number
    if event == SOLVED:
        p = progress(app)
        p.mark(n)
        p.resume = n % screen.count + 1
        keep(app, p)
        app.save_game(app.saved_game)  # the one write a solved puzzle costs
    elif event == NEXT_PUZZLE:
        open_puzzle(app, n % screen.count + 1)
    elif event == PUZZLE_MENU:
        app.show(puzzle_menu(app, screen))


def puzzle_menu(app, screen):
    """The menu START opens on puzzle screen ``screen``."""
    back = back_to(app, screen)

    def rules():
        from app.help import Help
        app.show(Help(app, back))

    n = screen.puzzle.number
    rows = [
        Row("Resume", back),
        Row("Start again", lambda: open_puzzle(app, n)),
        Row("Next puzzle", lambda: open_puzzle(app, n % screen.count + 1)),
        Row("Puzzle list", lambda: show_list(app, n)),
        Row("Rules", rules),
        Row("Main menu", app.title),
    ]
    return Menu(app, "Puzzle %d" % n, rows, back)
