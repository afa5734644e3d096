"""The drawing: board view, tiles and their art, layout, text, font, theme and sizes.

displayio groups built from the engine's state; nothing here reads the
buttons, saves, or imports :mod:`app.screens` or :mod:`app.store`.
"""
