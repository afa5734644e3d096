"""device/app/store/library.py: a game's end kept without a block of the NVM's size (issue 33) writes,
in pieces, the very bytes the one write would."""

import os
import sys

from hypothesis import given, settings, strategies as st

DEVICE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "device")
sys.path.insert(0, DEVICE)

from tanbo import Game, Rng  # noqa: E402
from app.store import library, save  # noqa: E402

from test_device_save import SETTINGS, RamStorage  # noqa: E402


def random_game(variant, plies, seed):
    """A game of ``variant`` with up to ``plies`` random plies (fewer if it ends first)."""
    g = Game(variant)
    rng = Rng(seed)
    while g.winner is None and g.ply < plies:
        ms = g.legal_moves()
        g.play(ms[rng.below(len(ms))])
    return g


def nvm_with(size, kept, in_progress, progress):
    """Saves over ``size`` bytes of NVM holding the games ``kept`` (each added by :func:`library.keep`),
    then the record of game ``in_progress`` (its turn's save)."""
    saves = save.Saves(RamStorage(size))
    for g in kept:
        assert library.keep(saves, SETTINGS, progress, g, 1)
    saves.save(SETTINGS, in_progress, progress)
    return saves


def copy(saves):
    twin = save.Saves(RamStorage(saves.storage.size))
    twin.storage.data[:] = saves.storage.data
    twin.reach, twin.stored, twin.writes = saves.reach, saves.stored, saves.writes
    return twin


games = st.lists(st.tuples(st.sampled_from(("9x9", "1d", "hexbo-5")), st.integers(1, 400), st.integers(0, 99)),
                 max_size=12)


@settings(max_examples=60, deadline=None)
@given(kept=games, ending=st.tuples(st.sampled_from(("9x9", "13x13", "hexbo-5")), st.integers(1, 700),
                                    st.integers(0, 99)),
       size=st.sampled_from((4096, 8192)), progress=st.binary(max_size=40))
def test_in_pieces_the_nvm_ends_as_the_one_write_leaves_it(kept, ending, size, progress):
    saves = nvm_with(size, [random_game(*k) for k in kept], None, progress)
    g = random_game(*ending)
    saves.save(SETTINGS, g, progress)  # the game in progress, its last turn's save
    twin = copy(saves)
    front = save.HEADER + save.payload_size(SETTINGS, None, progress)
    e = 2 * g.ply + library.TAIL
    whole = library.keep(saves, SETTINGS, progress, g, 5)
    if front + e > size:
        assert whole == 0 and twin.storage.data == saves.storage.data
        return
    low, held = library.kept_games(twin.storage, twin.reach, front, e)
    writes = len(twin.storage.writes)
    pieces = library.keep_in_place(twin, SETTINGS, progress, g, 5, front, e, low, held)
    assert pieces == whole >= 1
    assert twin.storage.data == saves.storage.data
    assert (twin.reach, twin.stored) == (saves.reach, saves.stored)
    made = twin.storage.writes[writes:]
    assert twin.writes - saves.writes == len(made) - 1  # each write counted
    assert all(n <= max(library.PIECE, e, front) for _, n in made)
    assert library.scan(twin.storage, twin.reach) == library.scan(saves.storage, saves.reach)


def test_with_no_block_of_the_nvms_size_the_game_is_kept_in_pieces(monkeypatch):
    saves = nvm_with(8192, [random_game("9x9", 60, s) for s in range(5)], random_game("9x9", 40, 9), b"")
    twin = copy(saves)
    g = random_game("9x9", 90, 11)
    whole = library.keep(twin, SETTINGS, b"", g, 5)

    def no_big_block(n):
        if n >= 8192:
            raise MemoryError("memory allocation failed, allocating %d bytes" % n)
        return bytearray(n)
    monkeypatch.setattr(library, "bytearray", no_big_block, raising=False)
    writes = len(saves.storage.writes)
    assert library.keep(saves, SETTINGS, b"", g, 5) == whole == 6
    assert len(saves.storage.writes) - writes > 1  # in pieces
    assert max(n for _, n in saves.storage.writes[writes:]) <= library.PIECE
    assert saves.storage.data == twin.storage.data
    assert library.load_game(saves.storage, 8192).moves() == g.moves()
