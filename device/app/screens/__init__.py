"""The screens: what the player sees and presses, one at a time (menus, game, review, puzzles, rules).

A screen draws with :mod:`app.view`, reads and writes what the app keeps
through :mod:`app.store` and asks :class:`app.main.App` for what it cannot do
itself (another screen, a save, the computer's move). It never imports
another screen.
"""
