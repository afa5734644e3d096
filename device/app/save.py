"""Saves in non-volatile memory: two slots (double buffer), each with magic, sequence, length and CRC.

Slot layout (little-endian), each slot half of ``storage.size``::

    0  4  magic b"TNB1"
    4  4  sequence number (the larger valid one is the newest)
    8  2  payload length in bytes
    10 4  CRC-32 of bytes 4..9 and the payload
    14 .. payload: settings (SETTINGS bytes), variant index (1 byte, 255 = no
          game), then each ply as 2 bytes (a point, or 0xFFF0 + player for a
          resignation)

A write goes to the slot not holding the newest save, so a reset mid-write
(torn save) leaves the previous one intact; its CRC then fails and it is
reported once and erased. Moves rather than record text: a 19x19 game of
500 plies needs 1 KB, and PicoSystem's NVM is 4 KB.
"""

import struct

from tanbo import Game, VARIANTS

try:
    from binascii import crc32
except ImportError:  # some CircuitPython builds leave binascii out
    crc32 = None

MAGIC = b"TNB1"
HEADER = 14
RESIGN = 0xFFF0
NO_GAME = 255

_NIBBLE = None


def crc32_py(data, crc=0):
    """CRC-32 (as zlib/binascii) of ``data``, continuing from ``crc``; 16-entry table."""
    global _NIBBLE
    if _NIBBLE is None:
        t = []
        for i in range(16):
            c = i
            for _ in range(4):
                c = (c >> 1) ^ (0xEDB88320 if c & 1 else 0)
            t.append(c)
        _NIBBLE = t
    crc ^= 0xFFFFFFFF
    for b in data:
        crc = _NIBBLE[(crc ^ b) & 15] ^ (crc >> 4)
        crc = _NIBBLE[(crc ^ (b >> 4)) & 15] ^ (crc >> 4)
    return crc ^ 0xFFFFFFFF


def checksum(data, crc=0):
    if crc32 is not None:
        return crc32(data, crc) & 0xFFFFFFFF
    return crc32_py(data, crc)


class SaveError(ValueError):
    """A slot holds a save that fails its checks; the message says which check."""


def encode(settings, game):
    """Payload bytes of ``settings`` (bytes) and ``game`` (None: no game in progress)."""
    if game is None:
        return bytes(settings) + bytes((NO_GAME,))
    moves = game.history
    out = bytearray(len(settings) + 1 + 2 * len(moves))
    out[:len(settings)] = settings
    i = len(settings)
    out[i] = VARIANTS.index(game.variant.name)
    i += 1
    for m in moves:
        v = RESIGN - m if m < 0 else m
        out[i] = v & 255
        out[i + 1] = v >> 8
        i += 2
    return bytes(out)


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


class Saves:
    """The two save slots of ``storage`` (:class:`boards.common.Storage`)."""

    def __init__(self, storage):
        self.storage = storage
        self.slot_size = storage.size // 2
        self.seq = 0
        self.slot = 1  # slot of the newest save; the first write goes to slot 0

    def capacity(self):
        """Largest payload in bytes."""
        return self.slot_size - HEADER

    def _read_slot(self, k):
        """Payload and sequence of slot k; None if empty; SaveError if damaged."""
        base = k * self.slot_size
        head = self.storage.read(base, HEADER)
        if head[:4] != MAGIC:
            return None
        seq, length, crc = struct.unpack("<IHI", head[4:])
        if length > self.capacity():
            raise SaveError("slot %d: length %d exceeds %d" % (k, length, self.capacity()))
        payload = self.storage.read(base + HEADER, length)
        if checksum(payload, checksum(head[4:10])) != crc:
            raise SaveError("slot %d: CRC mismatch" % k)
        return seq, payload

    def load(self, settings_size):
        """``(settings, game, problem)`` of the newest good save.

        ``settings``/``game`` are None when there is none; ``problem`` is a
        message when a damaged save was found (and erased), else None.
        """
        found = []
        problem = None
        for k in (0, 1):
            try:
                r = self._read_slot(k)
                if r is not None:
                    found.append((r[0], k, r[1]))
            except SaveError as e:
                problem = str(e)
                self.erase(k)
        found.sort()
        while found:
            seq, k, payload = found.pop()
            try:
                settings, game = decode(payload, settings_size)
            except SaveError as e:
                problem = "slot %d: %s" % (k, e)
                self.erase(k)
                continue
            self.seq, self.slot = seq, k
            return settings, game, problem
        return None, None, problem

    def save(self, settings, game):
        """Write a new save into the other slot; False (nothing written) if it does not fit."""
        payload = encode(settings, game)
        if len(payload) > self.capacity():
            return False
        seq = (self.seq + 1) & 0xFFFFFFFF
        k = 1 - self.slot
        fields = struct.pack("<IH", seq, len(payload))
        crc = checksum(payload, checksum(fields))
        base = k * self.slot_size
        # Payload first, header last: a reset in between leaves no valid magic+CRC.
        self.storage.write(base + HEADER, payload)
        self.storage.write(base, MAGIC + fields + struct.pack("<I", crc))
        self.seq, self.slot = seq, k
        return True

    def erase(self, k):
        self.storage.write(k * self.slot_size, b"\xff\xff\xff\xff")
