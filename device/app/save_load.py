"""Reading the save record at start (see :mod:`app.save`): used once, then dropped from the heap."""

import struct

from tanbo import Game, VARIANTS

from app.save import HEADER, MAGIC, NO_GAME, RESIGN, checksum


# What an NVM that never held a record starts with: erased flash, or zeroed.
BLANK = (b"\xff\xff\xff\xff", b"\x00\x00\x00\x00")


class SaveError(ValueError):
    """The stored record fails its checks; the message says which check."""


def decode(payload, settings_size):
    """(settings bytes, Game or None) from a payload; SaveError naming what is wrong."""
    if len(payload) < settings_size + 1 or (len(payload) - settings_size - 1) % 2:
        raise SaveError("payload of %d bytes has the wrong shape" % len(payload))
    settings = payload[:settings_size]
    v = payload[settings_size]
    if v == NO_GAME:
        return settings, None
    if v >= len(VARIANTS):
        raise SaveError("unknown variant number %d" % v)
    game = Game(VARIANTS[v])
    for i in range(settings_size + 1, len(payload), 2):
        m = payload[i] | payload[i + 1] << 8
        try:
            if m >= RESIGN:
                game.resign(m - RESIGN)
            else:
                game.play(m)
        except ValueError as e:
            raise SaveError("ply %d: %s" % ((i - settings_size - 1) // 2 + 1, e))
    return settings, game


def load(saves, settings_size):
    """``(settings, game, problem)`` of the record of ``saves`` (:meth:`app.save.Saves.load`)."""
    head = saves.storage.read(0, HEADER)
    magic = bytes(head[:4])
    if magic in BLANK:
        return None, None, None
    length, crc = struct.unpack("<HI", head[4:])
    try:
        if magic != MAGIC:  # neither a record nor blank: a cut mid-write, or damage
            raise SaveError("magic %r is not %r" % (magic, MAGIC))
        if length > saves.capacity:
            raise SaveError("length %d exceeds %d" % (length, saves.capacity))
        payload = saves.storage.read(HEADER, length)
        if checksum(payload, checksum(head[4:6])) != crc:
            raise SaveError("CRC mismatch")
        settings, game = decode(payload, settings_size)
    except SaveError as e:
        saves.erase()
        return None, None, str(e)
    saves.stored = head
    return settings, game, None
