"""What ``code.py`` does, as one function the simulator runs too: the app for
this board, or the unknown-board screen."""

import board

from app.main import App, show_message

UNSUPPORTED = ("Tanbo cannot run", "on this board:", None, "", "Supported:", "PyBadge, PyGamer,",
               "PicoSystem")


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
