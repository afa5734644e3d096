"""Reading the save record at start (see :mod:`app.store.save`): used once, then dropped from the heap."""

import struct

from tanbo import Game, VARIANTS

from app.store.save import HEADER, MAGIC, NO_GAME, OLD_MAGIC, RESIGN, V3_MAGIC, checksum
from app.store.settings import GAME_VARIANTS, LEVELS, OPPONENTS, SIZE


# What an NVM that never held a record starts with: erased flash, or zeroed.
BLANK = (b"\xff\xff\xff\xff", b"\x00\x00\x00\x00")


def apply_ply(game, m):
    """Play ply ``m`` as app.save.put_plies wrote it (a point, or RESIGN + player) on ``game``."""
    if m >= RESIGN:
        game.resign(m - RESIGN)
    else:
        game.play(m)


def unpack(settings, data):
    """Take ``settings``' values (an :class:`app.store.settings.Settings`) from ``data``
    (SIZE bytes, as its ``pack`` makes them); out-of-range values keep the defaults."""
    if len(data) != SIZE:
        return
    settings.sound = data[0] & 1 == 1
    sleep = (data[0] >> 1 & 3) + 1 & 3
    if sleep != settings.sleep:
        settings.sleep = sleep
    settings.hints = data[1] == 1
    if data[2] < len(LEVELS):
        settings.level = data[2]
    if data[3] < len(GAME_VARIANTS):
        settings.variant = data[3]
    if data[4] < len(OPPONENTS):
        settings.opponent = data[4]
    if 1 <= data[5] <= 6:
        settings.seat = data[5]
    # 1 off, 2 on; 0 (saves made before the setting): the board's default.
    on = data[6] == 2 if 1 <= data[6] <= 2 else settings.ponder
    if on != settings.ponder:
        settings.ponder = on
    on = data[7] == 2  # (0: saves made before the setting, 1: off)
    if on != settings.send:
        settings.send = on


class SaveError(ValueError):
    """The stored record fails its checks; the message says which check."""


def decode(payload, settings_size, has_progress=True, counted=True):
    """(settings bytes, progress bytes, Game or None) from a payload (``has_progress``:
    it holds a progress section, as all but the TNB2 records; ``counted``: a ply count
    precedes the plies, padding follows them, as in TNB4); SaveError naming what is wrong."""
    settings = payload[:settings_size]
    progress = b""
    i = settings_size  # the variant's byte
    if has_progress and len(payload) > i:
        n = payload[i]
        progress = payload[i + 1:i + 1 + n]
        i += 1 + n
    if len(payload) < i + 1:
        raise SaveError("payload of %d bytes has the wrong shape" % len(payload))
    v = payload[i]
    if v == NO_GAME:
        return settings, progress, None
    if v >= len(VARIANTS):
        raise SaveError("unknown variant number %d" % v)
    i += 1
    if counted:
        if len(payload) < i + 2:
            raise SaveError("payload of %d bytes has no ply count" % len(payload))
        end = i + 2 + 2 * (payload[i] | payload[i + 1] << 8)
        i += 2
        if end > len(payload):
            raise SaveError("%d plies do not fit a payload of %d bytes" % ((end - i) // 2, len(payload)))
    else:
        end = len(payload)
        if (end - i) % 2:
            raise SaveError("payload of %d bytes has the wrong shape" % len(payload))
    game = Game(VARIANTS[v])
    first = i
    for i in range(first, end, 2):
        m = payload[i] | payload[i + 1] << 8
        try:
            apply_ply(game, m)
        except ValueError as e:
            raise SaveError("ply %d: %s" % ((i - first) // 2 + 1, e))
    return settings, progress, game


def load(saves, settings_size):
    """``(settings, game, problem)`` of the record of ``saves`` (:class:`app.store.save.Saves`),
    whose ``progress`` it sets to the record's puzzle progress section."""
    head = saves.storage.read(0, HEADER)
    magic = bytes(head[:4])
    if magic in BLANK:
        return None, None, None
    length, crc = struct.unpack("<HI", head[4:])
    try:
        if magic != MAGIC and magic != V3_MAGIC and magic != OLD_MAGIC:  # neither a record nor blank: a cut mid-write, or damage
            raise SaveError("magic %r is not %r" % (magic, MAGIC))
        if length > saves.capacity:
            raise SaveError("length %d exceeds %d" % (length, saves.capacity))
        payload = saves.storage.read(HEADER, length)
        if checksum(payload, checksum(head[4:6])) != crc:
            raise SaveError("CRC mismatch")
        settings, progress, game = decode(payload, settings_size, magic != OLD_MAGIC, magic == MAGIC)
    except SaveError as e:
        saves.erase()
        return None, None, str(e)
    saves.stored = head
    saves.progress = progress
    saves.reach = HEADER + length
    return settings, game, None
