"""The library of finished games: kept at the NVM's end, behind the save record (:mod:`app.store.save`).

Each game is its plies and a tail, laid from the NVM's end down, the
newest last (ending at the NVM's end), the oldest lowest, next to the
record, so that a game in progress growing its record over them takes
the oldest first::

    .. plies (2 bytes each, as the record's) | variant (1) | who (1) |
       winner (1, 0: none) | plies N (2) | CRC-32 of the 2N + 5 bytes before it (4)

``who``: the level's index (bits 0-1, app.store.settings.LEVELS) and the
players the computer moved (bit 2 + k for player k + 1; none: against a
person). Games are read from the end down: the walk stops, silently, at
a tail that is blank (0xFF: no more games) or reaches below the record's
``reach`` (taken by a game in progress), and at a game whose CRC fails:
that game and the older ones are damaged (:func:`scan`).

A finished game is added (:func:`keep`) in the write the game's end makes
anyway: the record (its game in progress gone) and the library, the older
games moved down to make room at the end and the oldest dropped where
they would reach the record, in one block as large as the NVM, the one
write; a turn's save writes the record alone. The list (app.screens.games)
reads one tail a row; a game is read whole only to be reviewed or sent.
"""

import struct

from tanbo import Game, VARIANTS

from app.store.save import HEADER, MAGIC, checksum, encode, payload_size, put_plies
from app.store.save_load import apply_ply

TAIL = 9  # variant, who, winner, plies (2), CRC (4)
CHUNK = 256  # bytes read at a time (a block that small on a fragmented heap)
PIECE = 512  # bytes a write of keep_in_place moves (each one sector erase on the boards)


def who(level, computer):
    """The ``who`` byte of a game at ``level`` (index) where the computer moved the players ``computer``."""
    w = level & 3
    for p in computer:
        w |= 1 << (p + 1)
    return w


def tail(storage, end):
    """(variant index, who, winner, plies) of the game ending at ``end``."""
    t = storage.read(end - TAIL, 5)
    return t[0], t[1], t[2], t[3] | t[4] << 8


def crc_of(storage, start, end):
    """CRC-32 of the NVM's bytes from ``start`` to ``end``, read CHUNK bytes at a time."""
    crc = 0
    while start < end:
        n = min(CHUNK, end - start)
        crc = checksum(storage.read(start, n), crc)
        start += n
    return crc


def scan(storage, low):
    """(ends of the intact games, newest first; True if a game was damaged) of the library
    above offset ``low`` (the record's reach)."""
    ends = []
    end = storage.size
    while end - TAIL >= low:
        v, w, winner, n = tail(storage, end)
        start = end - TAIL - 2 * n
        if n == 0xFFFF or start < low:
            break  # blank (no more games) or taken by the record
        crc = struct.unpack("<I", storage.read(end - 4, 4))[0]
        if v >= len(VARIANTS) or crc_of(storage, start, end - 4) != crc:
            return ends, True
        ends.append(end)
        end = start
    return ends, False


