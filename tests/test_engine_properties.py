"""Randomized invariants of the engine against a naive referee (tests/oracle.py).

Every ply of every game: no root is bounded, every root holds exactly one
initial stone, the legal moves equal a from-scratch recomputation, the
board equals the referee's, and undo restores the exact previous state.
Every game ends with one player left, within the variant's ply bound.
"""

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import tanbo
from oracle import Oracle

SLOW = {"19x19", "dense-19", "4p", "dense-15", "hexbo", "hexbo-3p", "hexbo-6p"}


def check_invariants(g, o, initial_alive):
    assert list(g.board) == o.board
    assert g.to_move == o.to_move and g.winner == o.winner
    assert g.legal_moves() == sorted(o.legal())
    for player, group in o.roots():
        assert o.space(player, group), "a bounded root survived the turn"
        assert len(group & initial_alive) == 1, "a root without exactly one initial stone"
    # the engine's own books agree with the referee's roots
    for player, group in o.roots():
        r = g.root_at(min(group))
        assert set(g.root_stones(r)) == group
        assert set(g.root_space(min(group))) == o.space(player, group)
    for k in range(1, g.players + 1):
        assert g.stones(k) == sum(1 for c in o.board if c == k)
        assert g.legal_moves(k) == sorted(o.legal(k))  # the hints of the player not to move
    # the public questions a UI asks, against the referee's board
    if g.winner is None:
        nb = g.variant.neighbours
        for p in range(g.variant.size):
            touching = sum(1 for q in nb[p] if o.board[q] == g.to_move)
            assert g.touching(p) == touching
            reason = g.illegal_reason(p)
            if o.board[p]:
                assert reason[0] == tanbo.OCCUPIED
            elif touching == 1:
                assert reason is None
                q = [q for q in nb[p] if o.board[q] == g.to_move][0]
                assert g.growing_root(p) == g.root_at(q)
            else:
                assert reason[0] == (tanbo.NOT_CONNECTED if touching == 0 else tanbo.TOUCHES_SEVERAL)
            if reason is not None:
                assert g.growing_root(p) is None


def play_out(name, seed, resign_rate):
    g = tanbo.Game(name)
    o = Oracle(g.variant)
    rng = tanbo.Rng(seed)
    initial_alive = set(p for p, _ in g.variant.setup)
    check_invariants(g, o, initial_alive)
    while not g.over:
        assert g.ply < g.variant.max_plies
        before = g.state_key()
        if g.players > 2 and rng.below(1000) < resign_rate:
            who = g.to_move
            removed = g.resign(who)
            for p in removed:
                o.board[p] = 0
            o._update_winner()
            if o.winner is None:
                if o.to_move == who:
                    k = who
                    while True:
                        k = k % g.players + 1
                        if k in o.board:
                            break
                    o.to_move = k
            else:
                o.to_move = o.winner
        else:
            move = g.legal_move_at(rng.below(g.legal_count()))
            removed = g.play(move)
            assert removed == o.play(move)
        initial_alive -= set(removed)
        check_invariants(g, o, initial_alive)
        after = g.state_key()
        undone = g.undo()
        assert g.state_key() == before
        if undone >= 0:
            g.play(undone)
        else:
            g.resign(-undone)
        assert g.state_key() == after
    assert sum(1 for k in range(1, g.players + 1) if g.stones(k)) == 1
    assert g.winner is not None and g.stones(g.winner) > 0
    final = g.state_key()
    # undo the whole game, then replay it from its record
    record = g.record()
    while g.ply:
        g.undo()
    assert g.state_key() == tanbo.Game(name).state_key()
    assert tanbo.Game.from_record(record).state_key() == final


@pytest.mark.parametrize("name", [v for v in tanbo.VARIANTS if v not in SLOW])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**30))
def test_random_games_keep_every_invariant(name, seed):
    play_out(name, seed, 8 if name in ("hexbo-5-3p", "hexbo-5-6p") else 0)


@pytest.mark.parametrize("name", ["hexbo-4", "hexbo-7-3p", "hexbo-6-6p"])
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**30))
def test_random_games_of_other_hexbo_sides_keep_every_invariant(name, seed):
    play_out(name, seed, 8 if tanbo.get_variant(name).players > 2 else 0)


@pytest.mark.parametrize("name", sorted(SLOW))
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**30))
def test_random_big_games_keep_every_invariant(name, seed):
    play_out(name, seed, 4 if name in ("4p", "hexbo-3p", "hexbo-6p") else 0)


@pytest.mark.parametrize("name", ["9x9", "dense-11", "3d", "hexbo-5-3p", "hexbo-5-6p"])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**30), where=st.sampled_from(["_remove_root", "_close_block", "_check_winner"]),
       every=st.integers(1, 4))
def test_a_ply_broken_off_midway_and_replayed_keeps_every_invariant(name, seed, where, every):
    """A removal's step raising inside the ply (a board's full heap) at every
    ``every``-th removing ply: the game says it is broken, and replayed it is
    the game that played the same moves whole, by the referee's books."""
    g, twin = tanbo.Game(name), tanbo.Game(name)
    o = Oracle(g.variant)
    rng = tanbo.Rng(seed)
    initial_alive = set(p for p, _ in g.variant.setup)
    removals = 0

    def boom(*args):
        raise MemoryError("memory allocation failed, allocating 512 bytes")
    while not g.over:
        move = g.legal_move_at(rng.below(g.legal_count()))
        removed = twin.play(move)
        assert removed == o.play(move)
        if removed:
            removals += 1
        if removed and removals % every == 0:
            setattr(g, where, boom)
            with pytest.raises(MemoryError):
                g.play(move)
            delattr(g, where)
            assert g.broken() and g.last_move() == move
            g.replay()
        else:
            g.play(move)
        assert not g.broken() and g.state_key() == twin.state_key()
        initial_alive -= set(removed)
        check_invariants(g, o, initial_alive)
    assert removals >= 1
    g.undo()
    twin.undo()
    assert g.state_key() == twin.state_key()
