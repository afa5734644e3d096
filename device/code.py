"""Tanbo for CircuitPython handhelds. Picks the board, starts the app.

On CIRCUITPY this is /code.py; the app, the board modules and the engine
live in /lib (app, boards, tanbo).
"""

import boards

try:
    hw = boards.hardware()
except boards.UnknownBoard as e:
    import board
    from app.main import show_message

    print(e)
    if hasattr(board, "DISPLAY") and board.DISPLAY is not None:
        show_message(board.DISPLAY, ["Tanbo cannot run", "on this board:", boards.board_id(),
                                     "", "Supported:", "PyBadge, PyGamer,", "PicoSystem"])
    while True:
        pass
else:
    from app.main import App

    App(hw).run()
