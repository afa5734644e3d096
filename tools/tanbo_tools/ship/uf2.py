"""Check UF2 firmware files before they are written to a board.

UF2 (Microsoft's USB Flashing Format) is a sequence of 512-byte blocks::

    0   magic 0x0A324655 ("UF2\\n")   4  magic 0x9E5D5157
    8   flags                          12 target address
    16  payload size (<= 476)          20 block number
    24  number of blocks               28 family ID (flag 0x2000) / file size
    32  payload (476 bytes)            508 end magic 0x0AB16F30

Flags: 0x1 not main flash (ignored by bootloaders), 0x1000 file container
(not firmware), 0x2000 family ID present.

What the boards' bootloaders take, and so what is checked before anything
is written: one run of blocks numbered 0..n-1 against one total (the RP2040
boot ROM counts blocks against a single total; a file with two runs, such
as the same firmware twice, is written wrongly or not at all); one family;
main-flash blocks of exactly 256 bytes at 256-byte-aligned addresses, each
above the one before (the RP2040 boot ROM takes 256-byte pages only, and
uf2conv, picotool and elf2uf2 write nothing else); so no address twice.

Written here rather than taken from PyPI ``adafruit-uf2`` (Microsoft's
uf2conv, 1.0.0): its reader keeps state in module globals, prints, checks
with ``assert`` and, on the damaged input this module exists to refuse,
dies with a TypeError of its own (``"... at " + ptr``, an int). The tests
use it as an independent reader of the images :mod:`tanbo_tools.ship.image` writes.
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
PAGE = 256  # payload bytes of a main-flash block, and the alignment of its address
# The largest firmware file read: a 16 MB flash in 256-byte payloads is 32 MB of UF2.
MAX_FILE = 64 * 1024 * 1024


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
    run_total = 0
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
        if i == 0:
            run_total = total
        if i >= run_total:
            raise UF2Error("%s: is one block more than the %d its blocks count (block %d of %d: a "
                           "second file appended, or blocks repeated)" % (where, run_total, number, total))
        if number != i or total != run_total:
            raise UF2Error("%s: is block number %d of %d where %d of %d was expected (blocks missing, "
                           "repeated or reordered)" % (where, number, total, i, run_total))
        if flags & FLAG_FAMILY and family != board.uf2_family:
            raise UF2Error("%s: is for %s (family 0x%08X) but %s is %s (0x%08X)"
                           % (where, family_name(family), family, board.name, board.chip, board.uf2_family))
        if flags & FLAG_NOT_MAIN_FLASH:
            not_main += 1
            continue
        if not flags & FLAG_FAMILY:
            raise UF2Error("%s: has no family ID, so it cannot be confirmed to be for %s (%s)"
                           % (where, board.name, board.chip))
        if size != PAGE or addr % PAGE:
            raise UF2Error("%s: carries %d bytes for 0x%08X; %s's bootloader writes %d-byte pages at "
                           "%d-byte-aligned addresses only" % (where, size, addr, board.name, PAGE, PAGE))
        start, stop = board.flash_range
        if addr < start or addr + size > stop:
            raise UF2Error("%s: writes 0x%08X-0x%08X, outside %s's firmware flash 0x%08X-0x%08X"
                           % (where, addr, addr + size, board.name, start, stop))
        if high is not None and addr < high:
            raise UF2Error("%s: writes 0x%08X, %s the block before (0x%08X-0x%08X): addresses must "
                           "ascend without repeats" % (where, addr, "the address of" if addr == high - PAGE
                                                       else "below", high - PAGE, high))
        payload += size
        if chunks is not None:
            chunks.append((addr, block[32:32 + size]))
        if low is None:
            low = addr
        high = addr + size
    if count < run_total:
        raise UF2Error("%s is truncated: it ends after block %d of %d" % (name, count, run_total))
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
