"""tanbo build --uf2: one PicoSystem UF2 holding CircuitPython and a CIRCUITPY drive with the game.

The result is read back with tools independent of the writer: Microsoft's
uf2conv (PyPI adafruit-uf2) flattens the blocks into flash contents, and
ChaN's FatFS (PyPI fatfs-ng; CircuitPython mounts CIRCUITPY with a fork of
it) mounts the drive found at CIRCUITPY's address.
"""

import builtins
import contextlib
import hashlib
import io
import json
import os
import struct

import pytest

from tanbo_tools import mpy
from tanbo_tools.ship import bundle, deploy, flash, image, uf2
from tanbo_tools.ship.boards import get_board
from tanbo_tools.cli import main as cli_main
from tools_fixtures import CORE, RP2040, boot_out, circuitpython_uf2, fake_device, write_tree

fatfs = pytest.importorskip("fatfs")
uf2conv = pytest.importorskip("adafruit_uf2.uf2conv")

PICO = get_board("picosystem")
XIP = 0x10000000
RP2_INFO = "UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n"


def build_image(tmp_path, firmware, *extra, out="out"):
    """Run ``tanbo build --board picosystem --uf2 firmware``; return (exit code, output folder)."""
    fw = tmp_path / "fw.uf2"
    fw.write_bytes(firmware) if isinstance(firmware, bytes) else None
    device = fake_device(tmp_path)
    out_dir = tmp_path / out
    args = ["build", "--board", "picosystem", "--no-verify", "--device", device, "--core", CORE,
            "--out", str(out_dir), "--uf2", str(fw) if isinstance(firmware, bytes) else firmware]
    return cli_main(args + list(extra)), out_dir


def the_image(out_dir):
    found = [n for n in os.listdir(str(out_dir)) if n.endswith(".uf2")]
    assert found == ["tanbo-picosystem-%s.uf2" % manifest_of(out_dir)["version"]]
    return (out_dir / found[0]).read_bytes()


def manifest_of(out_dir):
    [name] = [n for n in os.listdir(str(out_dir)) if os.path.isdir(str(out_dir / n))]
    with open(str(out_dir / name / "manifest.json")) as f:
        return json.load(f)


def headers(data):
    return [struct.unpack_from("<8I", data, i) + (data[i + 32:i + 508],)
            for i in range(0, len(data), 512)]


def flat_flash(data):
    """Flash contents from XIP_BASE, as Microsoft's uf2conv rebuilds them (gaps zero-filled)."""
    with contextlib.redirect_stdout(io.StringIO()):  # it prints a summary
        uf2conv.familyid = RP2040
        flat = uf2conv.convert_from_uf2(data)
    assert uf2conv.appstartaddr == XIP
    return flat


def mount(volume):
    """The FAT volume ``volume`` mounted by ChaN's FatFS; ``{path: bytes}`` of every file."""
    disk = fatfs.RamDisk(bytearray(volume), sector_size=512)
    part = fatfs.create_extended_partition(disk)
    part.mount()
    files = {}
    for root, _, names in part.walk("/"):
        for name in names:
            path = (root.rstrip("/") + "/" + name).lstrip("/")
            files[path] = part.read_file("/" + path)
    part.unmount()
    return files


def test_image_is_the_firmware_blocks_plus_a_fat_drive_holding_the_bundle(tmp_path, capsys):
    firmware = circuitpython_uf2()
    code, out_dir = build_image(tmp_path, firmware)
    assert code == 0, capsys.readouterr().err
    assert "CircuitPython 10.2.1" in capsys.readouterr().out
    data = the_image(out_dir)
    blocks = headers(data)
    n = len(blocks)
    # One numbering across the file (the RP2040 boot ROM counts to one total),
    # every block for the RP2040 family in main flash.
    for i, (m0, m1, flags, addr, size, number, total, family, _) in enumerate(blocks):
        assert (m0, m1, number, total, family, flags) == (uf2.MAGIC0, uf2.MAGIC1, i, n, RP2040, 0x2000)
    assert data[508:512] == struct.pack("<I", uf2.MAGIC_END)
    # The firmware's blocks come first, unchanged apart from their numbers.
    fw_blocks = headers(firmware)
    k = len(fw_blocks)
    for ours, theirs in zip(blocks[:k], fw_blocks):
        assert ours[2:5] + ours[7:] == theirs[2:5] + theirs[7:]
    # Then the drive: contiguous 256-byte payloads from CIRCUITPY's address, in whole 4 KB sectors.
    fs = blocks[k:]
    assert [b[3] for b in fs] == [PICO.circuitpy_addr + 256 * i for i in range(len(fs))]
    assert PICO.circuitpy_addr == XIP + 0x100000 and (len(fs) * 256) % 4096 == 0
    assert fs[-1][3] + 256 <= XIP + 16 * 1024 * 1024
    assert uf2.check_uf2(data, PICO).blocks == n

    flat = flat_flash(data)
    fw_payload = b"".join(b[8][:b[4]] for b in fw_blocks)
    assert flat[:len(fw_payload)] == fw_payload
    volume = flat[0x100000:].ljust(15 * 1024 * 1024, b"\xff")  # the rest is erased flash
    assert volume[510:512] == b"\x55\xaa"
    files = mount(volume)
    manifest = manifest_of(out_dir)
    bundle_files = {e["path"]: e["sha256"] for e in manifest["files"]}
    ours = {p: hashlib.sha256(d).hexdigest() for p, d in files.items()
            if p != deploy.DRIVE_MANIFEST and not p.startswith((".fseventsd", ".metadata", ".Trash"))}
    assert ours == bundle_files
    # CircuitPython's own formatter makes these; the image has them too.
    assert {".fseventsd/no_log", ".metadata_never_index", ".Trashes"} <= set(files)
    # deploy's record, so a later `tanbo deploy` knows the files are its own.
    record = json.loads(files[deploy.DRIVE_MANIFEST].decode())
    assert record["files"] == bundle_files and record["bundle"] == manifest["name"]


