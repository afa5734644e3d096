"""Find mounted USB drives of CircuitPython boards and read what they say about themselves.

Two kinds of drive:

- CIRCUITPY, the running firmware's filesystem; its ``boot_out.txt`` starts
  with the version banner (``Adafruit CircuitPython 10.2.1 on 2025-10-09;
  Adafruit PyBadge with samd51j19``) and has a ``Board ID:pybadge`` line.
- The UF2 bootloader's drive (``PYBADGEBOOT``, ``RPI-RP2``, …), recognised
  by its ``INFO_UF2.TXT`` whose ``Board-ID:`` line names the chip/board.

Where drives are mounted: Linux ``/media/<user>/*``, ``/run/media/<user>/*``,
``/media/*`` (all users are scanned, so ``$USER`` need not be set); macOS
``/Volumes/*``; Windows every drive letter that has a volume (ctypes
``GetVolumeInformationW``, no extra packages). Tests pass folders instead.
"""

import glob
import os
import re
import sys

import tanbo_files as files

BOOT_OUT = "boot_out.txt"
INFO_UF2 = "INFO_UF2.TXT"
HEAD = 4096  # bytes of boot_out.txt or INFO_UF2.TXT read: what they say is in their first lines

_VERSION = re.compile(r"CircuitPython (\d+)\.(\d+)\.(\d+)(\S*)")


def parse_boot_out(text):
    """``boot_out.txt`` text -> dict(version, major, board_id, banner).

    ``board_id`` is None for firmware older than the ``Board ID:`` line.
    ValueError quoting the first line if it is not a CircuitPython banner.
    """
    lines = text.splitlines()
    first = lines[0].strip() if lines else ""
    m = _VERSION.search(first)
    if not m:
        raise ValueError("boot_out.txt does not start with a CircuitPython version: %r" % first[:80])
    board_id = None
    for line in lines[1:]:
        if line.startswith("Board ID:"):
            board_id = line[len("Board ID:"):].strip()
            break
    return {"version": "%s.%s.%s%s" % m.groups(), "major": int(m.group(1)),
            "board_id": board_id, "banner": first}


def read_boot_out(drive):
    """Parsed ``boot_out.txt`` of ``drive``; ValueError naming the drive when it has none."""
    path = os.path.join(drive, BOOT_OUT)
    try:
        text = files.read_regular(path, HEAD, BOOT_OUT, head=True).decode("utf-8", "replace")
    except files.FileProblem as exc:
        raise ValueError("%s is not a CIRCUITPY drive (%s)" % (drive, exc))
    return parse_boot_out(text)


def parse_info_uf2(text):
    """``INFO_UF2.TXT`` text -> dict of its ``Key: value`` lines (plus ``banner``: the first line)."""
    info = {}
    lines = text.splitlines()
    if lines:
        info["banner"] = lines[0].strip()
    for line in lines:
        key, sep, value = line.partition(":")
        if sep:
            info.setdefault(key.strip(), value.strip())
    return info


def read_info_uf2(drive):
    """Parsed ``INFO_UF2.TXT`` of ``drive``, or None when it has none."""
    try:
        return parse_info_uf2(files.read_regular(os.path.join(drive, INFO_UF2), HEAD, INFO_UF2,
                                                 head=True).decode("utf-8", "replace"))
    except files.FileProblem:
        return None


def _windows_volumes():
    """``[(root, label)]`` of Windows drive letters that have a mounted volume."""
    import ctypes
    kernel32 = ctypes.windll.kernel32
    # No "insert a disk" dialogs for empty card readers while probing.
    old_mode = kernel32.SetErrorMode(1)
    found = []
    try:
        mask = kernel32.GetLogicalDrives()
        for i in range(2, 26):  # C: .. Z:, skipping floppy letters
            if not mask & (1 << i):
                continue
            root = "%s:\\" % chr(ord("A") + i)
            label = ctypes.create_unicode_buffer(261)
            ok = kernel32.GetVolumeInformationW(ctypes.c_wchar_p(root), label, 261,
                                                None, None, None, None, 0)
            if ok:
                found.append((root, label.value))
    finally:
        kernel32.SetErrorMode(old_mode)
    return found


def mounted_volumes(platform=None, root="/"):
    """``[(path, label)]`` of mounted removable-looking volumes on this computer.

    ``root`` stands in for ``/`` (tests lay out a fake ``media/`` there).
    """
    platform = platform or sys.platform
    if platform.startswith("win"):
        return _windows_volumes()
    if platform == "darwin":
        patterns = ["Volumes/*"]
    else:
        patterns = ["media/*/*", "run/media/*/*", "media/*", "mnt/*"]
    seen = []
    for pattern in patterns:
        for path in sorted(glob.glob(os.path.join(root, pattern))):
            if os.path.isdir(path) and path not in [p for p, _ in seen]:
                seen.append((path, os.path.basename(path)))
    return seen


def find_circuitpy(volumes=None):
    """Paths of mounted CIRCUITPY drives: label ``CIRCUITPY…`` and a ``boot_out.txt``."""
    volumes = mounted_volumes() if volumes is None else volumes
    return [path for path, label in volumes
            if label.upper().startswith("CIRCUITPY") and os.path.isfile(os.path.join(path, BOOT_OUT))]


def find_bootloaders(volumes=None):
    """``[(path, info dict)]`` of mounted UF2 bootloader drives (they hold ``INFO_UF2.TXT``)."""
    volumes = mounted_volumes() if volumes is None else volumes
    found = []
    for path, _ in volumes:
        info = read_info_uf2(path)
        if info is not None:
            found.append((path, info))
    return found
