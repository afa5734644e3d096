"""Reading a game record back: its headers, then its moves replayed one by one.

The format is described in :mod:`tanbo.record`. Kept apart from the writer
so a program that only writes records (the text protocol on a board) does
not load the parser.
"""

from .numerals import is_digits
from .record import player_of
from .variants import player_name



def load_record(cls, text, get_variant):
    """Replay record ``text`` into a new ``cls`` game; ValueError names the line.
    ``get_variant``: :func:`tanbo.game.get_variant` (passed in: that module
    loads this one).

    Moves are played as they are read, so a long record needs no list of
    them (a 64 KB heap matters).
    """
    if not isinstance(text, str):
        raise ValueError("record must be text, got %r" % (text,))
    # What editors write: a byte-order mark first, Windows or old Mac line ends.
    if text[:1] == "\ufeff":
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    headers = {}
    header_line = {}
    game = None
    v = None
    lineno = 0
    start = 0
    while start <= len(text):
        end = text.find("\n", start)
        if end < 0:
            end = len(text)
        raw = text[start:end]
        start = end + 1
        lineno += 1
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if game is None:
            if ":" not in line:
                raise ValueError("record line %d: expected 'Key: value' or 'Moves:', got %r" % (lineno, raw.strip()))
            key, value = line.split(":", 1)
            key = key.strip().lower()
            if key != "moves":
                if key in headers:
                    raise ValueError("record line %d: header %r given twice" % (lineno, key))
                headers[key] = value.strip()
                header_line[key] = lineno
                continue
            game, v = _start(cls, headers, header_line, get_variant)
            line = value.strip()
        for token in line.split():
            if not (token.endswith(".") and is_digits(token[:-1])):
                _replay(game, v, token, lineno)
    if game is None:
        game, v = _start(cls, headers, header_line, get_variant)
    result = headers.get("result", "*").upper()
    if result not in ("*", ""):
        want = player_of(result)
        if want is None:
            raise ValueError("record line %d: unknown result %r (a player's name, B, W, 1-6 or *)"
                             % (header_line["result"], result))
        if game.winner != want:
            got = "*" if game.winner is None else player_name(game.winner)
            raise ValueError("record line %d: result %s, but the moves give %s"
                             % (header_line["result"], result, got))
    game.headers = headers
    return game


def _start(cls, headers, header_line, get_variant):
    """The game the headers describe, before any move."""
    if "variant" not in headers:
        raise ValueError("record: no 'Variant:' line")
    try:
        v = get_variant(headers["variant"])
    except ValueError as e:
        raise ValueError("record line %d: %s" % (header_line["variant"], e))
    if "players" in headers:
        # By name or by the codes of records written before the names (B W, 1 2 3).
        seats = [player_of(word) for word in headers["players"].split()]
        if seats != list(range(1, v.players + 1)):
            want = " ".join(player_name(k) for k in range(1, v.players + 1))
            raise ValueError("record line %d: players %r do not match %s (%s)"
                             % (header_line["players"], headers["players"], v.name, want))
    if "position" in headers:
        try:
            return cls.from_position(headers["position"], v), v
        except ValueError as e:
            raise ValueError("record line %d: %s" % (header_line["position"], e))
    return cls(v), v


def _replay(game, v, token, lineno):
    try:
        low = token.lower()
        if low == "resign":
            game.resign()
        elif low.startswith("resign:"):
            who = player_of(token[7:])
            if who is None or who > v.players:
                raise ValueError("%r: unknown player" % token[7:])
            game.resign(who)
        else:
            game.play(v.parse_point(token))
    except ValueError as e:
        raise ValueError("record line %d: move %d (%s): %s" % (lineno, game.ply + 1, token, e))