def test_the_firmware_is_read_once(tmp_path, monkeypatch):
    fw = tmp_path / "fw.uf2"
    fw.write_bytes(circuitpython_uf2())
    opened = []
    real_open = builtins.open

    def counting_open(file, *args, **kwargs):
        if isinstance(file, (str, os.PathLike)) and os.path.abspath(file) == str(fw):
            opened.append(args[:1] or kwargs.get("mode"))
        return real_open(file, *args, **kwargs)

    real_os_open = os.open

    def counting_os_open(file, flags, *args, **kwargs):
        if isinstance(file, (str, os.PathLike)) and os.path.abspath(file) == str(fw):
            opened.append(("rb",) if flags & (os.O_WRONLY | os.O_RDWR) == 0 else ("w",))
        return real_os_open(file, flags, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", counting_open)
    monkeypatch.setattr(os, "open", counting_os_open)
    code, out_dir = build_image(tmp_path, str(fw))
    monkeypatch.undo()
    assert code == 0 and opened == [("rb",)]
    fw_blocks = headers(fw.read_bytes())
    # Its blocks, walked by the check, are the image's first ones.
    assert [b[3:5] + b[8:] for b in headers(the_image(out_dir))[:len(fw_blocks)]] == \
        [b[3:5] + b[8:] for b in fw_blocks]


def small_manifest(files, board=PICO):
    return bundle.make_manifest("t", board, "0", 10, False, files, [], "test")


@pytest.mark.parametrize("change", ["size", "missing", "extra"])
def test_a_manifest_that_does_not_list_the_files_writes_no_image(tmp_path, change):
    fw = tmp_path / "fw.uf2"
    fw.write_bytes(circuitpython_uf2())
    firmware = image.check_firmware(str(fw), PICO)
    files = {"code.py": b"print(1)\n", "lib/a.mpy": b"C\x06" + bytes(300)}
    manifest = small_manifest(files)
    if change == "size":
        files["lib/a.mpy"] += b"\0"
    elif change == "missing":
        del files["lib/a.mpy"]
    else:
        files["lib/b.mpy"] = b"C\x06"
    with pytest.raises(mpy.BuildError, match="do not match its manifest .*lib/.\\.mpy"):
        image.write_image(firmware, files, manifest, PICO, str(tmp_path), "0")
    assert sorted(os.listdir(str(tmp_path))) == ["fw.uf2"]


def test_deploy_onto_the_flashed_drive_finds_it_up_to_date(tmp_path, capsys):
    code, out_dir = build_image(tmp_path, circuitpython_uf2())
    assert code == 0
    files = mount(flat_flash(the_image(out_dir))[0x100000:].ljust(15 * 1024 * 1024, b"\xff"))
    files["boot_out.txt"] = boot_out("pimoroni_picosystem", banner="Pimoroni PicoSystem with rp2040")
    drive = write_tree(tmp_path / "CIRCUITPY", files)
    bundle_dir = str(out_dir / manifest_of(out_dir)["name"])
    lines = []
    plan = deploy.deploy(bundle_dir, drive, log=lines.append)
    assert not plan.copy and not plan.remove
    assert "already up to date" in lines[-1]


def test_image_is_reproducible(tmp_path):
    assert build_image(tmp_path, circuitpython_uf2(), out="a")[0] == 0
    assert build_image(tmp_path, circuitpython_uf2(), out="b")[0] == 0
    assert the_image(tmp_path / "a") == the_image(tmp_path / "b")


@pytest.mark.skipif(not hasattr(__import__("time"), "tzset"), reason="no time.tzset here")
def test_the_drive_is_the_same_in_every_time_zone(monkeypatch):
    import time

    files = {"code.py": b"print(1)\n", "lib/a.mpy": b"C\x06" + bytes(300)}
    manifest = small_manifest(files)
    images = []
    try:
        for tz in ("UTC", "America/Los_Angeles", "Asia/Kolkata", "Pacific/Kiritimati"):
            monkeypatch.setenv("TZ", tz)
            time.tzset()
            images.append(bytes(image.filesystem(files, manifest, PICO).image[:64 * 1024]))
    finally:
        monkeypatch.undo()
        time.tzset()
    assert images.count(images[0]) == len(images)


def test_flash_accepts_the_combined_file(tmp_path):
    code, out_dir = build_image(tmp_path, circuitpython_uf2())
    assert code == 0
    [name] = [n for n in os.listdir(str(out_dir)) if n.endswith(".uf2")]
    drive = write_tree(tmp_path / "RPI-RP2", {"INFO_UF2.TXT": RP2_INFO, "INDEX.HTM": "x"})
    seen = {}

    def write(data, drive, name):
        seen["data"] = data
        os.remove(os.path.join(drive, "INFO_UF2.TXT"))  # the boot ROM restarts
        return len(data)

    logged = []
    summary = flash.flash(str(out_dir / name), board=PICO, drive=drive, write=write,
                          log=logged.append)
    assert seen["data"] == (out_dir / name).read_bytes()
    assert any("replaces every file on the board's CIRCUITPY" in line for line in logged)
    assert summary.high > PICO.circuitpy_addr


OTHER_BOARD = dict(board_id="raspberry_pi_pico", machine="Raspberry Pi Pico with rp2040")


@pytest.mark.parametrize("firmware, extra, match", [
    (circuitpython_uf2(family=0x55114460, base=0x4000), [], "is for SAMD51"),
    (b"<html>not a uf2</html>\n", [], "not a whole number"),
    (b"\0" * 1024, [], "bad magic"),
    (circuitpython_uf2()[:-512], [], "truncated"),
    (circuitpython_uf2("8.2.10"), [], "8.2.10, which reads .mpy v5, but the bundle's .mpy files are v6"),
    (circuitpython_uf2("11.0.0"), [], "11.0.0, which is not known"),
    (circuitpython_uf2("10.2.1"), ["--cp", "9"], "bundle is for CircuitPython 9"),
    (circuitpython_uf2(**OTHER_BOARD), [], "Raspberry Pi Pico with rp2040, not CircuitPython for"),
    (circuitpython_uf2(base=XIP + 0x100000 - 512), [], "inside picosystem's CIRCUITPY"),
    (circuitpython_uf2(version=None, extra=b"MicroPython v1.26.0 on 2025-08-09; Raspberry Pi Pico"),
     [], "is MicroPython"),
    ("/nonexistent/fw.uf2", [], "cannot read the firmware"),
])
def test_bad_firmware_is_refused_before_anything_is_written(tmp_path, capsys, firmware, extra, match):
    code, out_dir = build_image(tmp_path, firmware, *extra)
    err = capsys.readouterr().err
    assert code == 1 and match in err and "Traceback" not in err
    assert not out_dir.exists()


def test_a_board_without_a_writable_circuitpy_is_told_to_use_deploy(tmp_path, capsys):
    fw = tmp_path / "fw.uf2"
    fw.write_bytes(circuitpython_uf2(family=0x55114460, base=0x4000))
    assert cli_main(["build", "--board", "pybadge", "--no-verify", "--uf2", str(fw),
                     "--out", str(tmp_path / "out")]) == 1
    assert "tanbo deploy" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_a_bundle_that_does_not_fit_the_drive_writes_no_image(tmp_path):
    fw = tmp_path / "fw.uf2"
    fw.write_bytes(circuitpython_uf2())
    tiny = PICO._replace(name="tiny", circuitpy_bytes=64 * 1024,
                         flash_range=(XIP, XIP + 0x100000 + 64 * 1024))
    firmware = image.check_firmware(str(fw), tiny)
    files = {"code.py": b"print(1)\n", "lib/big.bin": os.urandom(80 * 1024)}
    manifest = small_manifest(files, tiny)
    with pytest.raises(mpy.BuildError, match="does not fit tiny's 65536-byte CIRCUITPY"):
        image.write_image(firmware, files, manifest, tiny, str(tmp_path), "0")
    assert sorted(os.listdir(str(tmp_path))) == ["fw.uf2"]
