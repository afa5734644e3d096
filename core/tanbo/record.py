"""Game records: the variant, optional start position, and the moves in notation.

Example::

    # Tanbo game record (Tanbo is a game by Mark Steere)
    Variant: 9x9
    Players: Black White
    Result: *
    Moves:
    1. H7 B3
    2. G8 resign

Header lines are ``Key: value`` (``Variant`` required; ``Players``, the
players' names in turn order (:func:`tanbo.variants.player_name`: Black,
White, Red, Blue, Yellow, Grey), checked against the variant; ``Position``
when the game did not start from the variant's setup; ``Result`` is the
winner's name or ``*``, checked against the moves when given; other keys
are kept as text). After ``Moves:`` come moves separated by spaces or new
lines, optionally numbered (``12.``); ``resign`` resigns for the side to
move and ``resign:P`` for player ``P`` (its name). ``#`` starts a comment.
A reader also takes the codes records held before the names: ``B``, ``W``
and ``1``-``6`` for a player, any case.

This module writes records; :mod:`tanbo.replay` reads them.

Sent on a serial console (the handheld's "Send"), a record goes
between two marker lines, each alone on its line::

    -----BEGIN TANBO RECORD-----
    # Tanbo game record (Tanbo is a game by Mark Steere)
    Variant: 9x9
    ...
    -----END TANBO RECORD-----

``SEND_BEGIN`` and ``SEND_END``. A reader (``tanbo records pull``) ignores
everything outside a BEGIN ... END pair (the console's other output), and
a record whose END never came (the board gone mid-record, a second BEGIN)
is dropped whole. The record's own lines never start with ``-``.
"""

from .variants import PLAYER_NAMES, player_name

SEND_BEGIN = "-----BEGIN TANBO RECORD-----"
SEND_END = "-----END TANBO RECORD-----"


def player_of(text):
    """The player (1-6) ``text`` names, any case: its name (:func:`tanbo.variants.player_name`)
    or a code of :data:`tanbo.position.PLAYER_CODES` (records and scripts of before the
    names wrote ``B W`` and digits); None if neither. The reader of records
    (:mod:`tanbo.replay`) and the text protocol read players by it. (Here, not in
    :mod:`tanbo.position`, which opening a puzzle imports each time: each name of its
    code is looked up again at each import.)"""
    word = text.upper()
    names = PLAYER_NAMES.upper().split()
    if word in names:
        return names.index(word) + 1
    from .position import PLAYER_CODES
    return PLAYER_CODES.get(word)


def format_record(game, headers=None):
    """The record text of ``game`` (its whole history), with extra ``headers``."""
    return "\n".join(record_lines(game, headers)) + "\n"


def record_lines(game, headers=None):
    """The lines of ``game``'s record, one at a time (no newlines).

    A generator, so a caller short of memory (the text protocol on a board)
    can write a long record without holding it whole.
    """
    v = game.variant
    yield "# Tanbo game record (Tanbo is a game by Mark Steere)"
    yield "Variant: " + v.name
    yield "Players: " + " ".join([player_name(k) for k in range(1, v.players + 1)])
    if game.start is not None:
        yield "Position: " + game.start
    if headers:
        for key in sorted(headers):
            # (str.capitalize is not MicroPython's: the handheld's Send writes a header)
            yield "%s: %s" % (key[:1].upper() + key[1:].lower(), headers[key])
    yield "Result: " + ("*" if game.winner is None else player_name(game.winner))
    yield "Moves:"
    per_line = v.players
    fmt = v.format_point
    line = ""
    i = 0
    # One list of small ints (4 bytes a ply on a board) while the lines are
    # written; a counter, not enumerate(), which makes a tuple a ply.
    for move in game.moves():
        if i % per_line == 0:
            if line:
                yield line
            line = "%d." % (i // per_line + 1)
        line += " " + ("resign:" + player_name(-move) if move < 0 else fmt(move))
        i += 1
    if line:
        yield line
