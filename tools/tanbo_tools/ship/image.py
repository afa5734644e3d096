"""One UF2 that installs CircuitPython and the game together (``tanbo build --uf2``).

For boards whose UF2 bootloader can write the flash that holds CIRCUITPY
(PicoSystem: RP2040, 16 MB, CIRCUITPY from 0x100000 to the end; see
``Board.circuitpy_addr``), the image is the CircuitPython UF2 the player
downloaded plus a FAT filesystem holding the bundle at CIRCUITPY's address.
Dragged onto the bootloader drive it flashes both: the board restarts into
CircuitPython, which mounts the filesystem as CIRCUITPY and runs ``code.py``.

PyPI ``folder2uf2`` does the layout: its FAT geometry is the one
CircuitPython's own ``f_mkfs`` makes for that flash, and its combine step
keeps the firmware's payloads, addresses and family and numbers all blocks
across the one file (the RP2040 boot ROM counts blocks against a single
total). Only the used part of the filesystem is written, so the file stays
small. The drive also gets ``deploy``'s ``.tanbo-manifest.json``, so a later
``tanbo deploy`` knows these files are its own.

The image is reproducible: fixed FAT dates (1980-01-01, as in the zip) and a
volume serial number derived from the contents.
"""

import hashlib
import os
import re
import time

import tanbo_files as files_mod

from .. import mpy
from . import drives, uf2
from .boards import family_name
from .deploy import DRIVE_MANIFEST, drive_manifest_text

SECTOR = 512
_BANNER = re.compile(rb"Adafruit CircuitPython [\x20-\x7e]{5,160}")
_MICROPYTHON = re.compile(rb"MicroPython v\d+\.\d+")


class FirmwareInfo:
    """A checked firmware UF2: its ``summary``, main-flash ``blocks`` ``[(address, payload)]`` in
    file order (as folder2uf2's ``write_uf2_blocks`` takes them), and
    ``banner``/``version``/``major`` read from it (None when it has no CircuitPython banner)."""

    def __init__(self, path, summary, blocks, banner):
        self.path = path
        self.summary = summary
        self.blocks = blocks
        self.banner = banner
        parsed = drives.parse_boot_out(banner) if banner else None
        self.version = parsed["version"] if parsed else None
        self.major = parsed["major"] if parsed else None


def _folder2uf2():
    try:
        import folder2uf2
    except ImportError:
        raise mpy.BuildError("--uf2 needs folder2uf2: pip install -e '.[dev]' (or pip install "
                             "folder2uf2==0.1.2)")
    return folder2uf2


def supports_image(board):
    """True when ``board``'s UF2 bootloader can write its CIRCUITPY flash."""
    return board.circuitpy_addr is not None


def check_firmware(path, board):
    """Read and check the CircuitPython UF2 at ``path`` for ``board``; return :class:`FirmwareInfo`.

    BuildError (nothing written) when it is not a UF2, is for another chip or
    board, is MicroPython, or already reaches into CIRCUITPY.
    """
    name = os.path.basename(path)
    if not supports_image(board):
        raise mpy.BuildError("%s keeps CIRCUITPY on flash its UF2 bootloader cannot write, so no "
                             "one-file image exists for it: flash CircuitPython with tanbo flash, "
                             "then copy the game with tanbo deploy" % board.name)
    _folder2uf2()  # without it no image can be written: say so before anything is read or built
    try:
        data = files_mod.read_regular(path, uf2.MAX_FILE, "the firmware")
    except files_mod.FileProblem as exc:
        raise mpy.BuildError("%s; no image was written" % exc)
    blocks = []
    try:
        summary = uf2.check_uf2(data, board, name, blocks)
    except uf2.UF2Error as exc:
        raise mpy.BuildError("%s; no image was written" % exc)
    if summary.not_main:
        raise mpy.BuildError("%s has %d blocks marked 'not main flash'; a CircuitPython firmware "
                             "has none, so it is refused" % (name, summary.not_main))
    if summary.high > board.circuitpy_addr:
        raise mpy.BuildError("%s already writes 0x%08X-0x%08X, inside %s's CIRCUITPY (from 0x%08X): "
                             "is it an image with a drive already? Give the plain CircuitPython UF2"
                             % (name, summary.low, summary.high, board.name, board.circuitpy_addr))
    payload = b"".join(chunk for _, chunk in sorted(blocks, key=lambda b: b[0]))
    m = _BANNER.search(payload)
    if m is None and _MICROPYTHON.search(payload):
        raise mpy.BuildError("%s is MicroPython firmware, not CircuitPython" % name)
    banner = m.group(0).decode("ascii") if m else None
    if banner and not any(bid.encode() in payload for bid in board.board_ids):
        raise mpy.BuildError("%s is %s, not CircuitPython for %s (board id %s not in the firmware)"
                             % (name, banner, board.model, " or ".join(board.board_ids)))
    return FirmwareInfo(path, summary, blocks, banner)


