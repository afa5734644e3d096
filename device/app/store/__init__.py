"""What the app keeps in the board's NVM: the save, the library of finished games, the
puzzle progress and the settings' packing.

Bytes in, bytes out, with the engine's :class:`tanbo.Game`; nothing here draws or
imports :mod:`app.screens` or :mod:`app.view`.
"""
