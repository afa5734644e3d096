"""The computer on Hexbo in the MicroPython subset: every level's move is
legal with 2, 3 and 6 players, and hard's seeded answers are CPython's.

Run by tests/subset/run.py on CPython and the MicroPython unix port.
"""

from tanbo.ai import LEVELS, choose_move
from tanbo.perf import random_position

# hard's answers to seeded positions, as CPython computes them: every
# interpreter must agree. Retuning the AI changes these: recompute with
# expected_moves().
EXPECTED = "G6 G6 B3"


def expected_moves():
    out = []
    for seed, name in enumerate(("hexbo-5", "hexbo-5-3p", "hexbo-5-6p")):
        g = random_position(name, 8 + 6 * seed, seed)
        out.append(g.name(choose_move(g, "hard", seed=seed)))
    return " ".join(out)


def test_levels_play_legal_moves():
    for variant in ("hexbo-5", "hexbo-5-3p", "hexbo-5-6p"):
        g = random_position(variant, 10, 1)
        for level in LEVELS:
            assert g.is_legal(choose_move(g, level, seed=2)), (variant, level)


def test_same_answers_as_cpython():
    assert expected_moves() == EXPECTED, expected_moves()