def check_mpy_format(firmware, manifest):
    """BuildError when ``firmware``'s CircuitPython cannot load the bundle ``manifest`` describes."""
    if firmware.major is None:
        return
    name = os.path.basename(firmware.path)
    if firmware.major != manifest["circuitpython"]:
        raise mpy.BuildError("%s is CircuitPython %s but the bundle is for CircuitPython %d; build "
                             "with --cp %d (or leave --cp out)"
                             % (name, firmware.version, manifest["circuitpython"], firmware.major))
    if manifest["format"] != "mpy":
        return
    reads = mpy.CIRCUITPYTHON_MPY.get(firmware.major)
    if reads != manifest["mpy_version"]:
        known = "reads .mpy v%d" % reads if reads else "is not known to this tool"
        raise mpy.BuildError("%s is CircuitPython %s, which %s, but the bundle's .mpy files are v%d; "
                             "use CircuitPython %s firmware (or --py)"
                             % (name, firmware.version, known, manifest["mpy_version"],
                                " or ".join(str(m) for m, v in sorted(mpy.CIRCUITPYTHON_MPY.items())
                                            if v == manifest["mpy_version"])))


def drive_bytes(board):
    """Size of ``board``'s CIRCUITPY filesystem in the image."""
    return board.flash_range[1] - board.circuitpy_addr


def image_name(board, version):
    return "tanbo-%s-%s.uf2" % (board.name, version)


def _fixed_time():
    # folder2uf2 stamps entries with time.localtime(ts): a local-time ts gives
    # the same FAT date in every time zone.
    return time.mktime((1980, 1, 1, 0, 0, 0, 0, 1, -1))


def listed_hashes(files, manifest):
    """``{path: sha256}`` of ``files`` as the bundle ``manifest`` lists them (no hashing again).

    The manifest was made from these bytes by the same build; BuildError
    naming the paths when it does not list exactly these files at these
    sizes (another bundle's manifest), since a drive record that lies would
    make a later ``tanbo deploy`` trust the wrong files.
    """
    listed = {e["path"]: e for e in manifest["files"]}
    differ = sorted(p for p in set(listed) | set(files)
                    if p not in files or p not in listed or listed[p]["size"] != len(files[p]))
    if differ:
        raise mpy.BuildError("the bundle's files do not match its manifest (%s%s); rebuild it; no "
                             "image was written" % (", ".join(differ[:3]), ", ..." if differ[3:] else ""))
    return {p: e["sha256"] for p, e in listed.items()}


