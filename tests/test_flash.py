"""tanbo flash: UF2 checks, bootloader drives laid out like real ones, the 1200-baud touch."""

import os
import sys

import pytest

from tanbo_tools.ship import flash, uf2
from tanbo_tools.ship.boards import get_board
from tanbo_tools.cli import main as cli_main
from tools_fixtures import uf2_block, uf2_blocks, write_tree

SAMD51, RP2040 = 0x55114460, 0xE48BFF56
FIRMWARE = bytes(range(256)) * 20  # 5120 bytes -> 20 blocks
PYBADGE_INFO = "UF2 Bootloader v3.15.0 SFHWRO\r\nModel: PyBadge\r\nBoard-ID: SAMD51J19A-PyBadge-v0\r\n"
PYGAMER_INFO = "UF2 Bootloader v3.15.0 SFHWRO\r\nModel: PyGamer\r\nBoard-ID: SAMD51J20A-PyGamer-v0\r\n"
RP2_INFO = "UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n"


def pybadge_fw():
    return uf2_blocks(FIRMWARE, SAMD51, 0x4000)


def write_fw(tmp_path, data, name="fw.uf2"):
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def boot_drive(tmp_path, info=PYBADGE_INFO, name="PYBADGEBOOT"):
    return write_tree(tmp_path / name, {"INFO_UF2.TXT": info, "INDEX.HTM": "<html></html>",
                                        "CURRENT.UF2": b"\0" * 512})


