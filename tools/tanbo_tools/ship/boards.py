"""The boards a Tanbo bundle can target, and what the tools must know of them.

One :class:`Board` per supported handheld. Sources of each field:

- ``board_ids``: CircuitPython's ``board.board_id``, written by the firmware
  into ``boot_out.txt`` as the line ``Board ID:<id>`` (CircuitPython's
  ``main.c`` prints ``"%s\\nBoard ID:%s\\n"`` with the version banner first).
- ``chip`` / ``uf2_family``: the UF2 family ID of the microcontroller
  (Microsoft's ``uf2families.json``: SAMD51 0x55114460, RP2040 0xE48BFF56).
- ``circuitpy_bytes``: bytes of the CIRCUITPY filesystem (the FAT drive), not
  the chip's program flash. PyBadge: 2 MB QSPI chip; PyGamer: 8 MB QSPI chip;
  PicoSystem: 16 MB flash with CIRCUITPY from 1 MB (0x100000) to the end.
  FAT and directory overhead take a little of this; deploy measures the real
  free space on the drive.
- ``bootloader_hints``: substrings of the ``Board-ID:`` line of the UF2
  bootloader's ``INFO_UF2.TXT`` (``SAMD51J19A-PyBadge-v0``,
  ``SAMD51J20A-PyGamer-v0`` / ``SAMD51J19A-PyGamer-M4``, ``RPI-RP2``);
  ``chip_hint`` must appear for the drive to be accepted at all.
- ``flash_range``: ``(start, end)`` addresses a firmware UF2 may write:
  SAMD51J19 (PyBadge, 512 KB) and SAMD51J20 (PyGamer, 1 MB) from 0x4000,
  after the 16 KB UF2 bootloader; RP2040 XIP flash 0x10000000 + 16 MB.
- ``circuitpy_addr``: where CIRCUITPY starts in the address space a UF2 can
  write, for boards whose UF2 bootloader writes that flash (PicoSystem: XIP
  0x10000000 + 0x100000, after CircuitPython's 1020 KB firmware and 4 KB NVM,
  ``ports/raspberrypi/mpconfigport.h``); None where CIRCUITPY is on a chip the
  bootloader cannot write (the SAMD51 boards' QSPI flash).
- ``module``: the hardware module in ``device/boards/`` that the bundle for
  this board carries (the app picks it at run time by ``board.board_id``).
"""

from collections import namedtuple

MB = 1024 * 1024


# A supported board; keyword construction only, by convention (twelve facts in
# a row are unreadable). Immutable: the tools read it, never change it.
Board = namedtuple("Board", "name board_ids model chip uf2_family circuitpy_bytes display module "
                            "chip_hint bootloader_hints boot_labels flash_range circuitpy_addr",
                   defaults=(None,))


# The chip facts both Adafruit boards share.
SAMD51 = {"chip": "SAMD51", "uf2_family": 0x55114460, "chip_hint": "SAMD51"}

BOARDS = {
    "pybadge": Board(
        name="pybadge", board_ids=("pybadge",), model="Adafruit PyBadge / PyBadge LC / EdgeBadge",
        circuitpy_bytes=2 * MB, display="160x128 ST7735R", module="pybadge",
        bootloader_hints=("PyBadge", "BadgeLC", "EdgeBadge"), boot_labels=("PYBADGEBOOT", "BADGELCBOOT"),
        flash_range=(0x4000, 0x80000), **SAMD51),
    "pygamer": Board(
        name="pygamer", board_ids=("pygamer",), model="Adafruit PyGamer",
        circuitpy_bytes=8 * MB, display="160x128 ST7735R", module="pygamer",
        bootloader_hints=("PyGamer",), boot_labels=("PYGAMERBOOT",),
        flash_range=(0x4000, 0x100000), **SAMD51),
    "picosystem": Board(
        name="picosystem", board_ids=("pimoroni_picosystem",), model="Pimoroni PicoSystem",
        chip="RP2040", uf2_family=0xE48BFF56, circuitpy_bytes=15 * MB, display="240x240 ST7789",
        module="picosystem", chip_hint="RPI-RP2", bootloader_hints=("RPI-RP2",), boot_labels=("RPI-RP2",),
        flash_range=(0x10000000, 0x11000000), circuitpy_addr=0x10100000),
}

# Every UF2 family the flash command can name in an error message.
FAMILY_NAMES = {0x55114460: "SAMD51", 0x68ED2B88: "SAMD21", 0xE48BFF56: "RP2040",
                0xE48BFF59: "RP2350-ARM-S", 0xADA52840: "NRF52840", 0xC47E5767: "ESP32S3",
                0xBFDD4EEE: "ESP32S2"}


def get_board(name):
    """The :class:`Board` called ``name`` (also accepts a ``board_id``); ValueError naming the choices."""
    key = (name or "").strip().lower()
    if key in BOARDS:
        return BOARDS[key]
    for board in BOARDS.values():
        if key in board.board_ids:
            return board
    raise ValueError("unknown board %r; choose one of: %s" % (name, ", ".join(sorted(BOARDS))))


def board_for_id(board_id):
    """The :class:`Board` whose CircuitPython ``board_id`` is ``board_id``, or None."""
    for board in BOARDS.values():
        if board_id in board.board_ids:
            return board
    return None


def family_name(family):
    """Readable name of a UF2 family ID (``0x…`` when unknown)."""
    return FAMILY_NAMES.get(family, "0x%08X" % family)
