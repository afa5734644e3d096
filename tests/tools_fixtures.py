"""Fixtures for the build/deploy/flash tests: a small fake device tree, drives, UF2 files."""

import os
import struct

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORE = os.path.join(REPO, "core")

# A device app shaped like the real one: code.py -> boards (picked by
# board_id) -> app package -> tanbo. Lazy imports inside functions, a board
# module that reuses another's, an asset, and a module nothing imports.
FAKE_DEVICE = {
    "code.py": "import boards\nfrom app import main\nmain.run(boards.hardware())\n",
    "boards/__init__.py": (
        "import board\n"
        "def hardware():\n"
        "    if board.board_id == 'pybadge':\n"
        "        from . import pybadge as m\n"
        "    elif board.board_id == 'pygamer':\n"
        "        from . import pygamer as m\n"
        "    else:\n"
        "        m = __import__('boards.picosystem').picosystem\n"
        "    return m.hardware()\n"),
    "boards/common.py": "class Hardware:\n    pass\n",
    "boards/pybadge.py": "import keypad\nfrom .common import Hardware\ndef hardware():\n    return Hardware()\n",
    "boards/pygamer.py": "from .pybadge import hardware\n",
    "boards/picosystem.py": "import keypad\nfrom boards.common import Hardware\ndef hardware():\n    return Hardware()\n",
    "app/__init__.py": "",
    "app/main.py": (
        "import tanbo\n"
        "def run(hw):\n"
        "    from app import screen\n"
        "    g = tanbo.Game('9x9')\n"
        "    screen.show(g.position())\n"),
    "app/screen.py": "import displayio\ndef show(text):\n    print(text)\n",
    "app/font.bdf": "STARTFONT 2.1\nENDFONT\n",
    "app/unused.py": "import nothing_here\n",
}


def write_tree(root, files):
    """Write ``{relative path: text or bytes}`` under ``root``; return ``root``."""
    for rel, data in files.items():
        full = os.path.join(str(root), *rel.split("/"))
        os.makedirs(os.path.dirname(full), exist_ok=True)
        mode = "wb" if isinstance(data, bytes) else "w"
        with open(full, mode) as f:
            f.write(data)
    return str(root)


def fake_device(tmp_path, extra=None):
    """A fake ``device/`` folder in ``tmp_path`` (plus ``extra`` files); returns its path."""
    files = dict(FAKE_DEVICE)
    files.update(extra or {})
    return write_tree(os.path.join(str(tmp_path), "device"), files)


def boot_out(board_id="pybadge", version="10.2.1",
             banner="Adafruit PyBadge with samd51j19"):
    """``boot_out.txt`` as CircuitPython writes it (version line, Board ID, UID)."""
    return ("Adafruit CircuitPython %s on 2025-10-09; %s\nBoard ID:%s\nUID:C7FD1A2B3C4D5E6F\n"
            % (version, banner, board_id))


def circuitpy_drive(tmp_path, name="CIRCUITPY", **kw):
    """A folder laid out like a fresh CIRCUITPY drive with a user's own files."""
    return write_tree(os.path.join(str(tmp_path), name), {
        "boot_out.txt": boot_out(**kw),
        "settings.toml": "# my wifi\n",
        "lib/my_driver.py": "print('mine')\n",
        "notes.txt": "user notes\n",
    })


UF2_MAGIC0, UF2_MAGIC1, UF2_MAGIC_END = 0x0A324655, 0x9E5D5157, 0x0AB16F30


def uf2_block(addr, size, number, total, family=0x55114460, flags=0x2000, data=b""):
    """One 512-byte UF2 block with these header fields (``data`` padded to the 476-byte field)."""
    return (struct.pack("<8I", UF2_MAGIC0, UF2_MAGIC1, flags, addr, size, number, total, family)
            + data[:476].ljust(476, b"\0") + struct.pack("<I", UF2_MAGIC_END))


def uf2_blocks(payload, family=0x55114460, base=0x4000, flags=0x2000):
    """UF2 bytes carrying ``payload`` in 256-byte blocks for ``family`` (the last one padded
    with 0xFF to 256 bytes, as uf2conv and picotool write it)."""
    chunks = [payload[i:i + 256].ljust(256, b"\xff") for i in range(0, len(payload), 256)] or [b""]
    return b"".join(uf2_block(base + 256 * i, len(chunk), i, len(chunks), family, flags, chunk)
                    for i, chunk in enumerate(chunks))


RP2040 = 0xE48BFF56


def circuitpython_uf2(version="10.2.1", board_id="pimoroni_picosystem",
                      machine="Pimoroni PicoSystem with rp2040", size=20000, family=RP2040,
                      base=0x10000000, extra=b""):
    """A CircuitPython-like firmware UF2: code-like bytes holding the version banner and board id
    as CircuitPython's binary does (``MICROPY_FULL_VERSION_INFO``, ``CIRCUITPY_BOARD_ID``),
    then ``extra`` bytes."""
    banner = extra
    if version:
        banner = ("\0Adafruit CircuitPython %s on 2025-10-09; %s\0%s\0"
                  % (version, machine, board_id)).encode("ascii") + extra
    # The banner straddles a 256-byte block boundary, as it may in a real file.
    filler = bytes((i * 7 + 3) & 0xFF for i in range(size))
    cut = 256 * 5 - 20
    payload = filler[:cut] + banner + filler[cut:]
    # Full 256-byte payloads, as elf2uf2/picotool write them.
    return uf2_blocks(payload + b"\xff" * (-len(payload) % 256), family, base)
