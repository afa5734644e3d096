"""Tanbo, the game of roots by Mark Steere: a small exact engine.

Runs unchanged on CPython, MicroPython and CircuitPython (no imports beyond
``array``). Start with :class:`Game`::

    >>> from tanbo import Game
    >>> g = Game("9x9")
    >>> g.play_move("H7")
    []
    >>> g.position()
    '........./.O.....X./.......X./........./........./........./........./.X.....O./......... O'

Modules: :mod:`tanbo.variants` (boards, setups, notation),
:mod:`tanbo.game` (rules and incremental state), :mod:`tanbo.position`
(position text), :mod:`tanbo.record` (game records), :mod:`tanbo.rng`
(deterministic random numbers), :mod:`tanbo.ai` (the computer opponent),
:mod:`tanbo.gtp` (the text protocol).
"""

from .variants import VARIANTS, Variant, player_name, PLAYER_CHARS, COLUMNS
from .game import get_variant, Game, IllegalMove, OCCUPIED, NOT_CONNECTED, TOUCHES_SEVERAL, GAME_OVER
from .rng import Rng

__version__ = "0.1.0"