def load_game(storage, end):
    """The game ending at ``end``, replayed (ValueError if its plies are not legal)."""
    g = Game(VARIANTS[tail(storage, end)[0]])
    for _ in replay(storage, end, g, CHUNK // 2):
        pass
    return g


def replay(storage, end, game, plies):
    """Play the plies of the game ending at ``end`` on ``game`` (new, of its variant),
    ``plies`` (at most CHUNK // 2) at a time: yields the plies left after each step."""
    n = tail(storage, end)[3]
    i = end - TAIL - 2 * n
    while n:
        k = min(n, plies)
        data = storage.read(i, 2 * k)
        for j in range(0, 2 * k, 2):
            apply_ply(game, data[j] | data[j + 1] << 8)
        i += 2 * k
        n -= k
        yield n


def keep(saves, settings, progress, game, whom):
    """Write the record (``settings``, puzzle ``progress``, no game) with ``game`` (finished;
    ``whom``: its :func:`who` byte) added to the library, in one write; the older games
    moved down, the oldest dropped where they reach the record. The games the library
    then holds; 0 (nothing written) if ``game`` does not fit beside the record.

    Allocates one block of the NVM's size; on a heap with no such block (a
    game's end, its search kept) :func:`keep_in_place` writes the
    same bytes in pieces instead."""
    storage = saves.storage
    size = storage.size
    front = HEADER + payload_size(settings, None, progress)
    e = 2 * game.ply + TAIL
    if front + e > size:
        return 0
    low, games = kept_games(storage, saves.reach, front, e)
    try:
        buf = bytearray(size)  # (bytearray * n is not MicroPython's; b"\xff" * n would be a second block)
    except MemoryError:
        return keep_in_place(saves, settings, progress, game, whom, front, e, low, games)
    put_record(buf, settings, progress, front)

    def put(i, data):
        buf[i:i + len(data)] = data
    lay_out(storage, front, low, e, put, CHUNK)
    put_game(buf, size - e, game, whom)
    storage.write(0, buf)  # one slice: one sector erase on the boards
    saves.writes += 1
    saves.stored = bytes(buf[:HEADER])
    saves.reach = front
    return games


def kept_games(storage, reach, front, e):
    """(the offset of the oldest game kept, the games the library will hold) when a
    game of ``e`` bytes is added: the older games move down by ``e`` as far as they
    stay above the record's ``front`` (damaged games: dropped)."""
    low = storage.size
    games = 1
    for end in scan(storage, reach)[0]:
        start = end - TAIL - 2 * tail(storage, end)[3]
        if start - e < front:
            break
        low = start
        games += 1
    return low, games


def put_record(buf, settings, progress, front):
    """The record of ``settings`` and ``progress`` (no game), ``front`` bytes, at ``buf``'s start."""
    buf[:4] = MAGIC
    encode(settings, None, buf, HEADER, progress)
    struct.pack_into("<H", buf, 4, front - HEADER)
    view = memoryview(buf)
    struct.pack_into("<I", buf, 6, checksum(view[HEADER:front], checksum(view[4:6])))


def put_game(buf, i, game, whom):
    """``game`` as the library holds it (plies, then its tail) in ``buf`` from index ``i``."""
    start = i
    i = put_plies(game, buf, i)
    buf[i] = VARIANTS.index(game.variant.name)
    buf[i + 1] = whom
    buf[i + 2] = game.winner or 0
    buf[i + 3] = game.ply & 255
    buf[i + 4] = game.ply >> 8
    struct.pack_into("<I", buf, i + 5, checksum(memoryview(buf)[start:i + 5]))


def keep_in_place(saves, settings, progress, game, whom, front, e, low, games):
    """:func:`keep`'s bytes written in pieces of at most PIECE bytes, for a heap with
    no block of the NVM's size: the record first (the older games then still
    intact above it), the games moved down from the lowest up (a piece read
    before it is written over), the gap blanked (:func:`lay_out`), the new game
    last; a piece the NVM already holds is not written. Each write is one
    sector erase on the boards: at most ``(size - front) / PIECE + 3`` of
    them instead of one. A cut during them
    drops the library from the first game they left damaged, the record kept
    (as a cut during the one write would)."""
    storage = saves.storage
    buf = bytearray(front)
    put_record(buf, settings, progress, front)
    storage.write(0, buf)
    saves.stored = bytes(buf[:HEADER])
    saves.reach = front
    saves.writes += 1

    def put(i, data):
        if storage.read(i, len(data)) != data:  # (those bytes there already: no erase)
            storage.write(i, data)
            saves.writes += 1
    lay_out(storage, front, low, e, put, PIECE)
    buf = bytearray(e)
    put_game(buf, 0, game, whom)
    storage.write(storage.size - e, buf)
    saves.writes += 1
    return games


def lay_out(storage, front, low, e, put, n):
    """The library's bytes below a new game of ``e`` bytes, each span of at most ``n``
    through ``put(offset, bytes)``: the games from ``low`` up moved ``e`` bytes down, the
    lowest first (a span is read before it is written over), then the gap between the
    record's ``front`` and them blank (0xFF). For :func:`keep` (into its buffer) and
    :func:`keep_in_place` (onto the NVM)."""
    size = storage.size
    i = low
    while i < size:
        k = min(n, size - i)
        put(i - e, storage.read(i, k))
        i += k
    blank = b"\xff" * n
    i = front
    while i < low - e:
        k = min(n, low - e - i)
        put(i, blank if k == n else blank[:k])
        i += k


def repair(saves, ends):
    """Drop the damaged games below the intact ``ends`` (:func:`scan`'s): blank the bytes
    between the record's reach and the oldest intact game, in one write."""
    low = saves.storage.size
    if ends:
        low = ends[-1] - TAIL - 2 * tail(saves.storage, ends[-1])[3]
    if low > saves.reach:
        saves.storage.write(saves.reach, b"\xff" * (low - saves.reach))
        saves.writes += 1
