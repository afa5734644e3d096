"""device/app/save.py: double-buffered NVM saves with length and CRC; damage is found, never fatal."""

import binascii
import os
import sys

import pytest

DEVICE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "device")
sys.path.insert(0, DEVICE)

from tanbo import VARIANTS, Game  # noqa: E402
from app import save  # noqa: E402

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
        assert save.crc32_py(data) == binascii.crc32(data)
        assert save.crc32_py(data, 12345) == binascii.crc32(data, 12345)


def test_round_trip_restores_game_and_settings():
    st = RamStorage(4096)
    g = played("9x9", ["H7", "B7", "G8"])
    g.resign()
    assert save.Saves(st).save(SETTINGS, g)
    settings, loaded, problem = save.Saves(st).load(len(SETTINGS))
    assert problem is None and settings == SETTINGS
    assert loaded.history == g.history and loaded.position() == g.position()
    assert loaded.winner == g.winner


def test_newest_of_two_slots_wins_and_writes_alternate():
    st = RamStorage(4096)
    s = save.Saves(st)
    s.save(SETTINGS, played("9x9", ["H7"]))
    s.save(SETTINGS, played("9x9", ["H7", "B7"]))
    assert [off for off, _ in st.writes if off in (0, 2048)] == [0, 2048]
    _, g, problem = save.Saves(st).load(8)
    assert problem is None and g.ply == 2


@pytest.mark.parametrize("where", [save.HEADER + 9, 4, 8, 12])
def test_a_flipped_byte_is_reported_once_and_the_older_save_used(where):
    st = RamStorage(4096)
    s = save.Saves(st)
    s.save(SETTINGS, played("9x9", ["H7"]))
    s.save(SETTINGS, played("9x9", ["H7", "B7"]))  # newest in slot 1
    st.data[2048 + where] ^= 0x41
    _, g, problem = save.Saves(st).load(8)
    assert problem is not None and "slot 1" in problem
    assert g.ply == 1
    _, g, problem = save.Saves(st).load(8)
    assert problem is None and g.ply == 1  # erased: not reported again


def test_torn_write_leaves_previous_save():
    st = RamStorage(4096)
    s = save.Saves(st)
    s.save(SETTINGS, played("9x9", ["H7"]))
    s.save(SETTINGS, played("9x9", ["H7", "B7"]))
    # A reset after the payload of a third save but before its header: slot 0
    # holds the new payload under the old header.
    payload = save.encode(SETTINGS, played("9x9", ["H7", "B7", "G8"]))
    st.write(save.HEADER, payload)
    _, g, problem = save.Saves(st).load(8)
    assert g.ply == 2 and (problem is None or "slot 0" in problem)


def test_valid_crc_but_illegal_moves_is_damage_not_a_crash():
    st = RamStorage(4096)
    s = save.Saves(st)
    payload = SETTINGS + bytes((VARIANTS.index("9x9"),))
    payload += bytes((0, 0))  # A9: touches no black stone
    import struct
    fields = struct.pack("<IH", 7, len(payload))
    crc = save.checksum(payload, save.checksum(fields))
    st.write(0, save.MAGIC + fields + struct.pack("<I", crc) + payload)
    settings, g, problem = s.load(8)
    assert g is None and settings is None and "ply" in problem


def test_empty_storage_has_no_save_and_no_problem():
    assert save.Saves(RamStorage(4096)).load(8) == (None, None, None)


def test_too_long_game_is_refused_without_writing():
    st = RamStorage(64)
    g = played("9x9", ["H7", "B7", "G8", "C8", "F8", "D8", "E8", "B6", "H6", "B5", "H5"])
    assert not save.Saves(st).save(SETTINGS, g)
    assert st.writes == []
