"""device/app/store/save.py: one NVM record with length and CRC, one write per save; damage is found, never fatal."""

import binascii
import os
import sys

import pytest

DEVICE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "device")
sys.path.insert(0, DEVICE)

from tanbo import VARIANTS, Game  # noqa: E402
from app.store import crc32, save, save_load  # noqa: E402
from app.store.progress import Progress  # noqa: E402

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


@pytest.mark.parametrize("variant", ["hexbo-5-3p", "hexbo-6p"])
def test_a_hexbo_game_with_players_5_and_6_resigning_comes_back_whole(variant):
    from tanbo import Rng
    g, r = Game(variant), Rng(5)
    for ply in range(60):
        if g.winner is not None:
            break
        if ply in (20, 31) and g.variant.players == 6:
            g.resign(6 if ply == 20 else 5)  # a ply of 0xFFF0 + player each
        else:
            g.play(g.legal_move_at(r.below(g.legal_count())))
    st = RamStorage(4096)  # a PicoSystem's NVM, the smaller
    assert save.Saves(st).save(SETTINGS, g)
    settings, loaded, problem = save_load.load(save.Saves(st), len(SETTINGS))
    assert problem is None and loaded.variant.name == variant
    assert loaded.moves() == g.moves() and loaded.position() == g.position() and loaded.to_move == g.to_move


def test_the_longest_hexbo_games_fit_the_nvm_record_as_board_costs_says():
    # hexbo-5's bound on plies fits a PicoSystem's 4 KB; hexbo's (2,821) the
    # PyBadge's 8 KB only (the app says "game too long to save" past 2,020
    # plies on a PicoSystem); 60 random games of hexbo-6p took 365 at most.
    full_progress = bytes(6 + 30)  # 240 puzzles solved
    for variant, nvm, fits in (("hexbo-5-6p", 4096, True), ("hexbo-6p", 8192, True), ("hexbo-6p", 4096, False)):
        v = Game(variant).variant

        class Longest:
            ply = v.max_plies
        size = save.payload_size(SETTINGS, Longest, full_progress)
        assert (size <= save.Saves(RamStorage(nvm)).capacity) == fits, (variant, nvm, size)


def test_a_save_is_one_slice_write_and_an_unchanged_save_writes_nothing():
    st = RamStorage(4096)
    s = save.Saves(st)
    g = played("9x9", ["H7"])
    s.save(SETTINGS, g)
    s.save(SETTINGS, g)  # nothing changed
    # settings, the progress length (0), the variant, the ply count, one ply
    assert st.writes == [(0, save.HEADER + len(SETTINGS) + 1 + 1 + 2 + 2)] and s.writes == 1
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
    payload = SETTINGS + bytes((0, VARIANTS.index("9x9"), 1, 0))  # no progress, 9x9, one ply
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


def record(magic, payload):
    import struct
    fields = struct.pack("<H", len(payload))
    return magic + fields + struct.pack("<I", save.checksum(payload, save.checksum(fields))) + payload


def test_puzzle_progress_rides_in_the_record_and_comes_back():
    st = RamStorage(4096)
    p = Progress()
    p.of("cafe0123")
    for n in (1, 2, 3, 17):
        p.mark(n)
    p.resume = 18
    g = played("9x9", ["H7", "B7"])
    assert save.Saves(st).save(SETTINGS, g, p.pack())
    s = save.Saves(st)
    settings, loaded, problem = save_load.load(s, 8)
    assert problem is None and settings == SETTINGS and loaded.moves() == g.moves()
    back = Progress()
    back.unpack(s.progress)
    assert back.resume == 18 and back.count() == 4 and back.ident == 0xCAFE0123
    assert [n for n in range(1, 40) if back.solved(n)] == [1, 2, 3, 17]
    # The same record again: no write.
    s.save(SETTINGS, loaded, back.pack())
    assert s.writes == 0


@pytest.mark.parametrize("magic,head", [
    (b"TNB2", SETTINGS + bytes((VARIANTS.index("9x9"),))),  # before puzzles: no progress section
    (b"TNB3", SETTINGS + bytes((0, VARIANTS.index("9x9")))),  # before the library: no ply count
])
def test_a_save_of_a_version_before_still_resumes(magic, head):
    # Settings, (progress,) variant, then the plies to the payload's end.
    st = RamStorage(4096)
    g = played("9x9", ["H7", "B7", "G8"])
    payload = head
    for m in g.moves():
        payload += bytes((m & 255, m >> 8))
    st.write(0, record(magic, payload))
    s = save.Saves(st)
    settings, loaded, problem = save_load.load(s, 8)
    assert problem is None and settings == SETTINGS and loaded.position() == g.position()
    assert s.progress == b""
    loaded.play_move("C8")
    s.save(SETTINGS, loaded)  # written again in today's format
    assert st.data[:4] == save.MAGIC == b"TNB4"
    assert save_load.load(save.Saves(st), 8)[1].moves() == loaded.moves()


def test_a_progress_length_past_the_payload_is_damage():
    st = RamStorage(4096)
    st.write(0, record(save.MAGIC, SETTINGS + bytes((40, 1, 0, 255))))  # 40 bytes claimed, 3 there
    settings, g, problem = save_load.load(save.Saves(st), 8)
    assert settings is None and g is None and "shape" in problem


def test_progress_packs_small_and_reads_back_what_it_wrote():
    p = Progress()
    assert p.pack() == b"" and p.count() == 0 and not p.solved(1)
    assert not p.of("0a0b0c0d")  # the first collection: nothing to forget
    assert p.pack() == bytes((0, 0, 0x0D, 0x0C, 0x0B, 0x0A))  # opened, no puzzle yet: its identity
    assert Progress.unpacked(p.pack()).ident == 0x0A0B0C0D
    assert p.mark(9) and not p.mark(9)
    assert p.solved(9) and not p.solved(8) and not p.solved(10) and not p.solved(0)
    p.resume = 300
    assert p.pack() == bytes((44, 1, 0x0D, 0x0C, 0x0B, 0x0A, 0, 1))  # resume 300, the identity, bit 8
    q = Progress()
    q.unpack(p.pack())
    assert q.resume == 300 and q.solved(9) and q.count() == 1 and not q.of("0A0B0C0D")
    for n in range(1, 1993):
        p.mark(n)
    assert len(p.pack()) == 255 and p.count() == 1992  # the record's length byte holds it
    q.unpack(b"\x05\x00\x01")  # too short: the values stay
    assert q.resume == 300


def test_progress_of_another_collection_is_forgotten():
    p = Progress()
    p.of("00000001")
    p.mark(3)
    p.resume = 4
    assert not p.of("00000001") and p.solved(3)
    assert p.of("00000002")  # an update of the collection: numbers mean other puzzles
    assert p.count() == 0 and p.resume == 0 and p.ident == 2
    q = Progress.unpacked(b"")  # packed before any collection was opened: the first one is its own
    q.mark(5)
    assert not q.of("00000003") and q.solved(5) and q.ident == 3