class FakeClock:
    """Time that moves only when slept: timeouts without waiting."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now

    def sleep(self, dt):
        self.now += dt


def rebooting_write(data, drive, name):
    """Write like the real function, then vanish like a bootloader that got all blocks."""
    n = flash.write_firmware(data, drive, name)
    with open(os.path.join(drive, name), "rb") as f:
        rebooting_write.seen = f.read()
    os.remove(os.path.join(drive, "INFO_UF2.TXT"))
    return n


def quiet(*a):
    pass


def test_valid_firmware_is_summarised():
    s = uf2.check_uf2(pybadge_fw(), get_board("pybadge"))
    assert (s.blocks, s.payload, s.low, s.high) == (20, 5120, 0x4000, 0x4000 + 5120)
    assert "SAMD51" in s.describe()
    rp = uf2.check_uf2(uf2_blocks(FIRMWARE, RP2040, 0x10000000), get_board("picosystem"))
    assert rp.family == RP2040


@pytest.mark.parametrize("mutate,match", [
    (lambda d: d[:-100], "not a whole number of 512-byte blocks"),
    (lambda d: d[:512 * 7], "truncated: it ends after block 7 of 20"),
    (lambda d: d[:512] + d[1024:], "block 1: is block number 2 of 20 where 1 of 20 was expected"),
    (lambda d: d[:1024] + b"\xff" + d[1025:], "block 2: bad magic"),
    (lambda d: d[:512 * 3 + 508] + b"\0\0\0\0" + d[512 * 4:], "block 3: bad magic"),
    (lambda d: b"", "empty"),
])
def test_damaged_files_are_refused(mutate, match):
    with pytest.raises(uf2.UF2Error, match=match):
        uf2.check_uf2(mutate(pybadge_fw()), get_board("pybadge"), "fw.uf2")


def test_wrong_family_missing_family_and_bad_addresses_are_refused():
    badge = get_board("pybadge")
    with pytest.raises(uf2.UF2Error, match=r"is for RP2040 \(family 0xE48BFF56\) but pybadge is SAMD51"):
        uf2.check_uf2(uf2_blocks(FIRMWARE, RP2040, 0x4000), badge)
    with pytest.raises(uf2.UF2Error, match="no family ID"):
        uf2.check_uf2(uf2_blocks(FIRMWARE, SAMD51, 0x4000, flags=0), badge)
    with pytest.raises(uf2.UF2Error, match="outside pybadge's firmware flash"):
        uf2.check_uf2(uf2_blocks(FIRMWARE, SAMD51, 0x0), badge)   # would hit the bootloader
    with pytest.raises(uf2.UF2Error, match="outside pybadge's"):
        uf2.check_uf2(uf2_blocks(FIRMWARE, SAMD51, 0x7FF00), badge)  # past 512 KB
    assert uf2.check_uf2(uf2_blocks(FIRMWARE, SAMD51, 0x7FF00), get_board("pygamer")).blocks == 20
    with pytest.raises(uf2.UF2Error, match="file container"):
        uf2.check_uf2(uf2_blocks(FIRMWARE, SAMD51, 0x4000, flags=0x3000), badge)


def test_not_main_flash_blocks_are_accepted_and_combined_runs_refused():
    badge = get_board("pybadge")
    blocks = [uf2_block(0x4000 + 256 * i, 256, i, 22, SAMD51) for i in range(20)]
    blocks[7:7] = [uf2_block(0, 300, 7, 22, 0, flags=uf2.FLAG_NOT_MAIN_FLASH),
                   uf2_block(0, 100, 8, 22, 0, flags=uf2.FLAG_NOT_MAIN_FLASH)]
    for i in range(9, 22):
        blocks[i] = uf2_block(0x4000 + 256 * (i - 2), 256, i, 22, SAMD51)
    s = uf2.check_uf2(b"".join(blocks), badge)
    assert (s.payload, s.blocks, s.not_main) == (5120, 22, 2)
    # Two runs (each numbered from 0) are two files in one: the RP2040 boot ROM counts one total.
    with pytest.raises(uf2.UF2Error, match="block 20: is one block more than the 20 its blocks count"):
        uf2.check_uf2(pybadge_fw() + uf2_blocks(b"y" * 768, SAMD51, 0x20000), badge)


def test_flash_copies_to_the_bootloader_drive_and_waits_for_it_to_vanish(tmp_path):
    drive = boot_drive(tmp_path)
    other = write_tree(tmp_path / "USBSTICK", {"photo.jpg": "x"})
    fw = write_fw(tmp_path, pybadge_fw())
    clock = FakeClock()
    logged = []
    flash.flash(fw, get_board("pybadge"), volumes=[(other, "USBSTICK"), (drive, "PYBADGEBOOT")],
                write=rebooting_write, sleep=clock.sleep, clock=clock, log=logged.append)
    assert rebooting_write.seen == pybadge_fw()
    assert any("drive vanished" in line for line in logged)


def test_a_drive_that_never_vanishes_is_a_failure(tmp_path):
    drive = boot_drive(tmp_path)
    fw = write_fw(tmp_path, pybadge_fw())
    clock = FakeClock()
    with pytest.raises(flash.FlashError, match="still there after 5 s"):
        flash.flash(fw, get_board("pybadge"), drive=drive, timeout=5, sleep=clock.sleep,
                    clock=clock, log=quiet)
    assert os.path.exists(os.path.join(drive, "fw.uf2"))


def snapshot(folder):
    return sorted((n, open(os.path.join(folder, n), "rb").read()) for n in os.listdir(folder))


@pytest.mark.parametrize("data,info,match", [
    (uf2_blocks(FIRMWARE, RP2040, 0x10000000), PYBADGE_INFO, "is for RP2040"),
    (pybadge_fw()[:3000], PYBADGE_INFO, "not a whole number"),
    (pybadge_fw(), RP2_INFO, "'RPI-RP2', not a pybadge"),
])
def test_wrong_firmware_or_wrong_bootloader_writes_nothing(tmp_path, data, info, match):
    drive = boot_drive(tmp_path, info)
    before = snapshot(drive)
    fw = write_fw(tmp_path, data)
    with pytest.raises(flash.FlashError, match=match):
        flash.flash(fw, get_board("pybadge"), drive=drive, log=quiet)
    assert snapshot(drive) == before


def test_no_bootloader_drive_says_how_to_get_one(tmp_path):
    fw = write_fw(tmp_path, pybadge_fw())
    with pytest.raises(flash.FlashError, match="double-click.*PYBADGEBOOT"):
        flash.flash(fw, get_board("pybadge"), volumes=[], log=quiet)


def test_drive_gone_before_the_copy_fails_clearly(tmp_path):
    with pytest.raises(flash.FlashError, match="after 0 of 10240 bytes"):
        flash.write_firmware(pybadge_fw(), str(tmp_path / "gone"), "fw.uf2")


def test_board_is_guessed_from_family_and_bootloader(tmp_path):
    assert flash.guess_board(uf2_blocks(FIRMWARE, RP2040, 0x10000000)).name == "picosystem"
    assert flash.guess_board(pybadge_fw()) is None  # SAMD51: PyBadge or PyGamer
    assert flash.guess_board(pybadge_fw(), {"Board-ID": "SAMD51J20A-PyGamer-v0"}).name == "pygamer"
    gamer = boot_drive(tmp_path, PYGAMER_INFO, "PYGAMERBOOT")
    fw = write_fw(tmp_path, pybadge_fw())
    clock = FakeClock()
    flash.flash(fw, drive=gamer, write=rebooting_write, sleep=clock.sleep, clock=clock, log=quiet)
    with pytest.raises(flash.FlashError, match="give --board"):
        flash.flash(fw, volumes=[], log=quiet)


def test_touch_opens_the_port_at_1200_baud_then_finds_the_drive(tmp_path):
    target = tmp_path / "RPI-RP2"
    target.mkdir()
    opened = []

    class FakeSerialModule:
        class Serial:
            def __init__(self, port, baud):
                opened.append((port, baud))

            def close(self):
                # The board restarts into its bootloader and its drive appears.
                (target / "INFO_UF2.TXT").write_text(RP2_INFO)

    fw = write_fw(tmp_path, uf2_blocks(FIRMWARE, RP2040, 0x10000000))
    clock = FakeClock()
    flash.flash(fw, get_board("picosystem"), port="/dev/ttyACM0", volumes=[(str(target), "RPI-RP2")],
                serial_module=FakeSerialModule, write=rebooting_write, sleep=clock.sleep,
                clock=clock, log=quiet)
    assert opened == [("/dev/ttyACM0", 1200)]


def test_touch_without_pyserial_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "serial", None)  # makes "import serial" fail
    with pytest.raises(flash.FlashError, match=r"needs pyserial.*\[serial\]"):
        flash.touch("/dev/ttyACM0")


def test_cli_exit_codes(tmp_path, capsys):
    drive = boot_drive(tmp_path)
    fw = write_fw(tmp_path, pybadge_fw()[:1024 + 5])
    assert cli_main(["flash", fw, "--board", "pybadge", "--drive", drive]) == 1
    assert "nothing was written" in capsys.readouterr().err
    assert cli_main(["flash", str(tmp_path / "missing.uf2"), "--board", "pybadge"]) == 1
    assert "cannot read" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        cli_main(["flash", "--help"])
    assert exc.value.code == 0
    assert "--touch PORT" in capsys.readouterr().out


def test_info_uf2_parsing():
    from tanbo_tools.ship.drives import parse_info_uf2
    info = parse_info_uf2(PYBADGE_INFO)
    assert info["banner"].startswith("UF2 Bootloader v3.15.0")
    assert info["Board-ID"] == "SAMD51J19A-PyBadge-v0" and info["Model"] == "PyBadge"


# Hostile input (issue 15.6).

@pytest.mark.parametrize("value", ["nan", "-1", "0", "inf", "-inf", "1e400", "1e9", "soon", ""])
def test_timeout_must_be_a_positive_number_of_seconds(tmp_path, capsys, value):
    fw = write_fw(tmp_path, pybadge_fw())
    with pytest.raises(SystemExit) as exc:
        cli_main(["flash", fw, "--board", "pybadge", "--timeout=" + value])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--timeout" in err and repr(value) in err and "Traceback" not in err
    clock = FakeClock()

    def sleep(dt):
        assert clock.now < 1e4, "waited forever"
        clock.sleep(dt)

    with pytest.raises(flash.FlashError, match="timeout"):
        flash.flash(fw, get_board("pybadge"), drive=boot_drive(tmp_path), timeout=float("nan"),
                    sleep=sleep, clock=clock, log=quiet)


@pytest.mark.parametrize("mutate", [
    lambda d: d[512:],                        # starts at block 1
    lambda d: d[:512] + d[1024:],             # block 1 missing
    lambda d: d + d[:512],                    # a second run that stops after one block
    lambda d: d[:512 * 19] + b"",             # ends early
])
def test_block_numbering_errors_speak_of_blocks_not_internals(mutate):
    with pytest.raises(uf2.UF2Error) as exc:
        uf2.check_uf2(mutate(pybadge_fw()), get_board("pybadge"), "fw.uf2")
    assert "None" not in str(exc.value) and "fw.uf2" in str(exc.value)


@pytest.mark.parametrize("name", ["INFO_UF2.TXT", "info_uf2.txt", "INDEX.HTM", "CURRENT.UF2",
                                  "firmware.bin"])
def test_a_firmware_named_like_the_drives_own_files_is_refused(tmp_path, name):
    drive = boot_drive(tmp_path)
    before = snapshot(drive)
    os.makedirs(str(tmp_path / "dl"))
    fw = write_fw(tmp_path / "dl", pybadge_fw(), name)
    with pytest.raises(flash.FlashError, match="name"):
        flash.flash(fw, get_board("pybadge"), drive=drive, write=rebooting_write, log=quiet)
    assert snapshot(drive) == before
