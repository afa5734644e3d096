"""The menu START opens over a puzzle, a box over its board: resume, start again, the next puzzle, the list, rules, the title."""

from app.screens.menu import Menu, Row, back_to


def screen(app, puzzle_screen):
    """The menu over ``puzzle_screen`` (an :class:`app.screens.puzzle.PuzzleScreen`)."""
    back = back_to(app, puzzle_screen)
    n = puzzle_screen.puzzle.number
    rows = [
        Row("Resume", back),
        Row("Start again", lambda: app.go("puzzle", n)),
        Row("Next puzzle", lambda: app.go("puzzle", n % puzzle_screen.count + 1)),
        Row("Puzzle list", lambda: app.go("puzzles", n)),
        Row("Rules", lambda: app.go("rules", back)),
        Row("Main menu", app.title),
    ]
    return Menu(app, "Puzzle %d" % n, rows, back, footer="B:back", over=puzzle_screen)
