"""Picks this board's hardware module once, by ``board.board_id``.

``hardware()`` returns the :class:`boards.common.Hardware` of the board
it runs on. A new board is one more module of the same shape and one line
in ``MODULES``.
"""

import sys

import board

# board.board_id -> module in this package
MODULES = {
    "pybadge": "pybadge",
    "pygamer": "pygamer",
    "pimoroni_picosystem": "picosystem",
}


class UnknownBoard(Exception):
    """This board has no module here; the message says which id and which are known."""


def board_id():
    return getattr(board, "board_id", "?")


def hardware():
    """The Hardware of this board; UnknownBoard if ``board.board_id`` is not in MODULES."""
    name = MODULES.get(board_id())
    if name is None:
        raise UnknownBoard("board %r is not supported (known: %s)"
                           % (board_id(), ", ".join(sorted(MODULES))))
    module = __import__("boards." + name, None, None, ["hardware"])
    hw = module.hardware()
    # Their code ran once (on the boards a module's code takes heap while it
    # is loaded): what the app uses from here on is boards.common's. (The
    # PyGamer's module builds on the PyBadge's: drop both.)
    for done in (name, "pybadge", "waves"):
        sys.modules.pop("boards." + done, None)
        globals().pop(done, None)
    return hw
