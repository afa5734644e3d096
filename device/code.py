"""Tanbo for CircuitPython handhelds. Picks the board, starts the app.

On CIRCUITPY this is /code.py; the app, the board modules and the engine
live in /lib (app, boards, tanbo).
"""

import boards
from app.start import start

app = start(boards)
while app is None:
    pass  # an unknown board: its message stays on the screen
del start, boards  # (start dropped its module, a screen's change drops the package: the game gets their heap)
app.run()
