"""What ``code.py`` does, as one function the simulator runs too: the app for
this board, or the unknown-board screen."""

import board
import displayio

from app import theme
from app.layout import text_scale
from app.main import App, background
from app.text import Label

UNSUPPORTED = ("Tanbo cannot run", "on this board:", None, "", "Supported:", "PyBadge, PyGamer,",
               "PicoSystem")


def show_message(display, lines):
    """Show ``lines`` of text (e.g. the unknown-board message) on ``display``."""
    s = text_scale(display.width, display.height)
    root = displayio.Group()
    root.append(background(display.width, display.height))
    for i, line in enumerate(lines):
        root.append(Label(2, 2 + 12 * s * i, display.width // (6 * s), theme.TEXT, scale=s,
                          text=line).group)
    display.root_group = root
    display.refresh()


def start(boards, clock=None, sleep=None, on_problem=print):
    """The App for the board :mod:`boards` finds, or None after telling
    ``on_problem`` why not and showing it on the board's display if it has one."""
    try:
        hw = boards.hardware()
    except boards.UnknownBoard as e:
        on_problem(str(e))
        display = getattr(board, "DISPLAY", None)
        if display is not None:
            show_message(display, [boards.board_id() if line is None else line for line in UNSUPPORTED])
        return None
    return App(hw, clock, sleep)
