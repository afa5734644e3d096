"""The computer on Hexbo in the MicroPython subset: every level's move is
legal with 2, 3 and 6 players, and hard's seeded answers are CPython's.

Run by tests/subset/run.py on CPython and the MicroPython unix port.
"""

from check_ai import hard_moves, levels_play_legal

# hard's answers to seeded positions, as CPython computes them: every
# interpreter must agree. Retuning the AI changes these: recompute with
# expected_moves().
EXPECTED = "G6 G6 B3"


def expected_moves():
    return hard_moves([("hexbo-5", 8, 0), ("hexbo-5-3p", 14, 1), ("hexbo-5-6p", 20, 2)])


def test_levels_play_legal_moves():
    levels_play_legal(("hexbo-5", "hexbo-5-3p", "hexbo-5-6p"), 10)


def test_same_answers_as_cpython():
    assert expected_moves() == EXPECTED, expected_moves()