def filesystem(files, manifest, board):
    """folder2uf2's ``FatBuilder`` laid out with ``files`` (``{path: bytes}``) plus the drive manifest.

    The drive manifest takes the files' hashes from the bundle ``manifest``
    (see :func:`listed_hashes`). BuildError naming the sizes when the bundle
    does not fit the drive.
    """
    f2u = _folder2uf2()
    ts = _fixed_time()
    owned = listed_hashes(files, manifest)
    contents = dict(files)
    contents[DRIVE_MANIFEST] = drive_manifest_text(manifest, owned).encode("utf-8")
    # Nodes made here rather than by folder2uf2's build_tree, which stamps
    # each file with its mtime (a rebuild would change the image).
    root = f2u.Node("", is_dir=True, ts=ts)
    for rel, data in f2u.EXTRA_FILES:
        contents.setdefault(rel, data)
    for path in sorted(contents):
        node = root
        parts = path.split("/")
        for part in parts[:-1]:
            found = [c for c in node.children if c.is_dir and c.name == part]
            if not found:
                found = [f2u.Node(part, is_dir=True, ts=ts)]
                node.children.append(found[0])
            node = found[0]
        node.children.append(f2u.Node(parts[-1], data=contents[path], ts=ts))
    serial = int.from_bytes(hashlib.sha256(contents[DRIVE_MANIFEST]).digest()[:4], "little")
    total = drive_bytes(board)
    try:
        fat = f2u.FatBuilder(f2u.Geometry(total // SECTOR), label="CIRCUITPY", volume_id=serial,
                             build_ts=ts)
        fat.layout(root)
    except ValueError as exc:
        raise mpy.BuildError("the bundle (%d files, %d bytes) does not fit %s's %d-byte CIRCUITPY "
                             "drive (%s); no image was written"
                             % (len(files), sum(len(d) for d in files.values()), board.name, total, exc))
    return fat


def write_image(firmware, files, manifest, board, out_dir, version):
    """Write ``tanbo-<board>-<version>.uf2`` into ``out_dir``; return ``(path, summary, fat)``.

    The file appears whole or not at all (written beside, then renamed).
    """
    f2u = _folder2uf2()
    check_mpy_format(firmware, manifest)
    fat = filesystem(files, manifest, board)
    blocks = firmware.blocks + f2u.image_blocks(fat.image, board.circuitpy_addr,
                                                trim_to=fat.used_bytes())
    path = os.path.join(out_dir, image_name(board, version))
    with files_mod.replacing_path(path, "the image") as tmp:
        f2u.write_uf2_blocks(tmp, blocks, board.uf2_family)
        with open(tmp, "rb") as f:
            summary = uf2.check_uf2(f.read(), board, os.path.basename(path))
    return path, summary, fat


def check_firmware_place(firmware, outputs, bundle_dir):
    """BuildError when the firmware file is one of ``outputs`` (the image and zip this build writes)
    or lies in ``bundle_dir`` (the bundle folder the build replaces): the build would destroy it."""
    real = os.path.realpath(firmware)
    for out in outputs:
        if real == os.path.realpath(out):
            raise mpy.BuildError("the firmware %r is %s, which this build writes; keep the CircuitPython "
                                 "UF2 elsewhere: nothing was written" % (firmware, out))
    folder = os.path.realpath(bundle_dir)
    if real.startswith(folder.rstrip(os.sep) + os.sep):
        raise mpy.BuildError("the firmware %r lies in the bundle folder %s, which the build replaces; "
                             "keep the CircuitPython UF2 elsewhere: nothing was written" % (firmware, bundle_dir))


def describe(path, summary, firmware, fat, board):
    """Lines for the build's report."""
    return [
        "image:    %s (%d bytes, %d blocks, family %s)"
        % (path, os.path.getsize(path), summary.blocks, family_name(summary.family)),
        "          firmware %s: %d blocks%s" % (os.path.basename(firmware.path), len(firmware.blocks),
                                               ", " + firmware.banner if firmware.banner else ""),
        "          CIRCUITPY at 0x%08X: FAT%d, %d of %d bytes used; flashing it replaces "
        "everything on the drive" % (board.circuitpy_addr, fat.geo.fat_type, fat.used_bytes(),
                                     drive_bytes(board)),
    ]
