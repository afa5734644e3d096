"""device/app/save.py: one NVM record with length and CRC, one write per save; damage is found, never fatal."""

import binascii
import os
import sys

import pytest

DEVICE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "device")
sys.path.insert(0, DEVICE)

from tanbo import VARIANTS, Game  # noqa: E402
from app import crc32, save, save_load  # noqa: E402

SETTINGS = bytes(range(8))


class RamStorage:
    """The Storage contract over a bytearray (NVM erased state 0xFF)."""

    def __init__(self, size):
        self.data = bytearray(b"\xff" * size)
        self.size = size
        self.writes = []

    def read(self, offset, n):
        return bytes(self.data[offset:offset + n])

    def write(self, offset, data):
        self.writes.append((offset, len(data)))
        self.data[offset:offset + len(data)] = data


def played(variant, moves):
    g = Game(variant)
    for m in moves:
        g.play_move(m)
    return g


def test_pure_python_crc_matches_binascii():
    for data in (b"", b"a", b"Tanbo by Mark Steere", bytes(range(256)) * 3):
        assert crc32.crc32(data) == binascii.crc32(data)
        assert crc32.crc32(data, 12345) == binascii.crc32(data, 12345)


def test_round_trip_restores_game_and_settings():
    st = RamStorage(4096)
    g = played("9x9", ["H7", "B7", "G8"])
    g.resign()
    assert save.Saves(st).save(SETTINGS, g)
    settings, loaded, problem = save_load.load(save.Saves(st), len(SETTINGS))
    assert problem is None and settings == SETTINGS
    assert loaded.moves() == g.moves() and loaded.position() == g.position()
    assert loaded.winner == g.winner


def test_a_save_is_one_slice_write_and_an_unchanged_save_writes_nothing():
    st = RamStorage(4096)
    s = save.Saves(st)
    g = played("9x9", ["H7"])
    s.save(SETTINGS, g)
    s.save(SETTINGS, g)  # nothing changed
    assert st.writes == [(0, save.HEADER + len(SETTINGS) + 1 + 2)] and s.writes == 1
    g.play_move("B7")
    s.save(SETTINGS, g)
    assert len(st.writes) == 2 and st.writes[1][0] == 0
    # A fresh start knows what the NVM holds: saving the same again writes nothing.
    again = save.Saves(st)
    _, loaded, _ = save_load.load(again, 8)
    again.save(SETTINGS, loaded)
    assert len(st.writes) == 2 and again.writes == 0
    again.save(bytes(8), loaded)  # the settings changed
    assert len(st.writes) == 3


@pytest.mark.parametrize("where", [0, 1, 3, 4, 6, save.HEADER + 3, save.HEADER + 9])
def test_a_flipped_byte_is_reported_once_and_the_save_dropped(where):
    st = RamStorage(4096)
    save.Saves(st).save(SETTINGS, played("9x9", ["H7", "B7"]))
    st.data[where] ^= 0x41
    s = save.Saves(st)
    settings, g, problem = save_load.load(s, 8)
    assert g is None and settings is None
    assert problem is not None  # a broken magic too: the NVM is neither a record nor blank
    assert ("magic" in problem) == (where < 4)
    assert save_load.load(save.Saves(st), 8) == (None, None, None)  # erased: not reported again
    assert s.save(SETTINGS, played("9x9", ["H7"]))  # and the next save works
    assert save_load.load(save.Saves(st), 8)[1].ply == 1


@pytest.mark.parametrize("programmed", [0, 3, save.HEADER, save.HEADER + 9, 23])
def test_a_power_cut_during_the_write_is_found_never_a_crash(programmed):
    # On the boards a write erases the sector (all 0xFF) and then programs it
    # from the start: a cut leaves the first ``programmed`` bytes of the new record.
    st = RamStorage(4096)
    s = save.Saves(st)
    s.save(SETTINGS, played("9x9", ["H7", "B7"]))
    old = bytes(st.data[:save.HEADER + 13])
    s.save(SETTINGS, played("9x9", ["H7", "B7", "G8"]))
    new = bytes(st.data[:save.HEADER + 15])
    assert old != new[:len(old)]
    st.data[:] = b"\xff" * 4096
    st.data[:programmed] = new[:programmed]
    settings, g, problem = save_load.load(save.Saves(st), 8)
    assert g is None and settings is None
    assert (problem is None) == (programmed == 0)  # a part of the magic is damage, not blank


@pytest.mark.parametrize("head", [b"TNB1\x01\x00\x00\x00", b"\xffNB2", b"TNB\xff", b"\x00\x00\x00\x01",
                                  b"\xfe\xff\xff\xff"])
def test_anything_but_a_record_or_blank_is_reported_and_dropped(head):
    st = RamStorage(4096)
    st.data[:len(head)] = head
    s = save.Saves(st)
    settings, g, problem = save_load.load(s, 8)
    assert (settings, g) == (None, None) and problem.startswith("magic ")
    assert s.writes == 1 and save_load.load(save.Saves(st), 8) == (None, None, None)  # once


@pytest.mark.parametrize("blank", [b"\xff" * 4096, b"\x00" * 4096])
def test_blank_nvm_is_no_save_and_no_problem(blank):
    st = RamStorage(4096)
    st.data[:] = blank
    s = save.Saves(st)
    assert save_load.load(s, 8) == (None, None, None) and s.writes == 0


def test_valid_crc_but_illegal_moves_is_damage_not_a_crash():
    st = RamStorage(4096)
    s = save.Saves(st)
    payload = SETTINGS + bytes((VARIANTS.index("9x9"),))
    payload += bytes((0, 0))  # A9: touches no black stone
    import struct
    fields = struct.pack("<H", len(payload))
    crc = save.checksum(payload, save.checksum(fields))
    st.write(0, save.MAGIC + fields + struct.pack("<I", crc) + payload)
    settings, g, problem = save_load.load(s, 8)
    assert g is None and settings is None and "ply" in problem


def test_empty_storage_has_no_save_and_no_problem():
    assert save_load.load(save.Saves(RamStorage(4096)), 8) == (None, None, None)


def test_too_long_game_is_refused_without_writing():
    st = RamStorage(32)
    g = played("9x9", ["H7", "B7", "G8", "C8", "F8", "D8", "E8", "B6", "H6", "B5", "H5"])
    assert not save.Saves(st).save(SETTINGS, g)
    assert st.writes == []
