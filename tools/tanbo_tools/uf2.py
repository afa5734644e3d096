"""Check UF2 firmware files before they are written to a board.

UF2 (Microsoft's USB Flashing Format) is a sequence of 512-byte blocks::

    0   magic 0x0A324655 ("UF2\\n")   4  magic 0x9E5D5157
    8   flags                          12 target address
    16  payload size (<= 476)          20 block number
    24  number of blocks               28 family ID (flag 0x2000) / file size
    32  payload (476 bytes)            508 end magic 0x0AB16F30

Flags: 0x1 not main flash (ignored by bootloaders), 0x1000 file container
(not firmware), 0x2000 family ID present. A file may hold several runs of
blocks (a combined UF2); every run must count 0..n-1 without a gap.

Written here rather than taken from PyPI ``adafruit-uf2`` (Microsoft's
uf2conv, 1.0.0): its reader keeps state in module globals, prints, checks
with ``assert`` and, on the damaged input this module exists to refuse,
dies with a TypeError of its own (``"... at " + ptr``, an int). The tests
use it as an independent reader of the images :mod:`tanbo_tools.image` writes.
"""

import struct
from collections import namedtuple

from .boards import family_name

BLOCK = 512
MAGIC0, MAGIC1, MAGIC_END = 0x0A324655, 0x9E5D5157, 0x0AB16F30
FLAG_NOT_MAIN_FLASH = 0x00000001
FLAG_FILE_CONTAINER = 0x00001000
FLAG_FAMILY = 0x00002000
MAX_PAYLOAD = 476


class UF2Error(ValueError):
    """The file is not a UF2 firmware for the board; the message names the block and the problem."""


class Summary(namedtuple("Summary", "blocks family payload low high not_main")):
    """What a valid file holds: ``blocks``, ``family``, ``payload`` bytes, ``low``/``high`` addresses.

    ``not_main`` counts the blocks flagged "not main flash" (skipped by bootloaders).
    """

    __slots__ = ()

    def describe(self):
        return ("%d blocks, family %s (0x%08X), %d bytes for 0x%08X-0x%08X"
                % (self.blocks, family_name(self.family), self.family, self.payload, self.low, self.high))


def check_uf2(data, board, name="firmware", chunks=None):
    """Validate UF2 bytes for ``board`` (its family and flash range); return a :class:`Summary`.

    Raises UF2Error naming ``name`` and the first bad block. When ``chunks``
    is a list, each main-flash block's ``(address, payload)`` is appended to
    it in file order, so a caller needing the contents walks the file once.
    """
    if not data:
        raise UF2Error("%s is empty" % name)
    if len(data) % BLOCK:
        raise UF2Error("%s is truncated or not UF2: %d bytes is not a whole number of %d-byte blocks"
                       % (name, len(data), BLOCK))
    run_total = None
    expected = 0
    payload = 0
    low, high = None, None
    not_main = 0
    count = len(data) // BLOCK
    for i in range(count):
        block = data[i * BLOCK:(i + 1) * BLOCK]
        m0, m1, flags, addr, size, number, total, family = struct.unpack_from("<8I", block)
        (end,) = struct.unpack_from("<I", block, 508)
        where = "%s block %d" % (name, i)
        if m0 != MAGIC0 or m1 != MAGIC1 or end != MAGIC_END:
            raise UF2Error("%s: bad magic numbers (not a UF2 block, or the file is damaged)" % where)
        if flags & FLAG_FILE_CONTAINER:
            raise UF2Error("%s: is a file container, not firmware" % where)
        if size > MAX_PAYLOAD or number >= total:
            raise UF2Error("%s: payload size %d or block number %d/%d out of range"
                           % (where, size, number, total))
        if number == 0 and expected == (run_total or 0):
            run_total, expected = total, 0
        if run_total is None:
            raise UF2Error("%s: is block number %d of %d, but a file starts with block 0 (blocks "
                           "missing or reordered)" % (where, number, total))
        if number != expected or total != run_total:
            raise UF2Error("%s: is block number %d of %d where %d of %d was expected (blocks missing "
                           "or reordered)" % (where, number, total, expected, run_total))
        expected += 1
        if flags & FLAG_NOT_MAIN_FLASH:
            not_main += 1
            continue
        if not flags & FLAG_FAMILY:
            raise UF2Error("%s: has no family ID, so it cannot be confirmed to be for %s (%s)"
                           % (where, board.name, board.chip))
        if family != board.uf2_family:
            raise UF2Error("%s: is for %s (family 0x%08X) but %s is %s (0x%08X)"
                           % (where, family_name(family), family, board.name, board.chip, board.uf2_family))
        start, stop = board.flash_range
        if addr < start or addr + size > stop:
            raise UF2Error("%s: writes 0x%08X-0x%08X, outside %s's firmware flash 0x%08X-0x%08X"
                           % (where, addr, addr + size, board.name, start, stop))
        payload += size
        if chunks is not None:
            chunks.append((addr, block[32:32 + size]))
        low = addr if low is None else min(low, addr)
        high = addr + size if high is None else max(high, addr + size)
    if expected != run_total:
        raise UF2Error("%s is truncated: it ends after block %d of %d" % (name, expected, run_total))
    if payload == 0:
        raise UF2Error("%s has no blocks for main flash" % name)
    return Summary(count, board.uf2_family, payload, low, high, not_main)


def families(data):
    """The family IDs named by blocks of ``data`` (for guessing the board), in first-seen order."""
    seen = []
    for i in range(len(data) // BLOCK):
        m0, m1, flags = struct.unpack_from("<3I", data, i * BLOCK)
        if m0 == MAGIC0 and m1 == MAGIC1 and flags & FLAG_FAMILY:
            (family,) = struct.unpack_from("<I", data, i * BLOCK + 28)
            if family not in seen:
                seen.append(family)
    return seen
