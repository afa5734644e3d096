"""The save record in non-volatile memory: one record at offset 0, with magic, length and CRC;
the library of finished games (:mod:`app.store.library`) at the NVM's end, behind it.

Layout (little-endian)::

    0  4  magic b"TNB4"
    4  2  payload length in bytes
    6  4  CRC-32 of bytes 4..5 and the payload
    10 .. payload: settings (SETTINGS bytes), the length P of the puzzle
          progress (1 byte), the progress (P bytes, :meth:`app.store.progress.Progress.pack`),
          variant index (1 byte, 255 = no game), then the plies N (2 bytes)
          and each ply as 2 bytes (a point, or 0xFFF0 + player for a
          resignation); then zeros up to the payload's length (see ``reach``)

Records of the versions before are still read: b"TNB3" (the same without
N, the plies up to the payload's end, and no library) and b"TNB2" (no P
and progress either, from before puzzles).

Each save is ONE slice assignment to ``microcontroller.nvm``: on the boards
(CircuitPython, not Blinka) every such write reads the whole flash sector
under it, erases it and programs it again with the slice changed (the rest
kept), and the whole NVM is one erase unit (PicoSystem: one 4 KB sector;
PyBadge/PyGamer: one 8 KB SAMD51 block). So a second slot in the same NVM
would not survive a cut that the first does not: there is one record, and a
record equal to the one stored is not written again. A turn's save writes
the record alone (the library behind it is kept by the firmware's
read-modify-write); the library is written with the record, in the same
one write, only when a game ends (:func:`app.store.library.keep`). A power cut
during a write leaves the sector erased or half programmed (from its
start: the record first, the library's newest game last): the magic or
the CRC then fails, the save is reported once and dropped (never a crash),
and the title offers a new game; a library whose games fail their CRCs is
reported once and dropped from the first damaged game on, the record (the
game in progress) kept. Moves rather than record text: a 19x19 game of 500
plies needs 1 KB.
"""

import struct

from tanbo import VARIANTS

try:
    from binascii import crc32
except ImportError:  # some CircuitPython builds leave binascii out
    from app.store.crc32 import crc32

MAGIC = b"TNB4"
V3_MAGIC = b"TNB3"  # no ply count, no library: still resumed
OLD_MAGIC = b"TNB2"  # no progress section (before puzzles) either: still resumed
HEADER = 10
RESIGN = 0xFFF0
NO_GAME = 255


def checksum(data, crc=0):
    return crc32(data, crc) & 0xFFFFFFFF


def encode(settings, game, out, i, progress=b""):
    """Write the payload of ``settings`` (bytes), the puzzle ``progress`` section
    (bytes, at most 255) and ``game`` (None: no game in progress) into
    bytearray ``out`` from index ``i`` (room for :func:`payload_size`)."""
    out[i:i + len(settings)] = settings
    i += len(settings)
    out[i] = len(progress)
    out[i + 1:i + 1 + len(progress)] = progress
    i += 1 + len(progress)
    if game is None:
        out[i] = NO_GAME
        return
    out[i] = VARIANTS.index(game.variant.name)
    out[i + 1] = game.ply & 255
    out[i + 2] = game.ply >> 8
    put_plies(game, out, i + 3)


def put_plies(game, out, i):
    """Write ``game``'s plies, 2 bytes each, into ``out`` from index ``i``; the index after them.
    Reads the plies one by one (``Game.move_at``): a list of them would take 4
    bytes a ply on a board, anew at every save."""
    for k in range(game.ply):
        m = game.move_at(k)
        v = RESIGN - m if m < 0 else m
        out[i] = v & 255
        out[i + 1] = v >> 8
        i += 2
    return i


def payload_size(settings, game, progress=b""):
    """Bytes of the payload of ``settings``, ``progress`` and ``game`` (see the module docstring)."""
    return len(settings) + 1 + len(progress) + 1 + (0 if game is None else 2 + 2 * game.ply)


class Saves:
    """The save record of ``storage`` (:class:`boards.common.Storage`).

    ``writes`` counts the NVM writes this object made (each one sector erase);
    ``progress``: the puzzle progress section the record held at start
    (:func:`app.store.save_load.load`; b"" for none). ``reach``: the bytes from
    offset 0 that records have covered since the library was last
    written: a record shorter than that is padded to it, so the library's
    games start at or above it (a game's save that grew into the library,
    then an undo, leaves no half game above the record).
    """

    def __init__(self, storage):
        self.storage = storage
        self.capacity = storage.size - HEADER  # largest payload in bytes
        # Header (magic, length, CRC) of the record in NVM as last read or
        # written: equal headers mean an equal record, without keeping 1 KB.
        self.stored = None
        self.writes = 0
        self.progress = b""
        self.reach = HEADER

    def save(self, settings, game, progress=b""):
        """Store ``settings``, ``game`` (None: no game) and the puzzle ``progress``
        section in one write, or none if the NVM already holds exactly that;
        False (nothing written) if it does not fit."""
        size = payload_size(settings, game, progress)
        if size > self.capacity:
            return False
        # The record in one block, made once per save (no payload, then a
        # copy of it behind the header): a 300-ply game's is 0.6 KB.
        if HEADER + size < self.reach:
            size = self.reach - HEADER
        record = bytearray(HEADER + size)
        record[:4] = MAGIC
        encode(settings, game, record, HEADER, progress)
        struct.pack_into("<H", record, 4, size)
        view = memoryview(record)
        struct.pack_into("<I", record, 6, checksum(view[HEADER:], checksum(view[4:6])))
        if record[:HEADER] != self.stored:
            self._write(record)
        return True

    def erase(self):
        """Forget the stored save (a damaged one is reported once, not at every start)."""
        self._write(b"\xff\xff\xff\xff")

    def _write(self, data):
        self.storage.write(0, data)  # one slice: one sector erase on the boards
        self.writes += 1
        self.stored = data[:HEADER]
        if len(data) > self.reach:
            self.reach = len(data)
