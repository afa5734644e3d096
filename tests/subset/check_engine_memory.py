"""The engine's memory target, in its own process: a whole 19x19 game with
its undo history (under the runner's heap cap, tests/interpreters.py; the
64 KB target itself is checked in a bare process, tests/test_bench.py).
"""

import tanbo
from tanbo import Game


def test_full_19x19_game_with_history():
    # The memory target: a whole 19x19 game with its undo history.
    import gc
    g = Game("19x19")
    rng = tanbo.Rng(3)
    while not g.over:
        g.play(g.legal_move_at(rng.below(g.legal_count())))
    gc.collect()
    assert g.ply > 300 and g.winner is not None
    g.undo()
    assert g.winner is None
